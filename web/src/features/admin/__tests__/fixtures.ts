/** Console answers shaped as api/src/routes/admin.rs sends them (checked against a running api). */
import { http, HttpResponse } from 'msw';
import { answer } from '@/testing/server';
import { disclosureFixture, orderFixture, userFixture } from '@/testing/fixtures';
import type { AdminMe, OrderHistory, OrderReview, QueueItem, StaffRole, TrialBalance } from '@/lib/api-types';
import type { Auditor } from '../admin-session';

export const ALICE = { auditorId: 'a-1', username: 'alice' };
export const BOB = { auditorId: 'b-2', username: 'bob' };

/** Every role, and the permissions they hold together (docs/permissions.md). */
export const ALL_ROLES: StaffRole[] = ['reviewer', 'collector', 'finance', 'compliance', 'admin'];
/** What each role allows (api/src/accounts/roles.rs). */
export const ROLE_PERMISSIONS: Record<StaffRole, string[]> = {
  reviewer: ['orders.read', 'orders.review', 'borrowers.read'],
  collector: ['orders.read', 'borrowers.read', 'collections'],
  finance: ['orders.read', 'money', 'ledger'],
  compliance: ['orders.read', 'borrowers.read', 'identity.decide', 'accounts.hold', 'personalData', 'audit.read'],
  admin: ['staff', 'audit.read', 'settings'],
};

/** What `/admin/api/me` answers for `auditor` holding `roles`. */
export function access(roles: StaffRole[] = ALL_ROLES, auditor = ALICE): AdminMe {
  return { auditorId: auditor.auditorId, roles, permissions: [...new Set(roles.flatMap((role) => ROLE_PERMISSIONS[role]))] };
}

/**
 * Signs the console in (as `window.localStorage` holds it after a login); with `roles`,
 * the session keeps them and their permissions, as a login answer gives them.
 */
export function signInConsole(auditor = ALICE, token = 'admin-token', roles?: StaffRole[]) {
  const user: Auditor = roles ? { ...auditor, roles, permissions: access(roles, auditor).permissions } : auditor;
  localStorage.setItem('adminToken', token);
  localStorage.setItem('adminUser', JSON.stringify(user));
}

/** What every console screen also asks for (the company configuration, images, the signed-in roles). */
export const background = [
  // The console reads the roles when it mounts (admin-app.tsx): every role.
  answer('admin/api/me', access()),
  // The order page's documents (order-documents.tsx).
  answer('admin/api/documents/receipts', []),
  answer('admin/api/documents/downloads', []),
  answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }),
  http.get('http://localhost/files/*', () => new HttpResponse(null, { status: 404 })),
];

export function queueItem(overrides: Partial<QueueItem> = {}): QueueItem {
  return {
    orderId: '01a2021f-9257-71fc-94b1-89cc8b30bcdd',
    orderNo: 'HL-2611-000001',
    status: 0,
    applyAmount: '100000.00',
    periodDays: 6,
    productName: 'Cash Loan',
    applyTime: '2026-11-22T07:19:13.255084Z',
    updatedAt: '2026-11-22T07:19:13.255084Z',
    applicant: { userId: 'u1', realName: 'Ana Santos', mobile: '09170000000', identityStatus: 1 },
    ...overrides,
  };
}

export function orderReview(status: number, overrides: Partial<OrderReview> = {}): OrderReview {
  return {
    order: { ...orderFixture({ orderId: 'o1', status, disclosure: disclosureFixture }), userId: 'u1' },
    review: {
      status,
      firstAuditor: status >= 3 ? ALICE.auditorId : null,
      finalAuditor: null,
      refusal: null,
      resubmissionReason: null,
      resubmissionItems: [],
      lastResubmission: null,
      approvedAmount: '0.00',
      offerExpiresAt: null,
      termsVersion: '2026-11',
    },
    applicant: { ...userFixture(), userId: 'u1', realName: 'Ana Santos' },
    identityStatus: 2,
    images: null,
    questionnaire: {
      job: 'teacher',
      monthlyIncome: '30000',
      expenses: '12000',
      loanPurpose: 'tuition',
      loanBefore: false,
      guarantee: true,
    },
    contacts: [],
    disclosure: disclosureFixture,
    loanDisclosure: null,
    signature: null,
    timeline: [
      { actor: 'user:u1', at: '2026-11-22T07:19:13.255084Z', detail: { amount: '80000.00', periodDays: 6 }, sequence: 1, type: 'LoanApplied' },
      { actor: `auditor:${ALICE.auditorId}`, at: '2026-11-22T07:20:00Z', detail: {}, sequence: 2, type: 'ReviewStarted' },
      { actor: `auditor:${ALICE.auditorId}`, at: '2026-11-22T07:21:00Z', detail: {}, sequence: 3, type: 'FirstAuditPassed' },
    ],
    ...overrides,
  };
}

export function history(atSequence = 3, status = 3): OrderHistory {
  return {
    orderId: 'o1',
    atSequence,
    status,
    state: { id: 'o1', applicant_name: 'Ana Santos', status: 'AwaitingFinalReview', first_auditor: ALICE.auditorId, payment_refs: [] },
    events: [
      { sequence: 1, time: '2026-11-22T07:19:13Z', actor: 'user:u1', actorName: null, type: 'LoanApplied', payload: { LoanApplied: { amount: '80000' } } },
      { sequence: 2, time: '2026-11-22T07:20:00Z', actor: `auditor:${ALICE.auditorId}`, actorName: 'alice', type: 'ReviewStarted', payload: { ReviewStarted: {} } },
      { sequence: 3, time: '2026-11-22T07:21:00Z', actor: `auditor:${ALICE.auditorId}`, actorName: 'alice', type: 'FirstAuditPassed', payload: { FirstAuditPassed: { note: 'documents match' } } },
    ],
  };
}

export function trialBalance(sum: string, balanced = sum === '0.00'): TrialBalance {
  return {
    accounts: [
      { account: 'interest_income', kind: 'interest_income', orderNo: null, holder: null, balance: '-360.00', postings: 1 },
      { account: 'lender_cash', kind: 'lender_cash', orderNo: null, holder: null, balance: '-30000.00', postings: 1 },
      {
        account: 'loan_receivable:o1',
        kind: 'loan_receivable',
        orderNo: 'HL-2611-000123',
        holder: 'Ana Santos',
        balance: '30360.00',
        postings: 1,
      },
      { account: 'payout_clearing', kind: 'payout_clearing', orderNo: null, holder: null, balance: '0.00', postings: 2 },
      {
        account: 'borrower_wallet:01a2021f-9257-71fc-94b1-89cc8b30bcdd',
        kind: 'borrower_wallet',
        orderNo: 'HL-2611-000123',
        holder: 'Ana Santos',
        balance: '0.00',
        postings: 2,
      },
    ],
    sum,
    balanced,
  };
}
