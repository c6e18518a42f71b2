#!/usr/bin/env python3
"""#12 quick parity: SQLite gateway 18401 vs PG gateway 18402 (and psql on rt4demo as truth)."""
import json, subprocess, urllib.request
def q(port, sql):
    r = urllib.request.Request(f"http://127.0.0.1:{port}/v1/query", data=json.dumps({"database": "demo", "sql": sql}).encode(), method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r) as f: d = json.loads(f.read()); return d.get("rows")
    except urllib.error.HTTPError as e: return "ERR " + json.loads(e.read())["error"]["code"]
def psql(sql): return subprocess.run(["psql", "-X", "-h", "127.0.0.1", "-p", "5499", "-U", "qg_reader", "-d", "rt4demo", "-Atc", sql], capture_output=True, text=True)
S = ["SELECT 7/2, 7%3, -7/2, -7%3", "SELECT round(2.5), round(-2.5), round(0.125, 2)", "SELECT 9223372036854775807 + 1",
     "SELECT sum(9223372036854775807) FROM projects", "SELECT CAST('1e3' AS integer)", "SELECT CAST(3.7 AS integer)", "SELECT 1/0",
     "SELECT 'a' || NULL", "SELECT length('é😀')", "SELECT upper('é')", "SELECT 'abc' LIKE 'ABC'", "SELECT avg(id) FROM projects",
     "SELECT true AND NULL, NOT NULL, 1=1", "SELECT CAST(0.1 AS real) + CAST(0.2 AS real)", "SELECT 2^3", "SELECT 10 / 4.0",
     "SELECT substr('hello', 0, 2)", "SELECT trim('  x  '), ltrim('xxa','x')", "SELECT count(DISTINCT status) FROM traces",
     "SELECT min(score), max(score), sum(score) FROM span_annotations WHERE annotator_kind='LLM'",
     "SELECT json_extract('{\"a\":1}', '$.a')", "SELECT strftime('%Y', '2026-10-05')", "SELECT datetime('2026-10-05', '+1 day')",
     "SELECT group_concat(name) FROM projects", "SELECT printf('%5.2f', 3.14159)", "SELECT iif(1=1, 'y', 'n')", "SELECT ifnull(NULL, 2)",
     "SELECT instr('hello','l')", "SELECT typeof(1)", "SELECT 'a' = 'A'", "SELECT CAST('12abc' AS integer)", "SELECT '10' < '9'", "SELECT 10 < '9'",
     "SELECT greatest(1, NULL, 3), least(1, NULL, 3)", "SELECT max(1, 2)", "SELECT abs(-9223372036854775807 - 1)", "SELECT 5 / 0.0",
     "SELECT position('l' in 'hello'), split_part('a,b,c', ',', 2)", "SELECT coalesce(sum(score),0) FROM span_annotations WHERE 1=0",
     "SELECT to_char(12.5, '999D9')", "SELECT string_agg(name, ',' ORDER BY name) FROM projects", "SELECT 'x' || 1.50", "SELECT CAST(1.50 AS text)",
     "SELECT 1.0 * 3", "SELECT CAST(2 AS numeric) / 3", "SELECT -0.0", "SELECT round(1.005, 2)", "SELECT bool_and(id > 0) FROM projects",
     "SELECT DISTINCT status FROM spans ORDER BY 1", "SELECT count(*) FROM traces WHERE status IN ('OK', NULL)", "SELECT NULL IN (1,2), 1 NOT IN (2, NULL)",
     "SELECT lower(name) FROM projects ORDER BY name COLLATE \"C\" LIMIT 2", "SELECT name FROM projects ORDER BY upper(name) DESC LIMIT 1",
     "SELECT sum(total_tokens) FROM spans", "SELECT avg(latency_ms) FROM spans WHERE kind='LLM'", "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id) FROM projects"]
for s in S:
    a, b = q(18401, s), q(18402, s)
    p = psql(s); t = p.stdout.strip() or p.stderr.strip()[:80]
    mark = "SAME" if a == b else "DIFF"
    print(mark, s, "\n   sqlite:", json.dumps(a)[:200], "\n   pg-gw :", json.dumps(b)[:200], "\n   psql  :", t[:200])
