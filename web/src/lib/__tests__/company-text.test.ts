/**
 * The lender's texts in the borrower's language (lib/company-text.ts): the
 * translation the operator configured, else the plain English text.
 */
import { companyText } from '@/lib/company-text';
import { contactDetails } from '@/lib/service-link';
import { companyConfigFixture } from '@/testing/fixtures';

const config = companyConfigFixture({
  'about-us': 'A licensed lender.',
  faq: 'Repay any time.',
  'customer-service-hours': 'Mon–Sat 08:00–20:00',
  translations: {
    'about-us': { en: 'A licensed lender.', zh: '持牌放贷机构。', fil: '' },
    'customer-service-hours': { en: 'Mon–Sat 08:00–20:00', zh: '周一至周六 08:00–20:00' },
  },
});

describe('company texts', () => {
  it('reads the configured translation of the language', () => {
    expect(companyText(config, 'about-us', 'zh')).toBe('持牌放贷机构。');
    expect(companyText(config, 'about-us', 'en')).toBe('A licensed lender.');
  });

  it('falls back to the plain English text for a language without one, or an empty one', () => {
    expect(companyText(config, 'faq', 'zh')).toBe('Repay any time.');
    expect(companyText(config, 'about-us', 'fil')).toBe('A licensed lender.');
    expect(companyText(config, 'privacy-notice', 'zh')).toBe('');
    expect(companyText(undefined, 'faq', 'zh')).toBe('');
  });

  it('gives the contact dialog its hours in the language', () => {
    expect(contactDetails(config, 'zh').hours).toBe('周一至周六 08:00–20:00');
    expect(contactDetails(config, 'fil').hours).toBe('Mon–Sat 08:00–20:00');
  });
});
