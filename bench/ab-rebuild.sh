#!/usr/bin/env bash
# A/B of `replay-tool rebuild` on PostgreSQL between two replay-tool binaries: one log
# seeded once (`replay-tool seed --orders N`, every order status), then rebuilt by
# A, B, A, B ... on the same warm database, each run's summary printed, and the read
# models' hash checked equal after every run. Used for the parallel shadow-table
# write (issue 14 item 5).
# Usage: bench/ab-rebuild.sh OLD_TOOL NEW_TOOL [orders=56000] [rounds=2]
# Needs PostgreSQL at 127.0.0.1:5432 (trust, user postgres).
set -euo pipefail
A=$1; B=$2; ORDERS=${3:-56000}; ROUNDS=${4:-2}
PG=postgres://postgres@127.0.0.1:5432
psql "$PG/postgres" -qc "drop database if exists ab_rebuild with (force)" -c "create database ab_rebuild" >/dev/null
export DATABASE_URL=$PG/ab_rebuild
"$B" seed --orders "$ORDERS" >/dev/null
echo "events: $(psql "$DATABASE_URL" -Atc 'select count(*) from events')"
"$B" rebuild >/dev/null 2>&1
reference=$("$B" hash 2>/dev/null)
for round in $(seq 1 "$ROUNDS"); do
  for which in A B; do
    TOOL=$A; [ "$which" = B ] && TOOL=$B
    summary=$("$TOOL" rebuild 2>&1 | grep -E 'rebuilt|fold' | tr '\n' ' ')
    [ "$("$B" hash 2>/dev/null)" = "$reference" ] && same=same || same=DIFFERENT
    echo "round $round $which: $summary | hash $same"
  done
done
