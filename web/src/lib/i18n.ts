/**
 * react-i18next set-up: English by default, Chinese on request (PRODUCT.md 1).
 * Every string the borrower sees is a key in locales/en.json and locales/zh.json;
 * the chosen language is remembered in local storage.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import zh from '@/locales/zh.json';
import { storage } from './storage';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

const saved = storage.get('language');
const initial: Language = saved === 'zh' ? 'zh' : 'en';

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, zh: { translation: zh } },
  lng: initial,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = initial;

/** Switches the language and remembers it. */
export function setLanguage(language: Language) {
  storage.set('language', language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return i18n.changeLanguage(language);
}

export default i18n;
