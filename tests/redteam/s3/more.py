#!/usr/bin/env python3
"""Follow-up probes (hidden-column existence oracle, companion pairing). Manual record, not CI."""
import json, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw

P = [
    "SELECT user_id FROM traces, (SELECT 1 AS user_id) x LIMIT 1",
    "SELECT nosuch FROM traces, (SELECT 1 AS nosuch) x LIMIT 1",
    "SELECT count(*) FROM traces WHERE user_id IN (SELECT 1 AS user_id)",
    "SELECT (SELECT user_id FROM (SELECT 7 AS user_id) q) FROM traces LIMIT 1",
    "SELECT (SELECT nosuch FROM (SELECT 7 AS nosuch) q) FROM traces LIMIT 1",
    "SELECT id AS user_id FROM traces ORDER BY user_id LIMIT 1",
    "SELECT id AS nosuch FROM traces ORDER BY nosuch LIMIT 1",
    "SELECT ctid FROM traces LIMIT 1",
    "SELECT a.score, b.annotator_kind FROM span_annotations a JOIN span_annotations b ON b.id = a.id + 1 LIMIT 3",
    "SELECT score, CASE WHEN false THEN annotator_kind END AS annotator_kind FROM span_annotations LIMIT 3",
    "SELECT score, NULLIF(annotator_kind, annotator_kind) AS annotator_kind FROM span_annotations LIMIT 3",
    "SELECT score, substr(annotator_kind, 1, 0) AS annotator_kind FROM span_annotations LIMIT 3",
    "SELECT avg(score), min(annotator_kind) AS annotator_kind FROM span_annotations",
    "SELECT avg(score), max(annotator_kind) FROM span_annotations",
    "SELECT avg(score) AS s, count(DISTINCT annotator_kind) FROM span_annotations",
    "SELECT score, (SELECT annotator_kind FROM span_annotations LIMIT 1) AS k FROM span_annotations LIMIT 3",
    "SELECT score, annotator_kind FROM span_annotations UNION ALL SELECT 1, 'x' LIMIT 3",
    "SELECT s FROM (SELECT score AS s, annotator_kind FROM span_annotations) x WHERE annotator_kind = 'LLM' LIMIT 3",
    "SELECT score FROM (SELECT score, annotator_kind FROM span_annotations WHERE annotator_kind='LLM') x LIMIT 3",
]
for port in (18301, 18303):
    print("== port", port)
    for sql in P:
        s, j = gw(port, sql, "alpha")
        e = j.get("error", {})
        print(f"  {s} {e.get('code','')} {sql}\n      {(json.dumps(j.get('rows'))[:160]) if s==200 else e.get('message','')[:160] + ' | ' + e.get('fix','')[:160]}")
