/**
 * `/admin/staff`: the staff accounts and their roles (issue 55), for admins (the
 * `staff` permission). The table lists every account: its roles, whether it is active
 * or disabled (and why), whether a second factor is enrolled, and whether its holder
 * has set a password yet. An admin creates an account (a username and its roles),
 * changes an account's roles, disables it (with a reason) or enables it again, and
 * resets its password. Creating and resetting answer a one-time setup link: the full
 * address is shown here once, with a copy button and its expiry, and never again.
 * One's own account has no actions (the server refuses changing one's own roles,
 * disabling oneself and resetting one's own password: another admin does them). Every
 * refusal shows the server's words.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import type { SetupLink, StaffAccount, StaffRole } from '@/lib/api-types';
import { useAdminCreateStaffMutation, useAdminStaffCommandMutation, useAdminStaffQuery, type StaffCommand } from './admin-api';
import { adminErrorMessage, roleLabel, rolesLabel, STAFF_ROLES } from './admin-format';
import { useAdminSession } from './admin-session';
import { ActionDone, ActionError, LoadError, PageHeader, Section, Table, TextDialog, TextField, ToneTag } from './admin-ui';

/** A setup link as this page shows it, once: whose, the full address, until when. */
interface ShownLink {
  username: string;
  url: string;
  expiresAt: string;
  /** A new account's link, or a password reset's. */
  kind: 'created' | 'reset';
}

/** The link's full address on this site (`path` is `/admin/setup#<token>`). */
export function setupUrl(link: SetupLink): string {
  return `${window.location.origin}${link.path}`;
}

/** Role checkboxes under a legend; `describe` adds each role's one-line description. */
function RoleChoices({
  legend,
  value,
  onChange,
  describe = false,
  invalid = false,
}: {
  legend: string;
  value: readonly StaffRole[];
  onChange: (roles: StaffRole[]) => void;
  describe?: boolean;
  invalid?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const toggle = (role: StaffRole, on: boolean) =>
    onChange(STAFF_ROLES.filter((r) => (r === role ? on : value.includes(r))));
  return (
    <fieldset className={`admin-choices admin-roles${describe ? ' admin-roles--described' : ''}`} aria-invalid={invalid}>
      <legend className="admin-field__label">{legend}</legend>
      {STAFF_ROLES.map((role) => (
        <div key={role} className="admin-roles__option">
          <label className="admin-choice">
            <input
              type="checkbox"
              value={role}
              checked={value.includes(role)}
              aria-describedby={describe ? `${id}-${role}` : undefined}
              onChange={(event) => toggle(role, event.target.checked)}
            />
            {roleLabel(t, role)}
          </label>
          {describe && (
            <span id={`${id}-${role}`} className="admin-muted admin-roles__hint">
              {t(`admin_role_${role}_hint`)}
            </span>
          )}
        </div>
      ))}
    </fieldset>
  );
}

/** The one-time setup link: its full address with a copy button, its expiry, and that it is shown only once. */
function OneTimeLink({ link, onClose }: { link: ShownLink; onClose: () => void }) {
  const { t } = useTranslation();
  const dates = useDates();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);

  useEffect(() => {
    setCopied(null);
    input.current?.focus();
    input.current?.select();
  }, [link]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the address is selected for Ctrl+C.
      input.current?.select();
      setCopied(false);
    }
  };

  return (
    <Section
      title={t(link.kind === 'created' ? 'admin_staff_link_created' : 'admin_staff_link_reset', { username: link.username })}
      testId="staff-setup-link"
    >
      <div className="admin-form">
        <p className="admin-hint" role="status">
          {t('admin_staff_link_once')}
        </p>
        <div className="admin-toolbar">
          <TextField
            ref={input}
            inline
            readOnly
            label={t('admin_staff_link')}
            className="admin-input admin-mono"
            value={link.url}
            onFocus={(event) => event.target.select()}
            data-testid="staff-setup-url"
          />
          <div className="admin-toolbar__buttons">
            <Button size="small" color="primary" onClick={() => void copy()}>
              {copied ? t('admin_staff_link_copied') : t('admin_staff_link_copy')}
            </Button>
          </div>
        </div>
        {copied === false && <p className="admin-muted">{t('admin_staff_link_copy_failed')}</p>}
        <p className="admin-muted" data-testid="staff-setup-expiry">
          {t('admin_staff_link_expires', { time: dates.dateTime(link.expiresAt) })}
        </p>
        <div>
          <Button size="small" onClick={onClose}>
            {t('admin_staff_link_close')}
          </Button>
        </div>
      </div>
    </Section>
  );
}

/** The form that creates an account: a username and its roles (each described). */
function CreateStaff({ onCreated }: { onCreated: (link: ShownLink) => void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [create, { isLoading }] = useAdminCreateStaffMutation();
  const name = username.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!name || roles.length === 0 || isLoading) return;
    setError(null);
    const result = await create({ username: name, roles });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    onCreated({ username: name.toLowerCase(), url: setupUrl(result.data), expiresAt: result.data.expiresAt, kind: 'created' });
    setUsername('');
    setRoles([]);
    setTouched(false);
  };

  return (
    <Section title={t('admin_staff_create')} testId="staff-create">
      <form className="admin-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        <p className="admin-muted">{t('admin_staff_create_hint')}</p>
        <TextField
          label={t('admin_username')}
          name="username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={64}
          placeholder="maria.reyes"
          hint={t('admin_staff_username_hint')}
          error={touched && !name ? t('admin_staff_username_required') : null}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <RoleChoices legend={t('admin_staff_roles')} value={roles} onChange={setRoles} describe invalid={touched && roles.length === 0} />
        {touched && roles.length === 0 && (
          <p className="admin-field__error" role="alert">
            {t('admin_staff_roles_required')}
          </p>
        )}
        <ActionError message={error} />
        <div>
          <Button type="submit" color="primary" size="small" loading={isLoading} disabled={isLoading}>
            {t('admin_staff_create_button')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

/** An account's roles, changed in place: the checkboxes and Save. */
function RolesEditor({
  account,
  busy,
  onSave,
  onCancel,
}: {
  account: StaffAccount;
  busy: boolean;
  onSave: (roles: StaffRole[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [roles, setRoles] = useState<StaffRole[]>(account.roles);
  const [touched, setTouched] = useState(false);
  return (
    <form
      className="admin-form"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (roles.length > 0 && !busy) onSave(roles);
      }}
    >
      <RoleChoices
        legend={t('admin_staff_roles_of', { username: account.username })}
        value={roles}
        onChange={setRoles}
        invalid={touched && roles.length === 0}
      />
      {touched && roles.length === 0 && (
        <p className="admin-field__error" role="alert">
          {t('admin_staff_roles_required')}
        </p>
      )}
      <div className="admin-actions">
        <Button type="submit" size="small" color="primary" loading={busy} disabled={busy}>
          {t('admin_staff_save_roles')}
        </Button>
        <Button size="small" onClick={onCancel} disabled={busy}>
          {t('admin_cancel')}
        </Button>
      </div>
    </form>
  );
}

function Status({ account }: { account: StaffAccount }) {
  const { t } = useTranslation();
  const dates = useDates();
  if (!account.disabledAt) return <ToneTag tone="success">{t('admin_staff_active')}</ToneTag>;
  return (
    <>
      <ToneTag tone="danger">{t('admin_staff_disabled')}</ToneTag>
      <div className="admin-muted">{dates.dateTime(account.disabledAt)}</div>
      {account.disabledReason && <div className="admin-staff__reason">{account.disabledReason}</div>}
    </>
  );
}

export function StaffScreen() {
  const { t } = useTranslation();
  const dates = useDates();
  const session = useAdminSession();
  const staff = useAdminStaffQuery(undefined, { refetchOnMountOrArgChange: true });
  const [command, { isLoading: busy }] = useAdminStaffCommandMutation();
  const [link, setLink] = useState<ShownLink | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [disabling, setDisabling] = useState<StaffAccount | null>(null);
  const [resetting, setResetting] = useState<StaffAccount | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const me = session?.auditor?.auditorId;

  /** Sends a command; answers whether it was done, showing the refusal or `doneText`. */
  const run = async (request: StaffCommand, account: StaffAccount, doneText: string) => {
    setError(null);
    setDone(null);
    const result = await command(request);
    if ('error' in result) {
      setError(`${account.username}: ${adminErrorMessage(t, result.error)}`);
      return false;
    }
    if (request.action === 'resetPassword' && result.data) {
      setLink({ username: account.username, url: setupUrl(result.data), expiresAt: result.data.expiresAt, kind: 'reset' });
    }
    setDone(doneText);
    return true;
  };

  const columns = [
    t('admin_username'),
    t('admin_staff_roles'),
    t('admin_staff_status'),
    t('admin_staff_second_factor'),
    t('admin_password'),
    t('admin_staff_created'),
    t('admin_staff_actions'),
  ];

  return (
    <div className="admin-page">
      <PageHeader title={t('admin_staff_title')} hint={t('admin_staff_hint')}>
        <Button size="small" onClick={() => void staff.refetch()} loading={staff.isFetching}>
          {t('admin_refresh')}
        </Button>
      </PageHeader>

      {link && <OneTimeLink link={link} onClose={() => setLink(null)} />}

      <Section title={t('admin_staff_accounts')} testId="staff-accounts">
        <ActionDone message={done} />
        <ActionError message={error} />
        {staff.isError && <LoadError error={staff.error} onRetry={() => void staff.refetch()} />}
        <Table className="admin-table--rows admin-staff" busy={staff.isFetching} columns={columns}>
          {staff.data?.map((account) => {
            const disabled = !!account.disabledAt;
            const own = account.staffId === me;
            return (
              <tbody key={account.staffId} data-testid="staff-row">
                <tr>
                  <td>
                    <strong>{account.username}</strong>
                    {own && <div className="admin-muted">{t('admin_staff_you')}</div>}
                  </td>
                  <td>{rolesLabel(t, account.roles) || '—'}</td>
                  <td>
                    <Status account={account} />
                  </td>
                  <td>{account.secondFactor ? t('admin_yes') : t('admin_no')}</td>
                  <td>{account.passwordSet ? t('admin_staff_password_set') : <span className="admin-muted">{t('admin_staff_password_waiting')}</span>}</td>
                  <td className="nowrap">{dates.dateTime(account.createdAt)}</td>
                  <td>
                    {own ? (
                      // The server refuses one's own roles, disabling and reset: another admin does them.
                      <span className="admin-muted">{t('admin_staff_own_account')}</span>
                    ) : (
                      <div className="admin-actions">
                        <Button
                          size="mini"
                          aria-expanded={editing === account.staffId}
                          aria-label={t('admin_staff_change_roles_of', { username: account.username })}
                          onClick={() => setEditing(editing === account.staffId ? null : account.staffId)}
                        >
                          {t('admin_staff_change_roles')}
                        </Button>
                        {disabled ? (
                          <Button
                            size="mini"
                            aria-label={t('admin_staff_enable_of', { username: account.username })}
                            disabled={busy}
                            onClick={() =>
                              void run({ action: 'enable', staffId: account.staffId }, account, t('admin_staff_enabled', { username: account.username }))
                            }
                          >
                            {t('admin_staff_enable')}
                          </Button>
                        ) : (
                          <Button
                            size="mini"
                            color="danger"
                            fill="outline"
                            aria-label={t('admin_staff_disable_of', { username: account.username })}
                            onClick={() => setDisabling(account)}
                          >
                            {t('admin_staff_disable')}
                          </Button>
                        )}
                        <Button
                          size="mini"
                          aria-label={t('admin_staff_reset_of', { username: account.username })}
                          onClick={() => setResetting(account)}
                        >
                          {t('admin_staff_reset')}
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
                {editing === account.staffId && !own && (
                  <tr className="admin-staff__editor">
                    <td colSpan={columns.length}>
                      <RolesEditor
                        account={account}
                        busy={busy}
                        onCancel={() => setEditing(null)}
                        onSave={(roles) =>
                          void run(
                            { action: 'assignRoles', staffId: account.staffId, roles },
                            account,
                            t('admin_staff_roles_saved', { username: account.username }),
                          ).then((ok) => ok && setEditing(null))
                        }
                      />
                    </td>
                  </tr>
                )}
              </tbody>
            );
          })}
          {staff.data?.length === 0 && (
            <tbody>
              <tr>
                <td colSpan={columns.length} className="admin-empty">
                  {t('admin_staff_none')}
                </td>
              </tr>
            </tbody>
          )}
        </Table>
        {!staff.data && !staff.isError && <p className="admin-muted">{t('admin_loading')}</p>}
      </Section>

      <CreateStaff
        onCreated={(created) => {
          setError(null);
          setDone(null);
          setLink(created);
        }}
      />

      <TextDialog
        title={disabling ? t('admin_staff_disable_title', { username: disabling.username }) : null}
        label={t('admin_reason')}
        required
        hint={t('admin_staff_disable_hint')}
        confirmLabel={t('admin_staff_disable')}
        danger
        busy={busy}
        onCancel={() => setDisabling(null)}
        onConfirm={(reason) => {
          const account = disabling;
          if (!account) return;
          void run(
            { action: 'disable', staffId: account.staffId, reason },
            account,
            t('admin_staff_disabled_done', { username: account.username }),
          ).finally(() => setDisabling(null));
        }}
      />
      <TextDialog
        title={resetting ? t('admin_staff_reset_title', { username: resetting.username }) : null}
        label=""
        field={false}
        required={false}
        hint={t('admin_staff_reset_hint')}
        confirmLabel={t('admin_staff_reset')}
        danger
        busy={busy}
        onCancel={() => setResetting(null)}
        onConfirm={() => {
          const account = resetting;
          if (!account) return;
          void run(
            { action: 'resetPassword', staffId: account.staffId },
            account,
            t('admin_staff_reset_done', { username: account.username }),
          ).finally(() => setResetting(null));
        }}
      />
    </div>
  );
}
