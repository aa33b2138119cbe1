/**
 * The recharge amount's error is tied to the amount (issue 15, WCAG 3.3.1): the
 * input is `aria-invalid` and described by the message while it shows, and no
 * longer once the borrower types again.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import RechargeScreen from '../recharge-screen';
import { disbursedOrder } from './fixtures';

vi.mock('../open-page', () => ({ openPaymentPage: vi.fn() }));

it('marks an amount below the minimum as invalid, described by the message', async () => {
  const user = userEvent.setup();
  server.use(
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    answer('jackey/loan/orderInfo', disbursedOrder()),
    answer('jackey/loan/payoffQuote', { amount: '49000.00', interestWaived: '0.00', feesWaived: '0.00', coolingOff: false }),
  );
  renderWithProviders(<RechargeScreen />, { route: '/recharge', preloadedState: { session: { token: 't', redirect: null } } });
  const amount = await screen.findByLabelText('Repayment amount', { selector: 'input' });
  await user.type(amount, '50');
  await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
  const error = await screen.findByTestId('recharge-error');
  expect(amount).toHaveAttribute('aria-invalid', 'true');
  expect(amount).toHaveAccessibleDescription(error.textContent ?? '');
  await user.type(amount, '0');
  await waitFor(() => expect(amount).not.toHaveAttribute('aria-invalid'));
});
