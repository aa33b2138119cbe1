/**
 * Personal data on the My page (PRODUCT.md 12.6): the privacy notice accepted at
 * sign-up, with its version and when (its text opens from there), or that none is
 * on record; "Download my data" fetches the export with the borrower's token and
 * saves it as `my-data-YYYY-MM-DD.json`, the server's answer as indented JSON; a
 * refusal is shown and nothing is saved.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';
import { setLanguage } from '@/lib/i18n';
import { exportFileName } from '../data-export';
import MyScreen from '../my-screen';

const session = { token: 'tok', redirect: null };

const EXPORT = {
  formatVersion: 1,
  exportedAt: '2026-11-24T03:00:00.000000Z',
  user: { userId: 'u1', mobile: '09171234567', realName: 'Ana Cruz', bankAccount: { accountNo: '001234567890' } },
  orders: [{ orderId: 'o1', orderNo: 'HL-2611-000009', detail: { status: 10, periodViews: [] }, timeline: [] }],
};

/** The file names saved through a temporary link. */
function savedFiles(): string[] {
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

beforeEach(() => {
  let n = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => `blob:test-${(n += 1)}`), revokeObjectURL: vi.fn() }),
  );
});

afterEach(async () => {
  vi.restoreAllMocks();
  await setLanguage('en', false);
});

/** A blob's text (jsdom's Blob has no `text()`). */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

function mountMy(privacyNotice: { version: string; acceptedAt: string; language?: string | null } | null) {
  server.use(
    answer('jackey/user/info', { ...userFixture(), privacyNotice }),
    answer('jackey/user/notices', { total: 0, unread: 0, page: 1, pageSize: 20, notices: [] }),
    answer('jackey/loan/getAllCompanyConfigs', {
      privacyNoticeVersion: '2026-11',
      'privacy-notice': 'We keep your data for 5 years after your last loan closes.',
    }),
    answer('jackey/loan/getCustomerService', null),
  );
  return renderWithProviders(<MyScreen />, { route: '/my', preloadedState: { session } });
}

describe('the My page: your data', () => {
  it('names the privacy notice version accepted and when; its text opens from there', async () => {
    const user = userEvent.setup();
    mountMy({ version: '2026-11', acceptedAt: '2026-11-22T09:00:00.000000Z' });
    const line = await screen.findByTestId('privacy-consent');
    expect(line).toHaveTextContent(/Privacy notice v2026-11 accepted on .*2026/);
    expect(line).toHaveTextContent(/Nov/);
    await user.click(line);
    expect(await screen.findByText('We keep your data for 5 years after your last loan closes.')).toBeInTheDocument();
    expect(screen.getByText('Version 2026-11')).toBeInTheDocument();
  });

  it('names the language the notice was read in, where it was recorded', async () => {
    mountMy({ version: '2026-11', acceptedAt: '2026-11-22T09:00:00.000000Z', language: 'fil' });
    const line = await screen.findByTestId('privacy-consent');
    expect(line).toHaveTextContent(/Privacy notice v2026-11 in Filipino, accepted on .*2026/);
  });

  it('says so when no acceptance is on record (an account from before consent was asked)', async () => {
    mountMy(null);
    expect(await screen.findByTestId('privacy-consent')).toHaveTextContent('No privacy notice acceptance on record');
  });

  it('reads the line in Filipino and Chinese too', async () => {
    await setLanguage('fil', false);
    const fil = mountMy({ version: '2026-11', acceptedAt: '2026-11-22T09:00:00.000000Z' });
    expect(await screen.findByTestId('privacy-consent')).toHaveTextContent(/Abiso sa privacy v2026-11, tinanggap noong Nob 22, 2026/);
    expect(screen.getByText('I-download ang aking datos')).toBeInTheDocument();
    fil.unmount();
    await setLanguage('zh', false);
    mountMy({ version: '2026-11', acceptedAt: '2026-11-22T09:00:00.000000Z' });
    expect(await screen.findByTestId('privacy-consent')).toHaveTextContent(/已于 .*2026.* 接受隐私声明 v2026-11/);
    expect(screen.getByText('下载我的数据')).toBeInTheDocument();
  });

  it('downloads everything held as my-data-YYYY-MM-DD.json with the borrower token', async () => {
    const seen: { auth: string | null }[] = [];
    const files = savedFiles();
    const user = userEvent.setup();
    mountMy({ version: '2026-11', acceptedAt: '2026-11-22T09:00:00.000000Z' });
    server.use(
      http.post('http://localhost/jackey/user/dataExport', ({ request }) => {
        seen.push({ auth: request.headers.get('authorization') });
        return HttpResponse.json({ code: 0, msg: 'ok', data: EXPORT });
      }),
    );
    await user.click(await screen.findByText('Download my data'));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]).toBe(exportFileName());
    expect(files[0]).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(seen).toEqual([{ auth: 'Bearer tok' }]);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]?.[0] as Blob;
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await textOf(blob))).toEqual(EXPORT);
    expect(await screen.findByText(`Saved ${files[0]}`)).toBeInTheDocument();
  });

  it('shows a refusal and saves nothing', async () => {
    const files = savedFiles();
    const user = userEvent.setup();
    mountMy(null);
    server.use(fail('jackey/user/dataExport', 5, 'too many requests'));
    await user.click(await screen.findByText('Download my data'));
    expect(await screen.findByText(/too many/i)).toBeInTheDocument();
    expect(files).toEqual([]);
  });
});

describe('the export file name', () => {
  it('is the device’s day', () => {
    expect(exportFileName(new Date(2026, 10, 24, 23, 30))).toBe('my-data-2026-11-24.json');
    expect(exportFileName(new Date(2027, 0, 5, 0, 5))).toBe('my-data-2027-01-05.json');
  });
});
