/**
 * A repayment received outside the app (bank transfer, counter), recorded on a
 * disbursed order (status 4) with its amount and reference. The request carries
 * an `Idempotency-Key` that stays the same while the form is unchanged, so a
 * double click or a retry after a lost answer records it once; the server also
 * applies a reference only once (`recorded: false` then). Above 20,000 a second
 * auditor must enter the same payment before it applies (four eyes, PRODUCT.md 12.1).
 */
import { useRef, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/components/use-money';
import { newIdempotencyKey } from '@/lib/idempotency';
import { decimalInput, toMinor } from '@/lib/money';
import { useAdminManualRepaymentMutation } from './admin-api';
import { adminErrorMessage } from './admin-format';
import { ActionDone, ActionError, TextField } from './admin-ui';

/** Longest payment reference the api accepts. */
const MAX_REFERENCE = 100;

export function RepaymentForm({ orderId, remaining }: { orderId: string; remaining: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  const [record, { isLoading }] = useAdminManualRepaymentMutation();

  const change = (apply: () => void) => {
    // Another request from here on: a new key.
    key.current = newIdempotencyKey();
    setError(null);
    setDone(null);
    apply();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const minor = toMinor(amount);
    if (minor === null || minor <= 0n) {
      setError(t('admin_repayment_amount_invalid'));
      return;
    }
    if (!reference.trim()) {
      setError(t('admin_repayment_reference_required'));
      return;
    }
    setError(null);
    setDone(null);
    const result = await record({ orderId, amount, reference: reference.trim(), idempotencyKey: key.current });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    setDone(
      result.data.awaitingSecondAuditor
        ? t('admin_repayment_awaiting')
        : result.data.recorded
          ? t('admin_repayment_recorded', { amount: money(amount) })
          : t('admin_repayment_duplicate'),
    );
    key.current = newIdempotencyKey();
    setAmount('');
    setReference('');
  };

  return (
    <form className="admin-repayment" onSubmit={onSubmit} aria-labelledby="admin-repayment-title">
      <h3 id="admin-repayment-title" className="admin-subtitle">
        {t('admin_manual_repayment')}
      </h3>
      <p className="admin-muted">{t('admin_manual_repayment_hint', { remaining: money(remaining) })}</p>
      <TextField
        label={t('admin_repayment_amount')}
        inputMode="decimal"
        value={amount}
        onChange={(event) => change(() => setAmount(decimalInput(event.target.value)))}
      />
      <TextField
        label={t('admin_repayment_reference')}
        maxLength={MAX_REFERENCE}
        value={reference}
        onChange={(event) => change(() => setReference(event.target.value))}
      />
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" color="primary" loading={isLoading} disabled={isLoading || !amount || !reference.trim()}>
        {t('admin_record_repayment')}
      </Button>
    </form>
  );
}
