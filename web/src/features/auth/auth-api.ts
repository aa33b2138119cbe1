/** Sign-in calls (PRODUCT.md 8 `/user/register`, `/user/login`, `/user/unlock`). */
import { api } from '@/lib/api';
import { COMPANY_ID, PLATFORM } from '@/config/constants';

export interface Credentials {
  mobile: string;
  password: string;
  /** Registration only: the code `/sms/register` sent to the phone (PRODUCT.md 12.2). */
  smsCode?: string;
  telemarketingCode?: string;
  installationSource?: string;
}

const withApp = (body: object) => ({ ...body, platform: PLATFORM, companyId: COMPANY_ID, appId: 1 });

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<{ token: string }, Credentials>({
      query: (body) => ({ url: 'jackey/user/login', body: withApp(body) }),
    }),
    register: build.mutation<{ token: string }, Credentials>({
      query: (body) => ({ url: 'jackey/user/register', body: withApp(body) }),
    }),
    unlock: build.mutation<null, { mobile: string; unlockCode: string }>({
      query: (body) => ({ url: 'jackey/user/unlock', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation, useUnlockMutation } =
  authApi;
