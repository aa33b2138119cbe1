import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import OrderListScreen from '../order-list-screen';

const signedIn = { session: { token: 't', redirect: null } };

function mount(orders: unknown[]) {
  server.use(
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    answer('jackey/loan/getUserOrderList', orders),
  );
  return renderWithProviders(<OrderListScreen />, {
    route: '/order',
    preloadedState: signedIn,
    others: { '/detail/:orderId': <p>detail page</p>, '/': <p>home</p> },
  });
}

describe('the order list', () => {
  it('lists each order with its status, principal and a Check button to its detail', async () => {
    const user = userEvent.setup();
    const { router } = mount([
      { orderId: 'o2', status: 1, principal: '90000.00', applyTime: '2026-11-22T06:41:31.346712Z' },
      { orderId: 'o1', status: 10, principal: '50000.00', applyTime: '2026-10-01T02:00:00Z' },
    ]);
    const cards = await screen.findAllByTestId('order-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Under review');
    expect(cards[0]).toHaveTextContent('₱90,000.00');
    expect(cards[1]).toHaveTextContent('Repaid');
    expect(cards[1]).toHaveTextContent('₱50,000.00');
    await user.click(screen.getAllByRole('button', { name: 'Check' })[0]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/detail/o2'));
  });

  it('leads Home and to My from its tab bar, neither tab being current there', async () => {
    const user = userEvent.setup();
    const { router } = mount([]);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const home = within(nav).getByRole('link', { name: 'Home' });
    expect(home).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'My' })).not.toHaveAttribute('aria-current');
    await user.click(home);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says so when there are no orders', async () => {
    mount([]);
    expect(await screen.findByText('You have no orders yet.')).toBeInTheDocument();
  });
});
