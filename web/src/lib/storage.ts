/**
 * Browser storage under the keys of PRODUCT.md section 11. Every access is
 * guarded: private browsing modes may refuse storage, and the app must still run.
 */
import { STORAGE_KEYS } from '@/config/constants';

type LocalKey = 'token' | 'channel' | 'inviteCode' | 'policyAccepted' | 'language';

function read(store: Storage | undefined, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(store: Storage | undefined, key: string, value: string | null) {
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {
    // Storage refused (quota or privacy mode): the value lives for this page only.
  }
}

const local = () => (typeof window === 'undefined' ? undefined : window.localStorage);

export const storage = {
  get: (key: LocalKey) => read(local(), STORAGE_KEYS[key]),
  set: (key: LocalKey, value: string | null) => write(local(), STORAGE_KEYS[key], value),
};

/**
 * Saves the `code` (invite code) and `channel` query parameters of a URL search
 * string (PRODUCT.md 3); a parameter that is absent leaves the saved value alone.
 */
export function rememberAttribution(search: string) {
  const query = new URLSearchParams(search);
  const code = query.get('code');
  const channel = query.get('channel');
  if (code) storage.set('inviteCode', code);
  if (channel) storage.set('channel', channel);
}

const DRAFT_PREFIX = 'draft:';

/**
 * A form's draft, kept on this device until the form is sent (issue 52: a cheap
 * phone reloads the page when the camera opens, and a long form must not be lost).
 * `name` names the form and whose it is (`profile:09171234567`); the value is JSON.
 * Every draft is dropped at sign-out, so a shared phone keeps no one's draft.
 */
export const drafts = {
  get(name: string): Record<string, unknown> | null {
    const text = read(local(), DRAFT_PREFIX + name);
    try {
      const value: unknown = text ? JSON.parse(text) : null;
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  },
  set: (name: string, value: object) => write(local(), DRAFT_PREFIX + name, JSON.stringify(value)),
  clear: (name: string) => write(local(), DRAFT_PREFIX + name, null),
  /** Drops every draft (sign-out). */
  clearAll() {
    try {
      const store = local();
      const keys = store ? Object.keys(store).filter((key) => key.startsWith(DRAFT_PREFIX)) : [];
      for (const key of keys) store?.removeItem(key);
    } catch {
      // Storage refused: there is nothing kept to drop.
    }
  },
};
