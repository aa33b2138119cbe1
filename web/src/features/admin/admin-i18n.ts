/**
 * The console's strings (every `admin_*` key), kept out of the borrower's
 * locales so the borrower's first screen does not carry them. Importing this
 * module (admin-app.tsx, admin-format.ts) adds them to i18next in both
 * languages; they travel only in the console's chunk. The borrower strings the
 * console also uses (errors, the language switch) load as usual (lib/i18n.ts).
 */
import i18n from '@/lib/i18n';
import en from './locales/en.json';
import zh from './locales/zh.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('zh', 'translation', zh, true, false);
