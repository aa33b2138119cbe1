/**
 * `/admin/users/:userId`: a borrower (PRODUCT.md 7): profile, identity (verify,
 * or reject with a reason), the lock state with the compliance hold an auditor
 * sets and lifts (reason required, shown to the borrower on the lock screen, P4),
 * the borrower's orders, and their personal data: its export and, after the
 * retention period, its erasure (12.6). Every action, and every export, is recorded
 * with the auditor's id.
 */
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { ActionButtons, ActionOutcome, type ActionButton } from './action-buttons';
import { useAdminUserActionMutation, useAdminUserQuery, type UserAction } from './admin-api';
import { actorView, identityLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import type { HistoryEvent, UserDetail } from '@/lib/api-types';
import { BackLink, KeyValues, numeric, PageHeader, PageNotLoaded, Section, StatusLabel, Table, ToneTag, WhenWho } from './admin-ui';
import { IdentityPanel } from './identity-panel';
import { BorrowerDataExport } from './data-export';
import { ErasePersonalData, erasureOf } from './erase-personal-data';
import { ApplicantProfile, ContactsView, QuestionnaireView } from './profile-view';
import { useAction } from './use-action';

/** The reason an event carries, wherever the event's body keeps it. */
function reasonOf(payload: Record<string, unknown>): string | null {
  const body = Object.values(payload)[0];
  const reason = body && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' && reason ? reason : null;
}

/** Who did what to this account, oldest first (every auditor action is recorded). */
function AuditorActions({ actions }: { actions: HistoryEvent[] }) {
  const { t } = useTranslation();
  if (actions.length === 0) return <p className="admin-muted">{t('admin_user_actions_none')}</p>;
  // Auditor id → name, from the log itself: actors read as everywhere else ("Auditor alice").
  const names = new Map(
    actions.flatMap((a) => (a.actorName ? [[a.actor.replace(/^auditor:/, ''), a.actorName] as const] : [])),
  );
  return (
    <ol className="admin-actions-log">
      {actions.map((action) => {
        const reason = reasonOf(action.payload);
        const who = actorView(t, action.actor, names).label;
        return (
          <li key={action.sequence} data-testid="user-action">
            <strong>{t(`admin_user_event_${action.type}`, { defaultValue: action.type })}</strong>
            {reason && <span> — {reason}</span>}
            <div className="admin-muted">
              <WhenWho at={action.time ?? ''} who={who} title={action.actor} testId="user-action-actor" />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function LockPanel({ data }: { data: UserDetail }) {
  const { t } = useTranslation();
  const [send] = useAdminUserActionMutation();
  const userId = data.profile.userId;
  const action = useAction<UserAction>((kind, text, idempotencyKey) =>
    send({ action: kind, userId, reason: text, idempotencyKey }),
  );
  const lock = data.lock;
  const held = lock?.kind === 'compliance';
  const liftHold: ActionButton<UserAction> = {
    action: 'releaseHold',
    label: t('admin_lift_hold'),
    color: 'primary',
    reason: t('admin_lift_hold_hint'),
  };
  const setHold: ActionButton<UserAction> = {
    action: 'hold',
    label: t('admin_set_hold'),
    color: 'danger',
    fill: 'outline',
    reason: t('admin_set_hold_hint'),
  };
  return (
    <div className="admin-lock">
      <div className="admin-lock__state" data-testid="admin-lock-state" data-kind={lock?.kind ?? 'none'}>
        {lock ? (
          <ToneTag tone={held ? 'danger' : 'warning'}>{t(`admin_lock_${lock.kind}`, { defaultValue: lock.kind })}</ToneTag>
        ) : (
          <ToneTag tone="success">{t('admin_lock_none')}</ToneTag>
        )}
        {lock?.reason && <span className="admin-lock__reason">{t('admin_reason_is', { reason: lock.reason })}</span>}
      </div>
      {/* An erased account is closed for good: the server refuses every change. */}
      {!erasureOf(data) && (
        <>
          <p className="admin-muted">{held ? t('admin_hold_lift_hint') : t('admin_hold_set_hint')}</p>
          <ActionButtons buttons={[held ? liftHold : setHold]} action={action} />
          <ActionOutcome action={action} />
        </>
      )}
    </div>
  );
}

function Orders({ data }: { data: UserDetail }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  if (data.orders.length === 0) return <p className="admin-muted">{t('admin_no_orders')}</p>;
  return (
    <Table
      className="admin-table--compact"
      columns={[t('admin_order_id'), numeric(t('admin_col_amount')), t('admin_col_status')]}
    >
      <tbody>
        {data.orders.map((order) => (
          <tr key={order.orderId}>
            <td>
              <Link to={adminPaths.order(order.orderId)} className="admin-mono nowrap" title={order.orderId}>
                {order.orderNo || order.orderId.slice(-12)}
              </Link>
              <div className="admin-muted">{dates.day(order.applyTime)}</div>
            </td>
            <td className="num">{money(order.principal)}</td>
            <td>
              <StatusLabel status={order.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function UserScreen() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const { data, error, isLoading, refetch } = useAdminUserQuery(userId, { refetchOnMountOrArgChange: true });

  if (!data) return <PageNotLoaded loading={isLoading} error={error} onRetry={() => void refetch()} />;

  const user = data.profile;
  const questionnaire = {
    job: user.job,
    monthlyIncome: user.monthlyIncome,
    expenses: user.expenses,
    loanPurpose: user.loanPurpose,
    loanBefore: user.loanBefore,
    guarantee: user.guarantee,
  };
  const completion = (value: number) => (value === 1 || value === 2 ? t('admin_completed') : t('admin_not_completed'));
  const answered = Object.values(questionnaire).some((value) => value !== null && value !== undefined);
  return (
    <div className="admin-page">
      <BackLink to={user.lastOrderId ? adminPaths.order(user.lastOrderId) : adminPaths.queue()}>
        {user.lastOrderId ? t('admin_back_to_order') : t('admin_nav_queue')}
      </BackLink>
      <PageHeader
        title={user.realName || t('admin_unnamed')}
        hint={`${user.mobile} · ${user.userId}`}
        mono
      />
      <div className="admin-columns">
        <div className="admin-columns__main">
          <Section title={t('admin_identity')}>
            <IdentityPanel
              // No identity decision for an erased account (closed for good).
              userId={erasureOf(data) ? null : user.userId}
              closed={!!erasureOf(data)}
              status={data.identity.status}
              rejectReason={data.identity.rejectReason}
              images={data.identity.images}
            />
          </Section>
          <Section title={t('admin_profile')}>
            <ApplicantProfile user={user} />
          </Section>
          <Section title={t('admin_questionnaire')}>
            <QuestionnaireView answers={answered ? questionnaire : null} />
          </Section>
          {data.contacts.length > 0 && (
            <Section title={t('admin_contacts')}>
              <ContactsView contacts={data.contacts} />
            </Section>
          )}
        </div>
        <div className="admin-columns__side">
          <Section title={t('admin_lock_title')}>
            <LockPanel data={data} />
          </Section>
          <Section title={t('admin_orders')}>
            <Orders data={data} />
          </Section>
          <Section title={t('admin_user_actions')}>
            <AuditorActions actions={data.auditorActions ?? []} />
          </Section>
          <BorrowerDataExport userId={user.userId}>
            <ErasePersonalData data={data} />
          </BorrowerDataExport>
          <Section title={t('admin_qualification')}>
            <KeyValues
              rows={[
                [t('admin_q_identity'), identityLabel(t, user.userQualificationView.identity)],
                [t('admin_q_basic'), completion(user.userQualificationView.basicInformation)],
                [t('admin_q_bank'), completion(user.userQualificationView.bankCard)],
              ]}
            />
          </Section>
        </div>
      </div>
    </div>
  );
}
