// Borrower steps through the screens, shared by the borrower and console journeys.
import assert from 'node:assert/strict';
import { auditor, makeJpeg, shot, smsCode } from './harness.mjs';

let mobileSeq = 0;
/** A fresh 11-digit mobile starting with 0. */
export const newMobile = () => `09${String(Date.now()).slice(-7)}${String(mobileSeq++).padStart(2, '0')}`;
export const PASSWORD = 'correct-horse-1';
export const PIN = '246810';

/** Retries an assertion for up to `ms` (screens fill in as their calls answer). */
export async function eventually(check, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Registers through the sign-up screen, with the code texted to the phone (read from
 * `server`'s SMS outbox, PRODUCT.md 12.2); returns the mobile.
 */
export async function register(page, server, name) {
  const mobile = newMobile();
  await page.goto('/register?code=WELCOME&channel=e2e');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('textbox', { name: 'SMS code' }).fill(await smsCode(server, mobile));
  if (name) await shot(page, name);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  // The privacy notice of the configuration, accepted (PRODUCT.md 12.6).
  await page.getByRole('checkbox', { name: /I have read and accept the privacy notice/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return mobile;
}

/**
 * Chooses region → province → city/municipality in the profile's location picker
 * (PRODUCT.md 11, PSGC names); `province` is omitted in a region without provinces
 * (NCR), where the picker says there is none.
 */
export async function choosePlace(page, { region, province, city }) {
  await page.getByRole('combobox', { name: 'Region' }).selectOption(region);
  if (province) await page.getByRole('combobox', { name: 'Province' }).selectOption(province);
  else await page.getByTestId('no-province').waitFor();
  await page.getByRole('combobox', { name: 'City / municipality' }).selectOption(city);
}

/** Identity, full profile and bank through the screens. */
export async function completeProfile(page, { shots = false, realName = 'Ana Cruz' } = {}) {
  await page.goto('/identity');
  for (const [label, text] of [['ID front', 'FRONT'], ['ID back', 'BACK'], ['Holding ID', 'FACE']]) {
    await page.getByLabel(label).setInputFiles(await makeJpeg(page, text));
  }
  await page.getByRole('textbox', { name: 'Full name' }).fill(realName);
  await page.getByRole('textbox', { name: 'ID number' }).fill(String(Date.now()).slice(-9));
  await page.getByText('Female', { exact: true }).click();
  await page.getByLabel('Birthday').fill('1990-05-01');
  await page.getByLabel('Marital status').selectOption('Single');
  if (shots) await shot(page, 'identity');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL('**/baseInfo');
  await page.getByRole('textbox', { name: 'Email' }).fill(`ana${Date.now()}@example.ph`);
  await choosePlace(page, { region: 'National Capital Region (NCR)', city: 'City of Manila' });
  await page.getByRole('textbox', { name: 'Address' }).fill('1 Rizal Street, Manila');
  await page.getByLabel('Education').selectOption('College');
  await page.getByLabel('Bank', { exact: true }).selectOption('BDO Unibank');
  await page.getByRole('textbox', { name: 'Account number' }).fill('123456789012');
  if (shots) await shot(page, 'baseInfo');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Signs on the signature sheet's canvas and confirms. */
export async function sign(page) {
  const canvas = page.getByTestId('signature-canvas');
  await canvas.waitFor();
  await page.waitForTimeout(700); // the sheet slides up; measure once it rests
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + 30, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i += 1) {
    await page.mouse.move(box.x + 30 + i * 22, box.y + box.height / 2 + (i % 2 ? -25 : 25), { steps: 3 });
  }
  await page.mouse.up();
  const saved = page.waitForResponse((r) => r.url().includes('signatureImg/upload'));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const body = await (await saved).json();
  assert.equal(body.code, 0, `signature upload: ${JSON.stringify(body)}`);
  await page.getByText('Signature saved').waitFor();
}

/** Answers the six questions on `/question` (English), declaring `income` a month. */
export async function fillQuestionnaire(page, { income }) {
  await page.waitForURL('**/question');
  await page.getByRole('combobox', { name: 'Job' }).selectOption({ label: 'Government employee' });
  await page.getByRole('textbox', { name: 'Monthly income' }).fill(income);
  await page.getByRole('textbox', { name: 'Monthly expenses' }).fill('12000');
  await page.getByRole('combobox', { name: 'Loan purpose' }).selectOption({ label: 'Tuition / school fees' });
  await page.locator('.adm-form-item', { hasText: 'borrowed before' }).getByText('No', { exact: true }).click();
  await page.locator('.adm-form-item', { hasText: 'guarantor' }).getByText('No', { exact: true }).click();
}

/**
 * Questionnaire and application through the screens (12 days); returns the order id.
 * With `disclosed`, the cost disclosure must show that text (an interest, say) first.
 */
export async function applyForLoan(page, { shots = false, amount = '100000', disclosed } = {}) {
  await page.goto('/');
  await page.getByTestId('main-button').click();
  await fillQuestionnaire(page, { income: '400000' });
  if (shots) await shot(page, 'question');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/\/apply\/1\?period=24/);
  const input = page.getByRole('textbox', { name: 'Loan amount' });
  // 40 % of 400,000 a month: 150,000 over 24 days repays 153,600 (issue 52).
  await eventually(async () => assert.equal(await input.inputValue(), '150,000', 'pre-filled with the largest amount the income allows (P7)'));
  await page.getByTestId('income-limit').getByText('allows up to ₱150,000.00 over 24 days', { exact: false }).waitFor();
  await page.getByTestId('disclosure').waitFor();
  await input.fill(amount);
  await input.blur();
  // The period tiles are radios (keyboard-operable); the invisible input covers its tile.
  await page.getByRole('radio', { name: /12 days/ }).check();
  await page.getByTestId('disclosure').getByText('₱100,000.00').first().waitFor();
  if (disclosed) await page.getByTestId('disclosure').getByText(disclosed, { exact: true }).first().waitFor();
  if (shots) await shot(page, 'apply');
  await page.getByText('I have read the cost disclosure').click();
  await page.getByRole('button', { name: 'Sign and submit' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/success\//);
  if (shots) await shot(page, 'success');
  return page.url().split('/success/')[1];
}

/**
 * Withdraws through the home main button: amount → bank card → PIN set-up (the
 * first time) → confirm; waits until the sandbox payout has made it "Repaying".
 * `amount` is whole currency units, e.g. '10000'.
 */
export async function withdrawFromHome(page, { amount = '10000', shots = false } = {}) {
  const photo = (name) => (shots ? shot(page, name) : undefined);
  await page.goto('/');
  await page.getByTestId('main-button').getByText('Withdraw').waitFor();
  if (shots) await shot(page, 'home-approved');
  await page.getByTestId('main-button').click();
  await page.waitForURL(/\/detail\/.*index=0/);
  const box = page.getByRole('textbox', { name: 'Withdrawal amount' });
  await eventually(async () => assert.notEqual(await box.inputValue(), '', 'pre-filled with the balance'));
  await box.fill(amount);
  await photo('detail-withdraw-amount');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/index=1/);
  await page.getByTestId('withdraw-bank').waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/index=2/);
  await page.getByRole('textbox', { name: 'New withdraw PIN' }).fill(PIN);
  await page.getByRole('textbox', { name: 'Repeat the PIN' }).fill(PIN);
  await photo('detail-withdraw-pin-setup');
  await page.getByRole('button', { name: 'Save PIN and continue' }).click();
  // The PIN just chosen carries on to the confirmation.
  await page.waitForURL(/index=3/);
  const grouped = Number(amount).toLocaleString('en-US');
  await page.getByTestId('withdraw-summary').getByText(`₱${grouped}.00`).waitFor();
  await photo('detail-withdraw-confirm');
  await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
  // The sandbox payout succeeds; the order becomes "Repaying" (status 4).
  await page.getByText('Repaying').first().waitFor({ timeout: 30000 });
}

/**
 * Repays through the home main button, the recharge screen and the sandbox
 * payment page, one payment per entry of `payments` ('payoff' pays off today).
 */
export async function repay(page, payments, { shots = false } = {}) {
  for (const [index, pay] of payments.entries()) {
    const i = index + 1;
    await page.goto('/');
    await page.getByTestId('main-button').getByText('Repay').waitFor();
    await page.getByTestId('main-button').click();
    await page.waitForURL('**/recharge');
    if (i === 1) {
      // Below the minimum and not the final payment: refused before any payment page.
      await page.getByRole('textbox', { name: 'Repayment amount' }).fill('50');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await page.getByTestId('recharge-error').waitFor();
      assert.match(await page.getByTestId('recharge-error').innerText(), /between ₱100\.00 and/);
    }
    if (pay === 'payoff') await page.getByRole('button', { name: 'Pay off today' }).click();
    else await page.getByRole('textbox', { name: 'Repayment amount' }).fill(pay);
    if (shots) await shot(page, `recharge-${i}`);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/pay\/sandbox\//);
    if (shots) await shot(page, `pay-sandbox-${i}`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('link', { name: 'Back to repayment details' }).click();
    await page.waitForURL('**/repayDetail');
  }
}

/**
 * Two loan officers approve through the auditor API (start review, verify identity,
 * first and final review); their usernames start with `prefix`.
 */
export async function approveByApi(server, orderId, prefix) {
  const a1 = await auditor(server, `${prefix}-a-${orderId.slice(-6)}`);
  const a2 = await auditor(server, `${prefix}-b-${orderId.slice(-6)}`);
  const detail = await a1.call('orders/detail', { orderId });
  const userId = detail.order?.userId ?? detail.applicant?.userId;
  await a1.call('orders/startReview', { orderId });
  await a1.call('users/verifyIdentity', { userId });
  await a1.call('orders/passFirst', { orderId, note: 'documents in order' });
  await a2.call('orders/passFinal', { orderId, note: 'approved' });
  return { a1, a2, userId };
}
