/**
 * Every route of PRODUCT.md section 3, in history mode. Screens load lazily, so
 * the first screen downloads only what it needs, and the auditor console under
 * `/admin` is a chunk of its own that borrowers never fetch. Unknown paths
 * redirect to `/`.
 *
 * A plain `BrowserRouter` with `<Routes>` and `React.lazy`, not a data router
 * (`createBrowserRouter`): the app uses no loaders, actions or other data APIs,
 * and the data router's code would weigh on the first screen
 * (scripts/first-screen-size.mjs).
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { GlobalLoading } from '@/components/global-loading';
import { ScreenFallback } from '@/components/loading';
import { RequireAuth } from '@/components/require-auth';
import { RouteEffects } from '@/components/route-effects';
import { paths } from '@/config/paths';
import { rememberAttribution } from '@/lib/storage';

type Loader = () => Promise<{ default: ComponentType }>;

/** A lazily loaded screen; `open` screens need no sign-in. */
function screen(path: string, load: Loader, open = false) {
  const Screen = lazy(load);
  const element = open ? (
    <Screen />
  ) : (
    <RequireAuth>
      <Screen />
    </RequireAuth>
  );
  return <Route key={path} path={path} element={element} />;
}

function Root() {
  // The `code` and `channel` query parameters are saved on the first render and
  // on every navigation, before the screen below renders (the sign-up screen
  // pre-fills the invite code from them). Saving is idempotent.
  rememberAttribution(useLocation().search);
  return (
    <>
      <GlobalLoading />
      <RouteEffects />
      <Suspense fallback={<ScreenFallback />}>
        <Outlet />
      </Suspense>
    </>
  );
}

export const routes = (
  <Route element={<Root />}>
    {[
      screen(paths.home.path, () => import('@/features/loan/home-screen')),
      screen(paths.login.path, () => import('@/features/auth/login-screen'), true),
      screen(paths.register.path, () => import('@/features/auth/login-screen'), true),
      screen(paths.lock.path, () => import('@/features/auth/lock-screen'), true),
      screen(paths.identity.path, () => import('@/features/profile/identity-screen')),
      screen(paths.baseInfo.path, () => import('@/features/profile/base-info-screen')),
      screen(paths.bankInfo.path, () => import('@/features/profile/bank-info-screen')),
      screen(paths.question.path, () => import('@/features/profile/question-screen')),
      screen(paths.baseInfoDetail.path, () => import('@/features/profile/base-info-detail-screen')),
      screen(paths.bankInfoDetail.path, () => import('@/features/profile/bank-info-detail-screen')),
      screen(paths.loan.path, () => import('@/features/loan/products-screen')),
      screen(paths.apply.path, () => import('@/features/loan/apply-screen')),
      screen(paths.success.path, () => import('@/features/loan/success-screen')),
      screen(paths.order.path, () => import('@/features/orders/order-list-screen')),
      screen(paths.detail.path, () => import('@/features/orders/detail-screen')),
      screen(paths.recharge.path, () => import('@/features/repay/recharge-screen')),
      screen(paths.repayDetail.path, () => import('@/features/repay/repay-detail-screen')),
      screen(paths.transactionHistory.path, () => import('@/features/repay/transactions-screen')),
      screen(paths.contract.path, () => import('@/features/repay/contract-screen')),
      screen(paths.my.path, () => import('@/features/account/my-screen')),
      screen(paths.partner.path, () => import('@/features/account/partner-screen'), true),
      screen(paths.about.path, () => import('@/features/account/about-screen'), true),
      screen(paths.forgotPassword.path, () => import('@/features/auth/forgot-password-screen'), true),
      screen(paths.changePassword.path, () => import('@/features/account/change-password-screen')),
      screen(paths.withdrawPin.path, () => import('@/features/account/withdraw-pin-screen')),
      screen(paths.sessions.path, () => import('@/features/account/sessions-screen')),
      screen(paths.inbox.path, () => import('@/features/account/inbox-screen')),
      screen(paths.admin.path, () => import('@/features/admin/admin-app'), true),
    ]}
    <Route path="*" element={<Navigate to="/" replace />} />
  </Route>
);

/**
 * The browser router. The `code` and `channel` query parameters are saved before
 * the first screen renders and on every navigation after (PRODUCT.md 3), by `Root`.
 */
export function App() {
  return (
    <BrowserRouter>
      <Routes>{routes}</Routes>
    </BrowserRouter>
  );
}
