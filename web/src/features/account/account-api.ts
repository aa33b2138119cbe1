/** Logout (PRODUCT.md 8 `/user/logout`): revokes the token server-side. */
import { api } from '@/lib/api';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    logout: build.mutation<null, void>({
      query: () => 'jackey/user/logout',
    }),
  }),
});

export const { useLogoutMutation } = accountApi;
