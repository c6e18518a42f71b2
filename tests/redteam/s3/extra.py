#!/usr/bin/env python3
"""Side channels of row filters (errors raised by filtered rows, parameters, validate_only,
estimated_rows, schema text, MCP). Manual record, not CI. Gateways as in filters.py."""
import json, sys, os, http.client
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw, post, TOKENS

# alpha (project 1) must not learn anything about project 2's rows. Each statement raises an
# error only if a row of project 2 (filtered out for alpha) reaches the user's expression.
SIDE = [
    "SELECT count(*) FROM traces WHERE 1 / (project_id - 2) > -100",
    "SELECT count(*) FROM traces WHERE CASE WHEN project_id = 2 THEN 1 / (project_id - 2) ELSE 1 END = 1",
    "SELECT count(*) FROM traces WHERE (CASE WHEN project_id = 2 THEN 'x' ELSE '1' END)::int = 1",
    "SELECT count(*) FROM traces WHERE abs(CASE WHEN project_id = 2 THEN -9223372036854775807 - 1 ELSE 1 END) > 0",
    "SELECT count(*) FROM traces WHERE (CASE WHEN project_id = 2 THEN 9223372036854775807 ELSE 0 END) + 1 > 0",
    "SELECT count(*) FROM spans WHERE 1 / (CASE WHEN start_time >= '2026-11-01' THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM spans WHERE (CASE WHEN start_time >= '2026-11-01' THEN '{' ELSE '{}' END)::jsonb IS NOT NULL",
    "SELECT count(*) FROM traces t JOIN projects p ON 1 / (t.project_id - 2) > -100",
    "SELECT count(*) FROM traces WHERE project_id = 2",
    "SELECT count(*) FROM traces WHERE project_id = 2 AND 1 / 0 = 1",
    "SELECT :project_id",
    "SELECT $1",
    "SELECT count(*) FROM traces WHERE project_id = $1",
    "SELECT count(*) FROM traces WHERE project_id = :project_id",
    "SELECT count(*) FROM traces WHERE project_id <> $2",
]


def main():
    for port in (18301, 18303):
        print(f"== port {port}")
        for sql in SIDE:
            for who in ("alpha", "unbound"):
                s, j = gw(port, sql, who)
                e = j.get("error", {})
                print(f"  [{who}] {s} {e.get('code','')} rows={j.get('rows')} :: {sql} :: {e.get('message','')[:120]}")
        for sql in ("SELECT * FROM traces", "SELECT * FROM spans WHERE project_id = 2", "SELECT * FROM traces WHERE project_id = 2",
                    "SELECT count(*) FROM traces"):
            s, j = gw(port, sql, "alpha", validate_only=True)
            print(f"  validate_only {s} {json.dumps(j)[:400]}")
        s, j = gw(port, "SELECT * FROM traces", "alpha", limit=1)
        print(f"  limit1: {s} truncated={j.get('truncated')} notes={j.get('notes')} applied={j.get('applied')}")
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", "/v1/schema", headers={"Authorization": "Bearer " + TOKENS["alpha"]})
        b = c.getresponse().read().decode()
        i = b.find("traces")
        print("  schema excerpt:", b[i - 100:i + 700].replace("\\n", "\n"))
        # MCP
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
             "Authorization": "Bearer " + TOKENS["alpha"]}
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "rt", "version": "1"}}}), headers=h)
        r = c.getresponse(); sid = r.getheader("Mcp-Session-Id"); r.read()
        if sid: h["Mcp-Session-Id"] = sid
        h2 = dict(h); h2["MCP-Protocol-Version"] = "2025-06-18"
        for m, p in (("tools/list", {}),
                     ("tools/call", {"name": "execute_sql", "arguments": {"sql": "SELECT project_id, count(*) FROM traces GROUP BY 1"}}),
                     ("tools/call", {"name": "describe_schema", "arguments": {}})):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 2, "method": m, "params": p}), headers=h2)
            b = c.getresponse().read().decode()
            names = [t.get("name") for t in json.loads(b).get("result", {}).get("tools", [])] if m == "tools/list" else None
            print(f"  mcp {m} {p.get('name','')}: user_id={'user_id' in b} tools={names} {b[:300] if m=='tools/call' and p['name']=='execute_sql' else ''}")


if __name__ == "__main__":
    main()
