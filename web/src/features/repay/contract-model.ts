/**
 * What the contract shows (P5, P14): the order's disclosure (the api's
 * `Disclosure`) with the installments' due days from `periodViews` once the loan
 * is paid out. A pure function, covered by the Vitest suite (the downloaded
 * contract is the server's PDF).
 */
import type { DatedDisclosure } from '@/components/disclosure-table';
import type { Order } from '@/lib/api-types';

/**
 * The order's disclosure as the contract prints it: each installment with its due
 * day once the loan is paid out (the schedule starts on the payout day, P10).
 * Null without a disclosure.
 */
export function contractDisclosure(order: Pick<Order, 'disclosure' | 'periodViews'>): DatedDisclosure | null {
  const d = order.disclosure;
  if (!d) return null;
  const dueDays = new Map(order.periodViews.map((line) => [line.period, line.dueDate]));
  return {
    ...d,
    schedule: d.schedule.map((line) => ({ ...line, dueDate: dueDays.get(line.period) })),
  };
}
