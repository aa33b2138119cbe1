/**
 * The order review: the actions the status allows, each asking for its note or
 * reason in a dialog and sent with an Idempotency-Key; the server's refusals in
 * the auditor's words (four eyes, identity not verified); who did what.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setLanguage } from '@/lib/i18n';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { Timeline } from '../order-screen';
import type { OrderReview } from '@/lib/api-types';
import { ALICE, background, history, orderReview, signInConsole } from './fixtures';

function mount(review: OrderReview, auditor = ALICE) {
  signInConsole(auditor);
  server.use(
    ...background,
    answer('admin/api/orders/detail', review),
    answer('admin/api/orders/history', history(review.timeline.length, review.order.status)),
  );
  return renderWithProviders(<AdminApp />, { route: '/admin/orders/o1', path: '/admin/*' });
}

const FOUR_EYES = 'request error: the final review must be done by another auditor than the first';

describe('the order review', () => {
  it('disables the final review, pass or refusal, for the auditor who did the first review, saying why (four eyes)', async () => {
    let calls = 0;
    server.use(
      http.post('http://localhost/admin/api/orders/passFinal', () => {
        calls += 1;
        return HttpResponse.json({ code: 10004, msg: FOUR_EYES, data: null });
      }),
    );
    mount(orderReview(3));
    expect(await screen.findByTestId('admin-order-status')).toHaveTextContent('Awaiting final review');

    const button = screen.getByRole('button', { name: 'Pass final review' });
    expect(button).toBeDisabled();
    const hint = screen.getByTestId('admin-four-eyes-hint');
    expect(hint).toHaveTextContent('You did the first review of this order: another auditor must do the final review (pass or refuse).');
    expect(button).toHaveAccessibleDescription(hint.textContent ?? '');
    // Refusing now is the final review's decision too; a resubmission (a new round) is not.
    const refuse = screen.getByRole('button', { name: 'Refuse' });
    expect(refuse).toBeDisabled();
    expect(refuse).toHaveAccessibleDescription(hint.textContent ?? '');
    expect(screen.getByRole('button', { name: 'Request resubmission' })).toBeEnabled();
    expect(calls).toBe(0);
  });

  it('disables Refuse for the first reviewer while the resubmission they asked for is awaited (four eyes)', async () => {
    mount(orderReview(2, { review: { ...orderReview(3).review, status: 2, firstAuditor: ALICE.auditorId } }));
    const refuse = await screen.findByRole('button', { name: 'Refuse' });
    expect(refuse).toBeDisabled();
    expect(screen.getByTestId('admin-four-eyes-hint')).toBeInTheDocument();
  });

  it('keeps the final review open to another auditor, without the four-eyes hint', async () => {
    mount(orderReview(3), { auditorId: 'b-2', username: 'bob' });
    expect(await screen.findByRole('button', { name: 'Pass final review' })).toBeEnabled();
    expect(screen.queryByTestId('admin-four-eyes-hint')).not.toBeInTheDocument();
  });

  it('still shows the server\'s four-eyes refusal when the page was stale', async () => {
    // The page says another auditor did the first review (it was loaded before this
    // auditor's own first review landed), so the button is enabled; the Order
    // aggregate refuses, and the console says why in the auditor's words.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    let request: { body: unknown; key: string | null } | null = null;
    server.use(
      http.post('http://localhost/admin/api/orders/passFinal', async ({ request: r }) => {
        request = { body: await r.json(), key: r.headers.get('idempotency-key') };
        return HttpResponse.json({ code: 10004, msg: FOUR_EYES, data: null });
      }),
    );
    const stale = orderReview(3);
    stale.review.firstAuditor = 'z-9';
    mount(stale);
    expect(await screen.findByTestId('admin-order-status')).toHaveTextContent('Awaiting final review');
    expect(screen.queryByTestId('admin-four-eyes-hint')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Pass final review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pass final review' });
    await user.type(within(dialog).getByLabelText('Note'), 'looks fine');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent(
      'Final review must be done by a different auditor than the first review',
    );
    expect(request).toEqual({ body: { orderId: 'o1', note: 'looks fine' }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(screen.getByTestId('admin-order-status')).toHaveTextContent('Awaiting final review');
  });

  it('passes the final review by another auditor and refreshes the order', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    let status = 3;
    server.use(
      http.post('http://localhost/admin/api/orders/passFinal', () => {
        status = 9;
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    signInConsole({ auditorId: 'b-2', username: 'bob' });
    server.use(
      ...background,
      http.post('http://localhost/admin/api/orders/detail', () => HttpResponse.json({ code: 0, msg: 'ok', data: orderReview(status) })),
      answer('admin/api/orders/history', history()),
    );
    renderWithProviders(<AdminApp />, { route: '/admin/orders/o1', path: '/admin/*' });
    await user.click(await screen.findByRole('button', { name: 'Pass final review' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('admin-order-status')).toHaveTextContent('Approved'));
    expect(screen.getByText('Final review passed: the offer is open to the borrower.')).toBeInTheDocument();
    expect(screen.queryByTestId('admin-action-error')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pass final review' })).not.toBeInTheDocument();
  });

  it('shows the server\'s reason when the first review needs a verified identity', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    server.use(fail('admin/api/orders/passFirst', 40000, "not qualified: the applicant's identity is not verified"));
    mount(orderReview(1, { identityStatus: 1 }));
    await user.click(await screen.findByRole('button', { name: 'Pass first review' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('admin-action-error')).toHaveTextContent(
      "The applicant's identity is not verified yet: verify it before passing the first review.",
    );
  });

  it('requires a coded reason to refuse, takes an optional note, and sends both (P8, issue 52)', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    let body: unknown = null;
    server.use(
      http.post('http://localhost/admin/api/orders/refuse', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    mount(orderReview(1));
    await user.click(await screen.findByRole('button', { name: 'Refuse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refuse' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Tick at least one reason.')).toBeInTheDocument();
    expect(body).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Income could not be verified' }));
    await user.click(within(dialog).getByRole('checkbox', { name: "Repayments too heavy for the borrower's means" }));
    await user.type(within(dialog).getByLabelText('Note'), 'payslips do not match');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(body).toEqual({
        orderId: 'o1',
        reason: 'payslips do not match',
        reasons: ['income_not_verified', 'repayment_capacity'],
      }),
    );
  });

  it('asks what to fix with a resubmission, requires one item, and sends the items (12.4)', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const bodies: unknown[] = [];
    server.use(
      http.post('http://localhost/admin/api/orders/requestResubmission', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    mount(orderReview(1));
    await user.click(await screen.findByRole('button', { name: 'Request resubmission' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request resubmission' });
    await user.type(within(dialog).getByLabelText('Reason'), 'hand-held photo is blurred');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Tick at least one item to fix.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
    await user.click(within(dialog).getByRole('checkbox', { name: 'ID photos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ orderId: 'o1', reason: 'hand-held photo is blurred', items: ['photos'] });
  });

  it('shows what the last resubmission changed of what was asked, and what it left (issue 52)', async () => {
    const review = orderReview(0);
    review.review.lastResubmission = { asked: ['photos', 'profile'], fixed: ['photos'], at: '2026-11-24T09:00:00Z' };
    mount(review);
    const facts = (await screen.findByText('Last resubmission')).closest('dl') as HTMLElement;
    const value = within(facts).getByText('Last resubmission').nextElementSibling;
    expect(value).toHaveTextContent('changed: ID photos · not changed: Profile');
  });

  it('shows the applicant\'s age at the application and the amount over the stated monthly income', async () => {
    // Born 1990-05-01, applied 2026-11-22: 36. ₱80,000.00 over ₱30,000.00 a month: 2.67×.
    mount(orderReview(1));
    const facts = (await screen.findByText('Age at application')).closest('dl') as HTMLElement;
    const value = (label: string) => within(facts).getByText(label).nextElementSibling;
    expect(value('Age at application')).toHaveTextContent(/^36 years$/);
    expect(value('Amount ÷ monthly income')).toHaveTextContent('2.67× (₱80,000.00 ÷ ₱30,000.00)');
  });

  it('shows the disclosure the borrower signed and, once paid out, the cost of the amount paid out apart from it (P5, P10)', async () => {
    const paidOut = { ...orderReview(4).disclosure!, principal: '60000.00', netAmount: '60000.00', totalRepayable: '61440.00' };
    mount(orderReview(4, { loanDisclosure: paidOut }));
    const signed = (await screen.findByText('Cost disclosure signed by the borrower (at application)')).closest('section') as HTMLElement;
    expect(within(signed).getAllByText('₱100,000.00').length).toBeGreaterThan(0);
    expect(within(signed).queryByText('₱60,000.00')).toBeNull();
    const loan = screen.getByText('Cost of the amount paid out (the signed terms on it)').closest('section') as HTMLElement;
    expect(within(loan).getAllByText('₱60,000.00').length).toBeGreaterThan(0);
    expect(within(loan).getByText('₱61,440.00')).toBeInTheDocument();
  });

  it('reads the applicant\'s marital status and education in Chinese on a Chinese console', async () => {
    await setLanguage('zh', false);
    try {
      mount(orderReview(1));
      expect(await screen.findByText('单身')).toBeInTheDocument();
      expect(screen.getByText('大专')).toBeInTheDocument();
      expect(screen.queryByText('Single')).toBeNull();
    } finally {
      cleanup(); // before the language changes back, so no screen re-renders outside act
      await setLanguage('en', false);
    }
  });

  it('says what a loan closed in its cooling-off period was not charged, so the totals add up (P12)', async () => {
    const review = orderReview(10);
    review.order = {
      ...review.order,
      status: 10,
      principal: '10000.00',
      paidAt: '2026-11-22T08:00:00Z',
      totalRepay: '10180.00',
      repaid: '10000.00',
      remaining: '0.00',
      interestWaived: '180.00',
    };
    mount(review);
    const label = await screen.findByText('Interest waived');
    expect(label.nextElementSibling).toHaveTextContent('₱180.00');
  });

  it('shows no paid-out cost before payout', async () => {
    mount(orderReview(1));
    await screen.findByText('Cost disclosure signed by the borrower (at application)');
    expect(screen.queryByText('Cost of the amount paid out (the signed terms on it)')).toBeNull();
  });

  it('says "Not stated" when there is no income or birthday to go on', async () => {
    const review = orderReview(1);
    review.questionnaire = null;
    review.applicant = review.applicant && { ...review.applicant, birthday: null, monthlyIncome: null };
    mount(review);
    const facts = (await screen.findByText('Age at application')).closest('dl') as HTMLElement;
    expect(within(facts).getByText('Age at application').nextElementSibling).toHaveTextContent('Not stated');
    expect(within(facts).getByText('Amount ÷ monthly income').nextElementSibling).toHaveTextContent('Not stated');
  });

  it('offers only the actions of the status', async () => {
    mount(orderReview(0));
    expect(await screen.findByRole('button', { name: 'Start review' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request resubmission' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refuse' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pass first review' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record repayment' })).not.toBeInTheDocument();
  });

  it('names the auditor who acted on the timeline', async () => {
    mount(orderReview(3), { auditorId: 'b-2', username: 'bob' });
    const timeline = await screen.findByTestId('admin-timeline');
    await waitFor(() => expect(within(timeline).getAllByText('Auditor alice')).toHaveLength(2));
    expect(within(timeline).getByText('Borrower')).toBeInTheDocument();
    expect(within(timeline).getByText(/Note: documents match/)).toBeInTheDocument();
  });

  it('labels every detail of the timeline: the expiry of a payment page as a time, the kind of a reminder in words', async () => {
    server.use(answer('jackey/loan/getAllCompanyConfigs', {}));
    renderWithProviders(
      <Timeline
        names={new Map()}
        history={undefined}
        entries={[
          { actor: 'user:u1', at: '2026-11-28T04:16:06Z', detail: { amount: '4000.00', expiresAt: '2026-11-28T04:46:06.945541Z' }, sequence: 7, type: 'PaymentSessionOpened' },
          { actor: 'system', at: '2026-11-26T00:00:00Z', detail: { period: 1, kind: 'due_in_3_days', dueDate: '2026-11-29', amount: '8483.30' }, sequence: 8, type: 'ReminderDue' },
        ]}
      />,
    );
    const timeline = await screen.findByTestId('admin-timeline');
    expect(timeline).toHaveTextContent(/Page valid until: Nov 28, 2026/);
    expect(timeline).toHaveTextContent('Reminder: 3 days before due');
    expect(timeline).not.toHaveTextContent('expiresAt');
    expect(timeline).not.toHaveTextContent('due_in_3_days');
  });

  it('records a repayment on a disbursed order with an Idempotency-Key', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const calls: { body: unknown; key: string | null }[] = [];
    server.use(
      http.post('http://localhost/admin/api/repayments/manual', async ({ request }) => {
        calls.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
        return HttpResponse.json({ code: 0, msg: 'ok', data: { recorded: true } });
      }),
    );
    mount(orderReview(4));
    await user.type(await screen.findByLabelText('Amount received'), '1,000.5');
    await user.type(screen.getByLabelText('Payment reference'), 'BANK-123');
    await user.click(screen.getByRole('button', { name: 'Record repayment' }));
    expect(await screen.findByText('Repayment of ₱1,000.50 recorded.')).toBeInTheDocument();
    expect(calls).toEqual([
      { body: { orderId: 'o1', amount: '1000.5', reference: 'BANK-123' }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
  });

  it('says when a repayment above 20,000 waits for a second auditor', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    server.use(
      http.post('http://localhost/admin/api/repayments/manual', () =>
        HttpResponse.json({ code: 0, msg: 'ok', data: { recorded: false, awaitingSecondAuditor: true } }),
      ),
    );
    mount(orderReview(4));
    await user.type(await screen.findByLabelText('Amount received'), '25000');
    await user.type(screen.getByLabelText('Payment reference'), 'BANK-9');
    await user.click(screen.getByRole('button', { name: 'Record repayment' }));
    expect(await screen.findByText(/another auditor must enter the same payment/)).toBeInTheDocument();
  });
});
