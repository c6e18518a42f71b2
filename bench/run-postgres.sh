#!/usr/bin/env bash
# querygate benchmark on PostgreSQL (bench/run.sh runs it after the SQLite part;
# it also runs alone). Each measurement lasts argument 1 seconds (default 5).
#
# Starts a private PostgreSQL 15 cluster (scripts/pg-test-cluster.sh on port
# $QG_BENCH_PG_PORT, default 5497, folder /tmp/qg-bench-pg; stopped at the end),
# loads the demo into database qgdemo (`querygate demo-db --postgres`, read by
# the least-privilege role qg_reader) and pgbench's tables into database pgbench
# (`pgbench -i`, scale 1), then measures:
#   1. the point query and the 100-row query through the gateway (wrk +
#      query.lua) at 1/8/32/64 connections, with 4 permits (the default) and 8;
#   2. the same statements straight on PostgreSQL by bench/direct_postgres, one
#      connection per thread: `bare` (the statement alone) and `gateway` (the
#      executor's preamble + statement + ROLLBACK); for the point query also
#      `lean` and `pipeline`, which split the wrapper's cost (see the source);
#   3. `pgbench -S` and `pgbench -S -M prepared` at the same concurrencies
#      (-j 2), the reference the gateway's point query is compared with;
#   4. the point query at 32 connections below saturation (paced.lua), and
#      with X-Request-Id sent (the gateway then draws no random request id);
#   5. where the time goes: CPU per request of the point query at 8
#      connections, split between client, gateway and server (/proc times);
#   6. an overload run: 64 connections against 4 permits and a queue of 8, a
#      statement of tens of milliseconds with a 250 ms deadline, twice: status
#      counts that add up, permits and server sessions back to idle, RSS.
# Prints Markdown. Must run as root (initdb runs as postgres through runuser).
set -euo pipefail

source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-5}
bench_init pg
need_wrk
build_targets querygate direct_postgres
command -v pgbench >/dev/null || {
  echo "pgbench is missing (apt-get install postgresql-client-15)" >&2
  exit 1
}

pg_start
pg_load_demo qgdemo
pg_psql postgres -c "DROP DATABASE IF EXISTS pgbench" -c "CREATE DATABASE pgbench"
pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -i -q pgbench >/dev/null 2>&1
DSN="postgresql://qg_reader@127.0.0.1:$PG_PORT/qgdemo"

# Throughput runs measure serving, not refusing: a queue deep enough for 64
# connections. permits unset = the PostgreSQL default (4).
write_config() {  # $1 = file, then the database's extra keys ("key: value")
  local file=$1 key
  shift
  printf 'databases:\n  demo:\n    backend: postgres\n    dsn: %s\n' "$DSN" >"$file"
  for key in "$@"; do printf '    %s\n' "$key" >>"$file"; done
  printf '    tables: { spans: {}, traces: {} }\n' >>"$file"
}
write_config "$WORK/permits4.yaml" "queue_depth: 256"
write_config "$WORK/permits8.yaml" "permits: 8" "queue_depth: 256"
write_config "$WORK/overload.yaml" "queue_depth: 8"

POINT="SELECT id, name, kind, status FROM spans WHERE id = 4242"
ROWS="SELECT id, trace_id, name, kind, status, start_time FROM spans ORDER BY id LIMIT 100"

echo "## PostgreSQL"
echo
echo "- server: PostgreSQL $(pg_psql postgres -At -c 'SHOW server_version' | cut -d' ' -f1) on 127.0.0.1:$PG_PORT" \
  "(initdb defaults: shared_buffers $(pg_psql postgres -At -c 'SHOW shared_buffers'), max_connections" \
  "$(pg_psql postgres -At -c 'SHOW max_connections'); fsync off), same 2 cores as the gateway and wrk"
echo "- client library: libpq $(pkg-config --modversion libpq), libpqxx $(pkg-config --modversion libpqxx); $(pgbench --version)"
echo "- load average before this part: $(load_average)"
echo "- $RUN_SECONDS s per measurement"
echo

# ---------------------------------------------------------------------------
# 1. Through the gateway, 4 and 8 permits.
declare -A GW RSS_AFTER  # GW[permits,query,conns] = "rps p50 p99 non2xx"
for permits in ${QG_BENCH_PG_PERMITS:-4 8}; do  # the targets are read at 4 permits
  start_gateway "$WORK/permits$permits.yaml"
  for name in point rows100; do
    sql=$POINT
    [[ $name == rows100 ]] && sql=$ROWS
    body=$(json_body "$sql")
    applied_sql "$sql" >/dev/null  # the plan gate's EXPLAIN happens here, once per shape
    for conns in "${CONNS[@]}"; do
      threads=2
      ((conns < 2)) && threads=1
      out=$(QG_BODY="$body" wrk -t"$threads" -c"$conns" -d"${RUN_SECONDS}s" --latency -s "$BENCH/query.lua" \
        "http://127.0.0.1:$PORT/v1/query")
      GW[$permits,$name,$conns]=$(wrk_stats "$out")
    done
  done
  if ((permits == 4)); then
    RENDERED_POINT=$(applied_sql "$POINT")
    RENDERED_ROWS=$(applied_sql "$ROWS")
    # Below saturation, as for SQLite: 32 connections offering about half of
    # what saturated the gateway at 32 connections (or at the last
    # concurrency measured, when QG_BENCH_CONNS leaves 32 out).
    read -r sat _ <<<"${GW[4,point,32]:-${GW[4,point,${CONNS[-1]}]}}"
    PACE_MS=$(awk -v r="$sat" 'BEGIN { p = 32 * 1000 / (0.5 * r); printf "%d", (p < 1 ? 1 : p + 0.5) }')
    PACED=$(QG_BODY="$(json_body "$POINT")" QG_PACE_MS=$PACE_MS wrk -t2 -c32 -d"${RUN_SECONDS}s" --latency \
      -s "$BENCH/paced.lua" "http://127.0.0.1:$PORT/v1/query")
    # What drawing a random request id costs: the same point query with X-Request-Id.
    WITH_ID=""
    for conns in 8 32; do
      out=$(QG_BODY="$(json_body "$POINT")" QG_REQUEST_ID=bench wrk -t2 -c"$conns" -d"${RUN_SECONDS}s" --latency \
        -s "$BENCH/query.lua" "http://127.0.0.1:$PORT/v1/query")
      read -r rps p50 p99 _ <<<"$(wrk_stats "$out")"
      WITH_ID+="${WITH_ID:+; }$conns connections $rps req/s (p50 $p50 ms, p99 $p99 ms)"
    done
  fi
  RSS_AFTER[$permits]=$(($(rss_kb) / 1024))
  stop_gateway
done

# ---------------------------------------------------------------------------
# 2. Direct on PostgreSQL.
declare -A DIRECT  # DIRECT[mode,query,conns] = "rps p50 p99"
direct() {  # $1 = mode, $2 = sql, $3 = threads
  local line
  line=$("$BUILD/bench/direct_postgres" --dsn "$DSN" --sql "$2" --mode "$1" --threads "$3" --seconds "$RUN_SECONDS")
  echo "$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' <<<"$line") $(sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p' <<<"$line")" \
    "$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' <<<"$line")"
}
for conns in "${CONNS[@]}"; do
  for mode in bare gateway lean pipeline; do
    DIRECT[$mode,point,$conns]=$(direct "$mode" "$RENDERED_POINT" "$conns")
  done
  for mode in bare gateway; do
    DIRECT[$mode,rows100,$conns]=$(direct "$mode" "$RENDERED_ROWS" "$conns")
  done
done

# ---------------------------------------------------------------------------
# 3. pgbench -S (simple and prepared protocol) on the same server. Latency
# percentiles come from its per-transaction log (-l: the third field is the
# transaction's latency in microseconds).
declare -A PGB  # PGB[protocol,conns] = "tps p50 p99"
for conns in "${CONNS[@]}"; do
  for protocol in simple prepared; do
    jobs=2
    ((conns < 2)) && jobs=1
    rm -f "$WORK"/pgbench_log.*
    tps=$(cd "$WORK" && pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -S -M "$protocol" -c "$conns" -j "$jobs" \
      -T "$RUN_SECONDS" -l --log-prefix=pgbench_log pgbench 2>/dev/null |
      awk '/^tps/ {printf "%.0f", $3}')
    pct=$(cat "$WORK"/pgbench_log.* | awk '{print $3}' | sort -n |
      awk '{v[NR] = $1} END { printf "%.3f %.3f", v[int(NR * 0.5) + 1] / 1000, v[int(NR * 0.99) + 1] / 1000 }')
    PGB[$protocol,$conns]="$tps $pct"
  done
done
rm -f "$WORK"/pgbench_log.*

# ---------------------------------------------------------------------------
# 4. Where the time goes: the CPU each run of the point query at 8 connections
# costs per request, split between the client (wrk, direct_postgres, pgbench),
# the gateway and the PostgreSQL server (all its processes). From /proc CPU
# times, so it holds even when other jobs share the cores.
CPU_ROWS=()
declare -A CPU_US  # CPU_US[label] = "client gateway server" µs per request
cpu_row() {  # $1 = label, $2 = requests completed
  local n=$2
  CPU_US[$1]=$(awk -v n="$n" -v c="$CPU_CLIENT_MS" -v g="$CPU_GATEWAY_MS" -v p="$CPU_PG_MS" '
    BEGIN { us = (n > 0 ? 1000 / n : 0); printf "%.1f %.1f %.1f", c * us, g * us, p * us }')
  CPU_ROWS+=("| $1 | $(awk -v n="$n" -v s="$RUN_SECONDS" -v c="$CPU_CLIENT_MS" -v g="$CPU_GATEWAY_MS" -v p="$CPU_PG_MS" '
    BEGIN { us = (n > 0 ? 1000 / n : 0)
            printf "%.0f | %.0f | %s | %.0f | %.0f | %.2f", n / s, c * us, (g > 0 ? sprintf("%.0f", g * us) : "-"), p * us,
                   (c + g + p) * us, (c + g + p) / (s * 1000) }') |")
}
start_gateway "$WORK/permits4.yaml"
applied_sql "$POINT" >/dev/null
for id in "" bench; do
  QG_BODY=$(json_body "$POINT") QG_REQUEST_ID=$id cpu_run wrk -t2 -c8 -d"${RUN_SECONDS}s" -s "$BENCH/query.lua" \
    "http://127.0.0.1:$PORT/v1/query"
  label="gateway, 4 permits (wrk)"
  [[ -n $id ]] && label="gateway, 4 permits, client sends X-Request-Id (wrk)"
  cpu_row "$label" "$(awk '/requests in/ {print $1}' "$WORK/cpu_out")"
done
stop_gateway
for mode in bare gateway lean pipeline; do
  cpu_run "$BUILD/bench/direct_postgres" --dsn "$DSN" --sql "$RENDERED_POINT" --mode "$mode" --threads 8 \
    --seconds "$RUN_SECONDS"
  cpu_row "direct_postgres --mode $mode" "$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' "$WORK/cpu_out")"
done
for protocol in simple prepared; do
  cpu_run pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -S -M "$protocol" -c 8 -j 2 -T "$RUN_SECONDS" pgbench
  cpu_row "pgbench -S -M $protocol" "$(awk -F': ' '/actually processed/ {print $2}' "$WORK/cpu_out" | cut -d/ -f1)"
done

# ---------------------------------------------------------------------------
echo "### Throughput and latency through the gateway"
echo
echo "| query | conns | permits 4: req/s | p50 ms | p99 ms | non-2xx | permits 8: req/s | p50 ms | p99 ms | non-2xx |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in point rows100; do
  for conns in "${CONNS[@]}"; do
    read -r r4 a4 b4 n4 <<<"${GW[4,$name,$conns]}"
    read -r r8 a8 b8 n8 <<<"${GW[8,$name,$conns]:-}"
    echo "| $name | $conns | $r4 | $a4 | $b4 | $n4 | $r8 | $a8 | $b8 | $n8 |"
  done
done
echo
read -r prps _ <<<"$(wrk_stats "$PACED")"
echo "Below saturation (point query, permits 4, 32 connections, each pausing $PACE_MS ms between requests):" \
  "$prps req/s, p50 $(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$PACED")") ms," \
  "p90 $(to_ms "$(awk '$1 == "90%" {print $2}' <<<"$PACED")") ms," \
  "p99 $(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$PACED")") ms."
echo "Point query with \`X-Request-Id\` sent by the client (the gateway draws no random id), permits 4: $WITH_ID."
echo "Gateway RSS after its throughput runs: ${RSS_AFTER[4]} MiB (4 permits), ${RSS_AFTER[8]:-–} MiB (8 permits)."
echo

echo "### Direct on PostgreSQL (bench/direct_postgres, one connection per thread)"
echo
echo "| query | threads | bare req/s | p50 ms | p99 ms | as the gateway wraps it: req/s | p50 ms | p99 ms | lean wrapper req/s | pipelined wrapper req/s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in point rows100; do
  for conns in "${CONNS[@]}"; do
    read -r br bp50 bp99 <<<"${DIRECT[bare,$name,$conns]}"
    read -r gr gp50 gp99 <<<"${DIRECT[gateway,$name,$conns]}"
    lean=-
    pipe=-
    if [[ $name == point ]]; then
      read -r lean _ <<<"${DIRECT[lean,$name,$conns]}"
      read -r pipe _ <<<"${DIRECT[pipeline,$name,$conns]}"
    fi
    echo "| $name | $conns | $br | $bp50 | $bp99 | $gr | $gp50 | $gp99 | $lean | $pipe |"
  done
done
echo
echo "Statements run directly (what the gateway reports in \`applied.sql\`, or the statement as sent):"
echo "\`$RENDERED_POINT\` and \`$RENDERED_ROWS\`."
echo

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f %%", (b > 0 ? 100 * a / b : 0) }'; }
echo "### The point query against pgbench -S (same server, same concurrency)"
echo
echo "| conns | pgbench -S TPS | p50 ms | p99 ms | -M prepared TPS | p50 ms | p99 ms | gateway (4 permits) req/s | % of -S | % of -S prepared | gateway (8 permits) req/s | % of -S |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for conns in "${CONNS[@]}"; do
  read -r st sp50 sp99 <<<"${PGB[simple,$conns]}"
  read -r pt pp50 pp99 <<<"${PGB[prepared,$conns]}"
  read -r g4 _ <<<"${GW[4,point,$conns]}"
  read -r g8 _ <<<"${GW[8,point,$conns]:-}"
  echo "| $conns | $st | $sp50 | $sp99 | $pt | $pp50 | $pp99 | $g4 | $(pct "$g4" "$st") | $(pct "$g4" "$pt") | $g8 | $(pct "$g8" "$st") |"
done
echo
echo "pgbench: \`pgbench -S [-M prepared] -c N -j 2 -T $RUN_SECONDS\` (-j 1 for one client) as postgres on" \
  "database pgbench (\`pgbench -i\`, scale 1: 100 000 accounts); each transaction is one primary-key SELECT."
echo "Load average after the throughput part: $(load_average)."
echo

echo "### Where the time goes: CPU per request (point query, 8 connections)"
echo
echo "| run | req/s | client µs/req | gateway µs/req | PostgreSQL µs/req | total CPU µs/req | cores busy |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${CPU_ROWS[@]}"
echo
echo "CPU times from /proc (clock ticks of 1/$CLK_TCK s; the server's include its exited backends through the"
echo "postmaster's cutime/cstime). The client is wrk, direct_postgres or pgbench; \`cores busy\` is all three"
echo "together over the run (the machine has $(nproc))."
echo

echo "### Against issue 16's PostgreSQL targets (point query, 8 connections, 4 permits)"
echo
read -r g8 _ <<<"${GW[4,point,8]:-0}"
read -r s8 _ <<<"${PGB[simple,8]:-0}"
read -r _ gw_cpu gw_pg <<<"${CPU_US[gateway, 4 permits (wrk)]}"
read -r _ _ bare_pg <<<"${CPU_US[direct_postgres --mode bare]}"
if [[ -n "${GW[4,point,8]:-}" ]]; then
  ratio="$(pct "$g8" "$s8") ($g8 req/s ÷ $s8 TPS)"
else
  ratio="not measured (8 is not in QG_BENCH_CONNS)"
fi
server="$(awk -v a="$gw_pg" -v b="$bare_pg" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }') ($gw_pg µs through the gateway, $bare_pg µs bare)"
echo "- through the gateway ÷ \`pgbench -S\`: **$ratio** (target ≥ 50 %)"
echo "- gateway CPU per request: **$gw_cpu µs** (target ≤ 80 µs)"
echo "- server CPU per statement, through the gateway ÷ the bare statement: **$server** (target ≤ 1.5×)"
echo
record_target pg_ratio_8 "$ratio"
record_target pg_gateway_cpu "$gw_cpu µs"
record_target pg_server_cpu "$server"

# ---------------------------------------------------------------------------
# 6. Overload.
echo "### Overload (4 permits, queue of 8, 64 connections)"
echo
start_gateway "$WORK/overload.yaml"
SLOW='SELECT name, count(*) AS n FROM spans GROUP BY name ORDER BY n DESC'
body=$(json_body "$SLOW" '{"timeout_ms": 250}')
echo "Statement: \`$SLOW\` with \`\"timeout_ms\": 250\`; wrk sends the next request as soon as an answer"
echo "arrives, 429 included (a client that ignores Retry-After)."
echo
echo "| round | seconds | statuses (wrk Lua count) | RSS before MiB | RSS max during MiB | RSS after MiB | permits in use / queued after | server sessions of qg_reader not idle after |"
echo "|---:|---:|---|---:|---:|---:|---|---:|"
for round in 1 2; do
  before=$(rss_kb)
  : >"$WORK/rss.txt"
  (while kill -0 "$GATEWAY_PID" 2>/dev/null; do
    rss_kb >>"$WORK/rss.txt"
    sleep 1
  done) &
  sampler=$!
  out=$(QG_BODY="$body" wrk -t2 -c64 -d"$((RUN_SECONDS * 2))s" -s "$BENCH/overload.lua" \
    "http://127.0.0.1:$PORT/v1/query")
  kill "$sampler"
  wait "$sampler" 2>/dev/null || true
  statuses=$(grep '^statuses:' <<<"$out" | sed 's/^statuses: //')
  ready=$(readyz_settled demo)
  busy=$(pg_psql postgres -At -c "SELECT count(*) FROM pg_stat_activity WHERE usename = 'qg_reader' AND state <> 'idle'")
  peak=$(sort -n "$WORK/rss.txt" | tail -1)
  echo "| $round | $((RUN_SECONDS * 2)) | $statuses | $((before / 1024)) | $((peak / 1024)) | $(($(rss_kb) / 1024)) | $ready | $busy |"
done
echo
echo "RSS samples of the last round (kB, one per second): $(tr '\n' ' ' <"$WORK/rss.txt")"
echo "/readyz admission totals: $(curl -s "http://127.0.0.1:$PORT/readyz" | python3 -c 'import json,sys; a=json.load(sys.stdin)["admission"]["demo"]; print(", ".join(f"{k} {a[k]}" for k in ("granted", "queue_full", "expired_in_queue", "cancelled_in_queue")))')."
stop_gateway
echo "Load average at the end: $(load_average)."
