#!/usr/bin/env bash
# Checks the observability files against a live gateway:
#   1. starts <build-dir>/querygate on the demo (loopback, a free port) and
#      sends a mixed workload (answers, truncation, refusals, 404, 405);
#   2. scrapes GET /metrics and runs `promtool check metrics` (no problems allowed);
#   3. every PromQL expression in the Grafana dashboard parses
#      (`promtool check rules`, Grafana macros substituted) and names only
#      metrics present in that scrape;
#   4. `promtool check config` on observability/prometheus/prometheus.yml;
#   5. `docker-compose config -q` on docker-compose.yml (offline validation only:
#      no docker engine is needed or used).
# Usage: scripts/check-observability.sh <build-dir>. Exits non-zero on any problem.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: check-observability.sh <build-dir>}"
binary="$build/querygate"
dashboard="$root/observability/grafana/dashboards/querygate.json"

fail() {
  echo "check-observability: FAILED: $*" >&2
  exit 1
}
[[ -x "$binary" ]] || fail "no querygate binary at $binary (build first)"
for tool in promtool docker-compose curl python3; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/install-deps.sh --test installs it)"
done

work="$(mktemp -d "${TMPDIR:-/tmp}/qg-observability-XXXXXX")"
gateway_pid=""
cleanup() {
  if [[ -n "$gateway_pid" ]] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill -TERM "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP # so the EXIT trap stops the gateway on signals too

# 1. The gateway on the demo, and its port from the start-up line.
"$binary" --listen 127.0.0.1:0 --demo-dir "$work/demo" >"$work/gateway.log" 2>&1 &
gateway_pid=$!
port=""
for _ in $(seq 1 600); do  # up to 60 s: the first start generates the demo database
  port="$(sed -nE 's#.*listening on http://127\.0\.0\.1:([0-9]+).*#\1#p' "$work/gateway.log" | head -n1)"
  [[ -n "$port" ]] && break
  kill -0 "$gateway_pid" 2>/dev/null || { cat "$work/gateway.log" >&2; fail "querygate exited during start-up"; }
  sleep 0.1
done
[[ -n "$port" ]] || { cat "$work/gateway.log" >&2; fail "querygate did not print its port"; }
base="http://127.0.0.1:$port"

# Sends one request and checks its status.
expect() {
  local want="$1" method="$2" path="$3" body="${4:-}" got
  if [[ -n "$body" ]]; then
    got="$(curl -s -o "$work/last.json" -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' \
      --data "$body" "$base$path")" || fail "curl $method $path"
  else
    got="$(curl -s -o "$work/last.json" -w '%{http_code}' -X "$method" "$base$path")" || fail "curl $method $path"
  fi
  [[ "$got" == "$want" ]] || fail "$method $path $body: HTTP $got, expected $want: $(head -c 400 "$work/last.json")"
}
expect 200 POST /v1/query '{"sql": "SELECT count(*) AS n FROM spans"}'
expect 200 POST /v1/query '{"sql": "SELECT id FROM spans ORDER BY id", "limit": 5}'
expect 200 POST /v1/query '{"sql": "SELECT explanation FROM span_annotations WHERE explanation <> '"''"' LIMIT 3"}'
expect 200 POST /v1/query '{"sql": "SELECT * FROM projects"}'
expect 422 POST /v1/query '{"sql": "SELECT email FROM users"}'
expect 422 POST /v1/query '{"sql": "DELETE FROM spans"}'
expect 400 POST /v1/query '{"sql": 1}'
expect 404 GET /no-such-route
expect 405 GET /v1/query
expect 200 GET /v1/schema
expect 200 GET /readyz

# 2. One scrape, linted.
scrape="$work/scrape.prom"
curl -sf "$base/metrics" -o "$scrape" || fail "GET /metrics"
grep -q '^querygate_statements_total{database="demo",outcome="ok"} [1-9]' "$scrape" ||
  fail "the workload did not show in querygate_statements_total: $(grep '^querygate_statements_total' "$scrape")"
if ! promtool check metrics <"$scrape" >"$work/promtool-metrics.txt" 2>&1; then
  cat "$work/promtool-metrics.txt" >&2
  fail "promtool check metrics found problems in the scrape"
fi
echo "check-observability: /metrics passes promtool check metrics ($(grep -c '^querygate_' "$scrape") samples)"

# 3. The dashboard's PromQL: a rules file for promtool, and the metric names it uses.
python3 - "$dashboard" "$scrape" "$work/dashboard-rules.yml" <<'PY' || fail "dashboard metric names (see above)"
import json, re, sys

dashboard, scrape, rules_path = sys.argv[1:]
with open(dashboard) as f:
    doc = json.load(f)

exprs = []  # (where, expr)
def walk(panels):
    for p in panels:
        for t in p.get("targets", []):
            if t.get("expr"):
                exprs.append((f'panel "{p.get("title")}" ref {t.get("refId")}', t["expr"]))
        walk(p.get("panels", []))
walk(doc.get("panels", []))
if not exprs:
    sys.exit("no PromQL expressions found in the dashboard")

# Grafana's macros and the dashboard's variables, as Grafana would expand them.
def expand(expr):
    for macro, value in (("$__rate_interval", "1m"), ("$__interval", "1m"), ("$__range", "1h"),
                         ("${__rate_interval}", "1m"), ("${__interval}", "1m"), ("${__range}", "1h")):
        expr = expr.replace(macro, value)
    for var in doc.get("templating", {}).get("list", []):
        name = var["name"]
        expr = re.sub(r"\$\{" + re.escape(name) + r"(:[a-z]+)?\}|\$" + re.escape(name) + r"\b", ".*", expr)
    if "$" in expr:
        sys.exit(f"unexpanded Grafana variable in: {expr}")
    return expr

with open(rules_path, "w") as out:
    out.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, (_, e) in enumerate(exprs):
        out.write(f"      - record: dashboard:expr_{i}\n        expr: {json.dumps(expand(e))}\n")

exported = set()
with open(scrape) as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            exported.add(re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0))

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
            "offset", "inf", "nan"}
def metric_names(expr):
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)   # string literals
    e = re.sub(r"\{[^}]*\}", "", e)                 # label matchers
    e = re.sub(r"\[[^\]]*\]", "", e)                # ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", e)  # label lists
    names = set()
    for m in re.finditer(r"(?<![\w:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", e):
        if m.group(2) or m.group(1) in KEYWORDS:
            continue  # a function call or a keyword
        names.add(m.group(1))
    return names

problems = []
for where, e in exprs:
    for name in sorted(metric_names(expand(e))):
        if name not in exported:
            problems.append(f"{where}: {name} is not in the scrape ({e})")
for var in doc.get("templating", {}).get("list", []):
    q = var.get("query")
    q = q.get("query", "") if isinstance(q, dict) else (q or "")
    for name in re.findall(r"label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)", q):
        if name not in exported:
            problems.append(f"variable {var['name']}: {name} is not in the scrape")
for p in problems:
    print("check-observability:", p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-observability: {len(exprs)} dashboard expressions name only exported metrics")
PY
if ! promtool check rules "$work/dashboard-rules.yml" >"$work/promtool-rules.txt" 2>&1; then
  cat "$work/promtool-rules.txt" >&2
  fail "a dashboard expression does not parse as PromQL"
fi
echo "check-observability: every dashboard expression parses (promtool check rules)"

# 4. The Prometheus configuration of the compose stack.
promtool check config "$root/observability/prometheus/prometheus.yml" >"$work/promtool-config.txt" 2>&1 ||
  { cat "$work/promtool-config.txt" >&2; fail "promtool check config observability/prometheus/prometheus.yml"; }
echo "check-observability: observability/prometheus/prometheus.yml passes promtool check config"

# 5. The compose file (validated offline; nothing is started).
(cd "$root" && docker-compose -f docker-compose.yml config -q) || fail "docker-compose -f docker-compose.yml config -q"
echo "check-observability: docker-compose.yml passes docker-compose config -q"

echo "check-observability: OK"
