/** The replay's fields in the auditor's words: kinds of reminders and of repayment sources, in both languages. */
import i18n from '@/lib/i18n';
import '../admin-i18n';
import { fieldLabel, formatScalar, type FieldFormat } from '../history-fields';

const t = i18n.t.bind(i18n);
const format: FieldFormat = { t, money: (v) => v, dateTime: (v) => v, day: (v) => v, names: new Map() };
const kind = (value: string) => formatScalar('kind', value, format).text;

describe('replay fields', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('names a reminder\'s kind and a repayment source\'s in words, an unknown kind as it is', () => {
    expect(kind('due_in_1_day')).toBe('1 day before due');
    expect(kind('due_in_3_days')).toBe('3 days before due');
    expect(kind('recharge')).toBe('Payment page (borrower)');
    expect(kind('manual')).toBe('Recorded by an auditor');
    expect(kind('something_new')).toBe('something_new');
    expect(fieldLabel(t, 'reminders')).toBe('Reminders');
  });

  it('reads Chinese in Chinese', async () => {
    await i18n.changeLanguage('zh');
    expect(fieldLabel(t, 'reminders')).toBe('还款提醒');
    expect(kind('recharge')).toBe('还款页面（借款人）');
  });
});
