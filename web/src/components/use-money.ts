/**
 * `useMoney()` → a formatter for decimal strings in the configured currency and
 * the current language (PRODUCT.md 1: `Intl.NumberFormat`, never concatenation).
 */
import { useTranslation } from 'react-i18next';
import { formatMoney, DEFAULT_CURRENCY } from '@/lib/money';
import { useCompanyConfigQuery } from '@/lib/shared-api';

export function useMoney() {
  const { i18n } = useTranslation();
  const { data } = useCompanyConfigQuery();
  const currency = data?.currency ?? DEFAULT_CURRENCY;
  return (value: string | number | null | undefined) => formatMoney(value, currency, i18n.language);
}
