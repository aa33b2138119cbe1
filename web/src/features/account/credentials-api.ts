/**
 * Credentials calls of a signed-in borrower (PRODUCT.md 12.3): change password, change or reset the withdraw PIN with an SMS code, and the
 * borrower's sessions. The server decides every rule (the code, the lock, the
 * attempts left); these only carry the fields.
 */
import { api } from '@/lib/api';

/** One live login of the account (`/user/sessions`). */
export interface SessionView {
  /** Names the session for `revokeSession`. */
  id: string;
  /** RFC 3339 UTC. */
  createdAt: string;
  /** RFC 3339 UTC. */
  expiresAt: string;
  /** The session of this browser. */
  current: boolean;
}

export const credentialsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `/user/changePassword`: 10002 with the attempts left for a wrong current one. */
    changePassword: build.mutation<null, { oldPassword: string; password: string }>({
      query: (body) => ({ url: 'jackey/user/changePassword', body }),
      invalidatesTags: ['User'],
    }),
    /** `/user/withdrawPin` with the `/sms/pin` code: change or reset the PIN (P2). */
    changeWithdrawPin: build.mutation<null, { pin: string; smsCode: string }>({
      query: (body) => ({ url: 'jackey/user/withdrawPin', body }),
      invalidatesTags: ['User'],
    }),
    sessions: build.query<SessionView[], void>({
      query: () => ({ url: 'jackey/user/sessions' }),
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<null, string>({
      query: (sessionId) => ({ url: 'jackey/user/sessions/revoke', body: { sessionId } }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const {
  useChangePasswordMutation,
  useChangeWithdrawPinMutation,
  useSessionsQuery,
  useRevokeSessionMutation,
} = credentialsApi;
