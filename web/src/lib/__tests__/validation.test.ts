/** The client-side checks of PRODUCT.md section 5 (mirroring aggregates/src/types.rs). */
import {
  ageOn,
  checkAccountNo,
  checkAge,
  checkApplyAmount,
  checkBirthday,
  checkConfirm,
  checkEmail,
  checkIdNumber,
  checkImage,
  checkPassword,
  checkPhone,
  checkPin,
  checkRepayAmount,
  clampAmount,
  digitsOnly,
  phoneInput,
} from '@/lib/validation';
import { toMinor } from '@/lib/money';
import { checkNewPin } from '@/lib/new-pin';

const today = new Date('2026-11-22T09:00:00Z');

describe('validation (PRODUCT.md 5)', () => {
  it('phone: exactly 11 digits starting with 0; input stripped to digits, max 11', () => {
    expect(checkPhone('09171234567')).toBeNull();
    for (const bad of ['9171234567', '19171234567', '0917123456', '091712345678', '', '0917123456a']) {
      expect(checkPhone(bad)).toBe('phone_input');
    }
    expect(digitsOnly('0917-123 4567 89', 11)).toBe('09171234567');
  });

  it('password at least 8 characters; confirm must match', () => {
    expect(checkPassword('1234567')).toBe('password_min');
    expect(checkPassword('12345678')).toBeNull();
    expect(checkConfirm('abcdefgh', 'abcdefgi')).toBe('common_password_not_match');
    expect(checkConfirm('abcdefgh', 'abcdefgh')).toBeNull();
  });

  it('a pasted international phone number reads as the local one (issue 52)', () => {
    expect(phoneInput('+63 917 555 0101')).toBe('09175550101');
    expect(phoneInput('63-917-555-0101')).toBe('09175550101');
    expect(phoneInput('(0917) 555 0101')).toBe('09175550101');
    expect(phoneInput('0917555010199')).toBe('09175550101');
    expect(phoneInput('+6')).toBe('6');
  });

  it('a new PIN a guesser tries first is refused, as the User aggregate does (issue 52)', () => {
    for (const easy of ['123456', '654321', '012345', '987654', '111111', '000000', '121212', '123123', '909090', '112233', '159753']) {
      expect(checkNewPin(easy), easy).toBe('pin_too_easy');
    }
    for (const fine of ['135792', '482913', '120045', '246813', '907312']) {
      expect(checkNewPin(fine), fine).toBeNull();
    }
    expect(checkNewPin('12345')).toBe('pin_rule');
  });

  it('PIN is 6 digits; ID number digits only; account number 8–20 digits', () => {
    expect(checkPin('123456')).toBeNull();
    expect(checkPin('12345')).toBe('pin_rule');
    expect(checkPin('12345a')).toBe('pin_rule');
    expect(checkIdNumber('123456789')).toBeNull();
    expect(checkIdNumber('12-34')).toBe('id_number_rule');
    expect(checkAccountNo('1234567')).toBe('card_rule');
    expect(checkAccountNo('12345678')).toBeNull();
    expect(checkAccountNo('1'.repeat(20))).toBeNull();
    expect(checkAccountNo('1'.repeat(21))).toBe('card_rule');
  });

  it('takes an e-wallet account as the wallet mobile number', () => {
    expect(checkAccountNo('09171234567', true)).toBeNull();
    expect(checkAccountNo('001234567890', true)).toBe('ewallet_rule');
    expect(checkAccountNo('0917123456', true)).toBe('ewallet_rule');
    expect(checkAccountNo('08171234567', true)).toBe('ewallet_rule');
  });

  it('email as the server checks it', () => {
    expect(checkEmail('ana@example.ph')).toBeNull();
    for (const bad of ['ana@', '@x.ph', 'ana@x', 'a na@x.ph', 'ana@x..ph', 'a@b@c.ph']) {
      expect(checkEmail(bad)).toBe('email_rule');
    }
  });

  it('birthday between 1900-01-01 and today, a real date; age 22–50 at apply', () => {
    expect(checkBirthday('1990-05-01', today)).toBeNull();
    expect(checkBirthday('1899-12-31', today)).toBe('birthday_rule');
    expect(checkBirthday('2026-11-23', today)).toBe('birthday_rule');
    expect(checkBirthday('1990-02-30', today)).toBe('birthday_rule');
    expect(ageOn('2004-11-22', today)).toBe(22);
    expect(ageOn('2004-11-23', today)).toBe(21);
    expect(checkAge('2004-11-23', today)).toBe('age_rule');
    expect(checkAge('1976-11-22', today)).toBeNull();
    expect(checkAge('1975-11-21', today)).toBe('age_rule');
  });

  it('images: JPEG or PNG by content and under 5 MB', async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])]);
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])]);
    const gif = new Blob([new TextEncoder().encode('GIF89a....')]);
    expect(await checkImage(png)).toBeNull();
    expect(await checkImage(jpeg)).toBeNull();
    expect(await checkImage(gif)).toBe('img_type_tips');
    const big = new Blob([new Uint8Array([0xff, 0xd8, 0xff]), new Uint8Array(5 * 1024 * 1024)]);
    expect(await checkImage(big)).toBe('img_size_tips');
  });

  it('apply amount within range and on the step; clamped on blur', () => {
    expect(checkApplyAmount(80000, 80000, 3000000, 10000)).toBeNull();
    expect(checkApplyAmount(85000, 80000, 3000000, 10000)).toBe('amount_rule');
    expect(checkApplyAmount(70000, 80000, 3000000, 10000)).toBe('amount_rule');
    expect(checkApplyAmount(3010000, 80000, 3000000, 10000)).toBe('amount_rule');
    expect(clampAmount(5, 80000, 3000000, 10000)).toBe(80000);
    expect(clampAmount(9999999, 80000, 3000000, 10000)).toBe(3000000);
    expect(clampAmount(125000, 80000, 3000000, 10000)).toBe(120000);
    expect(clampAmount(Number.NaN, 80000, 3000000, 10000)).toBe(80000);
  });

  it('repayment: 100–20,000 and at most what is owed; a final payment below the minimum is allowed', () => {
    const min = toMinor('100')!;
    const max = toMinor('20000')!;
    const owed = toMinor('5000.50')!;
    expect(checkRepayAmount(toMinor('100'), owed, min, max)).toBeNull();
    expect(checkRepayAmount(toMinor('99.99'), owed, min, max)).toBe('repay_amount_rule');
    expect(checkRepayAmount(toMinor('5000.51'), owed, min, max)).toBe('repay_amount_rule');
    expect(checkRepayAmount(toMinor('5000.50'), owed, min, max)).toBeNull();
    expect(checkRepayAmount(toMinor('50'), toMinor('50')!, min, max)).toBeNull();
    expect(checkRepayAmount(toMinor('40'), toMinor('50')!, min, max)).toBe('repay_amount_rule');
    expect(checkRepayAmount(toMinor('25000'), toMinor('30000')!, min, max)).toBe('repay_amount_rule');
    expect(checkRepayAmount(toMinor('1.234'), owed, min, max)).toBe('repay_amount_rule');
    expect(checkRepayAmount(null, owed, min, max)).toBe('repay_amount_rule');
  });
});
