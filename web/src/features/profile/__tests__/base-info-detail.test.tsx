/**
 * The read-only profile (PRODUCT.md 3): the ID number masked until revealed, the
 * birthday written as the app writes every day, and the configured marital status
 * and education, in the borrower's language.
 */
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BaseInfoDetailScreen from '@/features/profile/base-info-detail-screen';
import { setLanguage } from '@/lib/i18n';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

afterEach(async () => {
  cleanup(); // before the language changes back, so no screen re-renders outside act
  await setLanguage('en', false);
});

function answers() {
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
}

describe('the profile details', () => {
  it('writes the birthday as a day and masks the ID number until revealed', async () => {
    const user = userEvent.setup();
    answers();
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('May 1, 1990')).toBeInTheDocument();
    expect(screen.queryByText('1990-05-01')).not.toBeInTheDocument();
    const identity = userFixture().identity ?? '';
    expect(screen.queryByText(identity)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByText(identity)).toBeInTheDocument();
  });

  it('shows the configured marital status and education as configured in English, translated in Chinese and Filipino', async () => {
    answers();
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('Single')).toBeInTheDocument();
    expect(screen.getByText('College')).toBeInTheDocument();
    cleanup();

    await setLanguage('zh', false);
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('单身')).toBeInTheDocument();
    expect(screen.getByText('大专')).toBeInTheDocument();
    expect(screen.queryByText('Single')).not.toBeInTheDocument();
    cleanup();

    await setLanguage('fil', false);
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('Walang asawa')).toBeInTheDocument();
    expect(screen.getByText('Kolehiyo')).toBeInTheDocument();
  });

  it('shows a value the operator added without a translation as configured', async () => {
    server.use(
      answer('jackey/user/info', { ...userFixture(), marriage: 'Civil partnership: registered', education: 'Ph.D.' }),
      answer('jackey/loan/getAllCompanyConfigs', {}),
      answer('jackey/loan/getCustomerService', null),
    );
    await setLanguage('zh', false);
    renderWithProviders(<BaseInfoDetailScreen />, { route: '/baseInfoDetail', preloadedState: { session } });
    expect(await screen.findByText('Civil partnership: registered')).toBeInTheDocument();
    expect(screen.getByText('Ph.D.')).toBeInTheDocument();
  });
});
