/**
 * Small helpers this feature needs and lib/ does not have yet: typing a decimal
 * amount, turning minor units back into a wire decimal, an `Idempotency-Key`, and
 * date formatting in the current language. features/orders has the same file;
 * both are candidates for lib/ (see the hand-over notes).
 */
import { useTranslation } from 'react-i18next';

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

/** Minor units (cents) → the wire's decimal string with two places (12345n → "123.45"). */
export function minorToText(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * A fresh `Idempotency-Key` (UUID v4). `crypto.randomUUID` exists only in secure
 * contexts (https, localhost); a phone opening the app over plain http on a LAN
 * address falls back to `getRandomValues`, which every browser has.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** "****1234" from a masked or plain account number. */
export function lastFour(cardNo: string | null | undefined): string {
  if (!cardNo) return '';
  return `****${cardNo.replace(/\*/g, '').slice(-4)}`;
}

const intlLocale = (language: string) => (language.startsWith('zh') ? 'zh-CN' : 'en-PH');

/** Formats RFC 3339 times (local time) and `YYYY-MM-DD` days in the current language. */
export function useDates() {
  const { i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  return {
    dateTime(iso: string | null | undefined): string {
      if (!iso) return '—';
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
    },
    day(value: string | null | undefined): string {
      if (!value) return '—';
      const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(date.getTime())) return value;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
    },
  };
}
