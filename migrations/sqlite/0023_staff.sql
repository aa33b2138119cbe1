-- Staff roles, second factor, setup links, the record of account changes and the audit
-- trail (issue 55). Written by the api only (api/src/db/staff.rs).
--
-- `roles`: the comma-separated roles of the account (api/src/accounts/roles.rs). Accounts
-- made before roles existed could do every job; they keep the four jobs until an admin
-- narrows them, but not `admin`: the first admin is made with `api create-auditor`
-- (README "Staff accounts"), so an upgrade gives nobody power over staff accounts.
alter table auditor add column roles text not null default 'reviewer,collector,finance,compliance';
-- The TOTP secret (RFC 6238, base32) once enrolled, and the last 30-second step a code
-- was accepted for: a code is taken once (replay guard, one statement).
alter table auditor add column totp_secret text;
alter table auditor add column totp_last_step integer;

-- One-time links to set a password (a new account, or a reset): only the token's SHA-256
-- is stored; used once, within its expiry. `totp_secret` is the second factor the
-- holder enrolls with it, when the deployment requires one.
create table staff_setup_link
(
    token_hash  text not null primary key,
    auditor_id  text not null,
    totp_secret text,
    created_at  text not null,
    created_by  text not null,
    expires_at  text not null,
    used_at     text
) strict;
create index staff_setup_link_auditor on staff_setup_link (auditor_id);

-- Every change to a staff account, in the transaction of the change, never updated or
-- deleted: created, roles, disabled, enabled, password_reset, password_set.
-- `by_actor` is `auditor:<id>` or `operator` (the command line).
create table staff_change
(
    change_id  text not null primary key,
    auditor_id text not null,
    at         text not null,
    change     text not null,
    detail     text not null default '',
    by_actor   text not null
) strict;
create index staff_change_auditor on staff_change (auditor_id, change_id);

-- The audit trail: every console call a staff member made, refused ones too, with the
-- client address and what it touched (order, borrower, other), never updated or
-- deleted. `action_id` is a UUID v7: its text orders the trail by time.
create table staff_action
(
    action_id  text not null primary key,
    at         text not null,
    auditor_id text not null,
    client_ip  text not null,
    call       text not null,
    order_id   text,
    user_id    text,
    target     text,
    code       integer not null
) strict;
create index staff_action_auditor on staff_action (auditor_id, action_id);
create index staff_action_order on staff_action (order_id, action_id);
create index staff_action_user on staff_action (user_id, action_id);
