/**
 * The cost disclosure of P5: principal, processing fee and net amount received,
 * interest, total repayable, per-period payment, daily rate, APR and effective
 * monthly rate, the overdue fee and cost cap, the cooling-off days, the schedule
 * (with the due days once paid out), the lender's name and licence numbers and
 * the "we never ask you to pay" notice. Shown before signing (apply) and on the
 * contract.
 */
import { useTranslation } from 'react-i18next';
import { formatPct, toMinor } from '@/lib/money';
import type { Disclosure, ScheduleLine } from '@/lib/api-types';
import { useDates } from './use-dates';
import { useMoney } from './use-money';

/**
 * A disclosure whose installments may carry their due day (RFC 3339 date): the
 * contract adds it from the order's `periodViews` once the loan is paid out (P10).
 */
export type DatedDisclosure = Omit<Disclosure, 'schedule'> & {
  schedule: (ScheduleLine & { dueDate?: string })[];
};

export interface DisclosureTableProps {
  disclosure: DatedDisclosure;
  /** Whether to show the schedule (folded unless `scheduleOpen`). */
  schedule?: boolean;
  /** Show the schedule unfolded (the contract). */
  scheduleOpen?: boolean;
}

export function DisclosureTable({ disclosure, schedule = true, scheduleOpen = false }: DisclosureTableProps) {
  const { t } = useTranslation();
  const dates = useDates();
  const money = useMoney();
  const d = disclosure;
  // The schedule's last installment takes the rounding (8,483.30 × 11, then
  // 8,483.70): "× 12" of the first amount would not add up to the total repayable.
  // No-break spaces keep "₱8,483.30 × 11" on one line; the row may wrap after it
  // (the longer Filipino wording would otherwise push the table past its card).
  const last = d.schedule.at(-1);
  const times = (n: number) => `${money(d.perPeriodPayment)}\u00a0×\u00a0${n}`;
  const perPeriod =
    last && last.period > 1 && toMinor(last.amount) !== toMinor(d.perPeriodPayment)
      ? t('d_per_period_last', { times: times(last.period - 1), last: money(last.amount) })
      : times(d.periodDays);
  // [label, value, whether the value may wrap]
  const rows: [string, string, boolean?][] = [
    [t('d_principal'), money(d.principal)],
    [t('d_processing_fee'), money(d.processingFee)],
    [t('d_net_amount'), money(d.netAmount)],
    [t('d_interest'), money(d.interest)],
    [t('d_total_repayable'), money(d.totalRepayable)],
    [t('d_per_period'), perPeriod, true],
    [t('d_daily_rate'), formatPct(d.dailyRatePct)],
    [t('d_apr'), formatPct(d.aprPct)],
    [t('d_monthly_rate'), formatPct(d.effectiveMonthlyRatePct)],
    [t('d_overdue_rate'), formatPct(d.overdueDailyRatePct)],
    [t('d_cost_cap'), formatPct(d.maxTotalCostPct)],
    [t('d_cooling_off'), t('days', { n: d.coolingOffDays })],
  ];
  return (
    <div className="stack" data-testid="disclosure">
      <table className="disclosure">
        <tbody>
          {rows.map(([label, value, wraps]) => (
            <tr key={label}>
              <td>{label}</td>
              <td className={wraps ? 'disclosure__wraps' : undefined}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t('d_rate_note')}</p>
      {schedule && d.schedule.length > 0 && (
        <details open={scheduleOpen}>
          <summary className="muted">{t('d_schedule', { n: d.schedule.length })}</summary>
          <table className="schedule">
            <thead>
              <tr>
                <th>{t('period')}</th>
                <th>{t('due')}</th>
                <th>{t('amount')}</th>
              </tr>
            </thead>
            <tbody>
              {d.schedule.map((line) => (
                <tr key={line.period}>
                  <td>{line.period}</td>
                  <td>{line.dueDate ? dates.day(line.dueDate) : t('day_n_after_payout', { n: line.period })}</td>
                  <td>{money(line.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <p className="muted">
        {t('d_lender', { name: d.lender.legal_name, reg: d.lender.registration_no, licence: d.lender.licence_no })}
      </p>
      <p className="info-box notice">{t('never_pay_notice')}</p>
    </div>
  );
}
