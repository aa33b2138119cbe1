/**
 * The lock screen (P4): a security lock shows the unlock form; a compliance hold says
 * who set it, why and what happens next; a signed-in borrower
 * whose account is not locked is told so, not shown a lock that is not there.
 */
import { screen } from '@testing-library/react';
import LockScreen from '@/features/auth/lock-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

function given(lock: unknown) {
  server.use(
    answer('jackey/user/info', { ...userFixture(), lock }),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
}

describe('the lock screen', () => {
  it('says the account is not locked when it is not', async () => {
    given(null);
    renderWithProviders(<LockScreen />, { route: '/lock', preloadedState: { session } });
    expect(await screen.findByText('Your account is not locked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlock' })).not.toBeInTheDocument();
  });

  it('offers the SMS unlock for a security lock', async () => {
    given({ kind: 'security', reason: 'too many wrong withdraw PINs', cause: 'wrong_pins' });
    renderWithProviders(<LockScreen />, { route: '/lock', preloadedState: { session } });
    expect(await screen.findByRole('button', { name: 'Unlock' })).toBeInTheDocument();
    // Worded by its cause in the borrower's language, not the recorded English text.
    expect(screen.getByText('Five wrong withdraw PINs in a row. Unlock with a code sent to your phone.')).toBeInTheDocument();
    expect(screen.queryByText(/too many wrong/)).not.toBeInTheDocument();
    expect(screen.queryByText('Your account is not locked')).not.toBeInTheDocument();
  });

  it('says who set a compliance hold, its reason and what happens next, with the contact button only', async () => {
    given({ kind: 'compliance', reason: 'Source of funds check pending' });
    renderWithProviders(<LockScreen />, { route: '/lock', preloadedState: { session } });
    expect(await screen.findByText(/A loan officer has paused your account/)).toBeInTheDocument();
    expect(screen.getAllByText('Account on hold').length).toBeGreaterThan(0);
    expect(screen.queryByText('Account locked')).not.toBeInTheDocument();
    expect(screen.getByText('Reason: Source of funds check pending')).toBeInTheDocument();
    expect(screen.getByText('Unlocking is free. Nobody may ask you to pay to unlock your account.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlock' })).not.toBeInTheDocument();
  });
});
