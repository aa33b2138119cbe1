/**
 * The order event types the api sends (aggregates/src/order/events.rs) and their
 * translated labels. The borrower's timeline and the auditor console word them
 * differently (`timeline_<Type>` in features/orders/locales/, `admin_event_<Type>` in the
 * console's strings), but know the same types; an unknown type shows as is.
 */
import type { TFunction } from 'i18next';

export const ORDER_EVENT_TYPES = [
  'LoanApplied',
  'ReviewStarted',
  'ResubmissionRequested',
  'Resubmitted',
  'FirstAuditPassed',
  'FinalAuditPassed',
  'LoanRefused',
  'LoanCancelled',
  'OfferExpired',
  'PayoutRequested',
  'PayoutSucceeded',
  'PayoutFailed',
  'PaymentSessionOpened',
  'PaymentSessionFailed',
  'PaymentSessionReplaced',
  'PaymentSessionPaid',
  'PaymentRefundDue',
  'ManualRepaymentProposed',
  'RepaymentReceived',
  'InstallmentOverdue',
  'OverdueFeeCharged',
  'OverdueReversed',
  'ReminderDue',
  'LoanRepaid',
  'DelinquencyChanged',
  'ContactLogged',
  'ContactRefused',
  'CollectorAssigned',
  'ContactHoursChosen',
  'PromiseMade',
  'PromiseSettled',
  'ChargeOffProposed',
  'LoanChargedOff',
  'RecoveryReceived',
  'ChargeOffClosed',
  'ChargeOffReversalProposed',
  'ChargeOffReversed',
  'WaiverProposed',
  'ChargesWaived',
  'TermExtended',
  'PaymentPlanRequested',
  'PaymentPlanProposed',
  'PaymentPlanApproved',
  'PaymentPlanSigned',
] as const;

export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

export function isOrderEventType(type: string): type is OrderEventType {
  return (ORDER_EVENT_TYPES as readonly string[]).includes(type);
}

/** The label of an event type: the string `<prefix><Type>`, or the type itself when it is not a known one. */
export function orderEventLabel(t: TFunction, prefix: 'timeline_' | 'admin_event_', type: string): string {
  return isOrderEventType(type) ? t(`${prefix}${type}`) : type;
}
