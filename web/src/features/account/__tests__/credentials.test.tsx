/**
 * Recovery and credentials screens (PRODUCT.md 12.3): change password shows the
 * server's attempts-left message; the withdraw PIN needs matching PINs and the SMS
 * code; the sessions list marks this device and signs out another.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';
import ChangePasswordScreen from '../change-password-screen';
import SessionsScreen from '../sessions-screen';
import WithdrawPinScreen from '../withdraw-pin-screen';

const session = { token: 'tok', redirect: null };

beforeEach(() => {
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
});

describe('change password', () => {
  it("shows the server's attempts left for a wrong current password", async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    server.use(fail('jackey/user/changePassword', 10002, 'wrong password (3 attempts left)'));
    renderWithProviders(<ChangePasswordScreen />, { route: '/changePassword', preloadedState: { session } });
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'guess-guess');
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('3 attempts left before the account locks');
  });

  it('sends the current and new password, and checks the confirmation first', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const bodies: unknown[] = [];
    server.use(
      http.post('http://localhost/jackey/user/changePassword', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    renderWithProviders(<ChangePasswordScreen />, {
      route: '/changePassword',
      preloadedState: { session },
      others: { '/my': <p>my page</p> },
    });
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'old-secret-1');
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'new-secret-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByTestId('form-error')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
    await user.clear(screen.getByLabelText('Confirm password', { selector: 'input' }));
    await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('my page')).toBeInTheDocument();
    expect(bodies).toEqual([{ oldPassword: 'old-secret-1', password: 'new-secret-1' }]);
  });
});

describe('withdraw PIN', () => {
  it('sends the new PIN with the SMS code', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const bodies: unknown[] = [];
    server.use(
      answer('jackey/sms/pin', null),
      http.post('http://localhost/jackey/user/withdrawPin', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    renderWithProviders(<WithdrawPinScreen />, {
      route: '/withdrawPin',
      preloadedState: { session },
      others: { '/my': <p>my page</p> },
    });
    await user.type(await screen.findByLabelText('New PIN', { selector: 'input' }), '135790');
    await user.type(screen.getByLabelText('Confirm PIN', { selector: 'input' }), '135790');
    await user.type(screen.getByLabelText('SMS code', { selector: 'input' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Save PIN' }));
    expect(await screen.findByText('my page')).toBeInTheDocument();
    expect(bodies).toEqual([{ pin: '135790', smsCode: '123456' }]);
  });
});

describe('signed-in devices', () => {
  it('marks this device and signs out another', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    let sessions = [
      { id: 'aaaaaaaaaaaaaaaa', createdAt: '2026-11-23T10:00:00Z', expiresAt: '2026-11-30T10:00:00Z', current: true },
      { id: 'bbbbbbbbbbbbbbbb', createdAt: '2026-11-22T10:00:00Z', expiresAt: '2026-11-29T10:00:00Z', current: false },
    ];
    const revoked: unknown[] = [];
    server.use(
      http.post('http://localhost/jackey/user/sessions', () => HttpResponse.json({ code: 0, msg: 'ok', data: sessions })),
      http.post('http://localhost/jackey/user/sessions/revoke', async ({ request }) => {
        revoked.push(await request.json());
        sessions = sessions.filter((s) => s.current);
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    renderWithProviders(<SessionsScreen />, { route: '/sessions', preloadedState: { session } });
    const list = await screen.findByTestId('sessions');
    expect(within(list).getByText('This device')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(revoked).toEqual([{ sessionId: 'bbbbbbbbbbbbbbbb' }]));
    await waitFor(() => expect(within(screen.getByTestId('sessions')).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument());
  });
});
