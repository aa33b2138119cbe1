/**
 * What a repaying borrower owes, for home (PRODUCT.md 12.5): the total outstanding,
 * the next installment (what is left of the oldest one not repaid, and its due
 * date) and the overdue amount, if any. In minor units (bigint), never floats.
 */
import { minorToText, toMinor } from '@/lib/money';
import type { Order } from '@/lib/api-types';

export interface OwedSummary {
  /** Everything the schedule still asks for. */
  outstanding: string;
  /** The oldest installment not repaid: what is left of it and when it is due. */
  next: { amount: string; dueDate: string } | null;
  /** What overdue installments still ask for; null when none is overdue. */
  overdue: string | null;
}

const OVERDUE = 2;
const REPAID = 1;

export function owedSummary(order: Pick<Order, 'remaining' | 'periodViews'>): OwedSummary {
  const left = (amt: string, paid: string) => {
    const rest = (toMinor(amt) ?? 0n) - (toMinor(paid) ?? 0n);
    return rest > 0n ? rest : 0n;
  };
  const open = [...order.periodViews]
    .sort((a, b) => a.period - b.period)
    .filter((installment) => installment.status !== REPAID && left(installment.amt, installment.paid) > 0n);
  const overdue = open
    .filter((installment) => installment.status === OVERDUE)
    .reduce((sum, installment) => sum + left(installment.amt, installment.paid), 0n);
  const first = open[0];
  return {
    outstanding: minorToText(toMinor(order.remaining) ?? 0n),
    next: first ? { amount: minorToText(left(first.amt, first.paid)), dueDate: first.dueDate } : null,
    overdue: overdue > 0n ? minorToText(overdue) : null,
  };
}
