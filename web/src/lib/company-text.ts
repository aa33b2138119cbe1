/**
 * A company text (the lender's about-us, FAQ, service hours, privacy notice) in the
 * borrower's language. `/loan/getAllCompanyConfigs` answers each as plain text in
 * English (PRODUCT.md 10) and, for a text the operator configured in several
 * languages, all of them under `translations` (api/src/config/lending.rs
 * `TRANSLATED_TEXTS`); a language with none reads the English text.
 */
import { useTranslation } from 'react-i18next';
import type { CompanyConfig } from './api-types';

/** The company texts that may come in several languages. */
export type CompanyTextKey = 'about-us' | 'faq' | 'customer-service-hours' | 'privacy-notice' | 'invite-code-help';

/** `key`'s text the lender gave in `language`, or null. */
function translation(config: CompanyConfig | undefined, key: CompanyTextKey, language: string): string | null {
  const translated = config?.translations?.[key]?.[language];
  return typeof translated === 'string' && translated.trim() !== '' ? translated : null;
}

/** `key`'s text in `language`, else its plain (English) text, else `''`. */
export function companyText(config: CompanyConfig | undefined, key: CompanyTextKey, language: string): string {
  const plain = config?.[key];
  return translation(config, key, language) ?? (typeof plain === 'string' ? plain : '');
}

/**
 * The language [`companyText`] shows `key` in for `language`: that language where the
 * lender gave the text in it, else `en` (the plain text). Registration records it with
 * the privacy notice's version (PRODUCT.md 12.6).
 */
export function companyTextLanguage(config: CompanyConfig | undefined, key: CompanyTextKey, language: string): string {
  return translation(config, key, language) === null ? 'en' : language;
}

/** `(config, key) => text` in the current language. */
export function useCompanyText() {
  const { i18n } = useTranslation();
  return (config: CompanyConfig | undefined, key: CompanyTextKey) => companyText(config, key, i18n.language);
}
