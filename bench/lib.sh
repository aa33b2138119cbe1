# Helpers the benchmark scripts share (sourced by bench/run and bench/floor.sh). They
# read: PGHOST_URL (PostgreSQL server URL, no database), API (the api binary), PORT and
# BASE (where the api listens), OUT (raw outputs; the api logs to $OUT/api.log), ROOT
# (the checkout) and METRICS_TOKEN.

fresh_db() { # name
  psql "$PGHOST_URL/postgres" -qc "drop database if exists $1 with (force)" -c "create database $1" >/dev/null
}

API_PID=
start_api() { # database-url
  DATABASE_URL=$1 BIND_ADDR=127.0.0.1:$PORT TRUST_PROXY=true RUST_LOG=warn \
    STORAGE_URL=memory:// WEB_DIST=$ROOT/web/dist "$API" >>"$OUT/api.log" 2>&1 &
  API_PID=$!
  for _ in $(seq 1 300); do
    curl -fsS -H "Authorization: Bearer $METRICS_TOKEN" "$BASE/metrics" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "the api did not start; see $OUT/api.log" >&2
  exit 1
}
stop_api() {
  [ -n "$API_PID" ] || return 0
  kill -TERM "$API_PID" 2>/dev/null || true
  wait "$API_PID" 2>/dev/null || true
  API_PID=
}
auditors() { # database-url
  printf 'bench-password-1\n' | DATABASE_URL=$1 "$API" create-auditor --username bench-first --roles reviewer,collector,finance,compliance,admin --password-stdin >>"$OUT/api.log" 2>&1
  printf 'bench-password-2\n' | DATABASE_URL=$1 "$API" create-auditor --username bench-final --roles reviewer,collector,finance,compliance,admin --password-stdin >>"$OUT/api.log" 2>&1
}
