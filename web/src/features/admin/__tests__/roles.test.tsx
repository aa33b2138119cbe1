/**
 * Staff roles in the console (issue 55): the navigation shows only the sections the
 * signed-in roles allow, `/admin` is the queue for reviewers and the first allowed
 * section for anyone else, the roles show under the username, they are read again
 * from `/admin/api/me` when the console mounts (a change applies after a reload), and
 * a refusal for the role (50005) shows its message, never a blank screen.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { adminSession } from '../admin-session';
import { access, ALICE, background, signInConsole } from './fixtures';

const emptyQueue = { total: 0, page: 1, pageSize: 20, orders: [] };
const emptyTrail = { items: [], next: null };

function navLinks() {
  const nav = screen.getByRole('navigation', { name: 'Console navigation' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

describe('the console by role', () => {
  it('shows a reviewer only the queue, with the roles under the username', async () => {
    signInConsole(ALICE, 'admin-token', ['reviewer']);
    server.use(...background);
    server.use(answer('admin/api/me', access(['reviewer'])), answer('admin/api/orders/queue', emptyQueue));
    renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    expect(await screen.findByRole('heading', { name: 'Review queue' })).toBeInTheDocument();
    expect(navLinks()).toEqual(['Queue']);
    expect(screen.getByTestId('admin-username')).toHaveTextContent(/^alice$/);
    expect(screen.getByTestId('admin-roles')).toHaveTextContent('Reviewer');
  });

  it('shows every section to someone holding every role', async () => {
    signInConsole(ALICE, 'admin-token', ['reviewer', 'collector', 'finance', 'compliance', 'admin']);
    server.use(...background);
    server.use(answer('admin/api/orders/queue', emptyQueue));
    renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    await screen.findByRole('heading', { name: 'Review queue' });
    expect(navLinks()).toEqual(['Queue', 'Collections', 'Ledger', 'Staff', 'Audit trail', 'Products', 'Lender settings']);
    expect(screen.getByTestId('admin-roles')).toHaveTextContent('Reviewer, Collector, Finance, Compliance, Admin');
  });

  it('shows Products and Lender settings only to those holding `settings` (admins)', async () => {
    signInConsole(ALICE, 'admin-token', ['reviewer', 'collector', 'finance', 'compliance']);
    server.use(...background);
    server.use(answer('admin/api/me', access(['reviewer', 'collector', 'finance', 'compliance'])), answer('admin/api/orders/queue', emptyQueue));
    renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    await screen.findByRole('heading', { name: 'Review queue' });
    expect(navLinks()).toEqual(['Queue', 'Collections', 'Ledger', 'Audit trail']);
    expect(screen.queryByRole('link', { name: 'Products' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Lender settings' })).not.toBeInTheDocument();
  });

  it('sends an admin, who cannot review, from /admin to the first section they may use', async () => {
    signInConsole(ALICE, 'admin-token', ['admin']);
    let queueAsked = false;
    server.use(...background);
    server.use(
      answer('admin/api/me', access(['admin'])),
      answer('admin/api/staff/list', []),
      http.post('http://localhost/admin/api/orders/queue', () => {
        queueAsked = true;
        return HttpResponse.json({ code: 50005, msg: 'not permitted for your role (orders.review)', data: null });
      }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/staff'));
    expect(await screen.findByRole('heading', { name: 'Staff', level: 1 })).toBeInTheDocument();
    expect(navLinks()).toEqual(['Staff', 'Audit trail', 'Products', 'Lender settings']);
    expect(queueAsked).toBe(false);
  });

  it('sends a compliance officer to the audit trail', async () => {
    signInConsole(ALICE, 'admin-token', ['compliance']);
    server.use(...background);
    server.use(answer('admin/api/me', access(['compliance'])), answer('admin/api/audit/trail', emptyTrail));
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/audit'));
    // Products and Lender settings need `settings` (admins): not shown to compliance.
    expect(navLinks()).toEqual(['Audit trail']);
  });

  it('reads the roles again when the console mounts: a role given since the login applies', async () => {
    // Signed in as a reviewer; an admin has since made Alice a collector instead.
    signInConsole(ALICE, 'admin-token', ['reviewer']);
    server.use(...background);
    server.use(
      answer('admin/api/me', access(['collector'])),
      answer('admin/api/orders/queue', emptyQueue),
      answer('admin/api/collections/queue', { buckets: [], loans: [] }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/collections'));
    expect(navLinks()).toEqual(['Collections']);
    expect(screen.getByTestId('admin-roles')).toHaveTextContent('Collector');
    expect(adminSession.get()?.auditor).toMatchObject({ roles: ['collector'], permissions: expect.arrayContaining(['collections']) });
  });

  it('keeps the roles of the login with the session', async () => {
    const user = userEvent.setup();
    server.use(...background);
    server.use(
      answer('admin/api/login', { token: 'fresh', ...ALICE, ...access(['finance']) }),
      answer('admin/api/me', access(['finance'])),
      answer('admin/api/ledger/trialBalance', { accounts: [], sum: '0.00', balanced: true }),
      answer('admin/api/ledger/journal', { total: 0, page: 1, pageSize: 25, entries: [] }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin/login', path: '/admin/*' });
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'pw-123456789');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    // The finance officer cannot review: the console opens on the ledger.
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/ledger'));
    expect(JSON.parse(localStorage.getItem('adminUser') ?? '{}')).toMatchObject({ roles: ['finance'], permissions: ['orders.read', 'money', 'ledger'] });
    expect(navLinks()).toEqual(['Ledger']);
  });

  it('shows a refusal for the role (50005), naming the permission, instead of a blank screen', async () => {
    // A session kept from before roles: the console does not hide the queue, the server refuses it.
    signInConsole();
    server.use(...background);
    server.use(
      fail('admin/api/me', 500, 'unknown error'),
      fail('admin/api/orders/queue', 50005, 'not permitted for your role (orders.review)'),
    );
    renderWithProviders(<AdminApp />, { route: '/admin', path: '/admin/*' });
    expect(
      await screen.findByText(/Your role does not allow this \(orders\.review\)\. Ask an admin if you need it for your work\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Review queue' })).toBeInTheDocument();
  });

  it('shows a section the roles do not allow, when opened by its address, with the refusal', async () => {
    signInConsole(ALICE, 'admin-token', ['reviewer']);
    server.use(...background);
    server.use(
      answer('admin/api/me', access(['reviewer'])),
      fail('admin/api/staff/list', 50005, 'not permitted for your role (staff)'),
    );
    renderWithProviders(<AdminApp />, { route: '/admin/staff', path: '/admin/*' });
    expect(await screen.findByText(/Your role does not allow this \(staff\)/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Staff', level: 1 })).toBeInTheDocument();
  });
});
