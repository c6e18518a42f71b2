# shellcheck shell=bash disable=SC2034  # its variables are used by the scripts that source it
# Helpers shared by the benchmark scripts (bench/run.sh, run-postgres.sh,
# soak.sh, dbhub.sh). Sourced, not run. Each script makes its own $WORK folder
# and calls bench_init; everything it starts is stopped by the EXIT trap, in
# reverse order, even when a step fails.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QG_BENCH_BUILD:-$ROOT/build-bench}
BENCH=$ROOT/bench
GATEWAY_PID=""
CLEANUP=()

# The private PostgreSQL cluster the benchmarks use: never the one other jobs
# use (scripts/pg-test-cluster.sh defaults to 5499), and stopped at the end.
PG_PORT=${QG_BENCH_PG_PORT:-5497}
PG_DIR=${QG_BENCH_PG_DIR:-/tmp/qg-bench-pg}

bench_cleanup() {
  if [[ -n "$GATEWAY_PID" ]] && kill -0 "$GATEWAY_PID" 2>/dev/null; then
    kill -TERM "$GATEWAY_PID" && wait "$GATEWAY_PID" 2>/dev/null || true
  fi
  local i
  for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[i]}" || true; done
  [[ -n "${WORK:-}" ]] && rm -rf "$WORK"
}

bench_init() {  # $1 = label for the work folder
  WORK=$(mktemp -d "/tmp/qg-bench-$1-XXXXXX")
  trap bench_cleanup EXIT
}

need_wrk() {
  if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null
  fi
}

# Concurrencies of the throughput runs (the smoke passes fewer).
read -r -a CONNS <<<"${QG_BENCH_CONNS:-1 8 32 64}"

# QG_BENCH_SKIP_BUILD=1 (bench/smoke.sh under ctest): the targets were built
# with the build folder $QG_BENCH_BUILD already; only check they are there.
build_targets() {  # target names
  if [[ -n "${QG_BENCH_SKIP_BUILD:-}" ]]; then
    local t
    for t in "$@"; do
      [[ -x "$BUILD/$t" || -x "$BUILD/bench/$t" ]] || {
        echo "$t is not built in $BUILD" >&2
        exit 1
      }
    done
    return 0
  fi
  echo "building $* (Release) in $BUILD" >&2
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DQG_BUILD_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" --target "$@" >/dev/null
}

# The issue-16 targets: each part records the figure it measured for one
# (record_target KEY "text"), bench/run.sh prints them as one table at the end
# (print_targets) and bench/smoke.sh checks every part recorded its keys. The
# rows: key, target, what is measured. One list, here.
TARGET_ROWS=(
  "dbhub_ratio|≥ 25× DBHub 0.21.2 (SQLite point query, same run)|req/s querygate ÷ DBHub at 8 and 32 connections"
  "bare_ratio_32|≥ 40 % of a bare Beast server at 32 connections|SQLite point query req/s ÷ bare_beast req/s"
  "paced_p99_32|p99 ≤ 2 ms at 32 connections below saturation|SQLite point query, paced to half the saturated rate"
  "pg_ratio_8|≥ 50 % of pgbench -S at 8 connections|PostgreSQL point query req/s ÷ pgbench -S TPS, same server"
  "pg_gateway_cpu|gateway CPU ≤ 80 µs per request|PostgreSQL point query, 8 connections, /proc"
  "pg_server_cpu|server CPU per statement ≤ 1.5× the bare statement's|through the gateway vs direct_postgres bare"
  "distinct_spider|report req/s, p50, p99|all runnable Spider dev gold queries, one gateway (SQLite)"
  "distinct_defog|report req/s, p50, p99|Defog gold queries (PostgreSQL)"
  "admission_us|parse → admit → render ≤ 50 µs median, ≤ 200 µs p99|admission_bench over both corpora"
  "scale_idle|report RSS and the active clients' p99|10 000 idle keep-alive connections + 32 active"
  "scale_tables|report start-up time and /v1/schema latency|1 000 tables (one generated SQLite file)"
  "scale_rows|report time to last byte and peak RSS|a 5 000-row × 10-column result"
)
record_target() {  # $1 = key, $2 = the measured figure(s), as text
  [[ -n "${QG_BENCH_TARGETS:-}" ]] && printf '%s\t%s\n' "$1" "$2" >>"$QG_BENCH_TARGETS"
  return 0
}
print_targets() {  # $1 = the file record_target wrote
  local row key target what measured
  echo "## Against the targets of issue 16"
  echo
  echo "| target | measured | what |"
  echo "|---|---|---|"
  for row in "${TARGET_ROWS[@]}"; do
    IFS='|' read -r key target what <<<"$row"
    measured=$(awk -F'\t' -v k="$key" '$1 == k { v = $2 } END { print v }' "$1" 2>/dev/null)
    echo "| $target | ${measured:-not measured in this run} | $what |"
  done
}

load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# With QG_BENCH_QUIET_LOAD set (e.g. 1.5), waits until the 1-minute load
# average is below it, polling every 30 s for up to QG_BENCH_QUIET_WAIT seconds
# (default 2400), then goes on either way and says which.
wait_for_quiet() {
  [[ -z "${QG_BENCH_QUIET_LOAD:-}" ]] && return 0
  local waited=0 limit=${QG_BENCH_QUIET_WAIT:-2400}
  while awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v q="$QG_BENCH_QUIET_LOAD" 'BEGIN { exit !(l >= q) }'; do
    if ((waited >= limit)); then
      echo "load average still $(load_average) after ${waited} s: running anyway" >&2
      return 0
    fi
    echo "load average $(load_average), waiting for < $QG_BENCH_QUIET_LOAD ($waited s so far)" >&2
    sleep 30
    waited=$((waited + 30))
  done
  echo "load average $(load_average): quiet enough" >&2
}

# Starts the gateway on a free loopback port; sets GATEWAY_PID and PORT. The
# request log (a JSON line per request on stdout) goes to a file, as it would
# in a deployment that keeps it (QG_REQUEST_LOG=/dev/null drops it).
start_gateway() {  # $1 = config
  "$BUILD/querygate" --config "$1" --listen 127.0.0.1:0 >"${QG_REQUEST_LOG:-$WORK/requests.log}" \
    2>"$WORK/gateway.log" &
  GATEWAY_PID=$!
  for _ in $(seq 1 300); do
    # (the log may not exist yet: the background shell opens it)
    PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/gateway.log" 2>/dev/null || true)
    [[ -n "$PORT" ]] && return 0
    kill -0 "$GATEWAY_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "querygate did not start:" >&2
  cat "$WORK/gateway.log" >&2
  exit 1
}

stop_gateway() {
  kill -TERM "$GATEWAY_PID"
  wait "$GATEWAY_PID" || {
    echo "querygate exited with $?" >&2
    exit 1
  }
  GATEWAY_PID=""
  rm -f "$WORK/requests.log"
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/${1:-$GATEWAY_PID}/status"; }

# wrk prints latencies as 51.00us / 1.28ms / 1.02s; Markdown wants ms.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000
    printf "%.2f", n }'
}

# "req/s p50_ms p99_ms non2xx" from wrk --latency output.
wrk_stats() {  # $1 = wrk output
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$1")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$1")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$1")")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$1")
  echo "$rps $p50 $p99 ${non2xx:-0}"
}

json_body() {  # $1 = sql, $2 = extra JSON fields (optional)
  python3 -c 'import json,sys; b={"sql": sys.argv[1]}; b.update(json.loads(sys.argv[2] or "{}")); print(json.dumps(b))' "$1" "${2:-}"
}

# The SQL the gateway actually runs (limit injection etc.), for the direct runs.
# A few tries: right after start-up on a busy machine the first answer may be
# a 503 (a PostgreSQL connection still being opened); the last answer is shown
# when none is a 200.
applied_sql() {  # $1 = sql, $2 = extra JSON fields (optional)
  local answer try
  for try in 1 2 3 4 5; do
    answer=$(curl -s -w '\n%{http_code}' "http://127.0.0.1:$PORT/v1/query" -H 'Content-Type: application/json' \
      -d "$(json_body "$1" "${2:-}")" || true)
    [[ "${answer##*$'\n'}" == 200 ]] && break
    sleep 0.5
  done
  if [[ "${answer##*$'\n'}" != 200 ]]; then
    echo "applied_sql: no 200 for \`$1\` after $try tries; last answer: $answer" >&2
    return 1
  fi
  python3 -c 'import json,sys; d=json.loads(sys.argv[2]); print(d.get("applied", {}).get("sql") or sys.argv[1])' \
    "$1" "${answer%$'\n'*}"
}

# Issue 16: where the running gateway's statements ran so far, from /metrics
# (querygate_statements_run_total{where}), and why any went to a worker
# (querygate_handoffs_total{reason}): "N on the I/O thread, M on workers (x % inline); hand-offs: ...".
where_ran() {
  curl -s "http://127.0.0.1:$PORT/metrics" | awk '
    /^querygate_statements_run_total\{/ { if ($1 ~ /where="io_thread"/) io += $2; else w += $2 }
    /^querygate_handoffs_total\{/ && $2 > 0 {
      match($1, /reason="[a-z_]+"/); h[substr($1, RSTART + 8, RLENGTH - 9)] += $2 }
    END {
      t = io + w
      printf "%d on the I/O thread, %d on workers (%.1f %% inline)", io, w, (t > 0 ? 100 * io / t : 0)
      sep = "; hand-offs: "; for (r in h) { printf "%s%s %d", sep, r, h[r]; sep = ", " } }'
}

# "in_use / queued" of database $1 from /readyz.
readyz_admission() {
  curl -s "http://127.0.0.1:$PORT/readyz" |
    python3 -c 'import json,sys; a=json.load(sys.stdin)["admission"][sys.argv[1]]; print(str(a["in_use"]) + " / " + str(a["queued"]))' "$1"
}

# Like readyz_admission, but polls every 50 ms for up to 5 s until nothing is
# in use or queued: when a load run ends, statements that had started may still
# be finishing or being cancelled (PostgreSQL: a cancel request and ROLLBACK).
# Prints "in_use / queued (after N ms)".
readyz_settled() {  # $1 = database
  local state waited=0
  while :; do
    state=$(readyz_admission "$1")
    [[ "$state" == "0 / 0" || $waited -ge 5000 ]] && break
    sleep 0.05
    waited=$((waited + 50))
  done
  echo "$state (after $waited ms)"
}

# CPU time, for "where the time goes": utime + stime + cutime + cstime (the last
# two: children it has reaped) of one process, in clock ticks. The comm field
# may hold spaces, so fields are counted after its closing parenthesis.
CLK_TCK=$(getconf CLK_TCK)
proc_ticks() {  # $1 = pid
  { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null || true; } | awk '{ t = $12 + $13 + $14 + $15 } END { print t + 0 }'
}

# All CPU the private PostgreSQL server has used so far (0 when it is not running): the postmaster, its
# live children (backends, background workers) and, through cutime/cstime,
# the backends that have exited (pgbench's, direct_postgres's).
pg_ticks() {
  local pm total child
  [[ -f "$PG_DIR/data/postmaster.pid" ]] || {
    echo 0
    return
  }
  pm=$(head -1 "$PG_DIR/data/postmaster.pid")
  total=$(proc_ticks "$pm")
  for child in $(pgrep -P "$pm"); do total=$((total + $(proc_ticks "$child"))); done
  echo "$total"
}

# Runs a load command and splits the CPU it caused: CPU_CLIENT_MS (the command
# itself: wrk, direct_postgres or pgbench), CPU_GATEWAY_MS (the running gateway,
# if any) and CPU_PG_MS (the PostgreSQL server). The command's stdout goes to
# $WORK/cpu_out.
cpu_run() {
  local pg0 gw0 pg1 gw1 TIMEFORMAT='%3U %3S'
  pg0=$(pg_ticks)
  gw0=0
  [[ -n "$GATEWAY_PID" ]] && gw0=$(proc_ticks "$GATEWAY_PID")
  { time "$@" >"$WORK/cpu_out" 2>"$WORK/cpu_err"; } 2>"$WORK/cpu_time"
  pg1=$(pg_ticks)
  gw1=0
  [[ -n "$GATEWAY_PID" ]] && gw1=$(proc_ticks "$GATEWAY_PID")
  CPU_CLIENT_MS=$(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$WORK/cpu_time")
  CPU_GATEWAY_MS=$(((gw1 - gw0) * 1000 / CLK_TCK))
  CPU_PG_MS=$(((pg1 - pg0) * 1000 / CLK_TCK))
}

pg_psql() {  # as the superuser; $1 = database, rest = psql arguments
  local db=$1
  shift
  psql -X -h 127.0.0.1 -p "$PG_PORT" -U postgres -d "$db" -v ON_ERROR_STOP=1 -q "$@"
}

# Starts (or reuses) the private cluster and registers its stop.
pg_start() {
  QG_PG_PORT=$PG_PORT QG_PG_DIR=$PG_DIR "$ROOT/scripts/pg-test-cluster.sh" start >&2
  CLEANUP+=("QG_PG_PORT=$PG_PORT QG_PG_DIR=$PG_DIR '$ROOT/scripts/pg-test-cluster.sh' stop >&2")
}

# Loads the demo (querygate demo-db --postgres) into database $1, owned by
# qg_owner; qg_reader, the least-privilege reader, may read its four public tables.
pg_load_demo() {
  local db=$1
  "$BUILD/querygate" demo-db --postgres "$WORK/demo-pg.sql" >/dev/null
  pg_psql postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db OWNER qg_owner"
  psql -X -h 127.0.0.1 -p "$PG_PORT" -U qg_owner -d "$db" -v ON_ERROR_STOP=1 -q -1 -f "$WORK/demo-pg.sql" >/dev/null
  psql -X -h 127.0.0.1 -p "$PG_PORT" -U qg_owner -d "$db" -v ON_ERROR_STOP=1 -q -c \
    "REVOKE ALL ON DATABASE $db FROM PUBLIC; GRANT CONNECT ON DATABASE $db TO qg_reader;
     GRANT USAGE ON SCHEMA public TO qg_reader;
     GRANT SELECT ON projects, traces, spans, span_annotations TO qg_reader"
  rm -f "$WORK/demo-pg.sql"
}
