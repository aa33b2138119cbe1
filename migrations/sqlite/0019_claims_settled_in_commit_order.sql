-- A claim remembers the User aggregate's sequence at which its value was recorded
-- (api/src/claims.rs `settle`), so that updates of one account sent together release
-- the values their commits replaced, whatever order their settlements run in: the
-- value of the highest sequence stays claimed, the others go, and a claim whose
-- request is still in flight (no sequence yet) is kept. Every claim stored before
-- this is settled: sequence 0, released by the account's next change.
alter table user_claim add column seq integer;
update user_claim set seq = 0;
