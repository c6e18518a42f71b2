#!/usr/bin/env bash
# Quick start 1: install, build, and serve the embedded demo SQLite database
# on 127.0.0.1:8080 (override with QG_LISTEN=host:port).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target querygate
listen="${QG_LISTEN:-127.0.0.1:8080}"
cat <<EOT

querygate is starting on http://$listen (Ctrl-C stops it). Try, from another shell:

  curl -s http://$listen/v1/query -H 'Content-Type: application/json' -d '{"sql": "SELECT kind, count(*) AS spans, round(sum(cost_usd), 2) AS cost_usd FROM spans GROUP BY kind ORDER BY spans DESC"}'

Schema for agents: curl -s http://$listen/v1/schema

EOT
exec "$root/build/querygate" --listen "$listen"
