/**
 * The inbox (PRODUCT.md 12.5): notices newest first as the server lists them, with
 * the unread count and a dot on unread ones; opening one marks it read and shows its
 * order; "Mark all as read" clears the count; more pages load on demand; and the My
 * page's menu shows the unread count and opens the inbox.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';
import type { Notice, NoticePage } from '../inbox-api';
import InboxScreen from '../inbox-screen';
import MyScreen from '../my-screen';

const session = { token: 'tok', redirect: null };

function notice(overrides: Partial<Notice>): Notice {
  return {
    id: 'o1:20',
    orderId: 'o1',
    period: 4,
    kind: 'due_in_3_days',
    amount: '13493.30',
    dueDate: '2026-11-26',
    createdAt: '2026-11-23T09:00:00Z',
    readAt: null,
    settled: false,
    ...overrides,
  };
}

const NEWEST_FIRST: Notice[] = [
  notice({ id: 'o1:30', kind: 'overdue', period: 1, amount: '13506.79', dueDate: '2026-11-23', createdAt: '2026-11-24T09:00:00Z' }),
  notice({ id: 'o1:20', kind: 'due_in_3_days', period: 4, createdAt: '2026-11-23T09:00:00Z' }),
  notice({
    id: 'o1:10',
    kind: 'due_in_1_day',
    period: 1,
    dueDate: '2026-11-23',
    createdAt: '2026-11-22T09:00:00Z',
    readAt: '2026-11-22T10:00:00Z',
  }),
];

function page(notices: Notice[], extra: Partial<NoticePage> = {}): NoticePage {
  return {
    total: notices.length,
    unread: notices.filter((n) => !n.readAt && !n.settled).length,
    page: 1,
    pageSize: 20,
    notices,
    ...extra,
  };
}

/** Answers `/user/notices` from `pages` (by page number) and records the bodies of both calls. */
function inboxServer(pages: Record<number, NoticePage>) {
  const listed: unknown[] = [];
  const marked: unknown[] = [];
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
    http.post('http://localhost/jackey/user/notices', async ({ request }) => {
      const body = (await request.json()) as { page: number };
      listed.push(body);
      return HttpResponse.json({ code: 0, msg: 'ok', data: pages[body.page] ?? page([]) });
    }),
    http.post('http://localhost/jackey/user/notices/read', async ({ request }) => {
      const body = (await request.json()) as { ids?: string[]; all?: boolean };
      marked.push(body);
      // The server marks them: the next list has them read.
      for (const p of Object.values(pages)) {
        for (const n of p.notices) if (body.all || body.ids?.includes(n.id)) n.readAt ??= '2026-11-24T10:00:00Z';
        p.unread = p.notices.filter((n) => !n.readAt && !n.settled).length;
      }
      return HttpResponse.json({ code: 0, msg: 'ok', data: { marked: 1 } });
    }),
  );
  return { listed, marked };
}

describe('inbox', () => {
  it('lists the notices newest first with the amount, due date and unread count', async () => {
    inboxServer({ 1: page(structuredClone(NEWEST_FIRST)) });
    renderWithProviders(<InboxScreen />, { route: '/inbox', preloadedState: { session } });
    const items = await screen.findAllByTestId('notice');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Payment overdue'),
      expect.stringContaining('Payment reminder'),
      expect.stringContaining('Payment due soon'),
    ]);
    expect(items[0]).toHaveTextContent('Installment 1: ₱13,506.79 was due on Nov 23, 2026 and is now overdue.');
    expect(items[1]).toHaveTextContent('Installment 4: ₱13,493.30 is due on Nov 26, 2026.');
    expect(items.map((item) => item.dataset.unread)).toEqual(['true', 'true', 'false']);
    expect(within(items[0]).getByText('Unread', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('inbox-unread')).toHaveTextContent('2 unread');
    // Nothing tells a borrower more than amount and date: no threat in any notice.
    expect(screen.getByTestId('inbox').textContent).not.toMatch(/legal|police|contacts|must/i);
  });

  it('a reminder whose installment is paid says so and is not unread (issue 52)', async () => {
    const paid = [notice({ id: 'o1:40', kind: 'due_in_1_day', period: 2, settled: true }), ...structuredClone(NEWEST_FIRST)];
    inboxServer({ 1: page(paid) });
    renderWithProviders(<InboxScreen />, { route: '/inbox', preloadedState: { session } });
    const items = await screen.findAllByTestId('notice');
    expect(items[0]).toHaveTextContent('Installment paid');
    expect(items[0]).toHaveTextContent('Installment 2 is paid: nothing more is asked for it.');
    expect(items[0]).not.toHaveTextContent('due soon');
    expect(items[0].dataset.unread).toBe('false');
    expect(screen.getByTestId('inbox-unread')).toHaveTextContent('2 unread');
  });

  it('opening an unread notice marks it read and shows its order', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { marked } = inboxServer({ 1: page(structuredClone(NEWEST_FIRST)) });
    renderWithProviders(<InboxScreen />, {
      route: '/inbox',
      preloadedState: { session },
      others: { '/detail/:orderId': <p>order detail</p> },
    });
    const items = await screen.findAllByTestId('notice');
    await user.click(items[0]);
    expect(await screen.findByText('order detail')).toBeInTheDocument();
    await waitFor(() => expect(marked).toEqual([{ ids: ['o1:30'] }]));
  });

  it('opening a notice already read sends nothing', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { marked } = inboxServer({ 1: page(structuredClone(NEWEST_FIRST)) });
    renderWithProviders(<InboxScreen />, {
      route: '/inbox',
      preloadedState: { session },
      others: { '/detail/:orderId': <p>order detail</p> },
    });
    await user.click((await screen.findAllByTestId('notice'))[2]);
    expect(await screen.findByText('order detail')).toBeInTheDocument();
    expect(marked).toEqual([]);
  });

  it('"Mark all as read" marks every notice and the count refreshes', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { marked } = inboxServer({ 1: page(structuredClone(NEWEST_FIRST)) });
    renderWithProviders(<InboxScreen />, { route: '/inbox', preloadedState: { session } });
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('inbox-unread')).toHaveTextContent('0 unread'));
    expect(marked).toEqual([{ all: true }]);
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
    expect((await screen.findAllByTestId('notice')).map((item) => item.dataset.unread)).toEqual([
      'false',
      'false',
      'false',
    ]);
  });

  it('loads the next page on demand', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const first = Array.from({ length: 20 }, (_, i) =>
      notice({ id: `o1:${100 - i}`, createdAt: `2026-11-23T09:${String(59 - i).padStart(2, '0')}:00Z` }),
    );
    const second = [notice({ id: 'o1:1', createdAt: '2026-11-22T09:00:00Z' })];
    const { listed } = inboxServer({
      1: page(first, { total: 21, unread: 21 }),
      2: page(second, { total: 21, unread: 21, page: 2 }),
    });
    renderWithProviders(<InboxScreen />, { route: '/inbox', preloadedState: { session } });
    expect(await screen.findAllByTestId('notice')).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('notice')).toHaveLength(21));
    expect(listed).toEqual([
      { page: 1, pageSize: 20 },
      { page: 2, pageSize: 20 },
    ]);
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says so when there is nothing', async () => {
    inboxServer({ 1: page([]) });
    renderWithProviders(<InboxScreen />, { route: '/inbox', preloadedState: { session } });
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
  });

  it('is on the My page with its unread count', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    inboxServer({ 1: page(structuredClone(NEWEST_FIRST)) });
    renderWithProviders(<MyScreen />, {
      route: '/my',
      preloadedState: { session },
      others: { '/inbox': <p>inbox screen</p> },
    });
    expect(await screen.findByTestId('inbox-badge')).toHaveTextContent('2 unread');
    await user.click(screen.getByText('Inbox'));
    expect(await screen.findByText('inbox screen')).toBeInTheDocument();
  });
});
