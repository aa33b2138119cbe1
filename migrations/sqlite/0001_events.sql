-- The event store: one row per event of every aggregate.
--
-- The first seven columns and the primary key are exactly sqlite-es 0.5's schema,
-- because sqlite-es reads and writes this table itself. There is no snapshots
-- table: we never use snapshots (DESIGN.md "Stores").
create table events
(
    aggregate_type  text                          not null,
    aggregate_id    text                          not null,
    sequence        integer check (sequence >= 0) not null,
    event_type      text                          not null,
    event_version   text                          not null,
    payload         text                          not null,
    metadata        text                          not null,
    -- The event's place in the global log that projection workers tail. Set by the
    -- trigger below; it is null only while the inserting statement runs.
    global_position integer,
    -- This must stay the primary key, not a unique index: sqlite-es reports an
    -- append that lost the race as an optimistic-lock conflict only for SQLite
    -- error 1555 (SQLITE_CONSTRAINT_PRIMARYKEY); a unique index raises 2067,
    -- which would surface as an unexpected error instead of a retryable conflict.
    primary key (aggregate_type, aggregate_id, sequence)
) strict;

-- Readers page through the log by position, and the trigger's max() reads the
-- top of this index instead of scanning the table. Unique: no two events share
-- a position.
create unique index events_global_position on events (global_position);

-- Number each new event one past the highest position so far.
--
-- A stored column, not the bare rowid: VACUUM may renumber the rowids of a table
-- without an integer primary key, which would silently move every checkpoint.
-- SQLite admits one writer at a time, so positions are handed out in commit
-- order: a reader never sees position n + 1 before position n has committed.
-- (SQLite cannot assign new.global_position in a before-insert trigger, hence
-- the update after the insert.)
create trigger events_assign_global_position
after insert on events
for each row
begin
    update events
    set global_position = (select coalesce(max(global_position), 0) + 1 from events)
    where rowid = new.rowid;
end;
