/**
 * Every route path of PRODUCT.md section 3, in one place. `path` is the router
 * pattern; `to(...)` builds a link.
 */
export const paths = {
  home: { path: '/', to: () => '/' },
  login: { path: '/login', to: () => '/login' },
  register: { path: '/register', to: () => '/register' },
  identity: { path: '/identity', to: () => '/identity' },
  baseInfo: { path: '/baseInfo', to: () => '/baseInfo' },
  bankInfo: { path: '/bankInfo', to: () => '/bankInfo' },
  loan: { path: '/loan', to: () => '/loan' },
  apply: {
    path: '/apply/:appId',
    to: (appId: number | string, amount?: string, period?: number) => {
      const query = new URLSearchParams();
      if (amount) query.set('amount', amount);
      if (period) query.set('period', String(period));
      const q = query.toString();
      return `/apply/${appId}${q ? `?${q}` : ''}`;
    },
  },
  order: { path: '/order', to: () => '/order' },
  detail: {
    path: '/detail/:orderId',
    to: (orderId: string, index?: number) =>
      `/detail/${orderId}${index === undefined ? '' : `?index=${index}`}`,
  },
  my: { path: '/my', to: () => '/my' },
  baseInfoDetail: { path: '/baseInfoDetail', to: () => '/baseInfoDetail' },
  bankInfoDetail: { path: '/bankInfoDetail', to: () => '/bankInfoDetail' },
  lock: { path: '/lock', to: () => '/lock' },
  question: { path: '/question', to: () => '/question' },
  partner: { path: '/partner', to: () => '/partner' },
  transactionHistory: { path: '/transactionHistory', to: () => '/transactionHistory' },
  contract: { path: '/contract', to: () => '/contract' },
  repayDetail: { path: '/repayDetail', to: () => '/repayDetail' },
  success: { path: '/success/:orderId', to: (orderId: string) => `/success/${orderId}` },
  recharge: { path: '/recharge', to: () => '/recharge' },
  about: { path: '/about', to: () => '/about' },
  forgotPassword: { path: '/forgotPassword', to: () => '/forgotPassword' },
  changePassword: { path: '/changePassword', to: () => '/changePassword' },
  withdrawPin: { path: '/withdrawPin', to: () => '/withdrawPin' },
  sessions: { path: '/sessions', to: () => '/sessions' },
  inbox: { path: '/inbox', to: () => '/inbox' },
  admin: { path: '/admin/*', to: () => '/admin' },
} as const;
