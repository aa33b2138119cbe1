/**
 * Calls that several features read: the company configuration, products and
 * reference lists (PRODUCT.md 8 `/loan/*` config calls), the borrower's own
 * record (`/user/info`) and the latest order's progress. Features add their own
 * calls to the same slice with `api.injectEndpoints`.
 */
import { COMPANY_ID } from '@/config/constants';
import { api } from './api';
import type { CompanyConfig, Order, PeriodConfig, Product, Progress, User } from './types';

/** Keys of `/loan/getConfigByKey` (PRODUCT.md 8). */
export type ListKey = 'website' | 'marriage' | 'education' | 'banks' | 'provinces';

/** Purposes of `/jackey/sms/{purpose}` (PRODUCT.md 8). */
export type SmsPurpose = 'register' | 'login' | 'unlock' | 'bank' | 'pin';

export interface Region {
  region: string;
  provinces: string[];
}

export const sharedApi = api.injectEndpoints({
  endpoints: (build) => ({
    companyConfig: build.query<CompanyConfig, void>({
      query: () => ({ url: 'jackey/loan/getAllCompanyConfigs', body: { appId: 1 } }),
      providesTags: ['Config'],
    }),
    customerService: build.query<string | null, void>({
      query: () => ({ url: 'jackey/loan/getCustomerService', body: { appId: 1 } }),
      providesTags: ['Config'],
    }),
    products: build.query<Product[], void>({
      query: () => 'jackey/loan/appList',
      providesTags: ['Config'],
    }),
    periodConfig: build.query<PeriodConfig, number>({
      query: (appId) => ({ url: 'jackey/loan/getPeriodConfig', body: { appId } }),
      providesTags: ['Config'],
    }),
    referenceList: build.query<unknown[], ListKey>({
      query: (key) => ({ url: 'jackey/loan/getConfigByKey', body: { key } }),
      providesTags: ['Config'],
    }),
    userInfo: build.query<User, void>({
      query: () => 'jackey/user/info',
      providesTags: ['User'],
    }),
    sendSms: build.mutation<null, { purpose: SmsPurpose; mobile: string }>({
      query: ({ purpose, mobile }) => ({
        url: `jackey/sms/${purpose}`,
        body: { mobile, appId: 1, companyId: COMPANY_ID },
      }),
    }),
    orderInfo: build.query<Order, string | void>({
      query: (loanOrderId) => ({ url: 'jackey/loan/orderInfo', body: loanOrderId ? { loanOrderId } : {} }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id: id ?? 'latest' }, 'Order'],
    }),
    uploadSignature: build.mutation<null, string>({
      query: (img) => ({ url: 'jackey/user/signatureImg/upload', body: { img } }),
      invalidatesTags: ['User'],
    }),
    loanProgress: build.query<Progress | null, void>({
      query: () => 'jackey/loan/getLoanProgress',
      providesTags: ['Progress'],
    }),
  }),
});

export const {
  useCompanyConfigQuery,
  useCustomerServiceQuery,
  useProductsQuery,
  usePeriodConfigQuery,
  useReferenceListQuery,
  useUserInfoQuery,
  useLoanProgressQuery,
  useSendSmsMutation,
  useOrderInfoQuery,
  useUploadSignatureMutation,
} = sharedApi;
