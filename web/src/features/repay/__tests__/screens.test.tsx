import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { Order } from '@/lib/api-types';
import RepayDetailScreen from '../repay-detail-screen';
import TransactionsScreen from '../transactions-screen';
import { disbursedOrder } from './fixtures';

const signedIn = { session: { token: 't', redirect: null } };
const base = () => [
  answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
  answer('jackey/loan/getCustomerService', null),
];

describe('the repayment schedule', () => {
  function mount(order: Order | null) {
    server.use(...base(), order ? answer('jackey/loan/orderInfo', order) : fail('jackey/loan/orderInfo', 40007, 'record not found'));
    return renderWithProviders(<RepayDetailScreen />, {
      route: '/repayDetail',
      preloadedState: signedIn,
      others: { '/recharge': <p>recharge page</p> },
    });
  }

  it('lists the installments with their status and the totals, with Repay while repaying', async () => {
    const user = userEvent.setup();
    const order = disbursedOrder();
    order.periodViews[0] = { ...order.periodViews[0], paid: '8433.30', status: 1 };
    order.periodViews[1] = { ...order.periodViews[1], status: 2 };
    order.periodViews[3] = { ...order.periodViews[3], paid: '100.00', status: 0 };
    const { router } = mount(order);
    const rows = await screen.findAllByTestId('installment');
    expect(rows).toHaveLength(6);
    expect(within(rows[0]).getByText('Repaid')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Overdue')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Unpaid')).toBeInTheDocument();
    expect(within(rows[3]).getByText('Partly paid')).toBeInTheDocument();
    expect(rows[5]).toHaveTextContent('₱8,433.50');
    const totals = screen.getByRole('region', { name: 'Totals' });
    for (const text of ['₱50,000.00', '₱600.00', '₱50,600.00', '₱1,000.00', '₱49,600.00']) {
      expect(totals).toHaveTextContent(text);
    }
    await user.click(screen.getByRole('button', { name: 'Repay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/recharge'));
  });

  it('shows a repaid loan as closed, without Repay', async () => {
    mount(disbursedOrder({ status: 10, repaid: '50600.00', remaining: '0.00' }));
    expect(await screen.findByTestId('loan-repaid')).toHaveTextContent('Repaid');
    expect(screen.queryByRole('button', { name: 'Repay' })).not.toBeInTheDocument();
    expect(screen.queryByText('Interest not charged')).not.toBeInTheDocument();
  });

  it('gives the interest a loan closed early was not charged a line of its own in the totals (P12)', async () => {
    mount(disbursedOrder({ status: 10, repaid: '50000.00', remaining: '0.00', interestWaived: '600.00' }));
    const totals = await screen.findByRole('region', { name: 'Totals' });
    const row = within(totals).getByText('Interest not charged').closest('tr');
    expect(row).toHaveTextContent('₱600.00');
    // Total 50,600.00 = repaid 50,000.00 + not charged 600.00.
    expect(totals).toHaveTextContent('Total repayable₱50,600.00Interest not charged₱600.00Repaid₱50,000.00');
  });

  it.each([
    ['no order', null],
    ['an order not paid out yet', disbursedOrder({ status: 9, periodViews: [] })],
  ])('is empty with %s', async (_name, order) => {
    mount(order);
    expect(await screen.findByText('You have no loan being repaid.')).toBeInTheDocument();
  });
});

describe('the transaction history', () => {
  it('lists payouts and repayments of paid-out orders, newest first, each under its order number', async () => {
    const asked: string[] = [];
    server.use(
      ...base(),
      answer('jackey/loan/getUserOrderList', [
        { orderId: 'new', status: 0, principal: '90000.00', applyTime: '2026-11-25T00:00:00Z' },
        { orderId: 'o1', orderNo: 'HL-2611-000010', status: 4, principal: '50000.00', applyTime: '2026-11-22T06:41:31Z' },
      ]),
      http.post('http://localhost/jackey/loan/orderTimeline', async ({ request }) => {
        const { loanOrderId } = (await request.json()) as { loanOrderId: string };
        asked.push(loanOrderId);
        return HttpResponse.json({
          code: 0,
          msg: 'ok',
          data: [
            { sequence: 1, type: 'LoanApplied', at: '2026-11-22T06:41:31Z', by: 'user', detail: { amount: '80000.00', periodDays: 6 } },
            { sequence: 6, type: 'PayoutSucceeded', at: '2026-11-22T06:41:36Z', by: 'system', detail: { principal: '50000.00', netAmount: '50000.00' } },
            { sequence: 7, type: 'RepaymentReceived', at: '2026-11-22T06:41:44Z', by: 'system', detail: { amount: '1000.00' } },
          ],
        });
      }),
    );
    renderWithProviders(<TransactionsScreen />, { route: '/transactionHistory', preloadedState: signedIn });
    const rows = await screen.findAllByTestId('movement');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Repayment');
    expect(rows[0]).toHaveTextContent('₱1,000.00');
    expect(rows[1]).toHaveTextContent('Loan paid out');
    expect(rows[1]).toHaveTextContent('₱50,000.00');
    for (const row of rows) expect(row).toHaveTextContent('Order HL-2611-000010');
    // Orders that were never paid out have no money movements: their timelines are not read.
    expect(asked).toEqual(['o1']);
  });

  it('says "No data" without movements, and what will be listed there', async () => {
    server.use(...base(), answer('jackey/loan/getUserOrderList', []));
    renderWithProviders(<TransactionsScreen />, { route: '/transactionHistory', preloadedState: signedIn });
    expect(await screen.findByText('No data')).toBeInTheDocument();
    expect(screen.getByText('Money paid out to you and every repayment you make will be listed here.')).toBeInTheDocument();
  });

  it('shows the error state with a retry when a call fails', async () => {
    server.use(...base(), fail('jackey/loan/getUserOrderList', 500, 'unknown error'));
    renderWithProviders(<TransactionsScreen />, { route: '/transactionHistory', preloadedState: signedIn });
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
