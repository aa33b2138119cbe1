/**
 * The lock screen's words for what placed a security lock (`lock_cause_*`, issue 52),
 * kept out of the first screen's budget (issue 15): importing this module adds them
 * in the three languages, in the lock screen's chunk.
 */
import { addFeatureStrings } from '@/lib/i18n';
import en from './locales/en.json';
import fil from './locales/fil.json';
import zh from './locales/zh.json';

addFeatureStrings({ en, zh, fil });
