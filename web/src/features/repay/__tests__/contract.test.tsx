import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { disclosureFixture, userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import type { Disclosure } from '@/lib/api-types';
import ContractScreen from '../contract-screen';
import { contractDisclosure } from '../contract-model';
import { disbursedOrder } from './fixtures';

/** The disclosure exactly as the api sends it (camelCase, lender in snake_case). */
const wireDisclosure: Disclosure = {
  aprPct: '247.55',
  coolingOffDays: 7,
  dailyRatePct: '0.20',
  effectiveMonthlyRatePct: '10.78',
  interest: '600.00',
  lender: {
    legal_name: 'Honest Lending Corporation',
    licence_no: 'SEC Certificate of Authority No. 3120',
    registration_no: 'CS201912345',
  },
  maxTotalCostPct: '100',
  netAmount: '50000.00',
  notice: 'We never ask you to pay to receive a loan.',
  overdueDailyRatePct: '0',
  perPeriodPayment: '8433.30',
  periodDays: 6,
  principal: '50000.00',
  processingFee: '0.00',
  schedule: [
    { amount: '8433.30', period: 1 },
    { amount: '8433.50', period: 6 },
  ],
  totalRepayable: '50600.00',
};

describe('contractDisclosure', () => {
  it('is the api disclosure with the due days from the schedule once paid out', () => {
    const disclosure = contractDisclosure(disbursedOrder({ disclosure: wireDisclosure }));
    expect(disclosure).toEqual({
      ...wireDisclosure,
      schedule: [
        { period: 1, dueDate: '2026-11-23', amount: '8433.30' },
        { period: 6, dueDate: '2026-11-28', amount: '8433.50' },
      ],
    });
  });

  it('has no due days before payout, and nothing without a disclosure', () => {
    const disclosure = contractDisclosure({ disclosure: disclosureFixture, periodViews: [] });
    expect(disclosure?.totalRepayable).toBe('102400.00');
    expect(disclosure?.schedule[0]).toEqual({ period: 1, dueDate: undefined, amount: '4266.67' });
    expect(contractDisclosure({ disclosure: null, periodViews: [] })).toBeNull();
  });
});

describe('the contract screen', () => {
  const signedIn = { session: { token: 'tok-1', redirect: null } };
  let authorization: string | null = null;

  beforeEach(() => {
    authorization = null;
    let n = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:test-${(n += 1)}`), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  function mount(order: unknown) {
    server.use(
      answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
      answer('jackey/loan/getCustomerService', null),
      order ? answer('jackey/loan/orderInfo', order) : fail('jackey/loan/orderInfo', 40007, 'record not found'),
      answer('jackey/user/info', userFixture({ signatureImg: '/files/signature/u1/abc.png' })),
      http.get('http://localhost/files/signature/u1/abc.png', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return new HttpResponse(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } });
      }),
    );
    return renderWithProviders(<ContractScreen />, { route: '/contract', preloadedState: signedIn });
  }

  it('shows the parties, the disclosure, the notice and the signature fetched with the token', async () => {
    mount(disbursedOrder({ disclosure: wireDisclosure }));
    const contract = await screen.findByTestId('contract');
    expect(contract).toHaveTextContent('Honest Lending Corporation');
    expect(contract).toHaveTextContent('CS201912345');
    expect(contract).toHaveTextContent('SEC Certificate of Authority No. 3120');
    expect(contract).toHaveTextContent('Ana Cruz');
    const disclosure = screen.getByTestId('contract-disclosure');
    for (const text of ['₱50,000.00', '₱600.00', '₱50,600.00', '₱8,433.30 × 5, then ₱8,433.50', '0.20%', '247.55%', '10.78%']) {
      expect(disclosure).toHaveTextContent(text);
    }
    expect(disclosure).toHaveTextContent('Nov 23, 2026');
    expect(disclosure).toHaveTextContent('We never ask you to pay to receive a loan.');
    const signature = await screen.findByRole('img', { name: 'Signature of the borrower' });
    expect(signature.getAttribute('src')).toMatch(/^blob:test-/);
    expect(authorization).toBe('Bearer tok-1');
  });

  it("downloads the server's PDF of the contract with the borrower's token and language", async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let asked: { authorization: string | null; body: unknown } | null = null;
    server.use(
      http.post('http://localhost/jackey/loan/contractPdf', async ({ request }) => {
        asked = { authorization: request.headers.get('Authorization'), body: await request.json() };
        return new HttpResponse(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } });
      }),
    );
    mount(disbursedOrder({ disclosure: wireDisclosure, orderNo: 'HL-2611-000123' }));
    await screen.findByRole('img', { name: 'Signature of the borrower' });
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const anchor = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(anchor.download).toBe('contract-HL-2611-000123.pdf');
    expect(asked).toEqual({ authorization: 'Bearer tok-1', body: { loanOrderId: 'o1', lang: 'en' } });
    const blob = vi.mocked(URL.createObjectURL).mock.calls.at(-1)?.[0] as Blob;
    expect(blob.type).toBe('application/pdf');
    click.mockRestore();
  });

  it('says why when the server refuses the download', async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    server.use(fail('jackey/loan/contractPdf', 40007, 'record not found'));
    mount(disbursedOrder({ disclosure: wireDisclosure }));
    await screen.findByRole('img', { name: 'Signature of the borrower' });
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText(/./, { selector: '.adm-toast-main *' })).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
    click.mockRestore();
  });

  it.each([
    ['no order', null],
    ['an order without a disclosure', disbursedOrder({ disclosure: null })],
  ])('says there is no contract with %s', async (_name, order) => {
    mount(order);
    expect(await screen.findByText('You have no contract yet.')).toBeInTheDocument();
  });
});
