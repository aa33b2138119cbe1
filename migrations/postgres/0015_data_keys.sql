-- Crypto-shredding (PRODUCT.md 12.6, ADR 0012): one AES-256-GCM data key per borrower
-- (`subject` is the user id), outside the event log. Personal fields of events are
-- sealed with it (projections/src/store/sealing.rs); erasing the borrower sets `data_key`
-- to null, after which those fields read as erased everywhere. Written by the event
-- store only; a row is never deleted, so the erasure itself stays on record.
create table data_key
(
    subject    text not null primary key,
    -- Base64 of the 32 key bytes; null once erased.
    data_key   text,
    created_at text not null,
    erased_at  text,
    erased_by  text
);

-- One-off rewrites of the event log, each recorded once (the only sanctioned rewrite:
-- sealing the personal fields of events written before `data_key` existed).
create table event_rewrite
(
    name      text    not null primary key,
    events    bigint  not null,
    done_at   text    not null
);

-- Erased borrowers all read `[erased]` as their phone number; one account per number is
-- kept by `user_mobile` (claimed before registering), not by this read model.
drop index user_profile_mobile;
create index user_profile_mobile on user_profile (mobile);
