-- Idempotency-Key records (PRODUCT.md 8): the first request with a key claims it; a
-- repeat with the same body gets the stored answer, with another body 10004.
create table idempotency
(
    scope        text not null,
    key          text not null,
    request_hash text not null,
    response     text,
    created_at   text not null,
    primary key (scope, key)
) strict;
