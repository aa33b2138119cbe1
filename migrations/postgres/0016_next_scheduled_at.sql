-- The scheduler visits only the orders it may have something to ask of (PRODUCT.md 4.3
-- offer expiry, 4.4 overdue accrual, 12.5 reminders), not every offer and loan every
-- minute.
--
-- order_detail.next_scheduled_at: the first moment (UTC, RFC 3339 as every time column,
-- `2026-11-29T00:00:00.000000Z`) at which the order could record an expired offer, an
-- overdue mark, a day's fee or a reminder (`Order::next_scheduled_at`), written by the
-- orders projection with the rest of the row; '9999-12-31' when no moment will come
-- unless another event changes the order. Rows written before this column read ''
-- (sorts before every time), so they are visited until their next event rewrites them;
-- `replay-tool rebuild` once after the upgrade fills every row. A pass selects
-- `status = $1 and next_scheduled_at <= now` for offers (9) and loans (4).
alter table order_detail add column next_scheduled_at text not null default '';
create index order_detail_scheduled on order_detail (status, next_scheduled_at);
