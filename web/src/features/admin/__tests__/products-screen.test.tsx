/**
 * `/admin/products` (issue 55): each product with its version in force, its terms,
 * every version and the proposals; "Propose a change" sends the edited terms with a
 * reason and a fresh proposal id; Approve and Reject (with a reason) decide another's
 * proposal; the server's refusals (50006 approving one's own, 50007 a cap) are shown.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { Wire } from '@/lib/wire';
import AdminApp from '../admin-app';
import { localToUtc } from '../products-screen';
import { access, ALICE, background, BOB, signInConsole } from './fixtures';

type ProductLine = Wire['ProductLineView'];
type ProductTerms = Wire['ProductTerms'];

function terms(overrides: Partial<ProductTerms> = {}): ProductTerms {
  return {
    name: 'Cash Loan',
    enabled: true,
    amountMin: '800.00',
    amountMax: '30000.00',
    amountStep: '100.00',
    rateConfigs: [
      { periodDays: 6, dailyRatePct: '0.2' },
      { periodDays: 24, dailyRatePct: '0.15' },
    ],
    processingFeePct: '0',
    overdueDailyRatePct: '0',
    maxTotalCostPct: '100',
    coolingOffDays: 7,
    offerValidDays: 3,
    repayMin: '1.00',
    repayMax: '200.00',
    extensionDays: [7],
    maxExtensions: 1,
    maxIncomeSharePct: null,
    ...overrides,
  };
}

const PENDING = '0192a3b4-0000-7000-8000-000000000002';

function product(): ProductLine {
  return {
    productId: 1,
    inForce: 1,
    versions: [
      { version: 0, effectiveAt: null, terms: terms({ rateConfigs: [{ periodDays: 6, dailyRatePct: '0.25' }, { periodDays: 24, dailyRatePct: '0.2' }] }) },
      { version: 1, effectiveAt: '2026-11-20T08:00:00Z', terms: terms() },
    ],
    proposals: [
      {
        proposalId: PENDING,
        status: 'pending',
        terms: terms({ rateConfigs: [{ periodDays: 6, dailyRatePct: '0.18' }, { periodDays: 24, dailyRatePct: '0.15' }] }),
        effectiveAt: '2026-12-01T00:00:00Z',
        baseVersion: 1,
        maker: { staffId: ALICE.auditorId, username: 'alice' },
        reason: 'match the market',
        version: null,
        checker: null,
        rejection: null,
      },
      {
        proposalId: '0192a3b4-0000-7000-8000-000000000001',
        status: 'approved',
        terms: terms(),
        effectiveAt: '2026-11-20T08:00:00Z',
        baseVersion: 0,
        maker: { staffId: BOB.auditorId, username: 'bob' },
        reason: 'lower rates',
        version: 1,
        checker: { staffId: ALICE.auditorId, username: 'alice' },
        rejection: null,
      },
    ],
  };
}

interface Call {
  path: string;
  body: Record<string, unknown>;
}

function mount(lines: ProductLine[] = [product()]) {
  signInConsole(ALICE, 'admin-token', ['admin']);
  const calls: Call[] = [];
  const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'ok', data });
  server.use(...background);
  server.use(
    http.post('http://localhost/admin/api/me', () => ok(access(['admin']))),
    http.post('http://localhost/admin/api/products/list', () => ok(lines)),
    http.post('http://localhost/admin/api/products/:action', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: String(params.action), body });
      switch (params.action) {
        case 'propose': {
          const sent = body.terms as ProductTerms;
          if (sent.rateConfigs.some((rate) => Number(rate.dailyRatePct) > 1)) {
            return HttpResponse.json({ code: 50007, msg: 'the daily rate cap (1 % per day) is broken for 6 days', data: null });
          }
          return ok({ proposalId: body.proposalId });
        }
        case 'approve':
          return HttpResponse.json({ code: 50006, msg: 'a second staff member must approve this', data: null });
        case 'reject':
          return ok(null);
        default:
          return HttpResponse.json({ code: 10004, msg: 'unknown', data: null });
      }
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route: '/admin/products', path: '/admin/*' });
  return { ...rendered, calls };
}

describe('the products screen', () => {
  it('lists a product: the version in force, its terms, the versions and the proposals', async () => {
    mount();
    const line = await screen.findByTestId('product-line');
    expect(within(line).getByRole('heading', { name: 'Cash Loan', level: 2 })).toBeInTheDocument();
    expect(within(line).getByTestId('product-in-force')).toHaveTextContent('Version 1 in force');
    const rates = within(line).getAllByTestId('product-rate');
    expect(rates.map((row) => row.textContent)).toEqual(['6 days0.2 % per day', '24 days0.15 % per day']);

    const versions = within(line).getAllByTestId('product-version');
    expect(versions).toHaveLength(2);
    expect(versions[0]).toHaveTextContent('6 days: 0.2 %/day · 24 days: 0.15 %/day');
    expect(versions[0]).toHaveTextContent(/2026/);
    expect(versions[1]).toHaveTextContent('From the start (configuration)');
    expect(versions[1]).toHaveTextContent('6 days: 0.25 %/day');

    const [pending, approved] = within(line).getAllByTestId('product-proposal');
    expect(pending).toHaveTextContent('Pending');
    expect(pending).toHaveTextContent('alice');
    expect(pending).toHaveTextContent('match the market');
    expect(pending).toHaveTextContent('6 days: 0.18 %/day');
    expect(pending).toHaveTextContent('6-day rate 0.2 → 0.18 %/day');
    expect(within(pending).getByRole('button', { name: 'Approve the proposal by alice' })).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: 'Reject the proposal by alice' })).toBeInTheDocument();
    expect(approved).toHaveTextContent('Approved');
    expect(approved).toHaveTextContent('Became version 1');
    expect(approved).toHaveTextContent('6-day rate 0.25 → 0.2 %/day, 24-day rate 0.2 → 0.15 %/day');
    expect(within(approved).queryByRole('button')).not.toBeInTheDocument();

    // The form starts from the latest approved version (here the one in force).
    const form = within(line).getByTestId('product-propose');
    expect(within(form).getByLabelText('Daily rate (% per day), 6 days')).toHaveValue('0.2');
    expect(within(form).getByLabelText('Daily rate (% per day), 24 days')).toHaveValue('0.15');
    expect(within(form).getByLabelText('Smallest amount')).toHaveValue('800.00');
    expect(within(form).getByLabelText('Open for applications (borrowers may apply)')).toBeChecked();
  });

  it('starts the form from the latest approved version, a scheduled one, and names what each proposal changes', async () => {
    const user = userEvent.setup();
    const inForce = terms({ rateConfigs: [{ periodDays: 6, dailyRatePct: '0.2' }, { periodDays: 12, dailyRatePct: '0.15' }] });
    const scheduled = terms({ rateConfigs: [{ periodDays: 6, dailyRatePct: '0.2' }, { periodDays: 12, dailyRatePct: '0.1' }], processingFeePct: '1' });
    const line: ProductLine = {
      productId: 1,
      inForce: 1,
      versions: [
        { version: 0, effectiveAt: null, terms: terms() },
        { version: 1, effectiveAt: '2026-11-20T08:00:00Z', terms: inForce },
        { version: 2, effectiveAt: '2099-01-01T00:00:00Z', terms: scheduled },
      ],
      proposals: [
        {
          proposalId: PENDING,
          status: 'pending',
          terms: { ...scheduled, amountMin: '1000.00' },
          effectiveAt: '2099-02-01T00:00:00Z',
          baseVersion: 2,
          maker: { staffId: BOB.auditorId, username: 'bob' },
          reason: 'larger loans',
          version: null,
          checker: null,
          rejection: null,
        },
        {
          proposalId: '0192a3b4-0000-7000-8000-000000000003',
          status: 'approved',
          terms: scheduled,
          effectiveAt: '2099-01-01T00:00:00Z',
          baseVersion: 1,
          maker: { staffId: BOB.auditorId, username: 'bob' },
          reason: 'new year',
          version: 2,
          checker: { staffId: ALICE.auditorId, username: 'alice' },
          rejection: null,
        },
      ],
    };
    const { calls } = mount([line]);
    const section = await screen.findByTestId('product-line');

    // The terms shown are still the version in force; the scheduled one is marked in the versions.
    expect(within(section).getByTestId('product-in-force')).toHaveTextContent('Version 1 in force');
    expect(within(section).getAllByTestId('product-rate').map((row) => row.textContent)).toEqual(['6 days0.2 % per day', '12 days0.15 % per day']);
    const versions = within(section).getAllByTestId('product-version');
    expect(versions[0]).toHaveTextContent('Scheduled');
    expect(versions[1]).toHaveTextContent('in force');
    expect(versions[1]).not.toHaveTextContent('Scheduled');
    expect(versions[2]).not.toHaveTextContent('Scheduled');

    // Each proposal names what it changes from its base version.
    const [pending, approved] = within(section).getAllByTestId('product-proposal');
    expect(pending).toHaveTextContent('amounts');
    expect(pending).not.toHaveTextContent('12-day rate');
    expect(approved).toHaveTextContent('12-day rate 0.15 → 0.1 %/day, processing fee');

    // The form starts from the scheduled version 2, not the one in force.
    const form = within(section).getByTestId('product-propose');
    expect(within(form).getByLabelText('Daily rate (% per day), 12 days')).toHaveValue('0.1');
    expect(within(form).getByLabelText('Processing fee (% of the principal)')).toHaveValue('1');
    await user.type(within(form).getByLabelText('Reason'), 'on top of the new year');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({
      terms: { processingFeePct: '1', rateConfigs: [{ periodDays: 6, dailyRatePct: '0.2' }, { periodDays: 12, dailyRatePct: '0.1' }] },
    });
  });

  it('proposes a change: the edited rate as dailyRatePct, the reason, a fresh proposal id, the moment in UTC', async () => {
    const user = userEvent.setup();
    const { calls } = mount();
    const form = await screen.findByTestId('product-propose');

    // Nothing is sent without a reason.
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    expect(await within(form).findByText('Please enter a reason.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    const rate = within(form).getByLabelText('Daily rate (% per day), 24 days');
    await user.clear(rate);
    await user.type(rate, '0.12');
    await user.type(within(form).getByLabelText('Takes effect at'), '2026-12-24T09:30');
    await user.type(within(form).getByLabelText('Reason'), 'year-end offer');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));

    expect(await within(form).findByRole('status')).toHaveTextContent('Change proposed');
    expect(calls).toHaveLength(1);
    const { path, body } = calls[0];
    expect(path).toBe('propose');
    expect(body).toMatchObject({
      productId: 1,
      reason: 'year-end offer',
      effectiveAt: localToUtc('2026-12-24T09:30'),
      terms: {
        name: 'Cash Loan',
        amountMin: '800.00',
        maxTotalCostPct: '100',
        rateConfigs: [
          { periodDays: 6, dailyRatePct: '0.2' },
          { periodDays: 24, dailyRatePct: '0.12' },
        ],
      },
    });
    expect(body.proposalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(within(form).getByLabelText('Reason')).toHaveValue('');

    // A second submission is a new proposal, with its own id; no moment: as soon as approved.
    await user.type(within(form).getByLabelText('Reason'), 'again');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].body.proposalId).not.toBe(body.proposalId);
    expect(calls[1].body).not.toHaveProperty('effectiveAt');
  });

  it('shows a broken compliance cap (50007) with the cap the server names', async () => {
    const user = userEvent.setup();
    const { calls } = mount();
    const form = await screen.findByTestId('product-propose');
    const rate = within(form).getByLabelText('Daily rate (% per day), 6 days');
    await user.clear(rate);
    await user.type(rate, '2');
    await user.type(within(form).getByLabelText('Reason'), 'too high');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Breaks a compliance cap: the daily rate cap (1 % per day) is broken for 6 days',
    );
    expect(calls).toHaveLength(1);
  });

  it('shows the refusal when the maker approves their own proposal (50006)', async () => {
    const user = userEvent.setup();
    const { calls } = mount();
    const line = await screen.findByTestId('product-line');
    const [pending] = within(line).getAllByTestId('product-proposal');
    await user.click(within(pending).getByRole('button', { name: /^Approve/ }));
    expect(await within(line).findByTestId('admin-action-error')).toHaveTextContent(
      'Another staff member must approve this: the one who proposed it cannot confirm it.',
    );
    expect(calls).toEqual([{ path: 'approve', body: { productId: 1, proposalId: PENDING } }]);
  });

  it('rejects a proposal with a reason', async () => {
    // The dialog animates in (antd-mobile): its buttons take clicks before the animation ends.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { calls } = mount();
    const line = await screen.findByTestId('product-line');
    const [pending] = within(line).getAllByTestId('product-proposal');
    await user.click(within(pending).getByRole('button', { name: /^Reject/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the proposal by alice' });
    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'rates too low');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(line).findByText('Proposal rejected.')).toBeInTheDocument();
    expect(calls).toEqual([{ path: 'reject', body: { productId: 1, proposalId: PENDING, reason: 'rates too low' } }]);
  });
});
