/**
 * `/transactionHistory` (PRODUCT.md 3): the borrower's money movements — loans
 * paid out to their bank account, repayments received and refunds of money that
 * was not owed (12.1) — newest first, "No
 * data" when there are none. Derived from the orders' timelines (movements.ts)
 * until the api has a call of its own.
 */
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import type { Movement } from './movements';
import { useMoneyMovementsQuery } from './repay-api';
import './repay.css';

function MovementRow({ movement }: { movement: Movement }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  // Money that reached the borrower (a payout, a refund) reads "Received".
  const incoming = movement.kind !== 'repayment';
  return (
    <li className="repay-movement" data-testid="movement">
      <div>
        <div className="repay-movement__kind">{t(`tx_${movement.kind}`)}</div>
        <div className="muted">{dates.dateTime(movement.at)}</div>
        {/* The number the order list, the detail and the receipts show (12.5); the id's
            start only until the read model has given the order its number. */}
        <div className="muted">{t('tx_order', { id: movement.orderNo || movement.orderId.slice(0, 8) })}</div>
      </div>
      <div className={`repay-movement__amount repay-movement__amount--${movement.kind}`}>
        <span className="repay-movement__direction">{t(incoming ? 'tx_received' : 'tx_paid')}</span>
        {money(movement.amount)}
      </div>
    </li>
  );
}

export default function TransactionsScreen() {
  const { t } = useTranslation();
  const movements = useMoneyMovementsQuery();
  return (
    <Page title={t('tx_title')} back>
      <QueryGate query={movements}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState text={t('tx_empty')} description={t('tx_empty_hint')} />
          ) : (
            <ul className="card repay-movements">
              {list.map((movement) => (
                <MovementRow key={movement.id} movement={movement} />
              ))}
            </ul>
          )
        }
      </QueryGate>
    </Page>
  );
}
