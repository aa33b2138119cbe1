/**
 * The loan officers' console under `/admin` (PRODUCT.md 7). It is its own lazily
 * loaded chunk (app/router.tsx), so borrowers never download it, and it has its
 * own session (admin-session.ts): every screen but the login needs an auditor
 * token, and losing it (logout, or 401/20001/7 from the api) leads to
 * `/admin/login` without touching the borrower's session.
 *
 * Layout: a left navigation (Queue, Collections, Ledger, the signed-in auditor and Logout)
 * beside the screen; designed for 1280×800, still usable on a tablet.
 */
import { useEffect, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import { setLanguage } from '@/lib/i18n';
import { useAdminLogoutMutation } from './admin-api';
// The console's strings, registered before any screen renders.
import { CONSOLE_LANGUAGES, isConsoleLanguage } from './admin-i18n';
import { adminPaths } from './admin-paths';
import { adminSession, useAdminSession } from './admin-session';
import { CollectionScreen } from './collection-screen';
import { CollectionsScreen } from './collections-screen';
import { HistoryScreen } from './history-screen';
import { LedgerScreen } from './ledger-screen';
import { LoginScreen } from './login-screen';
import { OrderScreen } from './order-screen';
import { QueueScreen } from './queue-screen';
import { UserScreen } from './user-screen';
import './admin.css';

/** Screens that need a signed-in auditor; anyone else goes to `/admin/login`. */
function RequireAuditor({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  const location = useLocation();
  if (!session) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={adminPaths.login} replace state={{ from, expired: adminSession.reason() === 'expired' }} />;
  }
  return <>{children}</>;
}

function AdminLayout() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const [logout, { isLoading }] = useAdminLogoutMutation();

  useEffect(() => {
    document.title = t('admin_console_title');
  }, [t]);

  const onLogout = async () => {
    // The token is revoked server-side when possible; the console forgets it either way.
    await logout().catch(() => undefined);
    adminSession.signOut('logout');
    navigate(adminPaths.login, { replace: true });
  };

  const name = session?.auditor?.username ?? '';
  return (
    <div className="admin">
      <aside className="admin-nav">
        <div className="admin-nav__brand">
          <span className="admin-nav__logo" aria-hidden="true">
            ✓
          </span>
          <span>{t('admin_console_title')}</span>
        </div>
        <nav className="admin-nav__links" aria-label={t('admin_nav')}>
          <NavLink to="/admin" end className="admin-nav__link">
            {t('admin_nav_queue')}
          </NavLink>
          <NavLink to="/admin/collections" className="admin-nav__link">
            {t('admin_nav_collections')}
          </NavLink>
          <NavLink to="/admin/ledger" className="admin-nav__link">
            {t('admin_nav_ledger')}
          </NavLink>
        </nav>
        <div className="admin-nav__footer">
          <div className="admin-nav__who">
            <span className="admin-nav__who-label">{t('admin_signed_in_as')}</span>
            <strong data-testid="admin-username">{name}</strong>
          </div>
          <Button size="small" block onClick={onLogout} loading={isLoading}>
            {t('admin_logout')}
          </Button>
          <LanguageSwitch languages={CONSOLE_LANGUAGES} />
        </div>
      </aside>
      <main className="admin-main">
        <Outlet />
      </main>
    </div>
  );
}

export default function AdminApp() {
  const { i18n } = useTranslation();
  useEffect(() => {
    // The borrower's Filipino is not a console language: English here, and the
    // borrower's saved choice stays as it was.
    if (!isConsoleLanguage(i18n.language)) void setLanguage('en', false);
  }, [i18n.language]);
  return (
    <Routes>
      <Route path="login" element={<LoginScreen />} />
      <Route
        element={
          <RequireAuditor>
            <AdminLayout />
          </RequireAuditor>
        }
      >
        <Route index element={<QueueScreen />} />
        <Route path="orders/:orderId" element={<OrderScreen />} />
        <Route path="orders/:orderId/history" element={<HistoryScreen />} />
        <Route path="users/:userId" element={<UserScreen />} />
        <Route path="ledger" element={<LedgerScreen />} />
        <Route path="collections" element={<CollectionsScreen />} />
        <Route path="collections/:orderId" element={<CollectionScreen />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Route>
    </Routes>
  );
}
