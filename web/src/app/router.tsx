/**
 * Every route of PRODUCT.md section 3, in history mode. Screens load lazily, so
 * the first screen downloads only what it needs, and the auditor console under
 * `/admin` is a chunk of its own that borrowers never fetch. Unknown paths
 * redirect to `/`.
 */
import { Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { GlobalLoading } from '@/components/global-loading';
import { RequireAuth } from '@/components/require-auth';
import { RouteEffects } from '@/components/route-effects';
import { Loading } from '@/components/states';
import { paths } from '@/config/paths';
import { rememberAttribution } from '@/lib/storage';

type Loader = () => Promise<{ default: ComponentType }>;

/** A lazily loaded screen; `open` screens need no sign-in. */
function screen(path: string, load: Loader, open = false): RouteObject {
  return {
    path,
    lazy: async () => {
      const { default: Screen } = await load();
      return {
        Component: open
          ? Screen
          : () => (
              <RequireAuth>
                <Screen />
              </RequireAuth>
            ),
      };
    },
  };
}

function Root() {
  return (
    <>
      <GlobalLoading />
      <RouteEffects />
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    hydrateFallbackElement: <Loading />,
    children: [
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
      screen(paths.admin.path, () => import('@/features/admin/admin-app'), true),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The browser router. The `code` and `channel` query parameters are saved before
 * the first screen renders and on every navigation after (PRODUCT.md 3).
 */
export function createRouter() {
  rememberAttribution(window.location.search);
  const router = createBrowserRouter(routes);
  router.subscribe((state) => rememberAttribution(state.location.search));
  return router;
}
