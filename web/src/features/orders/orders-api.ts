/**
 * Order calls (PRODUCT.md 8): the borrower's order list, one order and its
 * timeline, cancelling before payout (P6), the first-time withdraw PIN (P2) and
 * the withdrawal itself. Queries provide `Order` per order id and `Orders` for the
 * list; a withdrawal invalidates the order, the list, the home progress and the
 * user (STYLE.md "React": a withdrawal invalidates the order and the wallet).
 */
import { api } from '@/lib/api';
import type { Order, OrderSummary, TimelineEvent } from '@/lib/types';

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

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `/loan/getUserOrderList`: {orderId, status, principal, applyTime}, newest first. */
    userOrderList: build.query<OrderSummary[], void>({
      query: () => 'jackey/loan/getUserOrderList',
      providesTags: ['Orders'],
    }),
    /** `/loan/orderInfo` of one order; 40007 when it is not the borrower's. */
    orderDetail: build.query<Order, string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/orderInfo', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id }],
    }),
    /** `/loan/orderTimeline`: the order's events as the borrower sees them, oldest first. */
    orderEvents: build.query<TimelineEvent[], string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/orderTimeline', body: { loanOrderId } }),
      providesTags: (_result, _error, id) => [{ type: 'Order', id }],
    }),
    /** `/loan/cancel`: free before disbursement (P6). */
    cancelOrder: build.mutation<null, string>({
      query: (loanOrderId) => ({ url: 'jackey/loan/cancel', body: { loanOrderId } }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Order', id }, 'Orders', 'Progress'],
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
        error
          ? [{ type: 'Order', id: orderId }, 'User']
          : [{ type: 'Order', id: orderId }, 'Orders', 'Progress', 'User', 'WithdrawError'],
    }),
  }),
});

export const {
  useUserOrderListQuery,
  useOrderDetailQuery,
  useOrderEventsQuery,
  useCancelOrderMutation,
  useSetWithdrawPinMutation,
  useWithdrawMutation,
} = ordersApi;
