/** The server's refusals in the auditor's words, and how actors are named. */
import i18n from '@/lib/i18n';
import '../admin-i18n';
import { accountLabel, actorView, adminErrorMessage, ageAt, bucketLabel, incomeMultiple } from '../admin-format';
import type { LedgerAccount } from '@/lib/api-types';

const t = i18n.t.bind(i18n);
const failure = (code: number, serverMessage: string) => ({ code, message: `borrower text ${code}`, serverMessage });

describe('adminErrorMessage', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it.each([
    [10004, 'request error: the final review must be done by another auditor than the first', 'Final review must be done by a different auditor than the first review'],
    [40000, "not qualified: the applicant's identity is not verified", "The applicant's identity is not verified yet: verify it before passing the first review."],
    [10004, 'request error: cannot pass the first review of an order in status 3', 'Not possible while the order is "Awaiting final review". Refresh to see its current state.'],
    [10004, 'request error: reason: is required', 'Refused by the server: reason: is required'],
    [40007, 'record not found: nothing is owed', 'Not found: nothing is owed'],
    [40007, 'record not found', 'Record not found.'],
    [10002, 'wrong username or password', 'Wrong username or password.'],
    [10009, 'unable to get ID info', 'There are no ID photos awaiting review.'],
    [40001, 'enter an amount between 100–20000 for repayment', 'borrower text 40001'],
    [50007, 'maxTotalCostPct: above the compliance cap of 100', 'Breaks a compliance cap: maxTotalCostPct: above the compliance cap of 100'],
    [
      50006,
      'a second staff member must approve this: the one who proposed it set up the approving account',
      'Another staff member must approve this: your account was set up by the one who proposed it.',
    ],
  ])('%i %s', (code, server, text) => {
    expect(adminErrorMessage(t, failure(code, server))).toBe(text);
  });

  it('says "network" for anything that is not an answer', () => {
    expect(adminErrorMessage(t, undefined)).toBe(t('common_network_error'));
  });
});

describe('actorView', () => {
  const names = new Map([['a-1', 'alice']]);
  it('names a known auditor, shows the id of an unknown one', () => {
    expect(actorView(t, 'auditor:a-1', names).label).toBe('Auditor alice');
    expect(actorView(t, 'auditor:zz-9', names).label).toBe('Auditor zz-9');
  });
  it('names the borrower and the system', () => {
    expect(actorView(t, 'user:u1', names)).toEqual({ kind: 'user', id: 'u1', label: 'Borrower' });
    expect(actorView(t, 'system', names).label).toBe('System');
  });
});

describe('ageAt', () => {
  it.each([
    ['1990-05-01', '2026-11-22T07:19:13Z', 36],
    ['1990-11-22', '2026-11-22T00:00:00Z', 36],
    ['1990-11-23', '2026-11-22T23:59:59Z', 35],
    ['2008-02-29', '2026-02-28T12:00:00Z', 17],
    ['2008-02-29', '2026-03-01T00:00:00Z', 18],
    [null, '2026-11-22T07:19:13Z', null],
    ['1990-05-01', null, null],
    ['01/05/1990', '2026-11-22T07:19:13Z', null],
    ['2030-01-01', '2026-11-22T07:19:13Z', null],
  ])('born %s, applied %s: %s', (birthday, at, age) => {
    expect(ageAt(birthday, at)).toBe(age);
  });
});

describe('incomeMultiple', () => {
  it.each([
    ['100000.00', '30000', 100000 / 30000],
    ['80000.00', '80000', 1],
    ['80000.00', '', null],
    ['80000.00', null, null],
    ['80000.00', '0', null],
    ['80000.00', 'lots', null],
  ])('%s over %s: %s', (amount, income, multiple) => {
    expect(incomeMultiple(amount, income)).toBe(multiple);
  });
});

describe('accountLabel', () => {
  afterEach(() => i18n.changeLanguage('en'));
  /** An account as the api names it: a lender's account has no order or holder. */
  const named = (account: string, kind = account.split(':')[0]): LedgerAccount => ({ account, kind, orderNo: null, holder: null });
  const wallet = named('borrower_wallet:01a2021f-9257-71fc-94b1-89cc8b30bcdd');
  const receivable = named('loan_receivable:01a2021f-9257-71fc-94b1-89cc8b30bcdd');

  it.each([
    [{ ...wallet, holder: 'Ana Santos', orderNo: 'HL-2611-000123' }, 'Borrower wallet · Ana Santos'],
    [{ ...receivable, holder: 'Ana Santos', orderNo: 'HL-2611-000123' }, 'Loan receivable · HL-2611-000123'],
    [{ ...wallet, holder: null }, 'Borrower wallet · …89cc8b30bcdd'],
    [{ ...receivable }, 'Loan receivable · …89cc8b30bcdd'],
    [named('lender_cash'), 'Lender cash'],
    [named('payment_clearing'), 'Payments in transit (payment provider)'],
    [named('suspense:x'), 'suspense:x'],
  ])('%j reads %s', (account, label) => {
    expect(accountLabel(t, account)).toBe(label);
  });

  it('reads Chinese in Chinese', async () => {
    await i18n.changeLanguage('zh');
    expect(accountLabel(t, { ...wallet, holder: 'Ana Santos' })).toBe('借款人钱包 · Ana Santos');
    expect(accountLabel(t, named('fee_income'))).toBe('费用收入');
  });
});

describe('bucketLabel', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('words the first and the open-ended bucket, and keeps the ranges', () => {
    expect(bucketLabel(t, 'current')).toBe('Current');
    expect(bucketLabel(t, 'over 180')).toBe('Over 180 days');
    expect(bucketLabel(t, '31-60')).toBe('31-60');
    expect(bucketLabel(t, null)).toBe('—');
  });
});
