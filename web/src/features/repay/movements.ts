/**
 * The borrower's money movements (`/transactionHistory`, PRODUCT.md 3): every
 * disbursement (`PayoutSucceeded`, the net amount that reached the bank account),
 * every repayment (`RepaymentReceived`) and every refund of money received that was
 * not owed (`PaymentRefundDue`, PRODUCT.md 12.1) across the borrower's orders, newest
 * first. There is no dedicated call yet, so they are derived from each order's
 * timeline (projections/src/read_models/orders.rs `timeline_detail`, details under `detail`).
 */
import type { TimelineEvent } from '@/lib/api-types';

export type MovementKind = 'disbursement' | 'repayment' | 'refund';

export interface Movement {
  /** Unique: order id and the event's sequence. */
  id: string;
  orderId: string;
  /** The order's number as people see it (PRODUCT.md 12.5), when the order list has one. */
  orderNo?: string;
  kind: MovementKind;
  /** Decimal string with two places. */
  amount: string;
  /** RFC 3339 UTC. */
  at: string;
}

export interface OrderEvents {
  orderId: string;
  orderNo?: string;
  events: TimelineEvent[];
}

/** A decimal amount, or null when the event carries none. */
const amountOf = (value: string | undefined) => (value && value.trim() !== '' ? value : null);

const timeOf = (at: string) => {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? 0 : ms;
};

/** Disbursements, repayments and refunds of the given orders' timelines, newest first. */
export function deriveMovements(orders: OrderEvents[]): Movement[] {
  const movements: (Movement & { sequence: number })[] = [];
  for (const { orderId, orderNo, events } of orders) {
    for (const event of events) {
      const { detail } = event;
      let kind: MovementKind;
      let amount: string | null;
      if (event.type === 'PayoutSucceeded') {
        kind = 'disbursement';
        amount = amountOf(detail.netAmount) ?? amountOf(detail.principal);
      } else if (event.type === 'RepaymentReceived') {
        kind = 'repayment';
        amount = amountOf(detail.amount);
      } else if (event.type === 'PaymentRefundDue') {
        kind = 'refund';
        amount = amountOf(detail.amount);
      } else {
        continue;
      }
      if (amount === null) continue;
      movements.push({ id: `${orderId}:${event.sequence}`, orderId, orderNo, kind, amount, at: event.at, sequence: event.sequence });
    }
  }
  movements.sort(
    (a, b) =>
      timeOf(b.at) - timeOf(a.at) || b.at.localeCompare(a.at) || b.sequence - a.sequence || a.id.localeCompare(b.id),
  );
  return movements.map(({ id, orderId, orderNo, kind, amount, at }) => ({ id, orderId, orderNo, kind, amount, at }));
}

/** Orders that can have money movements: disbursed (4) or repaid (10). */
export function hasMovements(status: number): boolean {
  return status === 4 || status === 10;
}
