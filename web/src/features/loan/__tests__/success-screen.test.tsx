/** The success screen names the order by its human number, never the raw id or a placeholder. */
import { screen } from '@testing-library/react';
import SuccessScreen from '@/features/loan/success-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { orderFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

describe('success screen', () => {
  it('shows the human order number once the order is read', async () => {
    server.use(
      answer('jackey/loan/orderInfo', orderFixture({ orderId: 'o-123', orderNo: 'HL-2611-000123' })),
      answer('jackey/loan/getAllCompanyConfigs', { title: 'Honest Cash Loan' }),
      answer('jackey/loan/getCustomerService', null),
    );
    renderWithProviders(<SuccessScreen />, { route: '/success/o-123', path: '/success/:orderId', preloadedState: { session } });
    expect(await screen.findByText('Order HL-2611-000123')).toBeInTheDocument();
    expect(screen.queryByText(/\{\{/)).toBeNull();
    expect(screen.queryByText(/o-123/)).toBeNull();
  });
});
