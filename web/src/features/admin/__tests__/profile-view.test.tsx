/** The applicant's profile in the console: the consent registration recorded (PRODUCT.md 12.6). */
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/render';
import { answer, server } from '@/testing/server';
import { userFixture } from '@/testing/fixtures';
import { ApplicantProfile } from '../profile-view';

describe('the applicant profile', () => {
  beforeEach(() => server.use(answer('jackey/loan/getAllCompanyConfigs', {})));

  it('names the privacy notice accepted: version, the language it was read in, and when', () => {
    const user = { ...userFixture(), privacyNotice: { version: '2026-11', acceptedAt: '2026-11-22T09:00:00Z', language: 'zh' } };
    renderWithProviders(<ApplicantProfile user={user} />);
    expect(screen.getByText('Privacy notice accepted').nextElementSibling).toHaveTextContent(/^v2026-11 · 中文 · .*2026/);
  });

  it('leaves out a language not recorded, and says when no consent is on record', () => {
    const older = { ...userFixture(), privacyNotice: { version: '2025-01', acceptedAt: '2025-01-05T09:00:00Z', language: null } };
    const { unmount } = renderWithProviders(<ApplicantProfile user={older} />);
    expect(screen.getByText('Privacy notice accepted').nextElementSibling).toHaveTextContent(/^v2025-01 · Jan 5, 2025[^·]+$/);
    unmount();
    renderWithProviders(<ApplicantProfile user={{ ...userFixture(), privacyNotice: null }} />);
    expect(screen.getByText('None on record (registered before consent was asked)')).toBeInTheDocument();
  });
});
