/**
 * Issue 52: a long form is not lost on a reload (cheap phones reload when the
 * camera opens): what was typed stays on the device until it is sent, never over a
 * verified name; and a borrower asked for new photos is told which are still needed.
 */
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfileForm } from '@/features/profile/profile-form';
import { drafts } from '@/lib/drafts';
import { clearDrafts } from '@/lib/storage';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { answer, server } from '@/testing/server';

beforeEach(() => {
  window.localStorage.clear();
  server.use(answer('jackey/loan/getConfigByKey', []), answer('jackey/loan/getAllCompanyConfigs', {}));
});

function mount(user = userFixture()) {
  renderWithProviders(<ProfileForm user={user} full next="/done" />, {
    route: '/baseInfo',
    preloadedState: { session: { token: 'tok', redirect: null } },
  });
}

describe('the profile draft', () => {
  it('keeps what was typed across a reload, and drops it at sign-out', async () => {
    const user = userEvent.setup();
    const fresh = { ...userFixture(), address: '', userQualificationView: { identity: 1, basicInformation: 0, bankCard: 0 } };
    mount(fresh);
    const address = await screen.findByRole('textbox', { name: 'Address' });
    await user.clear(address);
    await user.type(address, '12 Mabini St');
    cleanup();
    mount(fresh);
    expect(await screen.findByRole('textbox', { name: 'Address' })).toHaveValue('12 Mabini St');
    clearDrafts();
    cleanup();
    mount(fresh);
    expect(await screen.findByRole('textbox', { name: 'Address' })).toHaveValue('');
  });

  it('never keeps the bank account number on the device', async () => {
    // A draft written before this rule, with the number in it: not restored, and
    // rewritten without it.
    const fresh = { ...userFixture(), address: '', userQualificationView: { identity: 1, basicInformation: 0, bankCard: 0 } };
    drafts.set(`profile:${fresh.mobile}`, { address: '7 Rizal St', cardNo: '001234567890' });
    mount(fresh);
    expect(await screen.findByRole('textbox', { name: 'Address' })).toHaveValue('7 Rizal St');
    expect(JSON.stringify(window.localStorage)).not.toContain('001234567890');
    expect(JSON.stringify(window.localStorage)).toContain('7 Rizal St');
  });

  it('never puts a draft over a verified name', async () => {
    const verified = { ...userFixture(), userQualificationView: { identity: 2, basicInformation: 1, bankCard: 1 } };
    drafts.set(`profile:${verified.mobile}`, { realName: 'Someone Else', address: '9 Rizal Ave' });
    mount(verified);
    expect(await screen.findByRole('textbox', { name: 'Address' })).toHaveValue('9 Rizal Ave');
    expect(screen.getByLabelText('Full name', { selector: 'input' })).toHaveValue(verified.realName);
  });

  it('says which photos are still needed when the officer asked for new ones', async () => {
    const asked = {
      ...userFixture(),
      resubmissionItems: ['photos' as const],
      userQualificationView: { identity: 2, basicInformation: 1, bankCard: 1 },
    };
    mount(asked);
    expect(await screen.findByTestId('photos-needed')).toHaveTextContent('Still needed: ID front, ID back');
  });
});
