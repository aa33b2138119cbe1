-- The SMS outbox relay (issue 17): with SMS_PROVIDER=semaphore each message written to
-- the outbox is sent by api::sms_relay, retried with backoff. `message_id` names a
-- message (rows written before this migration have none and are never relayed);
-- `next_attempt_at` is also the lease that keeps two api processes from sending the
-- same message at once.
alter table sms_outbox add column message_id text;
alter table sms_outbox add column sent_at text;
alter table sms_outbox add column attempts integer not null default 0;
alter table sms_outbox add column next_attempt_at text;
alter table sms_outbox add column last_error text;
create index sms_outbox_unsent on sms_outbox (sent_at, next_attempt_at);
