/** Every string exists in both languages, including `service_error_{code}` for every code of PRODUCT.md 9. */
import en from '@/locales/en.json';
import zh from '@/locales/zh.json';

const CODES = [5, 7, 401, 500, 10000, 10001, 10002, 10003, 10004, 10005, 10006, 10008, 10009, 10011, 10012, 10013, 10014,
  10025, 10026, 10028, 10035, 20000, 20001, 20003, 40000, 40001, 40003, 40004, 40005, 40006, 40007, 40008, 110012];

describe('translations', () => {
  it('English and Chinese have the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
  it('every section 9 code has a message in both languages', () => {
    for (const code of CODES) {
      expect(en).toHaveProperty(`service_error_${code}`);
      expect(zh).toHaveProperty(`service_error_${code}`);
    }
  });
  it('the Chinese file is translated, not copied', () => {
    const same = Object.keys(en).filter(
      (k) => (en as Record<string, string>)[k] === (zh as Record<string, string>)[k] && !k.startsWith('language_'),
    );
    expect(same).toEqual([]);
  });
});
