#!/usr/bin/env bash
# Quick start 2: install, build, and run every test (unit + integration over
# real HTTP against real SQLite files). Starts and stops what the tests need.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${QG_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh" --test
"$root/scripts/build.sh"

# Services the tests need are started here and stopped on every exit path.
cleanup() { :; }
trap cleanup EXIT

cd "$build"
ctest_log="$build/ctest-summary.log"
ctest --output-on-failure -j "$(nproc)" --timeout 300 | tee "$ctest_log"

# Fuzzing (clang + libFuzzer, its own build), bounded in time.
if [[ -x "$root/scripts/fuzz.sh" ]]; then
  "$root/scripts/fuzz.sh" --ci
fi

# One closing line with the counts (ctest's own summary scrolled away above).
total=$(grep -oE 'tests failed out of [0-9]+' "$ctest_log" | grep -oE '[0-9]+$' || echo 0)
failed=$(grep -oE '[0-9]+ tests failed' "$ctest_log" | grep -oE '^[0-9]+' || echo 0)
echo "ctest: $((total - failed)) passed, $failed failed"
