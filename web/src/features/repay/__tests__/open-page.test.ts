/** The api's payment page opens in the app's language; a gateway's page as given (issue 52). */
import { withLanguage } from '../open-page';

describe('the payment page link', () => {
  it('carries the app language to the api page only', () => {
    expect(withLanguage('/pay/sandbox/abc', 'zh')).toBe('/pay/sandbox/abc?lang=zh');
    expect(withLanguage('/pay/sandbox/abc?lang=en', 'fil')).toBe('/pay/sandbox/abc?lang=fil');
    expect(withLanguage('https://checkout.xendit.co/web/123', 'zh')).toBe('https://checkout.xendit.co/web/123');
  });
});
