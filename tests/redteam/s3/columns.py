#!/usr/bin/env python3
"""Hidden (traces.user_id) and companion (span_annotations.score requires annotator_kind) probes.
Manual record, not CI. Runs as alpha on 18301 (SQLite) and 18303 (PostgreSQL).
A probe fails if it answers 200 with a value that can only come from user_id / a score without
annotator_kind in the same output row, or if a refusal or schema text mentions user_id."""
import json, sys, os, http.client
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw, post, TOKENS

HIDDEN = [
    "SELECT * FROM traces LIMIT 1",
    "SELECT t.* FROM traces t LIMIT 1",
    "SELECT user_id FROM traces LIMIT 1",
    "SELECT t.user_id FROM traces t LIMIT 1",
    'SELECT "user_id" FROM traces LIMIT 1',
    "SELECT userid FROM traces LIMIT 1",
    "SELECT user_i FROM traces LIMIT 1",
    "SELECT count(*) FROM traces GROUP BY user_id",
    "SELECT id FROM traces ORDER BY user_id LIMIT 1",
    "SELECT t FROM traces t LIMIT 1",
    "SELECT row_to_json(t) FROM traces t LIMIT 1",
    "SELECT to_jsonb(t) FROM traces t LIMIT 1",
    "SELECT to_jsonb(t.*) FROM traces t LIMIT 1",
    "SELECT json_agg(t) FROM (SELECT * FROM traces LIMIT 2) t",
    "SELECT jsonb_agg(t) FROM (SELECT * FROM traces LIMIT 2) t",
    "SELECT row_to_json(t) FROM (SELECT * FROM traces LIMIT 1) t",
    "SELECT json_build_object('r', t) FROM traces t LIMIT 1",
    "SELECT (t).user_id FROM traces t LIMIT 1",
    "SELECT (t.*).user_id FROM traces t LIMIT 1",
    "SELECT count(*) FROM traces a JOIN traces b USING (user_id)",
    "SELECT * FROM traces a JOIN traces b USING (trace_id) LIMIT 1",
    "SELECT * FROM traces NATURAL JOIN traces LIMIT 1",
    "SELECT count(*) FROM traces a NATURAL JOIN (SELECT id, user_id FROM traces) b",
    "SELECT count(*) FROM (SELECT * FROM traces) x WHERE x.user_id IS NULL",
    "SELECT x.* FROM (SELECT * FROM traces) x LIMIT 1",
    "WITH x AS (SELECT * FROM traces) SELECT * FROM x LIMIT 1",
    "SELECT * FROM traces UNION ALL SELECT * FROM traces LIMIT 1",
    "SELECT count(*) FROM traces WHERE user_id IS NOT NULL",
    "SELECT count(*) FROM traces t WHERE t.user_id = 1",
    "SELECT id FROM traces WHERE user_id::text = 'x' LIMIT 1",
    "SELECT count(*) FROM traces WHERE traces.user_id > 0",
    "SELECT count(*) FROM traces WHERE public.traces.user_id > 0",
    "SELECT count(*) FROM traces WHERE (traces.*)::text LIKE '%'",
    "SELECT md5(t::text) FROM traces t LIMIT 1",
    "SELECT t::text FROM traces t LIMIT 1",
    "SELECT CAST(t AS text) FROM traces t LIMIT 1",
    "SELECT count(DISTINCT t) FROM traces t",
    "SELECT count(*) FROM traces t WHERE t = t",
    "SELECT hashtext(t::text) FROM traces t LIMIT 1",
]

COMPANION = [
    "SELECT score FROM span_annotations LIMIT 3",
    "SELECT score, annotator_kind FROM span_annotations LIMIT 3",
    "SELECT avg(score) FROM span_annotations",
    "SELECT * FROM span_annotations LIMIT 1",
    "SELECT s FROM (SELECT score AS s, annotator_kind FROM span_annotations) x LIMIT 3",
    "SELECT s, k FROM (SELECT score AS s, annotator_kind AS k FROM span_annotations) x LIMIT 3",
    "SELECT a FROM span_annotations a LIMIT 1",
    "SELECT row_to_json(a) FROM span_annotations a LIMIT 1",
    "SELECT (SELECT score FROM span_annotations LIMIT 1) AS s, 'x' AS annotator_kind",
    "SELECT score, 'LLM' AS annotator_kind FROM span_annotations LIMIT 3",
    "SELECT score FROM span_annotations UNION SELECT 1 LIMIT 3",
    "SELECT score FROM span_annotations WHERE annotator_kind = 'LLM' LIMIT 3",
    "SELECT id FROM span_annotations ORDER BY score DESC LIMIT 3",
    "SELECT count(*) FILTER (WHERE score > 0.5) FROM span_annotations",
    "SELECT sum(CASE WHEN score > 0.5 THEN 1 ELSE 0 END) FROM span_annotations",
    "SELECT score::text || annotator_kind FROM span_annotations LIMIT 3",
    "SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY annotator_kind",
    "SELECT avg(score), max(annotator_kind) FROM span_annotations",
    "SELECT json_agg(score) , annotator_kind FROM span_annotations GROUP BY annotator_kind",
    "SELECT array_agg(score) FROM span_annotations",
    "SELECT string_agg(score::text, ',') FROM span_annotations",
    "SELECT score + 0 AS x FROM span_annotations LIMIT 3",
    "SELECT greatest(score, 0) FROM span_annotations LIMIT 3",
    "SELECT CASE WHEN annotator_kind = 'LLM' THEN score END FROM span_annotations LIMIT 3",
    "SELECT id, annotator_kind FROM span_annotations WHERE score = (SELECT max(score) FROM span_annotations) LIMIT 1",
    "SELECT avg(score) OVER () FROM span_annotations LIMIT 1",
    "SELECT json_build_object('s', score) FROM span_annotations LIMIT 1",
    "SELECT (SELECT avg(score) FROM span_annotations) AS s, annotator_kind FROM span_annotations LIMIT 1",
]


def main():
    for port in (18301, 18303):
        print(f"== port {port} hidden")
        for sql in HIDDEN:
            s, j = gw(port, sql, "alpha")
            txt = json.dumps(j)
            flag = "LEAK-NAME " if "user_id" in txt and "user_id" not in sql else ""
            cols = [c.get("name") for c in j.get("columns", [])]
            if s == 200:
                print(f"  200 {flag}{sql}\n      cols={cols} row0={json.dumps((j.get('rows') or [None])[0])[:300]}")
            else:
                e = j.get("error", {})
                print(f"  {s} {flag}{sql} :: {e.get('code')} {e.get('message','')[:150]} FIX={e.get('fix','')[:150]}")
        print(f"== port {port} companion")
        for sql in COMPANION:
            s, j = gw(port, sql, "alpha")
            cols = [c.get("name") for c in j.get("columns", [])]
            if s == 200:
                print(f"  200 {sql}\n      cols={cols} row0={json.dumps((j.get('rows') or [None])[0])[:200]}")
            else:
                e = j.get("error", {})
                print(f"  {s} {sql} :: {e.get('code')} {e.get('message','')[:120]}")
        # schema, all details
        for det in ("", "?detail=full", "?detail=functions", "?detail=columns", "?detail=tables"):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/v1/schema" + det, headers={"Authorization": "Bearer " + TOKENS["alpha"]})
            r = c.getresponse(); b = r.read().decode()
            print(f"  schema{det}: {r.status} user_id={'user_id' in b} len={len(b)}")
        for path in ("/openapi.json", "/openapi.json?audience=operator"):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", path, headers={"Authorization": "Bearer " + TOKENS["alpha"]})
            r = c.getresponse(); b = r.read().decode()
            print(f"  {path}: {r.status} user_id={'user_id' in b}")


if __name__ == "__main__":
    main()
