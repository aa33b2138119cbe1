/**
 * The client-side checks of PRODUCT.md section 5, mirroring the server's
 * (aggregates/src/types.rs); the server stays the authority. Each check returns
 * `null` when the value is fine, or the translation key of the message to show.
 */
import { AGE_MAX, AGE_MIN, BIRTHDAY_MIN, MAX_IMAGE_BYTES } from '@/config/constants';

export type Check = string | null;

/** Strips everything but digits and cuts to `maxLength` (phone and amount inputs). */
export function digitsOnly(text: string, maxLength?: number): string {
  const digits = text.replace(/\D/g, '');
  return maxLength === undefined ? digits : digits.slice(0, maxLength);
}

/**
 * A phone number as typed or pasted, in the 11-digit local form the api takes
 * (`09175550101`, PRODUCT.md 5): spaces, dashes and brackets dropped, and the
 * international form (`+63 917 555 0101`, `63917…`) read as its local `0…`.
 * A local number never starts with 63, so the reading is never ambiguous.
 */
export function phoneInput(text: string): string {
  const digits = digitsOnly(text);
  return (digits.startsWith('63') ? `0${digits.slice(2)}` : digits).slice(0, 11);
}

/**
 * Digits in groups of three for reading ("3000000" → "3,000,000"); `digitsOnly` reads
 * them back, so an input can show the grouped form while it holds the digits.
 */
export function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Phone: exactly 11 digits starting with 0 (`phone_input`). */
export function checkPhone(phone: string): Check {
  return /^0\d{10}$/.test(phone) ? null : 'phone_input';
}

/** Password: at least 8 characters (`password_min`). */
export function checkPassword(password: string): Check {
  return [...password].length >= 8 ? null : 'password_min';
}

/** Register: confirm must equal password (`common_password_not_match`). */
export function checkConfirm(password: string, confirm: string): Check {
  return password === confirm ? null : 'common_password_not_match';
}

/** Withdraw PIN: exactly 6 digits (`pin_rule`). */
export function checkPin(pin: string): Check {
  return /^\d{6}$/.test(pin) ? null : 'pin_rule';
}


/** SMS code: 6 digits (`sms_code_rule`). */
export function checkSmsCode(code: string): Check {
  return /^\d{6}$/.test(code) ? null : 'sms_code_rule';
}

/** ID number: digits only (`id_number_rule`). */
export function checkIdNumber(id: string): Check {
  return /^\d+$/.test(id) ? null : 'id_number_rule';
}

/**
 * Email: one `@`, a non-empty local part, a dotted domain without spaces, at most
 * 254 characters (`email_rule`, "Please input correct email").
 */
export function checkEmail(email: string): Check {
  const at = email.indexOf('@');
  if (at <= 0 || email.length > 254 || /\s/.test(email)) return 'email_rule';
  const domain = email.slice(at + 1);
  const ok =
    domain.includes('.') &&
    !domain.includes('@') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !domain.includes('..');
  return ok ? null : 'email_rule';
}

/**
 * Payout account number (aggregates/src/reference.rs `AccountKind`): at a bank 8–20
 * digits (`card_rule`); at an e-wallet (`/loan/getConfigByKey` `eWallets`) the
 * wallet's mobile number, 09 and 9 more digits (`ewallet_rule`).
 */
export function checkAccountNo(cardNo: string, eWallet = false): Check {
  if (eWallet) return /^09\d{9}$/.test(cardNo) ? null : 'ewallet_rule';
  return /^\d{8,20}$/.test(cardNo) ? null : 'card_rule';
}

/** Full years between a `YYYY-MM-DD` birthday and `today`. */
export function ageOn(birthday: string, today: Date): number {
  const [y, m, d] = birthday.split('-').map(Number);
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** Birthday: a real date between 1900-01-01 and today (`birthday_rule`). */
export function checkBirthday(birthday: string, today: Date = new Date()): Check {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birthday)) return 'birthday_rule';
  const date = new Date(`${birthday}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== birthday) {
    return 'birthday_rule';
  }
  const todayText = today.toISOString().slice(0, 10);
  return birthday >= BIRTHDAY_MIN && birthday <= todayText ? null : 'birthday_rule';
}

/** Age at apply: 22–50 (`age_rule`). */
export function checkAge(birthday: string, today: Date = new Date()): Check {
  const age = ageOn(birthday, today);
  return age >= AGE_MIN && age <= AGE_MAX ? null : 'age_rule';
}

/** The first `n` bytes of a file (FileReader, which every browser and jsdom have). */
function firstBytes(file: Blob, n: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file.slice(0, n));
  });
}

/** ID photo: JPEG or PNG by content and under 5 MB (`img_size_tips`, `img_type_tips`). */
export async function checkImage(file: Blob): Promise<Check> {
  if (file.size >= MAX_IMAGE_BYTES) return 'img_size_tips';
  const head = await firstBytes(file, 8);
  const jpeg = head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b);
  return jpeg || png ? null : 'img_type_tips';
}

/**
 * Apply amount: within [min, max] and a multiple of `step` from `min`
 * (`amount_rule`); integers, as the product's amounts are whole.
 */
export function checkApplyAmount(amount: number, min: number, max: number, step: number): Check {
  if (!Number.isInteger(amount) || amount < min || amount > max) return 'amount_rule';
  return (amount - min) % step === 0 ? null : 'amount_rule';
}

/**
 * Clamps a typed amount to the product range on blur (PRODUCT.md 3 `/apply`):
 * below the minimum → minimum, above the maximum → maximum, otherwise down to the
 * nearest step.
 */
export function clampAmount(amount: number, min: number, max: number, step: number): number {
  if (!Number.isFinite(amount) || amount <= min) return min;
  if (amount >= max) return max;
  return min + Math.floor((amount - min) / step) * step;
}

/**
 * Recharge amount (PRODUCT.md 5, 40001), as `check_repayment_amount` in
 * aggregates/src/order/aggregate.rs: positive, at most the outstanding amount, and
 * between `min` and `max`, except that when less than `min` is owed the final
 * payment may be exactly the outstanding amount. Amounts are in minor units (cents).
 */
export function checkRepayAmount(
  amountMinor: bigint | null,
  outstandingMinor: bigint,
  minMinor: bigint,
  maxMinor: bigint,
): Check {
  if (amountMinor === null || amountMinor <= 0n || amountMinor > outstandingMinor) {
    return 'repay_amount_rule';
  }
  const inRange = amountMinor >= minMinor && amountMinor <= maxMinor;
  const finalSmall = amountMinor === outstandingMinor && outstandingMinor < minMinor;
  return inRange || finalSmall ? null : 'repay_amount_rule';
}
