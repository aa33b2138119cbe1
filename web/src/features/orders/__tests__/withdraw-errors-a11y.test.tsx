/**
 * The withdraw form's errors are tied to the field they are about (issue 15,
 * WCAG 1.3.1, 3.3.1): the wrong field is `aria-invalid` and described by the
 * message, and the marks go once the borrower moves on.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, server } from '@/testing/server';
import { orderFixture, userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import DetailScreen from '../detail-screen';
import { timelineFixture } from './fixtures';

function mount(route: string, hasWithdrawPin: boolean) {
  server.use(
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    answer('jackey/loan/orderInfo', orderFixture()),
    answer('jackey/loan/orderTimeline', timelineFixture),
    answer('jackey/user/info', { ...userFixture(), hasWithdrawPin }),
    http.post('http://localhost/jackey/user/withdrawPin', () => HttpResponse.json({ code: 0, msg: 'ok', data: null })),
  );
  return renderWithProviders(<DetailScreen />, { route, path: '/detail/:orderId', preloadedState: { session: { token: 't', redirect: null } } });
}

describe('withdraw form errors', () => {
  it('marks the amount above the balance as invalid and described by the message', async () => {
    const user = userEvent.setup();
    mount('/detail/o1', true);
    const amount = await screen.findByLabelText('Withdrawal amount', { selector: 'input' });
    expect(amount).not.toHaveAttribute('aria-invalid');
    await user.clear(amount);
    await user.type(amount, '90000');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Insufficient balance.');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Insufficient balance.');
  });

  it('ties a PIN mismatch to the repeated PIN, not the first', async () => {
    const user = userEvent.setup();
    mount('/detail/o1?index=2', false);
    const first = await screen.findByLabelText('New withdraw PIN', { selector: 'input' });
    const repeat = screen.getByLabelText('Repeat the PIN', { selector: 'input' });
    await user.type(first, '135790');
    await user.type(repeat, '135799');
    await user.click(screen.getByRole('button', { name: 'Save PIN and continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The two PINs do not match.');
    expect(repeat).toHaveAttribute('aria-invalid', 'true');
    expect(repeat).toHaveAccessibleDescription('The two PINs do not match.');
    expect(first).not.toHaveAttribute('aria-invalid');
    // A PIN too short is about the first field.
    await user.clear(first);
    await user.type(first, '12');
    await user.click(screen.getByRole('button', { name: 'Save PIN and continue' }));
    await waitFor(() => expect(first).toHaveAttribute('aria-invalid', 'true'));
    expect(repeat).not.toHaveAttribute('aria-invalid');
  });
});
