/**
 * What a borrower whose loan is late can do besides paying (issue 53), on the
 * order page: how many days late it is, a promise to pay an amount by a day (the
 * officer sees it; it costs nothing and changes nothing owed, P16), and whether
 * calls about the loan are fine at any hour (P15: otherwise only 06:00–22:00).
 * The Order decides; a promise it cannot take is answered 50004 in words.
 */
import { useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Input from 'antd-mobile/es/components/input';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/components/use-money';
import type { ApiFailure } from '@/lib/envelope';
import type { Order } from '@/lib/api-types';
import { decimalInput } from '@/lib/money';
import { addFeatureStrings } from '@/lib/i18n';
import { useDates } from '@/components/use-dates';
import { newIdempotencyKey } from '@/lib/idempotency';
import { localDay } from '@/lib/local-day';
import { useChooseContactHoursMutation, useExtendMutation, useExtensionQuoteQuery, usePromiseToPayMutation } from './orders-api';
import en from './late-locales/en.json';
import fil from './late-locales/fil.json';
import zh from './late-locales/zh.json';

// The panel's strings (`late_*`), in the chunk of the order page only.
addFeatureStrings({ en, zh, fil });

/** Days since the oldest installment still owed fell due, on the loan's local days. */
export function daysLate(order: Order, today: string = localDay()): number {
  const owed = order.periodViews.filter((p) => p.status !== 1).map((p) => p.dueDate);
  const oldest = owed.sort()[0];
  if (!oldest || oldest >= today) return 0;
  return Math.round((Date.parse(today) - Date.parse(oldest)) / 86_400_000);
}


/**
 * More time (P16): the borrower picks one of the extensions still open, sees what it
 * costs (the interest for the extra days, the new total, the new first due day) and
 * signs it with the signature on file. Nothing is paid to get it.
 */
function MoreTime({ order }: { order: Order }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const options = order.extensionDays ?? [];
  const [days, setDays] = useState<number | null>(null);
  const quote = useExtensionQuoteQuery({ orderId: order.orderId, days: days ?? 0 }, { skip: days === null });
  const [extend, extendState] = useExtendMutation();
  if (options.length === 0) return null;
  const onExtend = async () => {
    if (!quote.data || days === null) return;
    try {
      await extend({ orderId: order.orderId, days, acceptedTotal: quote.data.newTotal, idempotencyKey: newIdempotencyKey() }).unwrap();
      Toast.show({ icon: 'success', content: t('late_extend_done') });
      setDays(null);
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };
  return (
    <div className="stack" data-testid="more-time">
      <h3 className="card__title">{t('late_extend_title')}</h3>
      <p className="muted">{t('late_extend_hint')}</p>
      <div className="grid-2">
        {options.map((option) => (
          <Button key={option} color={days === option ? 'primary' : 'default'} onClick={() => setDays(option)}>
            {t('late_extend_days', { n: option })}
          </Button>
        ))}
      </div>
      {quote.data && days !== null && (
        <div className="info-box stack" data-testid="extension-quote">
          <p className="orders-box-line">{t('late_extend_cost', { amount: money(quote.data.extraInterest), n: days })}</p>
          <p className="orders-box-line">{t('late_extend_total', { amount: money(quote.data.newTotal) })}</p>
          {quote.data.schedule[0] && (
            <p className="orders-box-line">{t('late_extend_next', { date: dates.day(quote.data.schedule[0].dueDate) })}</p>
          )}
          <p className="muted">{t('late_extend_sign')}</p>
          <Button block color="primary" loading={extendState.isLoading} onClick={() => void onExtend()}>
            {t('late_extend_confirm')}
          </Button>
        </div>
      )}
      {quote.isError && <p className="warning-box">{(quote.error as ApiFailure).message}</p>}
    </div>
  );
}

export function LatePanel({ order }: { order: Order }) {
  const { t } = useTranslation();
  const money = useMoney();
  const late = daysLate(order);
  const overdue = order.periodViews
    .filter((p) => p.status === 2)
    .reduce((sum, p) => sum + Number(p.amt) - Number(p.paid), 0);
  const [amount, setAmount] = useState(overdue > 0 ? overdue.toFixed(2) : '');
  const [date, setDate] = useState(localDay(7));
  const [anyHours, setAnyHours] = useState(false);
  const [promise, promiseState] = usePromiseToPayMutation();
  const [chooseHours] = useChooseContactHoursMutation();
  if (late === 0) return null;

  const onPromise = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await promise({ orderId: order.orderId, amount, date }).unwrap();
      Toast.show({ icon: 'success', content: t('late_promise_done') });
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };
  const onHours = async (checked: boolean) => {
    setAnyHours(checked);
    try {
      await chooseHours({ orderId: order.orderId, anyHours: checked }).unwrap();
      Toast.show({ content: t('late_hours_done') });
    } catch (error) {
      setAnyHours(!checked);
      Toast.show({ content: (error as ApiFailure).message });
    }
  };

  return (
    <section className="card stack" data-testid="late-panel" aria-label={t('late_title', { n: late })}>
      <h2 className="card__title">{t('late_title', { n: late })}</h2>
      <p className="muted">{t('late_hint')}</p>
      {overdue > 0 && <p className="orders-figure">{t('late_overdue', { amount: money(overdue.toFixed(2)) })}</p>}
      <form className="stack" onSubmit={onPromise}>
        <label className="stack">
          <span>{t('late_promise_amount')}</span>
          <Input inputMode="decimal" aria-label={t('late_promise_amount')} value={amount} onChange={(v) => setAmount(decimalInput(v))} />
        </label>
        <label className="stack">
          <span>{t('late_promise_date')}</span>
          <input
            className="orders-date"
            type="date"
            aria-label={t('late_promise_date')}
            min={localDay(0)}
            max={localDay(30)}
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
        </label>
        <Button block type="submit" loading={promiseState.isLoading} disabled={!amount || !date}>
          {t('late_promise_send')}
        </Button>
      </form>
      <MoreTime order={order} />
      <Checkbox checked={anyHours} onChange={(checked) => void onHours(checked)}>
        {t('late_hours')}
      </Checkbox>
    </section>
  );
}
