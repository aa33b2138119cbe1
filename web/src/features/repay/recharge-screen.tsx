/**
 * `/recharge` (PRODUCT.md 3, 5, P1, P12): repaying the disbursed loan through the
 * payment page. Recharge is only ever a repayment: with nothing owed (no loan in
 * status 4, or 40007) the screen says `loan_records_empty` and shows no payment
 * form. The amount is checked as the server does (100–20,000, at most what closes
 * the loan today, the final payment may be exactly what is owed); shortcuts fill
 * the payoff of today (interest only for the days elapsed, nothing within the
 * cooling-off window) and the next installment.
 */
import { useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import type { InputRef } from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useFieldError } from '@/components/field-error';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState, ErrorState, Loading } from '@/components/states';
import { MoneyInput } from '@/components/money-input';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import { NOTHING_FOUND, type ApiFailure } from '@/lib/envelope';
import { newIdempotencyKey } from '@/lib/idempotency';
import { isPositive, minorToText, toMinor } from '@/lib/money';
import { useLatestOrderQuery } from '@/lib/shared-api';
import type { Order } from '@/lib/api-types';
import { openPaymentPage } from './open-page';
import { usePayoffQuoteQuery, useRechargeMutation, type PayoffQuote } from './repay-api';
import { checkRecharge, nextInstallment, repayRange } from './repay-rules';
import './repay.css';

function NothingOwed() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="stack" data-testid="nothing-owed">
      <EmptyState text={t('loan_records_empty')} />
      <p className="info-box">{t('recharge_only_repayment')}</p>
      <Button block color="primary" onClick={() => navigate(paths.home.to())}>
        {t('repay_back_home')}
      </Button>
    </div>
  );
}


function RechargeForm({ order, payoff, onNothingOwed }: { order: Order; payoff: PayoffQuote; onNothingOwed: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Every problem here is about the amount: tie the message to its input (WCAG 3.3.1).
  const errorId = useId();
  const amountRef = useRef<InputRef>(null);
  useFieldError(amountRef, errorId, !!problem);
  const [recharge, rechargeState] = useRechargeMutation();
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const owed = payoff.amount;
  const range = repayRange(owed);
  const next = nextInstallment(order, owed);

  const type = (value: string) => {
    setAmount(value);
    setProblem(null);
  };

  const problemText = (key: string) =>
    key === 'recharge_amount_required'
      ? t(key)
      : range.finalOnly
        ? t('recharge_final_exact', { amount: money(owed) })
        : t('recharge_range_error', { min: money(range.min), max: money(range.max) });

  const submit = async () => {
    const issue = checkRecharge(amount, owed);
    if (issue) {
      setProblem(problemText(issue));
      return;
    }
    const amt = minorToText(toMinor(amount) ?? 0n);
    if (attempt.current?.body !== amt) attempt.current = { body: amt, key: newIdempotencyKey() };
    try {
      const url = await recharge({ orderId: order.orderId, amt, idempotencyKey: attempt.current.key }).unwrap();
      openPaymentPage(url);
    } catch (error) {
      const failure = error as ApiFailure;
      // Without an answer the page may have been opened: a retry with the same key
      // returns the same page instead of opening a second one.
      if (failure.code !== 'network') attempt.current = null;
      if (failure.code === NOTHING_FOUND) onNothingOwed();
      else setProblem(failure.message);
    }
  };

  return (
    <>
      <section className="card card--hero">
        <div className="muted">{t('recharge_owed_today')}</div>
        <div className="amount-big" data-testid="owed-today">
          {money(owed)}
        </div>
        <div className="row">
          <span className="muted">{t('recharge_remaining_schedule', { amount: money(order.remaining) })}</span>
          <Link className="repay-hero-link" to={paths.repayDetail.to()}>
            {t('recharge_schedule_link')}
          </Link>
        </div>
      </section>

      {payoff.coolingOff && (
        <p className="info-box" data-testid="cooling-off">
          {t('recharge_cooling_off')}
        </p>
      )}
      {!payoff.coolingOff && isPositive(payoff.interestWaived) && (
        <p className="info-box" data-testid="interest-waived">
          {t('recharge_interest_waived', { amount: money(payoff.interestWaived) })}
        </p>
      )}
      {isPositive(payoff.feesWaived) && (
        <p className="info-box">{t('recharge_fees_waived', { amount: money(payoff.feesWaived) })}</p>
      )}

      <section className="card stack repay-section">
        <div className="repay-field">
          <span className="muted">{t('recharge_amount')}</span>
          <MoneyInput
            ref={amountRef}
            label={t('recharge_amount')}
            placeholder={t('recharge_amount_placeholder')}
            value={amount}
            onChange={type}
          />
        </div>
        <p className="muted" data-testid="recharge-range">
          {range.finalOnly
            ? t('recharge_final_exact', { amount: money(owed) })
            : range.max === minorToText(toMinor(owed) ?? 0n)
              ? t('recharge_range_hint', { min: money(range.min), max: money(range.max) })
              : t('recharge_range_hint_payoff', { min: money(range.min), max: money(range.max), payoff: money(owed) })}
        </p>
        <div className="repay-shortcuts">
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => type(minorToText(toMinor(owed) ?? 0n))}
          >
            {t('recharge_pay_off_today')}
          </Button>
          {next && (
            <Button size="small" color="primary" fill="outline" onClick={() => type(next)}>
              {t('recharge_next_installment')}
            </Button>
          )}
        </div>
        {problem && (
          <p className="error-text" role="alert" id={errorId} data-testid="recharge-error">
            {problem}
          </p>
        )}
        <Button block color="primary" size="large" disabled={!amount} loading={rechargeState.isLoading} onClick={submit}>
          {t('recharge_submit')}
        </Button>
        <p className="muted">{t('recharge_redirect_hint')}</p>
      </section>
    </>
  );
}

function Owing({ order }: { order: Order }) {
  const payoff = usePayoffQuoteQuery(order.orderId);
  const [nothing, setNothing] = useState(false);
  if (nothing) return <NothingOwed />;
  if (payoff.isLoading) return <Loading />;
  if (payoff.isError) return <ErrorState error={payoff.error} onRetry={() => void payoff.refetch()} />;
  if (!payoff.data || !isPositive(payoff.data.amount)) return <NothingOwed />;
  return <RechargeForm order={order} payoff={payoff.data} onNothingOwed={() => setNothing(true)} />;
}

export default function RechargeScreen() {
  const { t } = useTranslation();
  const loan = useLatestOrderQuery();
  return (
    <Page title={t('recharge_title')} back>
      <QueryGate query={loan}>{(order) => (order && order.status === 4 ? <Owing order={order} /> : <NothingOwed />)}</QueryGate>
    </Page>
  );
}
