import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { orderFixture, userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import type { Order, User } from '@/lib/api-types';
import DetailScreen from '../detail-screen';
import { timelineFixture } from './fixtures';

const signedIn = { session: { token: 't', redirect: null } };

interface MountOptions {
  order?: Order | (() => Order);
  user?: Partial<User>;
  route?: string;
  /** Handlers that win over the defaults. */
  handlers?: HttpHandler[];
}

function mount(options: MountOptions = {}) {
  const order = options.order ?? orderFixture();
  server.use(
    ...(options.handlers ?? []),
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    http.post('http://localhost/jackey/loan/orderInfo', () =>
      HttpResponse.json({ code: 0, msg: 'ok', data: typeof order === 'function' ? order() : order }),
    ),
    answer('jackey/loan/orderTimeline', timelineFixture),
    answer('jackey/loan/receipts', []),
    answer('jackey/user/info', { ...userFixture(), hasWithdrawPin: true, ...options.user }),
  );
  return renderWithProviders(<DetailScreen />, {
    route: options.route ?? '/detail/o1',
    path: '/detail/:orderId',
    preloadedState: signedIn,
  });
}

const form = () => screen.getByTestId('withdraw-form');
const step = () => form().getAttribute('data-step');
const next = () => within(form()).getByRole('button', { name: 'Next' });

describe('the withdraw form', () => {
  it('walks the steps through ?index=, caps the amount at the balance and keeps browser back working', async () => {
    const user = userEvent.setup();
    const { router } = mount();
    const amount = await screen.findByLabelText('Withdrawal amount', { selector: 'input' });
    expect(amount).toHaveValue('80,000.00');
    expect(step()).toBe('0');

    await user.clear(amount);
    await user.type(amount, '90000');
    await user.click(next());
    expect(await screen.findByRole('alert')).toHaveTextContent('Insufficient balance.');
    expect(router.state.location.search).toBe('');

    await user.clear(amount);
    expect(next()).toBeDisabled();
    await user.type(amount, '50,000.555');
    expect(amount).toHaveValue('50,000.55');
    await user.click(next());
    await waitFor(() => expect(router.state.location.search).toBe('?index=1'));
    expect(screen.getByTestId('withdraw-bank')).toHaveTextContent('BDO Unibank');
    expect(screen.getByTestId('withdraw-bank')).toHaveTextContent('****5678');

    await user.click(next());
    await waitFor(() => expect(router.state.location.search).toBe('?index=2'));
    expect(next()).toBeDisabled();
    await user.type(screen.getByLabelText('Withdraw PIN', { selector: 'input' }), '12a3');
    await user.click(next());
    expect(await screen.findByRole('alert')).toHaveTextContent('The withdraw PIN is 6 digits.');
    await user.type(screen.getByLabelText('Withdraw PIN', { selector: 'input' }), '456');
    await user.click(next());
    await waitFor(() => expect(router.state.location.search).toBe('?index=3'));
    expect(screen.getByTestId('withdraw-summary')).toHaveTextContent('₱50,000.55');
    expect(screen.getByTestId('withdraw-summary')).toHaveTextContent('BDO Unibank ****5678');

    // The browser's back button walks back one step, keeping what was typed.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(step()).toBe('2'));
    expect(screen.getByLabelText('Withdraw PIN', { selector: 'input' })).toHaveValue('123456');
    await user.click(within(form()).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.search).toBe('?index=1'));
  });

  it('shows the first incomplete step for a typed ?index=', async () => {
    const { router } = mount({ route: '/detail/o1?index=3' });
    await screen.findByTestId('withdraw-form');
    await waitFor(() => expect(step()).toBe('2'));
    await waitFor(() => expect(router.state.location.search).toBe('?index=2'));
  });

  it('treats an unknown ?index= as the amount step', async () => {
    mount({ route: '/detail/o1?index=7' });
    await screen.findByTestId('withdraw-form');
    expect(step()).toBe('0');
  });

  it('confirms with the PIN and one Idempotency-Key per attempt, then follows the payout', async () => {
    const user = userEvent.setup();
    const keys: (string | null)[] = [];
    const bodies: unknown[] = [];
    let state: 'approved' | 'paying' | 'paid' = 'approved';
    let withdrawCalls = 0;
    server.use(
      http.post('http://localhost/jackey/user/withdraw', async ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        bodies.push(await request.json());
        withdrawCalls += 1;
        if (withdrawCalls === 1) return HttpResponse.error();
        if (withdrawCalls === 2) {
          return HttpResponse.json({ code: 40008, msg: 'wrong withdraw PIN (4 attempts left)', data: null });
        }
        state = 'paying';
        return HttpResponse.json({ code: 0, msg: 'ok', data: { verified: true, payoutId: 'p1' } });
      }),
    );
    const orderNow = () => {
      if (state === 'approved') return orderFixture();
      if (state === 'paying') {
        state = 'paid';
        return orderFixture({ balance: '0.00', payoutInFlight: true });
      }
      return orderFixture({ status: 4, balance: '0.00', principal: '80000.00', remaining: '80960.00' });
    };
    const { router } = mount({ order: orderNow, route: '/detail/o1?index=2' });
    // The amount step is pre-filled and the bank bound, so ?index=2 is reachable.
    const pin = await screen.findByLabelText('Withdraw PIN', { selector: 'input' });
    await user.type(pin, '111111');
    await user.click(next());
    const confirm = await screen.findByRole('button', { name: 'Confirm withdrawal' });

    // 1: no answer (network). The retry must reuse the key: the first may have arrived.
    await user.click(confirm);
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error');
    // 2: same key again; the server says wrong PIN, with the attempts left.
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong withdraw PIN (4 attempts left).');
    expect(keys[1]).toBe(keys[0]);
    // A wrong PIN sends the borrower back to the PIN step, with the message kept.
    await waitFor(() => expect(step()).toBe('2'));
    expect(screen.getByLabelText('Withdraw PIN', { selector: 'input' })).toHaveValue('');

    await user.type(screen.getByLabelText('Withdraw PIN', { selector: 'input' }), '246810');
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: 'Confirm withdrawal' }));
    // 3: a new key once the server has answered.
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[2]).not.toBe(keys[1]);
    expect(keys.every((k) => typeof k === 'string' && k.length === 36)).toBe(true);
    expect(bodies[2]).toEqual({ password: '246810', withdrawAmount: '80000.00', loanOrderId: 'o1' });

    // The result, then the order read every 2 s until it is paid out.
    expect(await screen.findByTestId('payout-result')).toHaveTextContent('Payout sent to BDO Unibank ****5678');
    expect(router.state.location.search).toBe('');
    expect(
      await screen.findByText('The money has been paid to BDO Unibank ****5678.', undefined, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('withdraw-form')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Repay' })).toBeInTheDocument();
  }, 15000);

  it('the first time, sets up the withdraw PIN and continues to the confirm step', async () => {
    const user = userEvent.setup();
    let pinBody: unknown = null;
    server.use(
      http.post('http://localhost/jackey/user/withdrawPin', async ({ request }) => {
        pinBody = await request.json();
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    const { router } = mount({ user: { hasWithdrawPin: false }, route: '/detail/o1?index=2' });
    const first = await screen.findByLabelText('New withdraw PIN', { selector: 'input' });
    await user.type(first, '135790');
    await user.type(screen.getByLabelText('Repeat the PIN', { selector: 'input' }), '135799');
    await user.click(screen.getByRole('button', { name: 'Save PIN and continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The two PINs do not match.');
    expect(pinBody).toBeNull();

    await user.clear(screen.getByLabelText('Repeat the PIN', { selector: 'input' }));
    await user.type(screen.getByLabelText('Repeat the PIN', { selector: 'input' }), '135790');
    await user.click(screen.getByRole('button', { name: 'Save PIN and continue' }));
    await waitFor(() => expect(router.state.location.search).toBe('?index=3'));
    expect(pinBody).toEqual({ pin: '135790' });
    expect(await screen.findByRole('button', { name: 'Confirm withdrawal' })).toBeInTheDocument();
  });
});

describe('the order detail', () => {
  it('shows a failed payout with its reason and the free fix', async () => {
    mount({ order: orderFixture({ lastWithdrawError: 'connection to bank account failed (10012)' }) });
    const box = await screen.findByTestId('withdraw-error-box');
    expect(box).toHaveTextContent('Connection to your bank account failed');
    expect(box).toHaveTextContent('free of charge');
    expect(within(box).getByRole('link')).toHaveAttribute('href', '/bankInfo');
    // The borrower can try again straight away.
    expect(await screen.findByTestId('withdraw-form')).toBeInTheDocument();
  });

  it('shows what the officer asks to fix in status 2, each item linked back here (12.4)', async () => {
    mount({
      order: orderFixture({
        status: 2,
        balance: '0.00',
        resubmissionReason: 'ID photo is blurred',
        resubmissionItems: ['photos', 'bank'],
      }),
    });
    const panel = await screen.findByTestId('resubmission-panel');
    expect(screen.getByTestId('status-tag')).toHaveTextContent('Action needed: fix and resubmit');
    expect(panel).toHaveTextContent("The loan officer's note, in their words: ID photo is blurred");
    const back = `?then=${encodeURIComponent('/detail/o1')}`;
    expect(within(panel).getByRole('link', { name: 'Upload new ID photos' })).toHaveAttribute('href', `/baseInfo${back}`);
    expect(within(panel).getByRole('link', { name: 'Change your bank account' })).toHaveAttribute('href', `/bankInfo${back}`);
    // Only what was asked for.
    expect(within(panel).queryByRole('link', { name: 'Answer the questionnaire again' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('withdraw-form')).not.toBeInTheDocument();
  });

  it('resubmits once per press, with an idempotency key, and the order returns to review (12.4)', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const sent: { body: unknown; key: string | null }[] = [];
    let status = 2;
    server.use(
      http.post('http://localhost/jackey/loan/resubmit', async ({ request }) => {
        sent.push({ body: await request.json(), key: request.headers.get('Idempotency-Key') });
        status = 0;
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    mount({ order: () => orderFixture({ status, balance: '0.00', resubmissionReason: 'blurred', resubmissionItems: ['photos'] }) });
    await user.click(await screen.findByRole('button', { name: 'Resubmit' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toEqual({ loanOrderId: 'o1' });
    expect(sent[0].key).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('resubmission-panel')).not.toBeInTheDocument());
    expect(screen.getByTestId('status-tag')).toHaveTextContent('Under review');
  });

  it('shows the server refusal of a resubmit', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    server.use(fail('jackey/loan/resubmit', 10004, 'cannot resubmit an order in status 0'));
    mount({ order: orderFixture({ status: 2, balance: '0.00', resubmissionReason: 'blurred', resubmissionItems: ['photos'] }) });
    await user.click(await screen.findByRole('button', { name: 'Resubmit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/status 0|request error/i);
  });

  it('shows the refusal reason (P8) and no cancel button', async () => {
    mount({ order: orderFixture({ status: 12, balance: '0.00', refuseReason: 'income could not be verified' }) });
    expect(await screen.findByText('Your application was not approved. Reason: income could not be verified')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel application' })).not.toBeInTheDocument();
  });

  it('cancels for free after a confirmation that says so (P6)', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    let cancelled: unknown = null;
    let status = 0;
    server.use(
      http.post('http://localhost/jackey/loan/cancel', async ({ request }) => {
        cancelled = await request.json();
        status = 11;
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    mount({ order: () => orderFixture({ status, balance: '0.00' }) });
    await user.click(await screen.findByRole('button', { name: 'Cancel application' }));
    expect(await screen.findByText('Cancelling is free of charge: there is no fee or penalty of any kind.')).toBeInTheDocument();
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel application' }));
    await waitFor(() => expect(cancelled).toEqual({ loanOrderId: 'o1' }));
    expect(await screen.findByText('You cancelled this application. Cancelling is free of charge.')).toBeInTheDocument();
  });

  it('shows the timeline with translated labels and details', async () => {
    mount();
    const timeline = await screen.findByTestId('timeline');
    expect(timeline).toHaveTextContent('Application submitted');
    expect(timeline).toHaveTextContent('₱80,000.00 for 6 days');
    expect(timeline).toHaveTextContent('Approved');
    expect(timeline).toHaveTextContent('Loan officer');
  });

  it('words overdue taken back from a payment applied late', async () => {
    const late = [
      { at: '2026-11-23T00:00:00Z', by: 'system', detail: { period: 1, amount: '13.49' }, sequence: 9, type: 'OverdueFeeCharged' },
      { at: '2026-11-23T00:00:00Z', by: 'system', detail: { period: 1, amount: '13.49' }, sequence: 10, type: 'OverdueReversed' },
      { at: '2026-11-23T23:59:59Z', by: 'system', detail: { period: 2, amount: '0.00' }, sequence: 11, type: 'OverdueReversed' },
    ];
    mount({ handlers: [answer('jackey/loan/orderTimeline', late)] });
    const timeline = await screen.findByTestId('timeline');
    expect(timeline).toHaveTextContent('Overdue taken back');
    expect(timeline).toHaveTextContent('Installment 1: ₱13.49 charged after your payment arrived');
    expect(timeline).toHaveTextContent('Installment 2: your payment arrived in time');
    expect(timeline).not.toHaveTextContent('₱0.00');
  });

  it('leaves out the payment pages, a replaced one included: the repayment tells what happened (issue 52)', async () => {
    const pages = [
      { at: '2026-11-23T01:00:00Z', by: 'user', detail: { amount: '5000.00' }, sequence: 9, type: 'PaymentSessionOpened' },
      { at: '2026-11-23T01:05:00Z', by: 'user', detail: {}, sequence: 10, type: 'PaymentSessionReplaced' },
      { at: '2026-11-23T01:05:00Z', by: 'user', detail: { amount: '81920.00' }, sequence: 11, type: 'PaymentSessionOpened' },
      { at: '2026-11-23T01:06:00Z', by: 'system', detail: { amount: '81920.00' }, sequence: 12, type: 'PaymentSessionPaid' },
      { at: '2026-11-23T01:06:00Z', by: 'system', detail: { amount: '81920.00' }, sequence: 13, type: 'RepaymentReceived' },
    ];
    mount({ handlers: [answer('jackey/loan/orderTimeline', pages)] });
    const timeline = await screen.findByTestId('timeline');
    expect(timeline.querySelectorAll('li')).toHaveLength(1);
    expect(timeline).not.toHaveTextContent(/replaced/i);
  });

  it('shows the error state when the order cannot be read', async () => {
    mount({ handlers: [fail('jackey/loan/orderInfo', 40007, 'record not found')] });
    expect(await screen.findByText('Record not found.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
