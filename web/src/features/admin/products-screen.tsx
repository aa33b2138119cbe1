/**
 * `/admin/products`: the products as data (issue 55), for admins (the `settings`
 * permission). Each product shows the version in force and its terms (the periods
 * with their daily rates, the amounts, the fees), every version with the moment it
 * took effect, and every proposal (newest first) with what became of it. A change is
 * proposed by one staff member (the maker) and takes effect only once another (the
 * checker) approves it: Approve and Reject (with a reason) on the pending ones; the
 * server refuses the maker approving their own (50006), a change that breaks a
 * compliance cap (50007) and one overtaken by a newer version (10004), and the page
 * shows its words. "Propose a change" starts from the version in force; each
 * submission names its proposal with a fresh UUID, so a repeat is recorded once.
 */
import { useId, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { newIdempotencyKey } from '@/lib/idempotency';
import type { Wire } from '@/lib/wire';
import { useAdminDecideProductMutation, useAdminProductsQuery, useAdminProposeProductMutation } from './admin-api';
import { adminErrorMessage, type Tone } from './admin-format';
import { ActionDone, ActionError, KeyValues, LoadError, numeric, PageHeader, Section, Table, TextDialog, TextField, ToneTag } from './admin-ui';

type ProductLine = Wire['ProductLineView'];
type ProductTerms = Wire['ProductTerms'];
type Proposal = ProductLine['proposals'][number];

const STATUS_TONES: Record<string, Tone> = { pending: 'warning', approved: 'success', rejected: 'danger' };

/** The version in force (the last one when the list does not name it). */
export function inForceVersion(line: ProductLine): ProductLine['versions'][number] | undefined {
  return line.versions.find((version) => version.version === line.inForce) ?? line.versions[line.versions.length - 1];
}

/** The daily rates as one line: "6 days: 0.2 %/day · 24 days: 0.15 %/day". */
export function ratesLabel(t: TFunction, terms: ProductTerms): string {
  return terms.rateConfigs.map((rate) => t('admin_products_rate_of', { days: rate.periodDays, rate: rate.dailyRatePct })).join(' · ');
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

/** The terms in force: the periods with their daily rates, then the amounts and fees. */
function TermsView({ terms }: { terms: ProductTerms }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <Table className="admin-products__rates" columns={[t('admin_products_period'), numeric(t('admin_products_daily_rate'))]}>
        <tbody>
          {terms.rateConfigs.map((rate) => (
            <tr key={rate.periodDays} data-testid="product-rate">
              <td>{t('admin_products_days', { count: rate.periodDays })}</td>
              <td className="num">{t('admin_products_pct_day', { rate: rate.dailyRatePct })}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <KeyValues
        columns={2}
        rows={[
          [t('admin_products_enabled'), terms.enabled ? t('admin_yes') : t('admin_no')],
          [t('admin_products_amounts'), t('admin_products_amount_range', { min: money(terms.amountMin), max: money(terms.amountMax) })],
          [t('admin_products_amount_step'), money(terms.amountStep)],
          [t('admin_products_processing_fee'), `${terms.processingFeePct} %`],
          [t('admin_products_overdue_rate'), t('admin_products_pct_day', { rate: terms.overdueDailyRatePct })],
          [t('admin_products_max_total_cost'), `${terms.maxTotalCostPct} %`],
          [t('admin_products_repayments'), t('admin_products_amount_range', { min: money(terms.repayMin), max: money(terms.repayMax) })],
          [t('admin_products_cooling_off'), t('admin_products_days', { count: terms.coolingOffDays })],
          [t('admin_products_offer_valid'), t('admin_products_days', { count: terms.offerValidDays })],
          [
            t('admin_products_extensions'),
            terms.extensionDays.length
              ? t('admin_products_extensions_of', {
                  days: terms.extensionDays.join(', '),
                  max: terms.maxExtensions,
                })
              : t('admin_products_no_extensions'),
          ],
          [t('admin_products_income_share'), terms.maxIncomeSharePct ? `${terms.maxIncomeSharePct} %` : t('admin_products_no_rule')],
        ]}
      />
    </>
  );
}

/** The form's fields as typed (text), from the terms in force. */
interface Draft {
  enabled: boolean;
  amountMin: string;
  amountMax: string;
  amountStep: string;
  processingFeePct: string;
  overdueDailyRatePct: string;
  rates: Record<number, string>;
  effectiveAt: string;
  reason: string;
}

function draftOf(terms: ProductTerms): Draft {
  return {
    enabled: terms.enabled,
    amountMin: terms.amountMin,
    amountMax: terms.amountMax,
    amountStep: terms.amountStep,
    processingFeePct: terms.processingFeePct,
    overdueDailyRatePct: terms.overdueDailyRatePct,
    rates: Object.fromEntries(terms.rateConfigs.map((rate) => [rate.periodDays, rate.dailyRatePct])),
    effectiveAt: '',
    reason: '',
  };
}

/** "Propose a change": the terms in force, edited; sent with a reason and, optionally, a moment. */
function ProposeForm({ line, terms }: { line: ProductLine; terms: ProductTerms }) {
  const { t } = useTranslation();
  const enabledId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(terms));
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [propose, { isLoading }] = useAdminProposeProductMutation();
  const reason = draft.reason.trim();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((old) => ({ ...old, [key]: value }));
  const text = (key: 'amountMin' | 'amountMax' | 'amountStep' | 'processingFeePct' | 'overdueDailyRatePct') => ({
    value: draft[key],
    inputMode: 'decimal' as const,
    autoComplete: 'off',
    onChange: (event: { target: { value: string } }) => set(key, event.target.value),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!reason || isLoading) return;
    setError(null);
    setDone(null);
    const effectiveAt = localToUtc(draft.effectiveAt);
    const result = await propose({
      productId: line.productId,
      // One id per submission: a repeat of the same request is recorded once.
      proposalId: newIdempotencyKey(),
      terms: {
        ...terms,
        enabled: draft.enabled,
        amountMin: draft.amountMin.trim(),
        amountMax: draft.amountMax.trim(),
        amountStep: draft.amountStep.trim(),
        processingFeePct: draft.processingFeePct.trim(),
        overdueDailyRatePct: draft.overdueDailyRatePct.trim(),
        rateConfigs: terms.rateConfigs.map((rate) => ({
          periodDays: rate.periodDays,
          dailyRatePct: (draft.rates[rate.periodDays] ?? rate.dailyRatePct).trim(),
        })),
      },
      ...(effectiveAt ? { effectiveAt } : {}),
      reason,
    });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    setDone(t('admin_products_proposed'));
    setTouched(false);
    setDraft((old) => ({ ...old, reason: '', effectiveAt: '' }));
  };

  return (
    <form className="admin-form admin-products__form" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="product-propose">
      <h3 className="admin-subtitle">{t('admin_products_propose_title')}</h3>
      <p className="admin-muted">{t('admin_products_propose_hint')}</p>
      <div className="admin-products__fields">
        {terms.rateConfigs.map((rate) => (
          <TextField
            key={rate.periodDays}
            label={t('admin_products_rate_field', { days: rate.periodDays })}
            inputMode="decimal"
            autoComplete="off"
            value={draft.rates[rate.periodDays] ?? ''}
            onChange={(event) => set('rates', { ...draft.rates, [rate.periodDays]: event.target.value })}
          />
        ))}
        <TextField label={t('admin_products_amount_min')} {...text('amountMin')} />
        <TextField label={t('admin_products_amount_max')} {...text('amountMax')} />
        <TextField label={t('admin_products_amount_step')} {...text('amountStep')} />
        <TextField label={t('admin_products_processing_fee')} {...text('processingFeePct')} />
        <TextField label={t('admin_products_overdue_rate')} {...text('overdueDailyRatePct')} />
      </div>
      <div className="admin-choice">
        <input id={enabledId} type="checkbox" checked={draft.enabled} onChange={(event) => set('enabled', event.target.checked)} />
        <label htmlFor={enabledId}>{t('admin_products_enabled_field')}</label>
      </div>
      <TextField
        label={t('admin_products_effective_at')}
        type="datetime-local"
        hint={t('admin_products_effective_hint')}
        value={draft.effectiveAt}
        onChange={(event) => set('effectiveAt', event.target.value)}
      />
      <TextField
        label={t('admin_reason')}
        maxLength={500}
        autoComplete="off"
        hint={t('admin_products_reason_hint')}
        error={touched && !reason ? t('admin_reason_required') : null}
        value={draft.reason}
        onChange={(event) => set('reason', event.target.value)}
      />
      <ActionDone message={done} />
      <ActionError message={error} />
      <div>
        <Button type="submit" color="primary" size="small" loading={isLoading} disabled={isLoading}>
          {t('admin_products_propose')}
        </Button>
      </div>
    </form>
  );
}

/** One product: the version in force, its terms, the versions, the proposals and the form. */
function ProductSection({ line }: { line: ProductLine }) {
  const { t } = useTranslation();
  const dates = useDates();
  const [decide, { isLoading: busy }] = useAdminDecideProductMutation();
  const [rejecting, setRejecting] = useState<Proposal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const current = inForceVersion(line);
  const name = current?.terms.name ?? String(line.productId);

  const approve = async (proposal: Proposal) => {
    setError(null);
    setDone(null);
    const result = await decide({ action: 'approve', productId: line.productId, proposalId: proposal.proposalId });
    if ('error' in result) setError(adminErrorMessage(t, result.error));
    else setDone(t('admin_products_approved_done'));
  };

  const reject = async (proposal: Proposal, reason: string) => {
    setError(null);
    setDone(null);
    const result = await decide({ action: 'reject', productId: line.productId, proposalId: proposal.proposalId, reason });
    if ('error' in result) setError(adminErrorMessage(t, result.error));
    else setDone(t('admin_products_rejected_done'));
  };

  const versionColumns = [t('admin_products_version'), t('admin_products_effective_from'), t('admin_products_daily_rates'), t('admin_products_enabled')];
  const proposalColumns = [
    t('admin_products_status'),
    t('admin_products_maker'),
    t('admin_reason'),
    t('admin_products_takes_effect'),
    t('admin_products_daily_rates'),
    t('admin_products_checker'),
    t('admin_staff_actions'),
  ];

  return (
    <Section
      title={name}
      testId="product-line"
      extra={<ToneTag tone="primary" testId="product-in-force">{t('admin_products_in_force', { version: line.inForce })}</ToneTag>}
    >
      <ActionDone message={done} />
      <ActionError message={error} />

      <h3 className="admin-subtitle">{t('admin_products_terms_title')}</h3>
      {current ? <TermsView terms={current.terms} /> : <p className="admin-muted">—</p>}

      <h3 className="admin-subtitle">{t('admin_products_versions_title')}</h3>
      <Table className="admin-table--rows admin-products__versions" columns={versionColumns}>
        <tbody>
          {[...line.versions].reverse().map((version) => (
            <tr key={version.version} data-testid="product-version">
              <td>
                {version.version}
                {version.version === line.inForce && <div className="admin-muted">{t('admin_products_current')}</div>}
              </td>
              <td className="nowrap">{version.effectiveAt ? dates.dateTime(version.effectiveAt) : t('admin_products_from_start')}</td>
              <td>{ratesLabel(t, version.terms)}</td>
              <td>{version.terms.enabled ? t('admin_yes') : t('admin_no')}</td>
            </tr>
          ))}
        </tbody>
      </Table>

      <h3 className="admin-subtitle">{t('admin_products_proposals_title')}</h3>
      <Table className="admin-table--rows admin-products__proposals" busy={busy} columns={proposalColumns}>
        <tbody>
          {line.proposals.map((proposal) => (
            <tr key={proposal.proposalId} data-testid="product-proposal">
              <td>
                <ToneTag tone={STATUS_TONES[proposal.status] ?? 'default'}>
                  {t(`admin_products_status_${proposal.status}`, { defaultValue: proposal.status })}
                </ToneTag>
                {proposal.version !== null && proposal.version !== undefined && (
                  <div className="admin-muted">{t('admin_products_became', { version: proposal.version })}</div>
                )}
              </td>
              <td>
                <span title={proposal.maker.staffId}>{proposal.maker.username || proposal.maker.staffId}</span>
              </td>
              <td className="admin-products__reason">{proposal.reason}</td>
              <td className="nowrap">{dates.dateTime(proposal.effectiveAt)}</td>
              <td>{ratesLabel(t, proposal.terms)}</td>
              <td>
                {proposal.checker ? <span title={proposal.checker.staffId}>{proposal.checker.username || proposal.checker.staffId}</span> : '—'}
                {proposal.rejection && (
                  <div className="admin-products__reason">{t('admin_products_rejection', { reason: proposal.rejection })}</div>
                )}
              </td>
              <td>
                {proposal.status === 'pending' ? (
                  <div className="admin-actions">
                    <Button
                      size="mini"
                      color="primary"
                      aria-label={t('admin_products_approve_of', { username: proposal.maker.username })}
                      disabled={busy}
                      onClick={() => void approve(proposal)}
                    >
                      {t('admin_products_approve')}
                    </Button>
                    <Button
                      size="mini"
                      color="danger"
                      fill="outline"
                      aria-label={t('admin_products_reject_of', { username: proposal.maker.username })}
                      disabled={busy}
                      onClick={() => setRejecting(proposal)}
                    >
                      {t('admin_products_reject')}
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
              <td colSpan={proposalColumns.length} className="admin-empty">
                {t('admin_products_no_proposals')}
              </td>
            </tr>
          )}
        </tbody>
      </Table>

      {/* Keyed by the version in force: a new version starts the form from its terms. */}
      {current && <ProposeForm key={`${line.productId}-${line.inForce}`} line={line} terms={current.terms} />}

      <TextDialog
        title={rejecting ? t('admin_products_reject_title', { username: rejecting.maker.username }) : null}
        label={t('admin_reason')}
        required
        hint={t('admin_products_reject_hint')}
        confirmLabel={t('admin_products_reject')}
        danger
        busy={busy}
        onCancel={() => setRejecting(null)}
        onConfirm={(reason) => {
          const proposal = rejecting;
          if (!proposal) return;
          void reject(proposal, reason).finally(() => setRejecting(null));
        }}
      />
    </Section>
  );
}

export function ProductsScreen() {
  const { t } = useTranslation();
  const products = useAdminProductsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <div className="admin-page">
      <PageHeader title={t('admin_products_title')} hint={t('admin_products_hint')}>
        <Button size="small" onClick={() => void products.refetch()} loading={products.isFetching}>
          {t('admin_refresh')}
        </Button>
      </PageHeader>
      {products.isError && <LoadError error={products.error} onRetry={() => void products.refetch()} />}
      {!products.data && !products.isError && <p className="admin-muted">{t('admin_loading')}</p>}
      {products.data?.length === 0 && <p className="admin-muted">{t('admin_products_none')}</p>}
      {products.data?.map((line) => <ProductSection key={line.productId} line={line} />)}
    </div>
  );
}
