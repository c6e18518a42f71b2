#!/usr/bin/env bash
# The OpenAPI document against the real clients agent developers import it
# with, each run against the built querygate (SQLite demo, 127.0.0.1, a free
# port): @samchon/openapi (ChatGPT, Claude, Gemini), LangChain JS,
# openapi-typescript + openapi-fetch, @ivotoby/openapi-mcp-server,
# openapi-mcp-generator, and the linters redocly and spectral with their
# default rulesets. See tests/clients/openapi/*.test.mjs.
#
#   scripts/check-openapi.sh BUILD_DIR
#
# The clients are pinned in tests/clients/openapi/package-lock.json and
# installed with `npm ci` (npm's cache makes a repeat install take seconds).
# No Node.js, a Node.js too old, no npm or no npm registry is a FAILURE, never a
# skip: these are the ecosystem's real clients, and a skipped check is no check.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: scripts/check-openapi.sh BUILD_DIR}"
binary="$(cd "$build" && pwd)/querygate"
clients="$root/tests/clients/openapi"
[[ -x "$binary" ]] || { echo "check-openapi: no querygate binary at $binary (build first)" >&2; exit 2; }

fail() {
  echo "===================================================================" >&2
  echo "OPENAPI CLIENT CHECK FAILED: $1" >&2
  echo "===================================================================" >&2
  exit 1
}

# Node.js >= 20.19 (or >= 22.12): what the pinned clients need. Debian 12's own
# nodejs is 18; scripts/install-deps.sh --test installs it when none is present.
command -v node >/dev/null || fail "Node.js is not installed (scripts/install-deps.sh --test, or Node.js >= 20.19)"
command -v npm >/dev/null || fail "npm is not installed (scripts/install-deps.sh --test)"
node -e 'const [a, b] = process.versions.node.split(".").map(Number);
         process.exit(a > 22 || (a === 22 && b >= 12) || (a === 20 && b >= 19) ? 0 : 1)' ||
  fail "Node.js $(node --version) is too old for the pinned clients (needs >= 20.19 or >= 22.12)"

started=$SECONDS
# `npm ci` unless node_modules was installed by it from this very lockfile.
stamp="$clients/node_modules/.querygate-lock.sha256"
want="$(sha256sum "$clients/package-lock.json" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  echo "check-openapi: node_modules already installed from this package-lock.json"
else
  log="$(mktemp "${TMPDIR:-/tmp}/qg-npm-ci.XXXXXX")"
  trap 'rm -f "$log"' EXIT
  # Bounded retries: without a registry this fails in seconds, loudly. No
  # install scripts: none of the clients needs one.
  if ! (cd "$clients" && npm ci --no-audit --no-fund --ignore-scripts --fetch-retries=1 --fetch-timeout=30000) \
    >"$log" 2>&1; then
    tail -n 15 "$log" >&2
    fail "npm ci in tests/clients/openapi failed (no npm registry?)"
  fi
  echo "$want" >"$stamp"
  echo "check-openapi: npm ci: $(grep -oE 'added [0-9]+ packages' "$log" || echo installed) in $((SECONDS - started)) s"
fi

started=$SECONDS
export QG_BINARY="$binary" REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
if ! (cd "$clients" && node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs); then
  fail "a real OpenAPI client did not take the served document whole (see above)"
fi
echo "check-openapi: every OpenAPI client passed in $((SECONDS - started)) s"
