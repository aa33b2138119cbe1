// Staff roles in the browser (issue 55): with a second factor required, the first admin
// (made with `api create-auditor`, its authenticator printed once) creates a collector
// and a reviewer in the console; each opens their one-time link, enrolls an
// authenticator from the QR code's secret, sets a password and logs in to the sections
// of their role only; the audit trail shows every step with who did it, and exports as
// CSV. Then products as data: a rate change proposed by one admin is refused to her own
// approval and approved by a second; a new application is priced at the new rate while
// the loan applied for before keeps its own, and the trail names who did each step.
// Screens are photographed into e2e/screenshots/admin/ at 1280×800.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createAuditor, launchBrowser, phone, shot, sql, startServer } from './harness.mjs';
import { applyForLoan, completeProfile, eventually, register, sign } from './steps.mjs';

const PASSWORD = 'staff-password-1';
let server;
let browser;
let adaSecret;

/** RFC 4648 base32 to bytes. */
function base32(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code (HMAC-SHA1, 6 digits, 30 s) of `secret` for the step `offset` steps from now. */
function totp(secret, offset = 0) {
  const step = Math.floor(Date.now() / 1000 / 30) + offset;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const at = mac[mac.length - 1] & 15;
  const value = (mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

before(async () => {
  server = await startServer({ STAFF_SECOND_FACTOR: 'required' });
  browser = await launchBrowser();
  const printed = createAuditor(server, 'ada', PASSWORD, 'admin');
  adaSecret = /secret=([A-Z2-7]+)/.exec(printed)?.[1];
  assert.ok(adaSecret, `create-auditor printed the otpauth URI: ${printed}`);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function desktop() {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  return { context, page };
}

/** Logs in through `/admin/login` with the password and the authenticator's code (`offset` steps ahead). */
async function logIn(page, username, secret, offset = 0) {
  await page.goto('/admin/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(totp(secret, offset));
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('admin-username').getByText(username).waitFor();
}

const navLinks = async (page) =>
  (await page.getByRole('navigation', { name: /console/i }).getByRole('link').allTextContents()).map((s) => s.trim());

/** Creates `username` with `role` on the staff screen; returns the one-time link shown. */
async function createStaff(page, username, role) {
  const form = page.getByTestId('staff-create');
  await form.getByRole('textbox', { name: 'Username' }).fill(username);
  await form.getByRole('checkbox', { name: role }).check();
  await form.getByRole('button', { name: 'Create account' }).click();
  const url = await page.getByTestId('staff-setup-url').inputValue();
  assert.match(url, /\/admin\/setup#[0-9a-f]{64}$/);
  return url;
}

/** Opens a setup link in a fresh browser, enrolls the authenticator, sets the password; returns the secret. */
async function openLink(url, name) {
  const { context, page } = await desktop();
  await page.goto(url);
  await page.getByTestId('setup-qr').waitFor();
  const secret = (await page.getByTestId('setup-secret').textContent()).replace(/\s+/g, '');
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the new password').fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(totp(secret));
  if (name) await shot(page, name);
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await page.waitForURL('**/admin/login**');
  await page.getByText('is ready').waitFor();
  await context.close();
  return secret;
}

describe('staff roles: an admin makes a collector and a reviewer, each sees their job only', () => {
  test('accounts, links, second factor, sections by role, the audit trail and its export', async () => {
    const admin = await desktop();
    await logIn(admin.page, 'ada', adaSecret);
    // An admin is sent to the staff screen: no queue, no loans, no borrowers.
    await admin.page.waitForURL('**/admin/staff');
    assert.deepEqual(await navLinks(admin.page), ['Staff', 'Audit trail', 'Products', 'Lender settings']);

    const carlLink = await createStaff(admin.page, 'carl', 'Collector');
    await shot(admin.page, 'admin/staff-link');
    await admin.page.getByRole('button', { name: 'Done, hide the link' }).click();
    const rheaLink = await createStaff(admin.page, 'rhea', 'Reviewer');
    await admin.page.getByRole('button', { name: 'Done, hide the link' }).click();

    const carlSecret = await openLink(carlLink, 'admin/setup');
    const rheaSecret = await openLink(rheaLink);
    // A used link is dead.
    const again = await desktop();
    await again.page.goto(carlLink);
    await again.page.getByTestId('setup-dead').waitFor();
    await again.context.close();

    // The code that enrolled was taken: the next step's code opens the session.
    const carl = await desktop();
    await logIn(carl.page, 'carl', carlSecret, 1);
    await carl.page.waitForURL('**/admin/collections**');
    assert.deepEqual(await navLinks(carl.page), ['Collections']);
    await shot(carl.page, 'admin/collector-home');
    // The staff screen by address: the server refuses, and says so.
    await carl.page.goto('/admin/staff');
    await carl.page.getByText(/role does not allow|not permitted/i).first().waitFor();
    await carl.context.close();

    const rhea = await desktop();
    await logIn(rhea.page, 'rhea', rheaSecret, 1);
    assert.deepEqual(await navLinks(rhea.page), ['Queue']);
    await rhea.context.close();

    await admin.page.reload();
    const rows = admin.page.getByTestId('staff-row');
    await rows.filter({ hasText: 'carl' }).getByText('Collector').waitFor();
    await shot(admin.page, 'admin/staff');

    // The audit trail: every step with who did it.
    await admin.page.getByRole('link', { name: 'Audit trail' }).click();
    await admin.page.getByTestId('audit-row').first().waitFor();
    const trail = (await admin.page.getByTestId('audit-row').allTextContents()).join('\n');
    for (const call of ['/admin/api/staff/create', '/admin/api/login', '/admin/api/staff/list']) {
      assert.ok(trail.includes(call), `${call} in the trail:\n${trail}`);
    }
    await shot(admin.page, 'admin/audit');
    await admin.page.getByRole('textbox', { name: 'Staff username' }).fill('carl');
    await admin.page.getByRole('button', { name: 'Filter' }).click();
    await admin.page.waitForURL('**username=carl**');
    await admin.page.getByTestId('audit-row').filter({ hasText: '/admin/api/collections/queue' }).first().waitFor();
    const refused = admin.page.getByTestId('audit-row').filter({ hasText: '/admin/api/staff/list' });
    await refused.first().getByText('50005').waitFor();
    const download = admin.page.waitForEvent('download');
    await admin.page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(csv).toString('utf8');
    assert.match(text, /^at,username,staff_id,client_ip,call,order_id,user_id,other,code\r\n/);
    assert.ok(text.includes('carl'), text.slice(0, 400));
    assert.ok(!text.includes(',ada,'), 'the export keeps the filter');

    // The same screens in Chinese.
    for (const language of ['zh', 'en']) {
      await admin.page.evaluate((l) => localStorage.setItem('language', l), language);
      await admin.page.reload();
      await admin.page.getByTestId('audit-row').first().waitFor();
      if (language === 'zh') await shot(admin.page, 'admin/audit-zh');
    }
    await admin.context.close();
  });
});

/** A borrower on a phone who applies for 100,000 over 12 days; returns the order id. */
async function borrowerApplies(realName, disclosed) {
  const { context, page } = await phone(browser, server.url);
  await register(page, server);
  await completeProfile(page, { realName });
  await sign(page);
  await page.getByText('I have read and agree to the').click();
  const orderId = await applyForLoan(page, { disclosed });
  await context.close();
  return orderId;
}

/** The daily rate and product version the order `orderId` was signed under (its LoanApplied event). */
function signedTerms(orderId) {
  const [[payload]] = sql(server, "select payload from events where aggregate_type = 'Order' and aggregate_id = ? and sequence = 1", [orderId]);
  const terms = JSON.parse(payload).LoanApplied.terms;
  return { rate: terms.daily_rate, version: terms.product_version ?? 0 };
}

describe('products as data: maker-checker on a rate change', () => {
  test('one admin proposes, her own approval is refused, a second approves; new applications get the new rate, signed loans keep theirs', async () => {
    // A loan applied for under the configuration's 0.15 %/day over 12 days: ₱1,800.00 interest.
    const before = await borrowerApplies('Ana Reyes', '₱1,800.00');

    // A second admin made on the command line, as the first was; and one ada makes in
    // the console, whose setup link she held.
    const beaSecret = /secret=([A-Z2-7]+)/.exec(createAuditor(server, 'bea', PASSWORD, 'admin'))?.[1];
    assert.ok(beaSecret, 'create-auditor printed the otpauth URI');
    const ada = await desktop();
    await logIn(ada.page, 'ada', adaSecret, 1);
    await ada.page.getByRole('link', { name: 'Staff' }).click();
    const coraLink = await createStaff(ada.page, 'cora', 'Admin');
    await ada.page.getByRole('button', { name: 'Done, hide the link' }).click();
    const coraSecret = await openLink(coraLink);

    await ada.page.getByRole('link', { name: 'Products' }).click();
    const cash = ada.page.getByTestId('product-line').filter({ hasText: 'Cash Loan' }).first();
    const form = cash.getByTestId('product-propose');
    // Above the PH cap (0.2 %/day): refused at once, naming the cap.
    await form.getByLabel('Daily rate (% per day), 12 days').fill('0.3');
    await form.getByLabel('Reason').fill('try a higher rate');
    await form.getByRole('button', { name: 'Propose change' }).click();
    await ada.page.getByTestId('admin-action-error').getByText(/cap/i).first().waitFor();
    await form.getByLabel('Daily rate (% per day), 12 days').fill('0.1');
    await form.getByLabel('Reason').fill('lower the 12-day rate for the holidays');
    await form.getByRole('button', { name: 'Propose change' }).click();
    const pending = cash.getByTestId('product-proposal').filter({ hasText: 'Pending' });
    await pending.waitFor();
    // Her own approval: refused, and the screen says why.
    await pending.getByRole('button', { name: 'Approve the proposal by ada' }).click();
    await ada.page.getByTestId('admin-action-error').getByText(/another staff member must approve/i).waitFor();
    await shot(ada.page, 'admin/products-own-approval');

    // An admin ada set up is no second pair of eyes on her proposal.
    const cora = await desktop();
    await logIn(cora.page, 'cora', coraSecret, 1);
    await cora.page.getByRole('link', { name: 'Products' }).click();
    const coraCash = cora.page.getByTestId('product-line').filter({ hasText: 'Cash Loan' }).first();
    await coraCash.getByRole('button', { name: 'Approve the proposal by ada' }).click();
    await cora.page.getByTestId('admin-action-error').getByText(/set up by the one who proposed it/i).waitFor();
    await shot(cora.page, 'admin/products-makers-account');
    await cora.context.close();

    const bea = await desktop();
    await logIn(bea.page, 'bea', beaSecret);
    await bea.page.getByRole('link', { name: 'Products' }).click();
    const beaCash = bea.page.getByTestId('product-line').filter({ hasText: 'Cash Loan' }).first();
    await beaCash.getByRole('button', { name: 'Approve the proposal by ada' }).click();
    await beaCash.getByTestId('product-proposal').filter({ hasText: 'Approved' }).getByText('bea').waitFor();
    await beaCash.getByTestId('product-rate').filter({ hasText: '12' }).getByText('0.1').first().waitFor();
    await shot(bea.page, 'admin/products');
    for (const language of ['zh', 'en']) {
      await bea.page.evaluate((l) => localStorage.setItem('language', l), language);
      await bea.page.reload();
      await bea.page.getByTestId('product-line').first().waitFor();
      if (language === 'zh') await shot(bea.page, 'admin/products-zh');
    }

    // Without a restart: a new application is priced at 0.1 %/day (₱1,200.00), the one before keeps 0.15.
    const after = await borrowerApplies('Ben Cruz', '₱1,200.00');
    assert.deepEqual(signedTerms(after), { rate: 100, version: 1 });
    assert.deepEqual(signedTerms(before), { rate: 150, version: 0 });

    // The trail names each step and who took it.
    await bea.page.getByRole('link', { name: 'Audit trail' }).click();
    const trailOf = async (username) => {
      await bea.page.getByRole('textbox', { name: 'Staff username' }).fill(username);
      await bea.page.getByRole('button', { name: 'Filter' }).click();
      await bea.page.waitForURL(`**username=${username}**`);
      // The rows of the filter, once they replaced the page's earlier ones.
      const rows = await eventually(async () => {
        const shown = await bea.page.getByTestId('audit-row').allTextContents();
        assert.ok(shown.length > 0 && shown.every((row) => row.includes(username)), shown.join('\n'));
        assert.ok(shown.some((row) => row.includes('/admin/api/products/approve')), shown.join('\n'));
        return shown;
      });
      return rows.filter((row) => row.includes('/admin/api/products/'));
    };
    const adaSteps = await trailOf('ada');
    // `code` 0: answered without a refusal code.
    const has = (rows, call, code) =>
      rows.some((row) => row.includes(call) && row.includes('product 1') && (code === '0' ? !/\b(5000\d|1000\d|4000\d)\b/.test(row) : row.includes(code)));
    assert.ok(has(adaSteps, '/admin/api/products/propose', '50007'), adaSteps.join('\n'));
    assert.ok(has(adaSteps, '/admin/api/products/propose', '0'), adaSteps.join('\n'));
    assert.ok(has(adaSteps, '/admin/api/products/approve', '50006'), adaSteps.join('\n'));
    const beaSteps = await trailOf('bea');
    assert.ok(has(beaSteps, '/admin/api/products/approve', '0'), beaSteps.join('\n'));
    assert.ok(!has(beaSteps, '/admin/api/products/approve', '50006'), beaSteps.join('\n'));
    await shot(bea.page, 'admin/audit-products');
    await ada.context.close();
    await bea.context.close();
  });
});
