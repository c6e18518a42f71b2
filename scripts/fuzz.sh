#!/usr/bin/env bash
# Fuzzes admission (parse → convert → admit → render, plus the SQLite engine
# backstop) with libFuzzer for a bounded time. See tests/fuzz/admission_fuzzer.cpp
# for the properties checked.
#
#   scripts/fuzz.sh [--ci] [SECONDS]
#
# SECONDS defaults to 300, or 60 with --ci; with --ci and no SECONDS the fuzzing
# time shrinks so that the (incremental) build plus the run stay within 90 s,
# but never below 20 s. Builds into build-fuzz/ (QG_FUZZ_BUILD_DIR overrides).
# Seeds: the admission corpus (tests/corpus/admission/*.tsv, third column) and
# tests/fuzz/regressions/*.sql; inputs libFuzzer finds interesting accumulate in
# build-fuzz/corpus/. Crash reproducers go to build-fuzz/crashes/; exits 1 when
# this run found one (prints its path and input), 2 on a set-up failure.
# Needs clang and libFuzzer (libclang-rt-14-dev): installed with apt when missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${QG_FUZZ_BUILD_DIR:-$root/build-fuzz}"
fuzz_src="$root/tests/fuzz"

ci=0
seconds=""
for arg in "$@"; do
  case "$arg" in
    --ci) ci=1 ;;
    ''|*[!0-9]*) echo "usage: $0 [--ci] [SECONDS]" >&2; exit 2 ;;
    *) seconds="$arg" ;;
  esac
done
fuzz_guard_seconds=120  # --ci: the 100 000 inputs take about 40 s on 2 idle cores
started=$SECONDS

# ---- toolchain: clang + libFuzzer
need=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if ((${#need[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "fuzz: missing packages (${need[*]}); run as root, or: sudo apt-get install ${need[*]}" >&2
    exit 2
  fi
  echo "fuzz: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${need[@]}"; }
  if ! apt_install; then
    apt-get update -q -o DPkg::Lock::Timeout=600
    apt_install
  fi
fi

# ---- build (incremental)
build_start=$SECONDS
generator=()
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
mkdir -p "$build"
if command -v ccache >/dev/null; then # as scripts/build.sh: a clean clone elsewhere still hits
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  export CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-ccache}"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
fi
cmake -S "$fuzz_src" -B "$build" "${generator[@]}" \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log" >&2; echo "fuzz: configure failed" >&2; exit 2; }
if ! cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; then
  tail -n 60 "$build/build.log" >&2
  echo "fuzz: build failed (full log: $build/build.log)" >&2
  exit 2
fi
build_time=$((SECONDS - build_start))
echo "fuzz: build ${build_time} s ($build/admission_fuzzer)"

if [[ -z "$seconds" ]]; then
  if ((ci)); then
    # The run is a fixed number of inputs (below); this only guards the worst
    # case. It does not shrink with a slow build: a cut-short run would not be
    # the reproducible one (a loaded machine once left 20 s for 52 000 inputs).
    seconds=$fuzz_guard_seconds
  else
    seconds=300
  fi
fi

# ---- seeds: the admission corpus's statements, one file each
seeds="$build/seeds"
corpus="$build/corpus"
crashes="$build/crashes"
work="$build/work"
mkdir -p "$seeds" "$corpus" "$crashes" "$work"
find "$seeds" -type f -name '*.sql' -delete
for tsv in "$root"/tests/corpus/admission/*.tsv; do
  [[ -e "$tsv" ]] || continue
  awk -F'\t' -v dir="$seeds" -v base="$(basename "$tsv" .tsv)" '
    !/^#/ && NF >= 3 {
      sql = $0; sub(/^[^\t]*\t[^\t]*\t/, "", sql)
      file = sprintf("%s/%s-%04d.sql", dir, base, NR)
      printf "%s", sql > file; close(file)
    }' "$tsv"
done
corpora=("$corpus" "$seeds")
regressions="$fuzz_src/regressions"
if compgen -G "$regressions/*" >/dev/null; then corpora+=("$regressions"); fi

# ---- run
log="$build/fuzz-last.log"
before="$(mktemp)"
trap 'rm -f "$before"' EXIT
ls -1 "$crashes" >"$before"
echo "fuzz: running ${seconds} s; corpus $corpus ($(ls -1 "$corpus" | wc -l) inputs), $(ls -1 "$seeds" | wc -l) seeds; log $log"

# In CI the run is reproducible: a fixed seed and a fixed number of inputs (the
# time budget only guards the worst case), so a red run means a change broke
# something, not that the dice found an old bug. Exploring is for runs by hand.
repeatable=()
if ((ci)); then
  repeatable=(-seed="${QG_FUZZ_SEED:-1}" -runs="${QG_FUZZ_RUNS:-100000}")
fi

cd "$build"  # anything libFuzzer writes beside its artifacts lands in the build folder
QG_FUZZ_WORKDIR="$work" "$build/admission_fuzzer" "${repeatable[@]}" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -dict="$fuzz_src/sql.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
  "${corpora[@]}" >"$log" 2>&1 &
fuzzer=$!
# Progress while it runs (libFuzzer's pulse lines); tail ends when the fuzzer does.
tail -n +1 -f --pid="$fuzzer" "$log" 2>/dev/null | grep --line-buffered -E '^#[0-9]+[[:space:]]+(INITED|pulse|DONE)' &
progress=$!
# Interrupted: stop the fuzzer (libFuzzer exits cleanly on SIGTERM) and wait
# for it and for the progress reader (grep ends when tail does, within a second
# of the fuzzer), so nothing outlives this script.
stop() {
  kill -TERM "$fuzzer" 2>/dev/null || true
  wait "$fuzzer" 2>/dev/null || true
  wait "$progress" 2>/dev/null || true
  rm -f "$before"
}
trap 'stop; exit 130' INT TERM
trap stop EXIT
rc=0
wait "$fuzzer" || rc=$?  # `wait` (unlike a foreground command) lets the traps run at once
wait "$progress" 2>/dev/null || true
trap 'rm -f "$before"' EXIT
trap - INT TERM

# ---- summary
execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
# Reproducers of this run: the files libFuzzer reports writing, plus any new file.
new=()
while IFS= read -r f; do
  [[ -n "$f" && -f "$f" ]] && new+=("$f")
done < <({ sed -n 's/.*Test unit written to //p' "$log"
           ls -1 "$crashes" | grep -vxF -f "$before" | sed "s|^|$crashes/|"; } | sort -u || true)

admitted="$(sed -n 's/^ *\([0-9]*\)  \(sqlite\|postgres\) admitted$/\2 \1/p' "$log" | tr '\n' ' ')"
[[ -n "$admitted" ]] && echo "fuzz: admitted inputs: $admitted(all outcomes in $log)"
sed -n '/^admission_fuzzer: allowed/,/^[^ ]/p' "$log" | grep -v '^stat::\|^INFO\|^Done\|^#' || true
echo "fuzz: budget ${seconds} s, ${execs:-?} inputs, ${rate:-?} execs/s, corpus $(ls -1 "$corpus" | wc -l), build ${build_time} s, total $((SECONDS - started)) s, new reproducers ${#new[@]}, exit ${rc}"

if ((${#new[@]} > 0 || rc != 0)); then
  # What broke: the harness's violation block, or the sanitizer's report.
  sed -n '/==== querygate fuzz VIOLATION/,/^====================/p' "$log"
  if ! grep -q '==== querygate fuzz VIOLATION' "$log"; then
    grep -E '^==[0-9]+== ?ERROR|^SUMMARY: |runtime error:' "$log" | head -n 10 || true
    # The first frames in querygate's sources (a sanitizer report starts in library code).
    grep -E "^ +#[0-9]+ .* $root/[^ ]+\.(cpp|hpp|h):[0-9]+" "$log" | grep -v "$root/tests/fuzz/" | head -n 3 |
      sed -E 's/ 0x[0-9a-f]+ in / /' || true
  fi
  for f in "${new[@]}"; do
    echo "fuzz: reproducer $f"
    echo "fuzz:   input: $(cat -v "$f" | head -c 4096)"
    echo "fuzz:   replay: $build/admission_fuzzer -artifact_prefix=$crashes/replay- $f"
    echo "fuzz:   minimise: $build/admission_fuzzer -minimize_crash=1 -runs=20000 -artifact_prefix=$crashes/min- $f"
  done
  ((${#new[@]} == 0)) && echo "fuzz: libFuzzer exited with ${rc}; see $log" >&2
  exit 1
fi
