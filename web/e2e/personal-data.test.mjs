// Personal data (PRODUCT.md 12.6, issue 16 item 3), in Chromium against the real api:
// sign-up shows the privacy notice of the configuration and sends the version ticked;
// the My page says which version was accepted and when, and "Download my data" saves
// my-data-YYYY-MM-DD.json holding what the borrower entered; an auditor's export of
// the same borrower is recorded. Photographed at 390×844: register-privacy.png,
// my-data.png, my-data-fil.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { auditor, call, phone, serverAndBrowser, shot, smsCode } from './harness.mjs';
import { completeProfile, newMobile, PASSWORD } from './steps.mjs';

const fil = JSON.parse(readFileSync(new URL('../src/locales/fil.json', import.meta.url), 'utf8'));

let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

/** Nothing is wider than the phone (no sideways scrolling). */
async function fitsThePhone(page, name) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `${name}: ${wide}px wide`);
}

describe('personal data', () => {
  test('consent at sign-up, shown on My; my data downloaded; an auditor export recorded', async () => {
    const { context, page } = await phone(browser, server.url);
    const { privacyNoticeVersion: version } = await call(server, '/jackey/loan/getAllCompanyConfigs', {});
    assert.equal(version, '2026-11');

    // Sign-up: the notice opens from the form; the box names the version shown.
    const mobile = newMobile();
    await page.goto('/register?code=WELCOME&channel=e2e');
    await page.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(await smsCode(server, mobile));
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
    const signUp = page.getByRole('button', { name: 'Sign Up' });
    assert.equal(await signUp.isDisabled(), true, 'the notice is not accepted yet');
    await page.getByRole('button', { name: 'Read the privacy notice' }).click();
    await page.getByTestId('privacy-notice').getByText('Data Privacy Act').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('checkbox', { name: `I have read and accept the privacy notice (version ${version})` }).check();
    await fitsThePhone(page, 'register');
    await shot(page, 'register-privacy');
    await signUp.click();
    await page.waitForURL((url) => url.pathname === '/');
    await completeProfile(page, { realName: 'Lia Mercado' });

    // My: the consent line and the download.
    await page.goto('/my');
    const consent = page.getByTestId('privacy-consent');
    await consent.waitFor();
    assert.match(await consent.innerText(), new RegExp(`Privacy notice v${version} in English, accepted on .*\\d{4}`));
    await page.getByText('Download my data').scrollIntoViewIfNeeded();
    await fitsThePhone(page, 'my');
    await shot(page, 'my-data');
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByText('Download my data').click()]);
    assert.match(saved.suggestedFilename(), /^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile(await saved.path(), 'utf8'));
    assert.equal(data.user.mobile, mobile);
    assert.equal(data.user.realName, 'Lia Mercado');
    assert.equal(data.user.address, '1 Rizal Street, Manila');
    assert.equal(data.user.bankAccount.accountNo, '123456789012');
    assert.equal(data.user.privacyNotice.version, version);
    assert.equal(data.user.privacyNotice.language, 'en', 'read in English, the screen\'s language');
    assert.ok(data.user.idImages.front.url.startsWith('/files/'));

    // An auditor exports the same borrower: recorded with the auditor's name.
    const officer = await auditor(server, `privacy-${mobile.slice(-6)}`);
    const byAuditor = await officer.call('users/dataExport', { userId: data.user.userId });
    assert.equal(byAuditor.user.mobile, mobile);
    const records = await officer.call('users/exportLog', { userId: data.user.userId });
    assert.deepEqual(
      records.map((r) => (r.actor.startsWith('auditor:') ? r.actorName : 'borrower')),
      ['borrower', `privacy-${mobile.slice(-6)}`],
    );

    // The same page in Filipino.
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Filipino' }).click();
    await page.getByText(fil.data_export_download).waitFor();
    assert.match(await consent.innerText(), new RegExp(`Abiso sa privacy v${version} sa English, tinanggap noong`));
    await page.getByText(fil.data_export_download).scrollIntoViewIfNeeded();
    await fitsThePhone(page, 'my-fil');
    await shot(page, 'my-data-fil');
    await context.close();
  });
});
