import type { TimelineDetail, TimelineEvent } from '@/lib/api-types';
import { deriveMovements, hasMovements } from '../movements';

const event = (sequence: number, type: string, at: string, detail: TimelineDetail = {}): TimelineEvent => ({
  sequence,
  type,
  at,
  by: 'system',
  detail,
});

describe('deriveMovements', () => {
  it('keeps payouts (net amount) and repayments of every order, newest first', () => {
    const movements = deriveMovements([
      {
        orderId: 'old',
        events: [
          event(1, 'LoanApplied', '2026-09-01T08:00:00Z', { amount: '80000.00', periodDays: 6 }),
          event(5, 'PayoutRequested', '2026-09-02T08:00:00Z', { amount: '80000.00' }),
          event(6, 'PayoutSucceeded', '2026-09-02T08:00:01Z', { principal: '80000.00', netAmount: '79200.00' }),
          event(7, 'RepaymentReceived', '2026-09-03T08:00:00Z', { amount: '20000.00' }),
          event(8, 'OverdueFeeCharged', '2026-09-04T00:00:00Z', { period: 1, amount: '12.00' }),
          event(9, 'RepaymentReceived', '2026-09-05T08:00:00Z', { amount: '60960.00' }),
          event(10, 'LoanRepaid', '2026-09-05T08:00:00Z', { interestWaived: '0.00' }),
        ],
      },
      {
        orderId: 'new',
        events: [
          event(5, 'PayoutRequested', '2026-11-22T06:41:36.589079Z', { amount: '50000.00' }),
          event(6, 'PayoutSucceeded', '2026-11-22T06:41:36.591248Z', { principal: '50000.00', netAmount: '50000.00' }),
          event(7, 'RepaymentReceived', '2026-11-22T06:41:44.332055Z', { amount: '1000.00' }),
        ],
      },
    ]);
    expect(movements).toEqual([
      { id: 'new:7', orderId: 'new', kind: 'repayment', amount: '1000.00', at: '2026-11-22T06:41:44.332055Z' },
      { id: 'new:6', orderId: 'new', kind: 'disbursement', amount: '50000.00', at: '2026-11-22T06:41:36.591248Z' },
      { id: 'old:9', orderId: 'old', kind: 'repayment', amount: '60960.00', at: '2026-09-05T08:00:00Z' },
      { id: 'old:7', orderId: 'old', kind: 'repayment', amount: '20000.00', at: '2026-09-03T08:00:00Z' },
      { id: 'old:6', orderId: 'old', kind: 'disbursement', amount: '79200.00', at: '2026-09-02T08:00:01Z' },
    ]);
  });

  it('orders events of the same instant by sequence, newest first', () => {
    const at = '2026-11-22T06:00:00Z';
    const movements = deriveMovements([
      { orderId: 'o', events: [event(3, 'RepaymentReceived', at, { amount: '1.00' }), event(4, 'RepaymentReceived', at, { amount: '2.00' })] },
    ]);
    expect(movements.map((m) => m.amount)).toEqual(['2.00', '1.00']);
  });

  it('skips events without an amount', () => {
    const repayment = event(4, 'RepaymentReceived', '2026-11-22T06:00:00Z', { amount: '300.00' });
    const broken = event(3, 'PayoutSucceeded', '2026-11-22T05:00:00Z');
    expect(deriveMovements([{ orderId: 'o', events: [broken, repayment] }])).toEqual([
      { id: 'o:4', orderId: 'o', kind: 'repayment', amount: '300.00', at: '2026-11-22T06:00:00Z' },
    ]);
  });

  it('is empty without orders or money events', () => {
    expect(deriveMovements([])).toEqual([]);
    expect(deriveMovements([{ orderId: 'o', events: [event(1, 'LoanApplied', '2026-11-22T06:00:00Z')] }])).toEqual([]);
  });
});

describe('hasMovements', () => {
  it('only disbursed (4) and repaid (10) orders have money movements', () => {
    expect([0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13].filter(hasMovements)).toEqual([4, 10]);
  });
});
