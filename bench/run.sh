#!/usr/bin/env bash
# querygate benchmark on the demo database (SQLite). Measures, each for a few
# seconds (argument 1, default 5):
#   1. a point query and a 100-row query through the gateway (wrk + query.lua)
#      at 1/8/32/64 connections: throughput, p50, p99;
#   2. the same statements (as the gateway renders them) straight on SQLite by
#      bench/direct_sqlite with as many threads: the gateway's overhead as a ratio;
#   3. the point query at 32 connections paced to about half the saturated
#      throughput (paced.lua): latency below saturation;
#   4. an overload run: 64 connections against 2 permits and a queue of 8, a
#      statement that takes tens of milliseconds and asks for a 250 ms deadline:
#      200/429/504 counts that add up to the requests completed, permits back to
#      zero afterwards, and resident memory sampled every second over two rounds.
# Prints Markdown tables (docs/BENCHMARKS.md holds a run's figures).
# Needs root for `apt-get install wrk` when wrk is missing.
set -euo pipefail

RUN_SECONDS=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${QG_BENCH_BUILD:-$ROOT/build-bench}
BENCH=$ROOT/bench
WORK=$(mktemp -d /tmp/qg-bench-XXXXXX)
GATEWAY_PID=""

cleanup() {
  if [[ -n "$GATEWAY_PID" ]] && kill -0 "$GATEWAY_PID" 2>/dev/null; then
    kill -TERM "$GATEWAY_PID" && wait "$GATEWAY_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null
fi

echo "building querygate and direct_sqlite (Release) in $BUILD" >&2
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DQG_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target querygate direct_sqlite >/dev/null

"$BUILD/querygate" demo-db "$WORK/demo.db" >/dev/null

# Throughput runs must measure serving, not refusing: a queue deep enough for
# 64 connections. The overload run uses the defaults (2 permits, queue of 8).
cat > "$WORK/throughput.yaml" <<YAML
databases:
  demo:
    backend: sqlite
    path: demo.db
    permits: 2
    queue_depth: 256
    tables: { spans: {}, traces: {} }
YAML
cat > "$WORK/overload.yaml" <<YAML
databases:
  demo:
    backend: sqlite
    path: demo.db
    permits: 2
    queue_depth: 8
    tables: { spans: {}, traces: {} }
YAML

start_gateway() {  # $1 = config; sets GATEWAY_PID and PORT
  "$BUILD/querygate" --config "$1" --listen 127.0.0.1:0 2> "$WORK/gateway.log" &
  GATEWAY_PID=$!
  for _ in $(seq 1 300); do
    PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/gateway.log")
    [[ -n "$PORT" ]] && return 0
    sleep 0.05
  done
  echo "querygate did not start:" >&2; cat "$WORK/gateway.log" >&2; exit 1
}

stop_gateway() {
  kill -TERM "$GATEWAY_PID"
  wait "$GATEWAY_PID" || { echo "querygate exited with $?" >&2; exit 1; }
  GATEWAY_PID=""
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$GATEWAY_PID/status"; }

# wrk prints latencies as 51.00us / 1.28ms / 1.02s; Markdown wants ms.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000
    printf "%.2f", n }'
}

json_body() {  # $1 = sql, $2 = extra JSON fields (optional)
  python3 -c 'import json,sys; b={"sql": sys.argv[1]}; b.update(json.loads(sys.argv[2] or "{}")); print(json.dumps(b))' "$1" "${2:-}"
}

# The SQL the gateway actually runs (limit injection etc.), for the direct runs.
applied_sql() {  # $1 = sql
  curl -sf "http://127.0.0.1:$PORT/v1/query" -H 'Content-Type: application/json' -d "$(json_body "$1")" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("applied", {}).get("sql") or sys.argv[1])' "$1"
}

echo "## Machine"
echo
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores online"
echo "- memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -r)"
echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2); SQLite $(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)') (the system library, which the gateway links)"
echo "- $RUN_SECONDS s per measurement; wrk and the gateway share the same cores"
echo

start_gateway "$WORK/throughput.yaml"
POINT="SELECT id, name, kind, status FROM spans WHERE id = 4242"
ROWS="SELECT id, trace_id, name, kind, status, start_time FROM spans ORDER BY id LIMIT 100"

echo "## Throughput and latency (gateway vs. direct SQLite)"
echo
echo "| query | conns | gateway req/s | p50 ms | p99 ms | non-2xx | direct req/s | direct p50 ms | direct p99 ms | direct / gateway |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in point rows100; do
  sql=$POINT; [[ $name == rows100 ]] && sql=$ROWS
  body=$(json_body "$sql")
  rendered=$(applied_sql "$sql")
  for conns in 1 8 32 64; do
    threads=2; [[ $conns -lt 2 ]] && threads=1
    out=$(QG_BODY="$body" wrk -t"$threads" -c"$conns" -d"${RUN_SECONDS}s" --latency -s "$BENCH/query.lua" \
          "http://127.0.0.1:$PORT/v1/query")
    rps=$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<< "$out")
    p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<< "$out")")
    p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$out")")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<< "$out"); non2xx=${non2xx:-0}
    direct=$("$BUILD/bench/direct_sqlite" --db "$WORK/demo.db" --sql "$rendered" --threads "$conns" \
             --seconds "$RUN_SECONDS")
    drps=$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' <<< "$direct")
    dp50=$(sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p' <<< "$direct")
    dp99=$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' <<< "$direct")
    ratio=$(awk -v d="$drps" -v g="$rps" 'BEGIN { printf "%.1f", (g > 0 ? d / g : 0) }')
    echo "| $name | $conns | $rps | $p50 | $p99 | $non2xx | $drps | $dp50 | $dp99 | $ratio |"
    if [[ $name == point && $conns == 32 ]]; then SATURATED_32=$rps; fi
  done
done
echo

# Below saturation: each of 32 connections waits between requests so that
# together they offer about half of what saturated the gateway above.
PACE_MS=$(awk -v r="$SATURATED_32" 'BEGIN { p = 32 * 1000 / (0.5 * r); printf "%d", (p < 1 ? 1 : p + 0.5) }')
out=$(QG_BODY="$(json_body "$POINT")" QG_PACE_MS=$PACE_MS wrk -t2 -c32 -d"${RUN_SECONDS}s" --latency \
      -s "$BENCH/paced.lua" "http://127.0.0.1:$PORT/v1/query")
echo "Below saturation (point query, 32 connections, each pausing $PACE_MS ms between requests):" \
     "$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<< "$out") req/s," \
     "p50 $(to_ms "$(awk '$1 == "50%" {print $2}' <<< "$out")") ms," \
     "p90 $(to_ms "$(awk '$1 == "90%" {print $2}' <<< "$out")") ms," \
     "p99 $(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$out")") ms."
echo
echo "Direct runs execute the SQL the gateway reports in \`applied.sql\`, or the statement as sent when it reports"
echo "none (its limit injection then did not change the result): \`$(applied_sql "$POINT")\` and \`$(applied_sql "$ROWS")\`."
echo "Gateway RSS after the throughput runs: $(( $(rss_kb) / 1024 )) MiB."
stop_gateway
echo

echo "## Overload (2 permits, queue of 8, 64 connections)"
echo
start_gateway "$WORK/overload.yaml"
SLOW='SELECT name, count(*) AS n FROM spans GROUP BY name ORDER BY n DESC'
body=$(json_body "$SLOW" '{"timeout_ms": 250}')
echo "Statement: \`$SLOW\` with \`\"timeout_ms\": 250\`; wrk sends the next request as soon as an answer"
echo "arrives, 429 included (a client that ignores Retry-After)."
echo
echo "| round | seconds | statuses (wrk Lua count) | RSS before MiB | RSS max during MiB | RSS after MiB | permits in use / queued after |"
echo "|---:|---:|---|---:|---:|---:|---|"
for round in 1 2; do
  before=$(rss_kb)
  : > "$WORK/rss.txt"
  ( while kill -0 "$GATEWAY_PID" 2>/dev/null; do rss_kb >> "$WORK/rss.txt"; sleep 1; done ) &
  sampler=$!
  out=$(QG_BODY="$body" wrk -t2 -c64 -d"$((RUN_SECONDS * 2))s" -s "$BENCH/overload.lua" \
        "http://127.0.0.1:$PORT/v1/query")
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  statuses=$(grep '^statuses:' <<< "$out" | sed 's/^statuses: //')
  ready=$(curl -s "http://127.0.0.1:$PORT/readyz" |
          python3 -c 'import json,sys; a=json.load(sys.stdin)["admission"]["demo"]; print(str(a["in_use"]) + " / " + str(a["queued"]))')
  peak=$(sort -n "$WORK/rss.txt" | tail -1)
  echo "| $round | $((RUN_SECONDS * 2)) | $statuses | $((before / 1024)) | $((peak / 1024)) | $(( $(rss_kb) / 1024 )) | $ready |"
done
echo
echo "RSS samples of the last round (kB, one per second): $(tr '\n' ' ' < "$WORK/rss.txt")"
stop_gateway
