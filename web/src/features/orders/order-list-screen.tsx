/**
 * `/order` (PRODUCT.md 3): the borrower's orders, newest first, each with its
 * status (0–3 read "Under review"), principal, apply time and a Check button to
 * its detail; the bottom tab bar.
 */
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { StatusTag } from '@/components/status-tag';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import { useOrderListQuery } from '@/lib/shared-api';
import type { OrderSummary } from '@/lib/api-types';
import './orders.css';

function OrderCard({ order }: { order: OrderSummary }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const dates = useDates();
  return (
    <li className="card orders-card" data-testid="order-card">
      <div className="row">
        <StatusTag status={order.status} />
        <span className="muted">{dates.dateTime(order.applyTime)}</span>
      </div>
      {order.orderNo && (
        <div className="muted" data-testid="order-number">
          {t('order_number', { number: order.orderNo })}
        </div>
      )}
      <div className="row orders-card__body">
        <div>
          <div className="muted">{t('orders_principal')}</div>
          <div className="orders-card__amount">{money(order.principal)}</div>
        </div>
        <Button size="small" color="primary" onClick={() => navigate(paths.detail.to(order.orderId))}>
          {t('orders_check')}
        </Button>
      </div>
    </li>
  );
}

export default function OrderListScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orders = useOrderListQuery();
  return (
    <Page title={t('orders_title')} tabs>
      <QueryGate query={orders}>
        {(list) =>
          list.length === 0 ? (
            <div className="stack">
              <EmptyState text={t('orders_empty')} />
              <Button block color="primary" onClick={() => navigate(paths.home.to())}>
                {t('orders_back_home')}
              </Button>
            </div>
          ) : (
            <ul className="orders-list">
              {list.map((order) => (
                <OrderCard key={order.orderId} order={order} />
              ))}
            </ul>
          )
        }
      </QueryGate>
    </Page>
  );
}
