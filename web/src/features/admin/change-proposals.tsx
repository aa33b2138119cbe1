/**
 * What the console's changes as data (issue 55) have in common, whatever they change
 * (a product's terms, the lender's settings): a line of versions, each in force from
 * its moment, and the proposals (newest first) with what became of them. A change is
 * proposed by one staff member (the maker) and takes effect only once another (the
 * checker) approves it.
 *
 * `ChangeSection` shows a line: the version in force (the screen's own view of its
 * terms), every version (one whose moment is still ahead marked "Scheduled"), the proposals with Approve and Reject (a reason asked in a
 * dialog; the server's refusals, e.g. 50006 for the maker approving their own, shown in
 * the console's words) and the screen's form, which starts from the latest approved
 * version (`latestVersion`, perhaps scheduled): the server refuses to approve a
 * proposal made against an older one. `ChangeForm` is that form's frame: the
 * screen's fields, then "Takes effect at" (optional, the officer's local time), the
 * required reason and "Propose change"; each submission names its proposal with a
 * fresh UUID, so a repeat is recorded once. The test ids are the screen's `prefix`
 * followed by `-line`, `-in-force`, `-version`, `-proposal` and `-propose`.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { newIdempotencyKey } from '@/lib/idempotency';
import type { Wire } from '@/lib/wire';
import { adminErrorMessage, type Tone } from './admin-format';
import { ActionDone, ActionError, LoadError, PageHeader, Section, Table, TextDialog, TextField, ToneTag } from './admin-ui';

/** One version of a line, with `terms` of the line's kind. */
export type ChangeVersion<T> = Omit<Wire['VersionView_SettingsTerms'], 'terms'> & { terms: T };
/** One proposal of a line, with `terms` of the line's kind. */
export type ChangeProposal<T> = Omit<Wire['ProposalView_SettingsTerms'], 'terms'> & { terms: T };

/** A line of versions (oldest first) and proposals (newest first), as the list calls answer it. */
export interface ChangeLine<T> {
  inForce: number;
  versions: ChangeVersion<T>[];
  proposals: ChangeProposal<T>[];
}

/** The checker's decision on a proposal: a reason for a rejection only. */
export type Decision = { action: 'approve'; proposalId: string } | { action: 'reject'; proposalId: string; reason: string };

/** What a console call answers: its data, or its failure. */
export type Outcome = { data: unknown } | { error: unknown };

/** A table column of the screen's own: its heading and what it shows of a row. */
export interface ChangeColumn<V> {
  label: string;
  render: (item: V) => ReactNode;
}

const STATUS_TONES: Record<string, Tone> = { pending: 'warning', approved: 'success', rejected: 'danger' };

/** The version in force (the last one when the list does not name it). */
export function inForceVersion<T>(line: ChangeLine<T>): ChangeVersion<T> | undefined {
  return line.versions.find((version) => version.version === line.inForce) ?? line.versions[line.versions.length - 1];
}

/**
 * The latest approved version (the last one), perhaps scheduled for a moment still
 * ahead: what a proposal must start from, since the server refuses to approve one
 * based on an older version once a newer one was approved.
 */
export function latestVersion<T>(line: ChangeLine<T>): ChangeVersion<T> | undefined {
  return line.versions[line.versions.length - 1];
}

/**
 * The proposals' "Changes" column: what each proposal changes from the version it was
 * based on, named by `changes` ("Invite codes, FAQ"); "No change" when nothing, "—"
 * when that version is unknown.
 */
export function changesColumn<T>(
  t: TFunction,
  line: ChangeLine<T>,
  changes: (before: T, after: T) => string[],
): ChangeColumn<ChangeProposal<T>> {
  return {
    label: t('admin_changes_changes'),
    render: (proposal) => {
      const base = line.versions.find((version) => version.version === proposal.baseVersion);
      if (!base) return '—';
      return changes(base.terms, proposal.terms).join(', ') || t('admin_changes_no_change');
    },
  };
}

/**
 * A `datetime-local` value (the officer's local time, `2026-12-01T09:00`) as RFC 3339
 * UTC; undefined when empty or not a moment.
 */
export function localToUtc(value: string): string | undefined {
  if (!value.trim()) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A staff member by username (the id when unknown), the id on hover. */
function StaffName({ staff }: { staff: Wire['StaffName'] }) {
  return <span title={staff.staffId}>{staff.username || staff.staffId}</span>;
}

/**
 * Every version, newest first, with the moment each takes effect (the one in force and
 * any still ahead, "Scheduled", marked) and the screen's columns.
 */
function VersionsTable<T>({ line, testId, columns }: { line: ChangeLine<T>; testId: string; columns: ChangeColumn<ChangeVersion<T>>[] }) {
  const { t } = useTranslation();
  const dates = useDates();
  const now = Date.now();
  return (
    <>
      <h3 className="admin-subtitle">{t('admin_changes_versions_title')}</h3>
      <Table
        className="admin-table--rows admin-changes__versions"
        columns={[t('admin_changes_version'), t('admin_changes_effective_from'), ...columns.map((column) => column.label)]}
      >
        <tbody>
          {[...line.versions].reverse().map((version) => (
            <tr key={version.version} data-testid={testId}>
              <td>
                {version.version}
                {version.version === line.inForce && <div className="admin-muted">{t('admin_changes_current')}</div>}
                {version.effectiveAt && Date.parse(version.effectiveAt) > now && (
                  <div className="admin-muted">{t('admin_changes_scheduled')}</div>
                )}
              </td>
              <td className="nowrap">{version.effectiveAt ? dates.dateTime(version.effectiveAt) : t('admin_changes_from_start')}</td>
              {columns.map((column) => (
                <td key={column.label}>{column.render(version)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

/**
 * The proposals, newest first: status (and the version it became), maker, reason,
 * moment, the screen's columns, checker (and a rejection's reason); Approve and Reject
 * on the pending ones, with what the decision did or why the server refused it.
 */
function ProposalsTable<T>({
  line,
  testId,
  columns,
  decide,
}: {
  line: ChangeLine<T>;
  testId: string;
  columns: ChangeColumn<ChangeProposal<T>>[];
  decide: (decision: Decision) => Promise<Outcome>;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState<ChangeProposal<T> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = async (decision: Decision) => {
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      const result = await decide(decision);
      if ('error' in result) setError(adminErrorMessage(t, result.error));
      else setDone(t(decision.action === 'approve' ? 'admin_changes_approved_done' : 'admin_changes_rejected_done'));
    } finally {
      setBusy(false);
    }
  };

  const headings = [
    t('admin_changes_status'),
    t('admin_changes_maker'),
    t('admin_reason'),
    t('admin_changes_takes_effect'),
    ...columns.map((column) => column.label),
    t('admin_changes_checker'),
    t('admin_staff_actions'),
  ];

  return (
    <>
      <ActionDone message={done} />
      <ActionError message={error} />
      <h3 className="admin-subtitle">{t('admin_changes_proposals_title')}</h3>
      <Table className="admin-table--rows admin-changes__proposals" busy={busy} columns={headings}>
        <tbody>
          {line.proposals.map((proposal) => (
            <tr key={proposal.proposalId} data-testid={testId}>
              <td>
                <ToneTag tone={STATUS_TONES[proposal.status] ?? 'default'}>
                  {t(`admin_changes_status_${proposal.status}`, { defaultValue: proposal.status })}
                </ToneTag>
                {proposal.version !== null && proposal.version !== undefined && (
                  <div className="admin-muted">{t('admin_changes_became', { version: proposal.version })}</div>
                )}
              </td>
              <td>
                <StaffName staff={proposal.maker} />
              </td>
              <td className="admin-changes__reason">{proposal.reason}</td>
              <td className="nowrap">{dates.dateTime(proposal.effectiveAt)}</td>
              {columns.map((column) => (
                <td key={column.label}>{column.render(proposal)}</td>
              ))}
              <td>
                {proposal.checker ? <StaffName staff={proposal.checker} /> : '—'}
                {proposal.rejection && (
                  <div className="admin-changes__reason">{t('admin_changes_rejection', { reason: proposal.rejection })}</div>
                )}
              </td>
              <td>
                {proposal.status === 'pending' ? (
                  <div className="admin-actions">
                    <Button
                      size="mini"
                      color="primary"
                      aria-label={t('admin_changes_approve_of', { username: proposal.maker.username })}
                      disabled={busy}
                      onClick={() => void run({ action: 'approve', proposalId: proposal.proposalId })}
                    >
                      {t('admin_changes_approve')}
                    </Button>
                    <Button
                      size="mini"
                      color="danger"
                      fill="outline"
                      aria-label={t('admin_changes_reject_of', { username: proposal.maker.username })}
                      disabled={busy}
                      onClick={() => setRejecting(proposal)}
                    >
                      {t('admin_changes_reject')}
                    </Button>
                  </div>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
          {line.proposals.length === 0 && (
            <tr>
              <td colSpan={headings.length} className="admin-empty">
                {t('admin_changes_no_proposals')}
              </td>
            </tr>
          )}
        </tbody>
      </Table>

      <TextDialog
        title={rejecting ? t('admin_changes_reject_title', { username: rejecting.maker.username }) : null}
        label={t('admin_reason')}
        required
        hint={t('admin_changes_reject_hint')}
        confirmLabel={t('admin_changes_reject')}
        danger
        busy={busy}
        onCancel={() => setRejecting(null)}
        onConfirm={(reason) => {
          const proposal = rejecting;
          if (!proposal) return;
          void run({ action: 'reject', proposalId: proposal.proposalId, reason }).finally(() => setRejecting(null));
        }}
      />
    </>
  );
}

/**
 * A line in its section, titled `title`: "Version n in force", the screen's view of
 * the terms in force (`inForce`), the versions, the proposals and the screen's form.
 */
export function ChangeSection<T>({
  prefix,
  title,
  line,
  inForce,
  versionColumns,
  proposalColumns,
  decide,
  form,
}: {
  /** The test ids' start: `product`, `settings`. */
  prefix: string;
  title: ReactNode;
  line: ChangeLine<T>;
  inForce: ReactNode;
  versionColumns: ChangeColumn<ChangeVersion<T>>[];
  proposalColumns: ChangeColumn<ChangeProposal<T>>[];
  decide: (decision: Decision) => Promise<Outcome>;
  form: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Section
      title={title}
      testId={`${prefix}-line`}
      extra={<ToneTag tone="primary" testId={`${prefix}-in-force`}>{t('admin_changes_in_force', { version: line.inForce })}</ToneTag>}
    >
      {inForce}
      <VersionsTable line={line} testId={`${prefix}-version`} columns={versionColumns} />
      <ProposalsTable line={line} testId={`${prefix}-proposal`} columns={proposalColumns} decide={decide} />
      {form}
    </Section>
  );
}

/** What a screen's list query gives the page: its state and a way to read it again. */
export interface ListQuery {
  isFetching: boolean;
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/**
 * A changes screen's page: its title and line with Refresh, then the list's failure
 * (with Retry), "Loading…", `empty` (when the list has nothing) or the lines.
 */
export function ChangePage({
  title,
  hint,
  query,
  empty,
  children,
}: {
  title: string;
  hint: string;
  query: ListQuery;
  /** What to say when the list answered nothing; null otherwise. */
  empty: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="admin-page">
      <PageHeader title={title} hint={hint}>
        <Button size="small" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('admin_refresh')}
        </Button>
      </PageHeader>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isLoading && <p className="admin-muted">{t('admin_loading')}</p>}
      {empty && <p className="admin-muted">{empty}</p>}
      {children}
    </div>
  );
}

/** What every proposal carries besides its terms. */
export interface ProposalHead {
  proposalId: string;
  effectiveAt?: string;
  reason: string;
}

/**
 * "Propose a change": the screen's fields (`children`), then the moment it would take
 * effect (optional), the reason (required) and the button. `propose` sends the terms
 * with the head given; after it succeeds the moment and the reason are cleared (the
 * fields keep what was typed: the form is keyed by the latest approved version, so a
 * new version starts it afresh).
 */
export function ChangeForm({
  testId,
  propose,
  children,
}: {
  testId: string;
  propose: (head: ProposalHead) => Promise<Outcome>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [effectiveAt, setEffectiveAt] = useState('');
  const [reasonText, setReasonText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const reason = reasonText.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!reason || busy) return;
    setError(null);
    setDone(null);
    setBusy(true);
    const moment = localToUtc(effectiveAt);
    try {
      // One id per submission: a repeat of the same request is recorded once.
      const result = await propose({ proposalId: newIdempotencyKey(), ...(moment ? { effectiveAt: moment } : {}), reason });
      if ('error' in result) {
        setError(adminErrorMessage(t, result.error));
        return;
      }
      setDone(t('admin_changes_proposed'));
      setTouched(false);
      setReasonText('');
      setEffectiveAt('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-form admin-changes__form" onSubmit={(event) => void onSubmit(event)} noValidate data-testid={testId}>
      <h3 className="admin-subtitle">{t('admin_changes_propose_title')}</h3>
      <p className="admin-muted">{t('admin_changes_propose_hint')}</p>
      {children}
      <TextField
        label={t('admin_changes_effective_at')}
        type="datetime-local"
        hint={t('admin_changes_effective_hint')}
        value={effectiveAt}
        onChange={(event) => setEffectiveAt(event.target.value)}
      />
      <TextField
        label={t('admin_reason')}
        maxLength={500}
        autoComplete="off"
        hint={t('admin_changes_reason_hint')}
        error={touched && !reason ? t('admin_reason_required') : null}
        value={reasonText}
        onChange={(event) => setReasonText(event.target.value)}
      />
      <ActionDone message={done} />
      <ActionError message={error} />
      <div>
        <Button type="submit" color="primary" size="small" loading={busy} disabled={busy}>
          {t('admin_changes_propose')}
        </Button>
      </div>
    </form>
  );
}
