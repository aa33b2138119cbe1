/**
 * The console's own session (admin-base-query in admin-api.ts, admin-session.ts):
 * console calls carry the auditor token, never the borrower's; 401, 20001 and 7
 * end only the console session and lead to `/admin/login`; the borrower session
 * is never touched.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { makeStore } from '@/app/store';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { adminApi } from '../admin-api';
import { adminSession } from '../admin-session';
import { ALICE, background, queueItem, signInConsole } from './fixtures';

const borrower = { session: { token: 'borrower-token', redirect: null } };
const emptyQueue = { total: 0, page: 1, pageSize: 20, orders: [] };

beforeEach(() => localStorage.setItem('token', 'borrower-token'));

describe('the admin base query', () => {
  it('sends the auditor token as the bearer, never the borrower token or the unlock token', async () => {
    signInConsole();
    sessionStorage.setItem('unlockToken', 'unlock');
    const seen: { auth: string | null; unlock: string | null }[] = [];
    server.use(
      http.post('http://localhost/admin/api/orders/queue', ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), unlock: request.headers.get('x-security-token') });
        return HttpResponse.json({ code: 0, msg: 'ok', data: emptyQueue });
      }),
    );
    const store = makeStore(borrower);
    const result = await store.dispatch(adminApi.endpoints.adminQueue.initiate({ page: 1, pageSize: 20 }));
    expect(result.data).toEqual(emptyQueue);
    expect(seen).toEqual([{ auth: 'Bearer admin-token', unlock: null }]);
  });

  it.each([401, 20001, 7])('code %i ends the console session only', async (code) => {
    signInConsole();
    server.use(fail('admin/api/orders/queue', code, 'token invalid'));
    const store = makeStore(borrower);
    const result = await store.dispatch(adminApi.endpoints.adminQueue.initiate({ page: 1, pageSize: 20 }));
    expect(result.error).toMatchObject({ code });
    expect(adminSession.get()).toBeNull();
    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(localStorage.getItem('adminUser')).toBeNull();
    // The borrower stays signed in, and is sent nowhere.
    expect(store.getState().session).toEqual({ token: 'borrower-token', redirect: null });
    expect(localStorage.getItem('token')).toBe('borrower-token');
  });

  it('HTTP 401 without an envelope also ends the console session', async () => {
    signInConsole();
    server.use(http.post('http://localhost/admin/api/orders/queue', () => new HttpResponse('no', { status: 401 })));
    const store = makeStore(borrower);
    await store.dispatch(adminApi.endpoints.adminQueue.initiate({ page: 1, pageSize: 20 }));
    expect(adminSession.get()).toBeNull();
    expect(store.getState().session.token).toBe('borrower-token');
  });

  it('other errors keep the console session', async () => {
    signInConsole();
    server.use(fail('admin/api/orders/queue', 10004, 'request error: page: must be 1 or more'));
    const store = makeStore(borrower);
    await store.dispatch(adminApi.endpoints.adminQueue.initiate({ page: 0, pageSize: 20 }));
    expect(adminSession.get()?.token).toBe('admin-token');
  });
});

describe('the console session in the UI', () => {
  it('sends a visitor without an auditor token to /admin/login', async () => {
    server.use(...background);
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin/ledger', path: '/admin/*', preloadedState: borrower });
    expect(await screen.findByRole('heading', { name: 'Loan officer sign-in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('a 20001 on a console screen leads to /admin/login, says why, and leaves the borrower signed in', async () => {
    signInConsole();
    server.use(...background, fail('admin/api/orders/queue', 20001, 'token invalid'));
    const { router, store } = renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*', preloadedState: borrower });
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(store.getState().session.token).toBe('borrower-token');
    expect(localStorage.getItem('token')).toBe('borrower-token');
  });

  it('logs in, keeps the token under adminToken, shows the auditor and returns to the page asked for', async () => {
    const user = userEvent.setup();
    let body: unknown = null;
    server.use(
      ...background,
      http.post('http://localhost/admin/api/login', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ code: 0, msg: 'ok', data: { token: 'fresh', ...ALICE } });
      }),
      answer('admin/api/orders/queue', { total: 1, page: 1, pageSize: 20, orders: [queueItem()] }),
      answer('admin/api/ledger/trialBalance', { accounts: [], sum: '0.00', balanced: true }),
      answer('admin/api/ledger/journal', { total: 0, page: 1, pageSize: 25, entries: [] }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin/ledger', path: '/admin/*', preloadedState: borrower });
    await user.type(await screen.findByLabelText('Username'), ' alice ');
    await user.type(screen.getByLabelText('Password'), 'pw-123456789');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/ledger'));
    expect(body).toEqual({ username: 'alice', password: 'pw-123456789' });
    expect(localStorage.getItem('adminToken')).toBe('fresh');
    expect(localStorage.getItem('token')).toBe('borrower-token');
    expect(await screen.findByTestId('admin-username')).toHaveTextContent('alice');
    // The roles read when the console mounts, and the ledger, arrive before the test ends.
    expect(await screen.findByTestId('admin-roles')).toHaveTextContent('Reviewer, Collector, Finance, Compliance, Admin');
    expect(await screen.findByTestId('trial-balance-sum')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Loading…')).not.toBeInTheDocument());
  });

  it('shows a wrong password in the auditor\'s words', async () => {
    const user = userEvent.setup();
    server.use(...background, fail('admin/api/login', 10002, 'wrong username or password'));
    renderWithProviders(<AdminApp />, { route: '/admin/login', path: '/admin/*' });
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'nope-nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent('Wrong username or password.');
  });

  it('logs out: revokes the token, forgets it and shows the login', async () => {
    const user = userEvent.setup();
    signInConsole();
    let revoked: string | null = null;
    server.use(
      ...background,
      answer('admin/api/orders/queue', emptyQueue),
      http.post('http://localhost/admin/api/logout', ({ request }) => {
        revoked = request.headers.get('authorization');
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*', preloadedState: borrower });
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(revoked).toBe('Bearer admin-token');
    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(localStorage.getItem('token')).toBe('borrower-token');
  });
});
