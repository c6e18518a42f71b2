#!/usr/bin/env bash
# Quick start 2: install, build, and run every test (unit + integration over
# real HTTP against real SQLite files). Starts and stops what the tests need.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${QG_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh" --test
"$root/scripts/build.sh"

# Services the tests need are started here and stopped on every exit path.
# PostgreSQL: a throwaway cluster (scripts/pg-test-cluster.sh; QG_PG_PORT picks
# another port). One that was already running there is reused and left running.
pg_stop=1
if "$root/scripts/pg-test-cluster.sh" status; then pg_stop=0; fi
cleanup() { if ((pg_stop)); then "$root/scripts/pg-test-cluster.sh" stop || true; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
"$root/scripts/pg-test-cluster.sh" start
eval "$("$root/scripts/pg-test-cluster.sh" env)"
# The demo as PostgreSQL database `demo`, converted by the binary just built.
"$build/querygate" demo-db --postgres "$build/demo-postgres.sql" >/dev/null
"$root/scripts/pg-test-cluster.sh" load-demo "$build/demo-postgres.sql"
export QG_REQUIRE_PG=1 # PG tests fail, not skip, when the server is missing

cd "$build"
ctest_log="$build/ctest-summary.log"
ctest --output-on-failure -j "$(nproc)" --timeout 300 | tee "$ctest_log"
"$root/scripts/check-observability.sh" "$build" # live /metrics, dashboard PromQL, prometheus.yml, compose file
"$root/scripts/check-openapi.sh" "$build"       # the real OpenAPI clients and linters (npm; fails without them)
"$root/scripts/check-mcp-clients.sh" "$build"  # MCP TypeScript SDK client + Inspector CLI on /mcp (npm; fails offline)

# Fuzzing (clang + libFuzzer, its own build), bounded in time.
if [[ -x "$root/scripts/fuzz.sh" ]]; then
  "$root/scripts/fuzz.sh" --ci
fi

# One closing line with the counts (ctest's own summary scrolled away above).
total=$(grep -oE 'tests failed out of [0-9]+' "$ctest_log" | grep -oE '[0-9]+$' || echo 0)
failed=$(grep -oE '[0-9]+ tests failed' "$ctest_log" | grep -oE '^[0-9]+' || echo 0)
echo "ctest: $((total - failed)) passed, $failed failed"
