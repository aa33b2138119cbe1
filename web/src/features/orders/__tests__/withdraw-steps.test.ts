import {
  STEP_AMOUNT,
  STEP_BANK,
  STEP_CONFIRM,
  STEP_PIN,
  checkWithdrawAmount,
  checkWithdrawPin,
  parseIndex,
  reachableStep,
  stepProblem,
} from '../withdraw-steps';

const complete = { amount: '50000', pin: '246810', hasBank: true };

describe('parseIndex', () => {
  it('reads 0–3 and sends anything else to the amount step', () => {
    expect(parseIndex('0')).toBe(STEP_AMOUNT);
    expect(parseIndex('1')).toBe(STEP_BANK);
    expect(parseIndex('2')).toBe(STEP_PIN);
    expect(parseIndex('3')).toBe(STEP_CONFIRM);
    for (const raw of [null, undefined, '', '4', '9', '-1', '1.5', 'x', '01', ' 2']) {
      expect(parseIndex(raw)).toBe(STEP_AMOUNT);
    }
  });
});

describe('checkWithdrawAmount', () => {
  it('needs an amount above zero with at most two decimals', () => {
    expect(checkWithdrawAmount('', '80000.00')).toBe('withdraw_amount_required');
    expect(checkWithdrawAmount('   ', '80000.00')).toBe('withdraw_amount_required');
    expect(checkWithdrawAmount('0', '80000.00')).toBe('withdraw_amount_invalid');
    expect(checkWithdrawAmount('0.00', '80000.00')).toBe('withdraw_amount_invalid');
    expect(checkWithdrawAmount('10.123', '80000.00')).toBe('withdraw_amount_invalid');
    expect(checkWithdrawAmount('1e3', '80000.00')).toBe('withdraw_amount_invalid');
  });

  it('is capped at the balance, to the cent (40006 above it)', () => {
    expect(checkWithdrawAmount('80000', '80000.00')).toBeNull();
    expect(checkWithdrawAmount('80000.00', '80000.00')).toBeNull();
    expect(checkWithdrawAmount('0.01', '80000.00')).toBeNull();
    expect(checkWithdrawAmount('80000.01', '80000.00')).toBe('service_error_40006');
    expect(checkWithdrawAmount('90000', '80000.00')).toBe('service_error_40006');
    expect(checkWithdrawAmount('1', '0.00')).toBe('service_error_40006');
  });
});

describe('checkWithdrawPin', () => {
  it('is exactly six digits', () => {
    expect(checkWithdrawPin('')).toBe('withdraw_pin_required');
    expect(checkWithdrawPin('12345')).toBe('withdraw_pin_rule');
    expect(checkWithdrawPin('1234567')).toBe('withdraw_pin_rule');
    expect(checkWithdrawPin('12345a')).toBe('withdraw_pin_rule');
    expect(checkWithdrawPin('000000')).toBeNull();
  });
});

describe('stepProblem and reachableStep', () => {
  it('each step must be complete before the next', () => {
    expect(stepProblem(STEP_AMOUNT, { ...complete, amount: '' }, '80000.00')).toBe('withdraw_amount_required');
    expect(stepProblem(STEP_BANK, { ...complete, hasBank: false }, '80000.00')).toBe('withdraw_no_bank');
    expect(stepProblem(STEP_PIN, { ...complete, pin: '' }, '80000.00')).toBe('withdraw_pin_required');
    expect(stepProblem(STEP_CONFIRM, complete, '80000.00')).toBeNull();
  });

  it('shows the requested step when the steps before it are complete', () => {
    expect(reachableStep(STEP_CONFIRM, complete, '80000.00')).toBe(STEP_CONFIRM);
    expect(reachableStep(STEP_AMOUNT, { amount: '', pin: '', hasBank: false }, '80000.00')).toBe(STEP_AMOUNT);
  });

  it('falls back to the first incomplete step for a jump ahead', () => {
    expect(reachableStep(STEP_CONFIRM, { ...complete, pin: '' }, '80000.00')).toBe(STEP_PIN);
    expect(reachableStep(STEP_CONFIRM, { ...complete, hasBank: false }, '80000.00')).toBe(STEP_BANK);
    expect(reachableStep(STEP_PIN, { ...complete, amount: '90000' }, '80000.00')).toBe(STEP_AMOUNT);
  });
});
