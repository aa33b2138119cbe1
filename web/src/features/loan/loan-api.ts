/** Quote, affordability and apply (PRODUCT.md 8 `/loan/quote`, `/loan/apply`; issue 52). */
import { api } from '@/lib/api';
import type { Affordability, Disclosure } from '@/lib/api-types';

export interface LoanTermsRequest {
  /** Principal as a decimal string. */
  amt: string;
  periodDays: number;
  appId: number;
  configId?: number;
  /** Apply only: the `productVersion` of the disclosure the borrower was shown. */
  productVersion?: number;
}

export const loanApi = api.injectEndpoints({
  endpoints: (build) => ({
    quote: build.query<Disclosure, LoanTermsRequest>({
      query: (body) => ({ url: 'jackey/loan/quote', body }),
    }),
    /** The largest amount per period the declared income allows (the session's own). */
    affordability: build.query<Affordability, number>({
      query: (appId) => ({ url: 'jackey/loan/affordability', body: { appId } }),
      // A new questionnaire answer (it invalidates `User`) changes the limits.
      providesTags: ['User'],
    }),
    apply: build.mutation<{ loanOrderId: string }, LoanTermsRequest & { idempotencyKey: string }>({
      query: ({ idempotencyKey, ...body }) => ({
        url: 'jackey/loan/apply',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Progress', 'Orders', 'User', 'Order'],
    }),
  }),
});

export const { useQuoteQuery, useAffordabilityQuery, useApplyMutation } = loanApi;
