/**
 * Replacing the bank account (P3): while a loan is repaid the screen says it cannot
 * change before asking for anything; otherwise the replacement asks for the SMS code.
 */
import { screen } from '@testing-library/react';
import BankInfoScreen from '@/features/profile/bank-info-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

function given(status: number | null) {
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/getLoanProgress', status === null ? null : { orderId: 'o1', status, applyAmount: '80000.00', balance: '0.00', contract: '' }),
    answer('jackey/loan/getConfigByKey', ['BDO Unibank', 'GCash']),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
}

describe('bank account replacement', () => {
  it('says it cannot change while the loan is repaid, without asking for an SMS code', async () => {
    given(4);
    renderWithProviders(<BankInfoScreen />, { route: '/bankInfo', preloadedState: { session } });
    expect(await screen.findByTestId('bank-frozen')).toHaveTextContent('cannot be changed while a loan is being repaid');
    expect(screen.queryByRole('textbox', { name: 'SMS code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it('asks for the SMS code to replace the account when no loan is being repaid', async () => {
    given(null);
    renderWithProviders(<BankInfoScreen />, { route: '/bankInfo', preloadedState: { session } });
    expect(await screen.findByRole('textbox', { name: 'SMS code' })).toBeInTheDocument();
    expect(screen.queryByTestId('bank-frozen')).not.toBeInTheDocument();
  });
});
