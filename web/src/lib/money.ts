/**
 * Money on the wire is a decimal string with two places ("5000.00"), never a
 * float in storage. Formatting goes through `Intl.NumberFormat` in the
 * configured currency (PRODUCT.md 1); parsing a display value is never needed.
 */
import { intlLocale } from './locale';
import { groupDigits } from './validation';

export interface Currency {
  /** ISO 4217 code, e.g. "PHP". */
  code: string;
  /** Display symbol, e.g. "₱". */
  symbol: string;
}

export const DEFAULT_CURRENCY: Currency = { code: 'PHP', symbol: '₱' };

/**
 * Formats a decimal string or integer as money, e.g. `formatMoney("80000.00")` →
 * "₱80,000.00" in English. Invalid input renders as "—" rather than "NaN".
 */
export function formatMoney(
  value: string | number | null | undefined,
  currency: Currency = DEFAULT_CURRENCY,
  locale = 'en',
): string {
  if (value === null || value === undefined || value === '') return '—';
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return '—';
  const intl = intlLocale(locale);
  try {
    return new Intl.NumberFormat(intl, {
      style: 'currency',
      currency: currency.code,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    // An unknown ISO code: format the number and put the configured symbol first.
    return `${currency.symbol}${new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)}`;
  }
}

/** A decimal string with at most two places → minor units (cents); null when it is not one. */
export function toMinor(value: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = (match[2] ?? '').padEnd(2, '0');
  return BigInt(match[1]) * 100n + BigInt(cents);
}

/** Minor units (cents) → the wire's decimal string with two places (12345n → "123.45"). */
export function minorToText(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * Keeps what a decimal amount input may hold: digits, one dot, two decimals,
 * at most `maxIntegerDigits` before the dot ("1,2a3.456" → "123.45").
 */
export function decimalInput(text: string, maxIntegerDigits = 9): string {
  const cleaned = text.replace(/[^\d.]/g, '');
  const [whole = '', ...rest] = cleaned.split('.');
  const integer = whole.slice(0, maxIntegerDigits);
  if (rest.length === 0) return integer;
  return `${integer || '0'}.${rest.join('').slice(0, 2)}`;
}

/** Whether a decimal string is an amount above zero (a missing or bad one is not). */
export function isPositive(value: string | null | undefined): boolean {
  return (toMinor(value ?? '') ?? 0n) > 0n;
}

/**
 * An amount input's plain value ("100000.5", as `decimalInput` keeps it) as the
 * borrower reads it, in groups of three ("100,000.5"); `decimalInput` reads it back.
 */
export function groupAmount(plain: string): string {
  const [whole, fraction] = plain.split('.');
  return fraction === undefined ? groupDigits(whole) : `${groupDigits(whole)}.${fraction}`;
}

/**
 * A percentage as the disclosure writes it, with at least two decimals and never
 * rounded ("0.1" → "0.10%", "0.125" → "0.125%", "36.5" → "36.50%"): the rate
 * chips and product cards then read as the cost table beside them.
 */
export function formatPct(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}%`;
}
