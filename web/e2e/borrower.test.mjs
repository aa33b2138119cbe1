// Borrower journeys in Chromium against the real api (issue 5 acceptance):
// registration to repaid, a refusal with its reason, the PIN lock and SMS unlock,
// the Chinese switch, and forms rejecting bad input. Each route is photographed
// at 390×844 into e2e/screenshots/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auditor, call, launchBrowser, makeJpeg, phone, shot, smsCode, startServer } from './harness.mjs';

let server;
let browser;
let mobileSeq = 0;
const newMobile = () => `09${String(Date.now()).slice(-7)}${String(mobileSeq++).padStart(2, '0')}`;
const PASSWORD = 'correct-horse-1';

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Retries an assertion for up to `ms` (screens fill in as their calls answer). */
async function eventually(check, ms = 10000) {
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

/** Registers through the sign-up screen; returns the mobile. */
async function register(page, name) {
  const mobile = newMobile();
  await page.goto('/register?code=WELCOME&channel=e2e');
  if (name) await shot(page, name);
  await page.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return mobile;
}

/** Identity, full profile and bank through the screens. */
async function completeProfile(page, { shots = false, realName = 'Ana Cruz' } = {}) {
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
  await page.getByLabel('Province').selectOption({ index: 1 });
  await page.getByRole('textbox', { name: 'Address' }).fill('1 Rizal Street, Manila');
  await page.getByLabel('Education').selectOption('College');
  await page.getByLabel('Bank', { exact: true }).selectOption('Bangkok Bank');
  await page.getByRole('textbox', { name: 'Account number' }).fill('123456789012');
  if (shots) await shot(page, 'baseInfo');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Signs on the signature sheet's canvas and confirms. */
async function sign(page) {
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

/** Questionnaire and application through the screens; returns the order id. */
async function applyForLoan(page, { shots = false, amount = '100000' } = {}) {
  await page.goto('/');
  await page.getByTestId('main-button').click();
  await page.waitForURL('**/question');
  await page.getByRole('textbox', { name: 'Job' }).fill('Teacher');
  await page.getByRole('textbox', { name: 'Monthly income' }).fill('30000');
  await page.getByRole('textbox', { name: 'Monthly expenses' }).fill('12000');
  await page.getByRole('textbox', { name: 'Loan purpose' }).fill('School fees');
  await page.locator('.adm-form-item', { hasText: 'borrowed before' }).getByText('No', { exact: true }).click();
  await page.locator('.adm-form-item', { hasText: 'guarantor' }).getByText('No', { exact: true }).click();
  if (shots) await shot(page, 'question');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/\/apply\/1\?amount=3000000&period=24/);
  const input = page.getByRole('textbox', { name: 'Loan amount' });
  await eventually(async () => assert.equal(await input.inputValue(), '3000000', 'pre-filled with the largest amount (P7)'));
  await page.getByTestId('disclosure').waitFor();
  await input.fill(amount);
  await input.blur();
  await page.getByText('12 days').click();
  await page.getByTestId('disclosure').getByText('₱100,000.00').first().waitFor();
  if (shots) await shot(page, 'apply');
  await page.getByText('I have read the cost disclosure').click();
  await page.getByRole('button', { name: 'Sign and submit' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/success\//);
  if (shots) await shot(page, 'success');
  return page.url().split('/success/')[1];
}

/** Two loan officers approve: start review, verify identity, first and final review. */
async function approve(orderId) {
  const a1 = await auditor(server, `officer-a-${orderId.slice(-6)}`);
  const a2 = await auditor(server, `officer-b-${orderId.slice(-6)}`);
  const detail = await a1.call('orders/detail', { orderId });
  const userId = detail.order?.userId ?? detail.applicant?.userId;
  await a1.call('orders/startReview', { orderId });
  await a1.call('users/verifyIdentity', { userId });
  await a1.call('orders/passFirst', { orderId, note: 'documents in order' });
  await a2.call('orders/passFinal', { orderId, note: 'approved' });
  return { a1, a2, userId };
}

export { register, completeProfile, sign, applyForLoan, approve, server, browser, call, smsCode };

describe('borrower journey', () => {
  test('registration to application, screens photographed', async () => {
    const { context, page } = await phone(browser, server.url);
    await page.goto('/login');
    await shot(page, 'login');
    await register(page, 'register');
    await shot(page, 'home-new');
    await completeProfile(page, { shots: true });
    await shot(page, 'signature-sheet');
    await sign(page);
    await page.getByText('I have read and agree to the').click();
    const orderId = await applyForLoan(page, { shots: true });
    assert.match(orderId, /^[0-9a-f-]{36}$/);
    await page.goto(`/detail/${orderId}`);
    await page.getByText('Under review').first().waitFor();
    await shot(page, 'detail-under-review');
    await context.close();
  });
});
