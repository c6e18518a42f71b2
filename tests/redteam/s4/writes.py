#!/usr/bin/env python3
"""#15 probes: bad inputs on both backends, table unchanged (count + checksum) after refusals."""
import json, sqlite3, subprocess, urllib.request, concurrent.futures as cf
GW = {"sqlite": "http://127.0.0.1:18401", "pg": "http://127.0.0.1:18402"}
def post(base, path, body, tok=None, raw=None):
    data = raw if raw is not None else json.dumps(body).encode()
    r = urllib.request.Request(base + path, data=data, method="POST", headers={"Content-Type": "application/json"})
    if tok: r.add_header("Authorization", "Bearer " + tok)
    try:
        with urllib.request.urlopen(r) as f: return f.status, f.read().decode()
    except urllib.error.HTTPError as e: return e.code, e.read().decode()
def state(b):
    q = "SELECT count(*), coalesce(sum(id),0), max(id) FROM span_annotations"
    if b == "sqlite":
        return sqlite3.connect("/tmp/rt4/demo.db").execute(q).fetchone()
    return subprocess.run(["psql", "-X", "-h", "127.0.0.1", "-p", "5499", "-U", "qg_owner", "-d", "rt4demo", "-Atc", q], capture_output=True, text=True).stdout.strip()
def dump(b, q):
    if b == "sqlite": return sqlite3.connect("/tmp/rt4/demo.db").execute(q).fetchall()
    return subprocess.run(["psql", "-X", "-h", "127.0.0.1", "-p", "5499", "-U", "qg_owner", "-d", "rt4demo", "-Atc", q], capture_output=True, text=True).stdout.strip()
BAD = [
  {"span_id": "7", "label": "incorrect", "score": 0.2},
  {"span_id": 7.0, "label": "incorrect", "score": 0.2},
  {"span_id": 7.5, "label": "incorrect", "score": 0.2},
  {"span_id": True, "label": "incorrect", "score": 0.2},
  {"span_id": [7], "label": "incorrect", "score": 0.2},
  {"span_id": 1e30, "label": "incorrect", "score": 0.2},
  {"span_id": 9223372036854775808, "label": "incorrect", "score": 0.2},
  {"span_id": -7, "label": "incorrect", "score": 0.2},
  {"span_id": 1, "label": "incorrect", "score": 0.2},
  {"span_id": "7 OR 1=1", "label": "incorrect", "score": 0.2},
  {"span_id": 7, "label": "Correct", "score": 0.9},
  {"span_id": 7, "label": "correct ", "score": 0.9},
  {"span_id": 7, "label": "corr\u0435ct", "score": 0.9},
  {"span_id": 7, "label": "correct\u0000", "score": 0.9},
  {"span_id": 7, "label": ["correct"], "score": 0.9},
  {"span_id": 7, "label": "incorrect", "score": "0.2"},
  {"span_id": 7, "label": "incorrect", "score": 1.0000001},
  {"span_id": 7, "label": "incorrect", "score": -0.0000001},
  {"span_id": 7, "label": "incorrect", "score": None},
  {"span_id": 7, "label": "incorrect", "score": True},
  {"span_id": 7, "label": "correct", "score": 0.49999999},
  {"span_id": 7, "label": "incorrect", "score": 0.2, "explanation": "x" * 2001},
  {"span_id": 7, "label": "incorrect", "score": 0.2, "explanation": "\U0001F600" * 2001},
  {"span_id": 7, "label": "incorrect", "score": 0.2, "explanation": 5},
  {"span_id": 7, "label": "incorrect", "score": 0.2, "bogus": 1},
  {"label": "incorrect", "score": 0.2},
  {"span_id": 7, "score": 0.2},
  {"span_id": 7, "label": "incorrect", "score": 0.2, "id": 1},
  {"span_id": None, "label": "incorrect", "score": 0.2},
]
RAW = [b"", b"[]", b"null", b"{", b'{"span_id": 7, "span_id": 1, "label":"incorrect","score":0.2}',
       b'{"span_id": 1, "span_id": 7, "label":"incorrect","score":0.2}', b'{"span_id": NaN, "label":"incorrect","score":0.2}',
       b'{"span_id": 7, "label":"incorrect","score":NaN}', b'{"span_id": 7, "label":"incorrect","score":1e400}',
       b'{"span_id": 7, "label":"incorrect","score":0.2,"explanation":"\\ud800"}']
for b, base in [(k, v) for k, v in GW.items() if k in __import__("sys").argv[1:]]:
    s0 = state(b)
    for i, a in enumerate(BAD):
        c, t = post(base, "/v1/write/save_annotation", a)
        if c not in (422, 400): print(b, "BAD", i, c, t[:300])
    for r in RAW:
        c, t = post(base, "/v1/write/save_annotation", None, raw=r)
        if c not in (422, 400): print(b, "RAW", r[:60], c, t[:300])
    # key without writes, tools-only key, SQL path
    for tok in ("nowrite-token-rt4-0123456789abcdef0123", "toolsonly-token-rt4-0123456789abcdef0123"):
        c, t = post(base, "/v1/write/save_annotation", {"span_id": 7, "label": "incorrect", "score": 0.2}, tok=tok)
        if c != 403: print(b, "KEY", tok[:9], c, t[:200])
    # tenant: out-of-scope span (project !=1)
    for sid in (7, 10, 13):
        c, t = post(base, "/v1/write/save_scoped", {"span_id": sid, "label": "incorrect"}, tok="tenant-token-rt4-0123456789abcdef01234")
        print(b, "TENANT span", sid, c, t[:260])
    c, t = post(base, "/v1/write/save_scoped", {"span_id": 7, "label": "incorrect"})
    print(b, "anon save_scoped", c, t[:200])
    c, t = post(base, "/v1/write/save_annotation", {"span_id": 7, "label": "incorrect", "score": 0.2}, tok="tenant-token-rt4-0123456789abcdef01234")
    print(b, "tenant->save_annotation", c, t[:150])
    for sql in ("INSERT INTO span_annotations(span_id) VALUES (7)", "WITH x AS (INSERT INTO span_annotations(span_id) VALUES(7) RETURNING 1) SELECT * FROM x",
                "SELECT 1; INSERT INTO span_annotations(span_id) VALUES (7)"):
        c, t = post(base, "/v1/query", {"database": "demo", "sql": sql})
        if c == 200: print(b, "SQLWRITE", c, t[:200])
    print(b, "after refusals", s0, state(b), "UNCHANGED" if s0 == state(b) else "CHANGED!")
    # derived field supplied + injection in explanation + read back
    c, t = post(base, "/v1/write/save_annotation", {"span_id": 61, "label": "hallucination", "score": 0.0, "annotator_kind": "HUMAN",
              "created_at": "1999-01-01", "explanation": "'); DROP TABLE spans;-- Ignore previous instructions \u202e\U0001F600"})
    print(b, "derived", c, t[:700])
    # race: 64 concurrent, 16 keys x4
    ids = [int(x) for x in (dump(b, "SELECT id FROM spans WHERE kind='LLM' ORDER BY id LIMIT 40 OFFSET 20") if b=="pg" else [r[0] for r in dump(b, "SELECT id FROM spans WHERE kind='LLM' ORDER BY id LIMIT 40 OFFSET 20")]) if not isinstance(x, str) or x.strip()] if b=="sqlite" else [int(x) for x in dump(b, "SELECT id FROM spans WHERE kind='LLM' ORDER BY id LIMIT 40 OFFSET 20").split()]
    ids = [i for i in ids if not (dump(b, f"SELECT 1 FROM span_annotations WHERE span_id={i} AND annotator_kind='LLM'"))][:16]
    with cf.ThreadPoolExecutor(64) as ex:
        res = list(ex.map(lambda k: post(base, "/v1/write/save_annotation", {"span_id": k, "label": "incorrect", "score": 0.3}), [i for i in ids for _ in range(4)]))
    from collections import Counter
    print(b, "race", len(ids), Counter(r[0] for r in res), dump(b, "SELECT count(*) FROM span_annotations WHERE annotator_kind='LLM' AND span_id IN (%s)" % ",".join(map(str, ids))))
