/** Quote and apply (PRODUCT.md 8 `/loan/quote`, `/loan/apply`). */
import { api } from '@/lib/api';
import type { Disclosure } from '@/lib/api-types';

export interface LoanTermsRequest {
  /** Principal as a decimal string. */
  amt: string;
  periodDays: number;
  appId: number;
  configId?: number;
}

export const loanApi = api.injectEndpoints({
  endpoints: (build) => ({
    quote: build.query<Disclosure, LoanTermsRequest>({
      query: (body) => ({ url: 'jackey/loan/quote', body }),
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

export const { useQuoteQuery, useApplyMutation } = loanApi;
