/**
 * Repayment calls (PRODUCT.md 8, P1, P12): what closes the loan today
 * (`/loan/payoffQuote`), opening the payment page (`/loan/recharge`) and the money
 * movements derived from the orders' timelines. The active or latest loan is
 * lib/shared-api's `latestOrder` (null when there is none); "nothing owed" (40007)
 * is likewise data (`null`), not an error: it is the empty state of these screens.
 */
import { api, orNull } from '@/lib/api';
import type { ApiFailure } from '@/lib/envelope';
import { sharedApi } from '@/lib/shared-api';
import { deriveMovements, hasMovements, type Movement } from './movements';

/** `/loan/payoffQuote` (P12). Money fields are decimal strings. */
export interface PayoffQuote {
  /** What closes the loan today: interest only for the days elapsed (at least one). */
  amount: string;
  /** Interest not charged when paying today. */
  interestWaived: string;
  /** Fees not charged when paying today. */
  feesWaived: string;
  /** Within the cooling-off window: returning the principal closes the loan free. */
  coolingOff: boolean;
}

export interface RechargeRequest {
  /** The loan being repaid (for the cache only: the api repays the active loan). */
  orderId: string;
  /** Decimal string with two places. */
  amt: string;
  idempotencyKey: string;
}

export const repayApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** What closes the loan today, or null when nothing is owed. */
    payoffQuote: build.query<PayoffQuote | null, string>({
      queryFn: (loanOrderId, _api, _extra, baseQuery) =>
        orNull<PayoffQuote>(baseQuery, { url: 'jackey/loan/payoffQuote', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => ['Payoff', { type: 'Order', id }],
    }),
    /** Opens a payment page for `amt`; `data` is its URL (`/pay/sandbox/{session}` by default). */
    recharge: build.mutation<string, RechargeRequest>({
      query: ({ amt, idempotencyKey }) => ({
        url: 'jackey/loan/recharge',
        body: { amt },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { orderId }) => ['Payoff', { type: 'Order', id: orderId }],
    }),
    /**
     * Disbursements and repayments of every order, newest first: the order list,
     * then the timeline of each order that was paid out (the shared calls, so they
     * share the cache).
     */
    moneyMovements: build.query<Movement[], void>({
      queryFn: async (_arg, { dispatch }) => {
        const read = { subscribe: false, forceRefetch: true };
        try {
          const list = await dispatch(sharedApi.endpoints.orderList.initiate(undefined, read)).unwrap();
          const orders = list.filter((o) => hasMovements(o.status));
          const timelines = await Promise.all(
            orders.map((o) => dispatch(sharedApi.endpoints.orderTimeline.initiate(o.orderId, read)).unwrap()),
          );
          return { data: deriveMovements(orders.map((o, i) => ({ orderId: o.orderId, orderNo: o.orderNo, events: timelines[i] }))) };
        } catch (error) {
          return { error: error as ApiFailure };
        }
      },
      providesTags: (movements = []) => [
        'Orders',
        ...[...new Set(movements.map((m) => m.orderId))].map((id) => ({ type: 'Order' as const, id })),
      ],
    }),
  }),
});

export const { usePayoffQuoteQuery, useRechargeMutation, useMoneyMovementsQuery } = repayApi;
