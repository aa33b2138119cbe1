/**
 * `/admin/settings` (issue 55): the lender's settings in force (invite codes, company
 * texts by language, receiving accounts), every version and the proposals; "Propose a
 * change" sends the whole settings as edited (codes one per line, trimmed, blanks
 * dropped; empty texts left out) with a reason and a fresh proposal id; Approve and
 * Reject (with a reason) decide another's proposal; the server's refusal of the maker
 * approving their own (50006) is shown.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { Wire } from '@/lib/wire';
import AdminApp from '../admin-app';
import { access, ALICE, background, BOB, signInConsole } from './fixtures';

type SettingsLine = Wire['SettingsLineView'];
type SettingsTerms = Wire['SettingsTerms'];

function terms(overrides: Partial<SettingsTerms> = {}): SettingsTerms {
  return {
    inviteCodeRequired: true,
    inviteCodes: ['AGENT01', 'AGENT02'],
    texts: {
      'about-us': { en: 'We lend fairly.', zh: '我们公平放贷。' },
      faq: { en: 'How do I apply?' },
      'customer-service-hours': { en: '9:00 to 18:00' },
      'customer-service-phone': { en: '+63 2 8000 0000' },
      whatsapp: { en: '+63 917 000 0000' },
      // A text the console does not edit: kept as it is.
      'privacy-note': { en: 'Kept.' },
    },
    receivingAccounts: [{ bankName: 'BDO', accountName: 'Lender Inc.', accountNo: '0012-3456-78' }],
    ...overrides,
  };
}

const PENDING = '0192a3b4-0000-7000-8000-000000000012';

function settingsLine(): SettingsLine {
  const first = terms({ inviteCodes: ['AGENT01'], receivingAccounts: [] });
  return {
    inForce: 1,
    versions: [
      { version: 0, effectiveAt: null, terms: first },
      { version: 1, effectiveAt: '2026-11-20T08:00:00Z', terms: terms() },
    ],
    proposals: [
      {
        proposalId: PENDING,
        status: 'pending',
        terms: terms({ inviteCodes: ['AGENT01', 'AGENT02', 'AGENT03'], texts: { ...terms().texts, faq: { en: 'Apply in the app.' } } }),
        effectiveAt: '2026-12-01T00:00:00Z',
        baseVersion: 1,
        maker: { staffId: ALICE.auditorId, username: 'alice' },
        reason: 'a new agent',
        version: null,
        checker: null,
        rejection: null,
      },
      {
        proposalId: '0192a3b4-0000-7000-8000-000000000011',
        status: 'approved',
        terms: terms(),
        effectiveAt: '2026-11-20T08:00:00Z',
        baseVersion: 0,
        maker: { staffId: BOB.auditorId, username: 'bob' },
        reason: 'our bank account',
        version: 1,
        checker: { staffId: ALICE.auditorId, username: 'alice' },
        rejection: null,
      },
    ],
  };
}

interface Call {
  path: string;
  body: Record<string, unknown>;
}

function mount(line: SettingsLine | null = settingsLine()) {
  signInConsole(ALICE, 'admin-token', ['admin']);
  const calls: Call[] = [];
  const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'ok', data });
  server.use(...background);
  server.use(
    http.post('http://localhost/admin/api/me', () => ok(access(['admin']))),
    http.post('http://localhost/admin/api/settings/list', () => ok(line)),
    http.post('http://localhost/admin/api/settings/:action', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: String(params.action), body });
      switch (params.action) {
        case 'propose': {
          const sent = body.terms as SettingsTerms;
          if (sent.inviteCodes.some((code) => /\s/.test(code))) {
            return HttpResponse.json({ code: 10004, msg: 'request error: inviteCodes: letters, digits, - or _', data: null });
          }
          return ok({ proposalId: body.proposalId });
        }
        case 'approve':
          return HttpResponse.json({ code: 50006, msg: 'a second staff member must approve this', data: null });
        case 'reject':
          return ok(null);
        default:
          return HttpResponse.json({ code: 10004, msg: 'unknown', data: null });
      }
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route: '/admin/settings', path: '/admin/*' });
  return { ...rendered, calls };
}

describe('the lender settings screen', () => {
  it('lists the settings in force, the versions and a pending proposal', async () => {
    mount();
    expect(await screen.findByRole('heading', { name: 'Lender settings', level: 1 })).toBeInTheDocument();
    const line = await screen.findByTestId('settings-line');
    expect(within(line).getByTestId('settings-in-force')).toHaveTextContent('Version 1 in force');
    expect(line).toHaveTextContent('Invite code requiredYes');
    expect(line).toHaveTextContent('AGENT01, AGENT02');

    const texts = within(line).getAllByTestId('settings-text');
    const about = texts.find((row) => row.textContent?.startsWith('About us'));
    expect(about).toHaveTextContent('We lend fairly.');
    expect(about).toHaveTextContent('我们公平放贷。');
    expect(texts.find((row) => row.textContent?.startsWith('Customer service phone'))).toHaveTextContent('+63 2 8000 0000');
    expect(texts.find((row) => row.textContent?.startsWith('privacy-note'))).toHaveTextContent('Kept.');
    const [account] = within(line).getAllByTestId('settings-account');
    expect(account).toHaveTextContent('BDOLender Inc.0012-3456-78');

    const versions = within(line).getAllByTestId('settings-version');
    expect(versions).toHaveLength(2);
    expect(versions[0]).toHaveTextContent('2 codes');
    expect(versions[0]).toHaveTextContent('1 account');
    expect(versions[1]).toHaveTextContent('From the start (configuration)');
    expect(versions[1]).toHaveTextContent('0 accounts');

    const [pending, approved] = within(line).getAllByTestId('settings-proposal');
    expect(pending).toHaveTextContent('Pending');
    expect(pending).toHaveTextContent('alice');
    expect(pending).toHaveTextContent('a new agent');
    expect(pending).toHaveTextContent('Invite codes, FAQ');
    expect(within(pending).getByRole('button', { name: 'Approve the proposal by alice' })).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: 'Reject the proposal by alice' })).toBeInTheDocument();
    expect(approved).toHaveTextContent('Approved');
    expect(approved).toHaveTextContent('Became version 1');
    expect(approved).toHaveTextContent('Invite codes, Receiving accounts');
    expect(within(approved).queryByRole('button')).not.toBeInTheDocument();

    // The form starts from the version in force.
    const form = within(line).getByTestId('settings-propose');
    expect(within(form).getByLabelText('Registration needs an invite code')).toBeChecked();
    expect(within(form).getByLabelText('Invite codes (one per line)')).toHaveValue('AGENT01\nAGENT02');
    expect(within(form).getByLabelText('About us (English)')).toHaveValue('We lend fairly.');
    expect(within(form).getByLabelText('About us (Chinese)')).toHaveValue('我们公平放贷。');
    expect(within(form).getByLabelText('About us (Filipino)')).toHaveValue('');
    expect(within(form).getByLabelText('Customer service phone')).toHaveValue('+63 2 8000 0000');
    expect(within(form).getByLabelText('Bank (account 1)')).toHaveValue('BDO');
  });

  it('starts the form from the latest approved version, a scheduled one, and keeps showing the settings in force', async () => {
    const line = settingsLine();
    line.versions.push({ version: 2, effectiveAt: '2099-01-01T00:00:00Z', terms: terms({ inviteCodeRequired: false, inviteCodes: ['AGENT09'] }) });
    line.proposals = [];
    mount(line);
    const section = await screen.findByTestId('settings-line');
    expect(within(section).getByTestId('settings-in-force')).toHaveTextContent('Version 1 in force');
    expect(section).toHaveTextContent('AGENT01, AGENT02');
    const versions = within(section).getAllByTestId('settings-version');
    expect(versions).toHaveLength(3);
    expect(versions[0]).toHaveTextContent('Scheduled');
    expect(versions[0]).toHaveTextContent('1 code');
    expect(versions[1]).toHaveTextContent('in force');
    expect(versions[1]).not.toHaveTextContent('Scheduled');

    const form = within(section).getByTestId('settings-propose');
    expect(within(form).getByLabelText('Registration needs an invite code')).not.toBeChecked();
    expect(within(form).getByLabelText('Invite codes (one per line)')).toHaveValue('AGENT09');
  });

  it('proposes the whole settings as edited: codes by line, an English FAQ, an added account, the reason and a UUID', async () => {
    const user = userEvent.setup();
    const { calls } = mount();
    const form = await screen.findByTestId('settings-propose');

    // Nothing is sent without a reason.
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    expect(await within(form).findByText('Please enter a reason.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    const codes = within(form).getByLabelText('Invite codes (one per line)');
    await user.clear(codes);
    await user.type(codes, '  AGENT01 {Enter}{Enter}NEW-03{Enter}  ');
    const faq = within(form).getByLabelText('FAQ (English)');
    await user.clear(faq);
    await user.type(faq, 'Apply in the app.');
    await user.clear(within(form).getByLabelText('WhatsApp'));
    await user.click(within(form).getByRole('button', { name: 'Add account' }));
    await user.type(within(form).getByLabelText('Bank (account 2)'), 'GCash');
    await user.type(within(form).getByLabelText('Account name (account 2)'), 'Lender Inc.');
    await user.type(within(form).getByLabelText('Account number (account 2)'), ' 0917 000 0000 ');
    await user.type(within(form).getByLabelText('Reason'), 'new agent and GCash');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));

    expect(await within(form).findByRole('status')).toHaveTextContent('Change proposed');
    expect(calls).toHaveLength(1);
    const { path, body } = calls[0];
    expect(path).toBe('propose');
    expect(body).toEqual({
      proposalId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      reason: 'new agent and GCash',
      terms: {
        inviteCodeRequired: true,
        inviteCodes: ['AGENT01', 'NEW-03'],
        texts: {
          'privacy-note': { en: 'Kept.' },
          'about-us': { en: 'We lend fairly.', zh: '我们公平放贷。' },
          // No zh or fil typed: no zh or fil sent.
          faq: { en: 'Apply in the app.' },
          'customer-service-hours': { en: '9:00 to 18:00' },
          'customer-service-phone': { en: '+63 2 8000 0000' },
          // WhatsApp emptied: left out.
        },
        receivingAccounts: [
          { bankName: 'BDO', accountName: 'Lender Inc.', accountNo: '0012-3456-78' },
          { bankName: 'GCash', accountName: 'Lender Inc.', accountNo: '0917 000 0000' },
        ],
      },
    });
    expect(within(form).getByLabelText('Reason')).toHaveValue('');

    // A second submission is a new proposal, with its own id; an account removed is not sent.
    await user.click(within(form).getByRole('button', { name: 'Remove account 1' }));
    await user.type(within(form).getByLabelText('Reason'), 'BDO closed');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].body.proposalId).not.toBe(body.proposalId);
    expect((calls[1].body.terms as SettingsTerms).receivingAccounts).toEqual([
      { bankName: 'GCash', accountName: 'Lender Inc.', accountNo: '0917 000 0000' },
    ]);
  });

  it('shows the field the server names (10004)', async () => {
    const user = userEvent.setup();
    mount();
    const form = await screen.findByTestId('settings-propose');
    const codes = within(form).getByLabelText('Invite codes (one per line)');
    await user.clear(codes);
    await user.type(codes, 'AGENT 01');
    await user.type(within(form).getByLabelText('Reason'), 'typo');
    await user.click(within(form).getByRole('button', { name: 'Propose change' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('inviteCodes: letters, digits, - or _');
  });

  it('shows the refusal when the maker approves their own proposal (50006)', async () => {
    const user = userEvent.setup();
    const { calls } = mount();
    const line = await screen.findByTestId('settings-line');
    const [pending] = within(line).getAllByTestId('settings-proposal');
    await user.click(within(pending).getByRole('button', { name: 'Approve the proposal by alice' }));
    expect(await within(line).findByTestId('admin-action-error')).toHaveTextContent(
      'Another staff member must approve this: the one who proposed it cannot confirm it.',
    );
    expect(calls).toEqual([{ path: 'approve', body: { proposalId: PENDING } }]);
  });

  it('rejects a proposal with a reason', async () => {
    // The dialog animates in (antd-mobile): its buttons take clicks before the animation ends.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { calls } = mount();
    const line = await screen.findByTestId('settings-line');
    const [pending] = within(line).getAllByTestId('settings-proposal');
    await user.click(within(pending).getByRole('button', { name: 'Reject the proposal by alice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the proposal by alice' });
    await user.type(within(dialog).getByLabelText('Reason'), 'unknown agent');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(line).findByText('Proposal rejected.')).toBeInTheDocument();
    expect(calls).toEqual([{ path: 'reject', body: { proposalId: PENDING, reason: 'unknown agent' } }]);
  });

  it('says so when there are no settings yet', async () => {
    mount(null);
    expect(await screen.findByText('No settings yet.')).toBeInTheDocument();
  });
});
