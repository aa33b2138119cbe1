-- The event store: one row per event of every aggregate.
--
-- The first seven columns and the primary key are exactly postgres-es 0.5's
-- schema, because postgres-es reads and writes this table itself; an append that
-- lost the race fails on the primary key (23505), which postgres-es reports as an
-- optimistic-lock conflict. There is no snapshots table: we never use snapshots
-- (DESIGN.md "Stores").
create table events
(
    aggregate_type  text                         not null,
    aggregate_id    text                         not null,
    sequence        bigint check (sequence >= 0) not null,
    event_type      text                         not null,
    event_version   text                         not null,
    payload         json                         not null,
    metadata        json                         not null,
    -- Insertion order within the global log. Identity values are handed out when
    -- a row is inserted, not when its transaction commits, so on its own this
    -- column is not a safe checkpoint: a transaction that inserts first and
    -- commits last makes a row appear behind a position a reader already passed.
    global_position bigint generated always as identity,
    -- The inserting transaction. Readers order the log by
    -- (transaction_id, global_position) and only read transactions older than
    -- the oldest one still in flight (pg_snapshot_xmin), so every row they pass
    -- is final and no late commit can appear behind a checkpoint.
    transaction_id  xid8   not null default pg_current_xact_id(),
    primary key (aggregate_type, aggregate_id, sequence)
);

-- The log readers' order and range condition.
create index events_transaction_id_global_position on events (transaction_id, global_position);

-- Wake sleeping projection workers (LISTEN events) instead of making them poll.
-- Notifications are delivered at commit and never for a rolled-back insert;
-- the payload is empty because a worker re-reads the log after its checkpoint
-- anyway, and identical notifications within one transaction are folded into one.
create function events_notify() returns trigger
language plpgsql
as $$
begin
    perform pg_notify('events', '');
    return null;
end;
$$;

-- Once per statement, not per row: one wake-up per append is enough.
create trigger events_notify
after insert on events
for each statement
execute function events_notify();
