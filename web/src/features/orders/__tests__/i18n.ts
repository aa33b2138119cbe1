/** Loads this feature's translations into i18n for the tests (until they are merged into locales/). */
import i18n from '@/lib/i18n';
import en from '../i18n.en.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
