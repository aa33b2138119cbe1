// The whole journey in the browser, borrower and loan officers together (issue 6):
// three browser contexts — one borrower on a phone, two auditors at 1280×800 — and
// no call that bypasses the UI. Auditor accounts come from `api create-auditor`,
// the product's only way to create them. Console screens are photographed into
// e2e/screenshots/admin/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuditor, launchBrowser, makeJpeg, phone, shot, startServer } from './harness.mjs';
import { applyForLoan, completeProfile, eventually, register, repay, sign, withdrawFromHome } from './steps.mjs';

const AUDITOR_PASSWORD = 'officer-password-1';
let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  createAuditor(server, 'alice', AUDITOR_PASSWORD);
  createAuditor(server, 'bob', AUDITOR_PASSWORD);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** An auditor's desktop browser, signed in through `/admin/login`. */
async function officer(username, { photo = false } = {}) {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  await page.goto('/admin');
  await page.waitForURL('**/admin/login**');
  if (photo) await shot(page, 'admin/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(AUDITOR_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('admin-username').getByText(username).waitFor();
  return { context, page };
}

/** Opens the order of the applicant named `name` from the queue. */
async function openFromQueue(page, name, { photo = false } = {}) {
  await page.getByRole('link', { name: 'Queue' }).click();
  const row = page.getByTestId('queue-row').filter({ hasText: name }).first();
  await row.waitFor();
  if (photo) await shot(page, 'admin/queue');
  await row.click();
  await page.waitForURL(/\/admin\/orders\/[0-9a-f-]{36}$/);
}

/** Photographs the page as it reads in Chinese (`<name>-zh`), then goes back to English. */
async function shotZh(page, name, ready) {
  for (const language of ['zh', 'en']) {
    await page.evaluate((l) => localStorage.setItem('language', l), language);
    await page.reload();
    await ready();
    if (language === 'zh') {
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
      await shot(page, `${name}-zh`);
    }
  }
}

/** Runs an action button; when it asks for a note or reason, fills it and confirms. */
async function act(page, action, text) {
  await page.getByRole('button', { name: action, exact: true }).click();
  if (text !== undefined) {
    const dialog = page.getByRole('dialog', { name: action });
    await dialog.getByRole('textbox').first().fill(text);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
  }
}

const status = (page) => page.getByTestId('admin-order-status');
async function expectStatus(page, code) {
  await eventually(async () => assert.equal(await status(page).getAttribute('data-status'), String(code)));
}

/** A borrower on a phone who has applied; returns the page, context and order id. */
async function applicant(realName) {
  const { context, page } = await phone(browser, server.url);
  await register(page, server);
  await completeProfile(page, { realName });
  await sign(page);
  await page.getByText('I have read and agree to the').click();
  const orderId = await applyForLoan(page);
  return { context, page, orderId };
}

describe('console journey', () => {
  test('application to repaid by people: two auditors, four eyes, withdrawal, two repayments, history, trial balance', async () => {
    const borrower = await applicant('Elena Garcia');
    const a1 = await officer('alice', { photo: true });
    const a2 = await officer('bob');

    // Auditor 1: start review, verify the identity, pass the first review.
    await openFromQueue(a1.page, 'Elena Garcia', { photo: true });
    await expectStatus(a1.page, 0);
    // The review facts: her age at the application and the amount over her stated income.
    const facts = await a1.page.locator('.admin-review-facts').innerText();
    assert.match(facts, /Age at application\s+\d+ years/);
    assert.match(facts, /Amount ÷ monthly income\s+[\d.,]+×/);
    await shot(a1.page, 'admin/order-review');
    await shotZh(a1.page, 'admin/order-review', () => status(a1.page).waitFor());
    await act(a1.page, 'Start review');
    await expectStatus(a1.page, 1);
    await a1.page.getByRole('link', { name: 'Applicant page' }).click();
    await a1.page.waitForURL(/\/admin\/users\//);
    await act(a1.page, 'Verify identity');
    await eventually(async () => assert.equal(await a1.page.getByTestId('admin-identity-status').getAttribute('data-status'), '2'));
    await shot(a1.page, 'admin/user');
    await a1.page.goBack();
    await expectStatus(a1.page, 1);
    await act(a1.page, 'Pass first review', 'Documents and income in order');
    await expectStatus(a1.page, 3);

    // Auditor 1 cannot pass the final review (four eyes): the button is disabled and
    // the page says why (the Order aggregate refuses it too).
    const passFinal = a1.page.getByRole('button', { name: 'Pass final review', exact: true });
    await eventually(async () => assert.equal(await passFinal.isDisabled(), true));
    await a1.page.getByTestId('admin-four-eyes-hint').getByText('You did the first review of this order: another auditor must do the final review (pass or refuse).', { exact: false }).waitFor();
    assert.equal(await passFinal.getAttribute('aria-describedby'), 'admin-four-eyes-hint');
    await expectStatus(a1.page, 3);
    await shot(a1.page, 'admin/order-four-eyes');
    await shotZh(a1.page, 'admin/order-four-eyes', () => a1.page.getByTestId('admin-four-eyes-hint').waitFor());

    // Auditor 2 passes it.
    await openFromQueue(a2.page, 'Elena Garcia');
    await expectStatus(a2.page, 3);
    await act(a2.page, 'Pass final review', 'Second pair of eyes: approved');
    await expectStatus(a2.page, 9);

    // The borrower withdraws with the PIN; the sandbox payout succeeds.
    await withdrawFromHome(borrower.page, { amount: '10000' });
    // ...and repays in two recharges through the payment page.
    await repay(borrower.page, ['4000', 'payoff']);
    await borrower.page.getByTestId('loan-repaid').waitFor({ timeout: 30000 });
    await borrower.page.goto(`/detail/${borrower.orderId}`);
    await borrower.page.getByText('Repaid').first().waitFor();

    // The order reads repaid for the auditors too.
    await a1.page.reload();
    await expectStatus(a1.page, 10);
    await shot(a1.page, 'admin/order-repaid');

    // History replay: every event with its actor, and the state as of each event.
    await a1.page.getByRole('link', { name: 'History replay' }).first().click();
    await a1.page.waitForURL(/\/history/);
    const events = a1.page.getByTestId('history-event');
    await events.first().waitFor();
    const count = await events.count();
    // Applied, review started, first and final review passed, payout requested and
    // succeeded, two payment pages opened and paid, two repayments, repaid: 13 events.
    // The scheduler (every 60 s) may also record the payout day's due-date reminders
    // before the loan is repaid (a slow run): they are history too, not steps here.
    const steps = (await events.allInnerTexts()).filter((text) => !text.includes('ReminderDue'));
    assert.equal(steps.length, 13, `expected the whole history, got ${steps.length} steps of ${count} events`);
    const actors = await a1.page.getByTestId('history-actor').allInnerTexts();
    assert.equal(actors.length, count, 'every event shows its actor');
    assert.ok(actors.every((a) => a.trim() !== ''), 'no event without an actor');
    assert.ok(actors.some((a) => a.includes('alice')), 'alice is named');
    assert.ok(actors.some((a) => a.includes('bob')), 'bob is named');
    await events.nth(2).locator('.admin-event__select').click();
    await eventually(async () => assert.match(await a1.page.getByTestId('history-state').innerText(), /State after event #3/));
    // The state and the events read in words: labels, not wire names; auditors by name.
    const stateText = await a1.page.getByTestId('history-state-fields').innerText();
    assert.match(stateText, /Applicant\s+Elena Garcia/);
    assert.match(stateText, /First review by\s+Auditor alice/);
    // As of event 3 (first review passed) nobody has done the final review yet.
    assert.match(stateText, /Final review by\s+—/);
    assert.doesNotMatch(stateText, /applicant_name|first_auditor|approved_amount/);
    await shot(a1.page, 'admin/history');
    await shotZh(a1.page, 'admin/history', () => a1.page.getByTestId('history-state-fields').waitFor());

    // Ledger: the trial balance reads zero.
    await a1.page.getByRole('link', { name: 'Ledger' }).first().click();
    await a1.page.waitForURL(/\/admin\/ledger/);
    await eventually(async () => assert.equal(await a1.page.getByTestId('trial-balance-sum').getAttribute('data-zero'), 'true'));
    await a1.page.getByTestId('journal-entry').first().waitFor();
    // Accounts by name: the borrower's wallet by her name, the receivable by the order number.
    const trialText = await a1.page.getByTestId('trial-balance').innerText();
    assert.match(trialText, /Borrower wallet · Elena Garcia/);
    assert.match(trialText, /Loan receivable · HL-\d{4}-\d{6}/);
    assert.doesNotMatch(trialText, /borrower_wallet|loan_receivable/);
    await shot(a1.page, 'admin/ledger');
    await shotZh(a1.page, 'admin/ledger', () => a1.page.getByTestId('journal-entry').first().waitFor());

    for (const who of [borrower, a1, a2]) await who.context.close();
  });

  test('a refusal with its reason, and a compliance hold set and lifted', async () => {
    const borrower = await applicant('Farah Ali');
    const a1 = await officer('alice');
    await openFromQueue(a1.page, 'Farah Ali');
    await act(a1.page, 'Start review');
    await expectStatus(a1.page, 1);
    // The officer ticks a coded reason (read in the borrower's language) and adds a note.
    await a1.page.getByRole('button', { name: 'Refuse', exact: true }).click();
    const refuse = a1.page.getByRole('dialog', { name: 'Refuse' });
    await refuse.getByRole('checkbox', { name: 'Income could not be verified' }).check();
    await refuse.getByRole('textbox').first().fill('Payslips do not match the bank statement');
    await shot(a1.page, 'admin/order-refuse-dialog');
    await refuse.getByRole('button', { name: 'Confirm' }).click();
    await expectStatus(a1.page, 5);
    await shot(a1.page, 'admin/order-refused');
    await borrower.page.goto('/');
    const reason = borrower.page.getByTestId('refusal-reason');
    await reason.getByText('your income could not be verified', { exact: false }).waitFor();
    await reason.getByText('Payslips do not match the bank statement', { exact: false }).waitFor();
    // In Chinese, the coded reason reads in Chinese; the note stays as typed.
    await borrower.page.evaluate(() => localStorage.setItem('language', 'zh'));
    await borrower.page.reload();
    await borrower.page.getByTestId('refusal-reason').getByText('您的收入无法核实', { exact: false }).waitFor();
    await shot(borrower.page, 'home-refused-coded-zh');
    await borrower.page.evaluate(() => localStorage.setItem('language', 'en'));

    // A compliance hold: the borrower sees its reason on the lock screen; lifting it frees the account.
    await a1.page.getByRole('link', { name: 'Applicant page' }).click();
    await a1.page.waitForURL(/\/admin\/users\//);
    await act(a1.page, 'Set hold', 'Source of funds check pending');
    await eventually(async () => assert.equal(await a1.page.getByTestId('admin-lock-state').getAttribute('data-kind'), 'compliance'));
    await shot(a1.page, 'admin/user-hold');
    await borrower.page.goto('/');
    await borrower.page.waitForURL('**/lock');
    await borrower.page.getByText('Source of funds check pending').waitFor();
    await borrower.page.getByRole('button', { name: 'Contact customer service' }).waitFor();
    await shot(borrower.page, 'lock-compliance');
    await act(a1.page, 'Lift hold', 'Check completed');
    await eventually(async () => assert.notEqual(await a1.page.getByTestId('admin-lock-state').getAttribute('data-kind'), 'compliance'));
    // The user page shows who did what to the account.
    const log = a1.page.getByTestId('user-action');
    await log.filter({ hasText: 'Hold lifted' }).waitFor();
    await log.filter({ hasText: 'Compliance hold set' }).getByText('Source of funds check pending').waitFor();
    assert.ok((await a1.page.getByTestId('user-action-actor').allInnerTexts()).every((who) => who.includes('alice')));
    await shot(a1.page, 'admin/user-actions');
    await borrower.page.goto('/');
    await borrower.page.getByTestId('main-button').waitFor();
    assert.equal(new URL(borrower.page.url()).pathname, '/');
    for (const who of [borrower, a1]) await who.context.close();
  });

  test('resubmission round trip: the officer asks for new photos, the borrower replaces them and resubmits, the officer passes (12.4)', async () => {
    const borrower = await applicant('Gina Lopez');
    const a1 = await officer('alice');
    await openFromQueue(a1.page, 'Gina Lopez');
    await act(a1.page, 'Start review');
    await expectStatus(a1.page, 1);
    await a1.page.getByRole('link', { name: 'Applicant page' }).click();
    await a1.page.waitForURL(/\/admin\/users\//);
    await act(a1.page, 'Verify identity');
    await eventually(async () => assert.equal(await a1.page.getByTestId('admin-identity-status').getAttribute('data-status'), '2'));
    await a1.page.goBack();
    await expectStatus(a1.page, 1);

    // The request names what to fix: without an item it is not sent.
    await a1.page.getByRole('button', { name: 'Request resubmission', exact: true }).click();
    const dialog = a1.page.getByRole('dialog', { name: 'Request resubmission' });
    await dialog.getByRole('textbox').first().fill('The hand-held photo is blurred');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Tick at least one item to fix.').waitFor();
    await dialog.getByRole('checkbox', { name: 'ID photos' }).check();
    await shot(a1.page, 'admin/order-request-resubmission');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expectStatus(a1.page, 2);

    // The borrower is told what to fix, not "Under review".
    const page = borrower.page;
    await page.goto('/');
    await page.getByRole('button', { name: 'Fix and resubmit' }).click();
    await page.waitForURL(`**/detail/${borrower.orderId}`);
    const panel = page.getByTestId('resubmission-panel');
    await panel.getByText('The hand-held photo is blurred').waitFor();
    assert.equal(await panel.getByRole('link').count(), 1, 'only the photos are asked for');
    await shot(page, 'resubmission-requested');
    // The same request in Chinese.
    await page.goto('/my');
    await page.getByRole('button', { name: '中文' }).click();
    // The choice is remembered once the Chinese strings have loaded (html lang="zh").
    await page.locator('html[lang="zh"]').waitFor({ state: 'attached' });
    await page.goto(`/detail/${borrower.orderId}`);
    await page.getByTestId('resubmission-panel').getByText('信贷审核员请您修改资料').waitFor();
    await shot(page, 'resubmission-requested-zh');
    await page.goto('/my');
    await page.getByRole('button', { name: 'English' }).click();
    await page.goto(`/detail/${borrower.orderId}`);
    await panel.getByRole('link', { name: 'Upload new ID photos' }).click();
    await page.waitForURL('**/baseInfo?then=**');
    for (const [label, text] of [['ID front', 'FRONT 2'], ['ID back', 'BACK 2'], ['Holding ID', 'SHARP FACE']]) {
      // The photo on file shows beside its file input, under the same name.
      await page.locator(`input[type=file][aria-label="${label}"]`).setInputFiles(await makeJpeg(page, text));
    }
    // The verified name stays read-only: only the photos were asked for.
    assert.equal(await page.getByRole('textbox', { name: 'Full name' }).getAttribute('readonly'), '');
    await shot(page, 'resubmission-photos');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`**/detail/${borrower.orderId}`);
    await page.getByTestId('resubmit').click();
    await page.getByText('Resubmitted: your application is back in review').waitFor();
    await eventually(async () => assert.equal(await page.getByTestId('resubmission-panel').count(), 0));
    await page.getByTestId('status-tag').getByText('Under review').waitFor();
    await shot(page, 'resubmission-done');

    // Back in the queue; the new photos await review; the officer verifies and passes.
    await a1.page.reload();
    await expectStatus(a1.page, 0);
    await act(a1.page, 'Start review');
    await expectStatus(a1.page, 1);
    await a1.page.getByRole('link', { name: 'Applicant page' }).click();
    await a1.page.waitForURL(/\/admin\/users\//);
    await eventually(async () => assert.equal(await a1.page.getByTestId('admin-identity-status').getAttribute('data-status'), '1'));
    await act(a1.page, 'Verify identity');
    await eventually(async () => assert.equal(await a1.page.getByTestId('admin-identity-status').getAttribute('data-status'), '2'));
    await a1.page.goBack();
    await act(a1.page, 'Pass first review', 'New photos are sharp');
    await expectStatus(a1.page, 3);
    for (const who of [borrower, a1]) await who.context.close();
  });
});
