/**
 * What the contract shows (P5, P14), read from the order's disclosure as the api
 * sends it. The api's `Disclosure` is camelCase (`processingFee`, `netAmount`,
 * `schedule: [{period, amount}]`), its `lender` snake_case (`legal_name`); lib's
 * `Disclosure` type spells the disclosure in snake_case, so both spellings are
 * read here. Pure functions, covered by the Vitest suite.
 */
import type { Lender, Order } from '@/lib/types';

export interface ContractLender {
  legalName: string;
  registrationNo: string;
  licenceNo: string;
}

export interface ContractLine {
  period: number;
  /** `YYYY-MM-DD` once paid out (the schedule starts on the payout day, P10). */
  dueDate: string | null;
  amount: string;
}

export interface ContractTerms {
  principal: string;
  processingFee: string;
  netAmount: string;
  interest: string;
  totalRepayable: string;
  perPeriodPayment: string;
  periodDays: number;
  dailyRatePct: string;
  aprPct: string;
  effectiveMonthlyRatePct: string;
  overdueDailyRatePct: string | null;
  maxTotalCostPct: string | null;
  coolingOffDays: number | null;
  schedule: ContractLine[];
  lender: ContractLender | null;
  notice: string | null;
}

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw => typeof value === 'object' && value !== null;

/** The first of `keys` that `raw` has as text or a number, as text. */
function pick(raw: Raw, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = raw[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

function pickNumber(raw: Raw, ...keys: string[]): number | null {
  const text = pick(raw, ...keys);
  const value = text === null ? NaN : Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A lender in either spelling (`legal_name` or `legalName`). */
export function readLender(raw: unknown): ContractLender | null {
  if (!isRecord(raw)) return null;
  const legalName = pick(raw, 'legal_name', 'legalName');
  if (!legalName) return null;
  return {
    legalName,
    registrationNo: pick(raw, 'registration_no', 'registrationNo') ?? '',
    licenceNo: pick(raw, 'licence_no', 'licenceNo', 'license_no') ?? '',
  };
}

/**
 * The contract's terms from `order.disclosure`, with the installments' due days
 * from `order.periodViews` once the loan is paid out. Null without a disclosure.
 */
export function readTerms(order: Pick<Order, 'disclosure' | 'periodViews'>, fallbackLender?: Lender | null): ContractTerms | null {
  const raw: unknown = order.disclosure;
  if (!isRecord(raw)) return null;
  const dueDays = new Map(order.periodViews.map((line) => [line.period, line.dueDate]));
  const schedule: ContractLine[] = (Array.isArray(raw.schedule) ? raw.schedule : [])
    .filter(isRecord)
    .map((line, i) => {
      const period = pickNumber(line, 'period') ?? i + 1;
      return {
        period,
        dueDate: pick(line, 'dueDate', 'due_date') ?? dueDays.get(period) ?? null,
        amount: pick(line, 'amount', 'amt') ?? '',
      };
    });
  const money = (...keys: string[]) => pick(raw, ...keys) ?? '';
  return {
    principal: money('principal'),
    processingFee: money('processingFee', 'processing_fee'),
    netAmount: money('netAmount', 'net_amount'),
    interest: money('interest'),
    totalRepayable: money('totalRepayable', 'total_repayable'),
    perPeriodPayment: money('perPeriodPayment', 'per_period_payment'),
    periodDays: pickNumber(raw, 'periodDays', 'period_days') ?? schedule.length,
    dailyRatePct: money('dailyRatePct', 'daily_rate_pct'),
    aprPct: money('aprPct', 'apr_pct'),
    effectiveMonthlyRatePct: money('effectiveMonthlyRatePct', 'effective_monthly_rate_pct'),
    overdueDailyRatePct: pick(raw, 'overdueDailyRatePct', 'overdue_daily_rate_pct'),
    maxTotalCostPct: pick(raw, 'maxTotalCostPct', 'max_total_cost_pct'),
    coolingOffDays: pickNumber(raw, 'coolingOffDays', 'cooling_off_days'),
    schedule,
    lender: readLender(raw.lender) ?? readLender(fallbackLender),
    notice: pick(raw, 'notice'),
  };
}

/** Escapes text for the downloaded HTML document. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Styles of the downloaded contract, so the file needs nothing else. */
const DOCUMENT_CSS = `
body{margin:0;background:#fff;color:#1f2937;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
main{max-width:720px;margin:0 auto;padding:24px 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 8px}
table{width:100%;border-collapse:collapse}td,th{padding:6px 4px;border-top:1px solid #e5e7eb;text-align:left;vertical-align:top}
td:last-child,th:last-child{text-align:right}
.muted{color:#6b7280;font-size:13px}.notice{font-weight:600;color:#0f766e}
img{max-width:100%;height:auto;border:1px solid #e5e7eb;border-radius:6px}
button,a.contract-no-print{display:none}
`;

/** A complete, self-contained HTML document around the contract's markup. */
export function contractDocument(title: string, language: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${DOCUMENT_CSS}</style>
</head>
<body>
<main>
${bodyHtml}
</main>
</body>
</html>
`;
}
