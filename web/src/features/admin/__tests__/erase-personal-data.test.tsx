/**
 * Erasing a borrower's personal data from the console's borrower page (PRODUCT.md
 * 12.6, RA 10173): the red "Erase personal data" button first asks to confirm, and
 * sends nothing when the auditor cancels; confirmed, it POSTs
 * `/admin/api/users/erase` with the user id and an Idempotency-Key, says it is done
 * and shows the borrower as the server now has them ("[erased]"); the server's
 * refusals show under it: the retention period's end date (10004) and an open
 * order (40005).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, server } from '@/testing/server';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import type { UserDetail } from '@/lib/api-types';
import { ALICE, background, signInConsole } from './fixtures';

const USER_ID = '01a20b5c-cdc7-724b-ae94-eccdfed5c1fc';
const ERASE = 'http://localhost/admin/api/users/erase';
const RETENTION = 'retention period not over: personal data is kept until 2031-03-14T08:00:00Z';

const detail: UserDetail = {
  profile: { ...userFixture(), userId: USER_ID },
  identity: { status: 2, rejectReason: null, images: null },
  lock: null,
  contacts: [],
  orders: [],
  auditorActions: [],
};

/** The same borrower as the server answers after the erasure. */
const erasedDetail: UserDetail = {
  ...detail,
  profile: { ...detail.profile, realName: '[erased]', mobile: '[erased]', identity: '[erased]', address: '[erased]' },
  auditorActions: [
    {
      sequence: 7,
      time: '2026-11-24T09:30:00Z',
      actor: `auditor:${ALICE.auditorId}`,
      actorName: ALICE.username,
      type: 'PersonalDataErased',
      payload: { PersonalDataErased: { auditor_id: ALICE.auditorId, at: '2026-11-24T09:30:00Z' } },
    },
  ],
};

interface Sent {
  body: unknown;
  key: string | null;
  auth: string | null;
}

/** Answers the erase call with `envelope` and records what was sent. */
function eraseAnswers(envelope: { code: number; msg: string }, onOk?: () => void): Sent[] {
  const sent: Sent[] = [];
  server.use(
    http.post(ERASE, async ({ request }) => {
      sent.push({
        body: await request.json(),
        key: request.headers.get('idempotency-key'),
        auth: request.headers.get('authorization'),
      });
      if (envelope.code === 0) onOk?.();
      return HttpResponse.json({ ...envelope, data: null });
    }),
  );
  return sent;
}

function mount() {
  return renderWithProviders(<AdminApp />, { route: `/admin/users/${USER_ID}`, path: '/admin/*' });
}

/** Opens the confirmation: the button, then the dialog it opens. */
async function openConfirmation(user: ReturnType<typeof userEvent.setup>) {
  const section = await screen.findByTestId('admin-erase');
  await user.click(within(section).getByRole('button', { name: 'Erase personal data' }));
  return screen.findByRole('alertdialog', { name: 'Erase personal data' });
}

beforeEach(() => {
  signInConsole();
  server.use(...background, answer('admin/api/users/exportLog', []), answer('admin/api/users/detail', detail));
});

describe("erasing a borrower's personal data", () => {
  it('explains the rule, asks to confirm and sends nothing when cancelled (by button or Escape)', async () => {
    const sent = eraseAnswers({ code: 0, msg: 'ok' });
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    mount();

    const section = await screen.findByTestId('admin-erase');
    // In the "Personal data" section, next to the export.
    expect(within(screen.getByTestId('admin-data-export')).getByTestId('admin-erase')).toBe(section);
    expect(section).toHaveTextContent('5 years after the borrower\'s last loan closed');
    expect(section).toHaveTextContent('RA 10173');
    expect(section).toHaveTextContent('cannot be undone');

    const dialog = await openConfirmation(user);
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining('It cannot be undone.'));
    // No note is asked; Cancel has the focus, so Enter alone does not erase.
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(cancel).toHaveFocus());
    await user.click(cancel);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    // By keyboard: the button opens it, Escape closes it.
    within(section).getByRole('button', { name: 'Erase personal data' }).focus();
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('alertdialog', { name: 'Erase personal data' });
    await waitFor(() => expect(within(again).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    expect(sent).toEqual([]);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Ana Cruz');
  });

  it('erases on confirmation with the user id and an Idempotency-Key, then shows the erased borrower', async () => {
    let erased = false;
    server.use(
      http.post('http://localhost/admin/api/users/detail', () =>
        HttpResponse.json({ code: 0, msg: 'ok', data: erased ? erasedDetail : detail }),
      ),
    );
    const sent = eraseAnswers({ code: 0, msg: 'ok' }, () => {
      erased = true;
    });
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    mount();
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Ana Cruz');

    const dialog = await openConfirmation(user);
    await user.click(within(dialog).getByRole('button', { name: 'Erase personal data' }));

    expect(await screen.findByText('Personal data erased.')).toBeInTheDocument();
    expect(sent).toEqual([
      { body: { userId: USER_ID }, key: expect.stringMatching(/^[0-9a-f-]{36}$/), auth: 'Bearer admin-token' },
    ]);
    // The user is read again: the server's erased values, who erased them, and no button to erase again.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('[erased]'));
    expect(screen.queryByText('Ana Cruz')).not.toBeInTheDocument();
    const section = screen.getByTestId('admin-erase');
    expect(within(section).getByTestId('admin-erased')).toHaveTextContent("This borrower's personal data has been erased.");
    expect(within(section).getByTestId('admin-erased-actor')).toHaveTextContent('alice');
    expect(within(section).queryByRole('button', { name: 'Erase personal data' })).not.toBeInTheDocument();
    expect(within(section).getByText('Personal data erased.')).toBeInTheDocument();
    // The identity reads closed, not "awaiting review", and offers no decision.
    expect(screen.getByTestId('admin-identity-status')).toHaveTextContent('Closed: personal data erased, no review');
    expect(screen.queryByRole('button', { name: 'Verify identity' })).not.toBeInTheDocument();
    // The auditor-actions log names the event.
    const logged = screen.getAllByTestId('user-action');
    expect(logged.map((entry) => entry.textContent)).toEqual([expect.stringContaining('Personal data erased')]);
    expect(screen.getByTestId('user-action-actor')).toHaveTextContent('Auditor alice');
    expect(screen.queryByTestId('admin-action-error')).not.toBeInTheDocument();
  });

  it('shows the retention refusal with the date the data is kept until (10004)', async () => {
    const sent = eraseAnswers({ code: 10004, msg: RETENTION });
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    mount();

    const dialog = await openConfirmation(user);
    await user.click(within(dialog).getByRole('button', { name: 'Erase personal data' }));

    const error = await within(screen.getByTestId('admin-erase')).findByTestId('admin-action-error');
    expect(error).toHaveTextContent(`Refused by the server: ${RETENTION}`);
    expect(error).toHaveTextContent('2031-03-14T08:00:00Z');
    expect(error).toHaveAttribute('role', 'alert');
    expect(sent).toEqual([{ body: { userId: USER_ID }, key: expect.any(String), auth: 'Bearer admin-token' }]);
    expect(screen.queryByText('Personal data erased.')).not.toBeInTheDocument();
    // Nothing changed: the button is still there, the name too.
    expect(within(screen.getByTestId('admin-erase')).getByRole('button', { name: 'Erase personal data' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Ana Cruz');
  });

  it('shows the open-order refusal in the auditor\'s words (40005)', async () => {
    const sent = eraseAnswers({ code: 40005, msg: 'an order is already in progress' });
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    mount();

    const dialog = await openConfirmation(user);
    await user.click(within(dialog).getByRole('button', { name: 'Erase personal data' }));

    const error = await within(screen.getByTestId('admin-erase')).findByTestId('admin-action-error');
    expect(error).toHaveTextContent(
      'Not possible while the borrower has an open order: wait until it is closed (repaid, refused, cancelled or expired).',
    );
    // Not the borrower's own wording ("You already have an order in progress.").
    expect(error).not.toHaveTextContent('You already');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ userId: USER_ID });
    expect(screen.queryByText('Personal data erased.')).not.toBeInTheDocument();
  });
});
