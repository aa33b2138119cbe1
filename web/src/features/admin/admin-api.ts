/**
 * The auditor calls (PRODUCT.md 7), added to the one API slice. They do not go
 * through the borrower base query, which sends the borrower token and signs the
 * borrower out on 401: each endpoint is a `queryFn` over `adminBaseQuery`, which
 * sends the console's own token (admin-session.ts), reads the same envelope
 * (lib/envelope `interpret`) and, on 401/20001/7, ends only the console session;
 * the console's guard then shows `/admin/login`.
 *
 * Tags: `AdminOrder` per order id (detail, history), `AdminUser` per user id,
 * `AdminQueue` and `AdminLedger`, `AdminMe` (the signed-in roles), `AdminStaff` (the
 * staff accounts), `AdminTrail` (the audit trail), `AdminProducts` (the products'
 * versions and proposals) and `AdminSettings` (the lender's settings, likewise); every
 * action invalidates what
 * it changes. A refusal for the role (50005) re-reads `AdminMe`: the roles may have
 * changed since the session began.
 */
import { type BaseQueryApi, type FetchArgs } from '@reduxjs/toolkit/query/react';
import { api, envelopeQuery, type EnvelopeResult } from '@/lib/api';
import type { Sent, Wire } from '@/lib/wire';
import { adminSession } from './admin-session';
import type {
  AdminLogin,
  AdminMe,
  BookAsOf,
  FourEyes,
  CollectionQueue,
  CollectionRecord,
  JournalPage,
  OrderHistory,
  OrderReview,
  QueuePage,
  SetupDone,
  SetupInfo,
  SetupLink,
  StaffAccount,
  TrailPage,
  TrialBalance,
  UserDetail,
} from '@/lib/api-types';

/** Code 50005: the signed-in staff member's roles do not allow the call (issue 55). */
export const NOT_PERMITTED = 50005;

/**
 * `POST args.url` with the auditor token (and never the borrower's). Answers the
 * envelope's `data`, or an `ApiFailure`; 401, 20001 and 7 end the console session
 * (never the borrower's), and only the session that made the call (not one signed in
 * since).
 */
const consoleQuery = envelopeQuery({
  token: () => adminSession.token(),
  onEffect: (effect, _api, token) => {
    if (effect === 'signOut' && token && adminSession.token() === token) adminSession.signOut('expired');
  },
});

export const adminBaseQuery: <T = unknown>(
  args: FetchArgs,
  queryApi: BaseQueryApi,
  extra: unknown,
) => Promise<EnvelopeResult<T>> = async <T = unknown>(args: FetchArgs, queryApi: BaseQueryApi, extra: unknown) => {
  const result = await consoleQuery<T>(args, queryApi, extra);
  // Refused for the role: the roles may have changed since the sign-in; re-read them.
  if ('error' in result && result.error.code === NOT_PERMITTED) queryApi.dispatch(adminApi.util.invalidateTags(['AdminMe']));
  return result;
};

/** A `queryFn` calling `url` with the body (and headers) built from the argument. */
function call<T, A>(
  url: string | ((arg: A) => string),
  request: (arg: A) => { body?: unknown; headers?: Record<string, string> },
) {
  return (arg: A, queryApi: BaseQueryApi, extra: unknown) => {
    const { body = {}, headers } = request(arg);
    const path = typeof url === 'string' ? url : url(arg);
    return adminBaseQuery<T>({ url: path, body, headers }, queryApi, extra);
  };
}

/** The body of an order action: a note for the passes, a reason for the others. */
function orderActionBody({ action, orderId, text = '', chosen = [] }: OrderActionRequest) {
  if (action === 'startReview') return { orderId };
  if (action === 'passFirst' || action === 'passFinal') return { orderId, note: text };
  if (action === 'requestResubmission') return { orderId, reason: text, items: chosen };
  // A refusal's ticked choices are its coded reasons (issue 52); the text a note.
  return { orderId, reason: text, reasons: chosen };
}

/** The idempotency header of an action: one key per attempt (lib/idempotency). */
const keyed = (key: string | undefined) => (key ? { 'Idempotency-Key': key } : undefined);

export type OrderAction = 'startReview' | 'passFirst' | 'passFinal' | 'refuse' | 'requestResubmission';
/** `erase`: crypto-shred the borrower's personal data after the retention period (12.6). */
export type UserAction = 'verifyIdentity' | 'rejectIdentity' | 'hold' | 'releaseHold' | 'erase';

export interface OrderActionRequest {
  action: OrderAction;
  orderId: string;
  /** The note (pass first/final) or the reason (refuse, request resubmission). */
  text?: string;
  /** What a resubmission request asks the borrower to fix (PRODUCT.md 12.4). */
  chosen?: string[];
  idempotencyKey?: string;
}

export interface UserActionRequest {
  action: UserAction;
  userId: string;
  reason?: string;
  idempotencyKey?: string;
}

export interface QueueRequest {
  /** A status code of PRODUCT.md 4.3; omitted for all. */
  status?: number;
  /** Leave out closed orders (refused, repaid, cancelled, expired). */
  open?: boolean;
  /** Part of the applicant's name or mobile, or of the order number or id. */
  search?: string;
  page: number;
  pageSize: number;
}

export interface JournalRequest {
  orderId?: string;
  account?: string;
  page: number;
  pageSize: number;
}

export interface ManualRepaymentRequest {
  orderId: string;
  /** Decimal string with at most two places. */
  amount: string;
  /** The payment's reference (1–100 characters); the same reference applies once. */
  reference: string;
  idempotencyKey: string;
}

export interface ManualRepaymentResult {
  /** False when the reference was already applied, or when it awaits a second auditor. */
  recorded: boolean;
  /** True when, above 20,000, another auditor must enter the same payment. */
  awaitingSecondAuditor?: boolean;
}

export interface CollectionQueueRequest {
  /** A bucket's name (`1-30`); omitted for every late loan. */
  bucket?: string;
  /** A collector's id; `''` for the unassigned; omitted for all. */
  collector?: string;
  /** YYYY-MM-DD: only loans whose next action falls by then. */
  nextActionBy?: string;
}

/** A collector's command on a late loan (issue 53): each answers `data: null` or its code. */
export type CollectionAction =
  | {
      action: 'contact';
      orderId: string;
      channel: 'call' | 'sms' | 'email' | 'visit';
      person: 'borrower' | 'guarantor' | 'emergency_contact' | 'other';
      outcome: 'reached' | 'no_answer' | 'hardship' | 'disputed' | 'wrong_number';
      note: string;
      nextActionOn?: string;
      /** `sms` only, and required there: one of the lender's collection texts (P15). */
      template?: string;
    }
  | { action: 'assign'; orderId: string; collector: string }
  | { action: 'promise'; orderId: string; amount: string; date: string }
  | { action: 'chargeOff' | 'reverseChargeOff'; orderId: string; reason: string }
  | { action: 'waive'; orderId: string; kind: 'fees' | 'interest'; amount: string; reason: string }
  | {
      action: 'proposePlan';
      orderId: string;
      installments: number;
      everyDays: number;
      /** YYYY-MM-DD, today to 30 days ahead. */
      firstDue: string;
      /** Overdue fees waived, from 0 to those unpaid. */
      feesWaived: string;
      reason: string;
    }
  | { action: 'approvePlan'; orderId: string };

/** A staff account's command (issue 55): `assignRoles`, `disable`, `enable` answer null, `resetPassword` a link. */
export type StaffCommand =
  | ({ action: 'assignRoles' } & Wire['AssignRolesBody'])
  | ({ action: 'disable' } & Wire['DisableStaffBody'])
  | ({ action: 'enable' | 'resetPassword' } & Wire['StaffIdBody']);

/** A product change proposed (maker): `proposalId` a fresh UUID per submission, so a repeat is recorded once. */
export type ProductProposal = Sent<Wire['ProposeBody']>;

/** The checker's decision on another's proposal: `reason` for a rejection only. */
export type ProductDecision =
  | { action: 'approve'; productId: number; proposalId: string }
  | { action: 'reject'; productId: number; proposalId: string; reason: string };

/** A change of the lender's settings proposed (maker): the whole settings as they would be, a fresh `proposalId`. */
export type SettingsProposal = Sent<Wire['ProposeSettingsBody']>;

/** The checker's decision on another's settings proposal: `reason` for a rejection only. */
export type SettingsDecision = { action: 'approve'; proposalId: string } | { action: 'reject'; proposalId: string; reason: string };

/** The audit trail's filters and the page (`before`: the `next` of the newer page); each given one narrows. */
export type TrailRequest = Partial<Sent<Wire['TrailBody']>>;

const ADMIN_TAG_TYPES = [
  'AdminOrder',
  'AdminUser',
  'AdminQueue',
  'AdminLedger',
  'AdminCollections',
  'AdminMe',
  'AdminStaff',
  'AdminTrail',
  'AdminProducts',
  'AdminSettings',
] as const;

const withAdminTags = api.enhanceEndpoints({ addTagTypes: [...ADMIN_TAG_TYPES] });

/** Every console tag: a sign-in drops what the previous session cached. */
export const ADMIN_TAGS = ADMIN_TAG_TYPES;

export const adminApi = withAdminTags.injectEndpoints({
  endpoints: (build) => ({
    /**
     * 10002 wrong username, password or code; 5 too many attempts; 10004 `totpCode: ...`
     * when the account needs its authenticator code, or has none where one is required.
     */
    adminLogin: build.mutation<AdminLogin, Sent<Wire['AuditorLoginBody']>>({
      queryFn: call<AdminLogin, Sent<Wire['AuditorLoginBody']>>('admin/api/login', (body) => ({ body })),
    }),
    /** Who is signed in and what their roles allow (the roles may change while signed in). */
    adminMe: build.query<AdminMe, void>({
      queryFn: call<AdminMe, void>('admin/api/me', () => ({})),
      providesTags: ['AdminMe'],
    }),
    adminLogout: build.mutation<null, void>({
      queryFn: call<null, void>('admin/api/logout', () => ({})),
    }),
    adminQueue: build.query<QueuePage, QueueRequest>({
      queryFn: call<QueuePage, QueueRequest>('admin/api/orders/queue', (body) => ({ body })),
      providesTags: ['AdminQueue'],
    }),
    adminOrder: build.query<OrderReview, string>({
      queryFn: call<OrderReview, string>('admin/api/orders/detail', (orderId) => ({ body: { orderId } })),
      providesTags: (_r, _e, id) => [{ type: 'AdminOrder', id }],
    }),
    /** The server's fold of the order's events as of `atSequence` (default: the last). */
    adminHistory: build.query<OrderHistory, { orderId: string; atSequence?: number }>({
      queryFn: call<OrderHistory, { orderId: string; atSequence?: number }>('admin/api/orders/history', (body) => ({
        body,
      })),
      providesTags: (_r, _e, { orderId }) => [{ type: 'AdminOrder', id: orderId }],
    }),
    adminOrderAction: build.mutation<null, OrderActionRequest>({
      queryFn: call<null, OrderActionRequest>(
        ({ action }) => `admin/api/orders/${action}`,
        (request) => ({ body: orderActionBody(request), headers: keyed(request.idempotencyKey) }),
      ),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'AdminOrder', id: orderId }, 'AdminQueue', 'AdminUser'],
    }),
    adminUser: build.query<UserDetail, string>({
      queryFn: call<UserDetail, string>('admin/api/users/detail', (userId) => ({ body: { userId } })),
      providesTags: (_r, _e, id) => [{ type: 'AdminUser', id }],
    }),
    adminUserAction: build.mutation<null, UserActionRequest>({
      queryFn: call<null, UserActionRequest>(
        ({ action }) => `admin/api/users/${action}`,
        ({ action, userId, reason = '', idempotencyKey }) => ({
          body: action === 'verifyIdentity' || action === 'erase' ? { userId } : { userId, reason },
          headers: keyed(idempotencyKey),
        }),
      ),
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'AdminUser', id: userId }, 'AdminOrder', 'AdminQueue'],
    }),
    /**
     * `recorded` is false when the reference was already applied (nothing changed);
     * `awaitingSecondAuditor` when, above 20,000, another auditor must enter it too.
     */
    adminManualRepayment: build.mutation<ManualRepaymentResult, ManualRepaymentRequest>({
      queryFn: call<ManualRepaymentResult, ManualRepaymentRequest>(
        'admin/api/repayments/manual',
        ({ orderId, amount, reference, idempotencyKey }) => ({
          body: { orderId, amount, reference },
          headers: keyed(idempotencyKey),
        }),
      ),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'AdminOrder', id: orderId }, 'AdminQueue', 'AdminLedger'],
    }),
    adminCollectionQueue: build.query<CollectionQueue, CollectionQueueRequest>({
      queryFn: call<CollectionQueue, CollectionQueueRequest>('admin/api/collections/queue', (body) => ({ body })),
      providesTags: ['AdminCollections'],
    }),
    /** `asOf`: a day (YYYY-MM-DD, its end in UTC) or omitted for now. */
    adminBook: build.query<BookAsOf, string | undefined>({
      queryFn: call<BookAsOf, string | undefined>('admin/api/collections/book', (asOf) => ({
        body: asOf ? { asOf } : {},
      })),
      providesTags: ['AdminCollections'],
    }),
    adminCollectionRecord: build.query<CollectionRecord, string>({
      queryFn: call<CollectionRecord, string>('admin/api/collections/record', (orderId) => ({ body: { orderId } })),
      providesTags: ['AdminCollections'],
    }),
    /** 50001 outside the contact hours, 50002 a person who may not be contacted, 50004 a promise not valid. */
    adminCollectionAction: build.mutation<FourEyes | null, CollectionAction>({
      queryFn: call<FourEyes | null, CollectionAction>(
        ({ action }) => `admin/api/collections/${action}`,
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        ({ action, ...body }) => ({ body }),
      ),
      // A refused contact is recorded too: the record changes either way.
      invalidatesTags: ['AdminCollections'],
    }),
    adminJournal: build.query<JournalPage, JournalRequest>({
      queryFn: call<JournalPage, JournalRequest>('admin/api/ledger/journal', (body) => ({ body })),
      providesTags: ['AdminLedger'],
    }),
    adminTrialBalance: build.query<TrialBalance, void>({
      queryFn: call<TrialBalance, void>('admin/api/ledger/trialBalance', () => ({})),
      providesTags: ['AdminLedger'],
    }),
    adminStaff: build.query<StaffAccount[], void>({
      queryFn: call<StaffAccount[], void>('admin/api/staff/list', () => ({})),
      providesTags: ['AdminStaff'],
    }),
    /** A new account and its one-time setup link (shown once, never again). */
    adminCreateStaff: build.mutation<SetupLink, Wire['CreateStaffBody']>({
      queryFn: call<SetupLink, Wire['CreateStaffBody']>('admin/api/staff/create', (body) => ({ body })),
      invalidatesTags: ['AdminStaff', 'AdminTrail'],
    }),
    /** 10004 e.g. removing your own admin role, disabling your own account. */
    adminStaffCommand: build.mutation<SetupLink | null, StaffCommand>({
      queryFn: call<SetupLink | null, StaffCommand>(
        ({ action }) => `admin/api/staff/${action}`,
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        ({ action, ...body }) => ({ body }),
      ),
      // Changing one's own roles changes what the console shows.
      invalidatesTags: ['AdminStaff', 'AdminTrail', 'AdminMe'],
    }),
    /** The setup link's page (no session): 10004 for a dead link. */
    adminSetupInfo: build.query<SetupInfo, string>({
      queryFn: call<SetupInfo, string>('admin/api/staff/setupInfo', (token) => ({ body: { token } })),
    }),
    /** 10004 `password: ...`, `totpCode: ...` or `token: ...` (a dead link). */
    adminCompleteSetup: build.mutation<SetupDone, Sent<Wire['CompleteSetupBody']>>({
      queryFn: call<SetupDone, Sent<Wire['CompleteSetupBody']>>('admin/api/staff/completeSetup', (body) => ({ body })),
    }),
    adminTrail: build.query<TrailPage, TrailRequest>({
      queryFn: call<TrailPage, TrailRequest>('admin/api/audit/trail', (body) => ({ body })),
      providesTags: ['AdminTrail'],
    }),
    /** Every product with its versions (oldest first) and proposals (newest first). */
    adminProducts: build.query<Wire['ProductLineView'][], void>({
      queryFn: call<Wire['ProductLineView'][], void>('admin/api/products/list', () => ({})),
      providesTags: ['AdminProducts'],
    }),
    /** 50007 a compliance cap broken (the message names it); 10004 a field out of bounds; 40007 unknown product. */
    adminProposeProduct: build.mutation<Wire['Proposed'], ProductProposal>({
      queryFn: call<Wire['Proposed'], ProductProposal>('admin/api/products/propose', (body) => ({ body })),
      invalidatesTags: ['AdminProducts', 'AdminTrail'],
    }),
    /** Approve: 50006 its maker, 10004 overtaken by a newer version. Reject: with a reason. */
    adminDecideProduct: build.mutation<null, ProductDecision>({
      queryFn: call<null, ProductDecision>(
        ({ action }) => `admin/api/products/${action}`,
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        ({ action, ...body }) => ({ body }),
      ),
      // A refused approval too: the list may have changed (a newer version).
      invalidatesTags: ['AdminProducts', 'AdminTrail'],
    }),
    /** The lender's settings: the version in force, every version (oldest first), the proposals (newest first). */
    adminSettings: build.query<Wire['SettingsLineView'] | null, void>({
      queryFn: call<Wire['SettingsLineView'] | null, void>('admin/api/settings/list', () => ({})),
      providesTags: ['AdminSettings'],
    }),
    /** 10004 a field out of bounds (the message names it). */
    adminProposeSettings: build.mutation<Wire['Proposed'], SettingsProposal>({
      queryFn: call<Wire['Proposed'], SettingsProposal>('admin/api/settings/propose', (body) => ({ body })),
      invalidatesTags: ['AdminSettings', 'AdminTrail'],
    }),
    /** Approve: 50006 its maker, 10004 overtaken by a newer version. Reject: with a reason. */
    adminDecideSettings: build.mutation<null, SettingsDecision>({
      queryFn: call<null, SettingsDecision>(
        ({ action }) => `admin/api/settings/${action}`,
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        ({ action, ...body }) => ({ body }),
      ),
      invalidatesTags: ['AdminSettings', 'AdminTrail'],
    }),
  }),
});

export const {
  useAdminLoginMutation,
  useAdminLogoutMutation,
  useAdminQueueQuery,
  useAdminOrderQuery,
  useAdminHistoryQuery,
  useAdminOrderActionMutation,
  useAdminUserQuery,
  useAdminUserActionMutation,
  useAdminManualRepaymentMutation,
  useAdminJournalQuery,
  useAdminTrialBalanceQuery,
  useAdminCollectionQueueQuery,
  useAdminBookQuery,
  useAdminCollectionRecordQuery,
  useAdminCollectionActionMutation,
  useAdminMeQuery,
  useAdminStaffQuery,
  useAdminCreateStaffMutation,
  useAdminStaffCommandMutation,
  useAdminSetupInfoQuery,
  useAdminCompleteSetupMutation,
  useAdminTrailQuery,
  useAdminProductsQuery,
  useAdminProposeProductMutation,
  useAdminDecideProductMutation,
  useAdminSettingsQuery,
  useAdminProposeSettingsMutation,
  useAdminDecideSettingsMutation,
} = adminApi;
