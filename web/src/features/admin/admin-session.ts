/**
 * The auditor's session, kept apart from the borrower's (PRODUCT.md 6): the
 * token lives in local storage under `adminToken` (never `token`), with the
 * signed-in auditor's id and username under `adminUser`. It is a tiny external
 * store rather than Redux state, so the console needs nothing from the app's
 * store and a console sign-out can never touch the borrower session.
 *
 * Local storage (not session storage) so a loan officer can open orders in new
 * tabs; a sign-out in one tab signs out the others (the `storage` event).
 *
 * Staff roles (issue 55): `adminUser` also keeps the signed-in staff member's roles
 * and the permissions they hold, from the login answer, refreshed from
 * `/admin/api/me` when the console mounts (admin-app.tsx), so a role changed by an
 * admin applies after a reload. The console hides what the roles do not allow
 * (`useCan`); that is convenience only: the server refuses anyway (50005).
 */
import { useSyncExternalStore } from 'react';
import type { StaffRole } from '@/lib/api-types';

export const ADMIN_TOKEN_KEY = 'adminToken';
export const ADMIN_USER_KEY = 'adminUser';

export interface Auditor {
  auditorId: string;
  username: string;
  /** The staff member's roles; absent in a session kept before roles existed (until `/admin/api/me` answers). */
  roles?: StaffRole[];
  /** The permissions those roles hold (`orders.review`, `staff`, ...); absent like `roles`. */
  permissions?: string[];
}

/** What `/admin/api/me` answers: who is signed in and what their roles allow. */
export interface Access {
  auditorId: string;
  roles: StaffRole[];
  permissions: string[];
}

export interface AdminSession {
  token: string;
  auditor: Auditor | null;
}

/** Why the auditor is on the login screen: signed out by hand, or the server ended the session. */
export type SignOutReason = 'logout' | 'expired';

function local(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): string | null {
  try {
    return local()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) local()?.removeItem(key);
    else local()?.setItem(key, value);
  } catch {
    // Storage refused (privacy mode): the session lasts for this page only.
  }
}

const listeners = new Set<() => void>();
let snapshot: { token: string | null; user: string | null; session: AdminSession | null } = {
  token: null,
  user: null,
  session: null,
};
/** Set when the server ended the session, so the login screen can say so. */
let lastReason: SignOutReason | null = null;
/** A session kept in memory when storage refuses writes. */
let memory: { token: string | null; user: string | null } | null = null;

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function parseAuditor(text: string | null): Auditor | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Record<keyof Auditor, unknown>>;
    if (typeof value.auditorId !== 'string' || typeof value.username !== 'string') return null;
    const auditor: Auditor = { auditorId: value.auditorId, username: value.username };
    if (isTextList(value.roles)) auditor.roles = value.roles as StaffRole[];
    if (isTextList(value.permissions)) auditor.permissions = value.permissions;
    return auditor;
  } catch {
    return null;
  }
}

/** The current session (a stable object while nothing changes), or null when signed out. */
function get(): AdminSession | null {
  const token = memory ? memory.token : read(ADMIN_TOKEN_KEY);
  const user = memory ? memory.user : read(ADMIN_USER_KEY);
  if (token !== snapshot.token || user !== snapshot.user) {
    snapshot = { token, user, session: token ? { token, auditor: parseAuditor(user) } : null };
  }
  return snapshot.session;
}

function notify() {
  for (const listener of listeners) listener();
}

function store(token: string | null, user: string | null) {
  write(ADMIN_TOKEN_KEY, token);
  write(ADMIN_USER_KEY, user);
  memory = read(ADMIN_TOKEN_KEY) === token ? null : { token, user };
}

export const adminSession = {
  get,
  /** The bearer token of the console, or null. */
  token: () => get()?.token ?? null,
  /** Login succeeded. */
  signIn(token: string, auditor: Auditor) {
    lastReason = null;
    store(token, JSON.stringify(auditor));
    notify();
  },
  /**
   * The roles and permissions `/admin/api/me` answered: kept with the session when
   * they belong to the staff member signed in now (not to one signed out since).
   */
  setAccess(access: Access) {
    const auditor = get()?.auditor;
    const token = get()?.token;
    if (!auditor || !token || auditor.auditorId !== access.auditorId) return;
    const next: Auditor = { ...auditor, roles: access.roles, permissions: access.permissions };
    const text = JSON.stringify(next);
    if (text === snapshot.user) return;
    store(token, text);
    notify();
  },
  /** Logout, or the server answered 401/20001/7 to a console call. */
  signOut(reason: SignOutReason) {
    if (!get()) return;
    lastReason = reason;
    store(null, null);
    notify();
  },
  /** Why the last sign-out happened (null after a sign-in). */
  reason: (): SignOutReason | null => lastReason,
  subscribe(listener: () => void) {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === ADMIN_TOKEN_KEY || event.key === ADMIN_USER_KEY || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },
};

/** The console session, re-rendering on sign-in and sign-out (in this tab or another). */
export function useAdminSession(): AdminSession | null {
  return useSyncExternalStore(adminSession.subscribe, get, get);
}

/**
 * Whether `session` may use what needs `permission`. A session whose permissions are
 * not known yet (kept before roles existed) may: the server decides (50005).
 */
export function can(session: AdminSession | null, permission: string): boolean {
  const permissions = session?.auditor?.permissions;
  return permissions === undefined ? session !== null : permissions.includes(permission);
}

/** Whether the signed-in staff member's roles allow `permission` (to hide what they do not). */
export function useCan(permission: string): boolean {
  return can(useAdminSession(), permission);
}
