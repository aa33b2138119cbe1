/**
 * Days on the device's calendar, YYYY-MM-DD: the borrower's (and the officer's) local
 * day, which a loan's days follow (the lender's zone, Asia/Manila under PH; issue 53).
 */

/** The local day `days` after today (`0`: today; negative: before). */
export function localDay(days = 0): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA');
}
