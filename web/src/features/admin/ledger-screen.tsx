/**
 * `/admin/ledger`: the books (PRODUCT.md 7). The trial balance first, with the
 * sum of every account's balance, which must read zero (green when it does, red
 * when it does not); then the journal entries with their postings (debits
 * positive, credits negative on the wire), filtered by order id or account
 * (`?orderId=`, `?account=`) and paged.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { minorToText, toMinor } from '@/lib/money';
import { useAdminJournalQuery, useAdminTrialBalanceQuery } from './admin-api';
import { accountLabel, adminErrorMessage } from './admin-format';
import { adminPaths } from './admin-paths';
import { useCan } from './admin-session';
import { BookByBucket } from './collections-screen';
import type { AccountBalance, JournalEntry, LedgerAccount, TrialBalance } from '@/lib/api-types';
import { ActionError, numeric, PageHeader, Pager, Section, Table, TextField } from './admin-ui';

export const JOURNAL_PAGE_SIZE = 25;

/** A signed decimal string ("-30000.00") in minor units; 0 when it is not one. */
export function signedMinor(value: string): bigint {
  const text = value.trim();
  const negative = text.startsWith('-');
  const minor = toMinor(negative ? text.slice(1) : text) ?? 0n;
  return negative ? -minor : minor;
}

/** Whether a trial-balance sum reads zero ("0.00", "-0.00", "0"). */
export function isZero(sum: string): boolean {
  return signedMinor(sum) === 0n && /^-?\d+(\.\d+)?$/.test(sum.trim());
}

function DebitCredit({ amount }: { amount: string }) {
  const money = useMoney();
  const minor = signedMinor(amount);
  const abs = minorToText(minor < 0n ? -minor : minor);
  return (
    <>
      {/* A settled account (balance zero) says so, rather than two empty cells. */}
      <td className="num">{minor > 0n ? money(abs) : minor === 0n ? <span className="admin-muted">{money('0')}</span> : ''}</td>
      <td className="num">{minor < 0n ? money(abs) : ''}</td>
    </>
  );
}

/**
 * An account by its human name ("Borrower wallet · Ana Santos"), with the journal's
 * name of it (the id) as the tooltip; a click shows its journal entries.
 */
function AccountButton({ account, onAccount }: { account: LedgerAccount; onAccount: (account: string) => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="admin-link-button admin-account"
      onClick={() => onAccount(account.account)}
      title={`${account.account} · ${t('admin_filter_by_account')}`}
      data-account={account.account}
    >
      {accountLabel(t, account)}
    </button>
  );
}

function TrialBalanceView({ data, onAccount }: { data: TrialBalance; onAccount: (account: string) => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const zero = isZero(data.sum) && data.balanced !== false;
  const debits = data.accounts.reduce((total, a) => total + (signedMinor(a.balance) > 0n ? signedMinor(a.balance) : 0n), 0n);
  const credits = data.accounts.reduce((total, a) => total + (signedMinor(a.balance) < 0n ? -signedMinor(a.balance) : 0n), 0n);
  return (
    <>
      <div className={`admin-sum ${zero ? 'admin-sum--zero' : 'admin-sum--off'}`} role="status">
        <span className="admin-sum__label">{t('admin_trial_sum')}</span>
        <span className="admin-sum__value" data-testid="trial-balance-sum" data-zero={zero}>
          {money(data.sum)}
        </span>
        <span className="admin-sum__verdict">{zero ? t('admin_balanced') : t('admin_unbalanced')}</span>
      </div>
      <Table
        className="admin-table--compact"
        columns={[t('admin_account'), numeric(t('admin_postings')), numeric(t('admin_debit')), numeric(t('admin_credit'))]}
      >
        <tbody>
          {data.accounts.map((account: AccountBalance) => (
            <tr key={account.account}>
              <td>
                <AccountButton account={account} onAccount={onAccount} />
              </td>
              <td className="num">{account.postings}</td>
              <DebitCredit amount={account.balance} />
            </tr>
          ))}
          {data.accounts.length === 0 && (
            <tr>
              <td colSpan={4} className="admin-empty">
                {t('admin_no_accounts')}
              </td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('admin_totals')}</th>
            <td />
            <td className="num">{money(minorToText(debits))}</td>
            <td className="num">{money(minorToText(credits))}</td>
          </tr>
        </tfoot>
      </Table>
    </>
  );
}

function Entries({ entries, onAccount }: { entries: JournalEntry[]; onAccount: (account: string) => void }) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <Table
      className="admin-journal"
      columns={[
        t('admin_time'),
        t('admin_entry'),
        t('admin_order'),
        t('admin_account'),
        numeric(t('admin_debit')),
        numeric(t('admin_credit')),
      ]}
    >
      {entries.map((entry) => (
        <tbody key={entry.entryId} className="admin-journal__entry" data-testid="journal-entry">
          {entry.postings.map((posting, index) => (
            <tr key={posting.postingNo}>
              {index === 0 && (
                <>
                  <td rowSpan={entry.postings.length} className="nowrap">
                    {dates.dateTime(entry.at)}
                  </td>
                  <td rowSpan={entry.postings.length}>
                    {entry.code ? t(`admin_entry_${entry.code}`, { defaultValue: entry.description }) : entry.description}
                    <div className="admin-muted admin-mono">{entry.entryId}</div>
                  </td>
                  <td rowSpan={entry.postings.length}>
                    {entry.orderId ? (
                      <Link to={adminPaths.order(entry.orderId)} className="admin-mono" title={entry.orderId}>
                        {entry.orderNo || entry.orderId.slice(-12)}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </>
              )}
              <td>
                <AccountButton account={posting} onAccount={onAccount} />
              </td>
              <DebitCredit amount={posting.amount} />
            </tr>
          ))}
        </tbody>
      ))}
      {entries.length === 0 && (
        <tbody>
          <tr>
            <td colSpan={6} className="admin-empty">
              {t('admin_no_entries')}
            </td>
          </tr>
        </tbody>
      )}
    </Table>
  );
}

export function LedgerScreen() {
  const { t } = useTranslation();
  const canCollect = useCan('collections');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const orderId = search.get('orderId')?.trim() || undefined;
  const account = search.get('account')?.trim() || undefined;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [orderInput, setOrderInput] = useState(orderId ?? '');
  const [accountInput, setAccountInput] = useState(account ?? '');
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    setOrderInput(orderId ?? '');
    setAccountInput(account ?? '');
  }, [orderId, account]);

  const trial = useAdminTrialBalanceQuery(undefined, { refetchOnMountOrArgChange: true });
  const journal = useAdminJournalQuery(
    { orderId, account, page, pageSize: JOURNAL_PAGE_SIZE },
    { refetchOnMountOrArgChange: true },
  );

  const go = (filter: { orderId?: string; account?: string }, nextPage = 1) => {
    const path = adminPaths.ledger(filter);
    navigate(nextPage > 1 ? `${path}${path.includes('?') ? '&' : '?'}page=${nextPage}` : path);
  };

  const onFilter = (event: FormEvent) => {
    event.preventDefault();
    const o = orderInput.trim();
    const a = accountInput.trim();
    if (o && a) {
      setFormError(t('admin_filter_one'));
      return;
    }
    setFormError(null);
    go({ orderId: o || undefined, account: a || undefined });
  };

  const byAccount = (name: string) => go({ account: name });

  return (
    <div className="admin-page">
      <PageHeader title={t('admin_ledger_title')} hint={t('admin_ledger_hint')}>
        <Button
          size="small"
          onClick={() => {
            void trial.refetch();
            void journal.refetch();
          }}
          loading={trial.isFetching || journal.isFetching}
        >
          {t('admin_refresh')}
        </Button>
      </PageHeader>

      <Section title={t('admin_trial_balance')} testId="trial-balance">
        {trial.data ? (
          <TrialBalanceView data={trial.data} onAccount={byAccount} />
        ) : trial.isError ? (
          <ActionError message={adminErrorMessage(t, trial.error)} />
        ) : (
          <p className="admin-muted">{t('admin_loading')}</p>
        )}
      </Section>

      <Section title={t('admin_journal')}>
        <form className="admin-toolbar" onSubmit={onFilter}>
          <TextField
            inline
            label={t('admin_filter_order')}
            placeholder="HL-2611-000010"
            value={orderInput}
            onChange={(event) => setOrderInput(event.target.value)}
          />
          <TextField
            inline
            label={t('admin_filter_account')}
            placeholder={t('admin_filter_account_hint')}
            value={accountInput}
            onChange={(event) => setAccountInput(event.target.value)}
          />
          <div className="admin-toolbar__buttons">
            <Button type="submit" color="primary" size="small">
              {t('admin_apply_filter')}
            </Button>
            <Button
              size="small"
              disabled={!orderId && !account && !orderInput && !accountInput}
              onClick={() => {
                setFormError(null);
                setOrderInput('');
                setAccountInput('');
                go({});
              }}
            >
              {t('admin_clear_filter')}
            </Button>
          </div>
        </form>
        {(orderId || account) && (
          <p className="admin-muted">
            {orderId ? t('admin_filtered_order', { id: orderId }) : t('admin_filtered_account', { account })}
          </p>
        )}
        <ActionError message={formError ?? (journal.isError ? adminErrorMessage(t, journal.error) : null)} />
        {journal.data ? (
          <>
            <Entries entries={journal.data.entries} onAccount={byAccount} />
            {journal.data.total > 0 && (
              <Pager
                page={page}
                pageSize={journal.data.pageSize}
                total={journal.data.total}
                onPage={(next) => go({ orderId, account }, next)}
              />
            )}
          </>
        ) : (
          !journal.isError && <p className="admin-muted">{t('admin_loading')}</p>
        )}
      </Section>
      {/* The book by bucket lives with collections; a finance officer without
          them finds it here, beside the ledger it reconciles to. */}
      {!canCollect && <BookByBucket />}
    </div>
  );
}
