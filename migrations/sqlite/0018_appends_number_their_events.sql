-- The group commit numbers the events it appends (projections::store::group_commit):
-- it reads the highest position once per group, inside its `BEGIN IMMEDIATE`
-- transaction (no other writer can come between), and inserts each event with the
-- next one. The trigger then has nothing left to do for them: it used to rewrite
-- every event row right after its insert (an `UPDATE` of the row and of the position
-- index), and the append could not tell its caller where its events landed.
--
-- The trigger stays for any insert that leaves the position out (sqlite-es's own
-- repository, hand-written rows), and numbers those as before.
drop trigger events_assign_global_position;
create trigger events_assign_global_position
after insert on events
for each row
when new.global_position is null
begin
    update events
    set global_position = (select coalesce(max(global_position), 0) + 1 from events)
    where rowid = new.rowid;
end;
