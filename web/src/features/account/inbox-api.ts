/**
 * The borrower's inbox (PRODUCT.md 12.5): the due-date reminders the server
 * recorded (3 days and 1 day before each installment's due date, and the day it
 * becomes overdue), newest first, with the unread count; and marking them read.
 * The server lists and marks only the caller's own notices. Every page carries the
 * `Notices` tag, so marking read refetches the pages and the My page's badge.
 */
import { api } from '@/lib/api';
import type { Wire } from '@/lib/wire';

/** One notice (`/user/notices`). */
export type Notice = Wire['NoticeView'];
/** A page of notices with the total and unread counts. */
export type NoticePage = Wire['NoticePage'];
/** Which reminder a notice is. */
export type NoticeKind = 'due_in_3_days' | 'due_in_1_day' | 'overdue';

/** Notices per page of the inbox; the My page asks for the same first page. */
export const NOTICES_PER_PAGE = 20;

export const inboxApi = api.injectEndpoints({
  endpoints: (build) => ({
    notices: build.query<NoticePage, number | void>({
      query: (page) => ({ url: 'jackey/user/notices', body: { page: page ?? 1, pageSize: NOTICES_PER_PAGE } }),
      providesTags: ['Notices'],
    }),
    /** `ids` from the list, or `'all'`; answers how many were newly marked. */
    markNoticesRead: build.mutation<{ marked: number }, string[] | 'all'>({
      query: (which) => ({ url: 'jackey/user/notices/read', body: which === 'all' ? { all: true } : { ids: which } }),
      invalidatesTags: ['Notices'],
    }),
  }),
});

export const { useNoticesQuery, useMarkNoticesReadMutation } = inboxApi;
