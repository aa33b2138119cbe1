// Every journey a borrower starts can be finished (issue 52), in Chromium against the
// real api: a phone photo over 5 MB is made smaller in the browser and the identity
// goes through; a reload keeps the profile typed so far, and sending it drops the
// draft; a payment page left unpaid is replaced by the payoff page, which settles the
// loan; a resubmission without changing what the officer asked for is refused (40009)
// and accepted once it is changed. Each journey is photographed at 390×844 in
// English, Chinese and Filipino (`<name>`, `<name>-zh`, `<name>-fil`).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditor, makeJpeg, phone, repo, serverAndBrowser, shot, shotsDir } from './harness.mjs';
import { applyForLoan, approveByApi, choosePlace, eventually, register, sign, withdrawFromHome } from './steps.mjs';

let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

const LIMIT = 5 * 1024 * 1024;

/** The app's own words, so the Chinese and Filipino screens are checked as read. */
const read = (path) => JSON.parse(readFileSync(join(repo, 'web/src', path), 'utf8'));
const words = Object.fromEntries(
  ['en', 'zh', 'fil'].map((l) => [l, { ...read(`locales/${l}.json`), ...read(`features/orders/locales/${l}.json`) }]),
);

/**
 * Photographs the screen in English (`name`), Chinese and Filipino (`name-zh`,
 * `name-fil`), switching as a person's saved choice does (stored language, reload),
 * then back to English. `ready(language)` brings the screen back after each reload
 * and checks it reads in that language; `photo` takes the picture (default `shot`).
 */
async function inThreeLanguages(page, name, ready, photo = shot) {
  await photo(page, name);
  for (const language of ['zh', 'fil']) {
    await page.evaluate((l) => localStorage.setItem('language', l), language);
    await page.reload();
    await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
    await ready(language);
    await photo(page, `${name}-${language}`);
  }
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.reload();
  await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
  await ready('en');
}

/** A screenshot taken at once, for a notice that shows for two seconds (`shot` waits for it to go). */
async function shotNow(page, name) {
  await page.waitForTimeout(400); // the notice fades in
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/**
 * A phone-camera JPEG over 5 MB, made by Chromium's canvas at 4000×3000 and written
 * to a temporary file; `noisyRows` of its 3000 rows are random noise (which JPEG
 * cannot compress), the rest a smooth gradient. Returns the file's path and size.
 */
async function bigPhoto(page, dir, name, noisyRows) {
  const base64 = await page.evaluate(async (rows) => {
    const canvas = document.createElement('canvas');
    canvas.width = 4000;
    canvas.height = 3000;
    const ctx = canvas.getContext('2d');
    const gradient = ctx.createLinearGradient(0, 0, 4000, 3000);
    gradient.addColorStop(0, '#dbeafe');
    gradient.addColorStop(1, '#1e3a8a');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 4000, 3000);
    if (rows > 0) {
      const noise = ctx.createImageData(4000, rows);
      const pixels = new Uint32Array(noise.data.buffer);
      for (let i = 0; i < pixels.length; i += 1) pixels[i] = 0xff000000 | ((Math.random() * 0x1000000) >>> 0);
      ctx.putImageData(noise, 0, 0);
    }
    const blob = await new Promise((done) => canvas.toBlob(done, 'image/jpeg', 1.0));
    return new Promise((done) => {
      const reader = new FileReader();
      reader.onload = () => done(String(reader.result).split(',')[1]);
      reader.readAsDataURL(blob);
    });
  }, noisyRows);
  const bytes = Buffer.from(base64, 'base64');
  const path = join(dir, `${name}.jpg`);
  writeFileSync(path, bytes);
  return { path, size: bytes.length };
}

/** The identity step on `/identity` with the default small photos, ending on `/baseInfo`. */
async function identityStep(page, realName) {
  await page.goto('/identity');
  for (const [label, text] of [['ID front', 'FRONT'], ['ID back', 'BACK'], ['Holding ID', 'FACE']]) {
    await page.getByLabel(label).setInputFiles(await makeJpeg(page, text));
  }
  await fillIdentity(page, realName);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL('**/baseInfo');
}

async function fillIdentity(page, realName) {
  await page.getByRole('textbox', { name: 'Full name' }).fill(realName);
  await page.getByRole('textbox', { name: 'ID number' }).fill(String(Date.now()).slice(-9));
  await page.getByText('Female', { exact: true }).click();
  await page.getByLabel('Birthday').fill('1990-05-01');
  await page.getByLabel('Marital status').selectOption('Single');
}

/** The text of the option chosen in a `<select>`. */
const chosen = (select) => select.evaluate((s) => s.selectedOptions[0]?.textContent ?? '');

/** A borrower who has registered, completed the profile, signed and applied; returns the order id. */
async function applicant(page, realName) {
  await register(page, server);
  await identityStep(page, realName);
  await page.getByRole('textbox', { name: 'Email' }).fill(`j${Date.now()}@example.ph`);
  await choosePlace(page, { region: 'National Capital Region (NCR)', city: 'City of Manila' });
  await page.getByRole('textbox', { name: 'Address' }).fill('1 Rizal Street, Manila');
  await page.getByLabel('Education').selectOption('College');
  await page.getByLabel('Bank', { exact: true }).selectOption('BDO Unibank');
  await page.getByRole('textbox', { name: 'Account number' }).fill('123456789012');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await sign(page);
  await page.getByText('I have read and agree to the').click();
  const orderId = await applyForLoan(page);
  return orderId;
}

describe('every journey a borrower starts can be finished (issue 52)', () => {
  test('a phone photo over 5 MB is made smaller in the browser, the borrower is told, and the identity goes through', async (t) => {
    const { context, page } = await phone(browser, server.url);
    await register(page, server);
    await page.goto('/identity');
    await page.getByTestId('photos-needed').waitFor();
    const dir = mkdtempSync(join(tmpdir(), 'loan-e2e-photos-'));
    // A 6 MB photo (its top rows too detailed to compress), and the worst case: all noise.
    const phonePhoto = await bigPhoto(page, dir, 'phone-photo', 240);
    const noisyPhoto = await bigPhoto(page, dir, 'noisy-photo', 3000);
    for (const photo of [phonePhoto, noisyPhoto]) assert.ok(photo.size > LIMIT, `${photo.path} is ${photo.size} bytes, over 5 MB`);
    assert.ok(phonePhoto.size < 8 * 1024 * 1024, `a phone-sized photo: ${phonePhoto.size} bytes`);
    t.diagnostic(`photos of ${phonePhoto.size} and ${noisyPhoto.size} bytes`);

    // The front photo: shrunk, said so, and shown in its slot.
    const front = page.getByTestId('photo-frontImage');
    const chooseFront = async (language) => {
      await page.getByTestId('photo-frontImage').locator('input[type=file]').setInputFiles(phonePhoto.path);
      await page.getByText(words[language].photo_shrunk).waitFor({ timeout: 30000 });
      await front.locator('img').waitFor();
      assert.equal(await page.getByText(words[language].img_size_tips).count(), 1, 'only the hint under the photos, no refusal');
    };
    await chooseFront('en');
    // In each language: the reload drops the chosen photo (a file), so it is chosen again.
    await inThreeLanguages(page, 'journey-photo-shrunk', chooseFront, shotNow);

    // Back in English, the front photo chosen again: the other two are all noise.
    for (const key of ['backImage', 'handHoldImage']) {
      await page.getByTestId(`photo-${key}`).locator('input[type=file]').setInputFiles(noisyPhoto.path);
      await page.getByText('Photo made smaller to send.').waitFor({ timeout: 30000 });
      await page.getByTestId(`photo-${key}`).locator('img').waitFor();
    }
    await eventually(async () => assert.equal(await page.getByTestId('photos-needed').count(), 0, 'no photo is missing'));
    // Each kept photo is no larger than 2048 pixels.
    const sides = await page.locator('.photo-slot img').evaluateAll((imgs) => imgs.map((i) => Math.max(i.naturalWidth, i.naturalHeight)));
    assert.deepEqual(sides, [2048, 2048, 2048]);
    await fillIdentity(page, 'Hana Reyes');
    await shot(page, 'journey-photo-identity');
    // The identity is sent: the full profile follows, the photos on file, nothing refused.
    // (The server refuses a photo of 5 MB or more, and a request over 8 MB.)
    const response = page.waitForResponse((r) => r.url().includes('identity/apply'), { timeout: 60000 });
    await page.getByRole('button', { name: 'Next' }).click();
    const answer = await (await response).json();
    assert.equal(answer.code, 0, `identity/apply: ${JSON.stringify(answer)}`);
    await page.waitForURL('**/baseInfo', { timeout: 60000 });
    assert.equal(await page.getByTestId('form-error').count(), 0);
    for (const key of ['frontImage', 'backImage', 'handHoldImage']) await page.getByTestId(`photo-${key}`).locator('img').waitFor();
    assert.equal(await page.getByTestId('photos-needed').count(), 0);
    // The server keeps them too: three files, each under 5 MB.
    const uploads = join(server.dir, 'uploads');
    const files = readdirSync(uploads, { recursive: true })
      .map((f) => join(uploads, String(f)))
      .filter((f) => statSync(f).isFile());
    assert.ok(files.length >= 3, `uploads: ${files.length} files`);
    for (const f of files) assert.ok(statSync(f).size < LIMIT, `${f}: ${statSync(f).size} bytes`);

    // The profile is completed with them, and reads back with its three photos.
    await page.getByRole('textbox', { name: 'Email' }).fill(`hana${Date.now()}@example.ph`);
    await choosePlace(page, { region: 'National Capital Region (NCR)', city: 'City of Manila' });
    await page.getByRole('textbox', { name: 'Address' }).fill('3 Luna Street, Manila');
    await page.getByLabel('Education').selectOption('College');
    await page.getByLabel('Bank', { exact: true }).selectOption('BDO Unibank');
    await page.getByRole('textbox', { name: 'Account number' }).fill('123456789012');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/baseInfoDetail');
    await page.getByText('Hana Reyes').waitFor();
    for (const key of ['frontImage', 'backImage', 'handHoldImage']) {
      const img = page.getByTestId(`photo-${key}`).locator('img');
      await eventually(async () => assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0), `${key} shows`));
    }
    await shot(page, 'journey-photo-profile');
    rmSync(dir, { recursive: true, force: true });
    await context.close();
  });

  test('a reload keeps the profile typed so far; sending it goes through and drops the draft', async () => {
    const { context, page } = await phone(browser, server.url);
    const mobile = await register(page, server);
    await identityStep(page, 'Iris Santos');
    const email = `iris${Date.now()}@example.ph`;
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await choosePlace(page, { region: 'Region III (Central Luzon)', province: 'Pampanga', city: 'City of San Fernando' });
    await page.getByRole('textbox', { name: 'Address' }).fill('2 Mabini Street, San Fernando');
    await page.getByLabel('Education').selectOption('College');
    await page.getByLabel('Bank', { exact: true }).selectOption('Metrobank');
    await page.getByRole('textbox', { name: 'Account number' }).fill('9876543210');

    // A cheap phone reloads the page (the camera opened): nothing typed is lost.
    await page.reload();
    const field = (language, key) => page.getByRole('textbox', { name: words[language][key], exact: true });
    const typedIsThere = async (language) => {
      await eventually(async () => assert.equal(await field(language, 'email').inputValue(), email));
      assert.equal(await field(language, 'address').inputValue(), '2 Mabini Street, San Fernando');
      // The account number is never kept on the device: typed again.
      assert.equal(await field(language, 'card_no').inputValue(), '');
      assert.equal(await chosen(page.getByLabel(words[language].bank_name, { exact: true })), 'Metrobank');
    };
    await typedIsThere('en');
    assert.equal(await chosen(page.getByRole('combobox', { name: 'Region' })), 'Region III (Central Luzon)');
    assert.equal(await chosen(page.getByRole('combobox', { name: 'Province' })), 'Pampanga');
    assert.equal(await chosen(page.getByRole('combobox', { name: 'City / municipality' })), 'City of San Fernando');
    assert.equal(await chosen(page.getByLabel('Education')), 'College');
    // The identity step kept too (the same form).
    assert.equal(await page.getByRole('textbox', { name: 'Full name' }).inputValue(), 'Iris Santos');
    // Each language's reload keeps it as well.
    await inThreeLanguages(page, 'journey-draft-reloaded', typedIsThere);

    // The draft lives on this device until sent, without the account number.
    const draft = () => page.evaluate((m) => localStorage.getItem(`draft:profile:${m}`), mobile);
    assert.equal(JSON.parse((await draft()) ?? '{}').email, email);
    assert.equal((await draft())?.includes('9876543210'), false, 'no account number on the device');
    await page.getByRole('textbox', { name: 'Account number' }).fill('9876543210');
    assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), false, 'ready to send');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Saved', { exact: true }).waitFor();
    assert.equal(await draft(), null, 'sent: the draft is gone');
    // What was sent is the profile on file.
    await page.goto('/baseInfoDetail');
    const detail = async (language) => {
      await page.getByText(email).waitFor();
      await page.getByText('2 Mabini Street, San Fernando').waitFor();
      await page.getByText(/City of San Fernando, Pampanga/).waitFor();
      await page.getByText(/^\*+3210$/).waitFor();
      await page.getByText(words[language].base_info_detail_title).first().waitFor();
    };
    await detail('en');
    await inThreeLanguages(page, 'journey-draft-sent', detail);
    assert.equal(await draft(), null, 'reading the profile makes no draft');
    await context.close();
  });

  test('a payment page left unpaid is replaced by the payoff page, and paying it settles the loan', async () => {
    const { context, page } = await phone(browser, server.url);
    const orderId = await applicant(page, 'Joy Ramos');
    await approveByApi(server, orderId, 'journey-pay');
    await withdrawFromHome(page, { amount: '10000' });

    // One installment's payment page, opened and left unpaid (back to the app).
    await page.goto('/recharge');
    const owed = page.getByTestId('owed-today');
    await owed.waitFor();
    const owedText = (await owed.innerText()).trim();
    await page.getByRole('button', { name: 'Next installment' }).click();
    const amountBox = page.getByRole('textbox', { name: 'Repayment amount' });
    const installment = await amountBox.inputValue();
    assert.notEqual(installment, '');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/pay\/sandbox\//);
    const firstPage = page.url();
    await page.getByRole('heading', { name: 'Loan repayment' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).waitFor();
    await page.goBack();
    await page.waitForURL('**/recharge');
    await owed.waitFor();
    assert.equal((await owed.innerText()).trim(), owedText, 'nothing was paid');
    await inThreeLanguages(page, 'journey-payoff-recharge', async (language) => {
      await owed.waitFor();
      await page.getByRole('button', { name: words[language].recharge_pay_off_today }).waitFor();
    });

    // Pay off the whole loan instead: a new page opens (no 40011 any more).
    await page.getByRole('button', { name: 'Pay off today' }).click();
    assert.equal(await amountBox.inputValue(), owedText.replace('₱', ''), 'the whole amount owed today');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/pay/sandbox/') && url.href !== firstPage);
    const payoffPage = page.url();
    assert.equal(await page.getByTestId('recharge-error').count(), 0);
    await page.getByRole('heading', { name: 'Loan repayment' }).waitFor();
    await page.getByText(owedText).first().waitFor();
    await shot(page, 'journey-payoff-page');

    // The page left unpaid can no longer be paid.
    await page.goto(firstPage);
    await page.getByRole('heading', { name: 'Replaced by a newer payment page' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Pay' }).count(), 0);
    await shot(page, 'journey-payoff-old-page');

    // Paying the payoff page settles the loan.
    await page.goto(payoffPage);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await page.getByRole('link', { name: 'Back to repayment details' }).click();
    await page.waitForURL('**/repayDetail');
    await page.getByTestId('loan-repaid').waitFor({ timeout: 30000 });
    await inThreeLanguages(page, 'journey-payoff-repaid', () => page.getByTestId('loan-repaid').waitFor({ timeout: 30000 }));
    // The order reads repaid; its timeline tells the repayment, not the pages (the
    // one replaced moved no money).
    await page.goto(`/detail/${orderId}`);
    const timeline = async (language) => {
      await page.getByTestId('status-tag').getByText(words[language].status_10).waitFor();
      await page.getByText(words[language].timeline_LoanRepaid).first().waitFor();
      assert.equal(await page.getByText(words[language].timeline_PaymentSessionReplaced).count(), 0);
    };
    await timeline('en');
    await inThreeLanguages(page, 'journey-payoff-detail', timeline);
    await page.goto('/recharge');
    await page.getByTestId('nothing-owed').waitFor();
    await context.close();
  });

  test('a resubmission without changing what the officer asked for is refused (40009); changed, it is accepted', async () => {
    const { context, page } = await phone(browser, server.url);
    const orderId = await applicant(page, 'Kim Navarro');
    const officer = await auditor(server, `journey-fix-${orderId.slice(-6)}`);
    await officer.call('orders/startReview', { orderId });
    const reason = 'The address does not match your proof of billing';
    await officer.call('orders/requestResubmission', { orderId, reason, items: ['profile'] });

    // Home says what the officer asked for, in their words.
    const onHome = async (language) => {
      const notice = page.getByTestId('home-resubmission');
      await notice.getByText(reason, { exact: false }).waitFor();
      await notice.getByText(words[language].resubmission_item_profile).waitFor();
      await page.getByTestId('main-button').getByText(words[language].main_resubmit).waitFor();
    };
    // (The request reaches the borrower's reads a moment after the officer's answer.)
    await eventually(async () => {
      await page.goto('/');
      await page.getByTestId('home-resubmission').waitFor({ timeout: 3000 });
    }, 30000);
    await onHome('en');

    // The borrower opens the profile and sends it back as it was.
    await page.getByTestId('main-button').click();
    await page.waitForURL(`**/detail/${orderId}`);
    const panel = page.getByTestId('resubmission-panel');
    await panel.getByText(reason, { exact: false }).waitFor();
    await panel.getByRole('link', { name: 'Correct your profile' }).click();
    await page.waitForURL('**/baseInfo?then=**');
    const address = page.getByRole('textbox', { name: 'Address' });
    await eventually(async () => assert.equal(await address.inputValue(), '1 Rizal Street, Manila'));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`**/detail/${orderId}`);
    // Resubmit: refused, and the panel says why.
    const refusal = async (language) => {
      const answer = page.waitForResponse((r) => r.url().includes('loan/resubmit'));
      await panel.getByTestId('resubmit').click();
      assert.equal((await (await answer).json()).code, 40009);
      await panel.getByRole('alert').getByText(words[language].service_error_40009).waitFor();
      await panel.getByText(reason, { exact: false }).waitFor();
      assert.equal(await page.getByText(words[language].resubmitted).count(), 0);
    };
    await refusal('en');
    await inThreeLanguages(page, 'journey-resubmit-refused', refusal);
    // Nothing changed for the order: still waiting for the fix, the request still on home.
    await page.goto('/');
    await onHome('en');
    await inThreeLanguages(page, 'journey-resubmit-home', onHome);
    assert.equal((await officer.call('orders/detail', { orderId })).order.status, 2, 'still waiting for the fix');

    // The borrower changes the address and resubmits: accepted, back in review.
    await page.goto(`/detail/${orderId}`);
    await panel.getByRole('link', { name: 'Correct your profile' }).click();
    await page.waitForURL('**/baseInfo?then=**');
    await eventually(async () => assert.equal(await address.inputValue(), '1 Rizal Street, Manila'));
    await address.fill('9 Bonifacio Avenue, Manila');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`**/detail/${orderId}`);
    await panel.getByTestId('resubmit').click();
    await page.getByText('Resubmitted: your application is back in review').waitFor();
    await eventually(async () => assert.equal(await panel.count(), 0));
    await page.getByTestId('status-tag').getByText('Under review').waitFor();
    const accepted = async (language) => {
      await page.getByTestId('status-tag').getByText(words[language].status_under_review).waitFor();
      assert.equal(await page.getByTestId('resubmission-panel').count(), 0);
    };
    await inThreeLanguages(page, 'journey-resubmit-accepted', accepted);
    await page.goto('/');
    await page.getByTestId('main-button').waitFor();
    assert.equal(await page.getByTestId('home-resubmission').count(), 0, 'no request left on home');
    // The officer sees the order back in the queue, with the new address.
    await eventually(async () => {
      const detail = await officer.call('orders/detail', { orderId });
      assert.equal(detail.order.status, 0);
      assert.match(JSON.stringify(detail), /9 Bonifacio Avenue, Manila/);
    });
    await context.close();
  });
});
