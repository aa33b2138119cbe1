/**
 * The recharge amount rule as the repayment screen applies it (PRODUCT.md 5, P1,
 * P12): between `REPAY_MIN` and `REPAY_MAX` and never more than what is owed
 * today (the payoff quote, as the server's `owing_loan`), except that the whole
 * payoff is always one payment (P12: the right to prepay), and the final payment may
 * be exactly what is owed when that is below the minimum. (The server also takes the
 * installments due today in one payment.) All comparisons are in minor units
 * (bigint), never floats.
 */
import { REPAY_MAX, REPAY_MIN } from '@/config/constants';
import { minorToText, toMinor } from '@/lib/money';
import type { Order } from '@/lib/api-types';
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
  const minor = toMinor(amount);
  const owedMinor = toMinor(owed) ?? 0n;
  if (minor !== null && minor === owedMinor && owedMinor > 0n) return null; // the payoff (P12)
  return checkRepayAmount(minor, owedMinor, REPAY_MIN_MINOR, REPAY_MAX_MINOR);
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
