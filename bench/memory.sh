#!/usr/bin/env bash
# Where the api's resident memory peaks: the `bench/run` phases that precede its VmHWM
# reading (`loadgen simple`, then `loadgen mix`, at 1, 8 and 64 clients), on a fresh
# PostgreSQL database, with VmRSS, VmHWM and the thread count sampled every 0.5 s and
# printed after each phase. Usage: bench/memory.sh [API_BIN] [SECONDS=10]
# Build first: cargo build --release -p api -p loadgen. Needs PostgreSQL at 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
API=${1:-target/release/api}; S=${2:-10}
PG=postgres://postgres@127.0.0.1:5432
psql $PG/postgres -qc "drop database if exists membench with (force)" -c "create database membench" >/dev/null
export DATABASE_URL=$PG/membench METRICS_TOKEN=bench-metrics-token
printf 'bench-password-1\n' | "$API" create-auditor --username bench-first --roles reviewer,collector,finance,compliance,admin --password-stdin >/dev/null
printf 'bench-password-2\n' | "$API" create-auditor --username bench-final --roles reviewer,collector,finance,compliance,admin --password-stdin >/dev/null
BIND_ADDR=127.0.0.1:18182 TRUST_PROXY=true RUST_LOG=warn STORAGE_URL=memory:// WEB_DIST=/nonexistent "$API" > /tmp/membench-api.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fs http://127.0.0.1:18182/healthz >/dev/null 2>&1 && break; sleep 0.2; done
sample() { awk '/^(VmRSS|VmHWM|Threads)/ {printf "%s %s ", $1, $2} END {print ""}' "/proc/$PID/status"; }
echo "started: $(sample)"
LG=(--base http://127.0.0.1:18182 --auditor-a bench-first:bench-password-1 --auditor-b bench-final:bench-password-2)
for phase in simple mix; do
  for c in 1 8 64; do
    max=0
    target/release/loadgen "$phase" "${LG[@]}" --clients "$c" --seconds "$S" > /tmp/membench-load.json 2>&1 &
    LOAD=$!
    while kill -0 "$LOAD" 2>/dev/null; do
      rss=$(awk '/^VmRSS/ {print $2}' "/proc/$PID/status")
      [ "$rss" -gt "$max" ] && max=$rss
      sleep 0.5
    done
    rate=$(grep -oE '"(commandsPerSecond|requestsPerSecond|perSecond)":[0-9.]+' /tmp/membench-load.json | head -1)
    echo "$phase $c clients: max VmRSS ${max} kB; now $(sample) ${rate}"
  done
done
