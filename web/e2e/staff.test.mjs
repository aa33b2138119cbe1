// Staff roles in the browser (issue 55): with a second factor required, the first admin
// (made with `api create-auditor`, its authenticator printed once) creates a collector
// and a reviewer in the console; each opens their one-time link, enrolls an
// authenticator from the QR code's secret, sets a password and logs in to the sections
// of their role only; the audit trail shows every step with who did it, and exports as
// CSV. Screens are photographed into e2e/screenshots/admin/ at 1280×800.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createAuditor, launchBrowser, shot, startServer } from './harness.mjs';

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
    assert.deepEqual(await navLinks(admin.page), ['Staff', 'Audit trail']);

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
