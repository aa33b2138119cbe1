/** A wire-shaped order timeline for the tests (checked against the api). */
import type { TimelineEvent } from '@/lib/api-types';

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
