/**
 * `/admin/orders/:orderId`: the order review (PRODUCT.md 7): the application,
 * the applicant's ID photos, profile and questionnaire, the disclosure the
 * borrower signed and the signature, the timeline (who did what, when) and the
 * actions the status allows (4.3): start review (0 → 1), pass first review
 * (1 → 3, only with a verified identity), pass final review (3 → 9, by another
 * auditor), refuse (reason required), request resubmission (reason required),
 * and, once disbursed (4), a repayment received outside the app.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DisclosureTable } from '@/components/disclosure-table';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { isPositive } from '@/lib/money';
import { intlLocale } from '@/lib/locale';
import { useAdminHistoryQuery, useAdminOrderActionMutation, useAdminOrderQuery, type OrderAction } from './admin-api';
import { actorView, ageAt, eventLabel, incomeMultiple } from './admin-format';
import { adminPaths } from './admin-paths';
import { useAdminSession, type AdminSession } from './admin-session';
import { OrderDocuments } from './order-documents';
import type { AdminTimelineEntry, HistoryEvent, OrderReview } from '@/lib/api-types';
import { ActionButtons, ActionOutcome, type ActionButton } from './action-buttons';
import {
  BackLink,
  KeyValues,
  numeric,
  PageHeader,
  PageNotLoaded,
  Section,
  StatusLabel,
  Table,
  WhenWho,
  type KeyValue,
} from './admin-ui';
import { kindLabel } from './history-fields';
import { IdentityPanel, Photo } from './identity-panel';
import { ApplicantProfile, QuestionnaireView, ContactsView } from './profile-view';
import { RepaymentForm } from './repayment-form';
import { useAction } from './use-action';

/** Auditor id → username, from the history (which names auditors) and the session. */
export function useActorNames(events: HistoryEvent[] | undefined, session: AdminSession | null) {
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const event of events ?? []) {
      if (event.actorName && event.actor.startsWith('auditor:')) names.set(event.actor.slice(8), event.actorName);
    }
    if (session?.auditor) names.set(session.auditor.auditorId, session.auditor.username);
    return names;
  }, [events, session]);
}

/** The note an auditor wrote when passing a review (kept in the event's payload). */
function noteOf(event: HistoryEvent | undefined): string | null {
  const payload = event?.payload as Record<string, { note?: unknown }> | undefined;
  const note = payload?.[event?.type ?? '']?.note;
  return typeof note === 'string' && note.trim() ? note : null;
}

const MONEY_DETAILS = new Set(['amount', 'approvedAmount', 'principal', 'netAmount', 'interestWaived', 'feesWaived']);
const TIME_DETAILS = new Set(['offerExpiresAt', 'expiresAt']);
const DAY_DETAILS = new Set(['dueDate']);
const DETAIL_KEYS = [
  'amount',
  'periodDays',
  'reason',
  'stage',
  'approvedAmount',
  'offerExpiresAt',
  'bankName',
  'cardNo',
  'principal',
  'netAmount',
  'period',
  'dueDate',
  'interestWaived',
  'feesWaived',
  'coolingOff',
  'expiresAt',
  'kind',
  'reasons',
];

function TimelineDetail({ detail, note }: { detail: Record<string, unknown>; note: string | null }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const parts = Object.entries(detail).map(([key, value]) => {
    const label = DETAIL_KEYS.includes(key) ? t(`admin_detail_${key}`) : key;
    let text: string;
    if (MONEY_DETAILS.has(key)) text = money(value as string);
    else if (TIME_DETAILS.has(key)) text = dates.dateTime(value as string);
    else if (DAY_DETAILS.has(key)) text = dates.day(value as string);
    else if (typeof value === 'boolean') text = value ? t('admin_yes') : t('admin_no');
    else if (key === 'stage') text = t(`admin_stage_${String(value)}`, { defaultValue: String(value) });
    else if (key === 'kind') text = kindLabel(t, String(value));
    else if (key === 'reasons' && Array.isArray(value))
      text = value.map((code) => t(`admin_refusal_reason_${String(code)}`, { defaultValue: String(code) })).join(', ');
    else text = String(value);
    return `${label}: ${text}`;
  });
  if (note) parts.push(`${t('admin_note')}: ${note}`);
  if (parts.length === 0) return null;
  return <div className="admin-timeline__detail">{parts.join(' · ')}</div>;
}

export function Timeline({
  entries,
  names,
  history,
}: {
  entries: AdminTimelineEntry[];
  names: ReadonlyMap<string, string>;
  history: HistoryEvent[] | undefined;
}) {
  const { t } = useTranslation();
  if (entries.length === 0) return <p className="admin-muted">{t('admin_timeline_empty')}</p>;
  return (
    <ol className="admin-timeline" data-testid="admin-timeline">
      {entries.map((entry) => {
        const actor = actorView(t, entry.actor, names);
        const event = history?.find((e) => e.sequence === entry.sequence);
        return (
          <li key={entry.sequence} className={`admin-timeline__item admin-timeline__item--${actor.kind}`}>
            <div className="admin-timeline__head">
              <span className="admin-timeline__seq">#{entry.sequence}</span>
              <strong>{eventLabel(t, entry.type)}</strong>
            </div>
            <TimelineDetail detail={entry.detail ?? {}} note={noteOf(event)} />
            <div className="admin-muted">
              <WhenWho at={entry.at} who={actor.label} title={actor.id} testId="timeline-actor" />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** What a resubmission request can ask the borrower to fix (PRODUCT.md 12.4). */
export const RESUBMISSION_ITEMS = ['photos', 'profile', 'bank', 'questionnaire'] as const;

/** The coded reasons of a refusal (issue 52), which the borrower reads in their language. */
export const REFUSAL_REASONS = [
  'income_not_verified',
  'identity_not_verified',
  'information_inconsistent',
  'repayment_capacity',
  'outside_policy',
] as const;

/** The actions of PRODUCT.md 4.3 that the status allows (the server checks again). */
export function actionsFor(status: number, t: (key: string) => string): ActionButton<OrderAction>[] {
  const refuse: ActionButton<OrderAction> = {
    action: 'refuse',
    label: t('admin_refuse'),
    color: 'danger',
    fill: 'outline',
    reason: t('admin_refuse_hint'),
    choices: {
      legend: t('admin_refusal_reasons_legend'),
      required: t('admin_refusal_reasons_required'),
      options: REFUSAL_REASONS.map((code) => ({ value: code, label: t(`admin_refusal_reason_${code}`) })),
    },
    noteOptional: true,
  };
  const resubmit: ActionButton<OrderAction> = {
    action: 'requestResubmission',
    label: t('admin_request_resubmission'),
    color: 'warning',
    fill: 'outline',
    reason: t('admin_request_resubmission_hint'),
    choices: {
      legend: t('admin_choices_legend'),
      required: t('admin_choices_required'),
      options: RESUBMISSION_ITEMS.map((item) => ({ value: item, label: t(`admin_resubmission_item_${item}`) })),
    },
  };
  switch (status) {
    case 0:
      return [{ action: 'startReview', label: t('admin_start_review'), color: 'primary' }, resubmit, refuse];
    case 1:
      return [
        { action: 'passFirst', label: t('admin_pass_first'), color: 'success', note: t('admin_pass_first_hint') },
        resubmit,
        refuse,
      ];
    case 2:
      return [refuse];
    case 3:
      return [
        { action: 'passFinal', label: t('admin_pass_final'), color: 'success', note: t('admin_pass_final_hint') },
        resubmit,
        refuse,
      ];
    default:
      return [];
  }
}

const FOUR_EYES_HINT_ID = 'admin-four-eyes-hint';

function ActionsPanel({ data, names }: { data: OrderReview; names: ReadonlyMap<string, string> }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const [send] = useAdminOrderActionMutation();
  const orderId = data.order.orderId;
  const action = useAction<OrderAction>((kind, text, idempotencyKey, chosen) =>
    send({ action: kind, orderId, text, idempotencyKey, chosen }),
  );
  const status = data.order.status;
  const me = session?.auditor?.auditorId;
  // Four eyes (PRODUCT.md 4.3): the Order aggregate refuses a final review, pass or
  // refusal, by the first reviewer, also while a resubmission is awaited; the console
  // says so before the click instead of after it. Asking for a resubmission (a new
  // review round) stays open to them.
  const firstWasMe = (status === 3 || status === 2) && !!me && data.review.firstAuditor === me;
  const finalDecision = (kind: OrderAction) => kind === 'passFinal' || kind === 'refuse';
  const buttons = actionsFor(status, t).map((button) =>
    finalDecision(button.action) && firstWasMe ? { ...button, unavailable: { hintId: FOUR_EYES_HINT_ID } } : button,
  );

  return (
    <Section title={t('admin_actions')} className="admin-section--actions" testId="admin-actions">
      {buttons.length === 0 && status !== 4 && <p className="admin-muted">{t('admin_no_actions')}</p>}
      <ActionButtons buttons={buttons} action={action} />
      {status === 1 && data.identityStatus !== 2 && (
        <p className="admin-hint">{t('admin_hint_identity_first')}</p>
      )}
      {firstWasMe && (
        <p className="admin-hint" id={FOUR_EYES_HINT_ID} data-testid="admin-four-eyes-hint">
          {t('admin_hint_four_eyes')}
        </p>
      )}
      <ActionOutcome action={action} />
      {status === 4 && <RepaymentForm orderId={orderId} remaining={data.order.remaining} />}
      <ReviewFacts data={data} names={names} />
    </Section>
  );
}

function ReviewFacts({ data, names }: { data: OrderReview; names: ReadonlyMap<string, string> }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const who = (id: string | null) => (id ? actorView(t, `auditor:${id}`, names).label : '—');
  const { review } = data;
  const rows: KeyValue[] = [
    [t('admin_first_reviewer'), who(review.firstAuditor)],
    [t('admin_final_reviewer'), who(review.finalAuditor)],
  ];
  if (review.refusal) {
    rows.push([
      t('admin_refusal'),
      t('admin_refusal_text', {
        stage: t(`admin_stage_${review.refusal.stage}`, { defaultValue: review.refusal.stage }),
        reason: [
          ...(review.refusal.reasons ?? []).map((code) => t(`admin_refusal_reason_${code}`, { defaultValue: code })),
          review.refusal.reason,
        ]
          .filter((part) => part.trim() !== '')
          .join('; '),
        who: who(review.refusal.auditorId),
      }),
    ]);
  }
  if (review.resubmissionReason) rows.push([t('admin_resubmission_reason'), review.resubmissionReason]);
  // What the last resubmission changed of what was asked (issue 52): the review
  // starts from it, and an item asked for but left as it was is named.
  const last = review.lastResubmission;
  if (last) {
    const item = (key: string) => t(`admin_resubmission_item_${key}`);
    const unchanged = last.asked.filter((key) => !last.fixed.includes(key));
    rows.push([
      t('admin_resubmission_changed'),
      [
        t('admin_resubmission_changed_items', { items: last.fixed.map(item).join(', ') || '—' }),
        unchanged.length > 0 ? t('admin_resubmission_unchanged_items', { items: unchanged.map(item).join(', ') }) : '',
        dates.dateTime(last.at),
      ]
        .filter(Boolean)
        .join(' · '),
    ]);
  }
  if (review.resubmissionItems?.length)
    rows.push([
      t('admin_resubmission_items'),
      review.resubmissionItems.map((item) => t(`admin_resubmission_item_${item}`)).join(', '),
    ]);
  if (Number(review.approvedAmount) > 0) rows.push([t('admin_approved_amount'), money(review.approvedAmount)]);
  if (review.offerExpiresAt) rows.push([t('admin_offer_expires'), dates.dateTime(review.offerExpiresAt)]);
  // The applicant's age on the application day, and how many months of stated income
  // the applied amount is (PRODUCT.md 7: what an officer weighs before passing).
  const age = ageAt(data.applicant?.birthday, data.order.applyTime);
  rows.push([t('admin_age_at_application'), age === null ? t('admin_not_stated') : t('admin_years', { count: age })]);
  const income = data.questionnaire?.monthlyIncome ?? data.applicant?.monthlyIncome ?? null;
  const multiple = incomeMultiple(data.order.applyAmount, income);
  rows.push([
    t('admin_amount_to_income'),
    multiple === null
      ? t('admin_not_stated')
      : t('admin_amount_to_income_value', {
          multiple: new Intl.NumberFormat(intlLocale(i18n.language), { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(multiple),
          amount: money(data.order.applyAmount),
          income: money(income),
        }),
  ]);
  return (
    <div className="admin-review-facts">
      <h3 className="admin-subtitle">{t('admin_review')}</h3>
      <KeyValues rows={rows} />
    </div>
  );
}

function Application({ data }: { data: OrderReview }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const o = data.order;
  const rows: KeyValue[] = [
    [t('admin_product'), o.productName],
    [t('admin_col_amount'), money(o.applyAmount)],
    [t('admin_col_period'), o.periodDays === null ? '—' : t('admin_days', { n: o.periodDays })],
    [t('admin_daily_rate'), o.rate ? `${o.rate}%` : '—'],
    [t('admin_col_applied'), dates.dateTime(o.applyTime)],
  ];
  if (o.status === 4 || o.status === 10 || o.paidAt) {
    rows.push(
      [t('admin_principal_paid'), money(o.principal)],
      [t('admin_paid_at'), dates.dateTime(o.paidAt)],
      [t('admin_total_repay'), money(o.totalRepay)],
      [t('admin_repaid'), money(o.repaid)],
    );
    // A loan closed early (cooling-off, P12): what was not charged, so that repaid +
    // not charged = total repayable instead of reading as an underpayment.
    if (isPositive(o.interestWaived)) rows.push([t('admin_detail_interestWaived'), money(o.interestWaived)]);
    rows.push([t('admin_remaining'), money(o.remaining)]);
  }
  if (o.status === 9) rows.push([t('admin_balance'), money(o.balance)]);
  if (o.lastWithdrawError) rows.push([t('admin_last_withdraw_error'), o.lastWithdrawError]);
  return <KeyValues rows={rows} columns={2} />;
}

function Schedule({ data }: { data: OrderReview }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const lines = data.order.periodViews ?? [];
  if (lines.length === 0) return null;
  return (
    <Section title={t('admin_schedule')}>
      <Table
        className="admin-table--compact"
        columns={[
          t('admin_period_n'),
          t('admin_due'),
          numeric(t('admin_col_amount')),
          numeric(t('admin_paid')),
          t('admin_col_status'),
        ]}
      >
        <tbody>
          {lines.map((line) => (
            <tr key={line.period}>
              <td>{line.period}</td>
              <td>{dates.day(line.dueDate)}</td>
              <td className="num">{money(line.amt)}</td>
              <td className="num">{money(line.paid)}</td>
              <td>{t(`admin_installment_${line.status}`, { defaultValue: String(line.status) })}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Section>
  );
}

export function OrderScreen() {
  const { t } = useTranslation();
  const { orderId = '' } = useParams();
  const session = useAdminSession();
  const query = useAdminOrderQuery(orderId, { refetchOnMountOrArgChange: true });
  const history = useAdminHistoryQuery({ orderId }, { refetchOnMountOrArgChange: true });
  const names = useActorNames(history.data?.events, session);
  const { data, error, isLoading, refetch } = query;

  if (!data) return <PageNotLoaded loading={isLoading} error={error} onRetry={() => void refetch()} />;

  const applicantName = data.applicant?.realName || data.order.realName || t('admin_unnamed');
  const userId = data.order.userId ?? data.applicant?.userId ?? null;
  return (
    <div className="admin-page">
      <BackLink to={adminPaths.queue()}>{t('admin_nav_queue')}</BackLink>
      <PageHeader
        title={
          <>
            {t('admin_order_title', { name: applicantName })}{' '}
            <span data-testid="admin-order-status" data-status={data.order.status}>
              <StatusLabel status={data.order.status} />
            </span>
          </>
        }
        hint={data.order.orderNo ? `${data.order.orderNo} · ${data.order.orderId}` : data.order.orderId}
        mono
      >
        <nav className="admin-page__links" aria-label={t('admin_related')}>
          {userId && <Link to={adminPaths.user(userId)}>{t('admin_applicant_page')}</Link>}
          <Link to={adminPaths.history(data.order.orderId)}>{t('admin_history_link')}</Link>
          <Link to={adminPaths.ledger({ orderId: data.order.orderId })}>{t('admin_ledger_link')}</Link>
        </nav>
      </PageHeader>

      <div className="admin-columns">
        <div className="admin-columns__main">
          <Section title={t('admin_application')}>
            <Application data={data} />
          </Section>
          <Section title={t('admin_identity')}>
            <IdentityPanel
              userId={userId}
              status={data.identityStatus}
              rejectReason={data.applicant?.identityRejectReason}
              images={data.images}
            />
          </Section>
          <Section title={t('admin_applicant')}>
            {data.applicant ? <ApplicantProfile user={data.applicant} /> : <p className="admin-muted">—</p>}
          </Section>
          <Section title={t('admin_questionnaire')}>
            <QuestionnaireView answers={data.questionnaire} />
          </Section>
          {data.contacts && data.contacts.length > 0 && (
            <Section title={t('admin_contacts')}>
              <ContactsView contacts={data.contacts} />
            </Section>
          )}
          <Section title={t('admin_disclosure')}>
            {data.disclosure ? (
              <div className="admin-disclosure">
                <DisclosureTable disclosure={data.disclosure} />
              </div>
            ) : (
              <p className="admin-muted">{t('admin_no_disclosure')}</p>
            )}
          </Section>
          {data.loanDisclosure && (
            <Section title={t('admin_loan_disclosure')}>
              <div className="admin-disclosure" data-testid="loan-disclosure">
                <DisclosureTable disclosure={data.loanDisclosure} />
              </div>
            </Section>
          )}
          <Section title={t('admin_signature')}>
            {data.signature ? (
              <div className="admin-signature">
                <Photo src={data.signature.url} label={t('admin_signature')} />
              </div>
            ) : (
              <p className="admin-muted">{t('admin_no_signature')}</p>
            )}
          </Section>
          <Schedule data={data} />
          <OrderDocuments orderId={data.order.orderId} orderNo={data.order.orderNo ?? null} />
        </div>
        <div className="admin-columns__side">
          <ActionsPanel data={data} names={names} />
          <Section
            title={t('admin_timeline')}
            extra={<Link to={adminPaths.history(data.order.orderId)}>{t('admin_history_link')}</Link>}
          >
            <Timeline entries={data.timeline} names={names} history={history.data?.events} />
          </Section>
        </div>
      </div>
    </div>
  );
}
