/**
 * A company text (the lender's about-us, FAQ, service hours, privacy notice) in the
 * borrower's language. `/loan/getAllCompanyConfigs` answers each as plain text in
 * English (PRODUCT.md 10) and, for a text the operator configured in several
 * languages, all of them under `translations` (api/src/settings.rs
 * `TRANSLATED_TEXTS`); a language with none reads the English text.
 */
import { useTranslation } from 'react-i18next';
import type { CompanyConfig } from './types';

/** The company texts that may come in several languages. */
export type CompanyTextKey = 'about-us' | 'faq' | 'customer-service-hours' | 'privacy-notice';

/** `key`'s text in `language`, else its plain (English) text, else `''`. */
export function companyText(config: CompanyConfig | undefined, key: CompanyTextKey, language: string): string {
  const translated = config?.translations?.[key]?.[language];
  if (typeof translated === 'string' && translated.trim() !== '') return translated;
  const plain = config?.[key];
  return typeof plain === 'string' ? plain : '';
}

/** `(config, key) => text` in the current language. */
export function useCompanyText() {
  const { i18n } = useTranslation();
  return (config: CompanyConfig | undefined, key: CompanyTextKey) => companyText(config, key, i18n.language);
}
