/**
 * The order's timeline as the borrower sees it (P9): every event in order, with a
 * translated label per event type (the Rust `OrderEvent` names), when, by whom
 * (you, a loan officer, the system) and the event's own details
 * (projections/src/read_models/orders.rs `timeline_detail`, sent under `detail`).
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDates, type Dates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { payoutReason } from '@/lib/envelope';
import { lastFour } from '@/lib/mask';
import { orderEventLabel } from '@/lib/order-events';
import type { TimelineEvent } from '@/lib/api-types';
import './timeline-i18n';

type Money = (value: string | null | undefined) => string;

/** The translated line under an event's label (from its `detail`), or '' when the event has none. */
export function describeEvent(event: TimelineEvent, t: TFunction, money: Money, dates: Dates): string {
  const d = event.detail;
  switch (event.type) {
    case 'LoanApplied':
      return t('timeline_d_applied', { amount: money(d.amount), days: d.periodDays ?? '' });
    case 'ResubmissionRequested':
    case 'LoanRefused':
      return d.reason ? t('timeline_d_reason', { reason: d.reason }) : '';
    case 'FinalAuditPassed':
      return t('timeline_d_approved', { amount: money(d.approvedAmount), date: dates.dateTime(d.offerExpiresAt) });
    case 'PayoutRequested':
      return t('timeline_d_payout_requested', {
        amount: money(d.amount),
        bank: d.bankName ?? '',
        card: lastFour(d.cardNo),
      });
    case 'PayoutSucceeded':
      return t('timeline_d_payout_succeeded', { amount: money(d.netAmount ?? d.principal) });
    case 'PayoutFailed':
      return t('timeline_d_payout_failed', { amount: money(d.amount), reason: payoutReason(d.reason ?? '') });
    case 'RepaymentReceived':
    case 'PaymentSessionPaid':
      return money(d.amount);
    case 'PaymentSessionOpened':
      return t('timeline_d_session_opened', { amount: money(d.amount), date: dates.dateTime(d.expiresAt) });
    case 'PaymentRefundDue':
      return t('timeline_d_refund', { amount: money(d.amount), reason: d.reason ?? '' });
    case 'InstallmentOverdue':
      return t('timeline_d_overdue', { period: d.period ?? '', date: dates.day(d.dueDate) });
    case 'OverdueFeeCharged':
      return t('timeline_d_fee', { period: d.period ?? '', amount: money(d.amount) });
    case 'OverdueReversed':
      // A mark alone (no fee had been charged after the payment arrived) says so.
      return d.amount && Number(d.amount) > 0
        ? t('timeline_d_fee_reversed', { period: d.period ?? '', amount: money(d.amount) })
        : t('timeline_d_overdue_reversed', { period: d.period ?? '' });
    case 'TermExtended':
      return t('timeline_d_extended', { n: d.periodDays ?? '', amount: money(d.amount) });
    case 'ChargesWaived':
      return money(d.amount);
    case 'PaymentPlanRequested':
      return d.reason ?? '';
    case 'PaymentPlanSigned':
      return t('timeline_d_plan_signed', { amount: money(d.amount) });
    case 'PromiseMade':
      return t('timeline_d_promise', { amount: money(d.amount), date: dates.day(d.dueDate) });
    case 'PromiseSettled':
      return t(d.kept ? 'timeline_d_promise_kept' : 'timeline_d_promise_broken', { amount: money(d.amount) });
    case 'LoanRepaid': {
      if (d.coolingOff === true) return t('timeline_d_cooling_off');
      const waived = d.interestWaived;
      return waived && Number(waived) > 0 ? t('timeline_d_interest_waived', { amount: money(waived) }) : '';
    }
    default:
      return '';
  }
}

/** "You", "Loan officer" or "System" for the api's `by` (user, auditor, system). */
function actorKey(by: string): string {
  if (by === 'user') return 'timeline_by_user';
  if (by === 'auditor') return 'timeline_by_auditor';
  return 'timeline_by_system';
}

/**
 * Steps of the payment page itself that the borrower's timeline leaves out: the
 * repayment (or refund) that follows says what happened to the money, and a page
 * replaced by a newer one moved none (a "replaced" line alone, with its opening left
 * out, read as something done to the borrower; issue 52). The auditor's history
 * shows them.
 */
const PAGE_STEPS = new Set(['PaymentSessionOpened', 'PaymentSessionPaid', 'PaymentSessionReplaced']);

/** Due-date reminders are the inbox's (`/inbox`, PRODUCT.md 12.5), not the timeline's. */
const INBOX_ONLY = new Set(['ReminderDue']);

export function OrderTimeline({ events }: { events: TimelineEvent[] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const shown = events.filter((event) => !PAGE_STEPS.has(event.type) && !INBOX_ONLY.has(event.type));
  if (shown.length === 0) return <p className="muted">{t('timeline_empty')}</p>;
  return (
    <ol className="orders-timeline" data-testid="timeline">
      {shown.map((event) => {
        const detail = describeEvent(event, t, money, dates);
        const bad =
          event.type === 'LoanRefused' ||
          event.type === 'PayoutFailed' ||
          event.type === 'InstallmentOverdue' ||
          event.type === 'PaymentSessionFailed';
        return (
          <li key={event.sequence} className={`orders-timeline__item${bad ? ' orders-timeline__item--bad' : ''}`}>
            <div className="orders-timeline__label">{orderEventLabel(t, 'timeline_', event.type)}</div>
            {detail && <div className="orders-timeline__detail">{detail}</div>}
            <div className="muted">
              {dates.dateTime(event.at)} · {t(actorKey(event.by))}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
