/**
 * The product list names each product in the borrower's language where the lender
 * gave a translation (`nameTranslations`), else by its English name.
 */
import { act, screen, within } from '@testing-library/react';
import ProductsScreen from '@/features/loan/products-screen';
import { setLanguage } from '@/lib/i18n';
import { productName } from '@/lib/product-name';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { userFixture } from '@/testing/fixtures';

const product = { logo: '', minAmount: '80000.00', maxAmount: '3000000.00', step: '10000.00', defaultRate: '0.2' };

beforeEach(() => {
  server.use(
    answer('jackey/user/info', userFixture()),
    answer('jackey/loan/appList', [
      { ...product, id: 1, name: 'Cash Loan', enabled: true, nameTranslations: { zh: '现金贷款' } },
      { ...product, id: 2, name: 'Business Loan', enabled: false, nameTranslations: { zh: '经营贷款', fil: 'Pautang sa Negosyo' } },
    ]),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
  );
});

afterEach(async () => {
  await act(() => setLanguage('en', false));
});

describe('the product list', () => {
  it('names the products in Chinese on a Chinese screen', async () => {
    await act(() => setLanguage('zh', false));
    renderWithProviders(<ProductsScreen />, { route: '/loan', preloadedState: { session: { token: 'tok', redirect: null } } });
    expect(await within(await screen.findByTestId('product-1')).findByText('现金贷款')).toBeInTheDocument();
    expect(within(screen.getByTestId('product-2')).getByText('经营贷款')).toBeInTheDocument();
  });

  it('keeps the English name where the language has none', async () => {
    await act(() => setLanguage('fil', false));
    renderWithProviders(<ProductsScreen />, { route: '/loan', preloadedState: { session: { token: 'tok', redirect: null } } });
    expect(await within(await screen.findByTestId('product-1')).findByText('Cash Loan')).toBeInTheDocument();
    expect(within(screen.getByTestId('product-2')).getByText('Pautang sa Negosyo')).toBeInTheDocument();
    expect(productName({ name: 'Cash Loan', nameTranslations: { zh: ' ' } }, 'zh')).toBe('Cash Loan');
  });
});
