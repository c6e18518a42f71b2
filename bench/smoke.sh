#!/usr/bin/env bash
# The benchmark scripts' smoke test, so they cannot rot: every part of
# bench/run.sh for 1 s per measurement at one concurrency (8), 200 idle
# connections instead of 10 000, 100 tables instead of 1 000, the first 40
# statements of each distinct/admission corpus (their databases only), one
# overload round and the PostgreSQL part at 4 permits only, then checks that each part printed its tables
# and recorded the figures of issue 16's targets it measures (a number with
# each unit). Never a timed assertion: how fast anything was does not matter.
# ctest runs it as bench_smoke (label bench-smoke) on the build it belongs to
# (QG_BENCH_BUILD, QG_BENCH_SKIP_BUILD=1); alone it builds build-bench/ first.
# Parts that need what is not there are skipped loudly, not failed: DBHub
# without npm, PostgreSQL when not root (initdb of a private cluster on a free
# port), Defog without QG_TEST_PG_HOST/QG_TEST_PG_PORT. Exit 77 (skipped) when
# wrk is missing and cannot be installed (not root).
set -euo pipefail

BENCH=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d /tmp/qg-bench-smoke-XXXXXX)
# The PostgreSQL part's private cluster: a free port and a folder of this run's
# own, so two smokes (two ctest runs on one machine) never share one. bench/
# run-postgres.sh stops it at the end; its folder goes here.
QG_BENCH_PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
QG_BENCH_PG_DIR=/tmp/qg-bench-smoke-pg-$QG_BENCH_PG_PORT
export QG_BENCH_PG_PORT QG_BENCH_PG_DIR
trap 'rm -rf "$OUT" "$QG_BENCH_PG_DIR"' EXIT
if ! command -v wrk >/dev/null && ((EUID != 0)); then
  echo "bench smoke SKIPPED: wrk is not installed and only root may install it" >&2
  exit 77
fi

parts="sqlite bare dbhub distinct admission scale"
if ((EUID == 0)) && command -v pgbench >/dev/null; then
  parts="sqlite bare postgres dbhub distinct admission scale"
else
  echo "*** bench smoke: SKIPPING the postgres part (needs root and pgbench for its private cluster)" >&2
fi
command -v npm >/dev/null || echo "*** bench smoke: DBHub will be SKIPPED (npm is not installed)" >&2

start=$(date +%s)
QG_BENCH_PARTS=$parts QG_BENCH_CONNS=8 QG_BENCH_IDLE=200 QG_BENCH_ADMISSION_MIN_TIME=0.05 QG_BENCH_TARGETS="$OUT/targets.tsv" \
  QG_BENCH_SAMPLE=40 QG_BENCH_TABLES=100 QG_BENCH_OVERLOAD_ROUNDS=1 QG_BENCH_PG_PERMITS=4 \
  "$BENCH/run.sh" 1 >"$OUT/report.md" 2>"$OUT/stderr" || {
  echo "bench smoke FAILED: bench/run.sh exited with $?; its output ends with:" >&2
  tail -15 "$OUT/report.md" >&2
  echo "--- stderr (tail) ---" >&2
  tail -40 "$OUT/stderr" >&2
  exit 1
}
grep '^bench: ' "$OUT/stderr" >&2 || true
echo "bench/run.sh took $(($(date +%s) - start)) s" >&2

failed=0
fail() {
  echo "bench smoke FAILED: $*" >&2
  failed=1
}
# Every unit (ms, µs, req/s, MiB, TPS, %) follows a number: an empty figure
# (a parse that found nothing) shows as "p99  ms".
units_have_numbers() {
  awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^(ms|µs|req\/s|MiB|TPS|%)[,;)]?$/ && $(i - 1) !~ /^\(?[0-9][0-9.]*$/) bad = 1 }
       END { exit bad }' <<<"$1"
}
declare -A KEYS=(
  [sqlite]="paced_p99_32" [bare]="bare_ratio_32" [postgres]="pg_ratio_8 pg_gateway_cpu pg_server_cpu"
  [dbhub]="dbhub_ratio" [distinct]="distinct_spider distinct_defog" [admission]="admission_us"
  [scale]="scale_idle scale_tables scale_rows"
)
declare -A HEADINGS=(
  [sqlite]="## Throughput and latency" [bare]="## The gateway against a bare Boost.Beast server"
  [postgres]="### Against issue 16's PostgreSQL targets" [dbhub]="## DBHub" [distinct]="## Distinct statements"
  [admission]="## Admission per statement" [scale]="### (c) 5 000 rows"
)
for part in $parts; do
  grep -qF "${HEADINGS[$part]}" "$OUT/report.md" || fail "part $part printed no \"${HEADINGS[$part]}\""
  for key in ${KEYS[$part]}; do
    value=$(awk -F'\t' -v k="$key" '$1 == k { v = $2 } END { print v }' "$OUT/targets.tsv" 2>/dev/null)
    if [[ -z "$value" ]]; then
      fail "part $part recorded no figure for $key"
    elif [[ "$value" == SKIPPED* ]]; then
      echo "*** bench smoke: $key $value" >&2
    elif ! grep -q '[0-9]' <<<"$value" || ! units_have_numbers "$value"; then
      fail "$key has a unit without a number: $value"
    else
      echo "ok  $key: $value" >&2
    fi
  done
done
grep -qF "## Against the targets of issue 16" "$OUT/report.md" || fail "no targets table at the end"
# Thousands of repeated point queries with a free permit: some must have run on the I/O thread (issue 16).
if [[ " $parts " == *" sqlite "* ]]; then
  ran=$(grep -m1 '^Where the statements of these runs ran' "$OUT/report.md" || true)
  if [[ -z "$ran" ]]; then
    fail "the sqlite part printed no \"Where the statements of these runs ran\" line"
  elif ! grep -qE ': [1-9][0-9]* on the I/O thread' <<<"$ran"; then
    fail "no statement ran on the I/O thread: $ran"
  else
    echo "ok  $ran" >&2
  fi
fi
if ((failed)); then
  echo "--- report ---" >&2
  cat "$OUT/report.md" >&2
  echo "--- stderr (tail) ---" >&2
  tail -40 "$OUT/stderr" >&2
  exit 1
fi
echo "bench smoke passed" >&2
