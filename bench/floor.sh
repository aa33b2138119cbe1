#!/usr/bin/env bash
# The stack's floor beside pgbench and the api, in one run (issue 14; bench/PROFILE.md
# "The stack's floor"). Each round, one after the other on this machine:
#   1. pgbench: `bench/run`'s one durable one-row INSERT per transaction, 8 clients;
#   2. `floor` (bench/floor): HTTP commands that are only 1, 2 or 3 round trips to
#      PostgreSQL (insert; session + insert; session + tail read + insert), driven by
#      `loadgen floor`, the closed loop of `loadgen simple`;
#   3. the api's simplest command (`loadgen simple`: /jackey/user/updateEmergency);
#   and `floor hash`: argon2id at the api's PIN parameters, and what the command mix's
#   target would take of the cores in hashes alone.
# Prints each figure and its ratio to the pgbench TPS of the same round, with the CPU
# time per command of the server, PostgreSQL and the load generator.
# Usage: bench/floor.sh [clients=8] [seconds=10] [rounds=2]
# Needs `cargo build --release -p api -p loadgen -p floor`, pgbench, psql and
# PostgreSQL at 127.0.0.1:5432 (trust, user postgres; databases floor_* are recreated).
set -euo pipefail
CLIENTS=${1:-8}; SECS=${2:-10}; ROUNDS=${3:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/target/release
PGHOST_URL=postgres://postgres@127.0.0.1:5432
OUT=$(mktemp -d)
API=$BIN/api; PORT=18193; BASE=http://127.0.0.1:$PORT
export METRICS_TOKEN=bench-metrics-token
[ "$SECS" -ge 4 ] || { echo "bench/floor.sh: seconds must be 4 or more (CPU is sampled over all but the first and last)" >&2; exit 2; }
# fresh_db, start_api, stop_api, auditors
source "$ROOT/bench/lib.sh"
trap 'stop_api; kill "${FPID:-}" 2>/dev/null || true' EXIT
# CPU seconds (user + system) of every process whose command line matches $1.
cpu_of() {
  local total=0 pid
  for pid in $(pgrep -f "$1" || true); do
    total=$(awk -v t="$total" '{print t + ($14 + $15 + $16 + $17) / 100}' "/proc/$pid/stat" 2>/dev/null || echo "$total")
  done
  echo "$total"
}
# Runs "$@" (a load generator printing JSON lines on stdout) and prints its figures with
# the CPU time per command of the server matching $SERVER, of PostgreSQL's processes
# and of the load generator, sampled over the phase's middle (from 1 s after it began,
# which for the api is after the borrowers' registration, to 1 s before it ends).
measure() { # label pgbench-tps command...
  local label=$1 tps=$2; shift 2
  : > "$OUT/err"
  "$@" 2>"$OUT/err" > "$OUT/run.jsonl" &
  local gen=$! waited=0
  if [ "$SERVER" = "$API" ]; then
    until grep -q '^registered' "$OUT/err" || [ $waited -gt 1200 ]; do sleep 0.1; waited=$((waited + 1)); done
  fi
  sleep 1
  local window=$((SECS - 2))
  local s0 p0 g0 s1 p1 g1
  s0=$(cpu_of "$SERVER"); p0=$(cpu_of "postgres: "); g0=$(cpu_of "$BIN/loadgen")
  sleep "$window"
  s1=$(cpu_of "$SERVER"); p1=$(cpu_of "postgres: "); g1=$(cpu_of "$BIN/loadgen")
  wait "$gen"
  python3 - "$label" "$tps" "$window" "$s0" "$s1" "$p0" "$p1" "$g0" "$g1" "$OUT/run.jsonl" <<'PY'
import json, sys
label, runs = sys.argv[1], sys.argv[10]
tps, window, s0, s1, p0, p1, g0, g1 = map(float, sys.argv[2:10])
for line in open(runs):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("scenario") not in ("simple", "floor"):
        continue
    rate = r["perSecond"]
    per = lambda a, b: "%4.0f" % ((b - a) / window / rate * 1e6) if rate else "   ?"
    print("%-26s %8.1f/s  %.3f x pgbench  p50 %5.2f ms  p99 %6.2f ms  CPU us/command: server %s, postgres %s, loadgen %s"
          % (label, rate, rate / tps, r["p50Ms"], r["p99Ms"], per(s0, s1), per(p0, p1), per(g0, g1)))
PY
}
echo "insert into one_row (payload) values ('x');" > "$OUT/insert.sql"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round ($CLIENTS clients, ${SECS} s each)"
  fresh_db floor_pgbench
  psql "$PGHOST_URL/floor_pgbench" -qc "create table one_row (id bigserial primary key, payload text not null, at timestamptz not null default now())"
  j=$(( CLIENTS < 2 ? 1 : 2 ))
  pgbench -n -f "$OUT/insert.sql" -c "$CLIENTS" -j "$j" -T "$SECS" "$PGHOST_URL/floor_pgbench" > "$OUT/pgbench.txt" 2>&1
  TPS=$(awk '/^tps = / {print $3; exit}' "$OUT/pgbench.txt")
  printf '%-26s %8.1f/s\n' "pgbench one-row INSERT" "$TPS"
  # The mix's target (0.05 x pgbench, one withdraw PIN check in its 7 commands): the
  # cores its argon2id hashes alone would need, at this minute's hash time.
  HASH_MS=$("$BIN/floor" hash --count 20)
  python3 -c 'import sys; tps, ms = map(float, sys.argv[1:3]); need = 0.05 * tps / 7
print("%-26s %8.2f ms a hash; the mix target (%.0f commands/s) needs %.0f PIN checks/s = %.2f cores of hashing alone (the machine has %s)"
      % ("argon2id, api parameters", ms, 0.05 * tps, need, need * ms / 1000, sys.argv[3]))' "$TPS" "$HASH_MS" "$(nproc)"

  fresh_db floor_floor
  SERVER="$BIN/floor"
  "$BIN/floor" serve --database-url "$PGHOST_URL/floor_floor" --bind 127.0.0.1:18192 2>"$OUT/floor.log" &
  FPID=$!
  for _ in $(seq 1 100); do grep -q listening "$OUT/floor.log" && break; sleep 0.1; done
  for trips in 1 2 3; do
    measure "floor, $trips round trip(s)" "$TPS" "$BIN/loadgen" floor --base http://127.0.0.1:18192 --round-trips "$trips" --clients "$CLIENTS" --seconds "$SECS"
  done
  kill "$FPID"; wait "$FPID" 2>/dev/null || true

  fresh_db floor_api
  auditors "$PGHOST_URL/floor_api"
  SERVER="$API"
  start_api "$PGHOST_URL/floor_api"
  measure "api, updateEmergency" "$TPS" "$BIN/loadgen" simple --base "$BASE" \
    --auditor-a bench-first:bench-password-1 --auditor-b bench-final:bench-password-2 --clients "$CLIENTS" --seconds "$SECS"
  stop_api
done
