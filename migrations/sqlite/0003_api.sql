-- Tables of the api itself (not read models): identity claims, sessions, auditors,
-- SMS codes, idempotency records, payment sessions. Written by the api only.

-- One account per phone number: claimed before `UserRegistered` is committed, so two
-- concurrent registrations of one number cannot both succeed (10001).
create table user_mobile
(
    mobile     text not null primary key,
    user_id    text not null,
    created_at text not null
) strict;

-- Opaque bearer tokens, stored as SHA-256 hashes; expiring; revoked at logout.
create table auth_token
(
    token_hash text not null primary key,
    subject    text not null,
    kind       text not null,
    expires_at text not null,
    revoked_at text,
    created_at text not null
) strict;
create index auth_token_subject on auth_token (subject);

-- Auditor (loan officer) accounts, created with `api create-auditor`.
create table auditor
(
    auditor_id    text not null primary key,
    username      text not null unique,
    password_hash text not null,
    created_at    text not null
) strict;
-- SMS verification codes: only a hash is stored; single use; 5 minutes.
create table sms_code
(
    mobile     text not null,
    purpose    text not null,
    code_hash  text not null,
    expires_at text not null,
    used_at    text,
    created_at text not null
) strict;
create index sms_code_lookup on sms_code (mobile, purpose, created_at);

-- The default SMS sender's outbox: what would have been sent, for operators and tests.
create table sms_outbox
(
    mobile     text not null,
    body       text not null,
    created_at text not null
) strict;
