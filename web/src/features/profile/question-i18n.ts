/**
 * The questionnaire's lists for job and loan purpose (every `qlist_*` key, issue
 * 52), kept out of the borrower's first screen (its JavaScript budget, issue 15)
 * as the apply screen keeps its own (loan/apply-i18n.ts): importing this module
 * adds them to i18next in the three languages, in the questionnaire's chunk.
 */
import { addFeatureStrings } from '@/lib/i18n';
import en from './locales/en.json';
import fil from './locales/fil.json';
import zh from './locales/zh.json';

addFeatureStrings({ en, zh, fil });
