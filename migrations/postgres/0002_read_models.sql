-- Read models (DESIGN.md "Read models"), written only by the projection workers of
-- the projections crate and by `replay-tool rebuild`; the api only reads them.
--
-- Conventions: ids are UUID text; times are RFC 3339 UTC text with microseconds
-- (so text order is time order); money is exact decimal text ("80960.0"), except the
-- ledger's integer `amount_minor` (hundredths) which SQL can sum. `doc` holds the
-- JSON the api returns (PRODUCT.md sections 8 and 10); `state` holds the folded
-- aggregate the projection continues from.

-- Where each projection worker and process manager has got to in the global log.
-- Moved in the same transaction as the rows an event produced.
create table projection_checkpoint
(
    name            text   not null primary key,
    transaction_id  bigint not null,
    global_position bigint not null,
    updated_at      text   not null
);

-- /user/info and login look-ups.
create table user_profile
(
    user_id         text   not null primary key,
    mobile          text   not null,
    identity_status bigint not null,
    registered_at   text   not null,
    doc             text   not null,
    state           text   not null
);
create unique index user_profile_mobile on user_profile (mobile);

-- /loan/orderInfo: the whole order with its schedule (periodViews).
create table order_detail
(
    order_id   text   not null primary key,
    user_id    text   not null,
    status     bigint not null,
    applied_at text   not null,
    doc        text   not null,
    state      text   not null
);
create index order_detail_user on order_detail (user_id, applied_at);

-- /loan/getUserOrderList: a borrower's orders, newest first.
create table order_list
(
    order_id   text   not null primary key,
    user_id    text   not null,
    status     bigint not null,
    principal  text   not null,
    applied_at text   not null
);
create index order_list_user on order_list (user_id, applied_at);

-- /loan/getLoanProgress: the borrower's latest order.
create table loan_progress
(
    user_id      text   not null primary key,
    order_id     text   not null,
    status       bigint not null,
    apply_amount text   not null,
    balance      text   not null,
    applied_at   text   not null,
    contract     text   not null
);

-- The auditor queue: every order with its applicant summary, by status and age.
create table audit_queue
(
    order_id       text   not null primary key,
    user_id        text   not null,
    status         bigint not null,
    applicant_name text   not null,
    product_name   text   not null,
    amount         text   not null,
    period_days    bigint not null,
    applied_at     text   not null,
    updated_at     text   not null
);
create index audit_queue_status on audit_queue (status, applied_at);

-- /user/getLastWithdrawError: the real reason of the last failed payout ("" once a
-- later payout succeeded or a new one is under way).
create table last_withdraw_error
(
    user_id  text not null primary key,
    order_id text not null,
    message  text not null,
    at       text not null
);

-- /loan/orderTimeline: one row per order event, as the borrower sees it.
create table order_timeline
(
    order_id   text   not null,
    sequence   bigint not null,
    at         text   not null,
    event_type text   not null,
    actor      text   not null,
    doc        text   not null,
    primary key (order_id, sequence)
);

-- Wallet balances per borrower.
create table wallet
(
    user_id  text not null primary key,
    proceeds text not null,
    cash     text not null,
    balance  text not null,
    state    text not null
);

-- /transactionHistory: the borrower's money movements.
create table transactions
(
    transaction_id text not null primary key,
    user_id        text not null,
    order_id       text not null,
    kind           text not null,
    amount         text not null,
    at             text not null
);
create index transactions_user on transactions (user_id, at);

-- The double-entry journal. Every entry's postings sum to zero; nothing is ever
-- updated or deleted, mistakes are corrected by new entries. Debits are positive.
create table ledger_journal
(
    entry_id     text   not null,
    posting_no   bigint not null,
    at           text   not null,
    order_id     text   not null,
    account      text   not null,
    amount       text   not null,
    amount_minor bigint not null,
    description  text   not null,
    primary key (entry_id, posting_no)
);
create index ledger_journal_account on ledger_journal (account);
create index ledger_journal_order on ledger_journal (order_id);

-- Account balances are a view over the journal, so they can never drift from it.
create view ledger_balances as
select account, cast(sum(amount_minor) as bigint) as balance_minor, count(*) as postings
from ledger_journal
group by account;
