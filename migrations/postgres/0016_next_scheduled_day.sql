-- The scheduler visits only the loans it may have something to ask of (PRODUCT.md 4.4
-- overdue accrual, 12.5 reminders), not every loan every minute.
--
-- order_detail.next_scheduled_on: the first day (UTC, YYYY-MM-DD) on which the order
-- could record an overdue mark, a day's fee or a reminder (`Order::next_scheduled_day`),
-- written by the orders projection with the rest of the row; '9999-12-31' when no day
-- will come unless another event changes the order. Rows written before this column
-- read '' (sorts before every day), so they are visited until their next event
-- rewrites them; `replay-tool rebuild` once after the upgrade fills every row. A pass selects `status = 4 (disbursed) and next_scheduled_on <= today`.
alter table order_detail add column next_scheduled_on text not null default '';
create index order_detail_scheduled on order_detail (status, next_scheduled_on);
