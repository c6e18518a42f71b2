#!/usr/bin/env python3
"""One SQL on every backend (#12): each statement through the plain SQLite demo gateway (18304)
and the PostgreSQL demo gateway (18305, no keys) against psql on the PostgreSQL demo (the truth).
Manual record, not CI. Prints DIFF for a 200 whose rows differ from psql's."""
import json, sys, os, subprocess, re, datetime
sys.path.insert(0, os.path.dirname(__file__))
from filters import gw, psql

STMTS = [
    "SELECT date_trunc('month', start_time) AS m, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT date_trunc('week', start_time) AS w, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT date_trunc('day', start_time AT TIME ZONE 'America/New_York') AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 5",
    "SELECT (start_time AT TIME ZONE 'America/New_York')::date AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 5",
    "SELECT start_time AT TIME ZONE 'Europe/Berlin' FROM traces ORDER BY id LIMIT 3",
    "SELECT start_time AT TIME ZONE 'UTC' FROM traces ORDER BY id LIMIT 3",
    "SELECT start_time AT TIME ZONE '+05:30' FROM traces ORDER BY id LIMIT 3",
    "SELECT timezone('Asia/Kolkata', start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(DOW FROM start_time) AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT EXTRACT(ISODOW FROM start_time) AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT EXTRACT(WEEK FROM start_time) AS w, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT EXTRACT(DOY FROM start_time) AS w FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(EPOCH FROM start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(EPOCH FROM end_time - start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(SECOND FROM start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(MILLISECONDS FROM start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT EXTRACT(HOUR FROM end_time - start_time) FROM traces ORDER BY id LIMIT 3",
    "SELECT date_part('quarter', start_time), count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'Dy DD Mon YYYY') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'Day') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'HH12:MI AM') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'IYYY-IW') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'YYYY-\"Q\"Q') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(start_time, 'MS US') FROM traces ORDER BY id LIMIT 3",
    "SELECT to_char(cost_usd, 'FM999.0000') FROM spans WHERE cost_usd > 0 ORDER BY id LIMIT 3",
    "SELECT end_time - start_time FROM traces ORDER BY id LIMIT 3",
    "SELECT max(end_time - start_time) FROM traces",
    "SELECT avg(end_time - start_time) FROM traces",
    "SELECT sum(end_time - start_time) FROM traces",
    "SELECT justify_interval(sum(end_time - start_time)) FROM traces",
    "SELECT start_time + interval '1 month' FROM traces ORDER BY id LIMIT 3",
    "SELECT '2026-01-31'::date + interval '1 month'",
    "SELECT '2024-02-29'::timestamptz + interval '1 year'",
    "SELECT '2026-03-08 12:00:00+00'::timestamptz AT TIME ZONE 'America/New_York'",
    "SELECT '2026-11-01 06:30:00+00'::timestamptz AT TIME ZONE 'America/New_York'",
    "SELECT ('2026-11-01 01:30:00'::timestamp AT TIME ZONE 'America/New_York')",
    "SELECT start_time::date, count(*) FROM traces GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3",
    "SELECT count(*) FROM traces WHERE start_time::date = '2026-10-05'",
    "SELECT count(*) FROM traces WHERE start_time >= '2026-10-05' AND start_time < '2026-10-06'",
    "SELECT count(*) FROM traces WHERE start_time > '2026-10-05 10:00'",
    "SELECT count(*) FROM traces WHERE start_time::time > '12:00'",
    "SELECT count(*) FROM traces WHERE start_time BETWEEN '2026-10-01' AND '2026-10-02'",
    "SELECT count(*) FROM traces WHERE start_time > now() - interval '60 days'",
    "SELECT count(*) FROM traces WHERE start_time > current_date - 60",
    "SELECT count(*) FROM traces WHERE start_time::date > current_date - 60",
    "SELECT current_date - min(start_time)::date FROM traces",
    "SELECT age(max(start_time), min(start_time)) FROM traces",
    "SELECT date_trunc('hour', max(start_time)) FROM traces",
    "SELECT make_interval(days => 3) + min(start_time) FROM traces",
    "SELECT min(start_time) + 3 * interval '1 day' FROM traces",
    "SELECT interval '1 day' * 1.5",
    "SELECT interval '90 minutes'",
    "SELECT interval '-1 day 2 hours'",
    "SELECT round(avg(cost_usd)::numeric, 6) FROM spans",
    "SELECT round(2.5), round(-2.5), round(0.125, 2), (2.5)::int, (-2.5)::int, 7/2, 7.0/2, -7/2, 7 % -3",
    "SELECT round(cost_usd::numeric, 3) FROM spans WHERE cost_usd > 0 ORDER BY id LIMIT 5",
    "SELECT cost_usd::numeric(10,3) FROM spans WHERE cost_usd > 0 ORDER BY id LIMIT 5",
    "SELECT sum(cost_usd) FROM spans",
    "SELECT avg(cost_usd) FROM spans",
    "SELECT 1/3, 1.0/3, 2^10, 10 / 4 * 1.0",
    "SELECT count(*) FROM spans WHERE attributes::jsonb ->> 'llm.provider' = 'openai'",
    "SELECT attributes->>'llm.model_name' AS m, count(*) FROM spans GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5",
    "SELECT (attributes->>'llm.token_count.total')::int AS t FROM spans WHERE kind='LLM' ORDER BY id LIMIT 3",
    "SELECT attributes->'llm.token_count.total' FROM spans WHERE kind='LLM' ORDER BY id LIMIT 3",
    "SELECT sum((attributes->>'llm.token_count.total')::int) FROM spans",
    "SELECT count(*) FROM spans WHERE attributes::jsonb ? 'exception.message'",
    "SELECT attributes::jsonb #>> '{llm.model_name}' FROM spans WHERE kind='LLM' ORDER BY id LIMIT 2",
    "SELECT json_extract(attributes, '$.\"llm.model_name\"') FROM spans WHERE kind='LLM' ORDER BY id LIMIT 2",
    "SELECT status = 'OK' AS ok, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT bool_or(status = 'ERROR'), bool_and(status = 'OK'), every(status <> 'x') FROM traces",
    "SELECT count(*) FILTER (WHERE status='ERROR')::float / count(*) FROM traces",
    "SELECT avg((status = 'ERROR')::int) FROM traces",
    "SELECT name LIKE 'Chat%', name ILIKE 'chat%' FROM spans ORDER BY id LIMIT 3",
    "SELECT count(*) FROM spans WHERE name LIKE 'chat%'",
    "SELECT count(*) FROM spans WHERE name ~ '^tool:'",
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY cost_usd) FROM spans",
    "SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY cost_usd) FROM spans",
    "SELECT mode() WITHIN GROUP (ORDER BY kind) FROM spans",
    "SELECT stddev(cost_usd), variance(cost_usd) FROM spans",
    "SELECT string_agg(DISTINCT kind, ',' ORDER BY kind) FROM spans",
    "SELECT greatest(1, NULL, 3), least(NULL, 2), concat('a', NULL, 1), concat_ws('-', 'a', NULL, 'b')",
    "SELECT split_part('a.b.c', '.', 2), strpos('hello','l'), initcap('hello world'), left('abc', -1), right('abc', 2)",
    "SELECT length('héllo'), upper('straße'), lower('ÀB')",
    "SELECT 'a' < 'B', 'a' < 'b', 'Z' < 'a'",
    "SELECT name FROM projects ORDER BY name DESC",
    "SELECT NULL::int IS DISTINCT FROM 1, 1 IN (NULL, 2), NOT (1 IN (NULL, 2))",
    "SELECT 9223372036854775807 + 0, 2147483647 + 1",
    "SELECT sum(id) FROM spans",
    "SELECT count(*) FROM generate_series('2026-10-01'::date, '2026-10-31'::date, interval '1 day') g",
    "SELECT g::date AS d, count(t.id) FROM generate_series('2026-10-01'::date, '2026-10-03'::date, interval '1 day') g LEFT JOIN traces t ON t.start_time::date = g::date GROUP BY 1 ORDER BY 1",
    "SELECT strftime('%Y-%m', start_time) AS m, count(*) FROM traces GROUP BY 1 ORDER BY 1",
    "SELECT date(start_time, '+1 day') FROM traces ORDER BY id LIMIT 2",
    "SELECT julianday(end_time) - julianday(start_time) FROM traces ORDER BY id LIMIT 2",
    "SELECT ifnull(session_id, 'anon'), iif(status='OK', 1, 0), instr(trace_id, 'a') FROM traces ORDER BY id LIMIT 2",
    "SELECT total(cost_usd), group_concat(DISTINCT kind) FROM spans",
    "SELECT max(1, 2), min(3, 4)",
    "SELECT printf('%.2f', 3.14159)",
    "SELECT id FROM traces ORDER BY id LIMIT 2, 3",
    "SELECT sum(status = 'ERROR') FROM traces",
    "SELECT date_trunc('day', now()) <= now(), current_timestamp = now()",
    "SELECT to_char(now(), 'YYYY') = EXTRACT(YEAR FROM now())::text",
    "SELECT count(*) FROM traces WHERE start_time < now()",
    "SELECT min(start_time)::text FROM traces",
    "SELECT min(start_time)::varchar(10) FROM traces",
    "SELECT substring(min(start_time)::text, 1, 10) FROM traces",
    "SELECT min(start_time) || '' FROM traces",
    "SELECT min(created_at)::date FROM projects",
    "SELECT to_timestamp(1700000000)",
    "SELECT date '2026-10-05' - date '2026-10-01'",
    "SELECT '2026-10-05'::date - 1",
    "SELECT extract(month from '2026-10-05'::date)",
    "SELECT date_trunc('quarter', '2026-11-15 10:00:00+00'::timestamptz)",
    "SELECT date_trunc('day', '2026-11-01 12:00:00+00'::timestamptz AT TIME ZONE 'America/New_York')",
    "SELECT date_trunc('month', start_time)::date AS m FROM traces ORDER BY id LIMIT 1",
    "SELECT count(*) FROM spans WHERE end_time - start_time > interval '2 seconds'",
    "SELECT count(*) FROM spans WHERE latency_ms > 2000",
    "SELECT round(avg(latency_ms), 2) FROM spans",
    "SELECT kind, round(avg(EXTRACT(EPOCH FROM end_time - start_time) * 1000)::numeric, 2) FROM spans GROUP BY 1 ORDER BY 1",
]


TS = re.compile(r"^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(Z|[+-]\d\d(?::?\d\d)?)?$")


def norm(v):
    if v is None or v == "": return None
    if isinstance(v, str) and TS.match(v):
        m = TS.match(v); tz = m.group(3)
        if tz == "Z": tz = "+00:00"
        elif tz and len(tz) == 3: tz += ":00"
        d = datetime.datetime.fromisoformat(m.group(1) + "T" + m.group(2) + (tz or ""))
        if d.tzinfo: d = d.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return d.isoformat()
    if isinstance(v, bool): return "t" if v else "f"
    try:
        f = float(v)
        return round(f, 6)
    except Exception:
        return str(v)


def main():
    diff = ref = same = 0
    for sql in STMTS:
        truth, err = psql(sql)
        for port, label in ((18304, "sqlite"), (18305, "pg")):
            s, j = gw(port, sql)
            if s != 200:
                e = j.get("error", {})
                ref += 1
                print(f"[{label}] {s} {e.get('code')} :: {sql}\n     {e.get('message','')[:140]} | {e.get('fix','')[:160]}"
                      + (f" | suggested={e.get('suggested_sql')}" if e.get('suggested_sql') else ""))
                continue
            if truth is None:
                print(f"[{label}] 200 but psql ERROR ({err[:100]}) :: {sql}\n     gw={j.get('rows')[:3]}")
                diff += 1
                continue
            g = [[norm(c) for c in r] for r in j.get("rows", [])]
            t = [[norm(c) for c in r] for r in truth]
            if g == t:
                same += 1
            else:
                diff += 1
                print(f"[{label}] DIFF :: {sql}\n     gw={g[:4]}\n     pg={t[:4]}  rewrites={j.get('applied',{}).get('rewrites')}")
    print(f"same={same} refused={ref} diff(raw, check by hand: formats)={diff}")


if __name__ == "__main__":
    main()
