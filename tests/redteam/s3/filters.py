#!/usr/bin/env python3
"""Row-filter / tenant probes (issue #14). Manual record, not CI. See README.md in this folder.
Each probe runs as alpha and beta on the SQLite gateway (18301) against the deleted-rows oracle
gateway (18302, databases oa/ob) and on the PostgreSQL gateway (18303) against psql over CTEs
that stand for the filtered tables (qg_reader cannot create tables; schema-qualified probes give
their own oracle SQL)."""
import hashlib, http.client, json, subprocess, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from setup import TOKENS, BIND

CUT = "2026-11-01 00:00:00+00"


def post(port, path, body, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    h = {"Content-Type": "application/json"}
    if token: h["Authorization"] = "Bearer " + token
    c.request("POST", path, body=json.dumps(body), headers=h)
    r = c.getresponse(); txt = r.read().decode()
    try: return r.status, json.loads(txt)
    except Exception: return r.status, {"_raw": txt}


def gw(port, sql, who=None, db=None, **kw):
    body = {"sql": sql}; body.update(kw)
    if db: body["database"] = db
    return post(port, "/v1/query", body, TOKENS.get(who))


def ctes(pid):
    return (f"projects AS (SELECT * FROM public.projects WHERE id = {pid}), "
            f"traces AS (SELECT * FROM public.traces WHERE project_id = {pid} AND start_time < '{CUT}'), "
            f"spans AS (SELECT * FROM public.spans WHERE trace_id IN (SELECT trace_id FROM traces) AND start_time < '{CUT}'), "
            f"span_annotations AS (SELECT * FROM public.span_annotations WHERE span_id IN (SELECT id FROM spans))")


def psql(sql):
    env = dict(os.environ, PGOPTIONS="-c TimeZone=UTC", PGPASSWORD="qg_reader")
    p = subprocess.run(["psql", "-X", "-h", "127.0.0.1", "-p", "5499", "-U", "qg_reader", "-d", "demo", "-At",
                        "-F", "|", "-c", sql], capture_output=True, text=True, env=env)
    if p.returncode: return None, p.stderr.strip()
    return [l.split("|") for l in p.stdout.splitlines()], None


def pg_oracle(sql, pid, own=None):
    if own: return psql(own.replace("{pid}", str(pid)).replace("{cut}", CUT))
    s = sql.strip()
    if s.upper().startswith("WITH "): q = "WITH " + ctes(pid) + ", " + s[5:]
    else: q = "WITH " + ctes(pid) + " " + s
    return psql(q)


def norm(v):
    if v is None or v == "": return None
    if isinstance(v, bool): return "t" if v else "f"
    if isinstance(v, (int, float)): return round(float(v), 4)
    try: return round(float(v), 4)
    except Exception: return str(v)


def rows_of(j):
    return [[norm(c) for c in r] for r in j.get("rows", [])]


# (name, sql, pg_own_oracle or None, sqlite? pg?)
PROBES = [
    ("plain", "SELECT count(*) FROM traces", None),
    ("public.", "SELECT count(*) FROM public.traces", "WITH " + "{ctes}" + " SELECT count(*) FROM traces"),
    ("main.", "SELECT count(*) FROM main.traces", "WITH {ctes} SELECT count(*) FROM traces"),
    ("quoted", 'SELECT count(*) FROM "traces"', None),
    ("upper", "SELECT count(*) FROM TRACES", None),
    ("catalog.schema", "SELECT count(*) FROM demo.public.traces", "WITH {ctes} SELECT count(*) FROM traces"),
    ("cte-same-name", "WITH traces AS (SELECT * FROM traces) SELECT count(*) FROM traces",
     "WITH {ctes}, t2 AS (SELECT * FROM traces) SELECT count(*) FROM t2"),
    ("cte-other", "WITH t AS (SELECT * FROM traces) SELECT count(*) FROM t", None),
    ("cte-materialized", "WITH t AS MATERIALIZED (SELECT * FROM traces) SELECT count(*) FROM t", None),
    ("union", "SELECT count(*) FROM (SELECT id FROM traces UNION ALL SELECT id FROM traces) x", None),
    ("except", "SELECT count(*) FROM (SELECT project_id FROM traces EXCEPT SELECT -1) x", None),
    ("lateral", "SELECT count(*) FROM projects p, LATERAL (SELECT * FROM traces t WHERE t.project_id = p.id) x", None),
    ("lateral-values", "SELECT count(*) FROM (VALUES (1),(2),(3),(4),(5)) v(p), LATERAL (SELECT * FROM traces t WHERE t.project_id = v.p) x", None),
    ("exists", "SELECT count(*) FROM (VALUES (1),(2),(3),(4),(5)) v(p) WHERE EXISTS (SELECT 1 FROM traces t WHERE t.project_id = v.p)", None),
    ("in", "SELECT count(*) FROM (VALUES (1),(2),(3),(4),(5)) v(p) WHERE p IN (SELECT project_id FROM traces)", None),
    ("scalar", "SELECT (SELECT count(*) FROM traces)", None),
    ("scalar-max", "SELECT (SELECT max(start_time) FROM traces) AS m", None),
    ("window", "SELECT count(*) OVER () AS n FROM traces LIMIT 1", None),
    ("window-rank", "SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY id) AS r FROM traces) x", None),
    ("distinct-proj", "SELECT count(DISTINCT project_id) FROM traces", None),
    ("groupby", "SELECT project_id, count(*) FROM traces GROUP BY project_id ORDER BY 1", None),
    ("or-true", "SELECT count(*) FROM traces WHERE project_id = 2 OR true", None),
    ("spans", "SELECT count(*) FROM spans", None),
    ("spans-join", "SELECT count(*) FROM spans s JOIN traces t USING (trace_id)", None),
    ("spans-leftjoin", "SELECT count(*) FROM spans s LEFT JOIN traces t ON t.trace_id = s.trace_id WHERE t.trace_id IS NULL", None),
    ("spans-notin", "SELECT count(*) FROM spans WHERE trace_id NOT IN (SELECT trace_id FROM traces)", None),
    ("spans-cost", "SELECT round(sum(cost_usd)::numeric, 2) FROM spans", None),
    ("spans-vcol", "SELECT count(model_name) FROM spans", "WITH {ctes} SELECT count(attributes::jsonb->>'llm.model_name') FROM spans"),
    ("spans-max", "SELECT max(start_time) FROM spans", None),
    ("annot", "SELECT count(*) FROM span_annotations", None),
    ("annot-score", "SELECT annotator_kind, round(avg(score)::numeric, 4) FROM span_annotations GROUP BY 1 ORDER BY 1", None),
    ("json-each", "SELECT count(*) FROM spans s, jsonb_each(s.attributes::jsonb) e", None),
    ("json-keys", "SELECT count(*) FROM spans s, jsonb_object_keys(s.attributes::jsonb) k", None),
    ("whole-row-count", "SELECT count(t) FROM traces t", None),
    ("whole-row-json", "SELECT count(row_to_json(t)) FROM traces t", None),
    ("to_jsonb-star", "SELECT count(to_jsonb(t.*)) FROM traces t", None),
    ("projects", "SELECT count(*) FROM projects", None),
    ("projects-join", "SELECT count(*) FROM projects p JOIN traces t ON t.project_id = p.id", None),
    ("self-join", "SELECT count(*) FROM traces a JOIN traces b ON a.project_id <> b.project_id", None),
    ("generate_series", "SELECT count(*) FROM generate_series(1,5) g(p) WHERE EXISTS (SELECT 1 FROM traces WHERE project_id = g.p)", None),
    ("any-array", "SELECT count(*) FROM traces WHERE project_id = ANY(ARRAY[1,2,3,4,5])", None),
    ("date-range", "SELECT count(*) FROM traces WHERE start_time >= '2026-11-01'", None),
    ("nested-sub", "SELECT count(*) FROM (SELECT * FROM (SELECT * FROM traces) a) b", None),
    ("in-subq-spans", "SELECT count(DISTINCT trace_id) FROM spans WHERE trace_id IN (SELECT trace_id FROM spans)", None),
    ("having", "SELECT count(*) FROM (SELECT project_id FROM traces GROUP BY project_id HAVING count(*) > 0) x", None),
    ("rollup", "SELECT count(*) FROM (SELECT project_id, status, count(*) FROM traces GROUP BY ROLLUP(project_id, status)) x", None),
    ("distinct-on", "SELECT count(*) FROM (SELECT DISTINCT ON (project_id) project_id FROM traces ORDER BY project_id) x", None),
    ("string_agg", "SELECT string_agg(DISTINCT project_id::text, ',') FROM traces", None),
    ("cte-capture-spans", "WITH traces AS (SELECT 'zz' AS x) SELECT count(*) FROM spans",
     "WITH {ctes} SELECT count(*) FROM spans"),
    ("cte-capture-upper", 'WITH "TRACES" AS (SELECT 1 AS x) SELECT count(*) FROM spans',
     "WITH {ctes} SELECT count(*) FROM spans"),
    ("cte-capture-annot", "WITH spans AS (SELECT 1 AS x) SELECT count(*) FROM span_annotations",
     "WITH {ctes} SELECT count(*) FROM span_annotations"),
    ("only", "SELECT count(*) FROM ONLY traces", None),
    ("table-stmt", "TABLE traces", "WITH {ctes} SELECT id, project_id, trace_id, session_id, start_time, end_time, status FROM traces LIMIT 100"),
    ("tablesample", "SELECT count(*) FROM traces TABLESAMPLE SYSTEM (100)", None),
    ("correlated", "SELECT sum((SELECT count(*) FROM spans s WHERE s.trace_id = t.trace_id)) FROM traces t", None),
    ("parent-join", "SELECT count(*) FROM spans c JOIN spans p ON p.id = c.parent_id", None),
    ("array-sub", "SELECT cardinality(ARRAY(SELECT trace_id FROM traces))", None),
    ("limit-sub", "SELECT count(*) FROM (SELECT id FROM traces ORDER BY id LIMIT 100000) x", None),
    ("values-in", "SELECT count(*) FROM (SELECT trace_id FROM spans UNION SELECT trace_id FROM traces) x", None),
    ("intersect", "SELECT count(*) FROM (SELECT trace_id FROM spans INTERSECT SELECT trace_id FROM traces) x", None),
    ("window-part", "SELECT count(*) FROM (SELECT count(*) OVER (PARTITION BY project_id) c FROM traces) x", None),
    ("cte-in-sub", "SELECT (WITH t AS (SELECT * FROM traces) SELECT count(*) FROM t)", None),
    ("cte-nested-shadow", "WITH t AS (SELECT 1 AS x) SELECT (WITH traces AS (SELECT 2 AS y) SELECT count(*) FROM spans)",
     "WITH {ctes} SELECT count(*) FROM spans"),
    ("subq-from-join", "SELECT count(*) FROM projects p WHERE (SELECT count(*) FROM traces t WHERE t.project_id = p.id) > 0", None),
]


def main():
    bad = 0
    only = sys.argv[1:]
    for name, sql, own in PROBES:
        if only and name not in only: continue
        if own: own = own.replace("{ctes}", "{C}")
        line = [name]
        for who, odb in (("alpha", "oa"), ("beta", "ob")):
            s1, j1 = gw(18301, sql, who)
            s2, j2 = gw(18302, sql.replace("main.", "").replace("demo.public.", "").replace("public.", ""), db=odb)
            if s1 == 200 and s2 == 200:
                ok = rows_of(j1) == rows_of(j2)
                line.append(f"sq-{who}:{'ok' if ok else 'DIFF gw=%s oracle=%s' % (rows_of(j1)[:3], rows_of(j2)[:3])}")
                bad += not ok
            else:
                line.append(f"sq-{who}:{s1}/{s2} {(j1.get('error') or {}).get('code','')}")
            s3, j3 = gw(18303, sql, who)
            pid = BIND[who]
            o, err = pg_oracle(sql, pid, own.replace("{C}", ctes(pid)) if own else None)
            if s3 == 200 and o is not None:
                ok = rows_of(j3) == [[norm(c) for c in r] for r in o]
                line.append(f"pg-{who}:{'ok' if ok else 'DIFF gw=%s oracle=%s' % (rows_of(j3)[:3], o[:3])}")
                bad += not ok
            else:
                line.append(f"pg-{who}:{s3} {(j3.get('error') or {}).get('code','')} oracle={'err' if o is None else 'ok'}")
        print(" | ".join(line), flush=True)
    print("DIFFERENCES:", bad)


if __name__ == "__main__":
    main()
