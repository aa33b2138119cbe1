/**
 * Client-side constants of PRODUCT.md section 11. The server is the authority;
 * these only drive the form hints and the client-side checks of section 5.
 */

/**
 * Storage keys (PRODUCT.md 11): local `token`, `channel`, `inviteCode`. No unlock token:
 * an unlock lifts the lock on the account itself (docs/security.md).
 */
export const STORAGE_KEYS = {
  token: 'token',
  channel: 'channel',
  inviteCode: 'inviteCode',
  policyAccepted: 'policyAccepted',
  language: 'language',
} as const;

/** Main-button cool-down after each click, in milliseconds (PRODUCT.md 4.3). */
export const MAIN_BUTTON_COOLDOWN_MS = 1000;
/** SMS resend interval, in seconds (PRODUCT.md 5). */
export const SMS_RESEND_SECONDS = 60;
/** Largest ID photo accepted, in bytes: images must be under 5 MB (PRODUCT.md 5). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Amount input: digits only, at most 7 of them (PRODUCT.md 3, `/apply`). */
export const AMOUNT_MAX_LENGTH = 7;
/** Repayment range (PRODUCT.md 5, 11): 100–20,000 per payment. */
export const REPAY_MIN = 100;
export const REPAY_MAX = 20000;
/** Earliest birthday accepted (PRODUCT.md 5). */
export const BIRTHDAY_MIN = '1900-01-01';
/** Age range checked at apply (PRODUCT.md 1, 5). */
export const AGE_MIN = 22;
export const AGE_MAX = 50;
/** Signature sheet canvas (PRODUCT.md 3): 800×300, pen width 6, black. */
export const SIGNATURE = { width: 800, height: 300, penWidth: 6, color: '#000000' } as const;
/** The `platform` field sent at register and login (PRODUCT.md 8). */
export const PLATFORM = 'h5';
/** The company id sent with SMS, register and login calls. */
export const COMPANY_ID = 1;
