/**
 * `/admin/login`: username and password (accounts come from `api create-auditor`,
 * PRODUCT.md 6). A signed-in auditor goes back where they were, or to the queue.
 */
import { useState, type FormEvent } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { LanguageSwitch } from '@/components/language-switch';
import { ADMIN_TAGS, adminApi, useAdminLoginMutation } from './admin-api';
import { adminErrorMessage } from './admin-format';
import { CONSOLE_LANGUAGES } from './admin-i18n';
import { adminPaths } from './admin-paths';
import { adminSession, useAdminSession } from './admin-session';
import { ActionError, TextField } from './admin-ui';

interface LoginState {
  from?: string;
  expired?: boolean;
}

export function LoginScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const session = useAdminSession();
  const state = (location.state ?? {}) as LoginState;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [login, { isLoading }] = useAdminLoginMutation();
  const target = state.from && state.from.startsWith('/admin') && state.from !== adminPaths.login ? state.from : '/admin';

  if (session && !isLoading) return <Navigate to={target} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) return;
    setError(null);
    const result = await login({ username: username.trim(), password });
    if ('error' in result) {
      setError(adminErrorMessage(t, result.error));
      return;
    }
    const { token, auditorId, username: name } = result.data;
    // Whatever the console cached belongs to the previous session.
    dispatch(adminApi.util.invalidateTags([...ADMIN_TAGS]));
    adminSession.signIn(token, { auditorId, username: name });
    navigate(target, { replace: true });
  };

  return (
    <main className="admin-login">
      <form className="admin-login__card" onSubmit={onSubmit} aria-labelledby="admin-login-title">
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
          autoFocus
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label={t('admin_password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
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
