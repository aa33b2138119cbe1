/**
 * The cost disclosure (P5) on the apply screen: pre-filled with the largest
 * amount and longest period (P7), every figure of `/loan/quote` shown before the
 * borrower can submit, and the amount clamped to the range on blur.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import ApplyScreen from '@/features/loan/apply-screen';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { disclosureFixture, userFixture } from '@/testing/fixtures';

const session = { token: 'tok', redirect: null };

beforeEach(() => {
  server.use(
    answer('jackey/user/info', userFixture({ signatureImg: '/files/sig.png' })),
    answer('jackey/loan/appList', [
      { id: 1, name: 'Cash Loan', logo: '', minAmount: '80000.00', maxAmount: '3000000.00', step: '10000.00', defaultRate: '0.2', enabled: true },
    ]),
    answer('jackey/loan/getPeriodConfig', {
      id: 1,
      rateConfigs: [
        { periodDays: 6, rate: '0.2', amounts: ['80000.00'] },
        { periodDays: 24, rate: '0.1', amounts: ['80000.00'] },
      ],
    }),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
    // A product without an income share: the range is the only limit.
    answer('jackey/loan/affordability', { monthlyIncome: '400000.00', incomeSharePct: null, limits: [] }),
  );
});

describe('apply screen cost disclosure', () => {
  it('asks for the quote of the largest amount and longest period and shows every figure', async () => {
    const asked: unknown[] = [];
    server.use(
      http.post('http://localhost/jackey/loan/quote', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: disclosureFixture });
      }),
    );
    renderWithProviders(<ApplyScreen />, { route: '/apply/1', path: '/apply/:appId', preloadedState: { session } });
    const table = await screen.findByTestId('disclosure', {}, { timeout: 4000 });
    expect(asked[0]).toEqual({ amt: '3000000', periodDays: 24, appId: 1 });
    for (const text of ['Principal', '₱100,000.00', 'Processing fee', '₱0.00', 'You receive', 'Interest', '₱2,400.00',
      'Total to repay', '₱102,400.00', 'Daily rate', '0.10%', 'APR (effective, fees included)', '100.38%', 'Effective monthly rate, fees included', '5.88%']) {
      expect(within(table).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(table).toHaveTextContent('Honest Lending Corporation');
    expect(table).toHaveTextContent('We never ask you to pay to receive a loan.');
    // The convention of the effective rates is stated with them (issue 52).
    expect(table).toHaveTextContent('internal rate of return');
    // The last installment takes the rounding: 4,266.67 × 23 + 4,266.59 = 102,400.00,
    // where "× 24" would not add up to the total.
    const perPeriod = within(table).getByText('Daily payment').closest('tr');
    expect(perPeriod).toHaveTextContent('₱4,266.67 × 23, then ₱4,266.59');
    // It may wrap after "₱4,266.67 × 23," (long Filipino wording), never inside it.
    const value = (perPeriod as HTMLTableRowElement).cells[1];
    expect(value.textContent).toBe('₱4,266.67\u00a0×\u00a023, then ₱4,266.59');
    expect(value).toHaveClass('disclosure__wraps');
  });

  it('clamps the amount to the range and step on blur, shown in groups of three', async () => {
    server.use(answer('jackey/loan/quote', disclosureFixture));
    renderWithProviders(<ApplyScreen />, { route: '/apply/1?amount=100000&period=6', path: '/apply/:appId', preloadedState: { session } });
    const input = await screen.findByRole('textbox', { name: 'Loan amount' });
    await waitFor(() => expect(input).toHaveValue('100,000'));
    fireEvent.change(input, { target: { value: '125,555' } });
    fireEvent.blur(input);
    expect(input).toHaveValue('120,000');
    fireEvent.change(input, { target: { value: '12a' } });
    expect(input).toHaveValue('12');
    fireEvent.blur(input);
    expect(input).toHaveValue('80,000');
  });

  it('keeps the chosen amount and period in the URL, so a reload does not reset them', async () => {
    server.use(answer('jackey/loan/quote', disclosureFixture));
    const { router } = renderWithProviders(<ApplyScreen />, {
      route: '/apply/1?amount=100000&period=6',
      path: '/apply/:appId',
      preloadedState: { session },
    });
    const input = await screen.findByRole('textbox', { name: 'Loan amount' });
    await waitFor(() => expect(input).toHaveValue('100,000'));
    fireEvent.change(input, { target: { value: '250000' } });
    fireEvent.blur(input);
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('amount')).toBe('250000'));
    fireEvent.click(screen.getByRole('radio', { name: /24 days/ }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('period')).toBe('24'));
  });
});

describe('apply screen income limit (issue 52)', () => {
  const capped = {
    monthlyIncome: '400000.00',
    incomeSharePct: '40',
    limits: [
      { periodDays: 6, maxAmount: null },
      { periodDays: 24, maxAmount: '150000.00' },
    ],
  };

  it('pre-fills the largest amount the income allows, says why, and clamps to it', async () => {
    server.use(answer('jackey/loan/quote', disclosureFixture), answer('jackey/loan/affordability', capped));
    renderWithProviders(<ApplyScreen />, { route: '/apply/1?period=24', path: '/apply/:appId', preloadedState: { session } });
    const input = await screen.findByRole('textbox', { name: 'Loan amount' });
    await waitFor(() => expect(input).toHaveValue('150,000'));
    expect(screen.getByTestId('income-limit')).toHaveTextContent(
      'Your declared income of ₱400,000.00 a month allows up to ₱150,000.00 over 24 days: what you repay in any month may be at most 40% of your income.',
    );
    fireEvent.change(input, { target: { value: '200000' } });
    expect(screen.getByText('At most ₱150,000.00 for your declared income.')).toBeInTheDocument();
    fireEvent.blur(input);
    expect(input).toHaveValue('150,000');
  });

  it('a link from before (the product maximum in the URL) is brought down to the limit', async () => {
    server.use(answer('jackey/loan/quote', disclosureFixture), answer('jackey/loan/affordability', capped));
    renderWithProviders(<ApplyScreen />, { route: '/apply/1?amount=3000000&period=24', path: '/apply/:appId', preloadedState: { session } });
    const input = await screen.findByRole('textbox', { name: 'Loan amount' });
    await waitFor(() => expect(input).toHaveValue('150,000'));
  });

  it('a period the income does not allow turns apply off and points to the questionnaire', async () => {
    server.use(answer('jackey/loan/quote', disclosureFixture), answer('jackey/loan/affordability', capped));
    renderWithProviders(<ApplyScreen />, { route: '/apply/1?period=6', path: '/apply/:appId', preloadedState: { session } });
    const note = await screen.findByTestId('income-limit', {}, { timeout: 4000 });
    expect(note).toHaveTextContent('does not allow this loan over 6 days');
    expect(note).toHaveTextContent('Over 24 days you may borrow up to ₱150,000.00.');
    expect(within(note).getByRole('link', { name: 'Update my income' })).toHaveAttribute('href', '/question');
    fireEvent.click(screen.getByRole('checkbox'));
    await screen.findByTestId('disclosure', {}, { timeout: 4000 });
    expect(screen.getByRole('button', { name: 'Sign and submit' })).toBeDisabled();
  });

  it('no income declared as an amount: asks for it', async () => {
    server.use(
      answer('jackey/loan/quote', disclosureFixture),
      answer('jackey/loan/affordability', { monthlyIncome: null, incomeSharePct: '40', limits: capped.limits }),
    );
    renderWithProviders(<ApplyScreen />, { route: '/apply/1', path: '/apply/:appId', preloadedState: { session } });
    const note = await screen.findByTestId('income-limit', {}, { timeout: 4000 });
    expect(note).toHaveTextContent('Enter your monthly income in digits in the questionnaire');
    expect(within(note).getByRole('link')).toHaveAttribute('href', '/question');
  });
});
