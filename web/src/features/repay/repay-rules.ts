/**
 * The recharge amount rule as the repayment screen applies it (PRODUCT.md 5, P1,
 * P12): between `REPAY_MIN` and `REPAY_MAX` and never more than what is owed
 * today (the payoff quote, as the server's `owing_loan`), except that the final
 * payment may be exactly what is owed when that is below the minimum. All
 * comparisons are in minor units (bigint), never floats.
 */
import { REPAY_MAX, REPAY_MIN } from '@/config/constants';
import { minorToText, toMinor } from '@/lib/money';
import type { Order } from '@/lib/types';
import { checkRepayAmount } from '@/lib/validation';

export const REPAY_MIN_MINOR = BigInt(REPAY_MIN) * 100n;
export const REPAY_MAX_MINOR = BigInt(REPAY_MAX) * 100n;

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/** The range a payment may take today, capped at what is owed (as the server's 40001). */
export function repayRange(owed: string): { min: string; max: string; finalOnly: boolean } {
  const owedMinor = toMinor(owed) ?? 0n;
  return {
    min: minorToText(smaller(REPAY_MIN_MINOR, owedMinor)),
    max: minorToText(smaller(REPAY_MAX_MINOR, owedMinor)),
    // Less than the minimum is owed: the only valid payment is exactly that.
    finalOnly: owedMinor < REPAY_MIN_MINOR,
  };
}

/** Null when `amount` may be paid now, else the problem's key (`repay_amount_rule`). */
export function checkRecharge(amount: string, owed: string): string | null {
  if (!amount.trim()) return 'recharge_amount_required';
  return checkRepayAmount(toMinor(amount), toMinor(owed) ?? 0n, REPAY_MIN_MINOR, REPAY_MAX_MINOR);
}

/**
 * "Pay off today": the payoff amount, or the most one payment may be when the
 * payoff is larger (`capped`: it takes several payments).
 */
export function payoffShortcut(payoff: string): { amount: string; capped: boolean } {
  const minor = toMinor(payoff) ?? 0n;
  return minor > REPAY_MAX_MINOR
    ? { amount: minorToText(REPAY_MAX_MINOR), capped: true }
    : { amount: minorToText(minor), capped: false };
}

/**
 * "Next installment": what is left of the oldest installment not repaid
 * (amt − paid), at most what is owed today; null when none is open.
 */
export function nextInstallment(order: Pick<Order, 'periodViews'>, owed: string): string | null {
  const owedMinor = toMinor(owed) ?? 0n;
  for (const installment of [...order.periodViews].sort((a, b) => a.period - b.period)) {
    if (installment.status === 1) continue;
    const left = (toMinor(installment.amt) ?? 0n) - (toMinor(installment.paid) ?? 0n);
    if (left > 0n) return minorToText(smaller(left, owedMinor));
  }
  return null;
}
