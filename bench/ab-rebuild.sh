#!/usr/bin/env bash
# A/B of `replay-tool rebuild` on PostgreSQL between two replay-tool binaries: one log
# seeded once (`replay-tool seed --orders N`, every order status), then rebuilt by
# A, B, A, B ... on the same warm database, each run's summary printed, and the read
# models' hash checked equal after every run. Used for the parallel shadow-table
# write (issue 14 item 5).
# With FRESH=1 the log is seeded again before every run, so each rebuild starts from
# empty tables, as the first rebuild after a seed in `make bench` does; without it
# every rebuild replaces full tables, as a rebuild of a running store does.
# Usage: [FRESH=1] bench/ab-rebuild.sh OLD_TOOL NEW_TOOL [orders=56000] [rounds=2]
# Needs PostgreSQL at 127.0.0.1:5432 (trust, user postgres).
set -euo pipefail
A=$1; B=$2; ORDERS=${3:-56000}; ROUNDS=${4:-2}
PG=postgres://postgres@127.0.0.1:5432
export DATABASE_URL=$PG/ab_rebuild
seeded() {
  psql "$PG/postgres" -qc "drop database if exists ab_rebuild with (force)" -c "create database ab_rebuild" >/dev/null 2>&1
  "$B" seed --orders "$ORDERS" >/dev/null
}
seeded
echo "events: $(psql "$DATABASE_URL" -Atc 'select count(*) from events')"
"$B" rebuild >/dev/null 2>&1
reference=$("$B" hash 2>/dev/null)
for round in $(seq 1 "$ROUNDS"); do
  for which in A B; do
    TOOL=$A; [ "$which" = B ] && TOOL=$B
    [ "${FRESH:-0}" = 1 ] && seeded
    summary=$("$TOOL" rebuild 2>&1 | grep -E 'rebuilt|fold' | tr '\n' ' ')
    if [ "${FRESH:-0}" = 1 ]; then
      same="n/a (a fresh seed each run)"
    elif [ "$("$B" hash 2>/dev/null)" = "$reference" ]; then
      same=same
    else
      same=DIFFERENT
    fi
    echo "round $round $which: $summary | hash $same"
  done
done
