/**
 * What the borrower's declared income allows on the apply screen (issue 52), read
 * from `/loan/affordability`: the same `pricing::affordability` rule the Order
 * decides by at apply (40010), so the screen never offers an amount apply refuses.
 */
import type { Affordability } from '@/lib/api-types';

/**
 * The income limit over one period:
 * - `free`: the product sets no income share (or the limits are not known yet): the
 *   product's range is the limit;
 * - `undeclared`: the product sets one and no income was declared as an amount;
 * - `none`: not even the product's smallest amount fits the income;
 * - `capped`: at most `max` (a number of pesos, at most the product's maximum).
 */
export type IncomeLimit =
  | { kind: 'free' }
  | { kind: 'undeclared' }
  | { kind: 'none' }
  | { kind: 'capped'; max: number };

/** The limit of `view` over `periodDays`, never above `productMax`. */
export function incomeLimit(view: Affordability | undefined, periodDays: number, productMax: number): IncomeLimit {
  if (!view?.incomeSharePct) return { kind: 'free' };
  if (!view.monthlyIncome) return { kind: 'undeclared' };
  const limit = view.limits.find((l) => l.periodDays === periodDays);
  if (!limit) return { kind: 'free' };
  if (!limit.maxAmount) return { kind: 'none' };
  return { kind: 'capped', max: Math.min(productMax, Number(limit.maxAmount)) };
}

/** The largest amount the borrower may ask for under `limit`; `null` when none. */
export function largestAllowed(limit: IncomeLimit, productMax: number): number | null {
  switch (limit.kind) {
    case 'free':
      return productMax;
    case 'capped':
      return limit.max;
    default:
      return null;
  }
}
