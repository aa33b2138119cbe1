/** The audit trail's filters as its URL keeps them; `before`: an older page (the `next` of the newer one). */
export interface AuditFilters {
  username?: string;
  userId?: string;
  orderId?: string;
  before?: string;
}

/** The audit trail's query keys, in the URL's order. */
export const AUDIT_FILTER_KEYS = ['username', 'userId', 'orderId', 'before'] as const;

/** Every route of the console, under `/admin` (the app router mounts `/admin/*`). */
export const adminPaths = {
  login: '/admin/login',
  /** Where a one-time setup link leads (outside the signed-in console); its token follows `#`. */
  setup: '/admin/setup',
  /** Staff accounts and their roles (issue 55). */
  staff: '/admin/staff',
  /** The products as data: versions, proposals, approval (maker-checker). */
  products: '/admin/products',
  /** The lender's settings as data (invite codes, company texts, receiving accounts), the same maker-checker. */
  settings: '/admin/settings',
  /** The audit trail of staff actions, with its filters in the query. */
  audit: (filters: AuditFilters = {}) => {
    const query = new URLSearchParams();
    for (const key of AUDIT_FILTER_KEYS) {
      const value = filters[key]?.trim();
      if (value) query.set(key, value);
    }
    const q = query.toString();
    return `/admin/audit${q ? `?${q}` : ''}`;
  },
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
