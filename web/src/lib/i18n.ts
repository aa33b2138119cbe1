/**
 * react-i18next set-up: English by default, Chinese on request (PRODUCT.md 1).
 * Every string the borrower sees is a key in locales/en.json and locales/zh.json
 * (the auditor console adds its own, features/admin/admin-i18n.ts); the chosen
 * language is remembered in local storage. English ships with the first screen;
 * Chinese loads on demand, so nobody downloads a language twice.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import { storage } from './storage';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  zh: () => import('@/locales/zh.json'),
};

const saved = storage.get('language');
const initial: Language = saved === 'zh' ? 'zh' : 'en';

/**
 * The languages whose borrower strings are loaded or loading. Not
 * `i18n.hasResourceBundle`: the console registers its own Chinese strings when
 * its chunk loads, and the borrower's must still load after them.
 */
const loading = new Map<Language, Promise<void>>([['en', Promise.resolve()]]);

function loadLanguage(language: Language): Promise<void> {
  let load = loading.get(language);
  if (!load) {
    load = loaders[language as Exclude<Language, 'en'>]().then(
      ({ default: strings }) => {
        i18n.addResourceBundle(language, 'translation', strings, true, false);
      },
      (error: unknown) => {
        loading.delete(language); // a later switch tries again
        throw error;
      },
    );
    loading.set(language, load);
  }
  return load;
}

/** Resolves once the saved language's strings are loaded (render after it). */
export const i18nReady: Promise<unknown> = i18n
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  })
  .then(() => setLanguage(initial, false));

/** Switches the language (loading its strings first) and remembers it. */
export async function setLanguage(language: Language, remember = true) {
  await loadLanguage(language);
  if (remember) storage.set('language', language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return i18n.changeLanguage(language);
}

export default i18n;
