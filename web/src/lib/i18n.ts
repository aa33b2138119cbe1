/**
 * react-i18next set-up: English by default, Chinese and Filipino on request
 * (PRODUCT.md 1, issue 16). Every string the borrower sees is a key in
 * locales/en.json, zh.json and fil.json (the auditor console adds its own, in
 * English and Chinese only: features/admin/admin-i18n.ts); the chosen language
 * is remembered in local storage. English ships with the first screen; the
 * others load on demand (Filipino with antd-mobile's words in it,
 * locales/fil-pack.ts), so nobody downloads a language twice.
 */
import type { Locale } from 'antd-mobile/es/locales/base';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import { storage } from './storage';

/** The borrower app's languages, in the order the language switch lists them. */
export const LANGUAGES = ['en', 'zh', 'fil'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A language's chunk: its strings, and antd-mobile's words where antd-mobile has none. */
interface LanguageChunk {
  default: Record<string, string>;
  antd?: (english: Locale) => Locale;
}

const loaders: Record<Exclude<Language, 'en'>, () => Promise<LanguageChunk>> = {
  zh: () => import('@/locales/zh.json'),
  fil: () => import('@/locales/fil-pack'),
};

const saved = storage.get('language');
const initial = (LANGUAGES as readonly (string | null)[]).includes(saved) ? (saved as Language) : 'en';

const antdWords = new Map<string, (english: Locale) => Locale>();

/**
 * antd-mobile's locale for a language whose chunk brought its words (Filipino),
 * else `english` (app/provider.tsx picks antd-mobile's own Chinese).
 */
export function antdLocale(language: string, english: Locale): Locale {
  return antdWords.get(language)?.(english) ?? english;
}

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
      ({ default: strings, antd }) => {
        if (antd) antdWords.set(language, antd);
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

/**
 * Adds a feature's own strings in the borrower's three languages (a screen's keys
 * kept out of the first screen's budget, issue 15): call it at the top of a module
 * of the feature's chunk. Existing keys are kept.
 */
export function addFeatureStrings(strings: Record<Language, Record<string, string>>) {
  for (const language of LANGUAGES) i18n.addResourceBundle(language, 'translation', strings[language], true, false);
}

export default i18n;
