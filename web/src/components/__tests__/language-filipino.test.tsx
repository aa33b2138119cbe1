/**
 * Filipino as the third language of the borrower app (issue 16): the switch
 * lists it by its own name, choosing it loads its strings (a chunk of its own),
 * marks the page `lang="fil"` and is remembered; dates and amounts follow
 * `fil-PH`; every error of the catalogue (PRODUCT.md 9) reads in Filipino. The
 * console is not translated into Filipino: it lists English and Chinese and
 * opens in English.
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import LoginScreen from '@/features/auth/login-screen';
import AdminApp from '@/features/admin/admin-app';
import { background } from '@/features/admin/__tests__/fixtures';
import { messageFor } from '@/lib/envelope';
import i18n, { setLanguage } from '@/lib/i18n';
import { intlLocale } from '@/lib/locale';
import { formatMoney } from '@/lib/money';
import en from '@/locales/en.json';
import fil from '@/locales/fil.json';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';

type Strings = Record<string, string>;

afterEach(async () => {
  cleanup(); // before the language changes back, so no screen re-renders outside act
  await setLanguage('en', false);
  document.documentElement.lang = 'en';
});

describe('Filipino in the borrower app', () => {
  beforeEach(() => {
    server.use(answer('jackey/loan/getAllCompanyConfigs', {}), answer('jackey/loan/getCustomerService', null));
  });

  it('the switch lists English, 中文 and Filipino; choosing Filipino translates the screen and is remembered', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginScreen />, { route: '/login' });
    const group = screen.getByRole('group', { name: 'Language' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['English', '中文', 'Filipino']);
    expect(within(group).getByText('Filipino')).toHaveAttribute('lang', 'fil');

    // The strings load as a chunk of their own; the click waits for them.
    await act(() => user.click(within(group).getByRole('button', { name: 'Filipino' })));
    expect(await screen.findByRole('heading', { name: 'Mag-log in' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Numero ng telepono' })).toBeInTheDocument();
    expect(screen.getAllByText(fil.never_pay_notice).length).toBeGreaterThan(0);
    expect(screen.getByRole('group', { name: 'Wika' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fil');
    expect(localStorage.getItem('language')).toBe('fil');
    // No key shows instead of its text.
    expect(document.body.textContent).not.toMatch(/\b(sign_in|never_pay_notice|language_fil)\b/);
  });

  it('formats dates and amounts for fil-PH: Filipino month names, Philippine peso grouping', async () => {
    await setLanguage('fil', false);
    function Probe() {
      const { t } = useTranslation();
      const money = useMoney();
      const dates = useDates();
      return (
        <>
          <p data-testid="probe">
            {t('home_next_installment', { amount: money('1234567.50'), date: dates.day('2026-11-22') })}
          </p>
          <p data-testid="time">{dates.dateTime('2026-11-22T06:57:00Z')}</p>
        </>
      );
    }
    const { store } = renderWithProviders(<Probe />);
    // Once the company configuration (the currency) has answered.
    await waitFor(() => expect(Object.values(store.getState().api.queries).map((q) => q?.status)).toEqual(['fulfilled']));
    expect(screen.getByTestId('probe')).toHaveTextContent('Susunod na hulog: ₱1,234,567.50, babayaran sa Nob 22, 2026');
    expect(intlLocale('fil')).toBe('fil-PH');
    // The time holds together ("2:57 PM" never breaks before PM): no breakable space from the hour on.
    const time = screen.getByTestId('time').textContent ?? '';
    expect(time).toMatch(/\d:\d\d/);
    expect(time.slice(time.search(/\d{1,2}:\d\d/))).not.toMatch(/[ \u202f]/);
    // The decimal string is formatted as it is, never summed as a float.
    expect(formatMoney('0.10', undefined, 'fil')).toBe('₱0.10');
    expect(formatMoney('80000.00', undefined, 'fil')).toBe('₱80,000.00');
  });
});

describe('the error catalogue in Filipino', () => {
  const CODES = Object.keys(en)
    .map((key) => /^service_error_(\d+)$/.exec(key)?.[1])
    .filter((code): code is string => code !== undefined)
    .map(Number);

  it('covers the codes of PRODUCT.md 9', () => {
    expect(CODES).toEqual(expect.arrayContaining([5, 7, 401, 500, 10002, 10004, 20003, 40001, 40008, 110012]));
  });

  it('every code has its Filipino message, with the numbers of the server message', async () => {
    await setLanguage('fil', false);
    for (const code of CODES) {
      const text = (fil as Strings)[`service_error_${code}`];
      expect(text, `service_error_${code}`).toBeTruthy();
      expect(messageFor(code, 'plain')).not.toBe((en as Strings)[`service_error_${code}`]);
    }
    expect(messageFor(40005, 'an order is already in progress')).toBe('Mayroon ka nang order na kasalukuyang pinoproseso.');
    expect(messageFor(40008, 'wrong withdraw PIN (3 attempts left)')).toBe('Mali ang PIN sa pag-withdraw (3 pagsubok na lang ang natitira).');
    expect(messageFor(40001, 'enter an amount between 100.00–5000.00 for repayment')).toBe(
      'Maglagay ng halagang mula 100.00 hanggang 5000.00 para sa pagbabayad.',
    );
    expect(messageFor(10002, 'wrong phone number or password (2 attempts left)')).toBe(
      'Mali ang numero ng telepono o password. 2 pagsubok na lang ang natitira bago ma-lock ang account para sa iyong proteksyon.',
    );
  });
});

describe('the console and Filipino', () => {
  it('opens in English when the borrower chose Filipino, lists only English and 中文, and keeps the borrower choice', async () => {
    localStorage.setItem('language', 'fil');
    await setLanguage('fil');
    server.use(...background);
    await act(async () => {
      renderWithProviders(<AdminApp />, { route: '/admin/login', path: '/admin/*' });
    });
    expect(await screen.findByRole('heading', { name: 'Loan officer sign-in' })).toBeInTheDocument();
    await waitFor(() => expect(i18n.language).toBe('en'));
    const group = screen.getByRole('group', { name: 'Language' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['English', '中文']);
    expect(localStorage.getItem('language')).toBe('fil');
  });
});
