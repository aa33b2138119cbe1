/**
 * `/admin/collections`: the collections queue (issue 53). Disbursed loans with an
 * installment past due, most days past due first, filtered by bucket (`?bucket=`),
 * by collector (mine, unassigned, everyone) and by next action due today. Each row
 * shows the days past due and bucket, the amount overdue, the outstanding, the last
 * contact and its outcome, an open promise to pay and the next action; a click opens
 * the loan's collection record.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { localDay } from '@/lib/local-day';
import { useAdminBookQuery, useAdminCollectionQueueQuery, type CollectionQueueRequest } from './admin-api';
import { bucketLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import { useAdminSession, useCan } from './admin-session';
import { LoadError, numeric, PageHeader, Section, Table, TextField } from './admin-ui';

type Whose = 'all' | 'mine' | 'unassigned';

/** Today on the local calendar, which the loans' days follow. */
const today = () => localDay();

/**
 * The book by bucket as of a day (P20): what the loans on the books owed in each
 * bucket, beside the ledger's receivable of the same moment; they agree.
 */
export function BookByBucket() {
  const { t } = useTranslation();
  const money = useMoney();
  const [day, setDay] = useState('');
  const { data, isFetching, isError, error, refetch } = useAdminBookQuery(day || undefined);
  return (
    <Section
      title={t('admin_book_title')}
      testId="book"
      extra={<TextField label={t('admin_book_as_of')} inline type="date" max={today()} value={day} onChange={(e) => setDay(e.target.value)} />}
    >
      {isError && <LoadError error={error} onRetry={() => void refetch()} />}
      <Table className="admin-table--book" busy={isFetching} columns={[t('admin_col_bucket'), numeric(t('admin_book_loans')), numeric(t('admin_col_outstanding'))]}>
        <tbody>
          {data?.buckets.map((line) => (
            <tr key={line.bucket} data-testid="book-line">
              <td>{bucketLabel(t, line.bucket)}</td>
              <td className="num">{line.loans}</td>
              <td className="num">{money(line.outstanding)}</td>
            </tr>
          ))}
          {data && (
            <>
              <tr>
                <th scope="row">{t('admin_book_total')}</th>
                <td />
                <td className="num" data-testid="book-outstanding">
                  {money(data.outstanding)}
                </td>
              </tr>
              <tr>
                <th scope="row">{t('admin_book_receivable')}</th>
                <td />
                <td className="num" data-testid="book-receivable">
                  {money(data.receivable)}
                </td>
              </tr>
              <tr>
                <th scope="row">{t('admin_book_charged_off')}</th>
                <td className="num">{data.chargedOffLoans}</td>
                <td className="num">{money(data.chargedOffOutstanding)}</td>
              </tr>
            </>
          )}
        </tbody>
      </Table>
    </Section>
  );
}

export function CollectionsScreen() {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const navigate = useNavigate();
  const session = useAdminSession();
  const [search] = useSearchParams();
  const bucket = search.get('bucket') ?? undefined;
  const [whose, setWhose] = useState<Whose>('all');
  const [dueToday, setDueToday] = useState(false);
  const me = session?.auditor?.auditorId ?? '';
  // The book is the ledger's (finance); a collector's roles do not show it.
  const seesBook = useCan('ledger');
  const request: CollectionQueueRequest = {
    bucket,
    collector: whose === 'mine' ? me : whose === 'unassigned' ? '' : undefined,
    nextActionBy: dueToday ? today() : undefined,
  };
  const { data, isFetching, isError, error, refetch } = useAdminCollectionQueueQuery(request, {
    refetchOnMountOrArgChange: 30,
  });
  const buckets = (data?.buckets ?? []).filter((name) => name !== 'current');

  const chip = (active: boolean, label: string, onClick: () => void, key: string) => (
    <button
      key={key}
      type="button"
      className={`admin-chip${active ? ' admin-chip--active' : ''}`}
      aria-pressed={active}
      onClick={onClick}
    >
      {label}
    </button>
  );

  return (
    <div className="admin-page">
      <PageHeader title={t('admin_collections_title')} hint={t('admin_collections_hint')}>
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin_refresh')}
        </Button>
      </PageHeader>

      <div className="admin-filters" role="group" aria-label={t('admin_collections_bucket')}>
        {chip(!bucket, t('admin_collections_all_buckets'), () => navigate(adminPaths.collections()), 'all')}
        {buckets.map((name) =>
          chip(bucket === name, bucketLabel(t, name), () => navigate(adminPaths.collections(name)), name),
        )}
      </div>
      <div className="admin-filters" role="group" aria-label={t('admin_collections_whose')}>
        {(['all', 'mine', 'unassigned'] as const).map((choice) =>
          chip(whose === choice, t(`admin_collections_whose_${choice}`), () => setWhose(choice), choice),
        )}
        {chip(dueToday, t('admin_collections_due_today'), () => setDueToday(!dueToday), 'due')}
      </div>

      {isError && <LoadError error={error} onRetry={() => void refetch()} />}

      <Table
        className="admin-table--rows"
        busy={isFetching}
        columns={[
          t('admin_col_applicant'),
          numeric(t('admin_col_dpd')),
          t('admin_col_bucket'),
          numeric(t('admin_col_overdue')),
          numeric(t('admin_col_outstanding')),
          t('admin_col_last_contact'),
          t('admin_col_promise'),
          t('admin_col_next_action'),
        ]}
      >
        <tbody>
          {data?.loans.map((loan) => (
            <tr
              key={loan.orderId}
              data-testid="collection-row"
              className="admin-row-link"
              onClick={(event) => {
                if ((event.target as HTMLElement).closest('a')) return;
                navigate(adminPaths.collection(loan.orderId));
              }}
            >
              <td>
                <Link to={adminPaths.collection(loan.orderId)} className="admin-strong-link">
                  {loan.borrowerName || t('admin_unnamed')}
                </Link>
                <div className="admin-muted admin-mono">{loan.orderNo || loan.orderId.slice(-12)}</div>
              </td>
              <td className="num" data-testid="collection-dpd">
                {loan.daysPastDue}
              </td>
              <td>{bucketLabel(t, loan.bucket)}</td>
              <td className="num">{money(loan.overdueAmount)}</td>
              <td className="num">{money(loan.outstanding)}</td>
              <td className="nowrap">
                {loan.lastContactAt ? (
                  <>
                    {dates.dateTime(loan.lastContactAt)}
                    <div className="admin-muted">{t(`admin_outcome_${loan.lastOutcome}`)}</div>
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td className="nowrap">
                {loan.promiseAmount ? t('admin_promise_by', { amount: money(loan.promiseAmount), date: loan.promiseDate }) : '—'}
              </td>
              <td className="nowrap">{loan.nextActionOn || '—'}</td>
            </tr>
          ))}
          {data && data.loans.length === 0 && (
            <tr>
              <td colSpan={8} className="admin-empty">
                {t('admin_collections_empty')}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
      {seesBook && <BookByBucket />}
    </div>
  );
}
