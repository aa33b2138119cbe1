/**
 * The new-PIN check, apart from \`validation.ts\` so that the sign-in screen's first
 * bytes do not carry it (the first-screen budget, issue 15).
 */
import { checkPin, type Check } from './validation';

/**
 * A new withdraw PIN: 6 digits and not one a guesser tries first (`pin_too_easy`).
 * The User aggregate decides (`check_pin` in aggregates/src/types.rs, NIST SP
 * 800-63B's blocklist); this mirrors its patterns so the refusal reads in the
 * borrower's language before anything is sent: one digit repeated, a run up or
 * down, a repeated pair or triple, or one of the commonest PINs.
 */
export function checkNewPin(pin: string): Check {
  const format = checkPin(pin);
  if (format) return format;
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - digits[i]);
  const run = steps.every((step) => step === steps[0] && Math.abs(step) <= 1);
  const repeats = (every: number) => digits.every((d, i) => d === digits[i % every]);
  return run || repeats(2) || repeats(3) || COMMON_PINS.has(pin) ? 'pin_too_easy' : null;
}

const COMMON_PINS = new Set(['112233', '123321', '147258', '159753', '258369', '369258', '520520', '789456', '102030', '110110']);
