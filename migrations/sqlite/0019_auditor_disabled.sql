-- An operator can disable an auditor (loan officer) account (`api disable-auditor`),
-- for instance when the officer leaves: the account can no longer log in, and every
-- token it holds stops working at once (the auditor session check reads this column,
-- projections::reads::session). The reason stays beside the time; enabling
-- the account again clears both.
alter table auditor add column disabled_at text;
alter table auditor add column disabled_reason text;
