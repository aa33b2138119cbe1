// Filipino, the borrower app's third language (issue 16 item 4), in Chromium against
// the real api: a borrower picks "Filipino" on the sign-in screen and goes through
// sign-up, identity, profile, signature, questionnaire and the apply screen with the
// Filipino labels; sign-in, home, apply and My (and the screens between) are
// photographed at 390×844 into e2e/screenshots/*-fil.png. Every photographed screen
// shows Filipino, no translation key and no English string of the app, nothing is
// wider than the phone or its card, and dates and amounts read as fil-PH formats them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeJpeg, phone, serverAndBrowser, shot, smsCode } from './harness.mjs';
import { eventually, newMobile, PASSWORD } from './steps.mjs';

const read = (name) => JSON.parse(readFileSync(new URL(`../src/locales/${name}.json`, import.meta.url), 'utf8'));
const fil = read('fil');
const en = read('en');

let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

/** Translation keys (`home_outstanding`) and English sentences of the app that would betray a missing string. */
const KEYS = Object.keys(en).filter((key) => key.includes('_'));
const ENGLISH = Object.keys(en)
  .filter((key) => en[key] !== fil[key] && en[key].length >= 12 && !en[key].includes('{{'))
  .map((key) => en[key]);

/**
 * Checks the screen on show: Filipino `expected` is visible, no key nor English
 * string of the app is, and no element reaches past the right edge of the phone
 * or of its card (except inside a horizontal scroller, the home banner strip) or
 * has its text clipped; then photographs it as `<name>-fil`.
 */
async function check(page, name, expected) {
  await page.getByText(expected).first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fil');
  const text = await page.evaluate(() => document.body.innerText);
  const keys = KEYS.filter((key) => new RegExp(`\\b${key}\\b`).test(text));
  assert.deepEqual(keys, [], `${name}: translation keys on screen`);
  const english = ENGLISH.filter((sentence) => text.includes(sentence));
  assert.deepEqual(english, [], `${name}: English strings on screen`);
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const inScroller = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const found = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || inScroller(el)) continue;
      const label = `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      if (box.right > width + 1) found.push(`past the edge: ${label}`);
      const card = el.parentElement?.closest('.card, .adm-card, .adm-list-card');
      if (card && box.right > card.getBoundingClientRect().right + 1) found.push(`past its card: ${label}`);
      const style = getComputedStyle(el);
      const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (ownText && /hidden|clip/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) found.push(`clipped: ${label}`);
    }
    return found;
  });
  assert.deepEqual(overflow, [], `${name}: layout`);
  await shot(page, `${name}-fil`);
}

describe('Filipino', () => {
  test('a borrower switches to Filipino and applies; sign-in, home, apply and My photographed', async () => {
    const { context, page } = await phone(browser, server.url);

    // Sign-in: the switch lists the three languages, each in its own language.
    await page.goto('/login');
    const group = page.getByRole('group', { name: 'Language' });
    await group.getByRole('button', { name: 'Filipino' }).waitFor();
    assert.deepEqual(await group.getByRole('button').allInnerTexts(), ['English', '中文', 'Filipino']);
    await group.getByRole('button', { name: 'Filipino' }).click();
    await page.getByRole('heading', { name: fil.sign_in }).waitFor();
    await check(page, 'login', fil.never_pay_notice);
    // Remembered across a reload.
    await page.reload();
    await page.getByRole('heading', { name: fil.sign_in }).waitFor();

    // Sign-up with the code texted to the phone.
    const mobile = newMobile();
    await page.goto('/register?code=WELCOME&channel=e2e');
    await page.getByRole('textbox', { name: fil.phone }).fill(mobile);
    await page.getByRole('button', { name: fil.send_code }).click();
    await page.getByRole('textbox', { name: fil.sms_code }).fill(await smsCode(server, mobile));
    await page.getByRole('textbox', { name: fil.password, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: fil.confirm_password }).fill(PASSWORD);
    await page.getByRole('checkbox', { name: fil.privacy_accept.replace('{{version}}', '2026-11') }).check();
    await check(page, 'register', fil.have_account);
    await page.getByRole('button', { name: fil.sign_up }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await check(page, 'home-new', fil.main_completeInfo);

    // Identity and profile.
    await page.goto('/identity');
    for (const [label, photo] of [[fil.photo_frontImage, 'FRONT'], [fil.photo_backImage, 'BACK'], [fil.photo_handHoldImage, 'FACE']]) {
      await page.getByLabel(label).setInputFiles(await makeJpeg(page, photo));
    }
    await page.getByRole('textbox', { name: fil.real_name }).fill('Maria Santos');
    await page.getByRole('textbox', { name: fil.id_number }).fill(String(Date.now()).slice(-9));
    await page.getByText(fil.female, { exact: true }).click();
    await page.getByLabel(fil.birthday).fill('1991-06-12');
    await page.getByLabel(fil.marriage).selectOption('Single');
    // The configured value is sent; the borrower reads it in Filipino.
    const chosen = (label) => page.getByLabel(label).evaluate((select) => select.selectedOptions[0].textContent);
    assert.equal(await chosen(fil.marriage), fil.value_marriage_Single);
    await check(page, 'identity', fil.identity_title);
    await page.getByRole('button', { name: fil.next }).click();
    await page.waitForURL('**/baseInfo');
    await page.getByRole('textbox', { name: fil.email }).fill(`maria${Date.now()}@example.ph`);
    await page.getByRole('combobox', { name: fil.place_region }).selectOption('National Capital Region (NCR)');
    await page.getByTestId('no-province').waitFor();
    await page.getByRole('combobox', { name: fil.place_city }).selectOption('City of Manila');
    await page.getByRole('textbox', { name: fil.address }).fill('1 Rizal Street, Manila');
    await page.getByLabel(fil.education).selectOption('College');
    assert.equal(await chosen(fil.education), fil.value_education_College);
    await page.getByLabel(fil.bank_name, { exact: true }).selectOption('BDO Unibank');
    await page.getByRole('textbox', { name: fil.card_no }).fill('123456789012');
    await check(page, 'baseInfo', fil.place_no_province);
    await page.getByRole('button', { name: fil.next }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // The signature sheet opens on home; sign with the mouse.
    const canvas = page.getByTestId('signature-canvas');
    await canvas.waitFor();
    await page.waitForTimeout(700);
    await check(page, 'signature-sheet', fil.signature_hint);
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + 30, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 12; i += 1) await page.mouse.move(box.x + 30 + i * 22, box.y + box.height / 2 + (i % 2 ? -25 : 25), { steps: 3 });
    await page.mouse.up();
    await page.getByRole('button', { name: fil.confirm }).click();
    await page.getByText(fil.signature_saved).waitFor();

    // Home: the policy, the main button in Filipino.
    await page.getByText(fil.policy_agree).click();
    await check(page, 'home', fil.main_apply);

    // Questionnaire.
    await page.getByTestId('main-button').click();
    await page.waitForURL('**/question');
    await page.getByRole('combobox', { name: fil.q_job }).selectOption({ index: 2 });
    await page.getByRole('textbox', { name: fil.q_monthly_income }).fill('400000');
    await page.getByRole('textbox', { name: fil.q_expenses }).fill('12000');
    await page.getByRole('combobox', { name: fil.q_loan_purpose }).selectOption({ index: 3 });
    await page.locator('.adm-form-item', { hasText: fil.q_loan_before }).getByText(fil.no, { exact: true }).click();
    await page.locator('.adm-form-item', { hasText: fil.q_guarantee }).getByText(fil.no, { exact: true }).click();
    await check(page, 'question', fil.question_intro);
    await page.getByRole('button', { name: fil.next }).click();

    // Apply: pre-filled with the largest amount the income allows over the longest
    // period (P7, issue 52), said in Filipino; the cost in ₱.
    await page.waitForURL(/\/apply\/1\?period=24/);
    const input = page.getByRole('textbox', { name: fil.loan_amount });
    await eventually(async () => assert.equal(await input.inputValue(), '150,000'));
    await page.getByTestId('income-limit').getByText('hanggang ₱150,000.00', { exact: false }).waitFor();
    await input.fill('100000');
    await input.blur();
    await page.getByRole('radio', { name: /12 araw/ }).check();
    await page.getByTestId('disclosure').getByText('₱100,000.00').first().waitFor();
    await check(page, 'apply', fil.disclosure_title);

    // My: the menu in Filipino, and the signed-in devices with a fil-PH date ("Nob 24, 2026").
    await page.goto('/my');
    await check(page, 'my', fil.my_information);
    // The consent records the Filipino text the borrower was shown (PRODUCT.md 12.6).
    assert.match(await page.getByTestId('privacy-consent').innerText(), /^Abiso sa privacy v2026-11 sa Filipino, tinanggap noong /);
    await page.goto('/sessions');
    const today = new Intl.DateTimeFormat('fil-PH', { dateStyle: 'medium' }).format(new Date());
    await page.getByTestId('sessions').getByText(today).first().waitFor();
    await check(page, 'sessions', fil.session_this_device);
    await context.close();
  });
});
