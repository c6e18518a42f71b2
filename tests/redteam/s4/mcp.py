#!/usr/bin/env python3
"""MCP tools/call + OpenAPI listing of write tools per key (both backends)."""
import json, urllib.request
def call(base, body, tok=None, sid=None, method="POST", path="/mcp"):
    r = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None, method=method,
                               headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    if tok: r.add_header("Authorization", "Bearer " + tok)
    if sid: r.add_header("Mcp-Session-Id", sid)
    try:
        with urllib.request.urlopen(r) as f: return f.status, f.headers.get("Mcp-Session-Id"), f.read().decode()
    except urllib.error.HTTPError as e: return e.code, None, e.read().decode()
for base in ("http://127.0.0.1:18401", "http://127.0.0.1:18402"):
    for tok in (None, "nowrite-token-rt4-0123456789abcdef0123", "toolsonly-token-rt4-0123456789abcdef0123", "tenant-token-rt4-0123456789abcdef01234"):
        c, sid, t = call(base, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "rt4", "version": "1"}}}, tok)
        c2, _, t2 = call(base, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, tok, sid)
        names = [x["name"] for x in json.loads(t2).get("result", {}).get("tools", [])] if c2 == 200 else t2[:100]
        out = []
        for args in ({"span_id": 19, "label": "incorrect", "score": 0.2}, {"span_id": "19", "label": "incorrect", "score": 0.2},
                     {"span_id": 63181, "label": "incorrect", "score": 0.2}):
            c3, _, t3 = call(base, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "save_annotation", "arguments": args}}, tok, sid)
            out.append((c3, t3[:160]))
        c4, _, t4 = call(base, None, tok, method="GET", path="/openapi.json")
        ops = [op.get("operationId") for p in json.loads(t4).get("paths", {}).values() for op in p.values() if isinstance(op, dict)] if c4 == 200 else c4
        print(base[-5:], (tok or "anon")[:9], "mcp tools:", names, "\n  openapi ops:", ops)
        for o in out: print("  call:", o)
