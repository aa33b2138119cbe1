/**
 * A wrong account (or wallet) number's message is tied to the account-number input (issue
 * 15, WCAG 3.3.1); a wrong SMS code's message is not put on it.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BankInfoScreen from '@/features/profile/bank-info-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

it('marks a too-short account number invalid, described by the message', async () => {
  const user = userEvent.setup();
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/getLoanProgress', null),
    answer('jackey/loan/getConfigByKey', ['BDO Unibank', 'GCash']),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
  renderWithProviders(<BankInfoScreen />, { route: '/bankInfo', preloadedState: { session: { token: 'tok', redirect: null } } });
  const sms = await screen.findByRole('textbox', { name: 'SMS code' });
  const card = screen.getByLabelText(/Account number|number/, { selector: 'input:not([readonly])' });
  await user.selectOptions(screen.getByLabelText('Bank', { selector: 'select' }), 'BDO Unibank');
  await user.type(card, '1234567');
  await user.type(sms, '123456');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  const error = await screen.findByTestId('form-error');
  expect(card).toHaveAttribute('aria-invalid', 'true');
  expect(card).toHaveAccessibleDescription(error.textContent ?? '');
  // A valid number (the fixture lists BDO among the e-wallets: a wallet's mobile
  // number) with a bad code: the number is no longer marked.
  await user.clear(card);
  await user.type(card, '09123456789');
  await user.clear(sms);
  await user.type(sms, '12');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await waitFor(() => expect(screen.getByTestId('form-error')).toHaveTextContent('The code is 6 digits.'));
  expect(card).not.toHaveAttribute('aria-invalid');
  expect(screen.getByTestId('form-error')).toBeInTheDocument();
});
