#!/usr/bin/env python3
"""#14 quick probes: hidden user_id, companion score/annotator_kind, filtered rows (project 6), both backends."""
import json, urllib.request
def q(port, sql, tok=None):
    r = urllib.request.Request(f"http://127.0.0.1:{port}/v1/query", data=json.dumps({"database": "demo", "sql": sql}).encode(), method="POST", headers={"Content-Type": "application/json"})
    if tok: r.add_header("Authorization", "Bearer " + tok)
    try:
        with urllib.request.urlopen(r) as f: d = json.loads(f.read()); return json.dumps(d.get("rows"))[:160]
    except urllib.error.HTTPError as e: return "ERR " + json.loads(e.read())["error"]["code"]
S = ["SELECT count(*) FROM traces t WHERE t.user_id IS NULL", "SELECT count(*) FROM traces WHERE traces.\"user_id\" IS NULL",
     "SELECT count(*) FROM (SELECT * FROM traces) x WHERE x.user_id IS NULL", "SELECT count(*) FROM traces NATURAL JOIN (SELECT 'u' AS user_id) z",
     "SELECT count(*) FROM traces JOIN (SELECT 1 AS k) z USING (user_id)", "SELECT to_jsonb(t) ->> 'user_id' FROM traces t LIMIT 1",
     "SELECT row_to_json(t) FROM traces t LIMIT 1", "SELECT t FROM traces t LIMIT 1", "SELECT (t).* FROM traces t LIMIT 1", "SELECT json_object('u', user_id) FROM traces LIMIT 1",
     "SELECT count(*) FROM traces GROUP BY user_id LIMIT 1", "SELECT count(*) FROM traces ORDER BY user_id LIMIT 1",
     "SELECT avg(score) FROM span_annotations", "SELECT avg(score) FROM span_annotations WHERE annotator_kind = 'LLM'",
     "SELECT annotator_kind, s FROM (SELECT annotator_kind, score AS s FROM span_annotations) x LIMIT 1",
     "SELECT x.s FROM (SELECT annotator_kind, score AS s FROM span_annotations) x LIMIT 1",
     "SELECT (SELECT max(score) FROM span_annotations) AS m", "SELECT count(*) FROM span_annotations WHERE score > 0.5",
     "SELECT score FROM span_annotations a WHERE a.annotator_kind IS NOT NULL LIMIT 1",
     "SELECT count(*) FROM projects WHERE id = 6", "SELECT count(*) FROM traces WHERE project_id = 6",
     "SELECT count(*) FROM spans s WHERE NOT EXISTS (SELECT 1 FROM traces t WHERE t.trace_id = s.trace_id)",
     "SELECT max(span_id) FROM span_annotations", "SELECT count(*) FROM span_annotations WHERE span_id > 63000",
     "WITH RECURSIVE r(n) AS (SELECT 6 UNION ALL SELECT n FROM r WHERE false) SELECT count(*) FROM traces, r WHERE project_id = r.n",
     "SELECT count(*) FROM traces WHERE CAST(project_id AS text) = '6'", "SELECT count(*) FROM traces WHERE start_time >= '2026-11-15'",
     "SELECT 1 FROM traces WHERE project_id = 6 AND 1/0 = 1", "SELECT CAST(trace_id AS integer) FROM traces WHERE project_id = 6",
     "SELECT CAST(name AS integer) FROM projects WHERE id = 6 OR id = 1", "SELECT CAST(name AS integer) FROM projects",
     "SELECT estimated_rows FROM traces"]
for s in S:
    print(s, "\n   sqlite:", q(18401, s), "\n   pg    :", q(18402, s), "\n   tools-only:", q(18401, s, "toolsonly-token-rt4-0123456789abcdef0123")[:40])
