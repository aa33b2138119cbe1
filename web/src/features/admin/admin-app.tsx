/**
 * The loan officers' console under `/admin` (PRODUCT.md 7). It is its own lazily
 * loaded chunk (app/router.tsx), so borrowers never download it, and it has its
 * own session (admin-session.ts): every screen but the login needs an auditor
 * token, and losing it (logout, or 401/20001/7 from the api) leads to
 * `/admin/login` without touching the borrower's session.
 *
 * Layout: a left navigation (Queue, Collections, Ledger, Staff, Audit trail, Products,
 * Lender settings, the signed-in staff member with their roles, and Logout) beside the
 * screen; designed for 1280×800, still usable on a tablet.
 *
 * Staff roles (issue 55): the navigation lists only the sections the signed-in roles
 * allow, and `/admin` is the queue for reviewers, else the first section the roles
 * allow. The roles come with the login and are read again from `/admin/api/me` each
 * time the console mounts, so a change applies after a reload. Hiding is convenience
 * only: the server refuses a call the roles do not allow (50005), and the screens show
 * that refusal. The setup link's page (`/admin/setup`) is outside the signed-in console.
 */
import { useEffect, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import { setLanguage } from '@/lib/i18n';
import { useAdminLogoutMutation, useAdminMeQuery } from './admin-api';
// The console's strings, registered before any screen renders.
import { CONSOLE_LANGUAGES, isConsoleLanguage } from './admin-i18n';
import { rolesLabel } from './admin-format';
import { adminPaths } from './admin-paths';
import { adminSession, can, useAdminSession } from './admin-session';
import { AuditScreen } from './audit-screen';
import { CollectionScreen } from './collection-screen';
import { CollectionsScreen } from './collections-screen';
import { HistoryScreen } from './history-screen';
import { LedgerScreen } from './ledger-screen';
import { LoginScreen } from './login-screen';
import { OrderScreen } from './order-screen';
import { ProductsScreen } from './products-screen';
import { QueueScreen } from './queue-screen';
import { SettingsScreen } from './settings-screen';
import { SetupScreen } from './setup-screen';
import { StaffScreen } from './staff-screen';
import { UserScreen } from './user-screen';
import { PageHeader } from './admin-ui';
import './admin.css';

/** The console's sections, in the navigation's order, with the permission each needs. */
const SECTIONS = [
  { to: '/admin', end: true, permission: 'orders.review', label: 'admin_nav_queue' },
  { to: adminPaths.collections(), end: false, permission: 'collections', label: 'admin_nav_collections' },
  { to: adminPaths.ledger(), end: false, permission: 'ledger', label: 'admin_nav_ledger' },
  { to: adminPaths.staff, end: false, permission: 'staff', label: 'admin_nav_staff' },
  { to: adminPaths.audit(), end: false, permission: 'audit.read', label: 'admin_nav_audit' },
  { to: adminPaths.products, end: false, permission: 'settings', label: 'admin_nav_products' },
  { to: adminPaths.settings, end: false, permission: 'settings', label: 'admin_nav_settings' },
] as const;

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
  // The roles as they are now (an admin may have changed them since the login).
  const me = useAdminMeQuery(undefined, { refetchOnMountOrArgChange: true });

  useEffect(() => {
    document.title = t('admin_console_title');
  }, [t]);

  useEffect(() => {
    if (me.data) adminSession.setAccess(me.data);
  }, [me.data]);

  const onLogout = async () => {
    // The token is revoked server-side when possible; the console forgets it either way.
    await logout().catch(() => undefined);
    adminSession.signOut('logout');
    navigate(adminPaths.login, { replace: true });
  };

  const name = session?.auditor?.username ?? '';
  const roles = session?.auditor?.roles;
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
          {SECTIONS.filter((section) => can(session, section.permission)).map((section) => (
            <NavLink key={section.to} to={section.to} end={section.end} className="admin-nav__link">
              {t(section.label)}
            </NavLink>
          ))}
        </nav>
        <div className="admin-nav__footer">
          <div className="admin-nav__who">
            <span className="admin-nav__who-label">{t('admin_signed_in_as')}</span>
            <strong data-testid="admin-username">{name}</strong>
            {roles && roles.length > 0 && (
              <span className="admin-nav__roles" data-testid="admin-roles">
                {rolesLabel(t, roles)}
              </span>
            )}
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

/**
 * `/admin`: the review queue for those who review; anyone else goes to the first
 * section their roles allow (or, with none, is told so).
 */
function AdminHome() {
  const { t } = useTranslation();
  const session = useAdminSession();
  if (can(session, 'orders.review')) return <QueueScreen />;
  const first = SECTIONS.find((section) => can(session, section.permission));
  if (first) return <Navigate to={first.to} replace />;
  const roles = session?.auditor?.roles ?? [];
  return (
    <div className="admin-page">
      <PageHeader title={t('admin_no_section_title')} hint={t('admin_no_section_hint', { roles: rolesLabel(t, roles) || '—' })} />
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
      <Route path="setup" element={<SetupScreen />} />
      <Route
        element={
          <RequireAuditor>
            <AdminLayout />
          </RequireAuditor>
        }
      >
        <Route index element={<AdminHome />} />
        <Route path="orders/:orderId" element={<OrderScreen />} />
        <Route path="orders/:orderId/history" element={<HistoryScreen />} />
        <Route path="users/:userId" element={<UserScreen />} />
        <Route path="ledger" element={<LedgerScreen />} />
        <Route path="collections" element={<CollectionsScreen />} />
        <Route path="collections/:orderId" element={<CollectionScreen />} />
        <Route path="staff" element={<StaffScreen />} />
        <Route path="audit" element={<AuditScreen />} />
        <Route path="products" element={<ProductsScreen />} />
        <Route path="settings" element={<SettingsScreen />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Route>
    </Routes>
  );
}
