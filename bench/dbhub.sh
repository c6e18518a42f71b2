#!/usr/bin/env bash
# DBHub against querygate on the same SQLite demo and the same point query
# (bench/run.sh runs it last; it also runs alone). Argument 1: seconds per
# measurement (default 5).
#
# DBHub (@bytebase/dbhub 0.21.2, the newest that runs on Node 20) is installed
# with npm into $QG_DBHUB_DIR (default /tmp/qg-dbhub-0.21.2) unless already
# there; without network the part is skipped with a message. It listens on
# every interface, so the installed copy is patched to listen on 127.0.0.1
# before it runs. It serves its MCP streamable HTTP transport (--transport
# http) in stateless mode: every POST /mcp builds a fresh MCP server and
# transport, so a tools/call needs no initialize handshake and no
# Mcp-Session-Id, but Accept must list application/json and text/event-stream.
# Its config (TOML) has one SQLite source and the execute_sql tool with
# readonly = true and max_rows = 100. wrk drives it with bench/dbhub.lua, which
# checks every body (DBHub answers SQL errors with HTTP 200). Then querygate
# answers the same statement on the same file at the same concurrencies, so
# both are measured under the same machine load.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-5}
VERSION=0.21.2
DIR=${QG_DBHUB_DIR:-/tmp/qg-dbhub-$VERSION}
bench_init dbhub

echo "## DBHub $VERSION vs. querygate (SQLite demo, point query)"
echo
if ! command -v npm >/dev/null; then
  echo "Skipped: npm is not installed."
  record_target dbhub_ratio "SKIPPED: npm is not installed"
  exit 0
fi
if [[ ! -f "$DIR/node_modules/@bytebase/dbhub/dist/index.js" ]]; then
  echo "installing @bytebase/dbhub@$VERSION into $DIR (npm)" >&2
  mkdir -p "$DIR"
  if ! (cd "$DIR" && { [[ -f package.json ]] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund --save-exact "@bytebase/dbhub@$VERSION" >&2); then
    echo "Skipped: \`npm install @bytebase/dbhub@$VERSION\` failed (no network?)."
    record_target dbhub_ratio "SKIPPED: npm install @bytebase/dbhub@$VERSION failed"
    exit 0
  fi
fi
INDEX=$DIR/node_modules/@bytebase/dbhub/dist/index.js
# The patch: its HTTP server's one listen call, from every interface to loopback.
sed -i 's/app\.listen(port, "0\.0\.0\.0"/app.listen(port, "127.0.0.1"/' "$INDEX"
grep -q 'app.listen(port, "127.0.0.1"' "$INDEX" || {
  echo "dbhub.sh: could not patch the listen address in $INDEX" >&2
  exit 1
}

need_wrk
build_targets querygate
"$BUILD/querygate" demo-db "$WORK/demo.db" >/dev/null
POINT="SELECT id, name, kind, status FROM spans WHERE id = 4242"

# Three slashes and an absolute path: DBHub strips "//" from a URL path
# starting with it, so sqlite://// + path would turn relative.
cat >"$WORK/dbhub.toml" <<TOML
[[sources]]
id = "demo"
dsn = "sqlite://$WORK/demo.db"

[[tools]]
name = "execute_sql"
source = "demo"
readonly = true
max_rows = 100
TOML
DBHUB_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$WORK" && exec node "$INDEX" --transport http --port "$DBHUB_PORT" --config "$WORK/dbhub.toml") \
  >"$WORK/dbhub.log" 2>&1 &
DBHUB_PID=$!
CLEANUP+=("kill $DBHUB_PID 2>/dev/null; wait $DBHUB_PID 2>/dev/null")
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$DBHUB_PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$DBHUB_PID" 2>/dev/null || break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$DBHUB_PORT/healthz" >/dev/null || {
  echo "DBHub did not start:" >&2
  cat "$WORK/dbhub.log" >&2
  exit 1
}
LISTEN=$(ss -ltnH "sport = :$DBHUB_PORT" | awk '{print $4}' | sort -u | tr '\n' ' ')

call() {  # $1 = sql
  python3 -c 'import json,sys; print(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
    "params": {"name": "execute_sql", "arguments": {"sql": sys.argv[1]}}}))' "$1"
}
mcp() {  # $1 = JSON-RPC body; prints "status body"
  curl -s -w '\n%{http_code}' "http://127.0.0.1:$DBHUB_PORT/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -d "$1" | tac | tr '\n' ' '
}
BODY=$(call "$POINT")
OK_ANSWER=$(mcp "$BODY")
ERROR_ANSWER=$(mcp "$(call "SELECT nope FROM spans WHERE id = 4242")")

# JIT and caches: a few seconds of load before measuring.
QG_BODY="$BODY" wrk -t2 -c8 -d3s -s "$BENCH/dbhub.lua" "http://127.0.0.1:$DBHUB_PORT/mcp" >/dev/null

peak_during() {  # $1 = pid, then the command; prints the command's output, peak RSS kB in $WORK/peak
  local pid=$1
  shift
  : >"$WORK/rss.txt"
  (while kill -0 "$pid" 2>/dev/null; do
    rss_kb "$pid" >>"$WORK/rss.txt"
    sleep 0.5
  done) &
  local sampler=$!
  "$@"
  kill "$sampler"
  wait "$sampler" 2>/dev/null || true
  sort -n "$WORK/rss.txt" | tail -1 >"$WORK/peak"
}

declare -A ROW DBHUB_RPS
for conns in 8 32; do
  out=$(QG_BODY="$BODY" peak_during "$DBHUB_PID" wrk -t2 -c"$conns" -d"${RUN_SECONDS}s" --latency \
    -s "$BENCH/dbhub.lua" "http://127.0.0.1:$DBHUB_PORT/mcp")
  read -r rps p50 p99 _ <<<"$(wrk_stats "$out")"
  bodies=$(sed -n 's/^bodies: //p' <<<"$out")
  ROW[dbhub,$conns]="$rps | $p50 | $p99 | $bodies | $(($(cat "$WORK/peak") / 1024)) | $(($(rss_kb "$DBHUB_PID") / 1024))"
  DBHUB_RPS[$conns]=$rps
done
DBHUB_THREADS=$(awk '/^Threads:/ {print $2}' "/proc/$DBHUB_PID/status")
kill "$DBHUB_PID"
wait "$DBHUB_PID" 2>/dev/null || true

# querygate on the same file, same statement, same concurrencies.
printf 'databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n    queue_depth: 256\n    tables: { spans: {} }\n' \
  >"$WORK/querygate.yaml"
start_gateway "$WORK/querygate.yaml"
QG_POINT=$(json_body "$POINT")
QG_BODY="$QG_POINT" wrk -t2 -c8 -d2s -s "$BENCH/query.lua" "http://127.0.0.1:$PORT/v1/query" >/dev/null
declare -A QG_RPS
for conns in 8 32; do
  out=$(QG_BODY="$QG_POINT" peak_during "$GATEWAY_PID" wrk -t2 -c"$conns" -d"${RUN_SECONDS}s" --latency \
    -s "$BENCH/query.lua" "http://127.0.0.1:$PORT/v1/query")
  read -r rps p50 p99 non2xx <<<"$(wrk_stats "$out")"
  ROW[querygate,$conns]="$rps | $p50 | $p99 | non-2xx=$non2xx | $(($(cat "$WORK/peak") / 1024)) | $(($(rss_kb) / 1024))"
  QG_RPS[$conns]=$rps
done
QG_THREADS=$(awk '/^Threads:/ {print $2}' "/proc/$GATEWAY_PID/status")
stop_gateway

echo "- DBHub: \`@bytebase/dbhub@$VERSION\` from npm, $(node --version), better-sqlite3" \
  "$(node -p "require('$DIR/node_modules/better-sqlite3/package.json').version") (SQLite" \
  "$(cd "$DIR" && node -e 'const D=require("better-sqlite3"); console.log(new D(":memory:").prepare("select sqlite_version() v").get().v)'))," \
  "@modelcontextprotocol/sdk $(node -p "require('$DIR/node_modules/@modelcontextprotocol/sdk/package.json').version")," \
  "express $(node -p "require('$DIR/node_modules/express/package.json').version"); listen address patched to" \
  "127.0.0.1 (\`ss\` shows $LISTEN)"
echo "- run as: \`node $INDEX --transport http --port PORT --config dbhub.toml\`, dbhub.toml:"
echo
echo '```toml'
sed "s|$WORK|/tmp/…|" "$WORK/dbhub.toml"
echo '```'
echo
echo "- request: \`POST /mcp\`, headers \`Content-Type: application/json\`, \`Accept: application/json, text/event-stream\`," \
  "body \`$BODY\`"
echo "- answer (HTTP status first): \`$(cut -c1-400 <<<"$OK_ANSWER")\`"
echo "- a SQL error is answered with: \`$(cut -c1-300 <<<"$ERROR_ANSWER")\`"
echo "- querygate: \`POST /v1/query\` with \`$QG_POINT\` (permits 2, queue 256) on the same file, right after DBHub"
echo "- 3 s (DBHub) and 2 s (querygate) of warm-up at 8 connections first; $RUN_SECONDS s per measurement;" \
  "load average at the end: $(load_average)"
echo
echo "| server | conns | req/s | p50 ms | p99 ms | answers | RSS peak MiB | RSS after MiB |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
for conns in 8 32; do
  echo "| DBHub | $conns | ${ROW[dbhub,$conns]} |"
  echo "| querygate | $conns | ${ROW[querygate,$conns]} |"
done
echo
for conns in 8 32; do
  echo "At $conns connections querygate answered $(awk -v q="${QG_RPS[$conns]}" -v d="${DBHUB_RPS[$conns]}" \
    'BEGIN { printf "%.1f", (d > 0 ? q / d : 0) }')× as many requests per second as DBHub."
done
record_target dbhub_ratio "$(for conns in 8 32; do awk -v q="${QG_RPS[$conns]}" -v d="${DBHUB_RPS[$conns]}" -v c="$conns" \
  'BEGIN { printf "%.1f× at %d connections (%d / %d req/s); ", (d > 0 ? q / d : 0), c, q, d }'; done | sed 's/; $//')"
echo "Threads: DBHub (Node) $DBHUB_THREADS, querygate $QG_THREADS."
