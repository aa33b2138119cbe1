// Erasing a borrower's personal data from the console (PRODUCT.md 12.6, ADR 0012), in
// Chromium against the real api. The api runs with `retention_years: 0`, so a borrower
// who never borrowed may be erased at once (the 5-year rule and its refusals are the
// api's tests). The officer asks, confirms, and the borrower page then reads
// "[erased]", says who erased it and when, and offers no further action; the
// borrower's session is over. Photographed: admin/user-erased.png (1280×800) and
// admin/user-erased-phone.png (390×844).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createAuditor, freePort, launchBrowser, phone, repo, shot, startApi } from './harness.mjs';
import { completeProfile, register } from './steps.mjs';

const PASSWORD = 'officer-password-1';
let server;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loan-e2e-erasure-'));
  const demo = JSON.parse(readFileSync(join(repo, 'api/config/demo.json'), 'utf8'));
  const config = { ...demo, retention_years: 0 };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  server = await startApi(dir, await freePort(), { CONFIG_FILE: join(dir, 'config.json') });
  browser = await launchBrowser();
  createAuditor(server, 'erin', PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('erasure', () => {
  test('an officer erases a borrower after the retention period; the page reads erased', async () => {
    // A borrower with a profile (name, ID number, address).
    const { context: phoneContext, page: borrower } = await phone(browser, server.url);
    const mobile = await register(borrower, server);
    await completeProfile(borrower, { realName: 'Erna Borrada' });
    const token = await borrower.evaluate(() => localStorage.getItem('token'));
    const { userId } = await call(server, '/jackey/user/info', {}, { authorization: `Bearer ${token}` });

    // The officer, on the borrower page.
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15000);
    const page = await context.newPage();
    await page.goto('/admin');
    await page.waitForURL('**/admin/login**');
    await page.getByRole('textbox', { name: 'Username' }).fill('erin');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('admin-username').getByText('erin').waitFor();
    await page.goto(`/admin/users/${userId}`);
    await page.getByText('Erna Borrada').first().waitFor();

    // Asked first; cancelling sends nothing.
    const erase = page.getByRole('button', { name: 'Erase personal data' });
    await erase.click();
    const dialog = page.getByRole('alertdialog', { name: 'Erase personal data' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.getByTestId('admin-erased').count(), 0);

    // Confirmed: erased.
    await erase.click();
    await dialog.getByRole('button', { name: 'Erase personal data' }).click();
    await page.getByTestId('admin-erased').waitFor();
    await page.getByText('[erased]').first().waitFor();
    assert.equal(await page.getByText('Erna Borrada').count(), 0, 'the name is gone');
    for (const action of ['Set hold', 'Lift hold', 'Erase personal data']) {
      assert.equal(await page.getByRole('button', { name: action, exact: true }).count(), 0, `${action} is offered`);
    }
    await shot(page, 'admin/user-erased');
    await page.setViewportSize({ width: 390, height: 844 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `${wide}px wide`);
    await shot(page, 'admin/user-erased-phone');

    // The borrower's session ended and the number no longer signs in.
    const info = await fetch(`${server.url}/jackey/user/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    }).then((res) => res.json());
    assert.notEqual(info.code, 0, JSON.stringify(info));
    const login = await fetch(`${server.url}/jackey/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile, password: 'correct-horse-1' }),
    }).then((res) => res.json());
    assert.notEqual(login.code, 0, JSON.stringify(login));
    await context.close();
    await phoneContext.close();
  });
});
