/**
 * `/repayDetail` (PRODUCT.md 3, 4.4): the repayment schedule of the active (or
 * latest) disbursed loan — each installment's due day, amount, what is paid and
 * its status (unpaid, repaid, overdue) — with the totals, Repay while the loan is
 * being repaid (4) and "Repaid" once it is closed (10). The payment page links
 * back here.
 */
import Button from 'antd-mobile/es/components/button';
import Result from 'antd-mobile/es/components/result';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import { isPositive } from '@/lib/money';
import { useLatestOrderQuery } from '@/lib/shared-api';
import type { Installment, Order } from '@/lib/api-types';
import './repay.css';

type TagStyle = { color: 'primary' | 'success' | 'danger'; fill: 'solid' | 'outline'; key: string };

/** 0 unpaid, 1 repaid, 2 overdue (PRODUCT.md 4.4). */
const INSTALLMENT_TAG: Record<number, TagStyle> = {
  0: { color: 'primary', fill: 'outline', key: 'repay_installment_unpaid' },
  1: { color: 'success', fill: 'solid', key: 'repay_installment_repaid' },
  2: { color: 'danger', fill: 'solid', key: 'repay_installment_overdue' },
};
/** An unpaid installment with a payment on it is "Partly paid", not "Unpaid". */
const PARTLY_PAID: TagStyle = { color: 'primary', fill: 'outline', key: 'repay_installment_partly_paid' };

function tagOf(line: Installment): TagStyle {
  const partly = line.status === 0 && isPositive(line.paid);
  return partly ? PARTLY_PAID : (INSTALLMENT_TAG[line.status] ?? INSTALLMENT_TAG[0]);
}

function InstallmentRow({ line }: { line: Installment }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const tag = tagOf(line);
  return (
    <tr data-testid="installment">
      <td>{line.period}</td>
      <td>{dates.day(line.dueDate)}</td>
      <td>{money(line.amt)}</td>
      <td>{money(line.paid)}</td>
      <td>
        <Tag color={tag.color} fill={tag.fill} round>
          {t(tag.key)}
        </Tag>
      </td>
    </tr>
  );
}

function Schedule({ order }: { order: Order }) {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const interestWaived = isPositive(order.interestWaived);
  // A loan closed early (payoff, cooling-off: P12) was not charged all of its
  // interest: the waived part is a line of its own, so that the repaid amount and
  // the schedule's paid column add up against the total (12.5).
  const totals: [string, string | null][] = [
    [t('repay_principal'), order.principal],
    [t('repay_interest'), order.interest],
    [t('repay_total'), order.totalRepay],
    ...(interestWaived ? [[t('repay_interest_waived'), order.interestWaived ?? null] as [string, string | null]] : []),
    [t('repay_repaid'), order.repaid],
    [t('repay_remaining'), order.remaining],
  ];
  return (
    <>
      {order.status === 10 ? (
        <div className="card" data-testid="loan-repaid">
          <Result
            status="success"
            title={t('repay_closed_title')}
            description={interestWaived ? t('repay_closed_waived', { amount: money(order.interestWaived) }) : t('repay_closed_text')}
          />
        </div>
      ) : (
        <section className="card card--hero">
          <div className="muted">{t('repay_remaining')}</div>
          <div className="amount-big">{money(order.remaining)}</div>
          <div className="muted">{t('repay_repaid_so_far', { amount: money(order.repaid) })}</div>
        </section>
      )}

      <section className="card" aria-label={t('repay_totals')}>
        <h2 className="card__title">{t('repay_totals')}</h2>
        <table className="disclosure">
          <tbody>
            {totals.map(([label, value]) => (
              <tr key={label}>
                <td>{label}</td>
                <td>{money(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card" aria-label={t('repay_schedule')}>
        <h2 className="card__title">{t('repay_schedule')}</h2>
        <div className="repay-table-wrap">
          <table className="schedule repay-schedule">
            <thead>
              <tr>
                <th>{t('repay_col_period')}</th>
                <th>{t('repay_col_due')}</th>
                <th>{t('repay_col_amount')}</th>
                <th>{t('repay_col_paid')}</th>
                <th>{t('repay_col_status')}</th>
              </tr>
            </thead>
            <tbody>
              {order.periodViews.map((line) => (
                <InstallmentRow key={line.period} line={line} />
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {order.status === 4 && (
        <Button block color="primary" size="large" onClick={() => navigate(paths.recharge.to())}>
          {t('repay_repay')}
        </Button>
      )}
      <div className="row repay-links">
        <Link to={paths.transactionHistory.to()}>{t('repay_transactions_link')}</Link>
        <Link to={paths.contract.to()}>{t('repay_contract_link')}</Link>
      </div>
    </>
  );
}

export default function RepayDetailScreen() {
  const { t } = useTranslation();
  const loan = useLatestOrderQuery();
  return (
    <Page title={t('repay_detail_title')} back>
      <QueryGate query={loan}>
        {(order) =>
          order && (order.status === 4 || order.status === 10) ? (
            <Schedule order={order} />
          ) : (
            <EmptyState text={t('repay_detail_empty')} />
          )
        }
      </QueryGate>
    </Page>
  );
}
