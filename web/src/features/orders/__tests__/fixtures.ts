/** Wire-shaped orders for the tests, as `/loan/orderInfo` answers (checked against the api). */
import type { Order, TimelineEvent } from '@/lib/types';

export function orderFixture(overrides: Partial<Order> = {}): Order {
  return {
    orderId: 'o1',
    appId: 1,
    productName: 'Cash Loan',
    status: 9,
    principal: '80000.00',
    applyAmount: '80000.00',
    applyTime: '2026-11-22T06:41:31.346712Z',
    rate: '0.2',
    apr: '73',
    periodDays: 6,
    balance: '80000.00',
    realName: 'Ana Cruz',
    lastWithdrawAmount: null,
    interest: '960.00',
    totalRepay: '80960.00',
    repaid: '0.00',
    remaining: '0.00',
    interestWaived: null,
    paidAt: null,
    offerExpiresAt: '2026-11-29T06:41:31.664550Z',
    refuseReason: null,
    resubmissionReason: null,
    lastWithdrawError: null,
    payoutInFlight: false,
    disclosure: null,
    periodViews: [],
    ...overrides,
  };
}

export const timelineFixture: TimelineEvent[] = [
  { at: '2026-11-22T06:41:31.346712Z', by: 'user', detail: { amount: '80000.00', periodDays: 6 }, sequence: 1, type: 'LoanApplied' },
  { at: '2026-11-22T06:41:31.602637Z', by: 'auditor', detail: {}, sequence: 2, type: 'ReviewStarted' },
  {
    at: '2026-11-22T06:41:31.664550Z',
    by: 'auditor',
    detail: { approvedAmount: '80000.00', offerExpiresAt: '2026-11-29T06:41:31.664550Z' },
    sequence: 3,
    type: 'FinalAuditPassed',
  },
];
