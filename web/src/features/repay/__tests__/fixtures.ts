/** A disbursed loan as `/loan/orderInfo` answers it (shape checked against the api). */
import type { Order } from '@/lib/api-types';
import { orderFixture } from '@/testing/fixtures';

export function disbursedOrder(overrides: Partial<Order> = {}): Order {
  const line = (period: number, amt: string, paid = '0.00', status = 0) => ({
    period,
    dueDate: `2026-11-${String(22 + period).padStart(2, '0')}`,
    amt,
    paid,
    status,
    waived: '0.00',
  });
  return orderFixture({
    status: 4,
    principal: '50000.00',
    balance: '0.00',
    lastWithdrawAmount: '50000.00',
    interest: '600.00',
    totalRepay: '50600.00',
    repaid: '1000.00',
    remaining: '49600.00',
    interestWaived: '0.00',
    paidAt: '2026-11-22T06:41:36.591248Z',
    periodViews: [
      line(1, '8433.30', '1000.00'),
      line(2, '8433.30'),
      line(3, '8433.30'),
      line(4, '8433.30'),
      line(5, '8433.30'),
      line(6, '8433.50'),
    ],
    ...overrides,
  });
}
