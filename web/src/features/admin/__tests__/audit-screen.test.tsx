/**
 * `/admin/audit` (issue 55): the staff actions, newest first, with who, when, from
 * where, the call, the order and borrower it named (links), other targets and the
 * outcome; filtered by staff username, borrower id and order id, the filters and the
 * page kept in the URL; "Older" pages with `next`; "Export CSV" saves the actions of
 * the filters as audit-trail.csv with the console's token.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { StaffAction } from '@/lib/api-types';
import AdminApp from '../admin-app';
import { AUDIT_EXPORT_FILE } from '../audit-screen';
import { access, ALICE, background, signInConsole } from './fixtures';

const ORDER = '01a2021f-9257-71fc-94b1-89cc8b30bcdd';
const USER = '01a20b5c-cdc7-724b-ae94-eccdfed5c1fc';

function action(n: number, overrides: Partial<StaffAction> = {}): StaffAction {
  return {
    id: `act-${n}`,
    at: `2026-11-24T09:${String(n).padStart(2, '0')}:00Z`,
    staffId: 's-7',
    username: 'maria.reyes',
    clientIp: '203.0.113.7',
    call: '/admin/api/orders/detail',
    orderId: null,
    userId: null,
    target: null,
    code: 0,
    ...overrides,
  };
}

const NEWEST = [
  action(59, { call: '/admin/api/users/hold', userId: USER, code: 0 }),
  action(58, { call: '/admin/api/orders/passFinal', orderId: ORDER, code: 50006 }),
  action(57, { call: '/admin/api/staff/create', username: 'alice', target: 'dana.cruz' }),
];
const OLDER = [action(10, { call: '/admin/api/orders/queue' })];

interface TrailBody {
  username?: string;
  userId?: string;
  orderId?: string;
  before?: string;
}

function mount(route = '/admin/audit') {
  signInConsole(ALICE, 'admin-token', ['compliance']);
  const bodies: TrailBody[] = [];
  server.use(...background);
  server.use(
    http.post('http://localhost/admin/api/me', () => HttpResponse.json({ code: 0, msg: 'ok', data: access(['compliance']) })),
    http.post('http://localhost/admin/api/audit/trail', async ({ request }) => {
      const body = (await request.json()) as TrailBody;
      bodies.push(body);
      const page = body.before === 'act-57' ? { items: OLDER, next: null } : { items: NEWEST, next: 'act-57' };
      const items = page.items.filter(
        (a) => (!body.username || a.username === body.username) && (!body.orderId || a.orderId === body.orderId),
      );
      return HttpResponse.json({ code: 0, msg: 'ok', data: { items, next: body.username || body.orderId ? null : page.next } });
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route, path: '/admin/*' });
  return { ...rendered, bodies };
}

describe('the audit trail', () => {
  it('lists who did what, when, from where, what it named and how it ended', async () => {
    mount();
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(3);
    const hold = within(rows[0]);
    expect(hold.getByText('maria.reyes')).toHaveAttribute('title', 's-7');
    expect(hold.getByText('203.0.113.7')).toBeInTheDocument();
    expect(hold.getByText('Place hold')).toBeInTheDocument();
    expect(hold.getByText('/admin/api/users/hold')).toBeInTheDocument();
    expect(hold.getByRole('link', { name: USER.slice(-12) })).toHaveAttribute('href', `/admin/users/${USER}`);
    expect(hold.getByText('Done')).toBeInTheDocument();
    const pass = within(rows[1]);
    expect(pass.getByRole('link', { name: ORDER.slice(-12) })).toHaveAttribute('href', `/admin/orders/${ORDER}`);
    expect(pass.getByText('Refused · 50006')).toBeInTheDocument();
    expect(within(rows[2]).getByText('dana.cruz')).toBeInTheDocument();
    // The time as the other console screens show it.
    expect(rows[0].querySelector('td')?.textContent).toMatch(/Nov 24, 2026/);
  });

  it('filters by staff username, borrower and order, keeping the filters in the URL', async () => {
    const user = userEvent.setup();
    const { bodies, router } = mount();
    await screen.findAllByTestId('audit-row');
    expect(bodies[0]).toEqual({});

    await user.type(screen.getByLabelText('Staff username'), 'alice');
    await user.type(screen.getByLabelText('Order id'), ` ${ORDER} `);
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(bodies.at(-1)).toEqual({ username: 'alice', orderId: ORDER }));
    expect(router.state.location.pathname).toBe('/admin/audit');
    expect(new URLSearchParams(router.state.location.search).get('username')).toBe('alice');
    expect(new URLSearchParams(router.state.location.search).get('orderId')).toBe(ORDER);
    expect(await screen.findByText('No staff actions match these filters.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByLabelText('Staff username')).toHaveValue('');
  });

  it('reads the filters from the URL (a reload, the back button)', async () => {
    const { bodies } = mount(`/admin/audit?userId=${USER}&username=maria.reyes`);
    await screen.findAllByTestId('audit-row');
    expect(bodies[0]).toEqual({ username: 'maria.reyes', userId: USER });
    expect(screen.getByLabelText('Staff username')).toHaveValue('maria.reyes');
    expect(screen.getByLabelText('Borrower id')).toHaveValue(USER);
  });

  it('pages to older actions with next, and back to the newest', async () => {
    const user = userEvent.setup();
    const { bodies, router } = mount();
    await screen.findAllByTestId('audit-row');
    expect(screen.getByRole('button', { name: 'Newest' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(1));
    expect(bodies.at(-1)).toEqual({ before: 'act-57' });
    expect(router.state.location.search).toBe('?before=act-57');
    expect(screen.getByText('Review queue')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Newest' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(3));
    expect(router.state.location.search).toBe('');
  });

  describe('Export CSV', () => {
    beforeEach(() => {
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test'), revokeObjectURL: vi.fn() }));
    });
    afterEach(() => vi.restoreAllMocks());

    it('downloads the filtered actions as audit-trail.csv with the console token', async () => {
      const user = userEvent.setup();
      const saved: string[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push(this.download);
      });
      const seen: { body: unknown; auth: string | null }[] = [];
      mount(`/admin/audit?username=maria.reyes`);
      server.use(
        http.post('http://localhost/admin/api/audit/export', async ({ request }) => {
          seen.push({ body: await request.json(), auth: request.headers.get('authorization') });
          return new HttpResponse('at,username\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
        }),
      );
      await screen.findAllByTestId('audit-row');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(saved).toEqual([AUDIT_EXPORT_FILE]));
      expect(AUDIT_EXPORT_FILE).toBe('audit-trail.csv');
      expect(seen).toEqual([{ body: { username: 'maria.reyes' }, auth: 'Bearer admin-token' }]);
    });

    it('shows a refused export', async () => {
      const user = userEvent.setup();
      mount();
      server.use(
        http.post('http://localhost/admin/api/audit/export', () =>
          HttpResponse.json({ code: 50005, msg: 'not permitted for your role (audit.read)', data: null }),
        ),
      );
      await screen.findAllByTestId('audit-row');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByTestId('audit-export-error')).toHaveTextContent('Your role does not allow this (audit.read).');
    });
  });
});
