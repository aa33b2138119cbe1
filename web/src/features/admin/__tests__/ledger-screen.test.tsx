/**
 * The ledger: the trial balance's sum is shown prominently, green and
 * "Balanced" when it reads zero, red otherwise; the journal shows each entry's
 * postings as debits and credits and filters by order id or account.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { isZero } from '../ledger-screen';
import type { JournalPage } from '@/lib/api-types';
import { background, signInConsole, trialBalance } from './fixtures';

const journal: JournalPage = {
  total: 1,
  page: 1,
  pageSize: 25,
  entries: [
    {
      entryId: 'Order/o1/5',
      at: '2026-11-22T07:19:19.291829Z',
      orderId: 'o1',
      orderNo: 'HL-2611-000123',
      code: 'payout_sent',
      description: "payout sent to the borrower's bank",
      postings: [
        { postingNo: 1, account: 'payout_clearing', kind: 'payout_clearing', orderNo: null, holder: null, amount: '30000.00' },
        { postingNo: 2, account: 'lender_cash', kind: 'lender_cash', orderNo: null, holder: null, amount: '-30000.00' },
      ],
    },
  ],
};

function mount(sum: string, route = '/admin/ledger') {
  signInConsole();
  const bodies: unknown[] = [];
  server.use(
    ...background,
    answer('admin/api/ledger/trialBalance', trialBalance(sum)),
    http.post('http://localhost/admin/api/ledger/journal', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ code: 0, msg: 'ok', data: journal });
    }),
  );
  return { ...renderWithProviders(<AdminApp />, { route, path: '/admin/*' }), bodies };
}

describe('the trial balance', () => {
  it('reads zero in green, as balanced', async () => {
    mount('0.00');
    const sum = await screen.findByTestId('trial-balance-sum');
    expect(sum).toHaveTextContent('₱0.00');
    expect(sum).toHaveAttribute('data-zero', 'true');
    const banner = sum.closest('.admin-sum');
    expect(banner).toHaveClass('admin-sum--zero');
    expect(banner).not.toHaveClass('admin-sum--off');
    expect(within(banner as HTMLElement).getByText('Balanced')).toBeInTheDocument();
  });

  it('shows a sum that is not zero in red, as out of balance', async () => {
    mount('-5.00');
    const sum = await screen.findByTestId('trial-balance-sum');
    expect(sum).toHaveTextContent('-₱5.00');
    expect(sum).toHaveAttribute('data-zero', 'false');
    expect(sum.closest('.admin-sum')).toHaveClass('admin-sum--off');
    expect(screen.getByText('Out of balance: the books need attention')).toBeInTheDocument();
  });

  it('lists the account balances as debits and credits with equal totals', async () => {
    mount('0.00');
    const table = (await screen.findByText('Interest income')).closest('table') as HTMLElement;
    const totals = within(table).getByText('Totals').closest('tr') as HTMLElement;
    expect(within(totals).getAllByText('₱30,360.00')).toHaveLength(2);
    // A settled account reads ₱0.00, not two empty cells.
    const settled = within(table).getByText('Payouts in transit (bank)').closest('tr') as HTMLTableRowElement;
    expect(settled.cells[2]).toHaveTextContent('₱0.00');
    expect(settled.cells[3]).toHaveTextContent(/^$/);
  });

  it('names each account for people, keeping the journal\'s name as the tooltip', async () => {
    mount('0.00');
    const table = (await screen.findByText('Interest income')).closest('table') as HTMLElement;
    const names = within(table)
      .getAllByRole('button')
      .map((button) => [button.textContent, button.getAttribute('title')]);
    expect(names).toEqual([
      ['Interest income', 'interest_income · Show this account\'s entries'],
      ['Lender cash', 'lender_cash · Show this account\'s entries'],
      ['Loan receivable · HL-2611-000123', 'loan_receivable:o1 · Show this account\'s entries'],
      ['Payouts in transit (bank)', 'payout_clearing · Show this account\'s entries'],
      [
        'Borrower wallet · Ana Santos',
        'borrower_wallet:01a2021f-9257-71fc-94b1-89cc8b30bcdd · Show this account\'s entries',
      ],
    ]);
    expect(within(table).queryByText(/01a2021f/)).not.toBeInTheDocument();
  });

  it.each([
    ['0.00', true],
    ['-0.00', true],
    ['0', true],
    ['0.01', false],
    ['-12.30', false],
    ['', false],
  ])('isZero(%j) is %s', (sum, zero) => {
    expect(isZero(sum)).toBe(zero);
  });
});

describe('the journal', () => {
  it('shows each entry with its postings and filters by order number or account', async () => {
    const user = userEvent.setup();
    const { bodies, router } = mount('0.00');
    const entry = await screen.findByTestId('journal-entry');
    expect(within(entry).getByText("Payout sent to the borrower's bank")).toBeInTheDocument();
    expect(within(entry).getAllByText('₱30,000.00')).toHaveLength(2);
    expect(bodies[0]).toEqual({ page: 1, pageSize: 25 });

    expect(screen.getByLabelText('Order number')).toHaveAttribute('placeholder', 'HL-2611-000010');
    await user.type(screen.getByLabelText('Order number'), 'HL-2611-000123');
    await user.type(screen.getByLabelText('Account'), 'lender_cash');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(screen.getByText('Filter by an order number or by an account, not both.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Account'));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(bodies.at(-1)).toEqual({ orderId: 'HL-2611-000123', page: 1, pageSize: 25 }));
    expect(router.state.location.search).toBe('?orderId=HL-2611-000123');

    const entry2 = screen.getByTestId('journal-entry');
    expect(within(entry2).getByRole('link', { name: 'HL-2611-000123' })).toHaveAttribute('title', 'o1');
    await user.click(within(entry2).getByRole('button', { name: 'Lender cash' }));
    await waitFor(() => expect(bodies.at(-1)).toEqual({ account: 'lender_cash', page: 1, pageSize: 25 }));
  });
});
