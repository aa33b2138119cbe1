/**
 * The console's strings (every `admin_*` key), kept out of the borrower's
 * locales so the borrower's first screen does not carry them. Importing this
 * module (admin-app.tsx, admin-format.ts) adds them to i18next in both
 * languages; they travel only in the console's chunk. The borrower strings the
 * console also uses (errors, the language switch) load as usual (lib/i18n.ts).
 */
import i18n, { type Language } from '@/lib/i18n';
import en from './locales/en.json';
import zh from './locales/zh.json';

/**
 * The console's languages. The borrower app also speaks Filipino (issue 16); the
 * console is for loan officers and is not translated into it, so there it opens
 * in English (admin-app.tsx) and its switch lists only these.
 */
export const CONSOLE_LANGUAGES = ['en', 'zh'] as const satisfies readonly Language[];

export function isConsoleLanguage(language: string): boolean {
  return (CONSOLE_LANGUAGES as readonly string[]).includes(language);
}

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('zh', 'translation', zh, true, false);
