/** The console brings its own strings (admin-i18n.ts), in both languages, next to the borrower's. */
import i18n, { setLanguage } from '@/lib/i18n';
import borrowerZh from '@/locales/zh.json';
import adminEn from '../locales/en.json';
import adminZh from '../locales/zh.json';
import '../admin-i18n';

afterEach(() => setLanguage('en', false));

describe('console strings', () => {
  it('are there in English once the console module loads', () => {
    expect(i18n.t('admin_nav_queue')).toBe(adminEn.admin_nav_queue);
  });

  it('switching to Chinese in the console loads the borrower strings too', async () => {
    // The console has already added its Chinese bundle; the borrower's must still load.
    await setLanguage('zh', false);
    expect(i18n.t('admin_nav_queue')).toBe(adminZh.admin_nav_queue);
    expect(i18n.t('language')).toBe(borrowerZh.language);
    expect(i18n.t('common_network_error')).toBe(borrowerZh.common_network_error);
  });

  it('never calls a compliance hold a freeze, in either language (P4: no frozen accounts)', () => {
    const freeze = (texts: Record<string, string>, word: RegExp) => Object.entries(texts).filter(([, text]) => word.test(text));
    expect(freeze(adminEn, /\bfr(ee|o)z/i)).toEqual([]);
    expect(freeze(adminZh, /冻结/)).toEqual([]);
  });

  it('has every console string in both languages', () => {
    expect(Object.keys(adminZh).sort()).toEqual(Object.keys(adminEn).sort());
    for (const [key, text] of Object.entries(adminZh)) expect(text, key).not.toBe('');
  });
});
