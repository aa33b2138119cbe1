// The PH reference data in Chromium against the real api (PRODUCT.md 11, issue 15
// item 6): region → province → city/municipality chosen in the profile screen from
// the PSGC tree the server answers, NCR without provinces, the Philippine banks and
// e-wallets (an e-wallet takes the wallet's mobile number), and the server refusing
// a place that is not in its list. Photographed at 390×844 into e2e/screenshots/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeJpeg, phone, serverAndBrowser, shot, shotsDir } from './harness.mjs';
import { choosePlace, eventually, register } from './steps.mjs';

let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

const options = (select) => select.locator('option:not([disabled])').allTextContents();

/**
 * Photographs the options of the native select named `label` as the browser lists
 * them (a select's popup cannot be photographed; with `size` set it is a list box).
 */
async function shotOptions(page, label, name) {
  const select = page.locator(`select[aria-label="${label}"]`);
  await select.evaluate((el) => {
    el.size = Math.min(el.options.length, 16);
    el.style.height = 'auto';
    el.style.backgroundImage = 'none';
  });
  await select.screenshot({ path: join(shotsDir, `${name}.png`) });
  await select.evaluate((el) => {
    el.size = 0;
    el.style.height = '';
    el.style.backgroundImage = '';
  });
}

describe('PH reference data', () => {
  test('region → province → city and a GCash account are chosen in the profile', async () => {
    const { context, page } = await phone(browser, server.url);
    await register(page, server);
    await page.goto('/identity');
    for (const [label, text] of [['ID front', 'FRONT'], ['ID back', 'BACK'], ['Holding ID', 'FACE']]) {
      await page.getByLabel(label).setInputFiles(await makeJpeg(page, text));
    }
    await page.getByRole('textbox', { name: 'Full name' }).fill('Rosa Dela Cruz');
    await page.getByRole('textbox', { name: 'ID number' }).fill(String(Date.now()).slice(-9));
    await page.getByText('Female', { exact: true }).click();
    await page.getByLabel('Birthday').fill('1991-07-12');
    await page.getByLabel('Marital status').selectOption('Single');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/baseInfo');

    const region = page.getByRole('combobox', { name: 'Region' });
    const province = page.getByRole('combobox', { name: 'Province' });
    const city = page.getByRole('combobox', { name: 'City / municipality' });
    await page.locator('select[aria-label="Region"] option', { hasText: 'National Capital Region (NCR)' }).waitFor({ state: 'attached' });
    const regions = await options(region);
    assert.equal(regions.length, 18, 'the 18 PSGC regions');
    assert.equal(await province.isDisabled(), true, 'no province before a region');

    // A region with provinces: its provinces, then the province's cities.
    await region.selectOption('Region VII (Central Visayas)');
    assert.deepEqual(await options(province), ['Bohol', 'Cebu']);
    assert.equal(await city.isDisabled(), true, 'no city before a province');
    await province.selectOption('Cebu');
    const cebu = await options(city);
    assert.ok(cebu.includes('City of Cebu') && cebu.includes('City of Lapu-Lapu') && !cebu.includes('City of Tagbilaran'), cebu.join('|'));
    await city.selectOption('City of Cebu');
    await page.getByRole('textbox', { name: 'Email' }).fill(`rosa${Date.now()}@example.ph`);
    await page.getByRole('textbox', { name: 'Address' }).fill('45 Osmeña Blvd');
    await page.getByLabel('Education').selectOption('College');
    await shot(page, 'place-picker');
    await shotOptions(page, 'City / municipality', 'place-picker-cities');

    // NCR has no provinces: the picker says so and offers its cities directly.
    await choosePlace(page, { region: 'National Capital Region (NCR)', city: 'Quezon City' });
    assert.equal(await province.count(), 0, 'no province picker in NCR');
    const ncr = await options(city);
    assert.equal(ncr.length, 17, `NCR: 16 cities and Pateros, not Manila's districts: ${ncr.join('|')}`);
    assert.ok(!ncr.includes('Binondo'));

    // Philippine banks and e-wallets; an e-wallet takes the wallet's mobile number.
    const bank = page.getByLabel('Bank', { exact: true });
    const banks = await options(bank);
    for (const name of ['BDO Unibank', 'Land Bank of the Philippines', 'Metrobank', 'GCash', 'Maya']) assert.ok(banks.includes(name), name);
    assert.ok(!banks.some((b) => /Bangkok|Kasikorn|Thai/.test(b)), banks.join('|'));
    await shotOptions(page, 'Bank', 'bank-list');
    await bank.selectOption('GCash');
    const wallet = page.getByRole('textbox', { name: 'Wallet mobile number' });
    await wallet.fill('001234567890');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alert').getByText("Enter the wallet's mobile number: 11 digits starting with 09.").waitFor();
    await wallet.fill('09171234567');
    await shot(page, 'place-picker-ncr-gcash');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/baseInfoDetail');
    await page.getByText('Quezon City, National Capital Region (NCR)').waitFor();
    await page.goto('/bankInfoDetail');
    await page.getByText('GCash').first().waitFor();

    // The server is the authority: a place that is not in its list is refused (10004).
    const answer = await page.evaluate(async () => {
      const res = await fetch('/jackey/user/update', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('token')}` },
        body: JSON.stringify({ provinceCity: 'Region VII (Central Visayas),Bohol,City of Cebu' }),
      });
      return res.json();
    });
    assert.equal(answer.code, 10004, JSON.stringify(answer));
    assert.match(answer.msg, /provinceCity/);

    // The picker in Chinese, showing the saved place.
    await page.evaluate(() => localStorage.setItem('language', 'zh'));
    await page.goto('/baseInfo');
    await page.getByRole('combobox', { name: '地区' }).waitFor();
    // The tree arrives after the form: the saved city shows once it has.
    await eventually(async () => assert.equal(await page.getByRole('combobox', { name: '市 / 镇' }).inputValue(), 'Quezon City'));
    await page.getByTestId('no-province').getByText('无省份').waitFor();
    await shot(page, 'place-picker-zh');
    await context.close();
  });
});
