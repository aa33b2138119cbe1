/**
 * `/admin/staff` (issue 55): the accounts with their roles, status, second factor and
 * password; creating an account shows its one-time setup link once, as a full address
 * with a copy button and its expiry; roles change in place; disabling asks a reason;
 * enabling is one click; a password reset is confirmed first and shows its link; the
 * server's refusals are shown.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { StaffAccount } from '@/lib/api-types';
import AdminApp from '../admin-app';
import { access, ALICE, background, signInConsole } from './fixtures';

const TOKEN = 'a'.repeat(64);
const RESET_TOKEN = 'b'.repeat(64);

function account(overrides: Partial<StaffAccount> = {}): StaffAccount {
  return {
    staffId: 's-1',
    username: 'maria.reyes',
    roles: ['reviewer'],
    createdAt: '2026-11-20T08:00:00Z',
    disabledAt: null,
    disabledReason: null,
    secondFactor: true,
    passwordSet: true,
    ...overrides,
  };
}

interface Call {
  path: string;
  body: Record<string, unknown>;
}

function mount(initial: StaffAccount[]) {
  signInConsole(ALICE, 'admin-token', ['admin']);
  let accounts = [...initial];
  const calls: Call[] = [];
  const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'ok', data });
  const refuse = (msg: string) => HttpResponse.json({ code: 10004, msg, data: null });
  server.use(...background);
  server.use(
    http.post('http://localhost/admin/api/me', () => ok(access(['admin']))),
    http.post('http://localhost/admin/api/staff/list', () => ok(accounts)),
    http.post('http://localhost/admin/api/staff/:action', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: String(params.action), body });
      const find = (id: unknown) => accounts.find((a) => a.staffId === id);
      switch (params.action) {
        case 'create':
          accounts = [
            ...accounts,
            account({ staffId: 's-new', username: String(body.username).trim().toLowerCase(), roles: body.roles as StaffAccount['roles'], secondFactor: false, passwordSet: false }),
          ];
          return ok({ staffId: 's-new', path: `/admin/setup#${TOKEN}`, expiresAt: '2026-11-25T08:00:00Z' });
        case 'assignRoles':
          if (body.staffId === ALICE.auditorId) return refuse('roles: you cannot remove your own admin role');
          accounts = accounts.map((a) => (a.staffId === body.staffId ? { ...a, roles: body.roles as StaffAccount['roles'] } : a));
          return ok(null);
        case 'disable':
          if (body.staffId === ALICE.auditorId) return refuse('staffId: you cannot disable your own account');
          accounts = accounts.map((a) =>
            a.staffId === body.staffId ? { ...a, disabledAt: '2026-11-24T09:00:00Z', disabledReason: String(body.reason) } : a,
          );
          return ok(null);
        case 'enable':
          accounts = accounts.map((a) => (a.staffId === body.staffId ? { ...a, disabledAt: null, disabledReason: null } : a));
          return ok(null);
        case 'resetPassword':
          if (!find(body.staffId)) return HttpResponse.json({ code: 40007, msg: 'record not found', data: null });
          accounts = accounts.map((a) => (a.staffId === body.staffId ? { ...a, passwordSet: false } : a));
          return ok({ staffId: body.staffId, path: `/admin/setup#${RESET_TOKEN}`, expiresAt: '2026-11-25T09:00:00Z' });
        default:
          return refuse('unknown');
      }
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route: '/admin/staff', path: '/admin/*' });
  return { ...rendered, calls };
}

/** The row of `username`, once it is listed. */
const rowOf = (username: string) =>
  waitFor(() => {
    const row = screen.getAllByTestId('staff-row').find((r) => within(r).queryByText(username) !== null);
    if (!row) throw new Error(`${username} is not listed`);
    return row;
  });

describe('the staff screen', () => {
  it('lists the accounts: roles, status with the reason, second factor, password and creation', async () => {
    mount([
      account({ staffId: ALICE.auditorId, username: 'alice', roles: ['admin', 'compliance'] }),
      account({ staffId: 's-2', username: 'ben', roles: ['collector'], disabledAt: '2026-11-21T10:00:00Z', disabledReason: 'left the company', secondFactor: false }),
      account({ staffId: 's-3', username: 'carla', roles: ['finance'], passwordSet: false, secondFactor: false }),
    ]);
    const alice = await rowOf('alice');
    expect(alice).toHaveTextContent('(you)');
    expect(alice).toHaveTextContent('Compliance, Admin');
    expect(alice).toHaveTextContent('Active');
    const ben = await rowOf('ben');
    expect(ben).toHaveTextContent('Disabled');
    expect(ben).toHaveTextContent('left the company');
    expect(within(ben).getByRole('button', { name: 'Enable ben' })).toBeInTheDocument();
    expect(within(ben).queryByRole('button', { name: 'Disable ben' })).not.toBeInTheDocument();
    const carla = await rowOf('carla');
    expect(carla).toHaveTextContent('Waiting for the holder to open the link');
    expect(within(alice).getAllByRole('cell')[3]).toHaveTextContent('Yes');
    expect(within(carla).getAllByRole('cell')[3]).toHaveTextContent('No');
  });

  it('creates an account and shows its one-time link once, as the full address, with copy and expiry', async () => {
    const user = userEvent.setup();
    const { calls } = mount([account({ staffId: ALICE.auditorId, username: 'alice', roles: ['admin'] })]);
    const form = await screen.findByTestId('staff-create');
    // Each role is described.
    expect(within(form).getByRole('checkbox', { name: 'Collector' })).toHaveAccessibleDescription(/late loans/i);

    // Nothing is sent without a username and a role.
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await within(form).findByText('Enter a username.')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one role.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await user.type(within(form).getByLabelText('Username'), ' Dana.Cruz ');
    await user.click(within(form).getByRole('checkbox', { name: 'Reviewer' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Collector' }));
    await user.click(within(form).getByRole('button', { name: 'Create account' }));

    const link = await screen.findByTestId('staff-setup-link');
    expect(calls).toEqual([{ path: 'create', body: { username: 'Dana.Cruz', roles: ['reviewer', 'collector'] } }]);
    expect(within(link).getByRole('heading', { name: 'Setup link for dana.cruz' })).toBeInTheDocument();
    const url = within(link).getByLabelText('Setup link');
    expect(url).toHaveValue(`http://localhost/admin/setup#${TOKEN}`);
    expect(url).toHaveAttribute('readonly');
    expect(link).toHaveTextContent('This link is shown only once and cannot be shown again.');
    expect(within(link).getByTestId('staff-setup-expiry')).toHaveTextContent(/Works until .*2026/);

    await user.click(within(link).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`http://localhost/admin/setup#${TOKEN}`);
    expect(within(link).getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    // The new account is listed, waiting for its holder; the form is empty again.
    expect(await rowOf('dana.cruz')).toHaveTextContent('Waiting for the holder to open the link');
    expect(within(form).getByLabelText('Username')).toHaveValue('');

    // Hidden, the link is gone for good.
    await user.click(within(link).getByRole('button', { name: 'Done, hide the link' }));
    expect(screen.queryByTestId('staff-setup-link')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(new RegExp(TOKEN))).not.toBeInTheDocument();
  });

  it('shows the server refusing a new account', async () => {
    const user = userEvent.setup();
    mount([]);
    server.use(
      http.post('http://localhost/admin/api/staff/create', () =>
        HttpResponse.json({ code: 10004, msg: 'username: maria.reyes is taken', data: null }),
      ),
    );
    const form = await screen.findByTestId('staff-create');
    await user.type(within(form).getByLabelText('Username'), 'maria.reyes');
    await user.click(within(form).getByRole('checkbox', { name: 'Finance' }));
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await within(form).findByTestId('admin-action-error')).toHaveTextContent('username: maria.reyes is taken');
    expect(screen.queryByTestId('staff-setup-link')).not.toBeInTheDocument();
  });

  it('changes an account\'s roles in place, and shows a refusal', async () => {
    const user = userEvent.setup();
    const { calls } = mount([account({ staffId: ALICE.auditorId, username: 'alice', roles: ['admin'] }), account()]);
    const maria = await rowOf('maria.reyes');
    await user.click(within(maria).getByRole('button', { name: 'Change roles: maria.reyes' }));
    const roles = within(maria).getByRole('group', { name: 'Roles of maria.reyes' });
    expect(within(roles).getByRole('checkbox', { name: 'Reviewer' })).toBeChecked();
    await user.click(within(roles).getByRole('checkbox', { name: 'Reviewer' }));
    await user.click(within(roles).getByRole('checkbox', { name: 'Compliance' }));
    await user.click(within(maria).getByRole('button', { name: 'Save roles' }));
    await waitFor(() => expect(maria).toHaveTextContent('Compliance'));
    expect(calls.at(-1)).toEqual({ path: 'assignRoles', body: { staffId: 's-1', roles: ['compliance'] } });
    expect(screen.getByText('Roles of maria.reyes saved.')).toBeInTheDocument();
    expect(within(maria).queryByRole('group')).not.toBeInTheDocument();

    // None ticked: nothing is sent.
    await user.click(within(maria).getByRole('button', { name: 'Change roles: maria.reyes' }));
    await user.click(within(maria).getByRole('checkbox', { name: 'Compliance' }));
    await user.click(within(maria).getByRole('button', { name: 'Save roles' }));
    expect(within(maria).getByText('Choose at least one role.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    // The server's refusal is shown, and the editor stays open to try again.
    server.use(
      http.post('http://localhost/admin/api/staff/assignRoles', () =>
        HttpResponse.json({ code: 10004, msg: 'roles: give at least one role', data: null }),
      ),
    );
    await user.click(within(maria).getByRole('checkbox', { name: 'Finance' }));
    await user.click(within(maria).getByRole('button', { name: 'Save roles' }));
    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent(
      'maria.reyes: Refused by the server: roles: give at least one role',
    );
    expect(within(maria).getByRole('group', { name: 'Roles of maria.reyes' })).toBeInTheDocument();
  });

  it('offers no actions on one\'s own account (another admin takes them)', async () => {
    mount([account({ staffId: ALICE.auditorId, username: 'alice', roles: ['admin'] }), account()]);
    const alice = await rowOf('alice');
    expect(within(alice).queryAllByRole('button')).toEqual([]);
    expect(alice).toHaveTextContent('Your own account: another admin changes its roles');
    expect(within(await rowOf('maria.reyes')).getAllByRole('button')).toHaveLength(3);
  });

  it('disables an account with a reason, and enables it again', async () => {
    // The dialog animates in (antd-mobile): its buttons take clicks before the animation ends.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { calls } = mount([account()]);
    const maria = await rowOf('maria.reyes');
    await user.click(within(maria).getByRole('button', { name: 'Disable maria.reyes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable maria.reyes' });
    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'on leave until March');
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(maria).toHaveTextContent('on leave until March'));
    expect(calls).toEqual([{ path: 'disable', body: { staffId: 's-1', reason: 'on leave until March' } }]);
    expect(maria).toHaveTextContent('Disabled');

    await user.click(within(maria).getByRole('button', { name: 'Enable maria.reyes' }));
    await waitFor(() => expect(maria).toHaveTextContent('Active'));
    expect(calls.at(-1)).toEqual({ path: 'enable', body: { staffId: 's-1' } });
  });

  it('resets a password after a confirmation, and shows the new one-time link', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { calls } = mount([account()]);
    const maria = await rowOf('maria.reyes');
    await user.click(within(maria).getByRole('button', { name: 'Reset password: maria.reyes' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Reset the password of maria.reyes?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);

    await user.click(within(maria).getByRole('button', { name: 'Reset password: maria.reyes' }));
    const again = await screen.findByRole('alertdialog', { name: 'Reset the password of maria.reyes?' });
    await user.click(within(again).getByRole('button', { name: 'Reset password' }));
    const link = await screen.findByTestId('staff-setup-link');
    expect(calls).toEqual([{ path: 'resetPassword', body: { staffId: 's-1' } }]);
    expect(within(link).getByRole('heading', { name: 'New setup link for maria.reyes' })).toBeInTheDocument();
    expect(within(link).getByLabelText('Setup link')).toHaveValue(`http://localhost/admin/setup#${RESET_TOKEN}`);
    await waitFor(() => expect(maria).toHaveTextContent('Waiting for the holder to open the link'));
  });
});
