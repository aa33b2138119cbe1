/**
 * Wire shapes of the auditor calls (PRODUCT.md 7), as api/src/routes/admin.rs
 * answers them. Money fields are decimal strings with two places; times are
 * RFC 3339 UTC strings. Actors are `user:<id>`, `auditor:<id>` or `system`.
 */
import type { Order, OrderSummary, Lock, User } from '@/lib/api-types';
import type { Disclosure, Questionnaire } from '@/lib/types';

/** `/admin/api/login`. */
export interface AdminLogin {
  token: string;
  auditorId: string;
  username: string;
}

/** One order of `/admin/api/orders/queue`, with its applicant summary. */
export interface QueueItem {
  orderId: string;
  /** What people see (PRODUCT.md 12.5), e.g. "HL-2611-000123". */
  orderNo?: string;
  status: number;
  applyAmount: string;
  periodDays: number | null;
  productName: string | null;
  applyTime: string;
  /** When the order last changed (its age in the current status). */
  updatedAt: string;
  applicant: {
    userId: string;
    realName: string | null;
    mobile: string | null;
    /** 0 none, 1 submitted, 2 verified, 3 rejected (PRODUCT.md 4.1). */
    identityStatus: number | null;
  };
}

/** A page of a paged call: `page` from 1. */
export interface Paged {
  total: number;
  page: number;
  pageSize: number;
}

export interface QueuePage extends Paged {
  orders: QueueItem[];
}

/** A stored image, served to auditors by `GET {url}` (`/files/...`). */
export interface ImageRef {
  key: string;
  url: string;
  sha256: string;
}

export interface IdImages {
  front: ImageRef;
  back: ImageRef;
  handHold: ImageRef;
}

export interface Contact {
  name: string;
  relation: string;
  mobile: string;
}

/** One event of the order detail's timeline (the read model, with the raw actor). */
export interface AdminTimelineEntry {
  sequence: number;
  at: string;
  type: string;
  actor: string;
  detail: Record<string, unknown>;
}

/** The review facts of `/admin/api/orders/detail` `review`. */
export interface Review {
  status: number;
  firstAuditor: string | null;
  finalAuditor: string | null;
  refusal: { stage: string; reason: string; auditorId: string } | null;
  resubmissionReason: string | null;
  /** What the pending request asks to fix (PRODUCT.md 12.4); empty when none. */
  resubmissionItems?: string[];
  approvedAmount: string;
  offerExpiresAt: string | null;
  termsVersion: string | null;
}

/** `/admin/api/orders/detail`. */
export interface OrderReview {
  order: Order & { userId: string };
  review: Review;
  applicant: User | null;
  identityStatus: number | null;
  images: IdImages | null;
  questionnaire: Questionnaire | null;
  contacts: Contact[] | null;
  /** What the borrower signed at application (P5). */
  disclosure: Disclosure | null;
  /** The same terms on the amount paid out (P10); null until paid out. */
  loanDisclosure: Disclosure | null;
  signature: ImageRef | null;
  timeline: AdminTimelineEntry[];
}

/** One event of `/admin/api/orders/history`. */
export interface HistoryEvent {
  sequence: number;
  time: string;
  actor: string;
  /** The auditor's username when the actor is an auditor. */
  actorName: string | null;
  type: string;
  /** The stored event: `{ <Type>: {...fields} }`. */
  payload: unknown;
}

/** `/admin/api/orders/history`: every event, and the server's fold as of `atSequence`. */
export interface OrderHistory {
  orderId: string;
  events: HistoryEvent[];
  atSequence: number;
  /** The status code (PRODUCT.md 4.3) as of `atSequence`. */
  status: number;
  /** The order aggregate's state as of `atSequence`. */
  state: Record<string, unknown>;
}

/** `/admin/api/users/detail`. */
export interface UserDetail {
  profile: User;
  identity: {
    /** 0 none, 1 submitted, 2 verified, 3 rejected. */
    status: number;
    rejectReason: string | null;
    images: IdImages | null;
  };
  lock: Lock | null;
  contacts: Contact[];
  orders: OrderSummary[];
  /** What auditors did to the account (identity decisions, holds), oldest first. */
  auditorActions?: AuditorAction[];
}

/** One auditor action on a user, from the user's events. */
export interface AuditorAction {
  sequence: number;
  time: string | null;
  actor: string;
  actorName: string | null;
  /** The User event type, e.g. IdentityVerified, IdentityRejected, AccountLocked, AccountUnlocked. */
  type: string;
  payload: Record<string, unknown>;
}

/**
 * Who a ledger account belongs to (api queries/admin.rs `AccountHolder`): `account`
 * is the journal's name (`borrower_wallet:<user id>`), `kind` that name without the
 * id; a wallet or receivable also has its order's number and the applicant's name.
 */
export interface LedgerAccount {
  account: string;
  /** `lender_cash`, `loan_receivable`, `borrower_wallet`, `payout_clearing`, ... */
  kind?: string;
  orderNo?: string | null;
  holder?: string | null;
}

export interface Posting extends LedgerAccount {
  postingNo: number;
  /** Debits are positive, credits negative. */
  amount: string;
}

export interface JournalEntry {
  entryId: string;
  at: string;
  orderId: string | null;
  /** The order's human number, when known. */
  orderNo?: string | null;
  /** What the entry records (`payout_sent`, `repayment`, ...); null when the api does not know it. */
  code?: string | null;
  /** The same in English, as stored. */
  description: string;
  postings: Posting[];
}

export interface JournalPage extends Paged {
  entries: JournalEntry[];
}

export interface AccountBalance extends LedgerAccount {
  /** Debit balances positive, credit balances negative. */
  balance: string;
  postings: number;
}

/** `/admin/api/ledger/trialBalance`: the balances sum to zero when the books balance. */
export interface TrialBalance {
  accounts: AccountBalance[];
  sum: string;
  balanced: boolean;
}
