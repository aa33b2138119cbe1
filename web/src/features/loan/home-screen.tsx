/**
 * `/`: home (PRODUCT.md 3, 4.2). Balance card (applied amount and account
 * balance; while repaying, what is owed instead: total outstanding, the next
 * installment and its due date, any overdue amount, PRODUCT.md 12.5), the policy checkbox that enables Apply (shown only then), the icon buttons,
 * the main button with its one-second cool-down, the refusal overlay with its
 * reason (P8) and the signature sheet when no signature is on file.
 *
 * The screen paints before the user and progress calls answer (the banner is
 * its largest element): the figures show as skeletons of their own size until
 * then. What the first paint does not show loads when needed.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Skeleton from 'antd-mobile/es/components/skeleton';
import {
  CalendarOutline,
  FileOutline,
  HistogramOutline,
  InformationCircleOutline,
  TeamOutline,
  UnorderedListOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { showAlert, showToast } from '@/components/feedback';
import { LazySignatureSheet } from '@/components/lazy-signature-sheet';
import { OverlayDialog } from '@/components/overlay-dialog';
import { Page } from '@/components/page';
import { StatusTag } from '@/components/status-tag';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { isQualified, mainButton } from '@/lib/rules';
import { useCompanyConfigQuery, useLoanProgressQuery, useOrderInfoQuery, useUserInfoQuery } from '@/lib/shared-api';
import { storage } from '@/lib/storage';
import { paths } from '@/config/paths';
import type { Order } from '@/lib/api-types';
import Banner from './banner';
import { refusalText } from '@/lib/refusal';
import { owedSummary } from './owed-summary';
import { useCooldown } from './use-cooldown';
import { useSignature } from './use-signature';

// Not needed for the first paint, so not in this chunk: the error state. (The
// carousel is: it holds the largest element, and loading it apart put one more
// round trip before that element's paint, LCP 3.3 s → 3.0 s.)
const ErrorState = lazy(() => import('@/components/states').then((m) => ({ default: m.ErrorState })));

const BANNERS = ['banner_licensed', 'banner_no_fees', 'banner_prepay'];

/** While repaying: what is owed, never "balance ₱0.00" (PRODUCT.md 12.5). */
/**
 * The loan officer's request to fix something (order status 2, PRODUCT.md 12.4) on
 * home, where the borrower looks first: the officer's reason, the items asked for,
 * and the way to the order, whose panel changes them and resubmits.
 */
function ResubmissionNotice({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <section className="warning-box stack" role="region" aria-label={t('resubmission_title')} data-testid="home-resubmission">
      <h2 className="card__title">{t('resubmission_title')}</h2>
      <p>{t('detail_resubmission', { reason: order.resubmissionReason ?? '' })}</p>
      {(order.resubmissionItems ?? []).length > 0 && (
        <ul className="resubmission-items">
          {(order.resubmissionItems ?? []).map((item) => (
            <li key={item}>{t(`resubmission_item_${item}`)}</li>
          ))}
        </ul>
      )}
      <Link to={`/detail/${order.orderId}`}>{t('detail_resubmission_link')}</Link>
    </section>
  );
}

function OwedCard({ order, status }: { order: Order | undefined | null; status: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const summary = order ? owedSummary(order) : null;
  return (
    <section className="card card--hero balance-card" data-testid="owed-card" aria-busy={!summary}>
      <div className="muted">{t('home_outstanding')}</div>
      <div className="amount-big">
        {summary ? money(summary.outstanding) : <Skeleton animated className="balance-skeleton" />}
      </div>
      {summary?.overdue && (
        <div className="warning-text" data-testid="owed-overdue">
          {t('home_overdue', { amount: money(summary.overdue) })}
        </div>
      )}
      <div className="row balance-card__foot">
        <span className="muted" data-testid="owed-next">
          {summary?.next
            ? t('home_next_installment', { amount: money(summary.next.amount), date: dates.day(summary.next.dueDate) })
            : null}
        </span>
        <StatusTag status={status} />
      </div>
    </section>
  );
}

export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const user = useUserInfoQuery();
  const progress = useLoanProgressQuery();
  const loading = user.isLoading || progress.isLoading;
  const { data: company } = useCompanyConfigQuery();
  const latest = progress.data;
  const refused = latest && (latest.status === 5 || latest.status === 12);
  const { data: refusedOrder } = useOrderInfoQuery(refused ? latest.orderId : skipToken);
  // The officer's reason and items belong where the borrower looks first (12.4).
  const asked = latest?.status === 2;
  const { data: askedOrder } = useOrderInfoQuery(asked ? latest.orderId : skipToken);
  const repaying = latest?.status === 4;
  const { data: repayingOrder } = useOrderInfoQuery(repaying ? latest.orderId : skipToken);
  const [accepted, setAccepted] = useState(() => storage.get('policyAccepted') === '1');
  const [overlayClosed, setOverlayClosed] = useState(false);
  const closeOverlay = useCallback(() => setOverlayClosed(true), []);
  const signature = useSignature();
  const needsSignature = !!user.data && !user.data.signatureImg;
  const qualified = isQualified(user.data?.userQualificationView);
  // The sheet opens by itself once per visit for a qualified borrower without a
  // signature (PRODUCT.md 3); closing it leaves the "Add signature" button.
  const [offered, setOffered] = useState(false);
  const openSignature = signature.open;
  useEffect(() => {
    if (needsSignature && qualified && !offered) {
      setOffered(true);
      openSignature();
    }
  }, [needsSignature, qualified, offered, openSignature]);

  const action = mainButton(user.data?.userQualificationView, latest);
  // The loan policy is what a borrower agrees to before applying (PRODUCT.md 3); the
  // box never stands between a borrower and a withdrawal or a repayment of a loan
  // already granted (P2 lists a withdrawal's only preconditions; P12: repay at any
  // time), nor between a borrower and their own profile or order.
  const policyMissing = action.kind === 'apply' && !accepted;
  const { onClick, cooling } = useCooldown(() => {
    if (action.kind === 'refresh') {
      void progress.refetch();
      void user.refetch();
      showToast({ content: t('refreshed') });
    } else navigate(action.to);
  });

  const accept = (value: boolean) => {
    setAccepted(value);
    storage.set('policyAccepted', value ? '1' : null);
  };

  // The link reads "loan policy": it opens the policy, titled so (issue 52); the
  // lender's "About us" is its own icon and page.
  const policyTitle = t('policy_link');
  const showPolicy = () =>
    showAlert({
      title: policyTitle.charAt(0).toLocaleUpperCase() + policyTitle.slice(1),
      content: <p>{t('policy_text')}</p>,
      confirmText: t('ok'),
    });

  // A locked account (security lock or compliance hold, P4) sees why, and how to
  // lift it, before anything else.
  if (user.data?.lock) return <Navigate to="/lock" replace />;
  if (user.isError) {
    return (
      <Page title={company?.title ?? t('app_name')} tabs>
        <Suspense fallback={null}>
          <ErrorState error={user.error} onRetry={() => void user.refetch()} />
        </Suspense>
      </Page>
    );
  }

  // Each icon opens the screen its label names (issue 52): the label is that
  // screen's title or the name the account menu gives it. (Before, "Wallet" opened
  // an order or the order list, "Settings" the account page and "About us" a
  // dialog instead of the About page with the lender's licence.)
  const icons = [
    { key: 'my_orders', icon: <UnorderedListOutline />, to: paths.order.to() },
    { key: 'transactions', icon: <HistogramOutline />, to: paths.transactionHistory.to() },
    { key: 'account', icon: <UserOutline />, to: paths.my.to() },
    { key: 'cooperation', icon: <TeamOutline />, to: paths.partner.to() },
    { key: 'repay_detail', icon: <CalendarOutline />, to: paths.repayDetail.to() },
    { key: 'contract', icon: <FileOutline />, to: paths.contract.to() },
    { key: 'about_us', icon: <InformationCircleOutline />, to: paths.about.to() },
  ];

  return (
    <Page title={company?.title ?? t('app_name')} tabs>
      <Banner slides={BANNERS.map((key) => t(key))} />
      {repaying ? (
        <OwedCard order={repayingOrder} status={latest.status} />
      ) : (
      <section className="card card--hero balance-card" data-testid="balance-card" aria-busy={loading}>
        <div className="muted">{t('account_balance')}</div>
        <div className="amount-big">
          {loading ? <Skeleton animated className="balance-skeleton" /> : money(latest?.balance ?? '0')}
        </div>
        <div className="row balance-card__foot">
          {loading ? (
            <Skeleton animated className="balance-skeleton balance-skeleton--small" />
          ) : (
            <span className="muted">
              {t('applied_amount')}: {money(latest?.applyAmount ?? '0')}
            </span>
          )}
          {latest && <StatusTag status={latest.status} />}
        </div>
      </section>
      )}
      <section className="card">
        <div className="icon-grid" data-testid="home-icons">
          {icons.map((item) => (
            <button key={item.key} type="button" className="icon-grid__item" onClick={() => navigate(item.to)}>
              <span className="icon-grid__icon">{item.icon}</span>
              {t(item.key)}
            </button>
          ))}
        </div>
      </section>
      <section className="stack">
        {/* Only before a loan (Apply, or the profile that leads to it): above Withdraw,
            Repay or an order's Refresh an unticked box would read as a condition for
            them (it is not one). */}
        {(action.kind === 'apply' || action.kind === 'completeInfo') && (
          <Checkbox checked={accepted} onChange={accept} style={{ '--icon-size': '18px', '--font-size': '13px' } as React.CSSProperties}>
            {t('policy_agree')}{' '}
            <a
              onClick={(e) => {
                e.preventDefault();
                void showPolicy();
              }}
              href="/about"
            >
              {t('policy_link')}
            </a>
          </Checkbox>
        )}
        <Button
          className="main-button"
          block
          color="primary"
          size="large"
          shape="rounded"
          disabled={policyMissing || cooling}
          // Its label and target depend on the user and the progress.
          loading={loading}
          onClick={onClick}
          data-testid="main-button"
        >
          {t(`main_${action.kind}`)}
        </Button>
        {needsSignature && (
          <Button block fill="outline" color="primary" onClick={signature.open}>
            {t('add_signature')}
          </Button>
        )}
      </section>
      {asked && askedOrder && <ResubmissionNotice order={askedOrder} />}
      {refused && (
        <OverlayDialog visible={!overlayClosed} title={t('refused_title')} onClose={closeOverlay}>
          <p data-testid="refusal-reason">
            {t('refused_reason', { reason: (refusedOrder && refusalText(t, refusedOrder)) ?? '…' })}
          </p>
          <p className="muted">{t('refused_can_reapply')}</p>
          <Button block color="primary" onClick={closeOverlay}>
            {t('ok')}
          </Button>
        </OverlayDialog>
      )}
      <LazySignatureSheet {...signature.sheet} />
    </Page>
  );
}
