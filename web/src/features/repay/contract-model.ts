/**
 * What the contract shows (P5, P14): the order's disclosure (the api's
 * `Disclosure`) with the installments' due days from `periodViews` once the loan
 * is paid out, and the self-contained document the contract downloads as. Pure
 * functions, covered by the Vitest suite.
 */
import type { Disclosure, Order } from '@/lib/types';

/**
 * The order's disclosure as the contract prints it: each installment with its due
 * day once the loan is paid out (the schedule starts on the payout day, P10).
 * Null without a disclosure.
 */
export function contractDisclosure(order: Pick<Order, 'disclosure' | 'periodViews'>): Disclosure | null {
  const d = order.disclosure;
  if (!d) return null;
  const dueDays = new Map(order.periodViews.map((line) => [line.period, line.dueDate]));
  return {
    ...d,
    schedule: d.schedule.map((line) => ({ ...line, dueDate: line.dueDate ?? dueDays.get(line.period) })),
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
img[data-signature]{width:100%;max-width:400px;aspect-ratio:8/3;object-fit:contain}
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
