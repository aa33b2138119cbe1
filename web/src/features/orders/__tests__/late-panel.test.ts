/** How late a loan is, as the borrower's order page counts it (issue 53). */
import { daysLate } from '../late-panel';
import type { Order } from '@/lib/api-types';

const order = (periods: [string, number][]) =>
  ({
    periodViews: periods.map(([dueDate, status], i) => ({
      amt: '100.00',
      dueDate,
      paid: status === 1 ? '100.00' : '0.00',
      period: i + 1,
      status,
      waived: '0.00',
    })),
  }) as unknown as Order;

describe('daysLate', () => {
  it('counts from the oldest installment not paid, as the server does', () => {
    const loan = order([
      ['2026-12-01', 1],
      ['2026-12-02', 2],
      ['2026-12-03', 0],
    ]);
    expect(daysLate(loan, '2026-12-12')).toBe(10);
  });
  it('is 0 when nothing is past due: due today, or all paid', () => {
    expect(daysLate(order([['2026-12-12', 0]]), '2026-12-12')).toBe(0);
    expect(daysLate(order([['2026-12-01', 1]]), '2026-12-12')).toBe(0);
  });
});
