#!/usr/bin/env python3
"""Bytes per row: querygate's envelope vs a row-objects JSON encoding.

Starts nothing: point it at a running gateway serving the demo
(./scripts/run-demo.sh, or build/querygate --listen 127.0.0.1:8080).
For each demo query it fetches querygate's envelope, then re-encodes the same
rows the way most MCP database servers answer: a list of objects, the column
names repeated in every row, numbers as the driver returns them (unrounded, so
the re-encoding asks querygate for float_digits' effect separately), no
truncation notice. Prints a Markdown table for docs/BENCHMARKS.md.
"""
import json
import sys
import urllib.request

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"

QUERIES = [
    ("point lookup", "SELECT id, trace_id, name, kind, status, start_time, cost_usd FROM spans WHERE id = 4242"),
    ("100 spans, 7 columns", "SELECT id, trace_id, name, kind, status, start_time, cost_usd FROM spans ORDER BY id"),
    ("cost by model", "SELECT model_name, count(*) AS calls, avg(cost_usd) AS avg_cost, sum(total_tokens) AS tokens "
                      "FROM spans WHERE kind = 'LLM' GROUP BY model_name ORDER BY calls DESC"),
    ("latency by kind", "SELECT kind, avg(latency_ms) AS avg_ms, median(latency_ms) AS p50, "
                        "percentile(latency_ms, 95) AS p95 FROM spans GROUP BY kind"),
    ("daily errors", "SELECT substr(start_time, 1, 10) AS day, count(*) FILTER (WHERE status = 'ERROR') AS errors, "
                     "count(*) AS spans FROM spans GROUP BY day ORDER BY day"),
]


def post(sql):
    body = json.dumps({"sql": sql, "limit": 100}).encode()
    req = urllib.request.Request(URL + "/v1/query", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return r.read()


def main():
    print("| query | rows | querygate bytes | bytes/row | row-objects bytes | bytes/row | ratio |")
    print("|---|---|---|---|---|---|---|")
    total_q = total_o = total_rows = 0
    for label, sql in QUERIES:
        raw = post(sql)
        env = json.loads(raw)
        names = [c["name"] for c in env["columns"]]
        objects = {"rows": [dict(zip(names, row)) for row in env["rows"]], "rowCount": env["row_count"]}
        other = json.dumps(objects, ensure_ascii=False, separators=(",", ":")).encode()
        # The row-objects servers also pretty-print or add a text wrapper; compact is the kind comparison.
        n = max(env["row_count"], 1)
        print(f"| {label} | {env['row_count']} | {len(raw)} | {len(raw) / n:.0f} | {len(other)} | "
              f"{len(other) / n:.0f} | {len(other) / len(raw):.2f}x |")
        total_q += len(raw)
        total_o += len(other)
        total_rows += env["row_count"]
    print(f"| **all** | {total_rows} | {total_q} | {total_q / total_rows:.0f} | {total_o} | "
          f"{total_o / total_rows:.0f} | {total_o / total_q:.2f}x |")


if __name__ == "__main__":
    main()
