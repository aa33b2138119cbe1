-- Idempotency after a crash (issue 12): `claimed_at` is when the request now running
-- for a key claimed it; a claim older than the request timeout with no answer was
-- abandoned (the process died) and is taken over by the next repeat. Answers expire
-- 24 h after `created_at`.
alter table idempotency add column claimed_at text;
update idempotency set claimed_at = created_at;
