/**
 * Sign-in calls (PRODUCT.md 8 `/user/register`, `/user/login`, `/user/unlock`, and
 * 12.3 `/user/resetPassword`).
 */
import { api } from '@/lib/api';
import { COMPANY_ID, PLATFORM } from '@/config/constants';
import type { Sent, Wire } from '@/lib/wire';

/**
 * Login, or registration with its SMS code, attribution (PRODUCT.md 12.2) and the
 * privacy notice version accepted and the language it was read in (12.6).
 */
export type Credentials = Wire['LoginBody'] &
  Partial<
    Sent<Pick<Wire['RegisterBody'], 'smsCode' | 'telemarketingCode' | 'installationSource' | 'privacyNoticeVersion' | 'privacyNoticeLanguage'>>
  >;

const withApp = (body: object) => ({ ...body, platform: PLATFORM, companyId: COMPANY_ID, appId: 1 });

/**
 * What the login screen hands the lock screen (router state) when the right password
 * meets a lock (20003, issue 52): the phone typed, so the SMS code can be sent to it.
 */
export interface LockedLogin {
  mobile: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<Wire['TokenData'], Credentials>({
      query: (body) => ({ url: 'jackey/user/login', body: withApp(body) }),
    }),
    register: build.mutation<Wire['TokenData'], Credentials>({
      query: (body) => ({ url: 'jackey/user/register', body: withApp(body) }),
    }),
    /** Forgot password: revokes every session and lifts a security lock (12.3). */
    resetPassword: build.mutation<null, { mobile: string; smsCode: string; password: string }>({
      query: (body) => ({ url: 'jackey/user/resetPassword', body }),
    }),
    unlock: build.mutation<null, Wire['UnlockBody']>({
      query: (body) => ({ url: 'jackey/user/unlock', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation, useResetPasswordMutation, useUnlockMutation } = authApi;
