-- One account per ID number and per email address: claimed before the profile change
-- is committed (like `user_mobile`), so two accounts cannot both hold one value
-- (10026 identity already registered, 10025 email already exists). `kind` is
-- 'identity' or 'email' (stored lower-case); a borrower's replaced value is released.
create table user_claim
(
    kind       text not null,
    value      text not null,
    user_id    text not null,
    created_at text not null,
    primary key (kind, value)
) strict;
create index user_claim_user on user_claim (user_id, kind);

-- Failed auditor logins per username (known or not): five in a row within 15 minutes
-- lock the username for 15 minutes (code 5); a successful login clears the row.
create table auditor_login_failure
(
    username       text    not null primary key,
    failures       integer not null,
    last_failed_at text    not null,
    locked_until   text
) strict;
