/**
 * The home main button (PRODUCT.md 4.2, 4.3): Apply disabled until the policy box
 * is ticked, while Withdraw, Repay and the rest never wait for it (P2, P12), its
 * label per qualification and order, its one-second cool-down, and
 * the refusal overlay with the reason (P8). The screen paints before the user
 * and progress calls answer, with no figure until they do; the signature sheet
 * opens by itself when a qualified borrower has no signature.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import HomeScreen from '@/features/loan/home-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';
import { disbursedOrder } from '@/features/repay/__tests__/fixtures';

const session = { token: 'tok', redirect: null };

function given(progress: unknown, qualified = true, order?: unknown) {
  server.use(
    answer('jackey/user/info', userFixture({ signatureImg: '/files/sig.png', qualified })),
    answer('jackey/loan/getLoanProgress', progress),
    answer('jackey/loan/getAllCompanyConfigs', { title: 'Honest Cash Loan' }),
    answer('jackey/loan/getCustomerService', null),
    answer('jackey/loan/orderInfo', order ?? null),
  );
}

const tick = () => fireEvent.click(screen.getByRole('checkbox'));

describe('home main button', () => {
  it('is disabled until the policy is accepted, then reads Apply → /question', async () => {
    given(null);
    const { router } = renderWithProviders(<HomeScreen />, { preloadedState: { session }, others: { '/question': <p>questionnaire</p> } });
    const button = await screen.findByTestId('main-button');
    await waitFor(() => expect(button).toHaveTextContent('Apply'));
    expect(button).toBeDisabled();
    tick();
    expect(button).toBeEnabled();
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/question'));
  });

  it('the "loan policy" link opens the loan policy, titled so (issue 52)', async () => {
    given(null);
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    fireEvent.click(await screen.findByRole('link', { name: 'loan policy' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Loan policy');
    expect(dialog).toHaveTextContent('You pay nothing before you receive money.');
    expect(dialog).not.toHaveTextContent('About us');
  });

  it('reads Complete info for an unqualified borrower', async () => {
    given(null, false);
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    await waitFor(() => expect(screen.getByTestId('main-button')).toHaveTextContent('Complete info'));
  });

  it('reads Withdraw when approved and Repay when disbursed, both usable, with no policy box shown (P2, P12)', async () => {
    given({ orderId: 'o1', status: 9, applyAmount: '80000.00', balance: '80000.00', contract: '' });
    const first = renderWithProviders(<HomeScreen />, { preloadedState: { session }, others: { '/detail/o1': <p>detail</p> } });
    const withdraw = await screen.findByTestId('main-button');
    await waitFor(() => expect(withdraw).toHaveTextContent('Withdraw'));
    expect(screen.getByTestId('balance-card')).toHaveTextContent('₱80,000.00');
    // No policy box above them: it would read as a condition of withdrawing or repaying.
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(withdraw).toBeEnabled();
    fireEvent.click(withdraw);
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/detail/o1'));
    first.unmount();
    given({ orderId: 'o1', status: 4, applyAmount: '80000.00', balance: '0.00', contract: '' });
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    const repay = screen.getByTestId('main-button');
    await waitFor(() => expect(repay).toHaveTextContent('Repay'));
    // No policy box above them: it would read as a condition of withdrawing or repaying.
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(repay).toBeEnabled();
  });

  it('while repaying shows what is owed, the next installment and any overdue amount, never the balance (12.5)', async () => {
    const order = disbursedOrder({
      periodViews: [
        { period: 1, dueDate: '2026-11-23', amt: '8433.30', paid: '8433.30', status: 1, waived: '0.00' },
        { period: 2, dueDate: '2026-11-24', amt: '8433.30', paid: '1000.00', status: 2, waived: '0.00' },
        { period: 3, dueDate: '2026-11-25', amt: '8433.30', paid: '0.00', status: 0, waived: '0.00' },
      ],
      remaining: '15866.60',
    });
    given({ orderId: order.orderId, status: 4, applyAmount: '50000.00', balance: '0.00', contract: '' }, true, order);
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    const card = await screen.findByTestId('owed-card');
    await waitFor(() => expect(card).toHaveTextContent('Total outstanding₱15,866.60'));
    expect(screen.getByTestId('owed-next')).toHaveTextContent('Next installment ₱7,433.30, due Nov 24, 2026');
    expect(screen.getByTestId('owed-overdue')).toHaveTextContent('Overdue: ₱7,433.30');
    expect(screen.queryByText('Account balance')).not.toBeInTheDocument();
    expect(screen.getByTestId('main-button')).toHaveTextContent('Repay');
  });

  it('is disabled for one second after each click', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      given({ orderId: 'o1', status: 1, applyAmount: '80000.00', balance: '0.00', contract: '' });
      renderWithProviders(<HomeScreen />, { preloadedState: { session } });
      const button = await screen.findByTestId('main-button');
      await waitFor(() => expect(button).toHaveTextContent('Refresh'));
      // An order under review: no policy box, nothing to tick.
      expect(screen.queryByRole('checkbox')).toBeNull();
      fireEvent.click(button);
      expect(button).toBeDisabled();
      await act(() => vi.advanceTimersByTimeAsync(900));
      expect(button).toBeDisabled();
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(button).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the refusal reason when the latest order is refused', async () => {
    given({ orderId: 'o1', status: 12, applyAmount: '80000.00', balance: '0.00', contract: '' }, true, {
      orderId: 'o1',
      status: 12,
      refuseReason: 'income could not be verified',
    });
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    // The overlay opens with the progress; the reason follows once the order is read.
    const reason = await screen.findByTestId('refusal-reason');
    await waitFor(() => expect(reason).toHaveTextContent('income could not be verified'));
  });

  it('reads an officer\'s coded reasons in the borrower\'s words, then the note as typed (issue 52)', async () => {
    given({ orderId: 'o1', status: 5, applyAmount: '80000.00', balance: '0.00', contract: '' }, true, {
      orderId: 'o1',
      status: 5,
      refuseReason: 'payslips do not match',
      refuseReasons: ['income_not_verified', 'repayment_capacity'],
    });
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    const reason = await screen.findByTestId('refusal-reason');
    await waitFor(() =>
      expect(reason).toHaveTextContent(
        "Reason: your income could not be verified; the repayments would be too heavy for your means. The officer's note: payslips do not match",
      ),
    );
  });
});

describe('home first paint', () => {
  it('shows the banner and the card while the user and progress calls are pending, and no figure', async () => {
    // Both calls answer only when the test says so.
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const held = (path: string, data: unknown) =>
      http.post(`http://localhost/${path}`, async () => {
        await answered;
        return HttpResponse.json({ code: 0, msg: 'ok', data });
      });
    given(null);
    server.use(
      held('jackey/user/info', userFixture({ signatureImg: '/files/sig.png' })),
      held('jackey/loan/getLoanProgress', { orderId: 'o1', status: 9, applyAmount: '80000.00', balance: '80000.00', contract: '' }),
    );
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });

    expect(screen.getAllByText('A licensed lender: check our licence on the About page')[0]).toBeVisible();
    const card = screen.getByTestId('balance-card');
    expect(card).toHaveTextContent('Account balance');
    expect(card).not.toHaveTextContent('₱');
    expect(card).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('main-button')).toBeDisabled();
    expect(screen.getByRole('checkbox')).toBeInTheDocument();

    release();
    await waitFor(() => expect(card).toHaveTextContent('₱80,000.00'));
    expect(card).toHaveAttribute('aria-busy', 'false');
    expect(within(card).getByTestId('status-tag')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('main-button')).toHaveTextContent('Withdraw'));
    expect(screen.getByTestId('main-button')).toBeEnabled();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('home signature sheet', () => {
  afterEach(() => vi.restoreAllMocks());

  it('opens by itself for a qualified borrower without a signature', async () => {
    // jsdom has no 2D context; the pad only needs one to exist.
    const context = new Proxy({}, { get: () => () => {}, set: () => true });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as CanvasRenderingContext2D);
    given(null);
    server.use(answer('jackey/user/info', userFixture({ signatureImg: null })));
    renderWithProviders(<HomeScreen />, { preloadedState: { session } });
    // The sheet's chunk (with antd's Popup and its animation library) loads on first use.
    expect(await screen.findByTestId('signature-canvas', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Your signature')).toBeVisible();
    expect(screen.getByText('Add your signature')).toBeInTheDocument();
  });
});

describe('home icons (issue 52)', () => {
  // Every icon, in order, with the screen its label names.
  const ICONS: [label: string, path: string][] = [
    ['My orders', '/order'],
    ['Transactions', '/transactionHistory'],
    ['Account', '/my'],
    ['Cooperation', '/partner'],
    ['Repayments', '/repayDetail'],
    ['Contract', '/contract'],
    ['About us', '/about'],
  ];
  const others = Object.fromEntries(ICONS.map(([, path]) => [path, <p key={path}>{`screen ${path}`}</p>]));

  it.each([
    ['no order', null],
    ['an order', { orderId: 'o1', status: 9, applyAmount: '80000.00', balance: '80000.00', contract: '' }],
  ])('open what their labels say, with %s', async (_case, progress) => {
    given(progress);
    for (const [label, path] of ICONS) {
      const { router, unmount } = renderWithProviders(<HomeScreen />, { preloadedState: { session }, others });
      const grid = await screen.findByTestId('home-icons');
      expect(within(grid).getAllByRole('button').map((b) => b.textContent)).toEqual(ICONS.map(([l]) => l));
      fireEvent.click(within(grid).getByRole('button', { name: label }));
      await waitFor(() => expect(router.state.location.pathname).toBe(path));
      expect(screen.getByText(`screen ${path}`)).toBeInTheDocument();
      unmount();
    }
  });
});
