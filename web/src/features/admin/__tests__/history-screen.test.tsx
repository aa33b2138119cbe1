/**
 * The history replay shows every event with its actor, and the state the server
 * folds as of the chosen event (`atSequence`); it never folds events itself.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { answer as answerWith, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { readableState } from '../history-screen';
import { background, history, orderReview, signInConsole } from './fixtures';

describe('the history replay', () => {
  it('asks the server for the state as of the chosen event', async () => {
    const user = userEvent.setup();
    signInConsole({ auditorId: 'b-2', username: 'bob' });
    const asked: unknown[] = [];
    server.use(
      ...background,
      http.post('http://localhost/admin/api/orders/history', async ({ request }) => {
        const body = (await request.json()) as { atSequence?: number };
        asked.push(body);
        const at = body.atSequence ?? 3;
        const answer = history(at, at === 1 ? 0 : at === 2 ? 1 : 3);
        answer.state = { ...answer.state, marker: `folded-at-${at}` };
        return HttpResponse.json({ code: 0, msg: 'ok', data: answer });
      }),
    );
    const { router } = renderWithProviders(<AdminApp />, { route: '/admin/orders/o1/history', path: '/admin/*' });

    const events = await screen.findAllByTestId('history-event');
    expect(events).toHaveLength(3);
    expect(within(events[1]).getByTestId('history-actor')).toHaveTextContent('Auditor alice');
    expect(within(events[0]).getByTestId('history-actor')).toHaveTextContent('Borrower');
    expect(screen.getByTestId('history-state')).toHaveTextContent('folded-at-3');
    expect(asked[0]).toEqual({ orderId: 'o1' });

    await user.click(within(events[0]).getByRole('button', { name: /Application submitted/ }));
    await waitFor(() => expect(screen.getByTestId('history-state')).toHaveTextContent('folded-at-1'));
    expect(asked.at(-1)).toEqual({ orderId: 'o1', atSequence: 1 });
    expect(router.state.location.search).toBe('?at=1');
    expect(within(screen.getByTestId('history-state')).getByText('Submitted')).toBeInTheDocument();
    expect(screen.getByText('Event 1 of 3')).toBeInTheDocument();
  });

  it('names the order by its number in the title', async () => {
    signInConsole();
    const review = orderReview(3);
    review.order = { ...review.order, orderNo: 'HL-2611-000123' };
    server.use(...background, answerWith('admin/api/orders/history', history(3, 3)), answerWith('admin/api/orders/detail', review));
    renderWithProviders(<AdminApp />, { route: '/admin/orders/o1/history', path: '/admin/*' });
    expect(await screen.findByRole('heading', { name: /^HL-2611-000123 · History of the order of/ })).toBeInTheDocument();
  });

  it('labels the state and event fields, formats money and times, and names auditors', async () => {
    const alice = '019a9f5e-1c2b-7d3e-8f40-5a6b7c8d9e0f';
    signInConsole({ auditorId: 'b-2', username: 'bob' });
    const answer = history(4, 9);
    answer.state = {
      id: 'o1',
      applicant_name: 'Ana Santos',
      status: 'Approved',
      applied_amount: '100000.00',
      approved_amount: '80000.00',
      first_auditor: alice,
      final_auditor: 'b-2',
      offer_expires_at: '2026-11-29T07:22:00Z',
      refusal: null,
      resubmission_items: [],
      payment_refs: [],
    };
    answer.events = [
      { ...answer.events[0] },
      { ...answer.events[1], actor: `auditor:${alice}` },
      { ...answer.events[2], actor: `auditor:${alice}` },
      {
        sequence: 4,
        time: '2026-11-22T07:22:00Z',
        actor: 'auditor:b-2',
        actorName: 'bob',
        type: 'FinalAuditPassed',
        payload: {
          FinalAuditPassed: {
            auditor_id: 'b-2',
            note: 'second pair of eyes',
            approved_amount: '80000.00',
            offer_expires_at: '2026-11-29T07:22:00Z',
            at: '2026-11-22T07:22:00Z',
          },
        },
      },
    ];
    answer.events[1].actorName = 'alice';
    answer.events[2].actorName = 'alice';
    server.use(...background, http.post('http://localhost/admin/api/orders/history', () => HttpResponse.json({ code: 0, msg: 'ok', data: answer })));
    renderWithProviders(<AdminApp />, { route: '/admin/orders/o1/history', path: '/admin/*' });

    const state = await screen.findByTestId('history-state-fields');
    const row = (scope: HTMLElement, label: string) => within(scope).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(row(state, 'First review by')).toHaveTextContent('Auditor alice');
    expect(row(state, 'First review by').querySelector('[title]')).toHaveAttribute('title', alice);
    expect(row(state, 'Final review by')).toHaveTextContent('Auditor bob');
    expect(row(state, 'Approved amount')).toHaveTextContent('₱80,000.00');
    expect(row(state, 'Amount applied for')).toHaveTextContent('₱100,000.00');
    expect(row(state, 'Offer valid until')).toHaveTextContent(/2026/);
    expect(row(state, 'Offer valid until')).not.toHaveTextContent('T07:22');
    expect(screen.getByTestId('history-state-status')).toHaveTextContent('Approved');
    expect(within(state).queryByText('Status', { selector: 'dt' })).not.toBeInTheDocument();
    expect(row(state, 'Applicant')).toHaveTextContent('Ana Santos');
    // No wire names and no auditor ids in what is shown.
    expect(state.textContent).not.toMatch(/[a-z]_[a-z]/);
    expect(state.textContent).not.toContain(alice);

    const events = screen.getAllByTestId('history-event');
    const final = within(events[3]).getByTestId('history-event-fields');
    expect(row(final, 'Auditor')).toHaveTextContent('Auditor bob');
    expect(row(final, 'Note')).toHaveTextContent('second pair of eyes');
    expect(row(final, 'Approved amount')).toHaveTextContent('₱80,000.00');
    expect(row(final, 'Time')).not.toHaveTextContent('2026-11-22T');
    expect(final.textContent).not.toMatch(/[a-z]_[a-z]/);
    // The raw event stays one click away.
    expect(within(events[3]).getByText('Event as JSON')).toBeInTheDocument();
  });
});

describe('the replayed state', () => {
  const state = {
    status: 'InFirstReview',
    balance: '0.00',
    approved_amount: '0.00',
    final_auditor: null,
    first_auditor: null,
    applied_amount: '100000.00',
    applicant_name: 'Ana Santos',
    id: 'o1',
    zeta_new_field: 1,
    reminders: [],
  };

  it('reads in the aggregate\'s order, not by name, without the status', () => {
    expect(Object.keys(readableState(state))).toEqual([
      'id', 'applicant_name', 'applied_amount', 'first_auditor', 'final_auditor', 'approved_amount', 'balance',
      'reminders', 'zeta_new_field',
    ]);
  });

  it('shows no approved amount or balance before the final review passed, then shows them', () => {
    const before = readableState(state);
    expect(before.approved_amount).toBeNull();
    expect(before.balance).toBeNull();
    expect(before.applied_amount).toBe('100000.00');
    const after = readableState({ ...state, final_auditor: 'b-2', approved_amount: '80000.00', balance: '80000.00' });
    expect(after.approved_amount).toBe('80000.00');
    expect(after.balance).toBe('80000.00');
  });
});
