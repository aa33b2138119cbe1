-- Collections (issue 53): one row per disbursed loan for the collections queue, and
-- the loan's collection record (contacts, refused contacts, assignments, promises,
-- bucket moves). Written by the orders projection with the order's other rows.
create table collection_queue
(
    order_id          text    not null primary key,
    user_id           text    not null,
    status            bigint  not null,
    oldest_unpaid_due text    not null, -- YYYY-MM-DD, '' when nothing is unpaid
    overdue_amount    text    not null,
    outstanding       text    not null,
    bucket            text    not null,
    collector         text    not null, -- '' when unassigned
    last_contact_at   text    not null,
    last_outcome      text    not null,
    promise_amount    text    not null,
    promise_date      text    not null,
    next_action_on    text    not null
);
create index collection_queue_due on collection_queue (status, oldest_unpaid_due);

create table collection_log
(
    order_id   text    not null,
    sequence   bigint  not null,
    at         text    not null,
    event_type text    not null,
    actor      text    not null,
    doc        text    not null,
    primary key (order_id, sequence)
);
