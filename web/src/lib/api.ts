/**
 * The one RTK Query API slice (STYLE.md "React"): features add their calls with
 * `api.injectEndpoints`. Every call goes through `baseQuery`, which sends the
 * bearer token, the unlock token and the log position it has written up to
 * (lib/log-position.ts), reads the envelope (lib/envelope.ts) and
 * applies the session behaviour of PRODUCT.md 9.
 */
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
} from '@reduxjs/toolkit/query/react';
import { interpret, NOTHING_FOUND, type ApiFailure } from './envelope';
import { locked, signedOut } from './session';
import { rememberPosition, sendPosition } from './log-position';

/** The state shape the base query reads (the store's `session` slice). */
interface WithSession {
  session: { token: string | null };
}

const raw = fetchBaseQuery({
  // Absolute, so the same code runs in the browser and under Node in tests.
  baseUrl: typeof window === 'undefined' ? 'http://localhost/' : new URL('/', window.location.href).href,
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as WithSession).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return sendPosition(headers);
  },
});

/**
 * A call is `POST path` with a JSON body (or FormData for uploads) unless it says
 * otherwise. Errors are `ApiFailure`s with translated messages.
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiFailure> = async (
  args,
  api,
  extra,
) => {
  const request: FetchArgs =
    typeof args === 'string' ? { url: args, method: 'POST', body: {} } : { method: 'POST', ...args };
  const result = await raw(request, api, extra);
  rememberPosition(result.meta?.response?.headers);
  const status =
    result.meta?.response?.status ??
    (typeof result.error?.status === 'number' ? result.error.status : undefined);
  const body = result.error ? (result.error as { data?: unknown }).data : result.data;
  const outcome = interpret(status, body);
  if ('data' in outcome) return { data: outcome.data, meta: result.meta };
  // A session effect only applies to a borrower call made with a token; the admin
  // console has its own session.
  if (outcome.effect === 'signOut') api.dispatch(signedOut());
  if (outcome.effect === 'lock') api.dispatch(locked());
  return { error: outcome.error, meta: result.meta };
};

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
  tagTypes: ['User', 'Order', 'Orders', 'Progress', 'Config', 'Identity', 'Payoff'],
  endpoints: () => ({}),
});
