/**
 * `/apply/:appId` (PRODUCT.md 3, P5, P7): the borrower chooses amount and period
 * (pre-filled from the query, else the largest amount the declared income allows
 * and the longest period), sees the live cost disclosure from `/loan/quote`, signs
 * if no signature is on file, and confirms; nothing is created before that. The
 * amount input takes digits only (max length 7) and is clamped on blur to the range,
 * the step and the income limit (`/loan/affordability`, issue 52), which is said in
 * plain words; when the income allows nothing, apply is off and the questionnaire a
 * tap away.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Dialog from 'antd-mobile/es/components/dialog';
import type { InputRef } from 'antd-mobile/es/components/input';
import Result from 'antd-mobile/es/components/result';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { DisclosureTable } from '@/components/disclosure-table';
import { useFieldError } from '@/components/field-error';
import { Page } from '@/components/page';
import { LazySignatureSheet } from '@/components/lazy-signature-sheet';
import { ErrorState, Loading } from '@/components/states';
import { MoneyInput } from '@/components/money-input';
import { useMoney } from '@/components/use-money';
import { AMOUNT_MAX_LENGTH } from '@/config/constants';
import type { ApiFailure } from '@/lib/envelope';
import { newIdempotencyKey } from '@/lib/idempotency';
import { gatherTerms } from '@/lib/rules';
import { usePeriodConfigQuery, useProductsQuery, useUserInfoQuery } from '@/lib/shared-api';
import { formatPct } from '@/lib/money';
import { useProductName } from '@/lib/product-name';
import { checkAge, checkApplyAmount, clampAmount } from '@/lib/validation';
import { incomeLimit, largestAllowed, type IncomeLimit } from './affordability';
import './apply-i18n';
import { useAffordabilityQuery, useApplyMutation, useQuoteQuery } from './loan-api';
import { PeriodPicker } from './period-picker';
import { useSignature } from './use-signature';

/** Waits until `value` has been stable for `ms` (the quote follows typing calmly). */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export default function ApplyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const productName = useProductName();
  const appId = Number(useParams().appId);
  const [query, setQuery] = useSearchParams();
  const products = useProductsQuery();
  const periodsQuery = usePeriodConfigQuery(appId, { skip: !Number.isFinite(appId) });
  const { data: user } = useUserInfoQuery();
  const product = products.data?.find((p) => p.id === appId);
  const terms = useMemo(() => gatherTerms(periodsQuery.data), [periodsQuery.data]);
  const min = Number(product?.minAmount ?? 0);
  const max = Number(product?.maxAmount ?? 0);
  const step = Number(product?.step ?? 1);
  const affordability = useAffordabilityQuery(appId, { skip: !Number.isFinite(appId) });
  const limitFor = (days: number | null): IncomeLimit =>
    days === null ? { kind: 'free' } : incomeLimit(affordability.data, days, max);

  const [amountText, setAmountText] = useState('');
  const [period, setPeriod] = useState<number | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => newIdempotencyKey());
  const [apply, applyState] = useApplyMutation();
  const signature = useSignature();

  // Pre-fill once the terms and the income limit are known (P7): the query's
  // values, else the longest period and the largest amount the income allows.
  const limitsKnown = !affordability.isLoading;
  useEffect(() => {
    if (!product || terms.periods.length === 0 || period !== null || !limitsKnown) return;
    const wantedPeriod = Number(query.get('period'));
    const days = terms.periods.includes(wantedPeriod) ? wantedPeriod : terms.periods[terms.periods.length - 1];
    const top = largestAllowed(incomeLimit(affordability.data, days, max), max) ?? min;
    const wanted = Number(query.get('amount'));
    const amount = Number.isFinite(wanted) && wanted > 0 ? clampAmount(wanted, min, top, step) : top;
    setAmountText(String(amount));
    setPeriod(days);
  }, [product, terms.periods, period, query, min, max, step, limitsKnown, affordability.data]);

  // The choice lives in the URL too, so a reload keeps it instead of resetting to
  // the largest offer (issue 15).
  const remember = (next: { amount?: string; period?: number }) => {
    const params = new URLSearchParams(query);
    if (next.amount !== undefined) params.set('amount', next.amount);
    if (next.period !== undefined) params.set('period', String(next.period));
    setQuery(params, { replace: true });
  };
  // A period whose income limit is below the amount brings the amount down to it.
  const choosePeriod = (days: number) => {
    setPeriod(days);
    const top = largestAllowed(limitFor(days), max);
    if (top !== null && Number(amountText) > top) {
      setAmountText(String(top));
      remember({ period: days, amount: String(top) });
    } else {
      remember({ period: days });
    }
  };

  const amount = Number(amountText);
  const amountProblem = amountText ? checkApplyAmount(amount, min, max, step) : 'amount_required';
  const limit = limitFor(period);
  const top = largestAllowed(limit, max);
  // Above the income limit (or none fits): the server would refuse it (40010).
  const aboveIncome = limit.kind !== 'free' && (top === null || amount > top);
  // The amount's message is tied to its input (WCAG 3.3.1).
  const amountErrorId = useId();
  const amountRef = useRef<InputRef>(null);
  const overIncome = !amountProblem && top !== null && amount > top;
  useFieldError(amountRef, amountErrorId, !!amountText && (!!amountProblem || overIncome));
  const settledAmount = useSettled(amountText);
  const quote = useQuoteQuery(
    { amt: settledAmount, periodDays: period ?? 0, appId },
    { skip: !product || period === null || !!checkApplyAmount(Number(settledAmount), min, max, step) },
  );
  const ageProblem = user?.birthday ? checkAge(user.birthday) : null;
  const hasSignature = !!user?.signatureImg;

  const submit = async () => {
    if (amountProblem || period === null) {
      Toast.show({ content: t(amountProblem ?? 'period_required') });
      return;
    }
    if (aboveIncome) return;
    if (ageProblem) {
      Toast.show({ content: t(ageProblem) });
      return;
    }
    if (!hasSignature) {
      signature.open();
      return;
    }
    const confirmed = await Dialog.confirm({
      title: t('apply_confirm_title'),
      content: t('apply_confirm_text', { amount: money(amount), days: period }),
      confirmText: t('confirm'),
      cancelText: t('cancel'),
    });
    if (!confirmed) return;
    try {
      // The product version of the disclosure on screen: the server refuses the
      // application if another version came into force meanwhile (issue 55).
      const productVersion = quote.data?.productVersion ?? 0;
      const { loanOrderId } = await apply({ amt: String(amount), periodDays: period, appId, productVersion, idempotencyKey }).unwrap();
      setDone(loanOrderId);
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message, duration: 3000 });
    }
  };

  if (products.isLoading || periodsQuery.isLoading) {
    return (
      <Page title={t('apply_title')} back>
        <Loading />
      </Page>
    );
  }
  if (!product || periodsQuery.isError) {
    return (
      <Page title={t('apply_title')} back>
        <ErrorState error={periodsQuery.error ?? { message: t('service_error_40007') }} onRetry={() => void periodsQuery.refetch()} />
      </Page>
    );
  }

  return (
    <Page title={productName(product)} back>
      <section className="card">
        <div className="muted">{t('loan_amount')}</div>
        <MoneyInput
          ref={amountRef}
          label={t('loan_amount')}
          className="amount-input"
          decimals={false}
          maxIntegerDigits={AMOUNT_MAX_LENGTH}
          value={amountText}
          onChange={setAmountText}
          onBlur={() => {
            const clamped = String(clampAmount(Number(amountText), min, top ?? max, step));
            setAmountText(clamped);
            remember({ amount: clamped });
          }}
        />
        <div className="muted">
          {t('amount_range', { min: money(min), max: money(max), step: money(step) })}
        </div>
        {amountText && amountProblem && (
          <div className="error-text" id={amountErrorId}>
            {t(amountProblem)}
          </div>
        )}
        {overIncome && (
          <div className="error-text" id={amountErrorId}>
            {t('income_limit_above', { max: money(top) })}
          </div>
        )}
        <IncomeLimitNote
          limit={limit}
          days={period}
          income={affordability.data?.monthlyIncome}
          share={affordability.data?.incomeSharePct}
          elsewhere={bestPeriod(terms.periods, limitFor)}
        />
      </section>
      <section className="card">
        <PeriodPicker
          legend={t('loan_period')}
          value={period}
          onChange={choosePeriod}
          options={terms.periods.map((days) => {
            const rate = terms.rates.get(days);
            return { days, label: t('days', { n: days }), description: rate ? `${formatPct(rate)}/${t('day')}` : '' };
          })}
        />
      </section>
      <section className="card">
        <h2 className="card__title">{t('disclosure_title')}</h2>
        {quote.isFetching && !quote.data ? (
          <Loading />
        ) : quote.isError ? (
          <ErrorState error={quote.error} onRetry={() => void quote.refetch()} />
        ) : quote.data ? (
          <DisclosureTable disclosure={quote.data} />
        ) : (
          <p className="muted">{t('disclosure_pending')}</p>
        )}
      </section>
      <section className="card">
        <div className="row">
          <span>{t('signature')}</span>
          {hasSignature ? (
            <span className="muted" data-testid="signature-on-file">{t('signature_on_file')}</span>
          ) : (
            <Button size="small" color="primary" fill="outline" onClick={signature.open}>
              {t('sign_now')}
            </Button>
          )}
        </div>
      </section>
      {ageProblem && <p className="warning-box">{t(ageProblem)}</p>}
      <Checkbox checked={agreed} onChange={setAgreed} style={{ '--font-size': '13px', '--icon-size': '18px' } as React.CSSProperties}>
        {t('apply_agree')}
      </Checkbox>
      <Button
        block
        color="primary"
        size="large"
        disabled={!agreed || !quote.data || !!amountProblem || aboveIncome}
        loading={applyState.isLoading}
        onClick={submit}
      >
        {t(hasSignature ? 'submit_application' : 'sign_and_submit')}
      </Button>
      <LazySignatureSheet {...signature.sheet} />
      {done && (
        <div className="success-overlay" role="dialog" aria-label={t('apply_success')}>
          <div className="card">
            <Result status="success" title={t('apply_success')} description={t('apply_success_text')} />
            <Button block color="primary" onClick={() => navigate(`/success/${done}`, { replace: true })}>
              {t('continue')}
            </Button>
          </div>
        </div>
      )}
    </Page>
  );
}

/** The period whose income limit is the highest, when the income allows any: where a borrower refused over one period may look. */
function bestPeriod(periods: number[], limitFor: (days: number) => IncomeLimit): { days: number; max: number } | null {
  let best: { days: number; max: number } | null = null;
  for (const days of periods) {
    const limit = limitFor(days);
    if (limit.kind === 'capped' && (!best || limit.max > best.max)) best = { days, max: limit.max };
  }
  return best;
}

interface IncomeLimitNoteProps {
  limit: IncomeLimit;
  days: number | null;
  /** The declared monthly income and the product's share (`/loan/affordability`). */
  income?: string | null;
  share?: string | null;
  /** The period allowing the most, said when the chosen one allows nothing. */
  elsewhere: { days: number; max: number } | null;
}

/** The income limit over the chosen period in plain words (issue 52); nothing when the product sets none. */
function IncomeLimitNote({ limit, days, income, share, elsewhere }: IncomeLimitNoteProps) {
  const { t } = useTranslation();
  const money = useMoney();
  if (limit.kind === 'free' || days === null) return null;
  if (limit.kind === 'undeclared') {
    return (
      <p className="muted" data-testid="income-limit">
        {t('income_limit_undeclared')} <Link to="/question">{t('income_limit_update')}</Link>
      </p>
    );
  }
  const words = { income: money(income), days, share, max: limit.kind === 'capped' ? money(limit.max) : '' };
  return (
    <p className={limit.kind === 'none' ? 'warning-box' : 'muted'} data-testid="income-limit">
      {t(limit.kind === 'none' ? 'income_limit_none' : 'income_limit_capped', words)}{' '}
      {limit.kind === 'none' && elsewhere && <>{t('income_limit_elsewhere', { days: elsewhere.days, max: money(elsewhere.max) })} </>}
      {limit.kind === 'none' && <Link to="/question">{t('income_limit_update')}</Link>}
    </p>
  );
}
