/**
 * Leaves the app for the payment page (the api's sandbox by default, which links
 * back to `/repayDetail` once paid or failed). The api's own page opens in the app's
 * language (`?lang=`, issue 52); a gateway's page is opened as given. One function so
 * tests can replace it.
 */
import i18n from '@/lib/i18n';

/** `url` with the app's language when it is the api's own page. */
export function withLanguage(url: string, language: string = i18n.language): string {
  if (!url.startsWith('/pay/')) return url;
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.set('lang', language);
  return `${path}?${params.toString()}`;
}

export function openPaymentPage(url: string): void {
  window.location.assign(withLanguage(url));
}
