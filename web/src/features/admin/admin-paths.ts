/** Every route of the console, under `/admin` (the app router mounts `/admin/*`). */
export const adminPaths = {
  login: '/admin/login',
  /** `filter`: a status, `'all'`, or none for the open orders (the work queue). */
  queue: (filter?: number | 'all' | null, page?: number, search?: string) => {
    const query = new URLSearchParams();
    if (filter !== undefined && filter !== null) query.set('status', String(filter));
    if (search) query.set('q', search);
    if (page && page > 1) query.set('page', String(page));
    const q = query.toString();
    return `/admin${q ? `?${q}` : ''}`;
  },
  order: (orderId: string) => `/admin/orders/${orderId}`,
  history: (orderId: string, atSequence?: number) =>
    `/admin/orders/${orderId}/history${atSequence ? `?at=${atSequence}` : ''}`,
  user: (userId: string) => `/admin/users/${userId}`,
  /** The collections queue (issue 53), with its bucket filter. */
  collections: (bucket?: string) => `/admin/collections${bucket ? `?bucket=${encodeURIComponent(bucket)}` : ''}`,
  /** A late loan's collection record. */
  collection: (orderId: string) => `/admin/collections/${orderId}`,
  ledger: (filter: { orderId?: string; account?: string } = {}) => {
    const query = new URLSearchParams();
    if (filter.orderId) query.set('orderId', filter.orderId);
    if (filter.account) query.set('account', filter.account);
    const q = query.toString();
    return `/admin/ledger${q ? `?${q}` : ''}`;
  },
} as const;
