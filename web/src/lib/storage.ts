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

/** Where drafts live (`lib/drafts.ts`): `draft:<form>`. */
export const DRAFT_PREFIX = 'draft:';

/** Drops every form draft (sign-out: a shared phone keeps no one's draft). */
export function clearDrafts() {
  try {
    const store = local();
    for (const key of Object.keys(store ?? {})) if (key.startsWith(DRAFT_PREFIX)) store?.removeItem(key);
  } catch {
    // Storage refused: nothing was kept.
  }
}

export { read as readStored, write as writeStored, local as localStore };
