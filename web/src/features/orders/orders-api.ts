/**
 * Order calls (PRODUCT.md 8) of this feature: cancelling before payout (P6), the
 * first-time withdraw PIN (P2) and the withdrawal itself. The orders are read
 * through lib/shared-api (`orderList`, `orderInfo`, `orderTimeline`), which provide
 * `Order` per order id and `Orders` for the list; a withdrawal invalidates the
 * order, the list, the home progress and the user (STYLE.md "React": a withdrawal
 * invalidates the order and the wallet).
 */
import { api } from '@/lib/api';
import type { ExtensionQuote } from '@/lib/api-types';

export interface WithdrawRequest {
  orderId: string;
  /** The borrower's withdraw PIN (6 digits). */
  pin: string;
  /** Decimal string with two places, at most the order's balance. */
  amount: string;
  /** One per confirm attempt: a repeat with the same key returns the first answer. */
  idempotencyKey: string;
}

export interface WithdrawResult {
  verified: boolean;
  payoutId: string;
}

/** One receipt of an order (`/loan/receipts`, PRODUCT.md 12.5). */
export interface ReceiptSummary {
  /** `OR-2611-000157` (payment) or `RF-2611-000163` (refund). */
  receiptNo: string;
  kind: 'payment' | 'refund';
  /** Received, or sent back: a decimal string. */
  amount: string;
  /** When (UTC, RFC 3339). */
  at: string;
}

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `/loan/receipts`: a receipt per payment and per refund of the order, oldest first. */
    receipts: build.query<ReceiptSummary[], string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/receipts', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id }],
    }),
    /** `/loan/cancel`: free before disbursement (P6). */
    cancelOrder: build.mutation<null, string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/cancel', body: { loanOrderId } }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Order', id }, 'Orders', 'Progress'],
    }),
    /** `/loan/resubmit`: back to review after fixing what the officer asked (12.4). */
    resubmitOrder: build.mutation<null, { orderId: string; idempotencyKey: string }>({
      query: ({ orderId, idempotencyKey }) => ({
        url: 'jackey/loan/resubmit',
        body: { loanOrderId: orderId },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }, 'Orders', 'Progress', 'User'],
    }),
    /** `/loan/promiseToPay` (issue 53): 50004 when the amount or the day is not one the order takes. */
    promiseToPay: build.mutation<null, { orderId: string; amount: string; date: string }>({
      query: ({ orderId, amount, date }) => ({ url: 'jackey/loan/promiseToPay', body: { loanOrderId: orderId, amount, date } }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }],
    }),
    /** `/loan/contactHours` (P15): whether calls about the loan are fine at any hour. */
    chooseContactHours: build.mutation<null, { orderId: string; anyHours: boolean }>({
      query: ({ orderId, anyHours }) => ({ url: 'jackey/loan/contactHours', body: { loanOrderId: orderId, anyHours } }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }],
    }),
    /** `/loan/extensionQuote` (issue 53): 50003 when the product offers no such extension. */
    extensionQuote: build.query<ExtensionQuote, { orderId: string; days: number }>({
      query: ({ orderId, days }) => ({ url: 'jackey/loan/extensionQuote', body: { loanOrderId: orderId, days } }),
      providesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }],
    }),
    /** `/loan/extend`: taken as quoted (`acceptedTotal`), signed with the signature on file. */
    extend: build.mutation<null, { orderId: string; days: number; acceptedTotal: string; idempotencyKey: string }>({
      query: ({ orderId, days, acceptedTotal, idempotencyKey }) => ({
        url: 'jackey/loan/extend',
        body: { loanOrderId: orderId, days, acceptedTotal },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }, 'Progress'],
    }),
    /** `/loan/requestPaymentPlan` (issue 53): the borrower asks, saying why; 10004 without a reason. */
    requestPaymentPlan: build.mutation<null, { orderId: string; reason: string; idempotencyKey: string }>({
      query: ({ orderId, reason, idempotencyKey }) => ({
        url: 'jackey/loan/requestPaymentPlan',
        body: { loanOrderId: orderId, reason },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }],
    }),
    /** `/loan/signPaymentPlan`: the approved plan, signed as shown (`acceptedTotal`) with the signature on file. */
    signPaymentPlan: build.mutation<null, { orderId: string; acceptedTotal: string; idempotencyKey: string }>({
      query: ({ orderId, acceptedTotal, idempotencyKey }) => ({
        url: 'jackey/loan/signPaymentPlan',
        body: { loanOrderId: orderId, acceptedTotal },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, _error, { orderId }) => [{ type: 'Order', id: orderId }, 'Progress'],
    }),
    /** `/user/withdrawPin` the first time (no SMS code needed until a PIN exists). */
    setWithdrawPin: build.mutation<null, string>({
      query: (pin) => ({ url: 'jackey/user/withdrawPin', body: { pin } }),
      invalidatesTags: ['User'],
    }),
    /**
     * `/user/withdraw`: 40008 wrong PIN (attempts left), 20003 locked (the base
     * query sends the borrower to `/lock`), 40004 offer expired, 40006 over balance.
     */
    withdraw: build.mutation<WithdrawResult, WithdrawRequest>({
      query: ({ orderId, pin, amount, idempotencyKey }) => ({
        url: 'jackey/user/withdraw',
        body: { password: pin, withdrawAmount: amount, loanOrderId: orderId },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_result, error, { orderId }) =>
        error ? [{ type: 'Order', id: orderId }, 'User'] : [{ type: 'Order', id: orderId }, 'Orders', 'Progress', 'User'],
    }),
  }),
});

export const {
  useCancelOrderMutation,
  useChooseContactHoursMutation,
  useExtendMutation,
  useExtensionQuoteQuery,
  usePromiseToPayMutation,
  useRequestPaymentPlanMutation,
  useSignPaymentPlanMutation,
  useReceiptsQuery,
  useResubmitOrderMutation,
  useSetWithdrawPinMutation,
  useWithdrawMutation,
} = ordersApi;
