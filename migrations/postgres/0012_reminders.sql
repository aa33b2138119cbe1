-- Due-date reminders and the in-app inbox (PRODUCT.md 12.5, issue 16).
--
-- notice: the inbox, one row per ReminderDue event of the borrower's orders, written
-- by the orders projection (rebuilt from the log like every read model). The id is
-- the event's identity, <order id>:<sequence>, so a rebuild gives the same ids.
create table notice
(
    notice_id  text    not null primary key,
    user_id    text    not null,
    order_id   text    not null,
    period     bigint  not null,
    kind       text    not null,
    amount     text    not null,
    due_date   text    not null,
    created_at text    not null
);
create index notice_user on notice (user_id, created_at);

-- notice_read: which notices the borrower has read. Not an event and not part of the
-- rebuildable read model (a rebuild must not mark everything unread again): the api
-- writes it, one statement scoped by the session's user.
create table notice_read
(
    notice_id text not null primary key,
    user_id   text not null,
    read_at   text not null
);

-- The reminder workflow queues each reminder's SMS once, keyed by its event
-- (message_id reminder:<order id>:<sequence>; insert ... on conflict do nothing), so a
-- restart or a second api process never queues it twice. Older messages have unique
-- UUID ids or none (several nulls are allowed).
create unique index sms_outbox_message_id on sms_outbox (message_id);
