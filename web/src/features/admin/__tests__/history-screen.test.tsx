/**
 * The history replay shows every event with its actor, and the state the server
 * folds as of the chosen event (`atSequence`); it never folds events itself.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import AdminApp from '../admin-app';
import { background, history, signInConsole } from './fixtures';

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
});
