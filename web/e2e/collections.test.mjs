// Collections (issue 53) in Chromium against the real api, with the api's clock
// moved by libfaketime (skipped without it): Carl draws a loan, 164 days later Ben
// does, six days after him Ana; the api restarts at 22:30 Manila 181 days after
// Carl's payout, when Carl's loan is 180 days past due, Ben's 16 and Ana's 10. The console's collections queue lists
// both, most days past due first; a call logged at 22:30 on Ana's loan is refused by
// the fair-collection guard (50001) and kept in her record, the same call on Ben's is
// logged; Ben asks for a payment plan in the app, one officer proposes it, the
// same officer cannot approve it, a second does, and Ben signs it and owes exactly
// its total; Ana sees on her order how late it is and promises to pay, which her
// record then shows. Two officers charge Carl's loan off; a bank transfer an officer
// records afterwards shows as a recovery. Photographed at 390×844 (detail-late*.png,
// detail-plan*.png in en, zh, fil) and 1280×800 (admin/collections*.png,
// admin/collection-*.png in en and zh).
import { after, before, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditor, freePort, launchBrowser, phone, shot, startApi } from './harness.mjs';
import { applyForLoan, approveByApi, completeProfile, eventually, register, sign, withdrawFromHome } from './steps.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core');
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The WCAG 2.1 AA violations axe-core finds on the borrower's order page as
 * `borrower` sees it now, in a phone context that shares their session and lets
 * axe in (CSP bypassed): `id: targets` lines, empty when none.
 */
async function axeViolations(borrower, path, now) {
  const storageState = await borrower.context.storageState();
  const context = await browser.newContext({
    baseURL: server.url,
    bypassCSP: true,
    storageState,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.clock.setFixedTime(now);
  await page.goto(path);
  await page.getByTestId('plan-offer').waitFor();
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async (tags) => {
    const run = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return run.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, WCAG_AA);
  await context.close();
  return found;
}

const FAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find(
  existsSync,
);
const DAY = 86_400_000;
const OFFICER = 'collector-e2e';
const SECOND_OFFICER = 'collector-e2e-2';
const OFFICER_PASSWORD = 'auditor-password-1';

/** `YYYY-MM-DD HH:MM:SS` of `at` in UTC, as libfaketime's absolute start reads it with TZ=UTC. */
const fakeTime = (at) => at.toISOString().slice(0, 19).replace('T', ' ');

/** The api over `dir` on `port`, its clock starting at `at` (real time when null). */
function startApiAt(dir, port, at) {
  const clock = at ? { LD_PRELOAD: FAKETIME, FAKETIME: `@${fakeTime(at)}`, TZ: 'UTC', FAKETIME_DONT_FAKE_MONOTONIC: '1' } : {};
  return startApi(dir, port, clock);
}

let dir;
let port;
let server;
let browser;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loan-e2e-collections-'));
  port = await freePort();
  server = await startApiAt(dir, port, null);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A borrower named `name` with a disbursed loan of 10,000: their page and order id. */
async function borrowerWithLoan(name, prefix) {
  const { context, page } = await phone(browser, server.url);
  await register(page, server);
  await completeProfile(page, { realName: name });
  await sign(page);
  await page.getByText('I have read and agree to the').click();
  const orderId = await applyForLoan(page);
  await approveByApi(server, orderId, prefix);
  await withdrawFromHome(page, { amount: '10000' });
  return { context, page, orderId };
}

/** An officer's desktop browser, signed in. */
async function officer(username = OFFICER) {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  await page.goto('/admin');
  await page.waitForURL('**/admin/login**');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(OFFICER_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('admin-username').getByText(username).waitFor();
  return { context, page };
}

/** Logs a call with the borrower from the open collection record; answers the error shown, if any. */
async function logCall(page) {
  const form = page.getByTestId('contact-form');
  await form.getByRole('combobox', { name: 'Outcome' }).selectOption('no_answer');
  await form.getByRole('textbox', { name: 'Note' }).fill('rang twice');
  await form.getByRole('button', { name: 'Log contact' }).click();
  const error = form.getByTestId('admin-action-error');
  const done = form.getByText('Contact logged.');
  await error.or(done).waitFor();
  return (await error.isVisible()) ? error.innerText() : null;
}

/** Photographs the page in Chinese (`<name>-zh`) too, then goes back to English. */
async function shotBoth(page, name, ready) {
  await shot(page, name);
  await page.evaluate(() => localStorage.setItem('language', 'zh'));
  await page.reload();
  await ready();
  await shot(page, `${name}-zh`);
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.reload();
  await ready();
}

describe('collections', () => {
  test('late loans in the queue, the contact-hours rule at 22:30 Manila, a promise to pay', async (t) => {
    if (!FAKETIME) {
      t.skip('libfaketime not installed: the moved clock is needed');
      return;
    }
    // The loans' days are Manila days: every payout happens at 02:00 UTC (10:00
    // Manila), so the days past due below hold whatever the hour the test runs.
    const start = Math.floor(Date.now() / DAY) * DAY + 2 * 3_600_000;
    await server.stop();
    server = await startApiAt(dir, port, new Date(start));
    const carl = await borrowerWithLoan('Carl Bautista', 'col-c');
    await carl.context.close();

    // 164 days later Ben draws his, six days after him Ana.
    await server.stop();
    server = await startApiAt(dir, port, new Date(start + 164 * DAY));
    // Ben keeps his phone: he asks for a payment plan later.
    const ben = await borrowerWithLoan('Ben Santos', 'col-b');
    await server.stop();
    server = await startApiAt(dir, port, new Date(start + 170 * DAY));
    const ana = await borrowerWithLoan('Ana Reyes', 'col-a');

    // 181 days after Carl's payout, 14:30 UTC = 22:30 in Manila: Carl 180 days past
    // due (installment 1 was due the day after his payout), Ben 16, Ana 10.
    const payoutDay = new Date(start).toISOString().slice(0, 10);
    const now = new Date(Date.parse(`${payoutDay}T14:30:00Z`) + 181 * DAY);
    await server.stop();
    server = await startApiAt(dir, port, now);
    createAuditor(server, OFFICER, OFFICER_PASSWORD);
    createAuditor(server, SECOND_OFFICER, OFFICER_PASSWORD);

    const { context, page } = await officer();
    await page.getByRole('link', { name: 'Collections', exact: true }).click();
    const rows = page.getByTestId('collection-row');
    // The scheduler's start-up pass moved the loans to their buckets.
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      assert.equal(await rows.count(), 3);
    }, 20000);
    assert.match(await rows.nth(0).innerText(), /Carl Bautista[\s\S]*\b180\b[\s\S]*91-180/);
    assert.match(await rows.nth(1).innerText(), /Ben Santos[\s\S]*\b16\b[\s\S]*1-30/);
    assert.match(await rows.nth(2).innerText(), /Ana Reyes[\s\S]*\b10\b[\s\S]*1-30/);
    // The book by bucket agrees with the ledger's receivable.
    const book = page.getByTestId('book');
    await eventually(async () =>
      assert.equal(await book.getByTestId('book-outstanding').innerText(), await book.getByTestId('book-receivable').innerText()),
    );
    await shotBoth(page, 'admin/collections', () => rows.nth(2).waitFor());

    // 22:30 on Ana's loan (10 days late): refused, and the refusal is in her record.
    await rows.filter({ hasText: 'Ana Reyes' }).getByRole('link').click();
    await page.getByTestId('record-dpd').getByText('10').waitFor();
    const refused = await logCall(page);
    assert.match(refused ?? '', /Not allowed at this hour/);
    await page.getByTestId('record-entry').filter({ hasText: 'Refused: Call outside the contact hours' }).waitFor();
    // The person list offers only the borrower: no guarantor was named (P15).
    const persons = await page.getByRole('combobox', { name: 'Who' }).locator('option').allInnerTexts();
    assert.deepEqual(persons, ['Borrower']);
    await shotBoth(page, 'admin/collection-refused', () => page.getByTestId('record-entry').first().waitFor());

    // The same call on Ben's loan (16 days late) is logged.
    await page.getByRole('link', { name: 'Back to collections' }).click();
    await rows.filter({ hasText: 'Ben Santos' }).getByRole('link').click();
    await page.getByTestId('record-dpd').getByText('16').waitFor();
    assert.equal(await logCall(page), null);
    await page.getByTestId('record-entry').filter({ hasText: 'Call with Borrower: No answer' }).waitFor();
    await shot(page, 'admin/collection-logged');

    // Ben, on his phone, asks for a payment plan; nothing is asked of him to do so.
    await ben.page.clock.setFixedTime(now);
    await ben.page.goto(`/detail/${ben.orderId}`);
    const planPanel = ben.page.getByTestId('payment-plan');
    await planPanel.getByRole('textbox', { name: 'Why the payments are hard right now' }).fill('I lost my job last month');
    await planPanel.getByRole('button', { name: 'Ask for a payment plan' }).click();
    await planPanel.getByText('You asked for a payment plan.').waitFor();

    // One officer proposes four weekly installments from a week after today ...
    const firstDue = new Date(now.getTime() + 7 * DAY).toISOString().slice(0, 10);
    await page.reload();
    const planSection = page.getByTestId('plan-section');
    await planSection.getByTestId('plan-requested').waitFor();
    const planForm = planSection.getByTestId('plan-form');
    await planForm.getByRole('textbox', { name: 'First due on' }).fill(firstDue);
    await planForm.getByRole('textbox', { name: 'Reason' }).fill('job loss; can pay weekly');
    await planForm.getByRole('button', { name: 'Propose the plan' }).click();
    await planSection.getByTestId('plan-proposed').getByText('Proposed: another officer must approve it.').waitFor();
    // ... cannot approve it themself (four eyes) ...
    await planSection.getByRole('button', { name: 'Approve the plan' }).click();
    await planSection.getByTestId('admin-action-error').getByText(/Another staff member must approve/).waitFor();
    await shotBoth(page, 'admin/collection-plan', () => planSection.getByTestId('plan-proposed').waitFor());
    // ... and a second officer approves it.
    const second = await officer(SECOND_OFFICER);
    await second.page.getByRole('link', { name: 'Collections', exact: true }).click();
    await second.page.getByTestId('collection-row').filter({ hasText: 'Ben Santos' }).getByRole('link').click();
    await second.page.getByRole('button', { name: 'Approve the plan' }).click();
    await second.page.getByText("Approved: waiting for the borrower's signature.").waitFor();

    // Ben sees the plan, its days and its total, and signs it; he then owes exactly it.
    await ben.page.reload();
    const offer = ben.page.getByTestId('plan-offer');
    await offer.waitFor();
    assert.equal(await offer.getByRole('listitem').count(), 4);
    const planTotal = (await offer.getByText(/You will owe in all/).innerText()).match(/₱[\d,]+\.\d\d/)[0];
    for (const language of ['zh', 'fil', 'en']) {
      await ben.page.evaluate((l) => localStorage.setItem('language', l), language);
      await ben.page.reload();
      await offer.scrollIntoViewIfNeeded();
      await shot(ben.page, language === 'en' ? 'detail-plan' : `detail-plan-${language}`);
    }
    // The plan as offered meets WCAG 2.1 AA (axe-core).
    assert.deepEqual(await axeViolations(ben, `/detail/${ben.orderId}`, now), []);
    await offer.getByRole('button', { name: 'Sign the payment plan' }).click();
    await ben.page.getByText('Done: your new payments are set.').waitFor();
    await eventually(async () => assert.equal(await ben.page.getByTestId('order-balance').innerText(), planTotal));
    await ben.context.close();

    // Ana, on her phone (its clock at the api's day), sees how late her loan is and
    // promises to pay; nothing is asked of her to do so.
    await ana.page.clock.setFixedTime(now);
    await ana.page.goto(`/detail/${ana.orderId}`);
    const panel = ana.page.getByTestId('late-panel');
    await panel.getByText('Your loan is 10 days late').waitFor();
    await panel.getByRole('button', { name: 'Promise to pay' }).click();
    await ana.page.getByText('Thank you: your promise is recorded.').waitFor();
    for (const language of ['en', 'zh', 'fil']) {
      await ana.page.evaluate((l) => localStorage.setItem('language', l), language);
      await ana.page.reload();
      await panel.waitFor();
      await panel.scrollIntoViewIfNeeded();
      await shot(ana.page, language === 'en' ? 'detail-late' : `detail-late-${language}`);
    }
    await ana.page.evaluate(() => localStorage.setItem('language', 'en'));
    await ana.page.reload();
    // More time: the cost shown before signing, nothing paid; then the order owes
    // exactly the total shown.
    const more = ana.page.getByTestId('more-time');
    await more.getByRole('button', { name: '7 more days' }).click();
    const quote = more.getByTestId('extension-quote');
    await quote.getByText(/Interest for the 7 extra days: ₱[\d,]+\.\d\d/).waitFor();
    const total = (await quote.getByText(/You will owe in all/).innerText()).match(/₱[\d,]+\.\d\d/)[0];
    await shot(ana.page, 'detail-extension');
    await quote.getByRole('button', { name: 'Sign and take more time' }).click();
    await ana.page.getByText('Done: your payments are moved.').waitFor();
    await eventually(async () => assert.equal(await ana.page.getByTestId('order-balance').innerText(), total));
    await ana.context.close();

    // The officer sees the promise in Ana's record and in the queue.
    await page.getByRole('link', { name: 'Collections', exact: true }).click();
    await rows.filter({ hasText: 'Ana Reyes' }).getByRole('link').click();
    await page.getByTestId('record-entry').filter({ hasText: / by \d{4}-\d\d-\d\d/ }).waitFor();

    // Carl's loan, 180 days past due: one officer proposes the charge-off, a second
    // confirms it (four eyes).
    const chargeOff = async (officerPage, expected) => {
      await officerPage.getByRole('link', { name: 'Collections', exact: true }).click();
      await officerPage.getByTestId('collection-row').filter({ hasText: 'Carl Bautista' }).getByRole('link').click();
      const form = officerPage.getByTestId('chargeoff-form');
      await form.getByRole('textbox', { name: 'Reason' }).fill('no payment in six months');
      await form.getByRole('button', { name: 'Charge off' }).click();
      await form.getByText(expected).waitFor();
    };
    await chargeOff(page, 'Proposed: another officer must confirm it.');
    await chargeOff(second.page, 'Done.');
    await second.page.getByTestId('record-charged-off').getByText('Yes').waitFor();
    await second.page.getByTestId('record-entry').filter({ hasText: 'Charged off:' }).waitFor();

    // A bank transfer recorded afterwards is a recovery: the loan is still owed.
    await second.page.getByRole('link', { name: 'Open the order' }).click();
    await second.page.getByRole('textbox', { name: 'Amount received' }).fill('1000');
    await second.page.getByRole('textbox', { name: 'Payment reference' }).fill('BT-2026-0001');
    await second.page.getByRole('button', { name: 'Record repayment' }).click();
    await second.page.getByText('Repayment of ₱1,000.00 recorded.').waitFor();
    await second.page.goBack();
    await second.page.reload();
    await second.page.getByTestId('record-entry').filter({ hasText: 'Recovery: ₱1,000.00' }).waitFor();
    await shotBoth(second.page, 'admin/collection-charged-off', () => second.page.getByTestId('record-entry').first().waitFor());
    await second.context.close();
    await context.close();
  });
});
