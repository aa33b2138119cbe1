/**
 * The review queue: by default the open orders (the work queue); the status filter
 * asks the api for that status ("All" for every order), lives in the URL, resets
 * the page; the search asks for a name, mobile or order number; the rows show the
 * applicant summary with the mobile masked, the order number and the item's age.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { age } from '../admin-format';
import { background, queueItem, signInConsole } from './fixtures';

interface QueueBody {
  status?: number;
  open?: boolean;
  search?: string;
  page: number;
  pageSize: number;
}

function mount(route = '/admin') {
  signInConsole();
  const bodies: QueueBody[] = [];
  const all = [
    queueItem({ orderId: 'order-submitted', orderNo: 'HL-2611-000042', status: 0 }),
    queueItem({
      orderId: 'order-final',
      status: 3,
      applicant: { userId: 'u2', realName: 'Ben Reyes', mobile: '09171234567', identityStatus: 2 },
    }),
  ];
  server.use(
    ...background,
    http.post('http://localhost/admin/api/orders/queue', async ({ request }) => {
      const body = (await request.json()) as QueueBody;
      bodies.push(body);
      const orders = body.status === undefined ? all : all.filter((o) => o.status === body.status);
      return HttpResponse.json({ code: 0, msg: 'ok', data: { total: orders.length, page: body.page, pageSize: body.pageSize, orders } });
    }),
  );
  const rendered = renderWithProviders(<AdminApp />, { route, path: '/admin/*' });
  return { ...rendered, bodies };
}

describe('the review queue', () => {
  it('lists the open orders first, with the applicant summary, order number, masked mobile and age', async () => {
    const { bodies } = mount();
    const rows = await screen.findAllByTestId('queue-row');
    expect(rows).toHaveLength(2);
    expect(bodies[0]).toEqual({ open: true, page: 1, pageSize: 20 });
    expect(within(rows[0]).getByText('HL-2611-000042')).toBeInTheDocument();
    const second = within(rows[1]);
    expect(second.getByText('Ben Reyes')).toBeInTheDocument();
    expect(second.getByText('*******4567')).toBeInTheDocument();
    expect(second.queryByText('09171234567')).not.toBeInTheDocument();
    expect(second.getByText('₱100,000.00')).toBeInTheDocument();
    expect(second.getByText('6 days')).toBeInTheDocument();
    expect(second.getByText('Awaiting final review')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('searches by name, mobile or order number, and keeps the search in the URL', async () => {
    const user = userEvent.setup();
    const { bodies, router } = mount();
    await screen.findAllByTestId('queue-row');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'HL-2611-000042');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(bodies.at(-1)).toEqual({ open: true, search: 'HL-2611-000042', page: 1, pageSize: 20 }));
    expect(router.state.location.search).toBe('?q=HL-2611-000042');
  });

  it('filters by status: the api is asked for that status and the URL keeps it', async () => {
    const user = userEvent.setup();
    const { bodies, router } = mount();
    await screen.findAllByTestId('queue-row');

    await user.click(screen.getByRole('button', { name: 'Awaiting final review' }));
    await waitFor(() => expect(screen.getAllByTestId('queue-row')).toHaveLength(1));
    expect(bodies.at(-1)).toEqual({ status: 3, open: false, page: 1, pageSize: 20 });
    expect(router.state.location.search).toBe('?status=3');
    expect(screen.getByTestId('queue-row')).toHaveTextContent('Ben Reyes');
    expect(screen.getByRole('button', { name: 'Awaiting final review' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Disbursed' }));
    expect(await screen.findByText('No orders in this status.')).toBeInTheDocument();
    expect(bodies.at(-1)).toEqual({ status: 4, open: false, page: 1, pageSize: 20 });

    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(screen.getAllByTestId('queue-row')).toHaveLength(2));
    expect(bodies.at(-1)).toEqual({ open: false, page: 1, pageSize: 20 });
    expect(router.state.location.search).toBe('?status=all');

    await user.click(screen.getByRole('button', { name: 'Open' }));
    // Answered from the cache of the first visit.
    await waitFor(() => expect(screen.getAllByTestId('queue-row')).toHaveLength(2));
    expect(router.state.location.search).toBe('');
  });

  it('offers every status of the review flow as a filter, and reads it from the URL', async () => {
    const { bodies } = mount('/admin?status=0&page=2');
    await screen.findAllByTestId('queue-row');
    expect(bodies[0]).toEqual({ status: 0, open: false, page: 2, pageSize: 20 });
    const group = screen.getByRole('group', { name: 'Filter by status' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Open',
      'All',
      'Submitted',
      'In first review',
      'Resubmission requested',
      'Awaiting final review',
      'Approved',
      'Disbursed',
      'Refused at first review',
      'Refused at final review',
      'Repaid',
      'Cancelled',
      'Offer expired',
    ]);
  });

  it('opens the order on a click', async () => {
    const user = userEvent.setup();
    const { router } = mount();
    const missing = () => HttpResponse.json({ code: 40007, msg: 'record not found', data: null });
    server.use(
      http.post('http://localhost/admin/api/orders/detail', missing),
      http.post('http://localhost/admin/api/orders/history', missing),
    );
    const rows = await screen.findAllByTestId('queue-row');
    await user.click(within(rows[1]).getByText('6 days'));
    expect(router.state.location.pathname).toBe('/admin/orders/order-final');
  });
});

describe('age', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it.each([
    ['2026-11-22T09:59:30Z', '30 sec. ago'],
    ['2026-11-22T09:15:00Z', '45 min. ago'],
    ['2026-11-22T07:00:00Z', '3 hr. ago'],
    ['2026-11-19T10:00:00Z', '3 days ago'],
  ])('%s is %s', (iso, text) => {
    expect(age(iso, 'en', now)).toBe(text);
  });
  it('speaks Chinese too', () => {
    expect(age('2026-11-22T07:00:00Z', 'zh', now)).toBe('3小时前');
  });
});
