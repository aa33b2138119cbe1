/**
 * The read-only profile (PRODUCT.md 3): the ID number masked until revealed, the
 * birthday written as the app writes every day, in the borrower's language.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BaseInfoDetailScreen from '@/features/profile/base-info-detail-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

describe('the profile details', () => {
  it('writes the birthday as a day and masks the ID number until revealed', async () => {
    const user = userEvent.setup();
    server.use(
      answer('jackey/user/info', userFixture()),
      answer('jackey/loan/getAllCompanyConfigs', {}),
      answer('jackey/loan/getCustomerService', null),
    );
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('May 1, 1990')).toBeInTheDocument();
    expect(screen.queryByText('1990-05-01')).not.toBeInTheDocument();
    const identity = userFixture().identity ?? '';
    expect(screen.queryByText(identity)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByText(identity)).toBeInTheDocument();
  });
});
