/**
 * Money on the wire is a decimal string with two places ("5000.00"), never a
 * float in storage. Formatting goes through `Intl.NumberFormat` in the
 * configured currency (PRODUCT.md 1); parsing a display value is never needed.
 */

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
  const intlLocale = locale.startsWith('zh') ? 'zh-CN' : 'en-PH';
  try {
    return new Intl.NumberFormat(intlLocale, {
      style: 'currency',
      currency: currency.code,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    // An unknown ISO code: format the number and put the configured symbol first.
    return `${currency.symbol}${new Intl.NumberFormat(intlLocale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)}`;
  }
}

/** Compares two decimal strings with two places exactly (by minor units). */
export function toMinor(value: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = (match[2] ?? '').padEnd(2, '0');
  return BigInt(match[1]) * 100n + BigInt(cents);
}
