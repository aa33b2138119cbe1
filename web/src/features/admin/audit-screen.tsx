/**
 * `/admin/audit`: the audit trail of staff actions (issue 55), for compliance and
 * admins (`audit.read`). Every console call a staff member made, refused ones too,
 * newest first, 50 a page: when, who, from where (the client address), the call, the
 * order and the borrower it named (links to their pages), any other target, and its
 * outcome. Filtered by staff username, borrower id and order id; the filters and the
 * page (`before`) live in the URL, so a reload or the back button keeps them. "Older"
 * pages with the answer's `next`; "Export CSV" downloads the actions matching the
 * filters (the newest 10,000) as `audit-trail.csv`, with the console's token.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { useDates } from '@/components/use-dates';
import { downloadFile } from '@/lib/save-file';
import type { StaffAction } from '@/lib/api-types';
import { adminApi, useAdminTrailQuery, type TrailRequest } from './admin-api';
import { adminErrorMessage } from './admin-format';
import { adminPaths, AUDIT_FILTER_KEYS, type AuditFilters } from './admin-paths';
import { adminSession } from './admin-session';
import { LoadError, PageHeader, Section, Table, TextField, ToneTag } from './admin-ui';

export const AUDIT_EXPORT_FILE = 'audit-trail.csv';

/** A call by what it does ("Place hold"), else its path; the path stays as the tooltip. */
export function callLabel(t: TFunction, call: string): string {
  const name = call.replace(/^\/admin\/api\//, '').replace(/\//g, '_');
  return name === call ? call : t(`admin_call_${name}`, { defaultValue: call });
}

/** The filters (and page) the URL holds. */
function filtersOf(search: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const key of AUDIT_FILTER_KEYS) {
    const value = search.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** Done (code 0), or refused with its code. */
function Outcome({ code }: { code: number }) {
  const { t } = useTranslation();
  return code === 0 ? (
    <ToneTag tone="success">{t('admin_audit_done')}</ToneTag>
  ) : (
    <ToneTag tone="danger">{t('admin_audit_refused', { code })}</ToneTag>
  );
}

function Row({ action }: { action: StaffAction }) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <tr data-testid="audit-row">
      <td className="nowrap">{dates.dateTime(action.at)}</td>
      <td>
        <span title={action.staffId}>{action.username}</span>
      </td>
      <td className="admin-mono">{action.clientIp || '—'}</td>
      <td>
        {callLabel(t, action.call)}
        <div className="admin-muted admin-mono">{action.call}</div>
      </td>
      <td>
        {action.orderId ? (
          <Link to={adminPaths.order(action.orderId)} className="admin-mono" title={action.orderId}>
            {action.orderId.slice(-12)}
          </Link>
        ) : (
          '—'
        )}
      </td>
      <td>
        {action.userId ? (
          <Link to={adminPaths.user(action.userId)} className="admin-mono" title={action.userId}>
            {action.userId.slice(-12)}
          </Link>
        ) : (
          '—'
        )}
      </td>
      <td className="admin-account">{action.target || '—'}</td>
      <td>
        <Outcome code={action.code} />
      </td>
    </tr>
  );
}

/**
 * "Export CSV": the actions matching the filters, saved as `audit-trail.csv` (the
 * answer is the file, or the envelope of a refusal).
 */
function ExportButton({ filters }: { filters: TrailRequest }) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onExport = async () => {
    setBusy(true);
    setError(null);
    try {
      const outcome = await downloadFile({
        path: '/admin/api/audit/export',
        body: { ...filters },
        token: adminSession.token(),
        fileName: AUDIT_EXPORT_FILE,
        type: 'text/csv',
      });
      if (outcome.ok) return;
      if (outcome.code === null) {
        setError(t('admin_audit_export_failed'));
        return;
      }
      // Refused: read the roles again through the console's calls, which also end a
      // session the server no longer knows (401, 20001, 7) and lead to the login.
      dispatch(adminApi.util.invalidateTags(['AdminMe']));
      const serverMessage = outcome.message ?? '';
      const key = `service_error_${outcome.code}`;
      const message = i18n.exists(key) ? t(key, { detail: serverMessage }) : serverMessage || t('admin_audit_export_failed');
      setError(adminErrorMessage(t, { code: outcome.code, message, serverMessage }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" color="primary" fill="outline" loading={busy} disabled={busy} onClick={() => void onExport()}>
        {t('admin_audit_export')}
      </Button>
      {error && (
        <p className="admin-action-error admin-audit__export-error" role="alert" data-testid="audit-export-error">
          {error}
        </p>
      )}
    </>
  );
}

export function AuditScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const filters = filtersOf(search);
  const { username, userId, orderId, before } = filters;
  const [typed, setTyped] = useState({ username: username ?? '', userId: userId ?? '', orderId: orderId ?? '' });
  useEffect(() => {
    setTyped({ username: username ?? '', userId: userId ?? '', orderId: orderId ?? '' });
  }, [username, userId, orderId]);

  const request: TrailRequest = { username, userId, orderId, before };
  const { data, isFetching, isError, error, refetch } = useAdminTrailQuery(request, { refetchOnMountOrArgChange: true });
  const filtered = !!(username || userId || orderId);

  const onFilter = (event: FormEvent) => {
    event.preventDefault();
    navigate(adminPaths.audit({ username: typed.username, userId: typed.userId, orderId: typed.orderId }));
  };

  const field = (key: keyof typeof typed, label: string, placeholder: string) => (
    <TextField
      inline
      label={label}
      placeholder={placeholder}
      autoCapitalize="none"
      spellCheck={false}
      value={typed[key]}
      onChange={(event) => setTyped((old) => ({ ...old, [key]: event.target.value }))}
    />
  );

  return (
    <div className="admin-page">
      <PageHeader title={t('admin_audit_title')} hint={t('admin_audit_hint')}>
        <div className="admin-actions">
          <Button size="small" onClick={() => void refetch()} loading={isFetching}>
            {t('admin_refresh')}
          </Button>
          <ExportButton filters={{ username, userId, orderId }} />
        </div>
      </PageHeader>

      <Section title={t('admin_audit_actions')}>
        <form className="admin-toolbar" onSubmit={onFilter} role="search" aria-label={t('admin_audit_filters')}>
          {field('username', t('admin_audit_filter_username'), 'alice')}
          {field('userId', t('admin_audit_filter_user'), t('admin_audit_filter_id_hint'))}
          {field('orderId', t('admin_audit_filter_order'), t('admin_audit_filter_id_hint'))}
          <div className="admin-toolbar__buttons">
            <Button type="submit" color="primary" size="small">
              {t('admin_apply_filter')}
            </Button>
            <Button
              size="small"
              disabled={!filtered && !before && !typed.username && !typed.userId && !typed.orderId}
              onClick={() => {
                setTyped({ username: '', userId: '', orderId: '' });
                navigate(adminPaths.audit());
              }}
            >
              {t('admin_clear_filter')}
            </Button>
          </div>
        </form>
        {before && <p className="admin-muted">{t('admin_audit_older_page')}</p>}
        {isError && <LoadError error={error} onRetry={() => void refetch()} />}
        <Table
          className="admin-table--rows admin-audit"
          busy={isFetching}
          columns={[
            t('admin_time'),
            t('admin_audit_who'),
            t('admin_audit_from'),
            t('admin_audit_call'),
            t('admin_order'),
            t('admin_audit_borrower'),
            t('admin_audit_other'),
            t('admin_audit_outcome'),
          ]}
        >
          <tbody>
            {data?.items.map((action) => <Row key={action.id} action={action} />)}
            {data && data.items.length === 0 && (
              <tr>
                <td colSpan={8} className="admin-empty">
                  {filtered ? t('admin_audit_none_filtered') : t('admin_audit_none')}
                </td>
              </tr>
            )}
          </tbody>
        </Table>
        {!data && !isError && <p className="admin-muted">{t('admin_loading')}</p>}
        {(before || data?.next) && (
          <nav className="admin-pager" aria-label={t('admin_paging')}>
            <Button size="small" disabled={!before} onClick={() => navigate(adminPaths.audit({ username, userId, orderId }))}>
              {t('admin_audit_newest')}
            </Button>
            <Button
              size="small"
              disabled={!data?.next || isFetching}
              onClick={() => {
                if (data?.next) navigate(adminPaths.audit({ username, userId, orderId, before: data.next }));
              }}
            >
              {t('admin_audit_older')}
            </Button>
          </nav>
        )}
      </Section>
    </div>
  );
}
