/**
 * Every string exists in every language with the same `{{placeholders}}`,
 * including `service_error_{code}` for every code of PRODUCT.md 9: the borrower
 * app in English, Chinese and Filipino (issue 16), the console in English and
 * Chinese. The console's strings (`admin_*`) live apart, in
 * features/admin/locales, and the order timeline's (`timeline_*`) in
 * features/orders/locales, the apply screen's income limit (`income_limit_*`)
 * in features/loan/locales, and the questionnaire's job and purpose lists
 * (`qlist_*`) in features/profile/locales, and the late loan panel's (`late_*`)
 * in features/orders/late-locales, so the borrower's first screen does
 * not carry them.
 */
import en from '@/locales/en.json';
import zh from '@/locales/zh.json';
import fil from '@/locales/fil.json';
import adminEn from '@/features/admin/locales/en.json';
import adminZh from '@/features/admin/locales/zh.json';
import timelineEn from '@/features/orders/locales/en.json';
import timelineZh from '@/features/orders/locales/zh.json';
import timelineFil from '@/features/orders/locales/fil.json';
import applyEn from '@/features/loan/locales/en.json';
import applyZh from '@/features/loan/locales/zh.json';
import applyFil from '@/features/loan/locales/fil.json';
import refusalEn from '@/locales/refusal/en.json';
import refusalZh from '@/locales/refusal/zh.json';
import refusalFil from '@/locales/refusal/fil.json';
import lockEn from '@/features/auth/locales/en.json';
import lockZh from '@/features/auth/locales/zh.json';
import lockFil from '@/features/auth/locales/fil.json';
import inboxEn from '@/features/account/locales/en.json';
import inboxZh from '@/features/account/locales/zh.json';
import inboxFil from '@/features/account/locales/fil.json';
import lateEn from '@/features/orders/late-locales/en.json';
import lateZh from '@/features/orders/late-locales/zh.json';
import lateFil from '@/features/orders/late-locales/fil.json';
import questionEn from '@/features/profile/locales/en.json';
import questionZh from '@/features/profile/locales/zh.json';
import questionFil from '@/features/profile/locales/fil.json';
import { readFileSync } from 'node:fs';
import { ORDER_EVENT_TYPES } from '@/lib/order-events';
import { LANGUAGES } from '@/lib/i18n';

type Strings = Record<string, string>;

/**
 * Translations of the configured reference values (lib/reference-label.ts): only
 * the other languages have them; English shows a value as configured.
 */
const isValueLabel = (key: string) => key.startsWith('value_');
const withoutValueLabels = (strings: Strings): Strings =>
  Object.fromEntries(Object.entries(strings).filter(([key]) => !isValueLabel(key)));

/** The demo configuration's lists (api/config/demo.json) whose values are translated. */
// Vitest runs in web/ (scripts/test, npm test).
const demo = JSON.parse(readFileSync('../api/config/demo.json', 'utf8')) as Record<
  'marriage' | 'education',
  string[]
>;

const CODES = [5, 7, 401, 500, 10000, 10001, 10002, 10003, 10004, 10005, 10006, 10008, 10009, 10011, 10012, 10013, 10014,
  10025, 10026, 10028, 10035, 20000, 20001, 20003, 40000, 40001, 40003, 40004, 40005, 40006, 40007, 40008, 40009, 40010, 50001, 50002, 50004, 50005, 50006, 110012];

/**
 * Filipino keeps the English words Filipinos use in such apps (and the brand);
 * every other Filipino string differs from the English one.
 */
const FILIPINO_AS_ENGLISH = ['account', 'app_name', 'customer_service', 'email', 'ok', 'password', 'repay_col_period',
  'tab_home', 'timeline_by_auditor', 'website', 'withdraw_step_pin'];

/** The keys whose translation is the English text (the language names may be, and `same`). */
function untranslated(english: Strings, other: Strings, same: string[] = []): string[] {
  return Object.keys(english).filter((k) => english[k] === other[k] && !k.startsWith('language_') && !same.includes(k));
}

/** The `{{name}}` placeholders of a string, sorted ("{{ n }}" and "{{n, number}}" count as `n`). */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();
}

describe.each([
  ['the borrower app', 'Chinese', en as Strings, withoutValueLabels(zh), []],
  ['the borrower app', 'Filipino', en as Strings, withoutValueLabels(fil), FILIPINO_AS_ENGLISH],
  ['the console', 'Chinese', adminEn as Strings, adminZh as Strings, []],
  ['the order timeline', 'Chinese', timelineEn as Strings, timelineZh as Strings, []],
  ['the order timeline', 'Filipino', timelineEn as Strings, timelineFil as Strings, FILIPINO_AS_ENGLISH],
  ['the apply screen', 'Chinese', applyEn as Strings, applyZh as Strings, []],
  ['the apply screen', 'Filipino', applyEn as Strings, applyFil as Strings, []],
  ['the refusal reasons', 'Chinese', refusalEn as Strings, refusalZh as Strings, []],
  ['the refusal reasons', 'Filipino', refusalEn as Strings, refusalFil as Strings, ['refusal_reason_join']],
  ['the lock screen', 'Chinese', lockEn as Strings, lockZh as Strings, []],
  ['the lock screen', 'Filipino', lockEn as Strings, lockFil as Strings, []],
  ['the inbox', 'Chinese', inboxEn as Strings, inboxZh as Strings, []],
  ['the inbox', 'Filipino', inboxEn as Strings, inboxFil as Strings, []],
  ['the questionnaire', 'Chinese', questionEn as Strings, questionZh as Strings, []],
  ['the late loan panel', 'Chinese', lateEn as Strings, lateZh as Strings, []],
  ['the late loan panel', 'Filipino', lateEn as Strings, lateFil as Strings, ['late_plan_line']],
  ['the questionnaire', 'Filipino', questionEn as Strings, questionFil as Strings, []],
])('translations of %s into %s', (_app, _language, english, other, same) => {
  it('has exactly the English keys', () => {
    expect(Object.keys(other).sort()).toEqual(Object.keys(english).sort());
  });
  it('has the same placeholders as English in every string', () => {
    const differing = Object.keys(english).filter(
      (k) => placeholders(english[k]).join() !== placeholders(other[k] ?? '').join(),
    );
    expect(differing).toEqual([]);
  });
  it('is translated, not copied', () => {
    expect(untranslated(english, other, same)).toEqual([]);
  });
  it('no string is empty', () => {
    expect(Object.keys(english).filter((k) => !english[k].trim() || !other[k]?.trim())).toEqual([]);
  });
});

describe('translations', () => {
  it('every section 9 code has a message in every language', () => {
    for (const code of CODES) {
      expect(en).toHaveProperty(`service_error_${code}`);
      expect(zh).toHaveProperty(`service_error_${code}`);
      expect(fil).toHaveProperty(`service_error_${code}`);
    }
  });
  it('the language switch names every language in each language file', () => {
    for (const language of LANGUAGES) {
      for (const strings of [en, zh, fil] as Strings[]) expect(strings).toHaveProperty(`language_${language}`);
    }
  });
  it('the placeholder reader sees the names', () => {
    expect(placeholders('{{max}} – {{ min }}, {{n, number}}')).toEqual(['max', 'min', 'n']);
  });
  it('every order event type has a label on the borrower timeline and in the console', () => {
    for (const type of ORDER_EVENT_TYPES) {
      expect(timelineEn).toHaveProperty(`timeline_${type}`);
      expect(adminEn).toHaveProperty(`admin_event_${type}`);
    }
  });
  it('every marital status and education of the demo configuration reads in Chinese and Filipino', () => {
    const keys = (['marriage', 'education'] as const).flatMap((kind) => demo[kind].map((value) => `value_${kind}_${value}`));
    expect(keys.length).toBeGreaterThan(8);
    for (const strings of [zh, fil] as Strings[]) {
      expect(keys.filter((key) => !strings[key]?.trim())).toEqual([]);
      // Nothing beyond the configured values (a renamed value would leave its label behind).
      expect(Object.keys(strings).filter(isValueLabel).sort()).toEqual([...keys].sort());
      expect(keys.filter((key) => strings[key] === key.replace(/^value_[a-z]+_/, ''))).toEqual([]);
    }
    expect(Object.keys(en).filter(isValueLabel)).toEqual([]);
  });
  it('the console strings are all admin_*, and only they are', () => {
    expect(Object.keys(adminEn).filter((k) => !k.startsWith('admin_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('admin_'))).toEqual([]);
  });
  it('the timeline strings are all timeline_*, and only they are', () => {
    expect(Object.keys(timelineEn).filter((k) => !k.startsWith('timeline_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('timeline_'))).toEqual([]);
  });
  it('every refusal reason the console offers reads in the borrower\'s languages', () => {
    for (const code of ['income_not_verified', 'identity_not_verified', 'information_inconsistent', 'repayment_capacity', 'outside_policy']) {
      expect(refusalEn).toHaveProperty(`refusal_reason_${code}`);
      expect(adminEn).toHaveProperty(`admin_refusal_reason_${code}`);
    }
    expect(Object.keys(en).filter((k) => k.startsWith('refusal_reason_'))).toEqual([]);
  });
  it('the inbox screen strings are inbox_* and only there', () => {
    expect(Object.keys(inboxEn).filter((k) => !k.startsWith('inbox_'))).toEqual([]);
    expect(Object.keys(inboxEn).filter((k) => k in en)).toEqual([]);
  });
  it('the apply screen strings are all income_limit_*, and only they are', () => {
    expect(Object.keys(applyEn).filter((k) => !k.startsWith('income_limit_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('income_limit_'))).toEqual([]);
  });
  it('the late loan panel strings are all late_*, and only they are', () => {
    expect(Object.keys(lateEn).filter((k) => !k.startsWith('late_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('late_'))).toEqual([]);
  });
  it('the questionnaire list strings are all qlist_*, and only they are', () => {
    expect(Object.keys(questionEn).filter((k) => !k.startsWith('qlist_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('qlist_'))).toEqual([]);
  });
});
