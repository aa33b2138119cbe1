// Recovery and credentials in the browser (PRODUCT.md 12.3): a wrong password says
// what wrong passwords do and how to unlock, nothing about the account (12.2); forgot password with the phone's code signs every
// device out and the new password signs in; the withdraw PIN is changed from the
// My page with the phone's code; the signed-in devices list shows this one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { phone, serverAndBrowser, shot, smsCode, sql } from './harness.mjs';
import { PASSWORD, register } from './steps.mjs';

const NEW_PASSWORD = 'battery-staple-2';
let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

async function signIn(page, mobile, password) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('recovery and credentials', () => {
  test('forgot password: the code from the phone sets a new one and signs the old session out', async () => {
    const first = await phone(browser, server.url);
    const mobile = await register(first.page, server);

    // A second device: a wrong password reads as for a phone without an account, and
    // says what wrong passwords do and how a lock is lifted.
    const second = await phone(browser, server.url);
    const page = second.page;
    await signIn(page, mobile, 'not-my-password');
    const error = page.getByTestId('form-error');
    await error.getByText('Five wrong passwords in a row lock the account').waitFor();
    assert.doesNotMatch(await error.innerText(), /attempts left/);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgotPassword');
    // The screen loads on demand: fill its fields, not the login screen's leaving ones.
    await page.getByRole('button', { name: 'Set new password' }).waitFor();
    await page.getByRole('textbox', { name: 'Phone number' }).fill(mobile);
    await page.getByRole('button', { name: 'Send code' }).click();
    // Read the outbox once the server said it sent the code, not the previous text.
    await page.getByText('Code sent').waitFor();
    const code = await smsCode(server, mobile);
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.locator('input[aria-label="New password"]').fill(NEW_PASSWORD);
    await page.locator('input[aria-label="Confirm password"]').fill(NEW_PASSWORD);
    await shot(page, 'forgot-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/login');

    // The old password no longer works; the new one does.
    await signIn(page, mobile, PASSWORD);
    await page.getByTestId('form-error').waitFor();
    await signIn(page, mobile, NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');

    // The first device was signed out by the reset.
    await first.page.goto('/my');
    await first.page.waitForURL('**/login**');

    // Signed-in devices: this one only.
    await page.goto('/my');
    await page.getByText('Signed-in devices').click();
    await page.waitForURL('**/sessions');
    await page.getByTestId('sessions').getByText('This device').waitFor();
    assert.equal(await page.getByTestId('sessions').getByRole('button', { name: 'Sign out' }).count(), 0);
    await shot(page, 'sessions');

    // The withdraw PIN, set and then changed with the phone's code.
    for (const pin of ['246810', '135790']) {
      await page.goto('/my');
      await page.getByText('Withdraw PIN', { exact: true }).click();
      await page.waitForURL('**/withdrawPin');
      await page.getByRole('button', { name: 'Save PIN' }).waitFor();
      await page.locator('input[aria-label="New PIN"]').fill(pin);
      await page.locator('input[aria-label="Confirm PIN"]').fill(pin);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText('Code sent').waitFor();
      const pinCode = await smsCode(server, mobile);
      await page.getByRole('textbox', { name: 'SMS code' }).fill(pinCode);
      if (pin === '135790') await shot(page, 'withdraw-pin');
      await page.getByRole('button', { name: 'Save PIN' }).click();
      await page.waitForURL('**/my');
      if (pin === '246810') {
        // One code per 60 s per phone and purpose: age the first instead of sleeping.
        sql(server, "update sms_throttle set last_sent_at = '2000-01-01T00:00:00.000000Z' where mobile = ?", [mobile]);
      }
    }
    await page.goto('/withdrawPin');
    await page.getByText('Choose a new 6-digit withdraw PIN').waitFor();

    // The same screens in Chinese, photographed.
    await page.goto('/my');
    await page.getByRole('button', { name: '中文' }).click();
    // The choice is remembered once the Chinese strings have loaded (html lang="zh").
    await page.locator('html[lang="zh"]').waitFor({ state: 'attached' });
    for (const [route, name, ready] of [
      ['/sessions', 'sessions-zh', '本设备'],
      ['/withdrawPin', 'withdraw-pin-zh', '保存提现密码'],
      ['/changePassword', 'change-password-zh', '当前密码'],
    ]) {
      await page.goto(route);
      await page.getByText(ready).first().waitFor();
      await shot(page, name);
    }
    await page.goto('/my');
    await page.getByRole('button', { name: 'English' }).click();
    const signedOut = await phone(browser, server.url);
    await signedOut.page.goto('/login');
    await signedOut.page.getByRole('button', { name: '中文' }).click();
    await signedOut.page.getByRole('link', { name: '忘记密码？' }).click();
    await signedOut.page.getByRole('button', { name: '设置新密码' }).waitFor();
    await shot(signedOut.page, 'forgot-password-zh');
    await signedOut.context.close();
    for (const who of [first, second]) await who.context.close();
  });

  test('a locked account: the right password leads to the lock screen, and the phone\'s code unlocks it (issue 52)', async () => {
    const owner = await phone(browser, server.url);
    const mobile = await register(owner.page, server);
    await owner.context.close();
    const { context, page } = await phone(browser, server.url);
    // Pasted in the international form, the number reads as the local one.
    await page.goto('/login');
    const field = page.getByRole('textbox', { name: 'Phone number' });
    await field.fill(`+63 ${mobile.slice(1, 4)} ${mobile.slice(4, 7)} ${mobile.slice(7)}`);
    assert.equal(await field.inputValue(), mobile);
    for (let i = 0; i < 5; i += 1) {
      await signIn(page, mobile, 'not-my-password');
      await page.getByTestId('form-error').waitFor();
    }
    // Locked: a wrong password still reads as any wrong password does ...
    await signIn(page, mobile, 'still-not-it');
    await page.getByTestId('form-error').getByText('Five wrong passwords in a row lock the account').waitFor();
    // ... and the right one is told of the lock, on the lock screen, with the phone filled in.
    await signIn(page, mobile, PASSWORD);
    await page.waitForURL('**/lock');
    await page.getByText('Locked for your security').first().waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Phone number' }).inputValue(), mobile);
    await shot(page, 'lock-from-login');
    for (const language of ['zh', 'fil']) {
      await page.evaluate((l) => localStorage.setItem('language', l), language);
      await page.reload();
      await page.locator('.adm-result').waitFor();
      await shot(page, `lock-from-login-${language}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    assert.equal(await page.getByRole('textbox', { name: 'Phone number' }).inputValue(), mobile);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('Code sent').waitFor();
    const code = await smsCode(server, mobile);
    // A wrong code says how many tries are left.
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code === '000000' ? '000001' : '000000');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByText(/Wrong code: \d attempts left\./).waitFor();
    await page.getByRole('textbox', { name: 'SMS code' }).fill(code);
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.waitForURL('**/login');
    await signIn(page, mobile, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
