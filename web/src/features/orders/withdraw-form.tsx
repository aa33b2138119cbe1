/**
 * The stepped withdraw form of an approved order (status 9; PRODUCT.md 2.8, 3, 5,
 * P2, P3): `?index=` 0 amount (pre-filled with the balance, at most the balance),
 * 1 bank card (the account bound in the borrower's own name, changeable at
 * `/bankInfo`), 2 withdraw PIN (or, the first time, choosing one), 3 confirm.
 * Next and Back change `?index=` through the router, so the browser's back button
 * walks the steps. The confirm sends one `Idempotency-Key` per attempt: the same
 * key while the request may not have arrived (network failure), a new one once
 * the server has answered or the amount or PIN changed.
 */
import { useEffect, useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import Steps from 'antd-mobile/es/components/steps';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useFieldError } from '@/components/field-error';
import { MoneyInput } from '@/components/money-input';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import type { ApiFailure } from '@/lib/envelope';
import { newIdempotencyKey } from '@/lib/idempotency';
import { lastFour } from '@/lib/mask';
import { minorToText, toMinor } from '@/lib/money';
import type { Order, User } from '@/lib/api-types';
import { checkNewPin } from '@/lib/new-pin';
import { useSetWithdrawPinMutation, useWithdrawMutation } from './orders-api';
import {
  STEP_AMOUNT,
  STEP_BANK,
  STEP_CONFIRM,
  STEP_PIN,
  checkWithdrawPin,
  parseIndex,
  reachableStep,
  stepProblem,
} from './withdraw-steps';

export interface Draft {
  amount: string;
  pin: string;
}

/** What the result screen shows after a payout was requested. */
export interface SentPayout {
  amount: string;
  bankName: string;
  cardNo: string;
  /** `Date.now()` when the server accepted it. */
  at: number;
}

export interface WithdrawFormProps {
  order: Order;
  user: User;
  draft: Draft;
  onDraft: (draft: Draft) => void;
  onSent: (sent: SentPayout) => void;
}

/** History state marking an entry pushed by Next, so Back can pop it. */
interface StepState {
  withdrawStep?: boolean;
}

const pinInput = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** A six-digit withdraw PIN, masked; anything but digits is dropped as it is typed. */
function PinField({
  label,
  autoComplete,
  value,
  onChange,
  errorId,
}: {
  label: string;
  autoComplete: 'off' | 'new-password';
  value: string;
  onChange: (pin: string) => void;
  /** The id of the error message about this field, when there is one. */
  errorId?: string;
}) {
  const { t } = useTranslation();
  const ref = useRef<InputRef>(null);
  useFieldError(ref, errorId ?? '', !!errorId);
  return (
    <div className="orders-field">
      <span className="muted">{label}</span>
      <Input
        ref={ref}
        aria-label={label}
        type="password"
        inputMode="numeric"
        autoComplete={autoComplete}
        maxLength={6}
        placeholder={t('withdraw_pin_placeholder')}
        value={value}
        onChange={(text) => onChange(pinInput(text))}
      />
    </div>
  );
}

export function WithdrawForm({ order, user, draft, onDraft, onSent }: WithdrawFormProps) {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [problem, setProblem] = useState<string | null>(null);
  // Which field the problem is about, so the message is tied to it (WCAG 3.3.1).
  const [problemField, setProblemField] = useState<'amount' | 'pin' | 'newPin' | 'repeatPin' | null>(null);
  const errorId = useId();
  const fieldError = (field: NonNullable<typeof problemField>) => (problem && problemField === field ? errorId : undefined);
  const amountRef = useRef<InputRef>(null);
  useFieldError(amountRef, errorId, !!problem && problemField === 'amount');
  const [newPin, setNewPin] = useState('');
  const [repeatPin, setRepeatPin] = useState('');
  const [setPin, setPinState] = useSetWithdrawPinMutation();
  const [withdraw, withdrawState] = useWithdrawMutation();
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const full = { ...draft, hasBank: !!user.cardNo };
  const requested = parseIndex(params.get('index'));
  const step = reachableStep(requested, full, order.balance);

  // Keep the address bar on the step actually shown (a typed ?index=3 with no PIN).
  useEffect(() => {
    if (params.has('index') && step !== requested) {
      navigate(paths.detail.to(order.orderId, step), { replace: true });
    }
  }, [params, step, requested, navigate, order.orderId]);

  const goTo = (next: number) => {
    setProblem(null);
    setProblemField(null);
    navigate(paths.detail.to(order.orderId, next), { state: { withdrawStep: true } satisfies StepState });
  };
  const goBack = () => {
    setProblem(null);
    setProblemField(null);
    if ((location.state as StepState | null)?.withdrawStep) navigate(-1);
    else navigate(paths.detail.to(order.orderId, Math.max(STEP_AMOUNT, step - 1)), { replace: true });
  };
  const next = () => {
    const issue = stepProblem(step, full, order.balance);
    if (issue) {
      setProblem(t(issue));
      setProblemField(step === STEP_AMOUNT ? 'amount' : step === STEP_PIN ? 'pin' : null);
    } else goTo(step + 1);
  };

  const setUpPin = async () => {
    const newIssue = checkWithdrawPin(newPin) ?? checkNewPin(newPin);
    const issue = newIssue ?? checkWithdrawPin(repeatPin) ?? (newPin === repeatPin ? null : 'withdraw_pin_mismatch');
    if (issue) {
      setProblem(t(issue));
      setProblemField(newIssue ? 'newPin' : 'repeatPin');
      return;
    }
    try {
      await setPin(newPin).unwrap();
      Toast.show({ icon: 'success', content: t('withdraw_pin_saved') });
      onDraft({ ...draft, pin: newPin });
      goTo(STEP_CONFIRM);
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  const amountText = minorToText(toMinor(draft.amount) ?? 0n);
  const confirm = async () => {
    const body = `${amountText}|${draft.pin}`;
    if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() };
    setProblem(null);
    try {
      await withdraw({
        orderId: order.orderId,
        pin: draft.pin,
        amount: amountText,
        idempotencyKey: attempt.current.key,
      }).unwrap();
      attempt.current = null;
      onSent({ amount: amountText, bankName: user.bankName ?? '', cardNo: user.cardNo ?? '', at: Date.now() });
    } catch (error) {
      const failure = error as ApiFailure;
      // Without an answer the request may have arrived: keep the key, so a retry
      // returns the first answer instead of paying out twice.
      if (failure.code !== 'network') attempt.current = null;
      setProblem(failure.message);
      // A wrong PIN (40008, with attempts left) sends the borrower back to the PIN.
      setProblemField(null);
      if (failure.code === 40008) onDraft({ ...draft, pin: '' });
    }
  };

  const stepTitles = [t('withdraw_step_amount'), t('withdraw_step_bank'), t('withdraw_step_pin'), t('withdraw_step_confirm')];
  const backButton = (
    <Button block onClick={goBack}>
      {t('withdraw_back')}
    </Button>
  );

  return (
    <section className="card stack orders-section" aria-label={t('withdraw_title')} data-testid="withdraw-form" data-step={step}>
      <h2 className="card__title">{t('withdraw_title')}</h2>
      <div className="steps-compact">
        <Steps current={step}>
          {stepTitles.map((title) => (
            <Steps.Step key={title} title={title} />
          ))}
        </Steps>
      </div>

      {step === STEP_AMOUNT && (
        <div className="stack">
          <div className="orders-field">
            <span className="muted">{t('withdraw_amount')}</span>
            <div className="row">
              <MoneyInput
                ref={amountRef}
                label={t('withdraw_amount')}
                placeholder={t('withdraw_amount_placeholder')}
                value={draft.amount}
                onChange={(amount) => onDraft({ ...draft, amount })}
              />
              <Button className="orders-all" size="mini" color="primary" fill="outline" onClick={() => onDraft({ ...draft, amount: order.balance })}>
                {t('withdraw_all')}
              </Button>
            </div>
          </div>
          <p className="muted">{t('withdraw_available', { amount: money(order.balance) })}</p>
          <p className="info-box">{t('withdraw_single_drawdown')}</p>
        </div>
      )}

      {step === STEP_BANK && (
        <div className="stack">
          {user.cardNo ? (
            <div className="orders-bank" data-testid="withdraw-bank">
              <div>
                <div className="orders-bank__name">{user.bankName}</div>
                <div className="muted">
                  {lastFour(user.cardNo)} · {user.realName}
                </div>
              </div>
              <Link to={paths.bankInfo.to()}>{t('withdraw_change_bank')}</Link>
            </div>
          ) : (
            <div className="warning-box">
              {t('withdraw_no_bank')} <Link to={paths.bankInfo.to()}>{t('withdraw_bind_bank')}</Link>
            </div>
          )}
          <p className="muted">{t('withdraw_own_account')}</p>
        </div>
      )}

      {step === STEP_PIN &&
        (user.hasWithdrawPin ? (
          <div className="stack">
            <PinField
              label={t('withdraw_pin')}
              autoComplete="off"
              value={draft.pin}
              onChange={(pin) => onDraft({ ...draft, pin })}
              errorId={fieldError('pin')}
            />
            <p className="muted">{t('withdraw_pin_private')}</p>
            <Link to={paths.withdrawPin.to()}>{t('forgot_pin')}</Link>
          </div>
        ) : (
          <div className="stack">
            <p className="info-box">{t('withdraw_pin_setup_intro')}</p>
            <PinField label={t('withdraw_pin_new')} autoComplete="new-password" value={newPin} onChange={setNewPin} errorId={fieldError('newPin')} />
            <PinField
              label={t('withdraw_pin_repeat')}
              autoComplete="new-password"
              value={repeatPin}
              onChange={setRepeatPin}
              errorId={fieldError('repeatPin')}
            />
          </div>
        ))}

      {step === STEP_CONFIRM && (
        <table className="disclosure" data-testid="withdraw-summary">
          <tbody>
            <tr>
              <td>{t('withdraw_amount')}</td>
              <td>{money(amountText)}</td>
            </tr>
            <tr>
              <td>{t('withdraw_account')}</td>
              <td>
                {user.bankName} {lastFour(user.cardNo)}
              </td>
            </tr>
            <tr>
              <td>{t('withdraw_holder')}</td>
              <td>{user.realName}</td>
            </tr>
          </tbody>
        </table>
      )}

      {problem && (
        <p className="error-text" role="alert" id={errorId} data-testid="withdraw-error">
          {problem}
        </p>
      )}

      <div className="orders-actions">
        {step > STEP_AMOUNT && backButton}
        {step === STEP_AMOUNT && (
          <Button block color="primary" disabled={!draft.amount} onClick={next}>
            {t('withdraw_next')}
          </Button>
        )}
        {step === STEP_BANK && (
          <Button block color="primary" disabled={!user.cardNo} onClick={next}>
            {t('withdraw_next')}
          </Button>
        )}
        {step === STEP_PIN && user.hasWithdrawPin && (
          <Button block color="primary" disabled={!draft.pin} onClick={next}>
            {t('withdraw_next')}
          </Button>
        )}
        {step === STEP_PIN && !user.hasWithdrawPin && (
          <Button block color="primary" disabled={!newPin || !repeatPin} loading={setPinState.isLoading} onClick={setUpPin}>
            {t('withdraw_pin_save')}
          </Button>
        )}
        {step === STEP_CONFIRM && (
          <Button block color="primary" loading={withdrawState.isLoading} onClick={confirm}>
            {t('withdraw_confirm')}
          </Button>
        )}
      </div>
    </section>
  );
}

