-- Payment sessions (PRODUCT.md 8, `/loan/recharge`) and the webhook events already
-- processed. Written by the api only; the money itself lives in events (Wallet
-- `Recharged`), these tables only say which page was opened and which webhook was seen.

-- One payment page opened by a borrower for their disbursed order. `status` moves
-- open -> paid | failed, only as a verified webhook says (paid wins over failed: money
-- received is never hidden). `amount` is decimal text with two places.
create table payment_session
(
    session_id  text not null primary key,
    user_id     text not null,
    order_id    text not null,
    amount      text not null,
    status      text not null check (status in ('open', 'paid', 'failed')),
    payment_ref text,
    created_at  text not null,
    updated_at  text not null
);
create index payment_session_user on payment_session (user_id, created_at);

-- Webhook events already processed, by the provider's event id. A row is written
-- after the event's effect committed, so a repeat delivery is answered at once;
-- the effect itself is idempotent per payment reference, so a crash between the
-- two only means the repeat runs the (no-op) effect again.
create table processed_webhook
(
    event_id    text not null primary key,
    session_id  text not null,
    payment_ref text not null,
    outcome     text not null,
    received_at text not null
);
