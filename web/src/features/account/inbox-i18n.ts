/**
 * The inbox screen's strings (its `inbox_*` keys but the title and the unread count,
 * which the My page shows), kept out of the borrower's first screen (its JavaScript
 * budget, issue 15): importing this module adds them in the three languages, in the
 * inbox's chunk.
 */
import { addFeatureStrings } from '@/lib/i18n';
import en from './locales/en.json';
import fil from './locales/fil.json';
import zh from './locales/zh.json';

addFeatureStrings({ en, zh, fil });
