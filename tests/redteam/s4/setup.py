#!/usr/bin/env python3
"""s4 red team configs under /tmp/rt4: 18401 SQLite (copy demo.db), 18402 PostgreSQL (db rt4demo, copy of demo)."""
import hashlib, yaml, sys
R = sys.argv[1] if len(sys.argv) > 1 else "."
TOK = {"nowrite": "nowrite-token-rt4-0123456789abcdef0123", "tenant": "tenant-token-rt4-0123456789abcdef01234",
       "toolsonly": "toolsonly-token-rt4-0123456789abcdef0123"}
def keys():
    h = lambda t: hashlib.sha256(t.encode()).hexdigest()
    return [{"name": "local", "anonymous": True, "databases": ["demo"], "writes": "all"},
            {"name": "nowrite", "sha256": h(TOK["nowrite"]), "databases": ["demo"]},
            {"name": "toolsonly", "sha256": h(TOK["toolsonly"]), "databases": ["demo"], "sql": False},
            {"name": "tenant", "sha256": h(TOK["tenant"]), "databases": ["demo"], "writes": ["save_scoped"], "bind": {"project_id": 1}}]
def scoped(now):
    return {"database": "demo", "table": "span_annotations", "description": "scoped",
            "parameters": {"span_id": {"type": "integer", "references": "SELECT s.id FROM spans AS s JOIN traces AS t ON t.trace_id = s.trace_id WHERE t.project_id = :project_id"},
                           "label": {"type": "string", "enum": ["correct", "incorrect", "hallucination"]}},
            "set": {"annotator_kind": "'TENANT'", "created_at": now}, "duplicate_key": ["span_id", "annotator_kind"]}
for name, port, src in (("sqlite", 18401, "demo.yaml"), ("pg", 18402, "demo-postgres.yaml")):
    c = yaml.safe_load(open(f"{R}/config/{src}"))
    c["listen"] = f"127.0.0.1:{port}"
    if name == "sqlite":
        c["databases"]["demo"]["path"] = "/tmp/rt4/demo.db"
        c["writes"]["save_scoped"] = scoped("strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')")
    else:
        c["writes"]["save_scoped"] = scoped("now()")
    c["keys"] = keys()
    yaml.safe_dump(c, open(f"/tmp/rt4/{name}.yaml", "w"), sort_keys=False)
