// Due-date reminders in the inbox (PRODUCT.md 12.5, issue 16 item 2), in Chromium
// against the real api: a borrower draws a 12-day loan; the api restarts on the same
// database (its scheduler passes at start-up) and records the payout day's reminders
// (installment 1 due tomorrow, installment 3 in 3 days); it restarts again with its
// clock moved two days ahead (libfaketime, when installed) and records that day's
// (installment 1 overdue, 3 due tomorrow, 5 in 3 days) and makes up the missed day's
// (2 due tomorrow, 4 in 3 days: their windows are still open). The
// My page shows the unread count, the inbox lists the notices newest first, opening
// one marks it read, "Mark all as read" clears the count, and each reminder was texted
// once through the outbox. Photographed at 390×844 (inbox*.png, my-inbox.png).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, launchBrowser, phone, shot, sql, startApi } from './harness.mjs';
import { applyForLoan, approveByApi, completeProfile, eventually, register, sign, withdrawFromHome } from './steps.mjs';

/** libfaketime moves the api's wall clock (not its timers); without it the moved-clock step is skipped. */
const FAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find(
  existsSync,
);

/**
 * The api on `port` over the data in `dir`, its clock `days` ahead; the same port
 * each time, so the browser keeps its origin (and its session) across restarts.
 */
function startApiAt(dir, port, days = 0) {
  const clock = days ? { LD_PRELOAD: FAKETIME, FAKETIME: `+${days}d`, FAKETIME_DONT_FAKE_MONOTONIC: '1' } : {};
  return startApi(dir, port, clock);
}

let dir;
let port;
let server;
let browser;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loan-e2e-reminders-'));
  port = await freePort();
  server = await startApiAt(dir, port);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The (installment, kind) of each notice the server recorded, by the SQL read model. */
const notices = () =>
  sql(server, 'select period, kind from notice order by period, kind').map(([period, kind]) => `${period}:${kind}`);

describe('due-date reminders', () => {
  test('the inbox shows the reminders of a disbursed loan, once each, across restarts and a moved clock', async () => {
    const { context, page } = await phone(browser, server.url);
    const mobile = await register(page, server);
    await completeProfile(page, { realName: 'Rosa Reyes' });
    await sign(page);
    await page.getByText('I have read and agree to the').click();
    const orderId = await applyForLoan(page);
    await approveByApi(server, orderId, 'reminders');
    await withdrawFromHome(page, { amount: '10000' });

    // A restart: the scheduler's start-up pass records the payout day's reminders.
    await server.stop();
    server = await startApiAt(dir, port);
    const payoutDay = ['1:due_in_1_day', '3:due_in_3_days'];
    await eventually(() => assert.deepEqual(notices(), payoutDay), 20000);

    let expected = payoutDay;
    if (FAKETIME) {
      // Two days later: that day's reminders, and the missed day's made up (each
      // window lasts until the next kind's day, ReminderKind::window).
      await server.stop();
      server = await startApiAt(dir, port, 2);
      const dayTwo = ['1:overdue', '3:due_in_1_day', '5:due_in_3_days'];
      const madeUp = ['2:due_in_1_day', '4:due_in_3_days'];
      expected = [...payoutDay, ...dayTwo, ...madeUp].sort();
      await eventually(() => assert.deepEqual(notices(), expected), 20000);
    } else {
      console.log('libfaketime not installed: the moved-clock restart is skipped');
    }
    // Each reminder texted once, to the borrower's phone, with amount, date and how to pay.
    const texts = await eventually(() => {
      const rows = sql(server, "select mobile, body from sms_outbox where message_id like 'reminder:%'");
      assert.equal(rows.length, expected.length);
      return rows;
    }, 20000);
    for (const [to, body] of texts) {
      assert.equal(to, mobile);
      assert.match(body, /^Honest Lending Corporation: installment \d+ of PHP [\d,]+\.\d\d (is|was) due on \d+ \w+ \d{4}/);
      assert.match(body, /You can pay in the app under Repay\./);
    }

    // The My page shows the unread count; the inbox lists the notices newest first.
    await page.goto('/my');
    await page.getByTestId('inbox-badge').getByText(`${expected.length} unread`).waitFor();
    await shot(page, 'my-inbox');
    await page.getByText('Inbox', { exact: true }).click();
    await page.waitForURL('**/inbox');
    const items = page.getByTestId('notice');
    await eventually(async () => assert.equal(await items.count(), expected.length));
    await page.getByTestId('inbox-unread').getByText(`${expected.length} unread`).waitFor();
    const first = FAKETIME ? /Payment (overdue|reminder|due soon)/ : /Payment (reminder|due soon)/;
    assert.match(await items.first().innerText(), first);
    if (FAKETIME) await page.getByText('Payment overdue').waitFor();
    await page.getByText(/Installment 3: ₱[\d,]+\.\d\d is due on/).first().waitFor();
    await shot(page, 'inbox');

    // Opening a notice marks it read and shows its order.
    await items.first().click();
    await page.waitForURL(`**/detail/${orderId}`);
    await page.goBack();
    await page.waitForURL('**/inbox');
    await page.getByTestId('inbox-unread').getByText(`${expected.length - 1} unread`).waitFor();
    assert.equal(await items.first().getAttribute('data-unread'), 'false');

    // Mark all as read.
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByTestId('inbox-unread').getByText('0 unread').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Mark all as read' }).count(), 0);
    await shot(page, 'inbox-read');

    // In Chinese.
    await page.goto('/my');
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByText('消息').first().waitFor();
    await page.goto('/inbox');
    await page.getByText('消息').first().waitFor();
    await page.getByText('0 条未读').waitFor();
    await shot(page, 'inbox-zh');
    await context.close();
  });
});
