#!/usr/bin/env bash
# Lints the OpenAPI document the gateway actually serves: starts the built
# querygate on the demo (port 0, a throwaway folder), fetches /openapi.json and
# runs `redocly lint` (recommended ruleset, see redocly.yaml) on it.
#
#   scripts/check-openapi.sh BUILD_DIR
#
# Redocly CLI comes from npm, pinned, installed once into a cache folder and
# reused. Without npm, or when the install fails (offline), the lint is skipped
# with a loud line and exit 0, unless QG_REQUIRE_OPENAPI_LINT=1 makes that a
# failure. A document that is not served, or that has lint errors, always fails.
set -euo pipefail

readonly REDOCLY_VERSION=2.77.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: scripts/check-openapi.sh BUILD_DIR}"
binary="$build/querygate"
[[ -x "$binary" ]] || { echo "check-openapi: no querygate binary at $binary (build first)" >&2; exit 2; }
tools="${XDG_CACHE_HOME:-$HOME/.cache}/querygate/openapi-tools"

work="$(mktemp -d "${TMPDIR:-/tmp}/qg-openapi.XXXXXX")"
gateway_pid=""
cleanup() {
  if [[ -n "$gateway_pid" ]]; then
    kill "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

skip() {
  echo "==================================================================="
  echo "OPENAPI LINT SKIPPED: $1"
  echo "==================================================================="
  if [[ "${QG_REQUIRE_OPENAPI_LINT:-0}" == 1 ]]; then
    echo "check-openapi: QG_REQUIRE_OPENAPI_LINT=1, so a skipped lint is a failure" >&2
    exit 1
  fi
  exit 0
}

# 1. The live document. querygate prints "listening on http://127.0.0.1:PORT"
#    on stderr once it accepts connections.
"$binary" --listen 127.0.0.1:0 --demo-dir "$work/demo" >"$work/requests.log" 2>"$work/gateway.log" &
gateway_pid=$!
port=""
for _ in $(seq 1 600); do  # up to 60 s: the first start generates the demo database
  port="$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$work/gateway.log" | grep -oE '[0-9]+$' || true)"
  [[ -n "$port" ]] && break
  kill -0 "$gateway_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "check-openapi: querygate did not start:" >&2
  cat "$work/gateway.log" >&2
  exit 1
fi
doc="$work/openapi.json"
if ! content_type="$(curl -sS --max-time 10 -o "$doc" -w '%{http_code} %{content_type}' \
  "http://127.0.0.1:$port/openapi.json")"; then
  echo "check-openapi: could not fetch http://127.0.0.1:$port/openapi.json" >&2
  exit 1
fi
if [[ "$content_type" != "200 application/json"* ]]; then
  echo "check-openapi: GET /openapi.json answered '$content_type', want '200 application/json'" >&2
  exit 1
fi
echo "check-openapi: fetched /openapi.json ($(wc -c <"$doc") bytes) from querygate on port $port"

# 2. The linter, pinned, installed once. npm's retries are bounded so an
#    offline machine gives up in seconds rather than minutes. Redocly CLI
#    2.77.0 needs Node.js >= 20.19 (Debian 12's own nodejs is 18).
command -v node >/dev/null || skip "Node.js is not installed (redocly needs Node.js >= 20.19 and npm)"
node -e 'const [a, b] = process.versions.node.split(".").map(Number);
         process.exit(a > 22 || (a === 22 && b >= 12) || (a === 20 && b >= 19) ? 0 : 1)' ||
  skip "Node.js $(node --version) is too old for @redocly/cli@$REDOCLY_VERSION (needs >= 20.19 or >= 22.12)"
redocly="$tools/node_modules/.bin/redocly"
installed="$(node -p "require('$tools/node_modules/@redocly/cli/package.json').version" 2>/dev/null || true)"
if [[ "$installed" != "$REDOCLY_VERSION" ]]; then
  command -v npm >/dev/null || skip "npm is not installed (apt-get install npm)"
  mkdir -p "$tools"
  [[ -f "$tools/package.json" ]] || echo '{"name": "querygate-openapi-tools", "private": true}' >"$tools/package.json"
  echo "check-openapi: installing @redocly/cli@$REDOCLY_VERSION into $tools"
  if ! (cd "$tools" && npm install --no-audit --no-fund --save-exact --fetch-retries=1 --fetch-timeout=30000 \
    "@redocly/cli@$REDOCLY_VERSION") >"$work/npm.log" 2>&1; then
    tail -n 5 "$work/npm.log" >&2
    skip "npm install @redocly/cli@$REDOCLY_VERSION failed (offline?)"
  fi
fi

# 3. Lint: errors fail (exit 1), warnings are printed. No telemetry or update check.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
if ! "$redocly" lint --config "$root/redocly.yaml" --format=stylish "$doc"; then
  echo "check-openapi: redocly lint found errors in the served /openapi.json" >&2
  exit 1
fi
echo "check-openapi: redocly $REDOCLY_VERSION lint passed"
