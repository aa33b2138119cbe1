/**
 * `/detail/:orderId` (PRODUCT.md 3, 4.3, P3, P6, P8, P9): the order's balance and
 * status, what the status means for the borrower (review progress and the
 * resubmission reason, the refusal reason, the offer's expiry, a failed payout's
 * real reason with the free fix, a payout in flight), the stepped withdraw form
 * in status 9, Repay in status 4, Cancel before disbursement, the timeline, and
 * the contact-service and back-home buttons.
 *
 * After a withdrawal is accepted the order is polled every 2 s until it is
 * disbursed (4) or its payout failed (`lastWithdrawError`).
 */
import { useEffect, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import Result from 'antd-mobile/es/components/result';
import Steps from 'antd-mobile/es/components/steps';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useOpenService } from '@/components/service-button';
import { ErrorState, Loading } from '@/components/states';
import { StatusTag } from '@/components/status-tag';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import { payoutReason, type ApiFailure } from '@/lib/envelope';
import { lastFour } from '@/lib/mask';
import { reviewStep } from '@/lib/rules';
import { sharedApi, useOrderInfoQuery, useOrderTimelineQuery, useUserInfoQuery } from '@/lib/shared-api';
import type { Order } from '@/lib/api-types';
import { OrderDocuments } from './order-documents';
import { OrderTimeline } from './order-timeline';
import { LatePanel } from './late-panel';
import { PaymentPlanPanel } from './payment-plan-panel';
import { ResubmissionPanel } from './resubmission-panel';
import { refusalText } from '@/lib/refusal';
import { useCancelOrderMutation } from './orders-api';
import { WithdrawForm, type Draft, type SentPayout } from './withdraw-form';
import './orders.css';

/** How often the order is read while a payout is on its way, in milliseconds. */
export const PAYOUT_POLL_MS = 2000;

/** Statuses the borrower can still cancel, free of charge (P6). */
const CANCELLABLE = new Set([0, 1, 2, 3, 9]);

/**
 * Whether to keep reading the order: a payout is in flight, or one was just
 * accepted and the order has not been read since.
 */
export function awaitingPayout(order: Order | undefined, sent: SentPayout | null, readAt: number | undefined): boolean {
  if (!order || order.status !== 9) return false;
  if (order.payoutInFlight) return true;
  return sent !== null && (readAt ?? 0) < sent.at;
}

function ReviewProgress({ order }: { order: Order }) {
  const { t } = useTranslation();
  const current = reviewStep(order.status);
  return (
    <div className="stack">
      <div className="steps-compact" data-testid="review-steps">
        <Steps current={current}>
          <Steps.Step title={t('detail_step_submitted')} status={order.status === 2 ? 'error' : undefined} />
          <Steps.Step title={t('detail_step_first_review')} />
          <Steps.Step title={t('detail_step_final_review')} />
        </Steps>
      </div>
      {order.status === 2 && <ResubmissionPanel order={order} />}
      {order.status !== 2 && <p className="muted">{t('detail_review_hint')}</p>}
    </div>
  );
}

function PayoutResult({ sent }: { sent: SentPayout }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <div className="card" data-testid="payout-result">
      <Result
        status="waiting"
        title={t('detail_payout_sent', { bank: sent.bankName, card: lastFour(sent.cardNo) })}
        description={t('detail_payout_sent_hint', { amount: money(sent.amount) })}
      />
    </div>
  );
}

interface OrderViewProps {
  order: Order;
  /** The payout this visit sent, if any. */
  sent: SentPayout | null;
  /** A payout is on its way (or was just accepted and the order not read since). */
  awaiting: boolean;
  onSent: (sent: SentPayout) => void;
}

function OrderView({ order, sent, awaiting, onSent }: OrderViewProps) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const navigate = useNavigate();
  const openService = useOpenService();
  const user = useUserInfoQuery();
  const events = useOrderTimelineQuery(order.orderId);
  const [cancel, cancelState] = useCancelOrderMutation();
  const [draft, setDraft] = useState<Draft>({ amount: order.balance, pin: '' });

  // The timeline changes with the order: read it again when the order moves on.
  const version = `${order.status}|${order.payoutInFlight}|${order.lastWithdrawError ?? ''}|${order.repaid}`;
  const seen = useRef(version);
  const refetchEvents = events.refetch;
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void refetchEvents();
  }, [version, refetchEvents]);

  const onCancel = async () => {
    const confirmed = await Dialog.confirm({
      title: t('detail_cancel_title'),
      content: t('detail_cancel_free'),
      confirmText: t('detail_cancel_confirm'),
      cancelText: t('detail_cancel_keep'),
    });
    if (!confirmed) return;
    try {
      await cancel(order.orderId).unwrap();
      Toast.show({ icon: 'success', content: t('detail_cancelled') });
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };

  const sendPayout = (payout: SentPayout) => {
    setDraft((d) => ({ ...d, pin: '' }));
    onSent(payout);
  };

  const underReview = order.status >= 0 && order.status <= 3;
  // The balance is what can still be withdrawn; once paid out, what is owed matters.
  const hero =
    order.status === 4
      ? { label: 'detail_remaining', amount: order.remaining }
      : order.status === 10
        ? { label: 'detail_repaid', amount: order.repaid }
        : { label: 'detail_balance', amount: order.balance };
  const withdrawable = order.status === 9 && !awaiting;
  const justPaid = sent !== null && order.status === 4;

  return (
    <>
      <section className="card card--hero" data-testid="order-hero">
        <div className="row">
          <span className="muted">{t(hero.label)}</span>
          <StatusTag status={order.status} />
        </div>
        <div className="amount-big" data-testid="order-balance">
          {money(hero.amount)}
        </div>
        <div className="row">
          <span className="muted">{t('detail_applied', { amount: money(order.applyAmount) })}</span>
          {order.periodDays !== null && <span className="muted">{t('detail_period', { days: order.periodDays })}</span>}
        </div>
        {order.orderNo && (
          <div className="muted" data-testid="order-number">
            {t('order_number', { number: order.orderNo })}
          </div>
        )}
      </section>

      <section className="card stack orders-section" aria-label={t('detail_status')}>
        {underReview && <ReviewProgress order={order} />}

        {(order.status === 5 || order.status === 12) && (
          <div className="warning-box" role="alert">
            {refusalText(t, order) ? t('detail_refused_reason', { reason: refusalText(t, order) }) : t('detail_refused')}
          </div>
        )}

        {order.status === 9 && order.offerExpiresAt && (
          <p className="info-box">{t('detail_offer_expires', { date: dates.dateTime(order.offerExpiresAt) })}</p>
        )}

        {order.status === 9 && order.lastWithdrawError && !awaiting && (
          <div className="warning-box" role="alert" data-testid="withdraw-error-box">
            <p className="orders-box-line">{t('detail_payout_failed', { reason: payoutReason(order.lastWithdrawError) })}</p>
            <p className="orders-box-line">{t('detail_payout_fix_free')}</p>
            <Link to={paths.bankInfo.to()}>{t('detail_fix_bank')}</Link>
          </div>
        )}

        {awaiting && !sent && (
          <p className="info-box" data-testid="payout-in-flight">
            {t('detail_payout_in_flight')}
          </p>
        )}

        {order.status === 4 && (
          <div className="stack">
            {justPaid && (
              <p className="info-box" data-testid="payout-done">
                {t('detail_payout_done', { bank: sent.bankName, card: lastFour(sent.cardNo) })}
              </p>
            )}
            <div className="grid-2">
              <div>
                <div className="muted">{t('detail_total_repayable')}</div>
                <div className="orders-figure">{money(order.totalRepay)}</div>
              </div>
              <div>
                <div className="muted">{t('detail_repaid')}</div>
                <div className="orders-figure">{money(order.repaid)}</div>
              </div>
            </div>
            <Button block color="primary" size="large" onClick={() => navigate(paths.recharge.to())}>
              {t('detail_repay')}
            </Button>
            <Link to={paths.repayDetail.to()}>{t('detail_schedule_link')}</Link>
          </div>
        )}

        {order.status === 10 && <p className="info-box">{t('detail_repaid_closed')}</p>}
        {order.status === 11 && <p className="muted">{t('detail_cancelled_free')}</p>}
        {order.status === 13 && <p className="muted">{t('detail_expired')}</p>}
      </section>

      {order.status === 4 && <LatePanel order={order} />}
      {order.status === 4 && <PaymentPlanPanel order={order} />}

      {awaiting && sent && <PayoutResult sent={sent} />}

      {withdrawable &&
        (user.isLoading ? (
          <Loading />
        ) : user.data ? (
          <WithdrawForm order={order} user={user.data} draft={draft} onDraft={setDraft} onSent={sendPayout} />
        ) : (
          <ErrorState error={user.error} onRetry={() => void user.refetch()} />
        ))}

      {CANCELLABLE.has(order.status) && !awaiting && (
        <Button block color="danger" fill="outline" loading={cancelState.isLoading} onClick={onCancel}>
          {t('detail_cancel')}
        </Button>
      )}

      <OrderDocuments order={order} />

      <section className="card" aria-label={t('detail_timeline')}>
        <h2 className="card__title">{t('detail_timeline')}</h2>
        {events.isLoading ? (
          <Loading />
        ) : events.isError || !events.data ? (
          <ErrorState error={events.error} onRetry={() => void events.refetch()} />
        ) : (
          <OrderTimeline events={events.data} />
        )}
      </section>

      <div className="grid-2">
        <Button block onClick={openService}>
          {t('detail_contact_service')}
        </Button>
        <Button block onClick={() => navigate(paths.home.to())}>
          {t('detail_back_home')}
        </Button>
      </div>
    </>
  );
}

export default function DetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const [sent, setSent] = useState<SentPayout | null>(null);
  // Decide polling from what the cache holds, then subscribe with that interval.
  const cached = sharedApi.endpoints.orderInfo.useQueryState(orderId);
  const awaiting = awaitingPayout(cached.data, sent, cached.fulfilledTimeStamp);
  const order = useOrderInfoQuery(orderId, {
    skip: !orderId,
    pollingInterval: awaiting ? PAYOUT_POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });

  const onSent = (payout: SentPayout) => {
    setSent(payout);
    // Leave the form's steps: Back must not return to the PIN of a sent payout.
    navigate(paths.detail.to(orderId), { replace: true });
  };

  return (
    <Page title={t('detail_title')} back>
      <QueryGate query={order}>{(o) => <OrderView order={o} sent={sent} awaiting={awaiting} onSent={onSent} />}</QueryGate>
    </Page>
  );
}
