/**
 * `useDates()` → formatters for RFC 3339 times (local time) and `YYYY-MM-DD` days
 * in the current language; "—" for a missing value, the text itself when it is
 * not a date. A time's parts are held together by no-break spaces.
 */
import { useTranslation } from 'react-i18next';
import { intlLocale } from '@/lib/locale';

export function useDates() {
  const { i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  return {
    dateTime(iso: string | null | undefined): string {
      if (!iso) return '—';
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      // The time never breaks ("2:57 / PM"): spaces from the hour on are no-break ones;
      // a line may still break between the day and the time.
      const parts = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).formatToParts(date);
      const hour = parts.findIndex((part) => part.type === 'hour');
      return parts
        .map((part, i) => (hour >= 0 && i > hour && part.type === 'literal' ? part.value.replace(/\s/g, '\u00a0') : part.value))
        .join('');
    },
    day(value: string | null | undefined): string {
      if (!value) return '—';
      const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(date.getTime())) return value;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
    },
  };
}

export type Dates = ReturnType<typeof useDates>;
