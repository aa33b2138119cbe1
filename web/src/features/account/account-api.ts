/**
 * Logout (PRODUCT.md 8 `/user/logout`): revokes the token server-side. The
 * personal data export (12.6 `/user/dataExport`): everything held about the
 * borrower, as one document, recorded by the server.
 */
import { api } from '@/lib/api';
import type { Wire } from '@/lib/wire';

/** What `/jackey/user/dataExport` answers. */
export type DataExport = Wire['DataExport'];

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    logout: build.mutation<null, void>({
      query: () => 'jackey/user/logout',
    }),
    /** A mutation, not a cached query: each export is fresh and recorded. */
    dataExport: build.mutation<DataExport, void>({
      query: () => 'jackey/user/dataExport',
    }),
  }),
});

export const { useLogoutMutation, useDataExportMutation } = accountApi;
