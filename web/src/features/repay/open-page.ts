/**
 * Leaves the app for the payment page (the api's sandbox by default, which links
 * back to `/repayDetail` once paid or failed). One function so tests can replace it.
 */
export function openPaymentPage(url: string): void {
  window.location.assign(url);
}
