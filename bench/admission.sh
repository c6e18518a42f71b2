#!/usr/bin/env bash
# Admission alone, per statement (bench/run.sh runs it; it also runs alone).
# Argument 1: seconds per benchmark (Google Benchmark's --benchmark_min_time,
# or QG_BENCH_ADMISSION_MIN_TIME;
# default 5). bench/admission_bench (linking the gateway's admission library)
# admits the runnable, admitted Spider dev gold queries (and, with
# QG_TEST_PG_HOST / QG_TEST_PG_PORT naming the test cluster, the Defog gold
# queries on their PostgreSQL catalogs) one after another: parse → convert →
# admit → limit → re-check → render, i.e. qg::admit_statement, the whole of
# admission as a request runs it. Per statement size (tokens): mean, p50, p99.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-5}
DATA=${QG_BENCH_DATA:-$ROOT/../shared/data}
bench_init admission
build_targets admission_bench

echo "## Admission per statement (parse → admit → render)"
echo
args=()
# QG_BENCH_SAMPLE=N: the first N statements of each corpus only (the CI smoke).
[[ -n "${QG_BENCH_SAMPLE:-}" ]] && args+=(--sample "$QG_BENCH_SAMPLE")
[[ -f "$DATA/spider/dev_gold.sql" ]] && args+=(--spider "$DATA/spider")
if [[ -n "${QG_TEST_PG_HOST:-}" && -n "${QG_TEST_PG_PORT:-}" && -f "$DATA/defog/questions_gen_postgres.csv" ]]; then
  args+=(--defog "$DATA/defog")
else
  echo "Defog skipped: QG_TEST_PG_HOST / QG_TEST_PG_PORT unset (the test cluster holds its databases)."
fi
if ((${#args[@]} == 0)); then
  echo "Skipped: no corpus under $DATA."
  record_target admission_us "SKIPPED: no corpus under $DATA"
  exit 0
fi
"$BUILD/bench/admission_bench" "${args[@]}" --benchmark_min_time="${QG_BENCH_ADMISSION_MIN_TIME:-$RUN_SECONDS}" --benchmark_format=json \
  >"$WORK/admission.json" 2>"$WORK/corpus.txt"
sed 's/^/- /' "$WORK/corpus.txt"
echo "- load average: $(load_average); each benchmark runs at least $RUN_SECONDS s, cycling through its statements"
echo
python3 - "$WORK/admission.json" "${QG_BENCH_TARGETS:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("| corpus | statement size | statements | admissions | mean µs | p50 µs | p99 µs | CPU p50 µs | CPU p99 µs |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
figures = []
for b in d["benchmarks"]:
    _, corpus, bucket = b["name"].split("/")[:3]
    mean_us = b["real_time"] * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[b["time_unit"]]
    print(f"| {corpus} | {bucket.replace('_', ' ')} | {b['statements']:.0f} | {b['iterations']} | {mean_us:.1f} "
          f"| {b['p50_us']:.1f} | {b['p99_us']:.1f} | {b['p50_cpu_us']:.1f} | {b['p99_cpu_us']:.1f} |")
    if bucket == "all":
        figures.append(f"{corpus}: median {b['p50_us']:.1f} µs, p99 {b['p99_us']:.1f} µs "
                       f"(thread CPU: {b['p50_cpu_us']:.1f} µs, {b['p99_cpu_us']:.1f} µs)")
if sys.argv[2]:
    with open(sys.argv[2], "a") as f:
        f.write("admission_us\t" + "; ".join(figures) + "\n")
PY
echo
echo "µs are wall clock per admission; CPU: the benchmark thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), which"
echo "a busy machine does not inflate. Statement size: tokens as tests/fidelity's lexer counts them (words, numbers, quoted strings, punctuation)."
