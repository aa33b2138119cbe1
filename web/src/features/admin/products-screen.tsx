/**
 * `/admin/products`: the products as data (issue 55), for admins (the `settings`
 * permission). Each product shows the version in force and its terms (the periods
 * with their daily rates, the amounts, the fees), every version with the moment it
 * took effect, and every proposal (newest first) with what became of it. A change is
 * proposed by one staff member (the maker) and takes effect only once another (the
 * checker) approves it: Approve and Reject (with a reason) on the pending ones; the
 * server refuses the maker approving their own (50006), a change that breaks a
 * compliance cap (50007) and one overtaken by a newer version (10004), and the page
 * shows its words. Each proposal shows what it changes from the version it was based
 * on. "Propose a change" starts from the latest approved version (perhaps one scheduled
 * for a moment still ahead: a proposal based on an older one could not be approved);
 * each submission names its proposal with a fresh UUID, so a repeat is recorded once. The
 * versions, proposals, decisions and the form's frame are change-proposals.tsx's,
 * shared with the lender's settings (settings-screen.tsx).
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/components/use-money';
import type { Wire } from '@/lib/wire';
import { useAdminDecideProductMutation, useAdminProductsQuery, useAdminProposeProductMutation } from './admin-api';
import { CheckboxField, KeyValues, numeric, Table, TextField } from './admin-ui';
import {
  ChangeForm,
  ChangePage,
  ChangeSection,
  changesColumn,
  inForceVersion,
  latestVersion,
  type ChangeColumn,
  type ChangeProposal,
  type ChangeVersion,
} from './change-proposals';

// The moment's conversion lives with the other shared parts; kept importable from here.
export { localToUtc } from './change-proposals';

type ProductLine = Wire['ProductLineView'];
type ProductTerms = Wire['ProductTerms'];

/** The daily rates as one line: "6 days: 0.2 %/day · 24 days: 0.15 %/day". */
export function ratesLabel(t: TFunction, terms: ProductTerms): string {
  return terms.rateConfigs.map((rate) => t('admin_products_rate_of', { days: rate.periodDays, rate: rate.dailyRatePct })).join(' · ');
}

/** Two decimals alike ("0.1" and "0.10"); as text when either is not a number. */
function sameDecimal(a: string | null | undefined, b: string | null | undefined): boolean {
  if ((a ?? '') === (b ?? '')) return true;
  if (!a?.trim() || !b?.trim()) return false;
  const [x, y] = [Number(a), Number(b)];
  return !Number.isNaN(x) && !Number.isNaN(y) && x === y;
}

/**
 * What a proposal changes from the version it was based on, named: each period's daily
 * rate changed ("12-day rate 0.15 → 0.1 %/day"), each period added or removed, then the
 * other terms changed ("processing fee", "amounts", …).
 */
export function productChanges(t: TFunction, before: ProductTerms, after: ProductTerms): string[] {
  const changed: string[] = [];
  const name = (key: string) => t(`admin_products_change_${key}`);
  if (before.name !== after.name) changed.push(name('name'));
  const rateBefore = new Map(before.rateConfigs.map((rate) => [rate.periodDays, rate.dailyRatePct]));
  const rateAfter = new Map(after.rateConfigs.map((rate) => [rate.periodDays, rate.dailyRatePct]));
  for (const [days, to] of rateAfter) {
    const from = rateBefore.get(days);
    if (from === undefined) changed.push(t('admin_products_change_period_added', { days, rate: to }));
    else if (!sameDecimal(from, to)) changed.push(t('admin_products_change_rate', { days, from, to }));
  }
  for (const days of rateBefore.keys()) {
    if (!rateAfter.has(days)) changed.push(t('admin_products_change_period_removed', { days }));
  }
  const differs: [string, boolean][] = [
    ['processing_fee', !sameDecimal(before.processingFeePct, after.processingFeePct)],
    [
      'amounts',
      !sameDecimal(before.amountMin, after.amountMin) ||
        !sameDecimal(before.amountMax, after.amountMax) ||
        !sameDecimal(before.amountStep, after.amountStep),
    ],
    ['enabled', before.enabled !== after.enabled],
    ['extensions', before.extensionDays.join(',') !== after.extensionDays.join(',') || before.maxExtensions !== after.maxExtensions],
    ['cooling_off', before.coolingOffDays !== after.coolingOffDays],
    ['offer_valid', before.offerValidDays !== after.offerValidDays],
    ['repayments', !sameDecimal(before.repayMin, after.repayMin) || !sameDecimal(before.repayMax, after.repayMax)],
    ['overdue_fee', !sameDecimal(before.overdueDailyRatePct, after.overdueDailyRatePct)],
    ['total_cost', !sameDecimal(before.maxTotalCostPct, after.maxTotalCostPct)],
    ['income_share', !sameDecimal(before.maxIncomeSharePct, after.maxIncomeSharePct)],
  ];
  for (const [key, yes] of differs) if (yes) changed.push(name(key));
  return changed;
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

/** The form's fields as typed (text), from the latest approved terms. */
interface Draft {
  enabled: boolean;
  amountMin: string;
  amountMax: string;
  amountStep: string;
  processingFeePct: string;
  overdueDailyRatePct: string;
  rates: Record<number, string>;
}

type AmountField = 'amountMin' | 'amountMax' | 'amountStep' | 'processingFeePct' | 'overdueDailyRatePct';

/** The amount fields in the form's order, with their labels. */
const AMOUNT_FIELDS: [AmountField, string][] = [
  ['amountMin', 'admin_products_amount_min'],
  ['amountMax', 'admin_products_amount_max'],
  ['amountStep', 'admin_products_amount_step'],
  ['processingFeePct', 'admin_products_processing_fee'],
  ['overdueDailyRatePct', 'admin_products_overdue_rate'],
];

function draftOf(terms: ProductTerms): Draft {
  return {
    enabled: terms.enabled,
    amountMin: terms.amountMin,
    amountMax: terms.amountMax,
    amountStep: terms.amountStep,
    processingFeePct: terms.processingFeePct,
    overdueDailyRatePct: terms.overdueDailyRatePct,
    rates: Object.fromEntries(terms.rateConfigs.map((rate) => [rate.periodDays, rate.dailyRatePct])),
  };
}

/** The latest approved terms with the draft's edits. */
function termsOf(terms: ProductTerms, draft: Draft): ProductTerms {
  return {
    ...terms,
    enabled: draft.enabled,
    ...Object.fromEntries(AMOUNT_FIELDS.map(([key]) => [key, draft[key].trim()])),
    rateConfigs: terms.rateConfigs.map((rate) => ({
      periodDays: rate.periodDays,
      dailyRatePct: (draft.rates[rate.periodDays] ?? rate.dailyRatePct).trim(),
    })),
  };
}

/** "Propose a change": the latest approved terms, edited; sent with a reason and, optionally, a moment. */
function ProposeForm({ line, terms }: { line: ProductLine; terms: ProductTerms }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(terms));
  const [propose] = useAdminProposeProductMutation();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((old) => ({ ...old, [key]: value }));

  return (
    <ChangeForm testId="product-propose" propose={(head) => propose({ ...head, productId: line.productId, terms: termsOf(terms, draft) })}>
      <div className="admin-changes__fields">
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
        {AMOUNT_FIELDS.map(([key, label]) => (
          <TextField
            key={key}
            label={t(label)}
            inputMode="decimal"
            autoComplete="off"
            value={draft[key]}
            onChange={(event) => set(key, event.target.value)}
          />
        ))}
      </div>
      <CheckboxField label={t('admin_products_enabled_field')} checked={draft.enabled} onChange={(checked) => set('enabled', checked)} />
    </ChangeForm>
  );
}

/** One product: the version in force, its terms, the versions, the proposals and the form. */
function ProductSection({ line }: { line: ProductLine }) {
  const { t } = useTranslation();
  const [decide] = useAdminDecideProductMutation();
  const current = inForceVersion<ProductTerms>(line);
  const latest = latestVersion<ProductTerms>(line);
  const rates: ChangeColumn<ChangeVersion<ProductTerms> | ChangeProposal<ProductTerms>> = {
    label: t('admin_products_daily_rates'),
    render: (item) => ratesLabel(t, item.terms),
  };
  const enabled: ChangeColumn<ChangeVersion<ProductTerms>> = {
    label: t('admin_products_enabled'),
    render: (version) => (version.terms.enabled ? t('admin_yes') : t('admin_no')),
  };
  return (
    <ChangeSection<ProductTerms>
      prefix="product"
      title={current?.terms.name ?? String(line.productId)}
      line={line}
      inForce={
        <>
          <h3 className="admin-subtitle">{t('admin_products_terms_title')}</h3>
          {current ? <TermsView terms={current.terms} /> : <p className="admin-muted">—</p>}
        </>
      }
      versionColumns={[rates, enabled]}
      proposalColumns={[rates, changesColumn<ProductTerms>(t, line, (before, after) => productChanges(t, before, after))]}
      decide={(decision) => decide({ ...decision, productId: line.productId })}
      // From the latest approved version (perhaps scheduled), keyed by it: a proposal based on
      // an older one could not be approved, and a new version starts the form afresh.
      form={latest && <ProposeForm key={`${line.productId}-${latest.version}`} line={line} terms={latest.terms} />}
    />
  );
}

export function ProductsScreen() {
  const { t } = useTranslation();
  const products = useAdminProductsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <ChangePage
      title={t('admin_products_title')}
      hint={t('admin_products_hint')}
      query={products}
      empty={products.data?.length === 0 ? t('admin_products_none') : null}
    >
      {products.data?.map((line) => <ProductSection key={line.productId} line={line} />)}
    </ChangePage>
  );
}
