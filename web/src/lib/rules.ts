/**
 * Client-side rules of PRODUCT.md section 4: qualification (4.1), the home main
 * button (4.2) and the borrower-facing status labels (4.3). Pure functions, so
 * the Vitest suite covers every branch.
 */
import type { Progress, Qualification, PeriodConfig, Product } from './api-types';

/** Identity/profile/bank sub-status is complete at 1 (submitted) or 2 (verified); 3 forces re-upload. */
export function isComplete(subStatus: number): boolean {
  return subStatus === 1 || subStatus === 2;
}

/** A user is qualified when identity, basic information and bank card are all complete (4.1). */
export function isQualified(q: Qualification | undefined | null): boolean {
  return !!q && isComplete(q.identity) && isComplete(q.basicInformation) && isComplete(q.bankCard);
}

/** Terminal statuses (4.2): 10 and above, or 5 (refused at first review). */
export function isTerminal(status: number): boolean {
  return status >= 10 || status === 5;
}

export type MainButton =
  | { kind: 'completeInfo'; to: string }
  | { kind: 'refresh' }
  | { kind: 'resubmit'; to: string }
  | { kind: 'withdraw'; to: string }
  | { kind: 'repay'; to: string }
  | { kind: 'apply'; to: string };

/**
 * The home main button (4.2, with the per-status actions of 4.3): "Complete info"
 * → `/baseInfo` while unqualified; with an order in progress its action: refresh
 * while under review (0, 1, 3), fix and resubmit when the officer asks (2, 12.4;
 * before the qualification check, since new photos await review), withdraw when approved (9) → the withdraw form, repay
 * when disbursed (4) → `/recharge`; otherwise "Apply" → `/question`. A terminal
 * order (4.2: status ≥ 10 or 5) no longer blocks a new application, so a borrower
 * who repaid, cancelled, let an offer expire or was refused can apply again.
 */
export function mainButton(
  qualification: Qualification | undefined | null,
  progress: Progress | null | undefined,
): MainButton {
  if (progress?.status === 2) return { kind: 'resubmit', to: `/detail/${progress.orderId}` };
  if (!isQualified(qualification)) return { kind: 'completeInfo', to: '/baseInfo' };
  if (progress && !isTerminal(progress.status)) {
    if (progress.status === 9) return { kind: 'withdraw', to: `/detail/${progress.orderId}?index=0` };
    if (progress.status === 4) return { kind: 'repay', to: '/recharge' };
    return { kind: 'refresh' };
  }
  return { kind: 'apply', to: '/question' };
}

/**
 * Where the questionnaire leads (4.2, P7): with no order or a terminal latest
 * order, the apply screen of the first enabled product at its longest period (the
 * screen pre-fills the largest amount the declared income allows, issue 52);
 * otherwise the order's detail.
 */
export function afterQuestionnaire(
  progress: Progress | null | undefined,
  products: Product[],
  periods?: PeriodConfig,
): string {
  if (progress && !isTerminal(progress.status)) return `/detail/${progress.orderId}`;
  const product = products.find((p) => p.enabled);
  if (!product) return '/loan';
  const longest = periods ? Math.max(...periods.rateConfigs.map((c) => c.periodDays)) : undefined;
  if (longest === undefined || !Number.isFinite(longest)) return `/apply/${product.id}`;
  return `/apply/${product.id}?period=${longest}`;
}

/** Statuses shown as "Under review" with a progress step (4.3). */
export const REVIEW_STEPS = [0, 1, 2, 3] as const;

/**
 * The label key of a status (4.3): 0–3 read "Under review"; the others their own
 * label. The numeric code stays for logic.
 */
export function statusLabelKey(status: number): string {
  // 2 asks something of the borrower (12.4): never shown as "Under review".
  if (status === 0 || status === 1 || status === 3) return 'status_under_review';
  return `status_${status}`;
}

/** The review step (0 submitted, 1 first review, 2 final review) of statuses 0–3. */
export function reviewStep(status: number): number {
  if (status === 0 || status === 2) return 0;
  if (status === 1) return 1;
  return 2;
}

/** Gathers amounts, periods and rates across entries, sorted ascending (PRODUCT.md 10). */
export function gatherTerms(config: PeriodConfig | undefined) {
  const amounts = new Set<number>();
  const periods = new Set<number>();
  const rates = new Map<number, string>();
  for (const entry of config?.rateConfigs ?? []) {
    periods.add(entry.periodDays);
    rates.set(entry.periodDays, entry.rate);
    for (const a of entry.amounts) amounts.add(Number(a));
  }
  const sort = (values: Iterable<number>) => [...values].sort((a, b) => a - b);
  return { amounts: sort(amounts), periods: sort(periods), rates };
}
