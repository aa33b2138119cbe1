/**
 * Every string exists in both languages, including `service_error_{code}` for
 * every code of PRODUCT.md 9; the console's strings (`admin_*`) live apart, in
 * features/admin/locales, so the borrower's first screen does not carry them.
 */
import en from '@/locales/en.json';
import zh from '@/locales/zh.json';
import adminEn from '@/features/admin/locales/en.json';
import adminZh from '@/features/admin/locales/zh.json';
import { ORDER_EVENT_TYPES } from '@/lib/order-events';

type Strings = Record<string, string>;

const CODES = [5, 7, 401, 500, 10000, 10001, 10002, 10003, 10004, 10005, 10006, 10008, 10009, 10011, 10012, 10013, 10014,
  10025, 10026, 10028, 10035, 20000, 20001, 20003, 40000, 40001, 40003, 40004, 40005, 40006, 40007, 40008, 110012];

/** The keys whose Chinese text is the English one (the language names may be). */
function untranslated(english: Strings, chinese: Strings): string[] {
  return Object.keys(english).filter((k) => english[k] === chinese[k] && !k.startsWith('language_'));
}

describe.each([
  ['the borrower app', en as Strings, zh as Strings],
  ['the console', adminEn as Strings, adminZh as Strings],
])('translations of %s', (_name, english, chinese) => {
  it('English and Chinese have the same keys', () => {
    expect(Object.keys(chinese).sort()).toEqual(Object.keys(english).sort());
  });
  it('the Chinese file is translated, not copied', () => {
    expect(untranslated(english, chinese)).toEqual([]);
  });
  it('no string is empty', () => {
    expect(Object.keys(english).filter((k) => !english[k].trim() || !chinese[k]?.trim())).toEqual([]);
  });
});

describe('translations', () => {
  it('every section 9 code has a message in both languages', () => {
    for (const code of CODES) {
      expect(en).toHaveProperty(`service_error_${code}`);
      expect(zh).toHaveProperty(`service_error_${code}`);
    }
  });
  it('every order event type has a label on the borrower timeline and in the console', () => {
    for (const type of ORDER_EVENT_TYPES) {
      expect(en).toHaveProperty(`timeline_${type}`);
      expect(adminEn).toHaveProperty(`admin_event_${type}`);
    }
  });
  it('the console strings are all admin_*, and only they are', () => {
    expect(Object.keys(adminEn).filter((k) => !k.startsWith('admin_'))).toEqual([]);
    expect(Object.keys(en).filter((k) => k.startsWith('admin_'))).toEqual([]);
  });
});
