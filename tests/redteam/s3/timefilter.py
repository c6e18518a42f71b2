#!/usr/bin/env python3
"""Row filters written with the time family (now(), date_trunc, interval, AT TIME ZONE, ::time,
EXTRACT DOW), gateways 18307 (SQLite) / 18308 (PostgreSQL), oracle psql over CTEs. Manual record."""
import sys, os, json
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw, psql


def ctes(pid):
    return (f"traces AS (SELECT * FROM public.traces WHERE project_id = {pid} AND start_time < date_trunc('day', now()) - interval '20 days' "
            f"AND (start_time AT TIME ZONE 'America/New_York')::time >= '08:00'), "
            f"spans AS (SELECT * FROM public.spans WHERE trace_id IN (SELECT trace_id FROM traces) AND EXTRACT(DOW FROM start_time) NOT IN (0, 6))")


Q = ["SELECT count(*) FROM traces", "SELECT count(*) FROM spans", "SELECT max(start_time)::text FROM traces",
     "SELECT EXTRACT(DOW FROM start_time) AS d, count(*) FROM spans GROUP BY 1 ORDER BY 1",
     "SELECT count(*) FROM spans s JOIN traces t USING (trace_id)",
     "SELECT min((start_time AT TIME ZONE 'America/New_York')::time)::text FROM traces"]
for who, pid in (("alpha", 1), ("beta", 2)):
    for q in Q:
        truth, err = psql("WITH " + ctes(pid) + " " + q)
        for port in (18307, 18308):
            s, j = gw(port, q, who)
            print(port, who, s, json.dumps(j.get("rows") or j.get("error"))[:200], "| psql:", truth or err, "|", q)
