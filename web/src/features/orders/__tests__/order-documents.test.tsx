/**
 * The documents of an order (PRODUCT.md 12.5): the order page downloads the
 * server's contract, statement and a receipt per payment or refund as PDF with the
 * borrower's token and language; a refusal is shown, not saved. The console's
 * order page does the same with the auditor's token and lists the recorded
 * downloads.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { orderFixture, userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '@/features/admin/admin-app';
import { background, orderReview, signInConsole } from '@/features/admin/__tests__/fixtures';
import DetailScreen from '../detail-screen';
import { timelineFixture } from './fixtures';

const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37]); // %PDF-1.7

interface Seen {
  path: string;
  body: Record<string, unknown>;
  auth: string | null;
}

/** Answers `path` with a PDF, recording what was sent. */
function pdfAt(path: string, seen: Seen[]) {
  return http.post(`http://localhost${path}`, async ({ request }) => {
    seen.push({
      path,
      body: (await request.json()) as Record<string, unknown>,
      auth: request.headers.get('authorization'),
    });
    return new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } });
  });
}

/** The file names saved through a temporary link. */
function savedFiles(): string[] {
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

beforeEach(() => {
  let n = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => `blob:test-${(n += 1)}`), revokeObjectURL: vi.fn() }),
  );
});

afterEach(() => {
  vi.restoreAllMocks();
});

const receipts = [
  { receiptNo: 'OR-2611-000022', kind: 'payment', amount: '5000.00', at: '2026-11-24T01:52:26Z' },
  { receiptNo: 'RF-2611-000032', kind: 'refund', amount: '5000.00', at: '2026-11-24T01:52:27Z' },
];

function mountOrder(status: number) {
  server.use(
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    answer('jackey/loan/orderInfo', orderFixture({ status, orderNo: 'HL-2611-000009' })),
    answer('jackey/loan/orderTimeline', timelineFixture),
    answer('jackey/user/info', { ...userFixture(), hasWithdrawPin: true }),
    answer('jackey/loan/receipts', receipts),
  );
  return renderWithProviders(<DetailScreen />, {
    route: '/detail/o1',
    path: '/detail/:orderId',
    preloadedState: { session: { token: 't', redirect: null } },
  });
}

describe("the order page's documents", () => {
  it('downloads the contract, the statement and each receipt as the server’s PDF, with the token and language', async () => {
    const seen: Seen[] = [];
    server.use(
      pdfAt('/jackey/loan/contractPdf', seen),
      pdfAt('/jackey/loan/statementPdf', seen),
      pdfAt('/jackey/loan/receiptPdf', seen),
    );
    const files = savedFiles();
    const user = userEvent.setup();
    mountOrder(10);

    await user.click(await screen.findByRole('button', { name: /Download contract \(PDF\)/ }));
    await waitFor(() => expect(files).toEqual(['contract-HL-2611-000009.pdf']));
    await user.click(screen.getByRole('button', { name: /Statement \(PDF\)/ }));
    await user.click(await screen.findByRole('button', { name: /Refund receipt RF-2611-000032 · ₱5,000.00/ }));
    await user.click(screen.getByRole('button', { name: /^Receipt OR-2611-000022 · ₱5,000.00/ }));
    await waitFor(() => expect(files).toHaveLength(4));

    expect(files).toEqual([
      'contract-HL-2611-000009.pdf',
      'statement-HL-2611-000009.pdf',
      'receipt-RF-2611-000032.pdf',
      'receipt-OR-2611-000022.pdf',
    ]);
    expect(seen.map((s) => [s.path, s.body, s.auth])).toEqual([
      ['/jackey/loan/contractPdf', { loanOrderId: 'o1', lang: 'en' }, 'Bearer t'],
      ['/jackey/loan/statementPdf', { loanOrderId: 'o1', lang: 'en' }, 'Bearer t'],
      ['/jackey/loan/receiptPdf', { loanOrderId: 'o1', receiptNo: 'RF-2611-000032', lang: 'en' }, 'Bearer t'],
      ['/jackey/loan/receiptPdf', { loanOrderId: 'o1', receiptNo: 'OR-2611-000022', lang: 'en' }, 'Bearer t'],
    ]);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]?.[0] as Blob;
    expect(blob.type).toBe('application/pdf');
  });

  it('shows a refusal in words and saves nothing', async () => {
    server.use(fail('jackey/loan/contractPdf', 40007, 'record not found'));
    const files = savedFiles();
    const user = userEvent.setup();
    mountOrder(9);

    await user.click(await screen.findByRole('button', { name: /Download contract \(PDF\)/ }));
    expect(await screen.findByText(/record not found|not found/i)).toBeInTheDocument();
    expect(files).toEqual([]);
    expect(screen.queryByTestId('receipts')).toBeNull();
  });
});

describe("the console order page's documents", () => {
  it('downloads with the auditor token and lists who downloaded what', async () => {
    const seen: Seen[] = [];
    signInConsole();
    server.use(...background);
    server.use(
      answer('admin/api/orders/detail', orderReview(10)),
      answer('admin/api/orders/history', { events: [], state: {}, atSequence: 0 }),
      answer('admin/api/documents/receipts', receipts),
      answer('admin/api/documents/downloads', [
        {
          at: '2026-11-24T01:52:28Z',
          actor: 'user:u1',
          actorName: null,
          document: 'receipt',
          receiptNo: 'OR-2611-000022',
          lang: 'zh',
        },
        { at: '2026-11-24T01:53:00Z', actor: 'auditor:a-1', actorName: 'alice', document: 'contract', receiptNo: null, lang: 'en' },
      ]),
      pdfAt('/admin/api/documents/contractPdf', seen),
    );
    const files = savedFiles();
    const user = userEvent.setup();
    renderWithProviders(<AdminApp />, { route: '/admin/orders/o1', path: '/admin/*' });

    const rows = await screen.findAllByTestId('admin-download');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('BorrowerReceipt OR-2611-000022zh'),
      expect.stringContaining('aliceContracten'),
    ]);
    expect(screen.getByRole('button', { name: /Refund receipt RF-2611-000032/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Contract \(PDF\)/ }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(seen[0]).toMatchObject({
      path: '/admin/api/documents/contractPdf',
      body: { orderId: 'o1', lang: 'en' },
      auth: 'Bearer admin-token',
    });
  });
});
