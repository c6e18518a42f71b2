#!/usr/bin/env python3
"""Writes the red-team configs under /tmp/rt3 (a manual record, not CI).

Gateways (all on 127.0.0.1):
  18301 SQLite demo with tenant filters + keys alpha (project 1), beta (project 2), unbound
  18302 SQLite oracle: no filters, no keys, databases oa / ob = copies of demo.db with the rows
        alpha / beta may not see deleted
  18303 PostgreSQL demo with the same filters and keys
Filters (PostgreSQL SQL, as the issue shows):
  projects:          id = :project_id
  traces:            project_id = :project_id AND start_time < '2026-11-01 00:00:00+00'
  spans:             trace_id IN (SELECT trace_id FROM traces) AND start_time < '2026-11-01 00:00:00+00'
  span_annotations:  span_id IN (SELECT id FROM spans)
"""
import hashlib, shutil, sqlite3, sys, yaml

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
T = "/tmp/rt3"
TOKENS = {"alpha": "alpha-token-rt3-0123456789abcdef0123", "beta": "beta-token-rt3-0123456789abcdef01234",
          "unbound": "unbound-token-rt3-0123456789abcdef01"}
CUT = "2026-11-01 00:00:00+00"
FILTERS = {
    "projects": "id = :project_id",
    "traces": f"project_id = :project_id AND start_time < '{CUT}'",
    "spans": f"trace_id IN (SELECT trace_id FROM traces) AND start_time < '{CUT}'",
    "span_annotations": "span_id IN (SELECT id FROM spans)",
}
BIND = {"alpha": 1, "beta": 2}


def keys():
    out = []
    for n, t in TOKENS.items():
        k = {"name": n, "sha256": hashlib.sha256(t.encode()).hexdigest(), "databases": ["demo"]}
        if n in BIND:
            k["bind"] = {"project_id": BIND[n]}
        out.append(k)
    return out


def filtered(cfg):
    for t, f in FILTERS.items():
        cfg["databases"]["demo"]["tables"][t]["row_filter"] = f
        cfg["databases"]["demo"]["tables"][t]["row_filter_note"] = "rt3 tenant filter"
    cfg["keys"] = keys()
    return cfg


def main():
    base = yaml.safe_load(open(f"{ROOT}/config/demo.yaml"))
    pg = yaml.safe_load(open(f"{ROOT}/config/demo-postgres.yaml"))
    c = filtered(yaml.safe_load(yaml.safe_dump(base)))
    c["databases"]["demo"]["path"] = f"{T}/demo.db"
    c["listen"] = "127.0.0.1:18301"
    yaml.safe_dump(c, open(f"{T}/sqlite.yaml", "w"), sort_keys=False)
    p = filtered(pg)
    p["listen"] = "127.0.0.1:18303"
    yaml.safe_dump(p, open(f"{T}/pg.yaml", "w"), sort_keys=False)
    # oracle: unfiltered config over two copies with rows deleted
    o = yaml.safe_load(yaml.safe_dump(base))
    o["listen"] = "127.0.0.1:18302"
    tables = o["databases"]["demo"]["tables"]
    for t in tables.values():
        t.pop("row_filter", None); t.pop("row_filter_note", None)
    dbs = {}
    for n, pid in (("oa", 1), ("ob", 2)):
        path = f"{T}/{n}.db"
        shutil.copy(f"{T}/demo.db", path)
        db = sqlite3.connect(path)
        db.executescript(f"""
          DELETE FROM projects WHERE id <> {pid};
          DELETE FROM traces WHERE NOT (project_id = {pid} AND julianday(start_time) < julianday('2026-11-01'));
          DELETE FROM spans WHERE NOT (trace_id IN (SELECT trace_id FROM traces) AND julianday(start_time) < julianday('2026-11-01'));
          DELETE FROM span_annotations WHERE span_id NOT IN (SELECT id FROM spans);
        """)
        db.commit(); db.close()
        d = yaml.safe_load(yaml.safe_dump(o["databases"]["demo"]))
        d["path"] = path
        dbs[n] = d
    o["databases"] = dbs
    yaml.safe_dump(o, open(f"{T}/oracle.yaml", "w"), sort_keys=False)


if __name__ == "__main__":
    main()
