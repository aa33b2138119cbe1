/**
 * Building blocks of the console's screens: a titled section, key–value lists,
 * a status tag, the pager, a JSON view and the dialog that asks for an action's
 * note or reason.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, CenterPopup, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { statusLabel, statusTone, type Tone } from './admin-format';

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

/** An error of an action, read out when it appears. */
export function ActionError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="admin-action-error" role="alert" data-testid="admin-action-error">
      {message}
    </p>
  );
}

export interface TextDialogProps {
  /** Open when set: the dialog's title (the action's name). */
  title: string | null;
  /** The field's label: "Note" or "Reason". */
  label: string;
  /** A reason is required; a note may be empty. */
  required: boolean;
  /** A line under the title (what the action does). */
  hint?: string;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (text: string) => void;
}

/** Asks for an action's note or reason before it is sent. */
export function TextDialog({ title, label, required, hint, busy, onCancel, onConfirm }: TextDialogProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const open = title !== null;

  useEffect(() => {
    if (!open) return;
    setText('');
    setTouched(false);
    const timer = setTimeout(() => field.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [open]);

  const missing = required && text.trim() === '';
  const submit = () => {
    setTouched(true);
    if (!missing && !busy) onConfirm(text.trim());
  };

  return (
    <CenterPopup visible={open} onMaskClick={busy ? undefined : onCancel} destroyOnClose className="admin-dialog-popup">
      <div className="admin-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h3 id={titleId} className="admin-dialog__title">
          {title}
        </h3>
        {hint && <p className="admin-dialog__hint">{hint}</p>}
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
              if (event.key === 'Escape' && !busy) onCancel();
            }}
          />
        </label>
        {touched && missing && (
          <p className="admin-field__error" role="alert">
            {t('admin_reason_required')}
          </p>
        )}
        <div className="admin-dialog__actions">
          <Button onClick={onCancel} disabled={busy}>
            {t('admin_cancel')}
          </Button>
          <Button color="primary" onClick={submit} loading={busy} disabled={busy}>
            {t('admin_confirm')}
          </Button>
        </div>
      </div>
    </CenterPopup>
  );
}
