/**
 * A payment plan for hardship (issue 53, P16), on the order page: a late borrower
 * asks for one, saying why; once two officers approved a plan, the borrower sees its
 * installments, the fees it waives and the total, and signs it with the signature on
 * file. Nothing is paid to ask or to get one; the Order decides every rule.
 */
import { useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import TextArea from 'antd-mobile/es/components/text-area';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import type { Order } from '@/lib/api-types';
import type { ApiFailure } from '@/lib/envelope';
import { newIdempotencyKey } from '@/lib/idempotency';
import { daysLate } from './late-panel';
import { useRequestPaymentPlanMutation, useSignPaymentPlanMutation } from './orders-api';

/** The most characters a reason may have (the Order's note limit). */
const MAX_REASON = 500;

/** The approved plan, to sign. */
function PlanOffer({ order }: { order: Order }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const [sign, signState] = useSignPaymentPlanMutation();
  const plan = order.paymentPlan;
  if (!plan) return null;
  const onSign = async () => {
    try {
      await sign({ orderId: order.orderId, acceptedTotal: plan.total, idempotencyKey: newIdempotencyKey() }).unwrap();
      Toast.show({ icon: 'success', content: t('late_plan_signed') });
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };
  return (
    <div className="info-box stack" data-testid="plan-offer">
      <h3 className="card__title">{t('late_plan_offer_title')}</h3>
      <ol className="stack">
        {plan.installments.map((line) => (
          <li key={line.dueDate} className="orders-box-line">
            {t('late_plan_line', { date: dates.day(line.dueDate), amount: money(line.amount) })}
          </li>
        ))}
      </ol>
      {Number(plan.feesWaived) > 0 && <p className="orders-box-line">{t('late_plan_fees_waived', { amount: money(plan.feesWaived) })}</p>}
      <p className="orders-box-line">{t('late_plan_total', { amount: money(plan.total) })}</p>
      <p className="muted">{t('late_plan_sign_hint')}</p>
      <Button block color="primary" loading={signState.isLoading} onClick={() => void onSign()}>
        {t('late_plan_sign')}
      </Button>
    </div>
  );
}

export function PaymentPlanPanel({ order }: { order: Order }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [ask, askState] = useRequestPaymentPlanMutation();
  const late = daysLate(order) > 0;
  if (!order.paymentPlan && !order.planRequested && !late) return null;

  const onAsk = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await ask({ orderId: order.orderId, reason: reason.trim(), idempotencyKey: newIdempotencyKey() }).unwrap();
      Toast.show({ icon: 'success', content: t('late_plan_asked') });
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };

  return (
    <section className="card stack" data-testid="payment-plan" aria-label={t('late_plan_title')}>
      <h2 className="card__title">{t('late_plan_title')}</h2>
      {order.paymentPlan ? (
        <PlanOffer order={order} />
      ) : order.planRequested ? (
        <p className="info-box">{t('late_plan_waiting')}</p>
      ) : (
        <form className="stack" onSubmit={onAsk}>
          <p className="muted">{t('late_plan_hint')}</p>
          <label className="stack">
            <span>{t('late_plan_reason')}</span>
            <TextArea
              aria-label={t('late_plan_reason')}
              value={reason}
              maxLength={MAX_REASON}
              showCount
              rows={3}
              onChange={setReason}
            />
          </label>
          <Button block type="submit" loading={askState.isLoading} disabled={!reason.trim()}>
            {t('late_plan_ask')}
          </Button>
        </form>
      )}
    </section>
  );
}
