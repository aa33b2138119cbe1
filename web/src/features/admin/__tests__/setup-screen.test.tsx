/**
 * `/admin/setup#<token>` (issue 55), outside the signed-in console: the link's
 * account, the second factor to scan (QR image, secret, code), the new password typed
 * twice and checked here too; done, the login says the account is ready. A dead link
 * says so, with the server's words and what to do.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { SetupInfo } from '@/lib/api-types';
import AdminApp from '../admin-app';
import { background } from './fixtures';

const TOKEN = 'c'.repeat(64);
const QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const WITH_FACTOR: SetupInfo = {
  username: 'dana.cruz',
  secondFactor: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Lender:dana.cruz?secret=JBSWY3DPEHPK3PXP', qrSvg: QR },
};

function mount(info: SetupInfo | null, route = `/admin/setup#${TOKEN}`) {
  const infoBodies: unknown[] = [];
  const bodies: Record<string, unknown>[] = [];
  server.use(...background);
  server.use(
    http.post('http://localhost/admin/api/staff/setupInfo', async ({ request }) => {
      infoBodies.push(await request.json());
      return info
        ? HttpResponse.json({ code: 0, msg: 'ok', data: info })
        : HttpResponse.json({ code: 10004, msg: 'token: this link has expired or was already used; ask an admin for a new one', data: null });
    }),
    http.post('http://localhost/admin/api/staff/completeSetup', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      if (info?.secondFactor && body.totpCode !== '123456') {
        return HttpResponse.json({ code: 10004, msg: 'totpCode: enter the 6-digit code your authenticator app shows for this account', data: null });
      }
      return HttpResponse.json({ code: 0, msg: 'ok', data: { username: info?.username } });
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route, path: '/admin/*' });
  return { ...rendered, bodies, infoBodies };
}

describe('the setup link page', () => {
  it('sets a password with the authenticator code, then the login says the account is ready', async () => {
    const user = userEvent.setup();
    const { bodies, infoBodies, router } = mount(WITH_FACTOR);
    expect(await screen.findByTestId('setup-username')).toHaveTextContent('dana.cruz');
    expect(infoBodies).toEqual([{ token: TOKEN }]);
    expect(screen.getByTestId('setup-qr')).toHaveAttribute('src', `data:image/svg+xml;utf8,${encodeURIComponent(QR)}`);
    expect(screen.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeInTheDocument();
    expect(screen.getByTestId('setup-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    const code = screen.getByLabelText('Authenticator code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');

    await user.type(screen.getByLabelText('New password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'long-enough-1');
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));
    // A wrong code: said by the field, which takes the focus; the link still works.
    expect(await screen.findByText(/That code does not match/)).toBeInTheDocument();
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(bodies.at(-1)).toEqual({ token: TOKEN, password: 'long-enough-1', totpCode: '123456' });
    expect(await screen.findByTestId('admin-setup-ready')).toHaveTextContent('The account dana.cruz is ready');
    expect(screen.getByLabelText('Username')).toHaveValue('dana.cruz');
  });

  it('refuses two different passwords, or a short one, before asking the server', async () => {
    const user = userEvent.setup();
    const { bodies } = mount({ username: 'erin', secondFactor: null });
    await screen.findByTestId('setup-username');
    expect(screen.queryByLabelText('Authenticator code')).not.toBeInTheDocument();
    expect(screen.queryByTestId('setup-qr')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('New password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'long-enough-2');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByText('The two passwords differ.')).toBeInTheDocument();
    expect(screen.getByLabelText('Repeat the new password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Repeat the new password')).toHaveFocus();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByText('The password needs at least 8 characters.')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('shows a dead link with the server\'s words and what to do', async () => {
    mount(null);
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
    const alert = screen.getByTestId('setup-dead');
    expect(alert).toHaveTextContent('This setup link has expired, was already used or was replaced by a newer one.');
    expect(alert).toHaveTextContent('The server said: this link has expired or was already used; ask an admin for a new one');
    expect(screen.getByText(/Ask an admin for a new link/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the login' })).toHaveAttribute('href', '/admin/login');
  });

  it('says when the address holds no link, without asking the server', async () => {
    const { infoBodies } = mount(WITH_FACTOR, '/admin/setup');
    expect(await screen.findByTestId('setup-dead')).toHaveTextContent('This address has no setup link in it');
    expect(infoBodies).toEqual([]);
  });

  it('is open without a console session, and a link that dies while open says so', async () => {
    const user = userEvent.setup();
    mount({ username: 'erin', secondFactor: null });
    server.use(fail('admin/api/staff/completeSetup', 10004, 'token: this link has expired or was already used; ask an admin for a new one'));
    await screen.findByTestId('setup-username');
    expect(localStorage.getItem('adminToken')).toBeNull();
    await user.type(screen.getByLabelText('New password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
  });
});
