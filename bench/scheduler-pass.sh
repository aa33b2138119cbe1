#!/usr/bin/env bash
# What the scheduler costs at rest with many loans (ADR 0011, "A pass visits only the
# loans with something due").
#
#   bench/scheduler-pass.sh [API_BIN] [ORDERS]
#
# Seeds a fresh PostgreSQL database with ORDERS generated orders (`replay-tool seed`,
# every status; 26,000 orders give 4,000 disbursed loans, paid out on 2026-11-22 and the
# days after), starts the api on it (it builds the read models, then its first passes
# record what the seeded loans are owed today), waits SETTLE seconds (default 240) for
# that catch-up to end, and then reads the api's CPU time over three passes (180 s) in
# which nothing new is owed. Prints the pass log lines (durations at debug level).
# Needs release builds: cargo build --release -p api -p replay-tool.
set -euo pipefail
cd "$(dirname "$0")/.."
API=${1:-target/release/api}
ORDERS=${2:-26000}
SETTLE=${SETTLE:-240}
PG=${BENCH_PG:-postgres://postgres@127.0.0.1:5432}
DB=bench_scheduler
PORT=${BENCH_PORT:-18112}
LOG=$(mktemp)
psql "$PG/postgres" -qc "drop database if exists $DB with (force)" -c "create database $DB" >/dev/null 2>&1
DATABASE_URL=$PG/$DB target/release/replay-tool seed --orders "$ORDERS" | tail -1
DATABASE_URL=$PG/$DB BIND_ADDR=127.0.0.1:$PORT RUST_LOG=warn,api::scheduler=debug \
  STORAGE_URL=memory:// "$API" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
sleep "$SETTLE"
echo "disbursed loans: $(psql "$PG/$DB" -Atc 'select count(*) from order_detail where status = 4')"
ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
t0=$(ticks)
sleep 180
t1=$(ticks)
echo "api CPU over 180 s at rest: $(( (t1 - t0) * 1000 / $(getconf CLK_TCK) )) ms"
sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -E 'scheduler pass|reminders recorded'
