/**
 * Calls that several features read: the company configuration, products and
 * reference lists (PRODUCT.md 8 `/loan/*` config calls), the borrower's own
 * record (`/user/info`), the latest order's progress, and the orders themselves
 * (the list, one order, the latest order, an order's timeline). Features add
 * their own calls to the same slice with `api.injectEndpoints`.
 *
 * Tags: `Order` per order id for everything read about one order, `Orders` for
 * what depends on which orders exist (the list, which order is the latest).
 */
import { COMPANY_ID } from '@/config/constants';
import { api, orNull } from './api';
import i18n from './i18n';
import type { CompanyConfig, Order, OrderSummary, Progress, TimelineEvent, User, PeriodConfig, Product } from './api-types';

/** Keys of `/loan/getConfigByKey` (PRODUCT.md 8). */
export type ListKey = 'website' | 'marriage' | 'education' | 'banks' | 'eWallets' | 'provinces';

/** Purposes of `/jackey/sms/{purpose}` (PRODUCT.md 8). */
export type SmsPurpose = 'register' | 'login' | 'unlock' | 'bank' | 'pin' | 'reset';

/** The location tree of `provinces` (see `./place`). */
export type { Region } from './place';

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
        // The text comes in the app's language (issue 52).
        body: { mobile, appId: 1, companyId: COMPANY_ID, lang: i18n.language },
      }),
    }),
    /** `/loan/getUserOrderList`: {orderId, status, principal, applyTime}, newest first. */
    orderList: build.query<OrderSummary[], void>({
      query: () => 'jackey/loan/getUserOrderList',
      providesTags: (list = []) => ['Orders', ...list.map((o) => ({ type: 'Order' as const, id: o.orderId }))],
    }),
    /** `/loan/orderInfo` of one order; fails with 40007 when it is not the borrower's. */
    orderInfo: build.query<Order, string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/orderInfo', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id }],
    }),
    /**
     * `/loan/orderInfo` without an id: the borrower's latest order (the active loan
     * when there is one), or `null` when there is none. "Nothing there" (40007) is
     * the empty state of the screens that read it, not an error.
     */
    latestOrder: build.query<Order | null, void>({
      queryFn: (_arg, _api, _extra, baseQuery) => orNull<Order>(baseQuery, { url: 'jackey/loan/orderInfo', body: {} }),
      providesTags: (order) => (order ? ['Orders', { type: 'Order', id: order.orderId }] : ['Orders']),
    }),
    /** `/loan/orderTimeline`: the order's events as the borrower sees them, oldest first. */
    orderTimeline: build.query<TimelineEvent[], string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/orderTimeline', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id }],
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
  useOrderListQuery,
  useOrderInfoQuery,
  useLatestOrderQuery,
  useOrderTimelineQuery,
  useUploadSignatureMutation,
} = sharedApi;
