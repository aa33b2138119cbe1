/**
 * `/admin/login`: username, password and, once a second factor is set up, the
 * 6-digit code of the authenticator app (issue 55; accounts come from an admin's
 * setup link, or `api create-auditor`, PRODUCT.md 6). The server answers a wrong or
 * missing code as it answers a wrong password (10002), so the field is always there. A signed-in
 * staff member goes back where they were, or to the console's first page for their
 * roles; after a setup link (setup-screen.tsx) the screen says the account is ready.
 */
import { useRef, useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { LanguageSwitch } from '@/components/language-switch';
import { ADMIN_TAGS, adminApi, useAdminLoginMutation } from './admin-api';
import { adminErrorMessage, codeDigits } from './admin-format';
import { CONSOLE_LANGUAGES } from './admin-i18n';
import { adminPaths } from './admin-paths';
import { adminSession, useAdminSession } from './admin-session';
import { ActionError, TextField } from './admin-ui';

interface LoginState {
  from?: string;
  expired?: boolean;
  /** The username whose setup link was just used (setup-screen.tsx). */
  ready?: string;
}

export function LoginScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const session = useAdminSession();
  const state = (location.state ?? {}) as LoginState;
  const [username, setUsername] = useState(state.ready ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const [login, { isLoading }] = useAdminLoginMutation();
  const target = state.from && state.from.startsWith('/admin') && state.from !== adminPaths.login ? state.from : '/admin';

  if (session && !isLoading) return <Navigate to={target} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) return;
    setError(null);
    setCodeError(null);
    if (code && code.length !== 6) {
      setCodeError(t('admin_code_six_digits'));
      codeInput.current?.focus();
      return;
    }
    const result = await login({ username: username.trim(), password, ...(code ? { totpCode: code } : {}) });
    if ('error' in result) {
      // 10002 is one answer for a wrong username, password or code, and a missing one.
      const wrong = (result.error as { code?: unknown }).code === 10002;
      if (wrong) setError(t(code ? 'admin_error_login_code' : 'admin_error_login_no_code'));
      else setError(adminErrorMessage(t, result.error));
      return;
    }
    const { token, auditorId, username: name, roles, permissions } = result.data;
    // Whatever the console cached belongs to the previous session.
    dispatch(adminApi.util.invalidateTags([...ADMIN_TAGS]));
    adminSession.signIn(token, { auditorId, username: name, roles, permissions });
    navigate(target, { replace: true });
  };

  return (
    <main className="admin-login">
      <form className="admin-login__card" onSubmit={onSubmit} aria-labelledby="admin-login-title" noValidate>
        <div className="admin-nav__brand admin-login__brand">
          <span className="admin-nav__logo" aria-hidden="true">
            ✓
          </span>
          <span>{t('admin_console_title')}</span>
        </div>
        <h1 id="admin-login-title" className="admin-login__title">
          {t('admin_login_title')}
        </h1>
        <p className="admin-muted">{t('admin_login_hint')}</p>
        {state.ready && !error && (
          <p className="admin-done" role="status" data-testid="admin-setup-ready">
            {t('admin_setup_ready', { username: state.ready })}
          </p>
        )}
        {state.expired && !error && (
          <p className="admin-notice" role="status">
            {t('admin_session_expired')}
          </p>
        )}
        <TextField
          label={t('admin_username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoFocus={!state.ready}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label={t('admin_password')}
          name="password"
          type="password"
          autoComplete="current-password"
          autoFocus={!!state.ready}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          ref={codeInput}
          label={t('admin_code')}
          name="totpCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          hint={t('admin_login_code_hint')}
          error={codeError}
          value={code}
          onChange={(event) => {
            setCode(codeDigits(event.target.value));
            setCodeError(null);
          }}
        />
        <ActionError message={error} />
        <Button
          type="submit"
          color="primary"
          block
          loading={isLoading}
          disabled={!username.trim() || !password || isLoading}
        >
          {t('admin_login')}
        </Button>
        <LanguageSwitch languages={CONSOLE_LANGUAGES} />
      </form>
    </main>
  );
}
