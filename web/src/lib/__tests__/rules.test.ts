/** Qualification (4.1), the home main button (4.2) and the status labels (4.3). */
import { afterQuestionnaire, isQualified, mainButton, reviewStep, statusLabelKey, gatherTerms } from '@/lib/rules';
import type { Progress, PeriodConfig, Product } from '@/lib/api-types';

const done = { identity: 1, basicInformation: 1, bankCard: 1 };
const progress = (status: number): Progress => ({ orderId: 'o1', status, applyAmount: '80000.00', balance: '0.00', contract: '' });
const products: Product[] = [
  { id: 2, name: 'Off', logo: '', minAmount: '80000.00', maxAmount: '900000.00', step: '10000.00', defaultRate: '0.1', enabled: false, nameTranslations: {} },
  { id: 1, name: 'Cash', logo: '', minAmount: '80000.00', maxAmount: '3000000.00', step: '10000.00', defaultRate: '0.2', enabled: true, nameTranslations: {} },
];
const periods: PeriodConfig = {
  id: 1,
  rateConfigs: [
    { periodDays: 12, rate: '0.15', amounts: ['80000.00', '90000.00'] },
    { periodDays: 6, rate: '0.2', amounts: ['80000.00', '90000.00'] },
    { periodDays: 24, rate: '0.1', amounts: ['80000.00', '3000000.00'] },
  ],
};

describe('qualification (4.1)', () => {
  it('needs identity, basic information and bank card completed; identity 3 forces re-upload', () => {
    expect(isQualified(done)).toBe(true);
    expect(isQualified({ ...done, identity: 2 })).toBe(true);
    expect(isQualified({ ...done, identity: 0 })).toBe(false);
    expect(isQualified({ ...done, identity: 3 })).toBe(false);
    expect(isQualified({ ...done, basicInformation: 0 })).toBe(false);
    expect(isQualified({ ...done, bankCard: 0 })).toBe(false);
    expect(isQualified(undefined)).toBe(false);
  });
});

describe('home main button (4.2, 4.3)', () => {
  it('reads "Complete info" → /baseInfo while unqualified, whatever the order', () => {
    expect(mainButton({ ...done, bankCard: 0 }, progress(9))).toEqual({ kind: 'completeInfo', to: '/baseInfo' });
  });
  it('refreshes while under review (0, 1, 3)', () => {
    for (const s of [0, 1, 3]) expect(mainButton(done, progress(s))).toEqual({ kind: 'refresh' });
  });
  it('leads to the order to fix and resubmit when the officer asks (2, 12.4), even while new photos await review', () => {
    const expected = { kind: 'resubmit', to: '/detail/o1' };
    expect(mainButton(done, progress(2))).toEqual(expected);
    expect(mainButton({ ...done, identity: 0 }, progress(2))).toEqual(expected);
  });
  it('withdraws when approved and repays when disbursed', () => {
    expect(mainButton(done, progress(9))).toEqual({ kind: 'withdraw', to: '/detail/o1?index=0' });
    expect(mainButton(done, progress(4))).toEqual({ kind: 'repay', to: '/recharge' });
  });
  it('applies → /question with no order or a terminal one', () => {
    expect(mainButton(done, null)).toEqual({ kind: 'apply', to: '/question' });
    for (const s of [5, 10, 11, 12, 13]) expect(mainButton(done, progress(s)).kind).toBe('apply');
  });
});

describe('after the questionnaire (4.2, P7)', () => {
  it('opens the first enabled product at the longest period, the amount left to what the income allows', () => {
    expect(afterQuestionnaire(null, products, periods)).toBe('/apply/1?period=24');
    expect(afterQuestionnaire(progress(10), products, periods)).toBe('/apply/1?period=24');
    expect(afterQuestionnaire(null, products)).toBe('/apply/1');
  });
  it('goes to the order in progress instead', () => {
    expect(afterQuestionnaire(progress(0), products, periods)).toBe('/detail/o1');
  });
  it('goes to the product list when no product is enabled', () => {
    expect(afterQuestionnaire(null, [products[0]], periods)).toBe('/loan');
  });
});

describe('status labels (4.3)', () => {
  it('0–3 read "Under review" with a step; others their own label', () => {
    expect([0, 1, 3].map(statusLabelKey)).toEqual(Array(3).fill('status_under_review'));
    expect(statusLabelKey(2)).toBe('status_2');
    expect([0, 1, 2, 3].map(reviewStep)).toEqual([0, 1, 0, 2]);
    expect(statusLabelKey(9)).toBe('status_9');
    expect(statusLabelKey(12)).toBe('status_12');
  });
  it('gathers amounts, periods and rates sorted ascending (PRODUCT.md 10)', () => {
    const terms = gatherTerms(periods);
    expect(terms.periods).toEqual([6, 12, 24]);
    expect(terms.amounts).toEqual([80000, 90000, 3000000]);
    expect(terms.rates.get(6)).toBe('0.2');
  });
});
