/**
 * The rules of the stepped withdraw form (PRODUCT.md 2.8, 3 `/detail`, 5 "Withdraw"):
 * the query parameter `index` picks the step (0 amount, 1 bank card, 2 withdraw
 * PIN, 3 confirm); each step must be complete before the next; the amount is a
 * positive decimal with at most two places and never more than the balance
 * (40006). Pure functions, so the Vitest suite covers them without a screen.
 */
import { toMinor } from '@/lib/money';

export const STEP_AMOUNT = 0;
export const STEP_BANK = 1;
export const STEP_PIN = 2;
export const STEP_CONFIRM = 3;

/** The form's input so far. */
export interface WithdrawDraft {
  /** As typed: a decimal string. */
  amount: string;
  /** The withdraw PIN, 6 digits once entered (or just set up). */
  pin: string;
  /** Whether a bank account is bound (`userInfo.cardNo`). */
  hasBank: boolean;
}

/** `?index=` → a step 0–3; anything else (absent, text, out of range) is step 0. */
export function parseIndex(raw: string | null | undefined): number {
  if (raw === null || raw === undefined || !/^\d$/.test(raw)) return STEP_AMOUNT;
  const index = Number(raw);
  return index <= STEP_CONFIRM ? index : STEP_AMOUNT;
}

/**
 * The amount check: required, a decimal with at most two places and above zero,
 * and at most the balance. Returns the translation key of the problem or null.
 */
export function checkWithdrawAmount(amount: string, balance: string): string | null {
  if (!amount.trim()) return 'withdraw_amount_required';
  const minor = toMinor(amount);
  if (minor === null || minor <= 0n) return 'withdraw_amount_invalid';
  const available = toMinor(balance) ?? 0n;
  return minor > available ? 'service_error_40006' : null;
}

/** The PIN check: exactly 6 digits. */
export function checkWithdrawPin(pin: string): string | null {
  if (!pin) return 'withdraw_pin_required';
  return /^\d{6}$/.test(pin) ? null : 'withdraw_pin_rule';
}

/** What keeps the borrower from leaving `step` forwards, or null when it is complete. */
export function stepProblem(step: number, draft: WithdrawDraft, balance: string): string | null {
  switch (step) {
    case STEP_AMOUNT:
      return checkWithdrawAmount(draft.amount, balance);
    case STEP_BANK:
      return draft.hasBank ? null : 'withdraw_no_bank';
    case STEP_PIN:
      return checkWithdrawPin(draft.pin);
    default:
      return null;
  }
}

/**
 * The step to show for a requested `index`: the requested one when every step
 * before it is complete, else the first incomplete one. So `?index=3` typed in
 * the address bar, or a reload (the PIN lives in memory only), never shows the
 * confirm step with an empty PIN.
 */
export function reachableStep(requested: number, draft: WithdrawDraft, balance: string): number {
  for (let step = STEP_AMOUNT; step < requested; step += 1) {
    if (stepProblem(step, draft, balance) !== null) return step;
  }
  return requested;
}
