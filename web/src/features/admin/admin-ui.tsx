/**
 * Building blocks of the console's screens: a page's header, a titled section,
 * key–value lists, tables, labelled inputs, a status tag, the pager, a JSON view, the
 * way back, a failed load with Retry, an action's outcome and the dialog that
 * asks for an action's note or reason, or only to confirm it.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
} from 'react';
import Button, { type ButtonRef } from 'antd-mobile/es/components/button';
import CenterPopup from 'antd-mobile/es/components/center-popup';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDates } from '@/components/use-dates';
import { adminErrorMessage, statusLabel, statusTone, type Tone } from './admin-format';
import { adminPaths } from './admin-paths';

export function Section({
  title,
  extra,
  children,
  className = '',
  testId,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className={`admin-section ${className}`} aria-labelledby={id} data-testid={testId}>
      <header className="admin-section__header">
        <h2 id={id} className="admin-section__title">
          {title}
        </h2>
        {extra && <div className="admin-section__extra">{extra}</div>}
      </header>
      <div className="admin-section__body">{children}</div>
    </section>
  );
}

export type KeyValue = [label: ReactNode, value: ReactNode];

/** A definition list: labels left, values right (two columns on wide screens). */
export function KeyValues({ rows, columns = 1 }: { rows: KeyValue[]; columns?: 1 | 2 }) {
  return (
    <dl className={`admin-kv admin-kv--${columns}`}>
      {rows.map(([label, value], index) => (
        <div className="admin-kv__row" key={index}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A table column's heading: its text, or the text with a class (`num` right-aligns it). */
export type Column = string | { label: string; className: string };

/** A right-aligned column (amounts, counts). */
export const numeric = (label: string): Column => ({ label, className: 'num' });

/** A table's heading row. */
export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) =>
          typeof column === 'string' ? (
            <th key={index} scope="col">
              {column}
            </th>
          ) : (
            <th key={index} scope="col" className={column.className}>
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A table in its scrolling frame, under its heading row; `busy` while it refetches. */
export function Table({
  className,
  columns,
  busy,
  children,
}: {
  className: string;
  columns: Column[];
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="admin-table-wrap">
      <table className={`admin-table ${className}`} aria-busy={busy}>
        <TableHead columns={columns} />
        {children}
      </table>
    </div>
  );
}

/** A page's title, the line under it and, beside them, the page's buttons or links. */
export function PageHeader({
  title,
  hint,
  mono = false,
  children,
}: {
  title: ReactNode;
  hint: ReactNode;
  /** The line is an id or a number (monospace). */
  mono?: boolean;
  children?: ReactNode;
}) {
  return (
    <header className="admin-page__header">
      <div>
        <h1 className="admin-page__title">{title}</h1>
        <p className={mono ? 'admin-muted admin-mono' : 'admin-muted'}>{hint}</p>
      </div>
      {children}
    </header>
  );
}

/**
 * A text input with its label above (or beside it, `inline`); the label is also its
 * accessible name. `hint`: a line under it; `error`: what is wrong with it, read out
 * when it appears and marking the input invalid.
 */
export function TextField({
  label,
  inline = false,
  hint,
  error,
  ref,
  ...input
}: {
  label: string;
  inline?: boolean;
  hint?: ReactNode;
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <label className={`admin-field${inline ? ' admin-field--inline' : ''}`}>
      <span className="admin-field__label">{label}</span>
      <input
        ref={ref}
        className="admin-input"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </label>
  );
}

/** The line under a field (`hint`) and what is wrong with it (`error`, read out when it appears). */
function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | null }) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} className="admin-muted">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="admin-field__error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** A text area with its label above (also its accessible name) and, optionally, a line under it. */
export function TextAreaField({
  label,
  hint,
  ...area
}: { label: string; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <label className="admin-field">
      <span className="admin-field__label">{label}</span>
      <textarea className="admin-input admin-textarea" aria-label={label} aria-describedby={hint ? `${id}-hint` : undefined} rows={3} {...area} />
      <FieldNotes id={id} hint={hint} />
    </label>
  );
}

/** A checkbox with its label beside it. */
export function CheckboxField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="admin-choice">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function ToneTag({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <Tag color={tone} fill="outline" className="admin-tag" data-testid={testId}>
      {children}
    </Tag>
  );
}

/** An order status with the auditor's label (PRODUCT.md 4.3). */
export function StatusLabel({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <ToneTag tone={statusTone(status)} testId={testId}>
      {statusLabel(t, status)}
    </ToneTag>
  );
}

/** "Page 2 of 5 · 93 items" with previous / next buttons. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="admin-pager" aria-label={t('admin_paging')}>
      <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin_previous')}
      </Button>
      <span className="admin-pager__text">{t('admin_page_of', { page, pages, total })}</span>
      <Button size="small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('admin_next')}
      </Button>
    </nav>
  );
}

/** A value as indented JSON. */
export function JsonView({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre className="admin-json" aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** "← Queue": the way back to `to`. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="admin-back">
      ← {children}
    </Link>
  );
}

/** A load that failed, in the auditor's terms, with Retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="admin-action-error" role="alert">
      {adminErrorMessage(t, error)}{' '}
      <button type="button" className="admin-link-button" onClick={onRetry}>
        {t('admin_retry')}
      </button>
    </p>
  );
}

/** A page whose data is not there yet: "Loading…", or the failure with Retry and the way back to the queue. */
export function PageNotLoaded({ loading, error, onRetry }: { loading: boolean; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (loading) return <p className="admin-page admin-muted">{t('admin_loading')}</p>;
  return (
    <div className="admin-page">
      <BackLink to={adminPaths.queue()}>{t('admin_nav_queue')}</BackLink>
      <LoadError error={error} onRetry={onRetry} />
    </div>
  );
}

/** When something happened and who did it ("22/11/2026 14:03 · alice"); `testId` and `title` mark the actor. */
export function WhenWho({ at, who, title, testId }: { at: string; who: string; title: string; testId: string }) {
  const dates = useDates();
  return (
    <>
      {dates.dateTime(at)} ·{' '}
      <span data-testid={testId} title={title}>
        {who}
      </span>
    </>
  );
}

/** An error of an action, read out when it appears. */
export function ActionError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="admin-action-error" role="alert" data-testid="admin-action-error">
      {message}
    </p>
  );
}

/** What an action did ("Verify identity: done."), read out when it appears. */
export function ActionDone({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="admin-done" role="status">
      {message}
    </p>
  );
}

/** Options of which at least one must be ticked, under a legend, with the line shown when none is. */
export interface Choices {
  legend: string;
  required: string;
  options: { value: string; label: string }[];
}

export interface TextDialogProps {
  /** Open when set: the dialog's title (the action's name). */
  title: string | null;
  /** The field's label: "Note" or "Reason". */
  label: string;
  /** False: no field, the dialog only asks to confirm (Cancel has the focus). */
  field?: boolean;
  /** The confirm button's text (default "Confirm"); `danger` makes it red. */
  confirmLabel?: string;
  danger?: boolean;
  /** A reason is required; a note may be empty. */
  required: boolean;
  /** A line under the title (what the action does). */
  hint?: string;
  /** Options of which at least one must be ticked (a resubmission's items, a refusal's reasons). */
  choices?: Choices;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (text: string, chosen: string[]) => void;
}

/** Asks for an action's note or reason, or only to confirm it, before it is sent; Escape cancels. */
export function TextDialog({
  title,
  label,
  required,
  hint,
  choices,
  field: withField = true,
  confirmLabel,
  danger = false,
  busy,
  onCancel,
  onConfirm,
}: TextDialogProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const cancel = useRef<ButtonRef>(null);
  const titleId = useId();
  const hintId = useId();
  const open = title !== null;

  useEffect(() => {
    if (!open) return;
    setText('');
    setChosen([]);
    setTouched(false);
    // A confirmation focuses Cancel, so Enter alone never runs what cannot be undone.
    const focus = () => (withField ? field.current?.focus() : cancel.current?.nativeElement?.focus());
    const timer = setTimeout(focus, 50);
    return () => clearTimeout(timer);
  }, [open, withField]);

  const missing = withField && required && text.trim() === '';
  const noChoice = !!choices && chosen.length === 0;
  const submit = () => {
    setTouched(true);
    if (!missing && !noChoice && !busy) onConfirm(text.trim(), chosen);
  };
  const toggle = (value: string, on: boolean) =>
    setChosen((old) => (on ? [...old.filter((v) => v !== value), value] : old.filter((v) => v !== value)));

  return (
    <CenterPopup visible={open} onMaskClick={busy ? undefined : onCancel} destroyOnClose className="admin-dialog-popup">
      <div
        className="admin-dialog"
        role={withField ? 'dialog' : 'alertdialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={hint ? hintId : undefined}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) onCancel();
        }}
      >
        <h3 id={titleId} className="admin-dialog__title">
          {title}
        </h3>
        {hint && (
          <p id={hintId} className="admin-dialog__hint">
            {hint}
          </p>
        )}
        {choices && (
          <fieldset className="admin-choices" aria-invalid={touched && noChoice}>
            <legend className="admin-field__label">{choices.legend} *</legend>
            {choices.options.map((choice) => (
              <label key={choice.value} className="admin-choice">
                <input
                  type="checkbox"
                  value={choice.value}
                  checked={chosen.includes(choice.value)}
                  onChange={(event) => toggle(choice.value, event.target.checked)}
                />{' '}
                {choice.label}
              </label>
            ))}
            {touched && noChoice && (
              <p className="admin-field__error" role="alert">
                {choices.required}
              </p>
            )}
          </fieldset>
        )}
        {withField && (
          <label className="admin-field">
            <span className="admin-field__label">
              {label}
              {required ? ' *' : ` (${t('admin_optional')})`}
            </span>
            <textarea
              ref={field}
              className="admin-input admin-textarea"
              aria-label={label}
              aria-required={required}
              aria-invalid={touched && missing}
              rows={4}
              maxLength={500}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
              }}
            />
          </label>
        )}
        {touched && missing && (
          <p className="admin-field__error" role="alert">
            {t('admin_reason_required')}
          </p>
        )}
        <div className="admin-dialog__actions">
          <Button ref={cancel} onClick={onCancel} disabled={busy}>
            {t('admin_cancel')}
          </Button>
          <Button color={danger ? 'danger' : 'primary'} onClick={submit} loading={busy} disabled={busy}>
            {confirmLabel ?? t('admin_confirm')}
          </Button>
        </div>
      </div>
    </CenterPopup>
  );
}
