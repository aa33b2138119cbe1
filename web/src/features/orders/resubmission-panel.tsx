/**
 * What the loan officer asks the borrower to fix while the order is 2 (PRODUCT.md
 * 12.4): the reason, one link per requested item to the screen that changes it
 * (verified photos or name become editable there, and the link brings the borrower
 * back here), and Resubmit, which returns the order to review (`/loan/resubmit`).
 * The server decides whether the order may return; a refusal shows here.
 */
import { useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { showToast } from '@/components/feedback';
import type { ApiFailure } from '@/lib/envelope';
import { newIdempotencyKey } from '@/lib/idempotency';
import type { Order, ResubmissionItem } from '@/lib/api-types';
import { useResubmitOrderMutation } from './orders-api';

/** The screen that changes each item. */
export const ITEM_SCREENS: Record<ResubmissionItem, string> = {
  photos: '/baseInfo',
  profile: '/baseInfo',
  bank: '/bankInfo',
  questionnaire: '/question',
};

/** The requested items of an order; a request from before items existed asks for all. */
export function requestedItems(order: Order): ResubmissionItem[] {
  const items = order.resubmissionItems ?? [];
  return items.length > 0 ? items : ['photos', 'profile', 'bank', 'questionnaire'];
}

export function ResubmissionPanel({ order }: { order: Order }) {
  const { t } = useTranslation();
  const [resubmit, state] = useResubmitOrderMutation();
  const [problem, setProblem] = useState<string | null>(null);
  // One key per press of the button: a double tap or a retry resubmits once.
  const key = useRef<string | null>(null);
  const back = `?then=${encodeURIComponent(`/detail/${order.orderId}`)}`;

  const send = async () => {
    key.current ??= newIdempotencyKey();
    setProblem(null);
    try {
      await resubmit({ orderId: order.orderId, idempotencyKey: key.current }).unwrap();
      showToast({ icon: 'success', content: t('resubmitted') });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    } finally {
      key.current = null;
    }
  };

  return (
    <section className="warning-box stack" role="region" aria-label={t('resubmission_title')} data-testid="resubmission-panel">
      <h2 className="card__title">{t('resubmission_title')}</h2>
      <p className="orders-box-line">{t('detail_resubmission', { reason: order.resubmissionReason ?? '' })}</p>
      <ul className="resubmission-items">
        {requestedItems(order).map((item) => (
          <li key={item}>
            <Link to={`${ITEM_SCREENS[item]}${back}`} data-testid={`resubmit-item-${item}`}>
              {t(`resubmission_item_${item}`)}
            </Link>
          </li>
        ))}
      </ul>
      <p className="muted">{t('resubmission_hint')}</p>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <Button block color="primary" loading={state.isLoading} onClick={() => void send()} data-testid="resubmit">
        {t('resubmit')}
      </Button>
    </section>
  );
}
