/**
 * `/admin/collections/:orderId`: a late loan's collection record (issue 53). Its
 * days past due and bucket, whether the borrower chose other contact hours, and
 * every contact, refused contact, assignment, promise to pay, payment plan and
 * bucket move, newest first. Forms: log a contact (only the persons the record
 * names can be chosen: the borrower, and a guarantor only when one was named;
 * emergency contacts are never contacted about a debt, P15), take a
 * promise to pay, assign the loan to oneself. The server's fair-collection guard
 * decides: a contact outside the hours is refused (50001) and kept in the record.
 */
import { useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import type { CollectionEntry, CollectionRecord } from '@/lib/api-types';
import { decimalInput } from '@/lib/money';
import { useAdminCollectionActionMutation, useAdminCollectionRecordQuery } from './admin-api';
import { adminErrorMessage, bucketLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import { PlanSection } from './plan-section';
import { useCollectionAction } from './use-collection-action';
import { useAdminSession } from './admin-session';
import { ActionDone, ActionError, BackLink, KeyValues, PageHeader, PageNotLoaded, Section, TextField } from './admin-ui';

const CHANNELS = ['call', 'sms', 'email', 'visit'] as const;
const OUTCOMES = ['reached', 'no_answer', 'hardship', 'disputed', 'wrong_number'] as const;

/** A select with its label above, its options' labels from `label`. */
function Choice<T extends string>({
  name,
  value,
  options,
  label,
  onChange,
}: {
  name: string;
  value: T;
  options: readonly T[];
  label: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <label className="admin-field">
      <span className="admin-field__label">{name}</span>
      <select className="admin-input" aria-label={name} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {label(option)}
          </option>
        ))}
      </select>
    </label>
  );
}

type Person = CollectionRecord['persons'][number];

function ContactForm({
  orderId,
  templates,
  persons,
}: {
  orderId: string;
  templates: CollectionRecord['templates'];
  /** Who may be contacted about the debt (the server decides: P15). */
  persons: Person[];
}) {
  const { t } = useTranslation();
  const { run, isLoading } = useCollectionAction();
  const [channel, setChannel] = useState<(typeof CHANNELS)[number]>('call');
  const [person, setPerson] = useState<Person>(persons[0] ?? 'borrower');
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('reached');
  const [note, setNote] = useState('');
  const [next, setNext] = useState('');
  const [template, setTemplate] = useState(templates[0]?.id ?? '');
  const sms = channel === 'sms';
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const failed = await run({
      action: 'contact',
      orderId,
      channel,
      person,
      outcome,
      note,
      nextActionOn: next || undefined,
      template: sms ? template : undefined,
    });
    setError(failed);
    if (!failed) {
      setDone(t('admin_contact_logged'));
      setNote('');
    }
  };
  return (
    <form className="admin-form" onSubmit={submit} data-testid="contact-form">
      <Choice name={t('admin_contact_channel')} value={channel} options={CHANNELS} label={(c) => t(`admin_channel_${c}`)} onChange={setChannel} />
      <Choice name={t('admin_contact_person')} value={person} options={persons} label={(p) => t(`admin_person_${p}`)} onChange={setPerson} />
      {sms && (
        <>
          <Choice
            name={t('admin_contact_template')}
            value={template}
            options={templates.map((tpl) => tpl.id)}
            label={(id) => id}
            onChange={setTemplate}
          />
          <p className="admin-muted" data-testid="template-text">
            {templates.find((tpl) => tpl.id === template)?.text}
          </p>
        </>
      )}
      <Choice name={t('admin_contact_outcome')} value={outcome} options={OUTCOMES} label={(o) => t(`admin_outcome_${o}`)} onChange={setOutcome} />
      <TextField label={t('admin_contact_note')} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
      <TextField label={t('admin_contact_next')} type="date" value={next} onChange={(e) => setNext(e.target.value)} />
      <p className="admin-muted">{t('admin_contact_rule')}</p>
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" color="primary" loading={isLoading} disabled={isLoading}>
        {t('admin_contact_log')}
      </Button>
    </form>
  );
}

function PromiseForm({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const { run, isLoading } = useCollectionAction();
  const [amount, setAmount] = useState('');
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const failed = await run({ action: 'promise', orderId, amount, date });
    setError(failed);
    if (!failed) setDone(t('admin_promise_taken'));
  };
  return (
    <form className="admin-form" onSubmit={submit} data-testid="promise-form">
      <TextField label={t('admin_promise_amount')} inputMode="decimal" value={amount} onChange={(e) => setAmount(decimalInput(e.target.value))} />
      <TextField label={t('admin_promise_date')} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" loading={isLoading} disabled={isLoading || !amount || !date}>
        {t('admin_promise_take')}
      </Button>
    </form>
  );
}

function ChargeOffForm({ orderId, chargedOff, after }: { orderId: string; chargedOff: boolean; after: number }) {
  const { t } = useTranslation();
  const [send, { isLoading }] = useAdminCollectionActionMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const action = chargedOff ? 'reverseChargeOff' : 'chargeOff';
    const result = await send({ action, orderId, reason });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    setError(null);
    setDone(result.data?.awaitingSecondOfficer ? t('admin_chargeoff_awaiting') : t('admin_chargeoff_done'));
  };
  return (
    <form className="admin-form" onSubmit={submit} data-testid="chargeoff-form">
      <p className="admin-muted">{t('admin_chargeoff_hint', { n: after })}</p>
      <TextField label={t('admin_chargeoff_reason')} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" color="danger" fill="outline" loading={isLoading} disabled={isLoading || !reason.trim()}>
        {chargedOff ? t('admin_chargeoff_reverse') : t('admin_chargeoff_propose')}
      </Button>
    </form>
  );
}

const WAIVER_KINDS = ['fees', 'interest'] as const;

function WaiverForm({ orderId, fourEyesAbove }: { orderId: string; fourEyesAbove: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [send, { isLoading }] = useAdminCollectionActionMutation();
  const [kind, setKind] = useState<(typeof WAIVER_KINDS)[number]>('fees');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const result = await send({ action: 'waive', orderId, kind, amount, reason });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    setError(null);
    setDone(result.data?.awaitingSecondOfficer ? t('admin_chargeoff_awaiting') : t('admin_chargeoff_done'));
  };
  return (
    <form className="admin-form" onSubmit={submit} data-testid="waiver-form">
      <p className="admin-muted">{t('admin_waiver_hint', { n: money(fourEyesAbove) })}</p>
      <Choice name={t('admin_waiver_kind')} value={kind} options={WAIVER_KINDS} label={(k) => t(`admin_waiver_${k}`)} onChange={setKind} />
      <TextField label={t('admin_waiver_amount')} inputMode="decimal" value={amount} onChange={(e) => setAmount(decimalInput(e.target.value))} />
      <TextField label={t('admin_waiver_reason')} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      <ActionError message={error} />
      <ActionDone message={done} />
      <Button type="submit" loading={isLoading} disabled={isLoading || !amount || !reason.trim()}>
        {t('admin_waiver_submit')}
      </Button>
    </form>
  );
}

/** One entry of the record, in words. */
function EntryText({ entry }: { entry: CollectionEntry }) {
  const { t } = useTranslation();
  const money = useMoney();
  switch (entry.eventType) {
    case 'ContactLogged':
      return (
        <>
          {t('admin_record_contact', {
            channel: t(`admin_channel_${entry.channel}`),
            person: t(`admin_person_${entry.person}`),
            outcome: t(`admin_outcome_${entry.outcome}`),
          })}
          {entry.note ? <div className="admin-muted">{entry.note}</div> : null}
        </>
      );
    case 'ContactRefused':
      return (
        <strong className="admin-refused">
          {t(entry.breach?.rule === 'person' ? 'admin_record_refused_person' : 'admin_record_refused_hours', {
            channel: t(`admin_channel_${entry.channel}`),
            person: t(`admin_person_${entry.person}`),
          })}
        </strong>
      );
    case 'PromiseMade':
      return <>{t('admin_promise_by', { amount: money(entry.amount ?? '0'), date: entry.date })}</>;
    case 'PromiseSettled':
      return <>{t(entry.kept ? 'admin_record_promise_kept' : 'admin_record_promise_broken', { amount: money(entry.amount ?? '0') })}</>;
    case 'DelinquencyChanged':
      return <>{t('admin_record_bucket', { bucket: bucketLabel(t, entry.bucket), n: entry.daysPastDue })}</>;
    case 'CollectorAssigned':
      return <>{entry.collector ? t('admin_record_assigned') : t('admin_record_unassigned')}</>;
    case 'ChargeOffProposed':
      return <>{t('admin_record_chargeoff_proposed', { reason: entry.note ?? '' })}</>;
    case 'LoanChargedOff':
      return (
        <strong className="admin-refused">
          {t('admin_record_charged_off', { amount: money(entry.amount ?? '0'), reason: entry.note ?? '' })}
        </strong>
      );
    case 'RecoveryReceived':
      return <>{t('admin_record_recovery', { amount: money(entry.amount ?? '0') })}</>;
    case 'ChargeOffReversalProposed':
      return <>{t('admin_record_reversal_proposed', { reason: entry.note ?? '' })}</>;
    case 'ChargeOffReversed':
      return <>{t('admin_record_reversed', { amount: money(entry.amount ?? '0') })}</>;
    case 'TermExtended':
      return <>{t('admin_record_extended', { amount: money(entry.amount ?? '0') })}</>;
    case 'WaiverProposed':
      return <>{t('admin_record_waiver_proposed', { amount: money(entry.amount ?? '0'), reason: entry.note ?? '' })}</>;
    case 'ChargesWaived':
      return <>{t('admin_record_waived', { amount: money(entry.amount ?? '0'), reason: entry.note ?? '' })}</>;
    case 'PaymentPlanRequested':
      return <>{t('admin_record_plan_requested', { reason: entry.note ?? '' })}</>;
    case 'PaymentPlanProposed':
      return <>{t('admin_record_plan_proposed', { amount: money(entry.amount ?? '0'), reason: entry.note ?? '' })}</>;
    case 'PaymentPlanApproved':
      return <>{t('admin_record_plan_approved')}</>;
    case 'PaymentPlanSigned':
      return <>{t('admin_record_plan_signed', { amount: money(entry.amount ?? '0') })}</>;
    case 'ContactHoursChosen':
      return <>{t(entry.anyHours ? 'admin_record_any_hours' : 'admin_record_usual_hours')}</>;
    default:
      return <>{entry.eventType}</>;
  }
}

export function CollectionScreen() {
  const { t } = useTranslation();
  const dates = useDates();
  const { orderId = '' } = useParams();
  const session = useAdminSession();
  const { data, isLoading, error, refetch } = useAdminCollectionRecordQuery(orderId);
  const { run, isLoading: assigning } = useCollectionAction();
  const [assignError, setAssignError] = useState<string | null>(null);
  if (!data) return <PageNotLoaded loading={isLoading} error={error} onRetry={() => void refetch()} />;
  const me = session?.auditor?.auditorId ?? '';
  return (
    <div className="admin-page">
      <BackLink to={adminPaths.collections()}>{t('admin_collections_back')}</BackLink>
      <PageHeader title={t('admin_collection_title')} hint={t('admin_collection_hint')}>
        <Button
          size="small"
          loading={assigning}
          onClick={async () => setAssignError(await run({ action: 'assign', orderId, collector: me }))}
        >
          {t('admin_assign_me')}
        </Button>
      </PageHeader>
      <ActionError message={assignError} />
      <KeyValues
        columns={2}
        rows={[
          [t('admin_col_dpd'), <span data-testid="record-dpd">{data.daysPastDue}</span>],
          [t('admin_col_bucket'), bucketLabel(t, data.bucket)],
          [t('admin_any_hours'), data.anyHours ? t('admin_yes') : t('admin_no')],
          [t('admin_charged_off'), <span data-testid="record-charged-off">{data.chargedOff ? t('admin_yes') : t('admin_no')}</span>],
          [t('admin_order'), <a href={adminPaths.order(orderId)}>{t('admin_open_order')}</a>],
        ]}
      />
      <div className="admin-columns">
        <Section title={t('admin_contact_title')}>
          <ContactForm orderId={orderId} templates={data.templates} persons={data.persons} />
        </Section>
        <div className="admin-columns__side">
          <Section title={t('admin_promise_title')}>
            <PromiseForm orderId={orderId} />
          </Section>
          <Section title={t('admin_plan_title')} testId="plan-section">
            <PlanSection orderId={orderId} record={data} />
          </Section>
          <Section title={t('admin_waiver_title')}>
            <WaiverForm orderId={orderId} fourEyesAbove={data.waiverFourEyesAbove} />
          </Section>
          <Section title={t('admin_chargeoff_title')}>
            <ChargeOffForm orderId={orderId} chargedOff={data.chargedOff} after={data.chargeOffAfterDays} />
          </Section>
        </div>
      </div>
      <Section title={t('admin_record_title')} testId="collection-record">
        <ol className="admin-record">
          {[...data.entries].reverse().map((entry, index) => (
            <li key={`${entry.at}-${index}`} data-testid="record-entry" data-type={entry.eventType}>
              <span className="admin-muted nowrap">{dates.dateTime(entry.at)}</span> <EntryText entry={entry} />
            </li>
          ))}
          {data.entries.length === 0 && <li className="admin-muted">{t('admin_record_empty')}</li>}
        </ol>
      </Section>
    </div>
  );
}
