/**
 * How the console words things: the status codes of PRODUCT.md 4.3 with the
 * auditor's labels (not the borrower's "Under review"), ages ("3 hr. ago"),
 * actors ("alice", "Borrower", "System") and the server's refusals in the
 * auditor's terms (four eyes, identity not verified, wrong status).
 */
import type { TFunction } from 'i18next';
import type { ApiFailure } from '@/lib/envelope';
import { intlLocale } from '@/lib/locale';
import { orderEventLabel } from '@/lib/order-events';
import type { LedgerAccount, StaffRole } from '@/lib/api-types';
// The console's strings: whatever words things for the console (screens, tests) has them.
import './admin-i18n';

/** The queue filter's statuses, in the order of the review flow (PRODUCT.md 7 "Queue"). */
export const QUEUE_STATUSES = [0, 1, 2, 3, 9, 4, 5, 12, 10, 11, 13] as const;

export function statusLabel(t: TFunction, status: number | null | undefined): string {
  if (status === null || status === undefined) return '—';
  return t(`admin_status_${status}`, { defaultValue: String(status) });
}

export type Tone = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** The colour of a status: blue while in review, green approved or repaid, red refused. */
export function statusTone(status: number): Tone {
  if (status === 0 || status === 1 || status === 3) return 'primary';
  if (status === 2) return 'warning';
  if (status === 9 || status === 10) return 'success';
  if (status === 4) return 'warning';
  if (status === 5 || status === 12) return 'danger';
  return 'default';
}

export function identityLabel(t: TFunction, status: number | null | undefined): string {
  if (status === null || status === undefined) return '—';
  return t(`admin_identity_${status}`, { defaultValue: String(status) });
}

/** An order event type with the auditor's label ("Final review passed"). */
export function eventLabel(t: TFunction, type: string): string {
  return orderEventLabel(t, 'admin_event_', type);
}

/**
 * How long ago `iso` was, relative to `now`, in the language's words ("3 hr.
 * ago", "3小时前"); '—' when it is not a time.
 */
export function age(iso: string | null | undefined, language: string, now: number = Date.now()): string {
  if (!iso) return '—';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '—';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  const format = new Intl.RelativeTimeFormat(intlLocale(language), { numeric: 'auto', style: 'short' });
  if (seconds < 60) return format.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return format.format(-hours, 'hour');
  return format.format(-Math.floor(hours / 24), 'day');
}

export interface ActorView {
  kind: 'auditor' | 'user' | 'system' | 'other';
  /** The auditor's username, the user id, or the raw actor. */
  id: string;
  /** What to show. */
  label: string;
}

/**
 * An event's actor (`auditor:<id>`, `user:<id>`, `system`) as the console shows
 * it: the auditor's username when known (`names` maps auditor ids to usernames),
 * else the id.
 */
export function actorView(t: TFunction, actor: string, names: ReadonlyMap<string, string>): ActorView {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'auditor') {
    const name = names.get(id);
    return { kind, id, label: name ? t('admin_actor_auditor', { name }) : t('admin_actor_auditor', { name: id }) };
  }
  if (kind === 'user') return { kind, id, label: t('admin_actor_user') };
  if (actor === 'system') return { kind: 'system', id: actor, label: t('admin_actor_system') };
  return { kind: 'other', id: actor, label: actor };
}

/** The text after "request error: " (the server's words for a 10004). */
function detail(message: string | undefined): string {
  return (message ?? '').replace(/^request error:\s*/i, '');
}

/**
 * A failed console call in the auditor's terms. The server's codes are the
 * borrower catalogue (PRODUCT.md 9), worded for borrowers, so the console maps
 * the auditor cases itself:
 * - 10004 "...must be done by another auditor..." → the four-eyes message;
 * - 40000 "...identity is not verified" → verify the identity first;
 * - 10004 "cannot <action> an order in status <n>" → the status, by name;
 * - 10002 at login → wrong username or password;
 * - 10009 → no ID photos awaiting review;
 * - 40005 → the borrower has an open order (erasing personal data waits for it);
 * - 50007 → a product change breaks a compliance cap, naming it;
 * - 50005 → the signed-in roles do not allow the call, naming the permission;
 * - any other 10004 → the server's own words; the rest as the app shows them.
 */
export function adminErrorMessage(t: TFunction, error: unknown): string {
  const failure = error as ApiFailure | undefined;
  if (!failure || typeof failure !== 'object' || !('code' in failure)) return t('common_network_error');
  const server = failure.serverMessage ?? '';
  if (failure.code === 10004 && /another auditor/i.test(server)) return t('admin_error_four_eyes');
  if (failure.code === 40000 && /identity/i.test(server)) return t('admin_error_identity_not_verified');
  if (failure.code === 10002) return t('admin_error_login');
  if (failure.code === 10009) return t('admin_error_no_identity_pending');
  if (failure.code === 40005) return t('admin_error_open_order');
  if (failure.code === 50005) {
    // "not permitted for your role (orders.review)"
    const permission = /\(([\w.]+)\)\s*$/.exec(server)?.[1];
    return permission ? t('admin_error_not_permitted', { permission }) : failure.message;
  }
  // An approval by an account the proposer set up (issue 55): not a second pair of eyes.
  if (failure.code === 50006 && /set up the approving account/i.test(server)) return t('admin_error_makers_account');
  // A product change that breaks a compliance cap: the server's message names the cap.
  if (failure.code === 50007 && server) return t('admin_error_cap', { detail: detail(server) });
  const wrongStatus = /cannot (.+) an order in status (\d+)/i.exec(server);
  if (failure.code === 10004 && wrongStatus) {
    return t('admin_error_wrong_status', { status: statusLabel(t, Number(wrongStatus[2])) });
  }
  if (failure.code === 10004 && server) return t('admin_error_request', { detail: detail(server) });
  if (failure.code === 40007) {
    const what = server.replace(/^record not found:?\s*/i, '');
    return what ? t('admin_error_not_found_detail', { detail: what }) : t('service_error_40007');
  }
  return failure.message;
}

/**
 * Whole years from `birthday` (`YYYY-MM-DD`) to the day of `at` (RFC 3339, taken in
 * UTC, like the server's dates); null when either is missing or not a date.
 */
export function ageAt(birthday: string | null | undefined, at: string | null | undefined): number | null {
  const born = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday ?? '');
  const when = at ? new Date(at) : null;
  if (!born || !when || Number.isNaN(when.getTime())) return null;
  const [year, month, day] = born.slice(1).map(Number);
  let years = when.getUTCFullYear() - year;
  const beforeBirthday = when.getUTCMonth() + 1 < month || (when.getUTCMonth() + 1 === month && when.getUTCDate() < day);
  if (beforeBirthday) years -= 1;
  return years >= 0 ? years : null;
}

/**
 * The applied amount over the stated monthly income (both decimal strings), e.g.
 * 100000 / 30000 → 3.33; null when no positive income is stated.
 */
export function incomeMultiple(amount: string | null | undefined, monthlyIncome: string | null | undefined): number | null {
  const income = Number((monthlyIncome ?? '').trim());
  const applied = Number((amount ?? '').trim());
  if (!monthlyIncome?.trim() || !Number.isFinite(income) || income <= 0 || !Number.isFinite(applied)) return null;
  return applied / income;
}

/** The ledger's accounts (DESIGN.md "Ledger accounts") that have a label. */
const ACCOUNT_KINDS = [
  'lender_cash',
  'payout_clearing',
  'payment_clearing',
  'interest_income',
  'fee_income',
  'loan_receivable',
  'borrower_wallet',
];

/**
 * A ledger account as people say it: "Borrower wallet · Ana Santos", "Loan
 * receivable · HL-2611-000123", "Lender cash". A wallet or receivable whose holder
 * the read models do not know yet shows the end of its id; an unknown account its
 * journal name.
 */
export function accountLabel(t: TFunction, item: LedgerAccount): string {
  const [prefix, ...rest] = item.account.split(':');
  const kind = item.kind ?? prefix;
  if (!ACCOUNT_KINDS.includes(kind)) return item.account;
  const label = t(`admin_account_${kind}`);
  const id = rest.join(':');
  if (!id) return label;
  const who = kind === 'borrower_wallet' ? item.holder : item.orderNo;
  return `${label} · ${who || `…${id.slice(-12)}`}`;
}

/**
 * A delinquency bucket's name as the api gives it (`current`, `1-30`, `over 180`;
 * configuration, issue 53) in the officer's language.
 */
export function bucketLabel(t: TFunction, name: string | null | undefined): string {
  if (!name) return '—';
  if (name === 'current') return t('admin_bucket_current');
  const over = /^over (\d+)$/.exec(name);
  return over ? t('admin_bucket_over', { n: over[1] }) : name;
}

/** The staff roles (issue 55), in the order the console lists them. */
export const STAFF_ROLES: readonly StaffRole[] = ['reviewer', 'collector', 'finance', 'compliance', 'admin'];

/** A staff role's name in the console's language ("Reviewer"); an unknown one as it is. */
export function roleLabel(t: TFunction, role: string): string {
  return t(`admin_role_${role}`, { defaultValue: role });
}

/** Roles as one line ("Reviewer, Admin"), in the console's order. */
export function rolesLabel(t: TFunction, roles: readonly string[]): string {
  const ordered = [...roles].sort((a, b) => STAFF_ROLES.indexOf(a as StaffRole) - STAFF_ROLES.indexOf(b as StaffRole));
  return ordered.map((role) => roleLabel(t, role)).join(', ');
}

/**
 * The field a 10004 names ("totpCode: enter the 6-digit code ...") and the server's
 * reason; null for another failure.
 */
export function badInput(error: unknown): { field: string; reason: string } | null {
  const failure = error as ApiFailure | undefined;
  if (!failure || typeof failure !== 'object' || failure.code !== 10004) return null;
  const match = /^(?:request error:\s*)?([A-Za-z][\w.]*):\s*(.*)$/s.exec(failure.serverMessage ?? '');
  return match ? { field: match[1], reason: match[2] } : null;
}

/** An authenticator code as typed: digits only, at most six. */
export const codeDigits = (text: string) => text.replace(/\D/g, '').slice(0, 6);
