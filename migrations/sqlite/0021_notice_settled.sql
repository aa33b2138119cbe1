-- notice_settled (issue 52): the installments with a reminder that are now paid, or
-- whose loan closed. Their "due soon" and overdue notices read as settled, not
-- unread. Written by the orders projection with the order's other rows (a rebuild
-- fills it for loans repaid before this table existed).
create table notice_settled
(
    order_id text    not null,
    period   integer not null,
    primary key (order_id, period)
) strict;
