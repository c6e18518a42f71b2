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
# Then, unless QG_BENCH_PARTS (default "sqlite bare postgres dbhub distinct
# admission scale") leaves them out:
#   bare                   bench/bare_beast (a bare Boost.Beast server, fixed JSON answer of the
#                          point query's size) against the gateway's point query, same run;
#   bench/run-postgres.sh  the same on PostgreSQL, against pgbench -S (own cluster, port 5497);
#   bench/dbhub.sh         DBHub 0.21.2 over its MCP HTTP transport vs. querygate, same point query;
#   bench/distinct.sh      distinct statements: every runnable Spider dev gold query (one gateway
#                          serving their SQLite databases) and the Defog gold queries (PostgreSQL);
#   admission              bench/admission_bench (Google Benchmark): parse → admit → render per
#                          statement over the same corpora, by statement size;
#   bench/scale.sh         10 000 idle connections + 32 active, 1 000 tables, a 5 000 × 10 result.
# The run ends with a table of issue 16's targets and what this run measured
# for each (print_targets in lib.sh). QG_BENCH_CONNS (default "1 8 32 64")
# sets the concurrencies of the throughput runs.
# `bench/run.sh --soak [SECONDS]` runs only the soak (bench/soak.sh, default 600 s).
# QG_BENCH_OVERLOAD_ROUNDS (default 2) sets the overload rounds, QG_BENCH_SAMPLE
# (distinct, admission), QG_BENCH_TABLES and QG_BENCH_IDLE (scale) and
# QG_BENCH_PG_PERMITS (postgres, default "4 8") shorten the parts (bench/smoke.sh).
# QG_BENCH_QUIET_LOAD=1.5 first waits (up to QG_BENCH_QUIET_WAIT s, default 2400)
# for the 1-minute load average to drop below 1.5.
# Prints Markdown tables (docs/BENCHMARKS.md holds a run's figures).
# Needs root (apt-get install wrk when missing; initdb for the PostgreSQL part).
set -euo pipefail

source "$(dirname "$0")/lib.sh"

if [[ "${1:-}" == --soak ]]; then
  exec "$BENCH/soak.sh" "${2:-600}"
fi
RUN_SECONDS=${1:-5}
PARTS=${QG_BENCH_PARTS:-sqlite bare postgres dbhub distinct admission scale}
part() { [[ " $PARTS " == *" $1 "* ]]; }
# How long the run has taken so far, on stderr (the smoke's budget).
elapsed() { echo "bench: ${SECONDS} s so far, after the $1 part" >&2; }

bench_init sqlite
export QG_BENCH_TARGETS=${QG_BENCH_TARGETS:-$WORK/targets.tsv}
need_wrk
targets=(querygate)
part sqlite && targets+=(direct_sqlite)
part bare && targets+=(bare_beast)
part postgres && targets+=(direct_postgres)
part admission && targets+=(admission_bench)
part distinct && targets+=(admission_bench)
part scale && targets+=(conn_scale)
build_targets "${targets[@]}"
wait_for_quiet

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

echo "## Machine"
echo
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores online"
echo "- memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -r)"
echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2); SQLite $(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)') (the system library, which the gateway links)"
echo "- $RUN_SECONDS s per measurement; wrk and the gateway share the same cores"
echo

POINT="SELECT id, name, kind, status FROM spans WHERE id = 4242"
declare -A GW_POINT  # GW_POINT[conns] = "req/s p50 p99" of the point query, for the bare part
if part sqlite; then
  start_gateway "$WORK/throughput.yaml"
  ROWS="SELECT id, trace_id, name, kind, status, start_time FROM spans ORDER BY id LIMIT 100"

  echo "## Throughput and latency (gateway vs. direct SQLite)"
  echo
  echo "| query | conns | gateway req/s | p50 ms | p99 ms | non-2xx | direct req/s | direct p50 ms | direct p99 ms | direct / gateway |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for name in point rows100; do
    sql=$POINT; [[ $name == rows100 ]] && sql=$ROWS
    body=$(json_body "$sql")
    rendered=$(applied_sql "$sql")
    for conns in "${CONNS[@]}"; do
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
      if [[ $name == point ]]; then GW_POINT[$conns]="$rps $p50 $p99"; SATURATED=$rps; fi
    done
  done
  echo

  # Below saturation: each of 32 connections waits between requests so that
  # together they offer about half of what saturated the gateway above (at
  # 32 connections, or at the last concurrency measured).
  PACE_MS=$(awk -v r="$SATURATED" 'BEGIN { p = 32 * 1000 / (0.5 * r); printf "%d", (p < 1 ? 1 : p + 0.5) }')
  out=$(QG_BODY="$(json_body "$POINT")" QG_PACE_MS=$PACE_MS wrk -t2 -c32 -d"${RUN_SECONDS}s" --latency \
        -s "$BENCH/paced.lua" "http://127.0.0.1:$PORT/v1/query")
  echo "Below saturation (point query, 32 connections, each pausing $PACE_MS ms between requests):" \
       "$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<< "$out") req/s," \
       "p50 $(to_ms "$(awk '$1 == "50%" {print $2}' <<< "$out")") ms," \
       "p90 $(to_ms "$(awk '$1 == "90%" {print $2}' <<< "$out")") ms," \
       "p99 $(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$out")") ms."
  record_target paced_p99_32 "p99 $(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$out")") ms at \
$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<< "$out") req/s (pause $PACE_MS ms; saturated: $SATURATED req/s)"
  # The request log draws a random request id unless the caller sends one; the
  # same point query with X-Request-Id set shows what drawing it costs.
  with_id=""
  for conns in 8 32; do
    out=$(QG_BODY="$(json_body "$POINT")" QG_REQUEST_ID=bench wrk -t2 -c"$conns" -d"${RUN_SECONDS}s" --latency \
          -s "$BENCH/query.lua" "http://127.0.0.1:$PORT/v1/query")
    read -r rps p50 p99 _ <<< "$(wrk_stats "$out")"
    with_id+="${with_id:+; }$conns connections $rps req/s (p50 $p50 ms, p99 $p99 ms)"
  done
  echo "Point query with \`X-Request-Id\` sent by the client (the gateway draws no random id): $with_id."
  # CPU per request at 8 connections, from /proc times (robust to neighbours):
  # what the gateway spends per point query, and wrk's share of the cores.
  cpu_split=""
  for id in "" bench; do
    QG_BODY=$(json_body "$POINT") QG_REQUEST_ID=$id cpu_run wrk -t2 -c8 -d"${RUN_SECONDS}s" -s "$BENCH/query.lua" \
      "http://127.0.0.1:$PORT/v1/query"
    n=$(awk '/requests in/ {print $1}' "$WORK/cpu_out")
    cpu_split+="${cpu_split:+; }$([[ -n $id ]] && echo "with X-Request-Id" || echo "as sent above")"
    cpu_split+=" $(awk -v n="$n" -v g="$CPU_GATEWAY_MS" -v c="$CPU_CLIENT_MS" -v s="$RUN_SECONDS" \
      'BEGIN { printf "%.0f req/s, gateway %.1f µs, wrk %.1f µs", n / s, g * 1000 / n, c * 1000 / n }')"
  done
  cpu_run "$BUILD/bench/direct_sqlite" --db "$WORK/demo.db" --sql "$(applied_sql "$POINT")" --threads 8 \
    --seconds "$RUN_SECONDS"
  n=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' "$WORK/cpu_out")
  cpu_split+="; direct_sqlite (8 threads) $(awk -v n="$n" -v c="$CPU_CLIENT_MS" 'BEGIN { printf "%.1f µs", c * 1000 / n }')"
  echo "CPU per point query at 8 connections (from /proc): $cpu_split."
  echo
  echo "Direct runs execute the SQL the gateway reports in \`applied.sql\`, or the statement as sent when it reports"
  echo "none (its limit injection then did not change the result): \`$(applied_sql "$POINT")\` and \`$(applied_sql "$ROWS")\`."
  echo "Gateway RSS after the throughput runs: $(( $(rss_kb) / 1024 )) MiB."
  echo "Where the statements of these runs ran (\`/metrics\`, issue 16): $(where_ran)."
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
  for round in $(seq 1 "${QG_BENCH_OVERLOAD_ROUNDS:-2}"); do
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
fi

part sqlite && elapsed sqlite
if part bare; then
  echo
  echo "## The gateway against a bare Boost.Beast server (point query)"
  echo
  if ((${#GW_POINT[@]} == 0)); then  # the sqlite part did not run: measure the gateway here
    start_gateway "$WORK/throughput.yaml"
    for conns in "${CONNS[@]}"; do
      threads=2; [[ $conns -lt 2 ]] && threads=1
      out=$(QG_BODY="$(json_body "$POINT")" wrk -t"$threads" -c"$conns" -d"${RUN_SECONDS}s" --latency \
            -s "$BENCH/query.lua" "http://127.0.0.1:$PORT/v1/query")
      read -r rps p50 p99 _ <<< "$(wrk_stats "$out")"
      GW_POINT[$conns]="$rps $p50 $p99"
    done
    stop_gateway
  fi
  # The bare server answers with a body as long as the gateway's answer to the point query.
  start_gateway "$WORK/throughput.yaml"
  ANSWER_BYTES=$(curl -s "http://127.0.0.1:$PORT/v1/query" -H 'Content-Type: application/json' \
                 -d "$(json_body "$POINT")" | wc -c)
  stop_gateway
  "$BUILD/bench/bare_beast" --port 0 --threads 1 --body-bytes "$ANSWER_BYTES" > "$WORK/bare.log" 2>&1 &
  BARE_PID=$!
  CLEANUP+=("kill $BARE_PID 2>/dev/null; wait $BARE_PID 2>/dev/null")
  for _ in $(seq 1 100); do
    BARE_PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/bare.log" 2>/dev/null || true)
    [[ -n "$BARE_PORT" ]] && break
    sleep 0.05
  done
  [[ -n "$BARE_PORT" ]] || { echo "bare_beast did not start: $(cat "$WORK/bare.log" 2>/dev/null || true)" >&2; exit 1; }
  echo "bare_beast: one I/O thread (as the gateway's), keep-alive, every POST answered with a fixed JSON body of"
  echo "$ANSWER_BYTES bytes (the gateway's answer to \`$POINT\`); wrk with the same script and body."
  echo
  echo "| conns | gateway req/s | p50 ms | p99 ms | bare req/s | p50 ms | p99 ms | gateway / bare |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
  for conns in "${CONNS[@]}"; do
    threads=2; [[ $conns -lt 2 ]] && threads=1
    out=$(QG_BODY="$(json_body "$POINT")" wrk -t"$threads" -c"$conns" -d"${RUN_SECONDS}s" --latency \
          -s "$BENCH/query.lua" "http://127.0.0.1:$BARE_PORT/v1/query")
    read -r brps bp50 bp99 _ <<< "$(wrk_stats "$out")"
    read -r grps gp50 gp99 <<< "${GW_POINT[$conns]}"
    ratio=$(awk -v g="$grps" -v b="$brps" 'BEGIN { printf "%.0f %%", (b > 0 ? 100 * g / b : 0) }')
    echo "| $conns | $grps | $gp50 | $gp99 | $brps | $bp50 | $bp99 | $ratio |"
    last="$ratio ($grps / $brps req/s) at $conns connections"
    [[ $conns == 32 ]] && record_target bare_ratio_32 "$last"
  done
  [[ " ${CONNS[*]} " == *" 32 "* ]] || record_target bare_ratio_32 "$last (32 not in QG_BENCH_CONNS)"
  echo
  echo "bare_beast RSS: $(( $(rss_kb "$BARE_PID") / 1024 )) MiB."
  kill "$BARE_PID"; wait "$BARE_PID" 2>/dev/null || true
fi
part bare && elapsed bare
if part postgres; then
  echo
  "$BENCH/run-postgres.sh" "$RUN_SECONDS"
fi
part postgres && elapsed postgres
if part dbhub; then
  echo
  "$BENCH/dbhub.sh" "$RUN_SECONDS"
fi
part dbhub && elapsed dbhub
if part distinct; then
  echo
  "$BENCH/distinct.sh" "$RUN_SECONDS"
fi
part distinct && elapsed distinct
if part admission; then
  echo
  "$BENCH/admission.sh" "$RUN_SECONDS"
fi
part admission && elapsed admission
if part scale; then
  echo
  "$BENCH/scale.sh" "$RUN_SECONDS"
fi
part scale && elapsed scale
echo
print_targets "$QG_BENCH_TARGETS"
