-- A payment page can be replaced by a newer one before it is paid (issue 52: a page
-- left open must not block a payoff; the Order's `PaymentSessionReplaced`). Its row
-- then reads `replaced` and its page stops offering Pay. SQLite cannot change a
-- check constraint in place: the table is copied into one with the new check.
create table payment_session_next
(
    session_id  text not null primary key,
    user_id     text not null,
    order_id    text not null,
    amount      text not null,
    status      text not null check (status in ('open', 'paid', 'failed', 'replaced')),
    payment_ref text,
    created_at  text not null,
    updated_at  text not null
) strict;
insert into payment_session_next
select session_id, user_id, order_id, amount, status, payment_ref, created_at, updated_at
from payment_session;
drop table payment_session;
alter table payment_session_next rename to payment_session;
create index payment_session_user on payment_session (user_id, created_at);
