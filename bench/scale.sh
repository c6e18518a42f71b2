#!/usr/bin/env bash
# Scale (bench/run.sh runs it; it also runs alone). Argument 1: seconds of
# load for (a) (default 5). Everything on 127.0.0.1, each on its own gateway:
#   (a) QG_BENCH_IDLE (default 10 000) idle keep-alive connections (each made
#       one GET /healthz, then stays silent) plus 32 active connections sending
#       the SQLite point query back to back (bench/conn_scale): the gateway's
#       RSS and open descriptors with the idle ones open, its peak RSS, how many
#       idle connections the gateway closed, and the active clients' p50/p99.
#       The config lifts the per-client cap and the idle timeout (every client
#       here is 127.0.0.1); the script raises `ulimit -n` for itself and the
#       gateway. The server's total connection cap is the gateway's own.
#   (b) a generated SQLite file with QG_BENCH_TABLES (default 1 000) tables of
#       5 columns, all allowlisted: start-up time (launch to the `listening`
#       line) and GET /v1/schema latency (20 requests: median and max).
#   (c) a 5 000-row × 10-column table: `SELECT *` with "limit": 5000, time to
#       first and last byte (curl, 5 requests: median), answer size, the
#       gateway's peak RSS (VmHWM).
set -euo pipefail

source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-5}
IDLE=${QG_BENCH_IDLE:-10000}
TABLES=${QG_BENCH_TABLES:-1000}
ACTIVE=32
bench_init scale
build_targets querygate conn_scale
ulimit -n "$((IDLE + 4096))" 2>/dev/null || ulimit -n "$(ulimit -Hn)"

"$BUILD/querygate" demo-db "$WORK/demo.db" >/dev/null
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$GATEWAY_PID/status"; }
fds() { find "/proc/$GATEWAY_PID/fd" -mindepth 1 -maxdepth 1 | wc -l; }

echo "## Scale"
echo
echo "- load average: $(load_average); open-file limit $(ulimit -n)"
echo

# (a) Idle connections plus active ones.
cat >"$WORK/idle.yaml" <<YAML
limits:
  max_connections_per_client: 100000
  max_connections: $((IDLE + ACTIVE + 64))
  idle_timeout_ms: 600000
databases:
  demo:
    backend: sqlite
    path: demo.db
    permits: 2
    queue_depth: 256
    tables: { spans: {} }
YAML
start_gateway "$WORK/idle.yaml"
rss0=$(rss_kb)
"$BUILD/bench/conn_scale" --port "$PORT" --idle "$IDLE" --active "$ACTIVE" --seconds "$RUN_SECONDS" \
  --body "$(json_body 'SELECT id, name, kind, status FROM spans WHERE id = 4242')" >"$WORK/scale.out" &
client=$!
for _ in $(seq 1 2400); do
  grep -qs '^idle_ready' "$WORK/scale.out" && break
  kill -0 "$client" 2>/dev/null || break
  sleep 0.05
done
rss_idle=$(rss_kb)
fds_idle=$(fds)
wait "$client"
ready=$(grep '^idle_ready' "$WORK/scale.out")
line=$(grep '^idle=' "$WORK/scale.out")
val() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
echo "### (a) $IDLE idle keep-alive connections + $ACTIVE active (point query)"
echo
echo "| idle opened | idle closed by the gateway | gateway fds with idle open | RSS before MiB | RSS idle open MiB | peak RSS MiB | active req/s | p50 ms | p99 ms | errors |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "| $(val idle_ok "$ready") of $IDLE | $(val idle_closed "$line") | $fds_idle | $((rss0 / 1024)) | $((rss_idle / 1024)) |" \
  "$(($(hwm_kb) / 1024)) | $(val rps "$line") | $(val p50_ms "$line") | $(val p99_ms "$line") | $(val errors "$line") |"
echo
echo "conn_scale: \`$ready\`; \`$line\`"
record_target scale_idle "RSS $((rss_idle / 1024)) MiB with $(val idle_ok "$ready") idle open ($(val idle_closed "$line") closed by the gateway), peak $(($(hwm_kb) / 1024)) MiB; active p99 $(val p99_ms "$line") ms at $(val rps "$line") req/s"
stop_gateway
echo

# (b) Many tables.
python3 - "$WORK/tables.db" "$TABLES" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for i in range(int(sys.argv[2])):
    db.execute(f"CREATE TABLE t{i:04d} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount REAL, created_at TEXT, note TEXT)")
    db.execute(f"INSERT INTO t{i:04d} VALUES (1, 'a', 1.5, '2026-01-01T00:00:00Z', NULL)")
db.commit()
PY
{
  printf 'databases:\n  many:\n    backend: sqlite\n    path: tables.db\n    tables:\n'
  python3 -c 'import sys; [print(f"      t{i:04d}: {{}}") for i in range(int(sys.argv[1]))]' "$TABLES"
} >"$WORK/tables.yaml"
t0=$(date +%s%N)
"$BUILD/querygate" --config "$WORK/tables.yaml" --listen 127.0.0.1:0 >/dev/null 2>"$WORK/gateway.log" &
GATEWAY_PID=$!
PORT=""
for _ in $(seq 1 6000); do
  PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/gateway.log" 2>/dev/null || true)
  [[ -n "$PORT" ]] && break
  kill -0 "$GATEWAY_PID" 2>/dev/null || break
  sleep 0.01
done
[[ -n "$PORT" ]] || { echo "querygate did not start: $(cat "$WORK/gateway.log")" >&2; exit 1; }
startup_ms=$((($(date +%s%N) - t0) / 1000000))
: >"$WORK/schema_times"
for _ in $(seq 1 20); do
  curl -s -o "$WORK/schema.txt" -w '%{time_total} %{size_download} %{http_code}\n' \
    "http://127.0.0.1:$PORT/v1/schema" >>"$WORK/schema_times"
done
read -r med max bytes code <<<"$(sort -n "$WORK/schema_times" |
  awk '{ t[NR] = $1 * 1000; b = $2; c = $3 } END { printf "%.1f %.1f %d %s", t[int((NR + 1) / 2)], t[NR], b, c }')"
echo "### (b) $TABLES tables"
echo
echo "| tables | start-up ms | /v1/schema status | bytes | median ms | max ms (20 requests) | RSS MiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
echo "| $TABLES | $startup_ms | $code | $bytes | $med | $max | $(($(rss_kb) / 1024)) |"
record_target scale_tables "start-up $startup_ms ms; /v1/schema $code, $bytes bytes, median $med ms, max $max ms ($TABLES tables)"
stop_gateway
echo

# (c) A large result.
python3 - "$WORK/wide.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE wide (id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d TEXT, e INTEGER, f REAL, g TEXT, h TEXT, i INTEGER)")
db.executemany("INSERT INTO wide VALUES (?,?,?,?,?,?,?,?,?,?)",
               [(n, n * 7, n / 3, f"name-{n}", f"2026-01-{n % 28 + 1:02d}T00:00:00Z", n % 97, n * 1.25,
                 f"kind-{n % 5}", f"status-{n % 3}", n * n) for n in range(1, 5001)])
db.commit()
PY
cat >"$WORK/wide.yaml" <<YAML
limits:
  max_response_bytes: 67108864
databases:
  wide:
    backend: sqlite
    path: wide.db
    tables: { wide: {} }
YAML
start_gateway "$WORK/wide.yaml"
rss0=$(rss_kb)
body=$(json_body 'SELECT * FROM wide ORDER BY id' '{"limit": 5000}')
: >"$WORK/wide_times"
for _ in $(seq 1 5); do
  curl -s -o "$WORK/wide.json" -w '%{time_starttransfer} %{time_total} %{size_download} %{http_code}\n' \
    "http://127.0.0.1:$PORT/v1/query" -H 'Content-Type: application/json' -d "$body" >>"$WORK/wide_times"
done
rows=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d.get("rows", [])), "rows,", len(d.get("columns", [])), "columns" + (", truncated" if d.get("truncated") else ""))' "$WORK/wide.json")
read -r ttfb ttlb bytes code <<<"$(sort -k2 -n "$WORK/wide_times" |
  awk '{ f[NR] = $1 * 1000; l[NR] = $2 * 1000; b = $3; c = $4 } END { m = int((NR + 1) / 2); printf "%.1f %.1f %d %s", f[m], l[m], b, c }')"
echo "### (c) 5 000 rows × 10 columns"
echo
echo "| status | answer | bytes | first byte ms | last byte ms (median of 5) | RSS before MiB | peak RSS MiB |"
echo "|---:|---|---:|---:|---:|---:|---:|"
echo "| $code | $rows | $bytes | $ttfb | $ttlb | $((rss0 / 1024)) | $(($(hwm_kb) / 1024)) |"
record_target scale_rows "last byte $ttlb ms (first $ttfb ms), $bytes bytes, status $code; peak RSS $(($(hwm_kb) / 1024)) MiB"
stop_gateway
