/**
 * The payment plan of a late loan in its collection record (issue 53, P16): whether
 * the borrower asked for one, the plan proposed (its installments, the fees it
 * waives, its total, who proposed and who approved it), a second officer's approval,
 * and the form to propose one: everything owed spread over new installments, no
 * interest or fee added, overdue fees waived in part or whole. The Order decides:
 * the proposer approving is refused (50006), bounds are 10004.
 */
import { useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import type { CollectionRecord } from '@/lib/api-types';
import { localDay } from '@/lib/local-day';
import { decimalInput } from '@/lib/money';
import { ActionDone, ActionError, TextField } from './admin-ui';
import { useCollectionAction } from './use-collection-action';

function ProposedPlan({ orderId, plan }: { orderId: string; plan: NonNullable<CollectionRecord['plan']> }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const { run, isLoading } = useCollectionAction();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="admin-form" data-testid="plan-proposed">
      <p>
        <strong>{plan.approvedBy ? t('admin_plan_approved') : t('admin_plan_awaiting')}</strong>
      </p>
      <ol className="admin-record">
        {plan.installments.map((line) => (
          <li key={line.dueDate}>
            {dates.day(line.dueDate)}: {money(line.amount)}
          </li>
        ))}
      </ol>
      <p>{t('admin_plan_total', { amount: money(plan.total), fees: money(plan.feesWaived) })}</p>
      <p className="admin-muted">{plan.reason}</p>
      <ActionError message={error} />
      {!plan.approvedBy && (
        <Button color="primary" loading={isLoading} disabled={isLoading} onClick={async () => setError(await run({ action: 'approvePlan', orderId }))}>
          {t('admin_plan_approve')}
        </Button>
      )}
    </div>
  );
}

function ProposeForm({ orderId, feesUnpaid }: { orderId: string; feesUnpaid: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { run, isLoading } = useCollectionAction();
  const [installments, setInstallments] = useState('4');
  const [everyDays, setEveryDays] = useState('7');
  const [firstDue, setFirstDue] = useState(localDay(7));
  const [feesWaived, setFeesWaived] = useState(feesUnpaid);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const failed = await run({
      action: 'proposePlan',
      orderId,
      installments: Number(installments),
      everyDays: Number(everyDays),
      firstDue,
      feesWaived: feesWaived || '0',
      reason,
    });
    setError(failed);
    if (!failed) setDone(t('admin_plan_proposed'));
  };
  return (
    <form className="admin-form" onSubmit={submit} data-testid="plan-form">
      <p className="admin-muted">{t('admin_plan_hint', { fees: money(feesUnpaid) })}</p>
      <TextField label={t('admin_plan_installments')} inputMode="numeric" value={installments} onChange={(e) => setInstallments(e.target.value.replace(/\D/g, ''))} />
      <TextField label={t('admin_plan_every')} inputMode="numeric" value={everyDays} onChange={(e) => setEveryDays(e.target.value.replace(/\D/g, ''))} />
      <TextField label={t('admin_plan_first')} type="date" value={firstDue} onChange={(e) => setFirstDue(e.target.value)} />
      <TextField label={t('admin_plan_fees')} inputMode="decimal" value={feesWaived} onChange={(e) => setFeesWaived(decimalInput(e.target.value))} />
      <TextField label={t('admin_plan_reason')} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" loading={isLoading} disabled={isLoading || !installments || !everyDays || !firstDue || !reason.trim()}>
        {t('admin_plan_propose')}
      </Button>
    </form>
  );
}

export function PlanSection({ orderId, record }: { orderId: string; record: CollectionRecord }) {
  const { t } = useTranslation();
  return (
    <>
      {record.planRequested && <p className="admin-notice" data-testid="plan-requested">{t('admin_plan_requested')}</p>}
      {record.plan && <ProposedPlan orderId={orderId} plan={record.plan} />}
      <ProposeForm orderId={orderId} feesUnpaid={record.feesUnpaid} />
    </>
  );
}
