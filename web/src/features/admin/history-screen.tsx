/**
 * `/admin/orders/:orderId/history`: the history replay (P9, PRODUCT.md 7). Every
 * event of the order in order (sequence, time, actor, type, payload), and the
 * order's whole state as of the chosen event (`?at=`). The state is the server's
 * fold (`/admin/api/orders/history` with `atSequence`, the same fold as
 * `replay-tool history`); the console never folds events itself.
 */
import { useEffect, useRef } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useAdminHistoryQuery, useAdminOrderQuery } from './admin-api';
import { actorView, eventLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import { useAdminSession } from './admin-session';
import type { HistoryEvent, OrderHistory } from '@/lib/api-types';
import { BackLink, JsonView, LoadError, PageHeader, Section, StatusLabel, WhenWho } from './admin-ui';
import { FieldList } from './history-fields';
import { useActorNames } from './order-screen';

/**
 * The Order aggregate's fields in the order it declares them (aggregates/src/order/
 * aggregate.rs), so the replay reads as the order's life does: the server's JSON
 * comes sorted by name. A field not listed here follows, by name.
 */
const STATE_ORDER = [
  'id', 'user_id', 'app_id', 'product_name', 'applicant_name', 'applied_at', 'applied_amount', 'terms',
  'terms_version', 'disclosure', 'signature', 'first_auditor', 'final_auditor', 'resubmission_reason',
  'resubmission_items', 'refusal', 'approved_amount', 'balance', 'offer_expires_at', 'payout',
  'resolved_payouts', 'last_withdraw_error', 'loan', 'payment_refs', 'sessions', 'manual_proposals', 'reminders',
];

/**
 * The state as the panel shows it: without the status (the tag above shows it), in
 * the aggregate's order, and with no approved amount or balance before a final
 * review passed (₱0.00 there would read as "approved for nothing").
 */
export function readableState(state: Record<string, unknown>): Record<string, unknown> {
  const rank = (key: string) => (STATE_ORDER.includes(key) ? STATE_ORDER.indexOf(key) : STATE_ORDER.length);
  const keys = Object.keys(state)
    .filter((key) => key !== 'status')
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const approved = state.final_auditor !== null && state.final_auditor !== undefined;
  return Object.fromEntries(
    keys.map((key) => [key, !approved && (key === 'approved_amount' || key === 'balance') ? null : state[key]]),
  );
}

/** An event's own fields (the payload is `{ <Type>: {...fields} }`), labelled. */
function EventFields({ event, names }: { event: HistoryEvent; names: ReadonlyMap<string, string> }) {
  const payload = event.payload as Record<string, unknown> | null;
  const fields = payload && typeof payload === 'object' ? payload[event.type] : null;
  if (!fields || typeof fields !== 'object' || Object.keys(fields).length === 0) return null;
  return (
    <div className="admin-event__fields">
      <FieldList value={fields as Record<string, unknown>} names={names} testId="history-event-fields" />
    </div>
  );
}

function EventItem({
  event,
  selected,
  future,
  names,
  onSelect,
}: {
  event: HistoryEvent;
  selected: boolean;
  future: boolean;
  names: ReadonlyMap<string, string>;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const actor = actorView(t, event.actor, names);
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  return (
    <li
      ref={ref}
      className={`admin-event${selected ? ' admin-event--selected' : ''}${future ? ' admin-event--future' : ''}`}
      data-testid="history-event"
      data-sequence={event.sequence}
      aria-current={selected ? 'step' : undefined}
    >
      <button type="button" className="admin-event__select" onClick={onSelect} aria-pressed={selected}>
        <span className="admin-event__seq">#{event.sequence}</span>
        <span className="admin-event__type">
          <strong>{eventLabel(t, event.type)}</strong>
          <span className="admin-muted admin-mono"> {event.type}</span>
        </span>
        <span className="admin-event__meta admin-muted">
          <WhenWho at={event.time ?? ''} who={actor.label} title={event.actor} testId="history-actor" />
        </span>
      </button>
      <EventFields event={event} names={names} />
      <details className="admin-event__payload">
        <summary>{t('admin_payload_json')}</summary>
        <JsonView value={event.payload} label={t('admin_payload')} />
      </details>
    </li>
  );
}

function Replay({
  data,
  selected,
  fetching,
  onSelect,
}: {
  data: OrderHistory;
  /** The event asked for (the state shown catches up once the server answers). */
  selected: number | undefined;
  fetching: boolean;
  onSelect: (n: number) => void;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const session = useAdminSession();
  const names = useActorNames(data.events, session);
  const count = data.events.length;
  const at = Math.min(selected ?? data.atSequence, Math.max(1, count));
  const shown = data.atSequence;
  const current = data.events.find((e) => e.sequence === shown);

  return (
    <>
      <div className="admin-replay-bar">
        <Button size="small" disabled={at <= 1} onClick={() => onSelect(at - 1)}>
          {t('admin_previous_event')}
        </Button>
        <input
          type="range"
          className="admin-range"
          min={1}
          max={Math.max(1, count)}
          step={1}
          value={at}
          aria-label={t('admin_event_slider')}
          aria-valuetext={`#${at} ${eventLabel(t, data.events.find((e) => e.sequence === at)?.type ?? '')}`}
          onChange={(event) => onSelect(Number(event.target.value))}
        />
        <Button size="small" disabled={at >= count} onClick={() => onSelect(at + 1)}>
          {t('admin_next_event')}
        </Button>
        <span className="admin-replay-bar__text">{t('admin_event_n_of', { n: at, count })}</span>
      </div>
      <div className="admin-columns admin-columns--replay">
        <div className="admin-columns__main">
          <Section title={t('admin_events', { count })}>
            <ol className="admin-events">
              {data.events.map((event) => (
                <EventItem
                  key={event.sequence}
                  event={event}
                  selected={event.sequence === at}
                  future={event.sequence > at}
                  names={names}
                  onSelect={() => onSelect(event.sequence)}
                />
              ))}
            </ol>
          </Section>
        </div>
        <div className="admin-columns__side">
          <Section
            title={t('admin_state_as_of', { n: shown })}
            className={`admin-section--sticky${fetching ? ' admin-section--busy' : ''}`}
            testId="history-state"
          >
            <div className="admin-state__head" aria-live="polite">
              <StatusLabel status={data.status} testId="history-state-status" />
              {current && (
                <span className="admin-muted">
                  {eventLabel(t, current.type)} · {dates.dateTime(current.time)}
                </span>
              )}
            </div>
            {/* The status is the tag above, by its label; the other fields below it (readableState). */}
            <FieldList value={readableState(data.state)} names={names} testId="history-state-fields" />
            <details className="admin-state__raw">
              <summary>{t('admin_raw_json')}</summary>
              <JsonView value={data.state} label={t('admin_raw_json')} />
            </details>
          </Section>
        </div>
      </div>
    </>
  );
}

export function HistoryScreen() {
  const { t } = useTranslation();
  const { orderId = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const requested = Number(search.get('at'));
  const atSequence = Number.isInteger(requested) && requested >= 1 ? requested : undefined;
  const { data, error, isFetching, refetch } = useAdminHistoryQuery(
    { orderId, atSequence },
    { refetchOnMountOrArgChange: true },
  );
  const name = typeof data?.state.applicant_name === 'string' ? data.state.applicant_name : null;
  // The order's number, as the queue and the order page name it (a borrower may have several).
  const { data: order } = useAdminOrderQuery(orderId);
  const number = order?.order.orderNo;

  return (
    <div className="admin-page">
      <BackLink to={adminPaths.order(orderId)}>{t('admin_back_to_order')}</BackLink>
      <PageHeader
        title={`${number ? `${number} · ` : ''}${t('admin_history_title', { name: name ?? orderId })}`}
        hint={t('admin_history_hint')}
      />
      {!data && error ? (
        <LoadError error={error} onRetry={() => void refetch()} />
      ) : !data ? (
        <p className="admin-muted">{t('admin_loading')}</p>
      ) : (
        <Replay
          data={data}
          selected={atSequence}
          fetching={isFetching}
          onSelect={(n) => navigate(adminPaths.history(orderId, n), { replace: true })}
        />
      )}
    </div>
  );
}
