/**
 * `/admin`: the review queue (PRODUCT.md 7), oldest application first: by default
 * the open orders (the work queue), or every order (`?status=all`) or one status
 * (`?status=N`); searched by name, mobile or order number (`?q=`) and paged
 * (`?page=`). Each row shows the applicant summary, the order number and the item's
 * age (since its last change); a click opens the order.
 */
import { useEffect, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { mask } from '@/lib/mask';
import { useAdminQueueQuery } from './admin-api';
import { age, identityLabel, QUEUE_STATUSES, statusLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import { LoadError, numeric, PageHeader, Pager, StatusLabel, Table } from './admin-ui';

export const QUEUE_PAGE_SIZE = 20;
/** How often the queue refreshes itself while the tab is in front. */
const QUEUE_POLL_MS = 60_000;

/** Re-renders every minute so the ages stay current. */
function useNow(intervalMs = 60_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The queue's filter: a status, every order, or (none) the open ones. */
function parseFilter(value: string | null): number | 'all' | undefined {
  if (value === 'all') return 'all';
  if (value === null || value === '') return undefined;
  const status = Number(value);
  return (QUEUE_STATUSES as readonly number[]).includes(status) ? status : undefined;
}

export function QueueScreen() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const navigate = useNavigate();
  const now = useNow();
  const [search] = useSearchParams();
  const filter = parseFilter(search.get('status'));
  const status = typeof filter === 'number' ? filter : undefined;
  const text = (search.get('q') ?? '').trim().slice(0, 100);
  const [typed, setTyped] = useState(text);
  const page = Math.max(1, Number(search.get('page')) || 1);
  const request = { status, open: filter === undefined, search: text || undefined, page, pageSize: QUEUE_PAGE_SIZE };
  const query = useAdminQueueQuery(request, {
    refetchOnMountOrArgChange: 30,
    // The queue is shared by every auditor: keep it current.
    pollingInterval: QUEUE_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const { data, isFetching, isError, error, refetch } = query;

  const filters: { value: number | 'all' | undefined; label: string }[] = [
    { value: undefined, label: t('admin_filter_open') },
    { value: 'all', label: t('admin_filter_all') },
    ...QUEUE_STATUSES.map((s) => ({ value: s, label: statusLabel(t, s) })),
  ];

  return (
    <div className="admin-page">
      <PageHeader title={t('admin_queue_title')} hint={t('admin_queue_hint')}>
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin_refresh')}
        </Button>
      </PageHeader>

      <form
        className="admin-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(adminPaths.queue(filter, 1, typed.trim()));
        }}
      >
        <input
          type="search"
          className="admin-input"
          aria-label={t('admin_search')}
          placeholder={t('admin_search_placeholder')}
          maxLength={100}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button size="small" type="submit">
          {t('admin_search')}
        </Button>
      </form>

      <div className="admin-filters" role="group" aria-label={t('admin_filter_status')}>
        {filters.map((choice) => {
          const active = choice.value === filter;
          return (
            <button
              key={choice.value ?? 'open'}
              type="button"
              className={`admin-chip${active ? ' admin-chip--active' : ''}`}
              aria-pressed={active}
              onClick={() => navigate(adminPaths.queue(choice.value, 1, text))}
            >
              {choice.label}
            </button>
          );
        })}
      </div>

      {isError && <LoadError error={error} onRetry={() => void refetch()} />}

      <Table
        className="admin-table--rows"
        busy={isFetching}
        columns={[
          t('admin_col_applicant'),
          t('admin_col_mobile'),
          numeric(t('admin_col_amount')),
          numeric(t('admin_col_period')),
          t('admin_col_applied'),
          t('admin_col_age'),
          t('admin_col_status'),
          { label: t('admin_col_identity'), className: 'admin-wide-only' },
        ]}
      >
        <tbody>
          {data?.orders.map((order) => (
            <tr
              key={order.orderId}
              data-testid="queue-row"
              className="admin-row-link"
              onClick={(event) => {
                // A click on the row opens the order (the name is also a real link).
                if ((event.target as HTMLElement).closest('a')) return;
                navigate(adminPaths.order(order.orderId));
              }}
            >
              <td>
                <Link to={adminPaths.order(order.orderId)} className="admin-strong-link">
                  {order.applicant.realName || t('admin_unnamed')}
                </Link>
                <div className="admin-muted admin-mono" title={order.orderId}>
                  {order.orderNo || order.orderId.slice(-12)}
                </div>
              </td>
              <td className="admin-mono">{mask(order.applicant.mobile, 4) || '—'}</td>
              <td className="num">{money(order.applyAmount)}</td>
              <td className="num">{order.periodDays === null ? '—' : t('admin_days', { n: order.periodDays })}</td>
              <td className="nowrap">{dates.dateTime(order.applyTime)}</td>
              <td className="nowrap" title={dates.dateTime(order.updatedAt)}>
                {age(order.updatedAt ?? order.applyTime, i18n.language, now)}
              </td>
              <td>
                <StatusLabel status={order.status} />
              </td>
              <td className="admin-muted admin-wide-only">{identityLabel(t, order.applicant.identityStatus)}</td>
            </tr>
          ))}
          {data && data.orders.length === 0 && (
            <tr>
              <td colSpan={8} className="admin-empty">
                {t('admin_queue_empty')}
              </td>
            </tr>
          )}
          {!data && !isError && (
            <tr>
              <td colSpan={8} className="admin-empty">
                {t('admin_loading')}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
      {data && data.total > 0 && (
        <Pager
          page={page}
          pageSize={data.pageSize}
          total={data.total}
          onPage={(next) => navigate(adminPaths.queue(filter, next, text))}
        />
      )}
    </div>
  );
}
