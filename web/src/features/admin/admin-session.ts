/**
 * The auditor's session, kept apart from the borrower's (PRODUCT.md 6): the
 * token lives in local storage under `adminToken` (never `token`), with the
 * signed-in auditor's id and username under `adminUser`. It is a tiny external
 * store rather than Redux state, so the console needs nothing from the app's
 * store and a console sign-out can never touch the borrower session.
 *
 * Local storage (not session storage) so a loan officer can open orders in new
 * tabs; a sign-out in one tab signs out the others (the `storage` event).
 */
import { useSyncExternalStore } from 'react';

export const ADMIN_TOKEN_KEY = 'adminToken';
export const ADMIN_USER_KEY = 'adminUser';

export interface Auditor {
  auditorId: string;
  username: string;
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

function parseAuditor(text: string | null): Auditor | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Auditor>;
    return typeof value.auditorId === 'string' && typeof value.username === 'string'
      ? { auditorId: value.auditorId, username: value.username }
      : null;
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
