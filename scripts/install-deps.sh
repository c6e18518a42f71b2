#!/usr/bin/env bash
# Installs the Debian 12 packages querygate builds, runs and tests with.
# Idempotent: apt runs only when something is missing. Needs root (apt only).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libboost1.81-dev libboost-json1.81-dev
  libpqxx-dev libsqlite3-dev libsimdjson-dev libpg-query-dev libyaml-cpp-dev
  prometheus-cpp-dev libgtest-dev libbenchmark-dev
  libhowardhinnant-date-dev tzdata libpcre2-dev
  sqlite3 curl
)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(postgresql prometheus docker-compose ccache) # ccache: scripts/build.sh; promtool and offline compose validation (check-observability.sh)
  # Node.js and npm for the real OpenAPI clients (scripts/check-openapi.sh),
  # and the MCP clients (check-mcp-clients.sh), only when node or npm is missing: a newer one already installed (e.g.
  # NodeSource's, which bundles npm) is kept. Debian 12's nodejs is 18, older
  # than the clients need (>= 20.19): check-openapi.sh then fails and says so.
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then packages+=(nodejs npm); fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: missing packages (${missing[*]}); run as root, or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
