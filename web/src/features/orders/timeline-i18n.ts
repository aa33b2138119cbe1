/**
 * The order timeline's strings (every `timeline_*` key), kept out of the borrower's
 * first screen (its JavaScript budget, issue 15) as the console keeps its own
 * (admin/admin-i18n.ts): importing this module (order-timeline.tsx) adds them to
 * i18next in the three languages, in the chunk of the screens that show a timeline.
 */
import { addFeatureStrings } from '@/lib/i18n';
import en from './locales/en.json';
import fil from './locales/fil.json';
import zh from './locales/zh.json';

addFeatureStrings({ en, zh, fil });
