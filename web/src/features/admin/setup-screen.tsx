/**
 * `/admin/setup#<token>`: where a one-time setup link leads (issue 55), outside the
 * signed-in console like the login. The token is the part after `#` (never sent to
 * the server in a request line, nor kept in its logs). The page shows whose account
 * the link opens and, when the link enrolls a second factor, its QR code and secret
 * for an authenticator app with a field for the 6-digit code it shows; the holder
 * chooses a password (at least 8 characters, typed twice). Done, the login says the
 * account is ready. A dead link (expired, used, replaced) says so and what to do:
 * ask an admin for a new one.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import type { SecondFactorEnrollment } from '@/lib/api-types';
import { useAdminCompleteSetupMutation, useAdminSetupInfoQuery } from './admin-api';
import { adminErrorMessage, badInput, codeDigits } from './admin-format';
import { CONSOLE_LANGUAGES } from './admin-i18n';
import { adminPaths } from './admin-paths';
import { ActionError, LoadError, TextField } from './admin-ui';

/** The fewest characters of a staff password (the server's `MIN_AUDITOR_PASSWORD_CHARS`). */
export const MIN_PASSWORD_CHARS = 8;

/** What the login screen shows after a setup: the account is ready. */
export interface SetupReady {
  ready: string;
}

type FieldErrors = { password?: string; repeat?: string; code?: string };

function Card({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="admin-login">
      <div className="admin-login__card admin-setup">
        <div className="admin-nav__brand admin-login__brand">
          <span className="admin-nav__logo" aria-hidden="true">
            ✓
          </span>
          <span>{t('admin_console_title')}</span>
        </div>
        {children}
        <LanguageSwitch languages={CONSOLE_LANGUAGES} />
      </div>
    </main>
  );
}

/** A link that no longer works: why (the server's words, when it gave them) and what to do. */
function DeadLink({ message, detail }: { message: string; detail?: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <h1 className="admin-login__title">{t('admin_setup_dead_title')}</h1>
      <p className="admin-action-error" role="alert" data-testid="setup-dead">
        {message}
        {detail && (
          <>
            <br />
            {t('admin_setup_server_said', { detail })}
          </>
        )}
      </p>
      <p className="admin-muted">{t('admin_setup_dead_hint')}</p>
      <Link to={adminPaths.login}>{t('admin_setup_to_login')}</Link>
    </Card>
  );
}

/** The second factor to add: the QR code to scan, and the secret to type by hand. */
function Enrollment({ factor }: { factor: SecondFactorEnrollment }) {
  const { t } = useTranslation();
  return (
    <section className="admin-setup__factor" aria-labelledby="admin-setup-factor">
      <h2 id="admin-setup-factor" className="admin-subtitle">
        {t('admin_setup_factor_title')}
      </h2>
      <p className="admin-muted">{t('admin_setup_factor_hint')}</p>
      <img
        className="admin-setup__qr"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(factor.qrSvg)}`}
        alt={t('admin_setup_qr_alt')}
        width={200}
        height={200}
        data-testid="setup-qr"
      />
      <p className="admin-muted">{t('admin_setup_secret_hint')}</p>
      <code className="admin-setup__secret admin-mono" data-testid="setup-secret">
        {factor.secret}
      </code>
    </section>
  );
}

export function SetupScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const token = location.hash.replace(/^#/, '').trim();
  const info = useAdminSetupInfoQuery(token, { skip: !token, refetchOnMountOrArgChange: true });
  const [complete, { isLoading }] = useAdminCompleteSetupMutation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  /** The link died while the page was open: the server's words. */
  const [dead, setDead] = useState<string | null>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  if (!token) return <DeadLink message={t('admin_setup_no_token')} />;
  if (dead !== null) return <DeadLink message={t('admin_setup_dead')} detail={dead} />;
  if (info.isError) {
    const bad = badInput(info.error);
    return bad?.field === 'token' ? (
      <DeadLink message={t('admin_setup_dead')} detail={bad.reason} />
    ) : (
      <Card>
        <h1 className="admin-login__title">{t('admin_setup_title')}</h1>
        <LoadError error={info.error} onRetry={() => void info.refetch()} />
      </Card>
    );
  }
  if (!info.data) {
    return (
      <Card>
        <p className="admin-muted">{t('admin_loading')}</p>
      </Card>
    );
  }
  const { username, secondFactor } = info.data;

  const check = (): FieldErrors => {
    const found: FieldErrors = {};
    if ([...password].length < MIN_PASSWORD_CHARS) found.password = t('admin_setup_password_short', { n: MIN_PASSWORD_CHARS });
    else if (repeat !== password) found.repeat = t('admin_setup_password_mismatch');
    if (secondFactor && code.length !== 6) found.code = t('admin_code_six_digits');
    return found;
  };

  const focusFirst = (found: FieldErrors) => {
    if (found.code && secondFactor) codeInput.current?.focus();
    else if (found.password) passwordInput.current?.focus();
    else if (found.repeat) repeatInput.current?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setError(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    const result = await complete({ token, password, ...(secondFactor ? { totpCode: code } : {}) });
    if ('data' in result && result.data) {
      navigate(adminPaths.login, { replace: true, state: { ready: result.data.username } satisfies SetupReady });
      return;
    }
    const failure = 'error' in result ? result.error : undefined;
    const bad = badInput(failure);
    if (bad?.field === 'token') setDead(bad.reason);
    else if (bad?.field === 'totpCode') {
      const next = { code: t('admin_setup_code_wrong') };
      setErrors(next);
      focusFirst(next);
    } else if (bad?.field === 'password') {
      const next = { password: t('admin_setup_password_refused', { detail: bad.reason }) };
      setErrors(next);
      focusFirst(next);
    } else setError(adminErrorMessage(t, failure));
  };

  return (
    <Card>
      <form className="admin-form admin-setup__form" onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="admin-setup-title">
        <h1 id="admin-setup-title" className="admin-login__title">
          {t('admin_setup_title')}
        </h1>
        <p className="admin-muted">
          {t('admin_setup_for')} <strong data-testid="setup-username">{username}</strong>
        </p>
        {secondFactor && <Enrollment factor={secondFactor} />}
        {secondFactor && (
          <TextField
            ref={codeInput}
            label={t('admin_code')}
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            hint={t('admin_setup_code_hint')}
            error={errors.code}
            value={code}
            onChange={(event) => setCode(codeDigits(event.target.value))}
          />
        )}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        <TextField
          ref={passwordInput}
          label={t('admin_setup_password')}
          name="new-password"
          type="password"
          autoComplete="new-password"
          hint={t('admin_setup_password_hint', { n: MIN_PASSWORD_CHARS })}
          error={errors.password}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          ref={repeatInput}
          label={t('admin_setup_repeat')}
          name="repeat-password"
          type="password"
          autoComplete="new-password"
          error={errors.repeat}
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
        />
        <ActionError message={error} />
        <Button type="submit" color="primary" block loading={isLoading} disabled={isLoading}>
          {t('admin_setup_submit')}
        </Button>
      </form>
    </Card>
  );
}
