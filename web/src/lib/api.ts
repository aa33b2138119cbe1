/**
 * The one RTK Query API slice (STYLE.md "React"): features add their calls with
 * `api.injectEndpoints`. Every call of both apps goes through `envelopeQuery`, which
 * sends the session's bearer token and the log position it has written up to
 * (lib/log-position.ts), reads the envelope (lib/envelope.ts) and hands a session
 * effect (PRODUCT.md 9) to the session that made the call: `baseQuery` for the
 * borrower (the store's session), the console's own (features/admin/admin-api.ts).
 */
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { interpret, NOTHING_FOUND, type ApiFailure, type SessionEffect } from './envelope';
import { locked, signedOut } from './session';
import { rememberPosition, sendPosition } from './log-position';

/** The state shape the base query reads (the store's `session` slice). */
interface WithSession {
  session: { token: string | null };
}

const raw = fetchBaseQuery({
  // Absolute, so the same code runs in the browser and under Node in tests.
  baseUrl: typeof window === 'undefined' ? 'http://localhost/' : new URL('/', window.location.href).href,
});

/** Whose session a call runs in. */
export interface CallSession {
  /** The bearer token to send, if any. */
  token: (api: BaseQueryApi) => string | null;
  /** Applies a session effect (sign out, lock) of a call made with `token`. */
  onEffect: (effect: NonNullable<SessionEffect>, api: BaseQueryApi, token: string | null) => void;
}

/** A base query's answer: the envelope's `data`, or an `ApiFailure`. */
export type EnvelopeResult<T> =
  | { data: T; meta?: FetchBaseQueryMeta }
  | { error: ApiFailure; meta?: FetchBaseQueryMeta };

/**
 * The base query of a session. A call is `POST path` with a JSON body (or FormData
 * for uploads) unless it says otherwise. Errors are `ApiFailure`s with translated
 * messages.
 */
export function envelopeQuery(session: CallSession) {
  return async <T = unknown>(
    args: string | FetchArgs,
    api: BaseQueryApi,
    extra: unknown,
  ): Promise<EnvelopeResult<T>> => {
    const request: FetchArgs =
      typeof args === 'string' ? { url: args, method: 'POST', body: {} } : { method: 'POST', body: {}, ...args };
    const token = session.token(api);
    const headers = new Headers(request.headers as HeadersInit | undefined);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    sendPosition(headers);
    const result = await raw({ ...request, headers }, api, extra as object);
    rememberPosition(result.meta?.response?.headers);
    const status =
      result.meta?.response?.status ??
      (typeof result.error?.status === 'number' ? result.error.status : undefined);
    const body = result.error ? (result.error as { data?: unknown }).data : result.data;
    const outcome = interpret<T>(status, body);
    if ('data' in outcome) return { data: outcome.data, meta: result.meta };
    if (outcome.effect) session.onEffect(outcome.effect, api, token);
    return { error: outcome.error, meta: result.meta };
  };
}

/** The borrower's base query: the store's session; 401/20001/7 sign out, 20003 locks. */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiFailure> = envelopeQuery({
  token: (api) => (api.getState() as WithSession).session.token,
  onEffect: (effect, api) => {
    if (effect === 'signOut') api.dispatch(signedOut());
    if (effect === 'lock') api.dispatch(locked());
  },
});

/** The base query as a `queryFn` receives it. */
type BaseQueryCall = (args: string | FetchArgs) => ReturnType<typeof baseQuery>;

/**
 * For a `queryFn` where "nothing there" is an answer, not a failure: calls `args`
 * through the base query; 40007 (record not found) becomes `null` data, any other
 * failure stays an error.
 */
export async function orNull<T>(
  call: BaseQueryCall,
  args: string | FetchArgs,
): Promise<{ data: T | null } | { error: ApiFailure }> {
  const result = await call(args);
  if (result.error) return result.error.code === NOTHING_FOUND ? { data: null } : { error: result.error };
  return { data: (result.data ?? null) as T | null };
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['User', 'Order', 'Orders', 'Progress', 'Config', 'Identity', 'Payoff', 'Sessions', 'Notices'],
  endpoints: () => ({}),
});
