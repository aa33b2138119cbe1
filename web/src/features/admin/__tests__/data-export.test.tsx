/**
 * The console's borrower page exports the borrower's personal data (PRODUCT.md
 * 12.6): "Export borrower data" fetches it with the auditor's token for that user
 * and saves it as `borrower-data-<user id>-YYYY-MM-DD.json`; the record of every
 * export — the borrower's own and the auditors', by name — is listed and read again
 * after each export; a refusal is shown and nothing is saved.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { borrowerExportFileName, type DataExportRecord } from '../data-export';
import type { UserDetail } from '@/lib/api-types';
import { background, signInConsole } from './fixtures';

const USER_ID = '01a20b5c-cdc7-724b-ae94-eccdfed5c1fc';

const detail: UserDetail = {
  profile: { ...userFixture(), userId: USER_ID },
  identity: { status: 2, rejectReason: null, images: null },
  lock: null,
  contacts: [],
  orders: [],
  auditorActions: [],
};

const EXPORT = { formatVersion: 1, user: { userId: USER_ID, realName: 'Ana Cruz' }, orders: [] };

/** The file names saved through a temporary link. */
function savedFiles(): string[] {
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test'), revokeObjectURL: vi.fn() }),
  );
  signInConsole();
  server.use(...background, answer('admin/api/users/detail', detail));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the console's borrower data export", () => {
  it('exports with the auditor token, saves the file and lists who exported when', async () => {
    const seen: { body: unknown; auth: string | null }[] = [];
    const records: DataExportRecord[] = [
      { at: '2026-11-23T08:00:00Z', actor: `user:${USER_ID}`, actorName: null, requestId: 'r1' },
    ];
    server.use(
      http.post('http://localhost/admin/api/users/exportLog', () =>
        HttpResponse.json({ code: 0, msg: 'ok', data: records }),
      ),
      http.post('http://localhost/admin/api/users/dataExport', async ({ request }) => {
        seen.push({ body: await request.json(), auth: request.headers.get('authorization') });
        records.push({ at: '2026-11-24T09:30:00Z', actor: 'auditor:a-1', actorName: 'alice', requestId: 'r2' });
        return HttpResponse.json({ code: 0, msg: 'ok', data: EXPORT });
      }),
    );
    const files = savedFiles();
    const user = userEvent.setup();
    renderWithProviders(<AdminApp />, { route: `/admin/users/${USER_ID}`, path: '/admin/*' });

    const first = await screen.findAllByTestId('admin-data-export-record');
    expect(first.map((row) => row.textContent)).toEqual([expect.stringContaining('the borrower')]);
    await user.click(screen.getByRole('button', { name: 'Export borrower data' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]).toBe(borrowerExportFileName(USER_ID));
    expect(files[0]).toMatch(new RegExp(`^borrower-data-${USER_ID}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    expect(seen).toEqual([{ body: { userId: USER_ID }, auth: 'Bearer admin-token' }]);
    expect(vi.mocked(URL.createObjectURL).mock.calls[0]?.[0]).toBeInstanceOf(Blob);
    expect(await screen.findByText(`Saved ${files[0]}`)).toBeInTheDocument();
    // The new record (this auditor's) is listed after the export.
    await waitFor(() => expect(screen.getAllByTestId('admin-data-export-record')).toHaveLength(2));
    const actors = screen.getAllByTestId('admin-data-export-actor');
    expect(actors[1]).toHaveTextContent('alice');
    expect(actors[1]).toHaveAttribute('title', 'auditor:a-1');
  });

  it('shows a refusal and saves nothing', async () => {
    server.use(
      answer('admin/api/users/exportLog', []),
      fail('admin/api/users/dataExport', 40007, 'record not found: user'),
    );
    const files = savedFiles();
    const user = userEvent.setup();
    renderWithProviders(<AdminApp />, { route: `/admin/users/${USER_ID}`, path: '/admin/*' });
    expect(await screen.findByText("Nobody has exported this borrower's data yet.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export borrower data' }));
    expect(await screen.findByTestId('admin-action-error')).toBeInTheDocument();
    expect(files).toEqual([]);
  });
});
