/**
 * Repayment calls (PRODUCT.md 8, P1, P12): the active or latest loan
 * (`/loan/orderInfo` with an empty body), what closes it today
 * (`/loan/payoffQuote`), opening the payment page (`/loan/recharge`) and the money
 * movements derived from the orders' timelines. "Nothing there" (40007) is data
 * (`null`), not an error: it is the empty state of these screens.
 */
import type { BaseQueryFn, FetchArgs } from '@reduxjs/toolkit/query';
import { api } from '@/lib/api';
import type { ApiFailure } from '@/lib/envelope';
import type { Order, OrderSummary, TimelineEvent } from '@/lib/types';
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
  /** Decimal string with two places. */
  amt: string;
  idempotencyKey: string;
}

/** Code 40007 "record not found": nothing owed, or no order. */
export const NOTHING_FOUND = 40007;

type Base = BaseQueryFn<string | FetchArgs, unknown, ApiFailure>;

/** Calls `args`; 40007 becomes `null`, other failures stay errors. */
async function orNull<T>(baseQuery: Base, args: FetchArgs) {
  const result = await (baseQuery as (a: FetchArgs) => ReturnType<Base>)(args);
  if ('error' in result && result.error) {
    return result.error.code === NOTHING_FOUND ? { data: null } : { error: result.error };
  }
  return { data: (result.data ?? null) as T | null };
}

export const repayApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The borrower's latest order (the active loan when there is one), or null. */
    latestOrder: build.query<Order | null, void>({
      queryFn: (_arg, _api, _extra, baseQuery) =>
        orNull<Order>(baseQuery as Base, { url: 'jackey/loan/orderInfo', body: {} }),
      providesTags: (order) => (order ? ['Order', { type: 'Order', id: order.orderId }] : ['Order']),
    }),
    /** What closes the loan today, or null when nothing is owed. */
    payoffQuote: build.query<PayoffQuote | null, string>({
      queryFn: (loanOrderId, _api, _extra, baseQuery) =>
        orNull<PayoffQuote>(baseQuery as Base, { url: 'jackey/loan/payoffQuote', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => ['Payoff', { type: 'Order', id }],
    }),
    /** Opens a payment page for `amt`; `data` is its URL (`/pay/sandbox/{session}` by default). */
    recharge: build.mutation<string, RechargeRequest>({
      query: ({ amt, idempotencyKey }) => ({
        url: 'jackey/loan/recharge',
        body: { amt },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Payoff'],
    }),
    /** Disbursements and repayments of every order, newest first. */
    moneyMovements: build.query<Movement[], void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const call = baseQuery as (a: string | FetchArgs) => ReturnType<Base>;
        const list = await call('jackey/loan/getUserOrderList');
        if ('error' in list && list.error) return { error: list.error };
        const orders = ((list.data ?? []) as OrderSummary[]).filter((o) => hasMovements(o.status));
        const timelines = await Promise.all(
          orders.map((o) => call({ url: 'jackey/loan/orderTimeline', body: { loanOrderId: o.orderId } })),
        );
        const failed = timelines.find((t) => 'error' in t && t.error);
        if (failed && 'error' in failed && failed.error) return { error: failed.error };
        return {
          data: deriveMovements(
            orders.map((o, i) => ({ orderId: o.orderId, events: (timelines[i].data ?? []) as TimelineEvent[] })),
          ),
        };
      },
      providesTags: ['Orders', 'Order'],
    }),
  }),
});

export const { useLatestOrderQuery, usePayoffQuoteQuery, useRechargeMutation, useMoneyMovementsQuery } = repayApi;
