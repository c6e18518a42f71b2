#!/usr/bin/env bash
# Soak: a constant mixed load well below saturation for argument 1 seconds
# (default 600), against one gateway serving the SQLite demo and, unless
# QG_SOAK_POSTGRES=0, the same demo on PostgreSQL (private cluster, as in
# run-postgres.sh). Also run by `bench/run.sh --soak [SECONDS]`.
#
# 16 connections, each pausing QG_PACE_MS (default 10) ms between requests, send
# in turn: point lookups with varying ids, 100-row pages, a join with GROUP BY,
# an unbounded SELECT the gateway truncates, and requests that must be refused
# (unknown column, a DELETE, a malformed body). Every 10 s it samples the
# gateway's RSS, open file descriptors and threads, and /readyz. It passes when
#   - RSS at the end is within QG_SOAK_RSS_SLACK_KB (default 4096) of RSS after
#     the warm-up (QG_SOAK_WARMUP seconds, default 60, at most a third of the run);
#   - open descriptors and threads in the last sample under load equal those
#     after the warm-up;
#   - every answer had its expected status (per status: answers <= requests
#     sent, and at most one in flight per connection unanswered at the end),
#     with no socket errors;
#   - no permit is in use and nothing is queued afterwards.
# Prints Markdown; exits 1 when a check fails.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
SOAK_SECONDS=${1:-600}
CONNECTIONS=16
PACE_MS=${QG_PACE_MS:-10}
SLACK_KB=${QG_SOAK_RSS_SLACK_KB:-4096}
WARMUP=${QG_SOAK_WARMUP:-60}
((WARMUP > SOAK_SECONDS / 3)) && WARMUP=$((SOAK_SECONDS / 3))
WITH_PG=${QG_SOAK_POSTGRES:-1}

bench_init soak
need_wrk
build_targets querygate
"$BUILD/querygate" demo-db "$WORK/demo.db" >/dev/null
{
  printf 'databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n    queue_depth: 64\n'
  printf '    tables: { spans: {}, traces: {} }\n'
} >"$WORK/soak.yaml"

# One request per line: expected status, TAB, body.
REQUESTS=""
add() { REQUESTS+="$1"$'\t'"$2"$'\n'; }
add_for() {  # $1 = database
  add 200 "{\"database\": \"$1\", \"sql\": \"SELECT id, name, kind, status FROM spans WHERE id = {ID}\"}"
  add 200 "{\"database\": \"$1\", \"sql\": \"SELECT id, trace_id, name, kind, status, start_time FROM spans WHERE id > {ID} ORDER BY id LIMIT 100\"}"
  add 200 "{\"database\": \"$1\", \"sql\": \"SELECT t.id, s.kind, count(*) AS n FROM traces t JOIN spans s ON s.trace_id = t.trace_id WHERE t.id = {ID} % 9000 + 1 GROUP BY t.id, s.kind\"}"
  add 200 "{\"database\": \"$1\", \"sql\": \"SELECT id, name FROM spans WHERE id > {ID}\", \"limit\": 20}"
  add 422 "{\"database\": \"$1\", \"sql\": \"SELECT nope FROM spans WHERE id = {ID}\"}"
  add 422 "{\"database\": \"$1\", \"sql\": \"DELETE FROM spans WHERE id = {ID}\"}"
}
add_for demo
add 400 '{"sql": 42}'
DATABASES=demo
if [[ $WITH_PG == 1 ]]; then
  pg_start
  pg_load_demo qgdemo
  {
    printf '  pgdemo:\n    backend: postgres\n    dsn: postgresql://qg_reader@127.0.0.1:%s/qgdemo\n' "$PG_PORT"
    printf '    queue_depth: 64\n    tables: { spans: {}, traces: {} }\n'
  } >>"$WORK/soak.yaml"
  add_for pgdemo
  DATABASES="demo pgdemo"
fi

start_gateway "$WORK/soak.yaml"
# Each request once, so a wrong expectation fails now rather than after the soak.
while IFS=$'\t' read -r want body; do
  [[ -z "$want" ]] && continue
  body=${body//\{ID\}/4242}
  got=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/v1/query" -H 'Content-Type: application/json' -d "$body")
  [[ "$got" == "$want" ]] || {
    echo "soak: expected $want, got $got for $body" >&2
    exit 1
  }
done <<<"$REQUESTS"

sample() {  # one line: seconds rss_kb fds threads then "in_use/queued" per database
  local line
  line="$1 $(rss_kb) $(ls "/proc/$GATEWAY_PID/fd" | wc -l) $(awk '/^Threads:/ {print $2}' "/proc/$GATEWAY_PID/status")"
  line+=" $(curl -s "http://127.0.0.1:$PORT/readyz" | python3 -c '
import json, sys
a = json.load(sys.stdin)["admission"]
print(" ".join("%s/%s" % (a[d]["in_use"], a[d]["queued"]) for d in sys.argv[1:]))' $DATABASES)"
  echo "$line"
}

echo "## Soak ($SOAK_SECONDS s)"
echo
echo "- databases: $DATABASES (the demo on SQLite$([[ $WITH_PG == 1 ]] && echo ", and on PostgreSQL $PG_PORT"))"
echo "- $CONNECTIONS connections, each pausing $PACE_MS ms between requests; $(grep -c . <<<"$REQUESTS") requests in turn"
echo "- load average at the start: $(load_average)"
echo

: >"$WORK/samples.txt"
QG_REQUESTS="$REQUESTS" QG_PACE_MS=$PACE_MS wrk -t2 -c"$CONNECTIONS" -d"${SOAK_SECONDS}s" --timeout 10s \
  -s "$BENCH/soak.lua" "http://127.0.0.1:$PORT" >"$WORK/wrk.txt" &
WRK_PID=$!
start=$(date +%s)
while kill -0 "$WRK_PID" 2>/dev/null; do
  sample $(($(date +%s) - start)) >>"$WORK/samples.txt"
  for _ in $(seq 1 20); do
    kill -0 "$WRK_PID" 2>/dev/null || break
    sleep 0.5
  done
done
wait "$WRK_PID"
settled=$(for db in $DATABASES; do echo -n "$db $(readyz_settled "$db"); "; done)
# The last sample under load is what the warm-up sample is compared with (wrk's
# connections still open); the one after the load only shows what they leave.
last=$(tail -1 "$WORK/samples.txt")
sample $(($(date +%s) - start)) >>"$WORK/samples.txt"
after=$(tail -1 "$WORK/samples.txt")

echo "The last row is sampled after the load stopped (wrk's connections closed)."
echo
echo "| s | RSS kB | open fds | threads | in use/queued ($DATABASES) |"
echo "|---:|---:|---:|---:|---|"
awk '{ printf "| %s | %s | %s | %s |", $1, $2, $3, $4; for (i = 5; i <= NF; i++) printf " %s", $i; print " |" }' \
  "$WORK/samples.txt"
echo

# The first sample at or after the warm-up is the reference.
read -r _ warm_rss warm_fds warm_threads _ <<<"$(awk -v w="$WARMUP" '$1 >= w { print; exit }' "$WORK/samples.txt")"
read -r _ _ end_fds end_threads _ <<<"$last"
read -r _ end_rss after_fds after_threads _ <<<"$after"
read -r min_rss max_rss <<<"$(awk -v w="$WARMUP" '$1 >= w { if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 } END { print min, max }' "$WORK/samples.txt")"
sent=$(sed -n 's/^sent: //p' "$WORK/wrk.txt")
got=$(sed -n 's/^got: //p' "$WORK/wrk.txt")
summary=$(grep '^completed=' "$WORK/wrk.txt")
socket_errors=$(sed -n 's/.*socket_errors=\([0-9]*\).*/\1/p' <<<"$summary")

failures=()
((end_rss - warm_rss <= SLACK_KB)) || failures+=("RSS grew by $((end_rss - warm_rss)) kB after the warm-up (allowed $SLACK_KB)")
((end_fds == warm_fds)) || failures+=("open descriptors went from $warm_fds to $end_fds")
((end_threads == warm_threads)) || failures+=("threads went from $warm_threads to $end_threads")
((socket_errors == 0)) || failures+=("$socket_errors socket errors")
status_check=$(python3 -c '
import sys
sent = dict(kv.split("=") for kv in sys.argv[1].split())
got = dict(kv.split("=") for kv in sys.argv[2].split())
conns = int(sys.argv[3])
bad = [f"status {s}: {n} answers, none expected" for s, n in got.items() if s not in sent]
bad += [f"status {s}: {got.get(s, 0)} answers for {n} requests" for s, n in sent.items()
        if not (0 <= int(n) - int(got.get(s, 0)) <= conns)]
print("; ".join(bad))' "$sent" "$got" "$CONNECTIONS")
[[ -z "$status_check" ]] || failures+=("$status_check")
for db in $DATABASES; do
  [[ "$settled" == *"$db 0 / 0"* ]] || failures+=("$db not idle afterwards: $settled")
done

echo "- requests sent per expected status: $sent; answers per status: $got"
echo "- wrk: $summary"
echo "- RSS after the ${WARMUP} s warm-up $((warm_rss / 1024)) MiB ($warm_rss kB), at the end $((end_rss / 1024)) MiB" \
  "($end_rss kB): $((end_rss - warm_rss)) kB; range after the warm-up $min_rss – $max_rss kB"
echo "- under load: open descriptors $warm_fds → $end_fds, threads $warm_threads → $end_threads; after the load:" \
  "$after_fds descriptors, $after_threads threads; $settled"
echo "- load average at the end: $(load_average)"
if ((${#failures[@]} == 0)); then
  echo "- **PASS**"
else
  echo "- **FAIL**: $(printf '%s; ' "${failures[@]}")"
fi
stop_gateway
((${#failures[@]} == 0))
