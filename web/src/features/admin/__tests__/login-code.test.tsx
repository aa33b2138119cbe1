/**
 * The login's authenticator code (issue 55): optional, sent only when typed; when the
 * server asks for it (10004 `totpCode: ...`) the field says so and takes the focus;
 * an account without the second factor it needs is told to ask an admin for a setup
 * link; a wrong or missing code is one answer with a wrong password (10002), worded
 * for both.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { access, ALICE, background } from './fixtures';

const emptyQueue = { total: 0, page: 1, pageSize: 20, orders: [] };

function mount() {
  server.use(...background);
  return renderWithProviders(<AdminApp />, { route: '/admin/login', path: '/admin/*' });
}

async function typeCredentials(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Username'), 'alice');
  await user.type(screen.getByLabelText('Password'), 'pw-123456789');
}

describe('the login with an authenticator code', () => {
  it('has an optional 6-digit code field for authenticator apps', async () => {
    mount();
    const code = await screen.findByLabelText('Authenticator code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('maxlength', '6');
    expect(code).not.toBeRequired();
    expect(code).toHaveAccessibleDescription(/needed once a second factor is set up/);
  });

  it('without the code the server answers as for a wrong password; with it, the log-in goes through', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    mount();
    server.use(
      answer('admin/api/orders/queue', emptyQueue),
      http.post('http://localhost/admin/api/login', async ({ request }) => {
        const body = (await request.json()) as { totpCode?: string };
        bodies.push(body);
        return body.totpCode
          ? HttpResponse.json({ code: 0, msg: 'ok', data: { token: 'fresh', ...ALICE, ...access(['reviewer']) } })
          : HttpResponse.json({ code: 10002, msg: 'wrong username, password or code', data: null });
      }),
    );
    await typeCredentials(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const code = screen.getByLabelText('Authenticator code');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(bodies).toEqual([{ username: 'alice', password: 'pw-123456789' }]);

    // Letters are not digits: only the digits stay.
    await user.type(code, '12a3456');
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(localStorage.getItem('adminToken')).toBe('fresh'));
    expect(bodies.at(-1)).toEqual({ username: 'alice', password: 'pw-123456789', totpCode: '123456' });
  });

  it('refuses a code of fewer than 6 digits before asking the server', async () => {
    const user = userEvent.setup();
    let asked = false;
    mount();
    server.use(
      http.post('http://localhost/admin/api/login', () => {
        asked = true;
        return HttpResponse.json({ code: 10002, msg: 'wrong username, password or code', data: null });
      }),
    );
    await typeCredentials(user);
    await user.type(screen.getByLabelText('Authenticator code'), '123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('The code has 6 digits.')).toBeInTheDocument();
    expect(asked).toBe(false);
  });

  it('words a wrong code like a wrong password (one answer for both)', async () => {
    const user = userEvent.setup();
    mount();
    server.use(fail('admin/api/login', 10002, 'wrong username, password or code'));
    await typeCredentials(user);
    await user.type(screen.getByLabelText('Authenticator code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent('Wrong username, password or authenticator code.');
  });

  it('says a code may be missing when a wrong login came without one', async () => {
    const user = userEvent.setup();
    mount();
    server.use(fail('admin/api/login', 10002, 'wrong username, password or code'));
    await typeCredentials(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent(
      'Wrong username or password. If your account has a second factor, enter its authenticator code too.',
    );
  });

  it('says the account is ready after its setup link (setup-screen.test.tsx fills the username too)', async () => {
    const { router } = mount();
    await act(() => router.navigate('/admin/login', { state: { ready: 'maria.reyes' }, replace: true }));
    expect(await screen.findByTestId('admin-setup-ready')).toHaveTextContent(
      'The account maria.reyes is ready: log in with your new password.',
    );
  });
});
