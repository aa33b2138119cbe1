#!/usr/bin/env bash
# A/B of the simplest command (`loadgen simple`: /jackey/user/updateEmergency, load a
# User and append one event) between two api binaries, alternating A, B, A, B on a
# fresh PostgreSQL database and a fresh SQLite file each time, in one run on this
# machine. Used for the cost of sealing personal fields (ADR 0012). With
# SCENARIO=queries it runs `loadgen queries` instead (user info, order list, order
# info in turn; one client count, e.g. 64); with SCENARIO=mix, `loadgen mix` (the
# loan cycle, with the projection lag of the window).
# Usage: [SCENARIO=queries|mix] bench/ab-simple.sh OLD_API NEW_API [clients=1,8] [seconds=10]
# Needs target/release/loadgen (cargo build --release -p loadgen) and PostgreSQL at
# 127.0.0.1:5432 (trust, user postgres).
set -euo pipefail
A=$1; B=$2; CLIENTS=${3:-1,8}; SECS=${4:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOADGEN=$ROOT/target/release/loadgen
PORT=18191; BASE=http://127.0.0.1:$PORT; PG=postgres://postgres@127.0.0.1:5432
export METRICS_TOKEN=bench-metrics-token
for round in 1 2; do
  for which in A B; do
    API=$A; [ "$which" = B ] && API=$B
    for store in pg sqlite; do
      if [ "$store" = pg ]; then
        psql "$PG/postgres" -qc "drop database if exists ab_simple with (force)" -c "create database ab_simple" >/dev/null
        URL=$PG/ab_simple
      else
        DIR=$(mktemp -d); URL=sqlite://$DIR/loan.db
      fi
      printf 'bench-password-1\n' | DATABASE_URL=$URL "$API" create-auditor --username bench-first --roles reviewer,collector,finance,compliance,admin --password-stdin >/dev/null 2>&1
      printf 'bench-password-2\n' | DATABASE_URL=$URL "$API" create-auditor --username bench-final --roles reviewer,collector,finance,compliance,admin --password-stdin >/dev/null 2>&1
      DATABASE_URL=$URL BIND_ADDR=127.0.0.1:$PORT TRUST_PROXY=true RUST_LOG=warn STORAGE_URL=memory:// "$API" >/dev/null 2>&1 &
      PID=$!
      trap 'kill $PID 2>/dev/null || true' EXIT
      for _ in $(seq 1 300); do curl -fsS -H "Authorization: Bearer $METRICS_TOKEN" "$BASE/metrics" >/dev/null 2>&1 && break; sleep 0.1; done
      "$LOADGEN" "${SCENARIO:-simple}" --base "$BASE" --auditor-a bench-first:bench-password-1 --auditor-b bench-final:bench-password-2 \
          --clients "$CLIENTS" --seconds "$SECS" 2>/dev/null \
        | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("scenario") in ("simple", "queries", "mix"):
        lag = r.get("projectionLag") or {}
        lag = "  lag p50/p99 <= %s/%s ms" % (lag["p50Ms"], lag["p99Ms"]) if "p99Ms" in lag else ""
        print("round %s %s %-6s clients %3d %8.1f/s  p50 %6.2f ms  p99 %6.2f ms%s"
              % (sys.argv[3], sys.argv[1], sys.argv[2], r["clients"], r["perSecond"], r["p50Ms"], r["p99Ms"], lag))
' "$which" "$store" "$round"
      kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true
    done
  done
done
