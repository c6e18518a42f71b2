#!/usr/bin/env bash
# Runs the ecosystem's real MCP clients against the built querygate:
# the official TypeScript SDK client (StreamableHTTPClientTransport) and the
# MCP Inspector's CLI (tests/clients/mcp/mcp.test.mjs starts the binary on
# the SQLite demo, on 127.0.0.1, with an API key configured).
#
#   scripts/check-mcp-clients.sh BUILD_DIR
#
# The clients come from npm, pinned by tests/clients/mcp/package-lock.json
# (`npm ci`). No npm, or no registry, is a FAILURE, never a skip: these are
# the clients agents use, and a skipped check is no check.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: scripts/check-mcp-clients.sh BUILD_DIR}"
binary="$(cd "$build" && pwd)/querygate"
[[ -x "$binary" ]] || { echo "check-mcp-clients: no querygate binary at $binary (build first)" >&2; exit 2; }
command -v npm >/dev/null || { echo "check-mcp-clients: FAILED: npm is missing (scripts/install-deps.sh --test installs nodejs and npm)" >&2; exit 1; }

cd "$root/tests/clients/mcp"
if ! npm ci --no-audit --no-fund --loglevel=error; then
  echo "===================================================================" >&2
  echo "check-mcp-clients: FAILED: 'npm ci' could not install the pinned MCP clients" >&2
  echo "(no npm registry?). This check does not skip: fix the network or the registry." >&2
  echo "===================================================================" >&2
  exit 1
fi
QG_BINARY="$binary" node --test
