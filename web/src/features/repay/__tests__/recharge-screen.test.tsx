import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import type { Order } from '@/lib/api-types';
import { openPaymentPage } from '../open-page';
import RechargeScreen from '../recharge-screen';
import { disbursedOrder } from './fixtures';

vi.mock('../open-page', () => ({ openPaymentPage: vi.fn() }));

const signedIn = { session: { token: 't', redirect: null } };

interface MountOptions {
  order?: Order | null;
  payoff?: { amount: string; interestWaived: string; feesWaived: string; coolingOff: boolean } | null;
  handlers?: HttpHandler[];
}

function mount({ order = disbursedOrder(), payoff, handlers = [] }: MountOptions = {}) {
  const quote = payoff === undefined ? { amount: '49000.00', interestWaived: '600.00', feesWaived: '0.00', coolingOff: true } : payoff;
  server.use(
    ...handlers,
    answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
    answer('jackey/loan/getCustomerService', null),
    order ? answer('jackey/loan/orderInfo', order) : fail('jackey/loan/orderInfo', 40007, 'record not found'),
    quote ? answer('jackey/loan/payoffQuote', quote) : fail('jackey/loan/payoffQuote', 40007, 'record not found: nothing is owed'),
  );
  return renderWithProviders(<RechargeScreen />, { route: '/recharge', preloadedState: signedIn });
}

const amountInput = () => screen.findByLabelText('Repayment amount', { selector: 'input' });
const submit = () => screen.getByRole('button', { name: 'Continue to payment' });

/** Captures `/loan/recharge` calls and answers with a sandbox page. */
function rechargeRecorder() {
  const calls: { body: unknown; key: string | null }[] = [];
  const handler = http.post('http://localhost/jackey/loan/recharge', async ({ request }) => {
    calls.push({ body: await request.json(), key: request.headers.get('Idempotency-Key') });
    return HttpResponse.json({ code: 0, msg: 'ok', data: '/pay/sandbox/s1' });
  });
  return { calls, handler };
}

beforeEach(() => vi.mocked(openPaymentPage).mockClear());

describe('recharge when nothing is owed (P1)', () => {
  it.each([
    ['no order at all (40007)', { order: null }],
    ['an order that is not being repaid', { order: disbursedOrder({ status: 9, periodViews: [] }) }],
    ['a repaid loan', { order: disbursedOrder({ status: 10 }) }],
    ['a payoff quote that finds nothing owed', { payoff: null }],
  ])('shows loan_records_empty and no payment form: %s', async (_name, options) => {
    mount(options);
    expect(await screen.findByText('You have nothing to repay.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Repayment amount', { selector: 'input' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to payment' })).not.toBeInTheDocument();
  });
});

describe('the recharge amount rule', () => {
  it('refuses amounts outside 100–20,000 and opens the payment page for a valid one', async () => {
    const user = userEvent.setup();
    const recorder = rechargeRecorder();
    mount({ handlers: [recorder.handler] });
    const input = await amountInput();
    expect(screen.getByTestId('owed-today')).toHaveTextContent('₱49,000.00');
    expect(screen.getByTestId('recharge-range')).toHaveTextContent(
      'Each payment is between ₱100.00 and ₱20,000.00, or the whole ₱49,000.00 to pay off today.',
    );

    expect(submit()).toBeDisabled();
    await user.type(input, '99.99');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an amount between ₱100.00 and ₱20,000.00.');

    await user.clear(input);
    await user.type(input, '20000.01');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an amount between ₱100.00 and ₱20,000.00.');
    expect(recorder.calls).toHaveLength(0);

    // Digits, one dot and two decimals only.
    await user.clear(input);
    await user.type(input, '1,000.559');
    expect(input).toHaveValue('1,000.55');
    await user.click(submit());
    await waitFor(() => expect(openPaymentPage).toHaveBeenCalledWith('/pay/sandbox/s1'));
    expect(recorder.calls).toEqual([{ body: { amt: '1000.55' }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
  });

  it('never accepts more than what closes the loan today', async () => {
    const user = userEvent.setup();
    mount({ payoff: { amount: '5000.00', interestWaived: '0.00', feesWaived: '0.00', coolingOff: false } });
    const input = await amountInput();
    expect(screen.getByTestId('recharge-range')).toHaveTextContent('Each payment is between ₱100.00 and ₱5,000.00.');
    await user.type(input, '5000.01');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an amount between ₱100.00 and ₱5,000.00.');
  });

  it('lets the final payment be exactly what is owed, even below the minimum', async () => {
    const user = userEvent.setup();
    const recorder = rechargeRecorder();
    mount({
      payoff: { amount: '60.00', interestWaived: '0.00', feesWaived: '0.00', coolingOff: false },
      handlers: [recorder.handler],
    });
    const input = await amountInput();
    expect(screen.getByTestId('recharge-range')).toHaveTextContent('Your final payment is exactly ₱60.00.');
    await user.type(input, '50');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Your final payment is exactly ₱60.00.');
    await user.clear(input);
    await user.type(input, '60');
    await user.click(submit());
    await waitFor(() => expect(recorder.calls).toEqual([{ body: { amt: '60.00' }, key: expect.any(String) }]));
  });

  it('fills the whole payoff, one payment above the range, and the next installment, and explains cooling-off (P12)', async () => {
    const user = userEvent.setup();
    const recorder = rechargeRecorder();
    mount({ handlers: [recorder.handler] });
    const input = await amountInput();
    expect(screen.getByTestId('cooling-off')).toHaveTextContent('returning the principal now closes the loan with no interest and no fee');

    await user.click(screen.getByRole('button', { name: 'Pay off today' }));
    expect(input).toHaveValue('49,000.00');
    expect(screen.getByTestId('recharge-range')).toHaveTextContent('or the whole ₱49,000.00 to pay off today');
    // The payoff goes out as one payment, though it is above the 20,000 range.
    await user.click(submit());
    await waitFor(() => expect(recorder.calls).toEqual([{ body: { amt: '49000.00' }, key: expect.any(String) }]));
    // Any other amount above the range is refused before any call.
    await user.clear(input);
    await user.type(input, '30000');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an amount between');
    expect(recorder.calls).toHaveLength(1);

    // The first installment is 8,433.30 with 1,000.00 paid.
    await user.click(screen.getByRole('button', { name: 'Next installment' }));
    expect(input).toHaveValue('7,433.30');
  });

  it('fills the whole payoff when one payment can close the loan, and says what interest is saved', async () => {
    const user = userEvent.setup();
    mount({ payoff: { amount: '15000.40', interestWaived: '120.00', feesWaived: '0.00', coolingOff: false } });
    const input = await amountInput();
    expect(screen.getByTestId('interest-waived')).toHaveTextContent('you save ₱120.00 of interest');
    await user.click(screen.getByRole('button', { name: 'Pay off today' }));
    expect(input).toHaveValue('15,000.40');
  });

  it('shows the server refusal and keeps the form', async () => {
    const user = userEvent.setup();
    mount({ handlers: [fail('jackey/loan/recharge', 40001, 'enter an amount between 100–20000 for repayment')] });
    await user.type(await amountInput(), '500');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an amount between 100 and 20000 for repayment.');
    expect(openPaymentPage).not.toHaveBeenCalled();
  });

  it('turns a 40007 at submit into the nothing-to-repay message', async () => {
    const user = userEvent.setup();
    mount({ handlers: [fail('jackey/loan/recharge', 40007, 'record not found: nothing is owed')] });
    await user.type(await amountInput(), '500');
    await user.click(submit());
    expect(await screen.findByText('You have nothing to repay.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Repayment amount', { selector: 'input' })).not.toBeInTheDocument();
  });
});
