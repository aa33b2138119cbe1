// WCAG 2.1 AA in the browser (issue 15): axe-core on every screen of the borrower
// app and the loan officers' console, reached through the real journey against
// the real api, in English and in Chinese; and the apply and withdraw forms
// driven by the keyboard alone. A screen passes with no critical and no serious
// violation of the wcag2a/wcag2aa/wcag21a/wcag21aa rules, one h1 and a main
// landmark. Screens are photographed into e2e/screenshots/a11y/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { auditor, createAuditor, launchBrowser, shot, startServer } from './harness.mjs';
import { PASSWORD, PIN, completeProfile, eventually, register, sign } from './steps.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const OFFICER_PASSWORD = 'officer-password-1';
// A11Y_PHOTOS=0 skips the screenshots (e.g. when auditing an older build through E2E_WEB_DIST).
const PHOTOS = process.env.A11Y_PHOTOS !== '0';

let server;
let browser;
/** Every audit: `{ app, lang, screen, violations, structure }`. */
const audits = [];

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  createAuditor(server, 'olivia', OFFICER_PASSWORD);
  createAuditor(server, 'oscar', OFFICER_PASSWORD);
});
after(async () => {
  printSummary();
  await browser?.close();
  await server?.stop();
});

/** A phone (390×844) or desktop (1280×800) context; CSP bypassed so axe can be injected. */
async function context(kind, lang = 'en') {
  const options =
    kind === 'phone'
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } };
  const ctx = await browser.newContext({ baseURL: server.url, bypassCSP: true, ...options });
  ctx.setDefaultTimeout(15000);
  if (lang !== 'en') await ctx.addInitScript((l) => localStorage.setItem('language', l), lang);
  const page = await ctx.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  return { ctx, page };
}

/**
 * Runs axe on the page as it is now and records the result under `screen`.
 * Also records the structure checks (one h1, a main landmark) that axe files
 * under best practice rather than WCAG.
 */
async function audit(page, app, lang, screen, { photo = true } = {}) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Toasts fade and sheets finish sliding before the page is judged.
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden', timeout: 4000 }).catch(() => undefined);
  await page.waitForTimeout(350);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async (tags) => {
    const run = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    const structure = await window.axe.run(document, {
      runOnly: { type: 'rule', values: ['page-has-heading-one', 'landmark-one-main', 'region', 'heading-order', 'landmark-unique'] },
      resultTypes: ['violations'],
    });
    const pick = (v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    });
    return { violations: run.violations.map(pick), structure: structure.violations.map(pick) };
  }, TAGS);
  audits.push({ app, lang, screen, ...result });
  if (photo && PHOTOS) await shot(page, `a11y/${app}-${screen}${lang === 'en' ? '' : `-${lang}`}`);
  return result;
}

const blocking = (a) => a.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');

function describeFailures(list) {
  return list
    .map((a) =>
      [`${a.app} ${a.lang} ${a.screen}:`]
        .concat(
          [...blocking(a), ...a.structure.filter((v) => ['page-has-heading-one', 'landmark-one-main'].includes(v.id))].map(
            (v) =>
              `  [${v.impact}] ${v.id} (${v.help}): ${v.nodes.map((n) => n.target).join(' | ')}\n` +
              `    first: ${(v.nodes[0]?.summary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
          ),
        )
        .join('\n'),
    )
    .join('\n');
}

/** Fails, naming every rule and node, when a screen of `app` has a blocking violation or lacks an h1 or main. */
function assertClean(app) {
  const mine = audits.filter((a) => a.app === app);
  assert.ok(mine.length > 0, `no ${app} screen was audited`);
  const bad = mine.filter(
    (a) => blocking(a).length > 0 || a.structure.some((v) => ['page-has-heading-one', 'landmark-one-main'].includes(v.id)),
  );
  assert.equal(bad.length, 0, `accessibility violations:\n${describeFailures(bad)}`);
}

function printSummary() {
  const byApp = new Map();
  for (const a of audits) {
    const key = `${a.app} (${a.lang})`;
    const row = byApp.get(key) ?? { screens: 0, critical: 0, serious: 0, moderate: 0, minor: 0, nodes: 0, structure: new Set() };
    row.screens += 1;
    for (const v of a.violations) {
      row[v.impact] = (row[v.impact] ?? 0) + 1;
      row.nodes += v.nodes.length;
    }
    for (const v of a.structure) row.structure.add(v.id);
    byApp.set(key, row);
  }
  console.log('\naxe-core results (violations by impact; nodes; best-practice structure rules failing anywhere):');
  for (const [key, row] of byApp) {
    console.log(
      `  ${key}: ${row.screens} screens, critical ${row.critical}, serious ${row.serious}, moderate ${row.moderate}, minor ${row.minor}, nodes ${row.nodes}; structure: ${[...row.structure].join(', ') || 'none'}`,
    );
  }
  const moderate = audits.flatMap((a) => a.violations.filter((v) => !blocking({ violations: [v] }).length).map((v) => `${a.app} ${a.lang} ${a.screen}: [${v.impact}] ${v.id} ${v.nodes.map((n) => n.target).join(' | ')}`));
  if (moderate.length) console.log(`  other findings:\n    ${moderate.join('\n    ')}`);
  const structure = audits.flatMap((a) => a.structure.map((v) => `${a.app} ${a.lang} ${a.screen}: ${v.id} ${v.nodes.map((n) => n.target).join(' | ')}`));
  if (structure.length) console.log(`  structure findings:\n    ${structure.join('\n    ')}`);
}

/** The questionnaire through the screen (as steps.applyForLoan does), auditing it. */
async function answerQuestionnaire(page, check) {
  await page.goto('/');
  await page.getByTestId('main-button').click();
  await page.waitForURL('**/question');
  await check?.('question');
  await page.getByRole('combobox', { name: 'Job' }).selectOption({ label: 'Government employee' });
  await page.getByRole('textbox', { name: 'Monthly income' }).fill('400000');
  await page.getByRole('textbox', { name: 'Monthly expenses' }).fill('12000');
  await page.getByRole('combobox', { name: 'Loan purpose' }).selectOption({ label: 'Tuition / school fees' });
  await page.locator('.adm-form-item', { hasText: 'borrowed before' }).getByText('No', { exact: true }).click();
  await page.locator('.adm-form-item', { hasText: 'guarantor' }).getByText('No', { exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/\/apply\/1\?/);
  await page.getByTestId('disclosure').waitFor();
}

/** Registered, profile complete, signed and policy accepted: ready to apply. */
async function readyBorrower(page, realName, { signNow = true } = {}) {
  const mobile = await register(page, server);
  await completeProfile(page, { realName });
  if (signNow) await sign(page);
  await page.goto('/');
  await page.getByText('I have read and agree to the').click();
  return mobile;
}

/** Two loan officers approve through the auditor API. */
async function approve(orderId, suffix) {
  const a1 = await auditor(server, `kb-a-${suffix}`);
  const a2 = await auditor(server, `kb-b-${suffix}`);
  const detail = await a1.call('orders/detail', { orderId });
  const userId = detail.order?.userId ?? detail.applicant?.userId;
  await a1.call('orders/startReview', { orderId });
  await a1.call('users/verifyIdentity', { userId });
  await a1.call('orders/passFirst', { orderId, note: 'documents in order' });
  await a2.call('orders/passFinal', { orderId, note: 'approved' });
  return { a1, userId };
}

/** Presses Tab until `locator` has the focus (at most `max` times); fails if it never does. */
async function tabTo(page, locator, what, max = 60) {
  for (let i = 0; i < max; i += 1) {
    if (await locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${what} is never reached with Tab`);
}

/** The element that has the focus, described for failure messages. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}` : 'nothing';
});

/** The focused element draws a visible focus indicator (outline or box-shadow). */
async function assertFocusVisible(page, what) {
  const ring = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    // A hidden native input shows its focus on the label or icon beside it.
    const candidates = [el, el.parentElement, el.nextElementSibling, el.closest('label')].filter(Boolean);
    return candidates.some((c) => {
      const s = getComputedStyle(c);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    });
  });
  assert.ok(ring, `${what}: the focused element (${await focused(page)}) shows no focus ring`);
}

describe('accessibility: axe-core on every screen', () => {
  let orderId;
  let mobile;

  test('borrower app, English: the whole journey', async () => {
    const { ctx, page } = await context('phone');
    const check = (screen) => audit(page, 'borrower', 'en', screen);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await check('login');
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    await check('register');
    // The lock screen of an account that is not locked, before signing in.
    await page.goto('/lock');
    await check('lock-signed-out');
    mobile = await register(page, server);
    await page.getByTestId('main-button').waitFor();
    await check('home-new');
    for (const [route, name] of [
      ['/loan', 'products'],
      ['/order', 'orders-empty'],
      ['/transactionHistory', 'transactions-empty'],
      ['/recharge', 'recharge-nothing-owed'],
      ['/repayDetail', 'repay-detail-empty'],
      ['/bankInfoDetail', 'bank-detail-empty'],
      ['/my', 'my'],
      ['/about', 'about'],
      ['/partner', 'partner'],
      ['/identity', 'identity'],
    ]) {
      await page.goto(route);
      await page.locator('main').first().waitFor();
      await check(name);
    }
    await completeProfile(page, { realName: 'Aurora Reyes' });
    // A qualified borrower without a signature: the sheet opens by itself.
    await page.getByTestId('signature-canvas').waitFor();
    await check('home-signature-sheet');
    await sign(page);
    for (const [route, name] of [
      ['/baseInfo', 'base-info'],
      ['/bankInfo', 'bank-info'],
      ['/baseInfoDetail', 'base-info-detail'],
      ['/bankInfoDetail', 'bank-info-detail'],
    ]) {
      await page.goto(route);
      await page.locator('main').first().waitFor();
      await check(name);
    }
    await page.goto('/');
    await page.getByText('I have read and agree to the').click();
    await answerQuestionnaire(page, check);
    await check('apply');
    await page.getByText('I have read the cost disclosure').click();
    await page.getByRole('button', { name: 'Sign and submit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).waitFor();
    await check('apply-confirm-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Continue' }).waitFor();
    await check('apply-success-overlay');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/success\//);
    orderId = page.url().split('/success/')[1];
    await check('success');
    await page.goto(`/detail/${orderId}`);
    await page.getByText('Under review').first().waitFor();
    await check('order-detail-under-review');

    await approve(orderId, 'main');
    await page.goto('/');
    await page.getByTestId('main-button').getByText('Withdraw').waitFor();
    await check('home-approved');
    await page.getByTestId('main-button').click();
    await page.waitForURL(/index=0/);
    await check('withdraw-amount');
    await page.getByRole('textbox', { name: 'Withdrawal amount' }).fill('10000');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('withdraw-bank').waitFor();
    await check('withdraw-bank');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'New withdraw PIN' }).waitFor();
    await check('withdraw-pin-setup');
    await page.getByRole('textbox', { name: 'New withdraw PIN' }).fill(PIN);
    await page.getByRole('textbox', { name: 'Repeat the PIN' }).fill('135799');
    await page.getByRole('button', { name: 'Save PIN and continue' }).click();
    await page.getByTestId('withdraw-error').waitFor();
    await check('withdraw-pin-mismatch');
    await page.getByRole('textbox', { name: 'Repeat the PIN' }).fill(PIN);
    await page.getByRole('button', { name: 'Save PIN and continue' }).click();
    await page.waitForURL(/index=3/);
    await page.getByTestId('withdraw-summary').waitFor();
    await check('withdraw-confirm');
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByText('Repaying').first().waitFor({ timeout: 30000 });
    await check('order-detail-repaying');
    await page.goto('/');
    await page.getByTestId('owed-card').getByText('Total outstanding').waitFor();
    await check('home-repaying');
    await page.goto('/recharge');
    await page.getByRole('textbox', { name: 'Repayment amount' }).fill('50');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByTestId('recharge-error').waitFor();
    await check('recharge-error');
    for (const [route, name, ready] of [
      ['/repayDetail', 'repay-detail', 'main'],
      ['/contract', 'contract', '[data-testid="contract"]'],
      ['/transactionHistory', 'transactions', 'main'],
      ['/order', 'orders', 'main'],
      ['/my', 'my-with-loan', 'main'],
    ]) {
      await page.goto(route);
      await page.locator(ready).first().waitFor();
      await check(name);
    }
    await ctx.close();
  });

  test('borrower app: a refusal overlay and the compliance-hold lock screen', async () => {
    const { ctx, page } = await context('phone');
    const check = (screen) => audit(page, 'borrower', 'en', screen);
    await readyBorrower(page, 'Rosa Villanueva');
    await answerQuestionnaire(page);
    await page.getByText('I have read the cost disclosure').click();
    await page.getByRole('button', { name: 'Sign and submit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/success\//);
    const refusedId = page.url().split('/success/')[1];
    const officer = await auditor(server, 'refuser');
    await officer.call('orders/startReview', { orderId: refusedId });
    await officer.call('orders/refuse', { orderId: refusedId, reason: 'Monthly income could not be verified' });
    await page.goto('/');
    await page.getByTestId('refusal-reason').getByText('Monthly income could not be verified').waitFor();
    // The refusal is a dialog a screen reader can reach: not inside an aria-hidden layer.
    const dialog = page.getByRole('dialog', { name: 'Application not approved' });
    await dialog.waitFor();
    await check('home-refused');
    assert.equal(await dialog.evaluate((el) => !!el.closest('[aria-hidden="true"]')), false, 'the refusal dialog is not aria-hidden');
    const detail = await officer.call('orders/detail', { orderId: refusedId });
    const userId = detail.order?.userId ?? detail.applicant?.userId;
    await officer.call('users/hold', { userId, reason: 'Source of funds check pending' });
    await page.goto('/lock');
    await page.getByText('Source of funds check pending').waitFor();
    await check('lock-compliance-hold');
    await officer.call('users/releaseHold', { userId, reason: 'Check completed' });
    await ctx.close();
  });

  test('borrower app, Chinese: the screens of a borrower with a loan', async () => {
    assert.ok(mobile, 'the English journey ran first');
    const { ctx, page } = await context('phone', 'zh');
    const check = (screen) => audit(page, 'borrower', 'zh', screen);
    await page.goto('/login');
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await check('login');
    await page.getByRole('textbox').first().fill(mobile);
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    for (const route of ['/', '/loan', '/apply/1', '/order', `/detail/${orderId}`, '/repayDetail', '/recharge', '/transactionHistory', '/contract', '/my', '/baseInfoDetail', '/bankInfoDetail', '/identity', '/question', '/about', '/partner']) {
      await page.goto(route);
      await page.locator('main').first().waitFor();
      // The lender's own texts in Chinese too, as the demo configuration gives them.
      if (route === '/about') await page.getByText('是持牌贷款公司').waitFor();
      await check(route === '/' ? 'home' : route.split('/')[1]);
    }
    await ctx.close();
  });

  test('borrower app: no critical or serious violation on any screen', () => assertClean('borrower'));

  test('console, English and Chinese: login, queue, order, dialog, user, history, ledger, collections, staff, audit trail, products, lender settings', async () => {
    assert.ok(orderId, 'the borrower journey ran first');
    for (const lang of ['en', 'zh']) {
      const { ctx, page } = await context('desktop', lang);
      const check = (screen) => audit(page, 'console', lang, screen);
      await page.goto('/admin');
      await page.waitForURL('**/admin/login**');
      await page.locator('h1').first().waitFor();
      await check('login');
      await page.locator('input[autocomplete="username"], input[name="username"]').first().fill('olivia');
      await page.locator('input[type="password"]').fill(OFFICER_PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByTestId('admin-username').getByText('olivia').waitFor();
      await page.getByTestId('queue-row').first().waitFor();
      await check('queue');
      await page.goto(`/admin/orders/${orderId}`);
      await page.getByTestId('admin-order-status').waitFor();
      await check('order');
      await page.locator('a[href*="/admin/users/"]').first().click();
      await page.getByTestId('admin-identity-status').waitFor();
      await check('user');
      // An action's dialog (a reason to give): opened, audited, cancelled.
      const hold = page.getByRole('button', { name: lang === 'en' ? 'Set hold' : /冻结|设置/ });
      if (await hold.count()) {
        await hold.first().click();
        await page.getByRole('dialog').waitFor();
        await check('user-hold-dialog');
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 3000 }).catch(() => page.getByRole('dialog').getByRole('button').last().click());
      }
      await page.goto(`/admin/orders/${orderId}/history`);
      await page.getByTestId('history-event').first().waitFor();
      await page.getByTestId('history-event').nth(1).click();
      await check('history');
      await page.goto('/admin/ledger');
      await page.getByTestId('journal-entry').first().waitFor();
      await check('ledger');
      // Collections (issue 53): the queue with the book by bucket, and a loan's record.
      await page.goto('/admin/collections');
      await page.getByTestId('book-line').first().waitFor();
      await check('collections');
      await page.goto(`/admin/collections/${orderId}`);
      await page.getByTestId('record-dpd').waitFor();
      await check('collection');
      // Staff accounts and the audit trail (issue 55).
      await page.goto('/admin/staff');
      await page.getByTestId('staff-row').first().waitFor();
      await check('staff');
      await page.goto('/admin/audit');
      await page.getByTestId('audit-row').first().waitFor();
      await check('audit');
      // The products as data: versions, proposals and the form proposing a change.
      await page.goto('/admin/products');
      await page.getByTestId('product-line').first().waitFor();
      await check('products');
      // The lender's settings as data: in force, versions, proposals and the form.
      await page.goto('/admin/settings');
      await page.getByTestId('settings-line').first().waitFor();
      await check('settings');
      await ctx.close();
    }
    assertClean('console');
  });
});

describe('accessibility: keyboard only', () => {
  test('apply (amount, period, both checkboxes, signature, submit) and withdraw with the keyboard alone', async () => {
    const { ctx, page } = await context('phone');
    // Set-up with the mouse: registered, profile complete, no signature yet.
    await register(page, server);
    await completeProfile(page, { realName: 'Kiko Mendoza' });
    await page.goto('/');
    // Home: the sheet offers itself; Escape closes it, then the policy box is ticked with Space.
    await page.getByTestId('signature-canvas').waitFor();
    await page.waitForTimeout(700);
    await page.keyboard.press('Escape');
    await page.getByTestId('signature-canvas').waitFor({ state: 'hidden' });
    const policy = page.getByRole('checkbox', { name: /I have read and agree to the/ });
    await tabTo(page, policy, 'the policy checkbox');
    await assertFocusVisible(page, 'policy checkbox');
    await page.keyboard.press('Space');
    assert.equal(await policy.isChecked(), true, 'Space ticks the policy checkbox');
    const main = page.getByTestId('main-button');
    await tabTo(page, main, 'the main button');
    await assertFocusVisible(page, 'main button');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/question');
    // The questionnaire by keyboard: lists by Tab + arrow, text boxes by Tab, radios
    // by Tab + Space.
    for (const [name, value] of [['Job', null], ['Monthly income', '400000'], ['Monthly expenses', '12000'], ['Loan purpose', null]]) {
      if (value === null) {
        const list = page.getByRole('combobox', { name });
        await tabTo(page, list, name);
        await page.keyboard.press('ArrowDown');
        assert.notEqual(await list.inputValue(), '', `an arrow key picks from "${name}"`);
      } else {
        await tabTo(page, page.getByRole('textbox', { name }), name);
        await page.keyboard.type(value);
      }
    }
    for (const group of ['borrowed before', 'guarantor']) {
      const no = page.locator('.adm-form-item', { hasText: group }).getByRole('radio', { name: 'No', exact: true });
      await tabTo(page, no, `"No" of "${group}"`);
      await page.keyboard.press('Space');
      assert.equal(await no.isChecked(), true, `Space picks "No" of "${group}"`);
    }
    await tabTo(page, page.getByRole('button', { name: 'Next' }), 'Next');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/apply\/1\?/);
    await page.getByTestId('disclosure').waitFor();

    // Amount: typed, then Tab leaves the box (it is clamped on blur).
    const amount = page.getByRole('textbox', { name: 'Loan amount' });
    await tabTo(page, amount, 'the amount');
    await assertFocusVisible(page, 'amount');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('100000');
    // Period: Tab into the group, arrows move the choice.
    const periods = page.getByRole('radiogroup', { name: 'Loan period' }).or(page.getByRole('group', { name: 'Loan period' }));
    await periods.waitFor();
    const checkedPeriod = periods.getByRole('radio', { checked: true });
    await tabTo(page, checkedPeriod, 'the chosen period');
    await assertFocusVisible(page, 'period tile');
    const before = await checkedPeriod.getAttribute('value');
    await page.keyboard.press('ArrowLeft');
    await eventually(async () => assert.notEqual(await periods.getByRole('radio', { checked: true }).getAttribute('value'), before, 'an arrow key changes the period'));
    // Walk to 12 days with the arrows.
    for (let i = 0; i < 6 && (await periods.getByRole('radio', { checked: true }).getAttribute('value')) !== '12'; i += 1) {
      await page.keyboard.press('ArrowLeft');
    }
    assert.equal(await periods.getByRole('radio', { checked: true }).getAttribute('value'), '12', '12 days chosen by keyboard');
    await page.getByTestId('disclosure').getByText('₱100,000.00').first().waitFor();
    // The disclosure checkbox: Tab, Space.
    const agree = page.getByRole('checkbox', { name: /I have read the cost disclosure/ });
    await tabTo(page, agree, 'the disclosure checkbox');
    await assertFocusVisible(page, 'disclosure checkbox');
    await page.keyboard.press('Space');
    assert.equal(await agree.isChecked(), true, 'Space ticks the disclosure checkbox');
    // Submit opens the signature sheet (no signature yet); sign by typing the name.
    const submit = page.getByRole('button', { name: 'Sign and submit' });
    await tabTo(page, submit, 'Sign and submit');
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: 'Your signature' });
    await sheet.waitFor();
    const typed = sheet.getByRole('textbox');
    await eventually(async () => assert.equal(await typed.evaluate((el) => el === document.activeElement || document.activeElement?.closest('[role="dialog"]') !== null), true, 'focus moves into the sheet'));
    await tabTo(page, typed, 'the typed-name box of the signature sheet');
    await page.keyboard.type('Kiko Mendoza');
    const saved = page.waitForResponse((r) => r.url().includes('signatureImg/upload'));
    await tabTo(page, sheet.getByRole('button', { name: 'Confirm' }), 'Confirm of the signature sheet');
    await page.keyboard.press('Enter');
    assert.equal((await (await saved).json()).code, 0, 'the typed signature is saved');
    await page.getByTestId('signature-on-file').waitFor();
    await sheet.waitFor({ state: 'hidden' });
    const submit2 = page.getByRole('button', { name: 'Submit application' }).or(page.getByRole('button', { name: 'Sign and submit' }));
    await tabTo(page, submit2.first(), 'submit');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog').getByRole('button', { name: 'Confirm' });
    await confirm.waitFor();
    await tabTo(page, confirm, 'Confirm of the dialog');
    await page.keyboard.press('Enter');
    const cont = page.getByRole('button', { name: 'Continue' });
    await cont.waitFor();
    await tabTo(page, cont, 'Continue');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/success\//);
    const orderId = page.url().split('/success/')[1];
    await approve(orderId, 'kb');

    // Withdraw by keyboard: home main button → amount → Next → bank → Next → PIN set-up → confirm.
    await page.goto('/');
    await page.getByTestId('main-button').getByText('Withdraw').waitFor();
    await tabTo(page, page.getByTestId('main-button'), 'the main button (Withdraw)');
    await page.keyboard.press('Enter');
    await page.waitForURL(/index=0/);
    const box = page.getByRole('textbox', { name: 'Withdrawal amount' });
    await tabTo(page, box, 'the withdrawal amount');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('10000');
    await tabTo(page, page.getByRole('button', { name: 'Next' }), 'Next (amount)');
    await assertFocusVisible(page, 'Next');
    await page.keyboard.press('Enter');
    await page.getByTestId('withdraw-bank').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Next' }), 'Next (bank)');
    await page.keyboard.press('Enter');
    const pin = page.getByRole('textbox', { name: 'New withdraw PIN' });
    await pin.waitFor();
    await tabTo(page, pin, 'the new PIN');
    await page.keyboard.type(PIN);
    // A mismatch: the error is tied to the field that is wrong.
    await tabTo(page, page.getByRole('textbox', { name: 'Repeat the PIN' }), 'the repeated PIN');
    await page.keyboard.type('135799');
    await tabTo(page, page.getByRole('button', { name: 'Save PIN and continue' }), 'Save PIN');
    await page.keyboard.press('Enter');
    const error = page.getByTestId('withdraw-error');
    await error.waitFor();
    const errorId = await error.getAttribute('id');
    assert.ok(errorId, 'the error has an id');
    const repeat = page.getByRole('textbox', { name: 'Repeat the PIN' });
    assert.equal(await repeat.getAttribute('aria-invalid'), 'true', 'the wrong field is marked invalid');
    assert.ok((await repeat.getAttribute('aria-describedby'))?.split(' ').includes(errorId), 'the wrong field is described by the error');
    await tabTo(page, repeat, 'the repeated PIN again');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(PIN);
    await tabTo(page, page.getByRole('button', { name: 'Save PIN and continue' }), 'Save PIN');
    await page.keyboard.press('Enter');
    await page.waitForURL(/index=3/);
    await page.getByTestId('withdraw-summary').getByText('₱10,000.00').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Confirm withdrawal' }), 'Confirm withdrawal');
    await page.keyboard.press('Enter');
    await page.getByText('Repaying').first().waitFor({ timeout: 30000 });
    // The tab bar is reachable and names the current page.
    await page.goto('/');
    const myTab = page.getByRole('navigation').getByRole('link', { name: 'My' });
    await tabTo(page, myTab, 'the My tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/my');
    // (The next screen loads lazily; the tab bar follows once it has rendered.)
    await eventually(async () =>
      assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'My' }).getAttribute('aria-current'), 'page'),
    );
    // The back button of the header: a named button.
    await page.goto('/contract');
    await page.getByRole('button', { name: 'Back' }).first().waitFor();
    await ctx.close();
  });
});

