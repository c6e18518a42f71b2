#!/usr/bin/env bash
# Distinct statements through the gateway (bench/run.sh runs it; it also runs
# alone). Argument 1: seconds per measurement (default 5).
#
# bench/admission_bench --workload reads the gold queries with tests/fidelity's
# loaders and writes one gateway config and one file of /v1/query bodies per
# corpus (every statement that runs directly; those admission refuses stay in,
# answered 422 with a FIX, and show as non-2xx: the table says how many to expect):
#   spider  every runnable Spider dev gold query, over its SQLite database
#           (../shared/data/spider; one gateway serving all those databases,
#           every table allowlisted);
#   defog   the Defog gold queries on PostgreSQL: the defog_* databases of the
#           test cluster named by QG_TEST_PG_HOST / QG_TEST_PG_PORT (role
#           qg_reader; scripts/pg-test-cluster.sh loads them). Without those
#           variables the corpus is skipped, loudly.
# wrk (bench/cycle.lua) cycles through every statement, each request's text
# made unique by a numbered comment, so no cache keyed by the statement can
# help: req/s, p50, p99 and non-2xx at each concurrency.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-5}
DATA=${QG_BENCH_DATA:-$ROOT/../shared/data}
bench_init distinct
need_wrk
build_targets querygate admission_bench

echo "## Distinct statements (every gold query in turn)"
echo
corpora=()
args=()
# QG_BENCH_SAMPLE=N: the first N statements of each corpus, and the Spider
# gateway serves only their databases (the CI smoke; the figures say so).
[[ -n "${QG_BENCH_SAMPLE:-}" ]] && args+=(--sample "$QG_BENCH_SAMPLE")
if [[ -f "$DATA/spider/dev_gold.sql" ]]; then
  corpora+=(spider-dev)
  args+=(--spider "$DATA/spider")
else
  echo "Skipped Spider: $DATA/spider/dev_gold.sql is missing."
  record_target distinct_spider "SKIPPED: $DATA/spider missing"
fi
if [[ -n "${QG_TEST_PG_HOST:-}" && -n "${QG_TEST_PG_PORT:-}" && -f "$DATA/defog/questions_gen_postgres.csv" ]]; then
  corpora+=(defog)
  args+=(--defog "$DATA/defog")
else
  echo "Skipped Defog: set QG_TEST_PG_HOST and QG_TEST_PG_PORT to a cluster with the defog databases" \
    "(scripts/pg-test-cluster.sh) and provide $DATA/defog."
  record_target distinct_defog "SKIPPED: QG_TEST_PG_HOST/QG_TEST_PG_PORT unset or no defog data"
fi
((${#corpora[@]})) || exit 0
"$BUILD/bench/admission_bench" "${args[@]}" --workload "$WORK/workload" 2>"$WORK/corpus.txt"
sed 's/^/- /' "$WORK/corpus.txt"
echo "- load average: $(load_average); $RUN_SECONDS s per measurement"
echo
echo "| corpus | statements (refused by admission) | databases | start-up s | conns | req/s | p50 ms | p99 ms | non-2xx | RSS after MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for corpus in "${corpora[@]}"; do
  statements=$(wc -l <"$WORK/workload/$corpus.bodies")
  databases=$(sed -n "s/^corpus $corpus: .*databases=\([0-9]*\).*/\1/p" "$WORK/corpus.txt")
  refused=$(sed -n "s/^corpus $corpus: .*refused=\([0-9]*\).*/\1/p" "$WORK/corpus.txt")
  t0=$(date +%s.%N)
  start_gateway "$WORK/workload/$corpus.yaml"
  startup=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  for conns in "${CONNS[@]}"; do
    threads=2
    ((conns < 2)) && threads=1
    out=$(QG_BODIES="$WORK/workload/$corpus.bodies" wrk -t"$threads" -c"$conns" -d"${RUN_SECONDS}s" --latency \
      -s "$BENCH/cycle.lua" "http://127.0.0.1:$PORT/v1/query")
    read -r rps p50 p99 non2xx <<<"$(wrk_stats "$out")"
    echo "| $corpus | $statements ($refused) | $databases | $startup | $conns | $rps | $p50 | $p99 | $non2xx | $(($(rss_kb) / 1024)) |"
    last="$rps req/s, p50 $p50 ms, p99 $p99 ms at $conns connections; $non2xx non-2xx ($statements statements, $refused refused by admission)"
    if [[ $conns == 32 ]]; then figure=$last; fi
  done
  key=distinct_spider
  [[ $corpus == defog ]] && key=distinct_defog
  record_target "$key" "${figure:-$last}"
  unset figure
  # What the non-2xx answers were (a statement the gateway admits but the engine refuses, a deadline, 429):
  awk -F'"outcome": ?"' 'NF > 1 { split($2, a, "\""); n[a[1]]++ } END { for (c in n) printf "%s %d; ", c, n[c] }' \
    "$WORK/requests.log" >"$WORK/codes" 2>/dev/null || true
  stop_gateway
  [[ -s "$WORK/codes" ]] && echo "Outcome codes in $corpus's request log: $(cat "$WORK/codes")"
done
echo
echo "Start-up: from launching the gateway to its \`listening\` line (polled every 50 ms), including opening"
echo "and introspecting every database of the config."
