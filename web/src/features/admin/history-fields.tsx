/**
 * The fields of the history replay (the order's folded state and each event's
 * payload) as people read them: a label per field in the console's language
 * ("Approved amount", not `approved_amount`), money as money, times and days as
 * dates, auditors by username (the same `names` and `actorView` as the order
 * page), review stages and resubmission items in words. Nested objects and lists
 * fold away; the raw JSON stays one click away on the screen.
 */
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { actorView } from './admin-format';

/** A wire key in snake_case (`approvedAmount` → `approved_amount`). */
export function snakeKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * A field's label: the console's words for a known field (`admin_field_<key>`),
 * else the key in plain words ("some_field" → "Some field"); ids and references
 * used as keys (session ids, payment references) stay as they are.
 */
export function fieldLabel(t: TFunction, key: string): string {
  if (!/^[a-z][A-Za-z0-9_]*$/.test(key)) return key;
  const snake = snakeKey(key);
  const words = snake.replace(/_/g, ' ');
  return t(`admin_field_${snake}`, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) });
}

/** Fields holding an amount of money (decimal strings). */
const MONEY = new Set([
  'amount',
  'applied_amount',
  'approved_amount',
  'balance',
  'net_amount',
  'released_amount',
  'principal',
  'processing_fee',
  'interest',
  'total_repayable',
  'per_period_payment',
  'fee',
  'paid',
  'repaid',
  'interest_waived',
  'fees_waived',
]);
/** Fields holding an auditor's id. */
const AUDITOR = new Set(['first_auditor', 'final_auditor', 'auditor_id']);
/** Rates in thousandths of a percent per day (PRODUCT.md 4.4). */
const MILLI_PCT = new Set(['daily_rate', 'overdue_daily_rate']);
const ITEMS = new Set(['items', 'resubmission_items']);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

export interface FieldFormat {
  t: TFunction;
  money: (value: string) => string;
  dateTime: (value: string) => string;
  day: (value: string) => string;
  /** Auditor id → username. */
  names: ReadonlyMap<string, string>;
}

/** A reminder's kind (`due_in_1_day`, ...) or a repayment source's (`recharge`, `manual`) in words. */
export function kindLabel(t: TFunction, kind: string): string {
  return t(`admin_reminder_${kind}`, { defaultValue: t(`admin_source_${kind}`, { defaultValue: kind }) });
}

/** One scalar field as text, by what the field holds; `title` when an id is hidden. */
export function formatScalar(key: string, value: Scalar, f: FieldFormat): { text: string; title?: string; muted?: boolean } {
  const snake = snakeKey(key);
  if (value === null || value === '') return { text: '—', muted: true };
  if (typeof value === 'boolean') return { text: value ? f.t('admin_yes') : f.t('admin_no') };
  const text = String(value);
  if (AUDITOR.has(snake)) {
    const actor = actorView(f.t, `auditor:${text}`, f.names);
    return { text: actor.label, title: text };
  }
  if (MONEY.has(snake) && /^-?\d+(\.\d+)?$/.test(text)) return { text: f.money(text) };
  if (MILLI_PCT.has(snake) && typeof value === 'number') return { text: `${value / 1000}%` };
  if (snake.endsWith('_pct')) return { text: `${text}%` };
  if (snake === 'stage') return { text: f.t(`admin_stage_${text}`, { defaultValue: text }) };
  if (snake === 'kind') return { text: kindLabel(f.t, text) };
  if (ITEMS.has(snake)) return { text: f.t(`admin_resubmission_item_${text}`, { defaultValue: text }) };
  if (snake === 'period_days' || snake === 'cooling_off_days') return { text: f.t('admin_days', { n: value }) };
  if (typeof value === 'string' && DATE_TIME.test(value)) return { text: f.dateTime(value), title: value };
  if (typeof value === 'string' && DAY.test(value)) return { text: f.day(value) };
  return { text };
}

function Value({ name, value, f, depth }: { name: string; value: unknown; f: FieldFormat; depth: number }) {
  if (isScalar(value)) {
    const { text, title, muted } = formatScalar(name, value, f);
    return (
      <span className={muted ? 'admin-muted' : undefined} title={title}>
        {text}
      </span>
    );
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="admin-muted">—</span>;
    if (value.every(isScalar)) return <span>{value.map((v) => formatScalar(name, v, f).text).join(', ')}</span>;
    return (
      <details>
        <summary className="admin-muted">{f.t('admin_items', { count: value.length })}</summary>
        <ol className="admin-fields__list">
          {value.map((item, index) => (
            <li key={index}>
              {isScalar(item) ? (
                <Value name={name} value={item} f={f} depth={depth + 1} />
              ) : (
                <FieldRows value={item as Record<string, unknown>} f={f} depth={depth + 1} />
              )}
            </li>
          ))}
        </ol>
      </details>
    );
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span className="admin-muted">—</span>;
  // A small flat object with short values (a refusal, a bank account, a repayment's
  // source) reads inline; the rest (a signature's storage key and hash, say) folds.
  if (entries.length <= 4 && entries.every(([, v]) => isScalar(v) && String(v).length <= 40))
    return <FieldRows value={value as Record<string, unknown>} f={f} depth={depth + 1} />;
  return (
    <details>
      <summary className="admin-muted">{f.t('admin_fields', { count: entries.length })}</summary>
      <FieldRows value={value as Record<string, unknown>} f={f} depth={depth + 1} />
    </details>
  );
}

function FieldRows({
  value,
  f,
  depth,
  overrides,
}: {
  value: Record<string, unknown>;
  f: FieldFormat;
  depth: number;
  overrides?: Record<string, ReactNode>;
}) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return <Value name="" value={value} f={f} depth={depth} />;
  return (
    <dl className={`admin-kv admin-kv--1 admin-fields${depth > 0 ? ' admin-fields--nested' : ''}`}>
      {Object.entries(value).map(([key, item]) => (
        <div className="admin-kv__row" key={key} data-field={key}>
          <dt title={key}>{fieldLabel(f.t, key)}</dt>
          <dd>{overrides && key in overrides ? overrides[key] : <Value name={key} value={item} f={f} depth={depth} />}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * An object's fields as labelled rows. `overrides` replaces the shown value of
 * top-level keys (the state's `status`, shown by its label).
 */
export function FieldList({
  value,
  names,
  overrides,
  testId,
}: {
  value: Record<string, unknown>;
  names: ReadonlyMap<string, string>;
  overrides?: Record<string, ReactNode>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const f: FieldFormat = { t, money, dateTime: dates.dateTime, day: dates.day, names };
  return (
    <div data-testid={testId}>
      <FieldRows value={value} f={f} depth={0} overrides={overrides} />
    </div>
  );
}
