// PDF documents from the order page (PRODUCT.md 12.5, issue 16 item 1), in Chromium
// against the real api: a borrower draws a loan and repays part of it; on the order
// page "Download contract (PDF)", "Statement (PDF)" and the payment's receipt each
// save the server's PDF (checked to start with %PDF), and the console lists the
// downloads. Photographed at 390×844 (detail-documents.png).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { auditor, phone, serverAndBrowser, shot } from './harness.mjs';
import { applyForLoan, approveByApi, completeProfile, register, repay, sign, withdrawFromHome } from './steps.mjs';

let server;
let browser;
serverAndBrowser((started) => ({ server, browser } = started));

/**
 * Clicks `button` and returns the saved file's name and bytes. A debug build renders
 * the first PDF (fonts parsed, shaped) in seconds, longer on a busy CI machine running
 * two journeys at once: the wait is longer than the context's 15 s.
 */
async function download(page, button) {
  const [saved] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), button.click()]);
  const path = await saved.path();
  return { name: saved.suggestedFilename(), bytes: await readFile(path) };
}

describe('documents', () => {
  test('the order page downloads the contract, the statement and a receipt as PDF', async () => {
    const { context, page } = await phone(browser, server.url);
    await register(page, server);
    await completeProfile(page, { realName: 'Rosa Dela Cruz' });
    await sign(page);
    await page.getByText('I have read and agree to the').click();
    const orderId = await applyForLoan(page);
    await approveByApi(server, orderId, 'docs');
    await withdrawFromHome(page, { amount: '10000' });
    await repay(page, ['1000']);

    await page.goto(`/detail/${orderId}`);
    const documents = page.getByTestId('order-documents');
    const receipt = documents.getByRole('button', { name: /^Receipt OR-/ });
    await receipt.waitFor();
    await documents.scrollIntoViewIfNeeded();
    await shot(page, 'detail-documents');

    const contract = await download(page, documents.getByRole('button', { name: 'Download contract (PDF)' }));
    assert.match(contract.name, /^contract-HL-\d{4}-\d{6}\.pdf$/);
    assert.equal(contract.bytes.subarray(0, 5).toString(), '%PDF-');
    const statement = await download(page, documents.getByRole('button', { name: 'Statement (PDF)' }));
    assert.equal(statement.bytes.subarray(0, 5).toString(), '%PDF-');
    const paid = await download(page, receipt);
    assert.match(paid.name, /^receipt-OR-\d{4}-\d{6}\.pdf$/);
    assert.equal(paid.bytes.subarray(0, 5).toString(), '%PDF-');

    // Each download is recorded for the auditors.
    const officer = await auditor(server, `docs-c-${orderId.slice(-6)}`);
    const recorded = await officer.call('documents/downloads', { orderId });
    assert.deepEqual(
      recorded.map((d) => d.document),
      ['contract', 'statement', 'receipt'],
    );
    await context.close();
  });
});
