#!/usr/bin/env python3
"""Probes per category. Run: python3 redteam/probes.py [category ...] > out.txt
Each probe prints one line: PASS/FAIL/NOTE, category, id, backend, status, detail."""
import sys, time, json
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from rt import *

results = []


def report(verdict, cat, pid, backend, status, detail):
    results.append((verdict, cat, pid, backend, status, detail))
    print(f"{verdict:4} {cat:9} {pid:28} {backend:6} {status} {detail}", flush=True)


def run(port):
    return "sqlite" if port == SQLITE else "pg"


def check_leak(cat, pid, port, st, j):
    if st == 200:
        lk = leaks(j)
        if lk:
            report("FAIL", cat, pid, run(port), st, "LEAK unflagged: " + json.dumps(lk[:2], ensure_ascii=False))
            return True
    return False


# ---------------------------------------------------------------- laundering
# (id, backends, sql, expect) expect: "flag" = 200 must flag column 0 (or refuse); "noleak" = detector only
LAUNDER = [
    # SQLite
    ("printf-s", "s", "SELECT printf('%s', explanation) AS v FROM span_annotations WHERE explanation IS NOT NULL", "flag"),
    ("printf-q", "s", "SELECT printf('%q|%w', explanation, explanation) AS v FROM span_annotations WHERE explanation IS NOT NULL", "flag"),
    ("printf-width-arg", "s", "SELECT printf('%.*s', 500, explanation) AS v FROM span_annotations", "flag"),
    ("json_object-key", "s", "SELECT json_object(explanation, 1) AS v FROM span_annotations WHERE explanation IS NOT NULL", "flag"),
    ("json_array", "s", "SELECT json_array(1, explanation) AS v FROM span_annotations WHERE explanation IS NOT NULL", "flag"),
    ("json_quote", "s", "SELECT json_quote(explanation) AS v FROM span_annotations", "flag"),
    ("json_extract-arr", "s", "SELECT json_extract(json_array(explanation), '$[0]') AS v FROM span_annotations", "flag"),
    ("json_extract-path-untrusted", "s", "SELECT json_extract('{\"a\":1}', explanation) AS v FROM span_annotations", "noleak"),
    ("json-fn", "s", "SELECT json(attributes) AS v FROM spans LIMIT 5", "flag"),
    ("json_group_object-key", "s", "SELECT json_group_object(explanation, 1) AS v FROM span_annotations", "flag"),
    ("json_group_array", "s", "SELECT json_group_array(substr(explanation, 1, 60)) AS v FROM span_annotations WHERE id < 50", "flag"),
    ("group_concat-sep", "s", "SELECT group_concat('x', explanation) AS v FROM span_annotations WHERE id < 20", "flag"),
    ("soundex", "s", "SELECT soundex(explanation) AS v FROM span_annotations", "flag"),
    ("hex", "s", "SELECT hex(explanation) AS v FROM span_annotations", "flag"),
    ("typeof", "s", "SELECT typeof(explanation) AS v FROM span_annotations", "noleak"),
    ("char-unicode-many", "s", "SELECT \"char\"(unicode(explanation), unicode(substr(explanation,2)), unicode(substr(explanation,3))) AS v FROM span_annotations", "flag"),
    ("iif", "s", "SELECT iif(id > 0, explanation, 'x') AS v FROM span_annotations", "flag"),
    ("ifnull", "s", "SELECT ifnull(explanation, 'x') AS v FROM span_annotations", "flag"),
    ("scalar-max", "s", "SELECT max('', explanation) AS v FROM span_annotations", "flag"),
    ("prefix-plus", "s", "SELECT +explanation AS v FROM span_annotations", "flag"),
    ("strftime-mod", "s", "SELECT strftime('%Y', '2026-01-01', explanation) AS v FROM span_annotations", "noleak"),
    ("date-mod", "s", "SELECT date('2026-01-01', explanation) AS v FROM span_annotations", "noleak"),
    ("median-text", "s", "SELECT median(explanation) AS v FROM span_annotations", "noleak"),
    ("percentile-text", "s", "SELECT percentile(explanation, 50) AS v FROM span_annotations", "noleak"),
    ("total-text", "s", "SELECT total(explanation) AS v FROM span_annotations", "noleak"),
    ("sum-text", "s", "SELECT sum(explanation) AS v FROM span_annotations", "noleak"),
    ("avg-text", "s", "SELECT avg(explanation) AS v FROM span_annotations", "noleak"),
    ("min-numeric-cast", "s", "SELECT min(CAST(explanation AS numeric)) AS v FROM span_annotations", "noleak"),
    ("bitor-text", "s", "SELECT explanation | 0 AS v FROM span_annotations", "noleak"),
    ("mod-text", "s", "SELECT mod(explanation, 7) AS v FROM span_annotations", "noleak"),
    ("arrow-model", "s", "SELECT attributes -> 'llm.model_name' AS v FROM spans WHERE kind = 'LLM' LIMIT 3", "flag"),
    ("arrow-path-untrusted", "s", "SELECT '{\"a\":\"b\"}' ->> explanation AS v FROM span_annotations", "noleak"),
    ("greatest", "s", "SELECT greatest(explanation, 'a') AS v FROM span_annotations", "flag"),
    # both
    ("union-second", "b", "SELECT 'a' AS v UNION ALL SELECT explanation FROM span_annotations", "flag"),
    ("union-derived", "b", "SELECT v FROM (SELECT 'a' AS v UNION SELECT explanation FROM span_annotations) t", "flag"),
    ("intersect", "b", "SELECT explanation AS v FROM span_annotations INTERSECT SELECT explanation FROM span_annotations", "flag"),
    ("except", "b", "SELECT explanation AS v FROM span_annotations EXCEPT SELECT 'x'", "flag"),
    ("outer-ref-shadow", "b", "SELECT (SELECT explanation FROM projects LIMIT 1) AS v FROM span_annotations", "flag"),
    ("outer-ref-qual", "b", "SELECT (SELECT a.explanation) AS v FROM span_annotations a", "flag"),
    ("outer-agg-in-sub", "b", "SELECT (SELECT max(a.explanation) FROM projects p WHERE p.id = 1) AS v FROM span_annotations a", "flag"),
    ("dup-derived-cols-star", "b", "SELECT * FROM (SELECT 'safe' AS x, explanation AS x FROM span_annotations) t", "noleak"),
    ("dup-derived-cols-ref", "b", "SELECT t.x FROM (SELECT explanation AS x, 'safe' AS x FROM span_annotations) t", "flag"),
    ("dup-cte-cols-star", "b", "WITH c AS (SELECT 'safe' AS x, explanation AS x FROM span_annotations) SELECT * FROM c", "noleak"),
    ("cte-collist", "b", "WITH c(e) AS (SELECT explanation FROM span_annotations) SELECT e AS v FROM c", "flag"),
    ("cte-collist-swap", "b", "WITH c(a, b) AS (SELECT explanation AS b, 'safe' AS a FROM span_annotations) SELECT b AS v, a FROM c", "noleak"),
    ("derived-collist-swap", "b", "SELECT b AS v, a FROM (SELECT explanation AS b, 'safe' AS a FROM span_annotations) AS t(a, b)", "noleak"),
    ("values-collist", "b", "SELECT y AS v FROM (VALUES ('safe', (SELECT max(explanation) FROM span_annotations))) AS t(x, y)", "flag"),
    ("star-natural-full", "b", "SELECT * FROM (SELECT 'x' AS explanation) t NATURAL FULL JOIN (SELECT explanation FROM span_annotations) s", "noleak"),
    ("natural-right-col", "b", "SELECT explanation AS v FROM (SELECT 'x' AS explanation) t NATURAL RIGHT JOIN (SELECT explanation FROM span_annotations) s", "flag"),
    ("using-right-star", "b", "SELECT * FROM (SELECT 1 AS k, 'x' AS explanation) t RIGHT JOIN (SELECT 1 AS k, explanation FROM span_annotations) s USING (k, explanation)", "noleak"),
    ("using-nested-join", "b", "SELECT explanation AS v FROM (SELECT 'x' AS explanation) t RIGHT JOIN (span_annotations a JOIN spans s ON s.id = a.span_id) USING (explanation)", "flag"),
    ("using-coalesce-in-sub", "b", "SELECT (SELECT explanation) AS v FROM (SELECT 'x' AS explanation) t FULL JOIN span_annotations USING (explanation)", "flag"),
    ("window-nth", "b", "SELECT nth_value(explanation, 2) OVER (ORDER BY id) AS v FROM span_annotations", "flag"),
    ("window-lag-default", "b", "SELECT lag(label, 1, explanation) OVER (ORDER BY id) AS v FROM span_annotations", "flag"),
    ("window-named", "b", "SELECT first_value(label) OVER w AS v FROM span_annotations WINDOW w AS (ORDER BY explanation)", "flag"),
    ("case-simple-operand", "b", "SELECT CASE explanation WHEN 'x' THEN 'a' ELSE 'b' END AS v FROM span_annotations", "flag"),
    ("coalesce", "b", "SELECT coalesce(NULL, explanation) AS v FROM span_annotations", "flag"),
    ("nullif", "b", "SELECT nullif(explanation, 'x') AS v FROM span_annotations", "flag"),
    ("substr-cast", "b", "SELECT substr(CAST(explanation AS text), 1, 200) AS v FROM span_annotations", "flag"),
    ("lower-upper", "b", "SELECT upper(lower(explanation)) AS v FROM span_annotations", "flag"),
    ("replace-trim", "b", "SELECT trim(replace(explanation, 'a', 'a')) AS v FROM span_annotations", "flag"),
    ("concat-op-left", "b", "SELECT explanation || '' AS v FROM span_annotations", "flag"),
    ("min-agg", "b", "SELECT min(explanation) AS v FROM span_annotations", "flag"),
    ("scalar-sub-orderby", "b", "SELECT (SELECT explanation FROM span_annotations ORDER BY id DESC LIMIT 1) AS v", "flag"),
    ("exists-sub", "b", "SELECT EXISTS (SELECT explanation FROM span_annotations) AS v", "noleak"),
    ("in-sub", "b", "SELECT 'x' IN (SELECT explanation FROM span_annotations) AS v", "noleak"),
    ("values-in-from-3", "b", "SELECT c3 AS v FROM (VALUES (1, 2, (SELECT min(explanation) FROM span_annotations))) AS t(c1, c2, c3)", "flag"),
    ("cte-nested", "b", "WITH a AS (SELECT explanation AS e FROM span_annotations), b AS (SELECT e AS f FROM a) SELECT f AS v FROM b", "flag"),
    ("cte-shadow-table", "b", "WITH projects AS (SELECT explanation AS name FROM span_annotations) SELECT name AS v FROM projects", "flag"),
    ("cte-shadow-inner", "b", "WITH projects AS (SELECT explanation AS name FROM span_annotations) SELECT (SELECT name FROM projects LIMIT 1) AS v", "flag"),
    ("cte-in-sub-shadow", "b", "SELECT (WITH projects AS (SELECT explanation AS name FROM span_annotations) SELECT max(name) FROM projects) AS v", "flag"),
    ("model_name-virtual", "b", "SELECT model_name AS v FROM spans WHERE kind = 'LLM'", "flag"),
    ("model_name-in-derived", "b", "SELECT m AS v FROM (SELECT model_name AS m FROM spans) t", "flag"),
    ("alias-as-virtual-in-outer", "b", "SELECT t.model_name AS v FROM (SELECT explanation AS model_name FROM span_annotations) t", "flag"),
    ("ambig-virtual-derived", "b", "SELECT model_name AS v FROM projects, (SELECT explanation AS model_name FROM span_annotations) t", "flag"),
    # PostgreSQL
    ("jsonb-arrow", "p", "SELECT attributes -> 'input.value' AS v FROM spans LIMIT 5", "flag"),
    ("jsonb-path", "p", "SELECT attributes #>> '{input.value}' AS v FROM spans LIMIT 5", "flag"),
    ("jsonb-extract-path", "p", "SELECT jsonb_extract_path(attributes, 'input.value') AS v FROM spans LIMIT 5", "flag"),
    ("jsonb_build_object", "p", "SELECT jsonb_build_object(explanation, 1) AS v FROM span_annotations", "flag"),
    ("to_jsonb", "p", "SELECT to_jsonb(explanation) AS v FROM span_annotations", "flag"),
    ("jsonb_agg", "p", "SELECT jsonb_agg(explanation) AS v FROM span_annotations WHERE id < 50", "flag"),
    ("json_object_agg-key", "p", "SELECT json_object_agg(explanation, 1) AS v FROM span_annotations WHERE id < 50", "flag"),
    ("array_agg", "p", "SELECT array_agg(explanation) AS v FROM span_annotations WHERE id < 50", "flag"),
    ("string_agg-sep", "p", "SELECT string_agg('x', explanation) AS v FROM span_annotations WHERE id < 20", "flag"),
    ("string_agg-orderby", "p", "SELECT string_agg(label, ',' ORDER BY explanation) AS v FROM span_annotations", "flag"),
    ("concat_ws-sep", "p", "SELECT concat_ws(explanation, 'a', 'b') AS v FROM span_annotations", "flag"),
    ("concat", "p", "SELECT concat(1, explanation) AS v FROM span_annotations", "flag"),
    ("split_part", "p", "SELECT split_part(explanation, '.', 2) AS v FROM span_annotations", "flag"),
    ("reverse2", "p", "SELECT reverse(reverse(explanation)) AS v FROM span_annotations", "flag"),
    ("left-right", "p", "SELECT left(explanation, 100) || right(explanation, 100) AS v FROM span_annotations", "flag"),
    ("initcap", "p", "SELECT initcap(explanation) AS v FROM span_annotations", "flag"),
    ("md5", "p", "SELECT md5(explanation) AS v FROM span_annotations", "flag"),
    ("regexp_replace-ref", "p", "SELECT regexp_replace(explanation, '^(.*)$', '\\1') AS v FROM span_annotations", "flag"),
    ("regexp_match", "p", "SELECT regexp_match(explanation, '(.*)') AS v FROM span_annotations", "flag"),
    ("to_char-numfmt", "p", "SELECT to_char(1, '\"' || explanation || '\"9') AS v FROM span_annotations", "flag"),
    ("to_char-fmt-bare", "p", "SELECT to_char(now(), explanation) AS v FROM span_annotations", "flag"),
    ("to_timestamp-fmt", "p", "SELECT to_timestamp('2026', explanation) AS v FROM span_annotations", "noleak"),
    ("cast-varchar", "p", "SELECT CAST(explanation AS varchar(200)) AS v FROM span_annotations", "flag"),
    ("cast-bpchar", "p", "SELECT CAST(explanation AS char(200)) AS v FROM span_annotations", "flag"),
    ("cast-json", "p", "SELECT CAST(to_jsonb(explanation) AS json) AS v FROM span_annotations", "flag"),
    ("mode-wg-expr", "p", "SELECT mode() WITHIN GROUP (ORDER BY attributes ->> 'input.value') AS v FROM spans", "flag"),
    ("percentile_disc-desc", "p", "SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY explanation DESC) AS v FROM span_annotations", "flag"),
    ("lateral", "p", "SELECT t.e AS v FROM span_annotations a, LATERAL (SELECT a.explanation AS e) t", "flag"),
    ("lateral-values", "p", "SELECT t.e AS v FROM span_annotations a CROSS JOIN LATERAL (VALUES (a.explanation)) t(e)", "flag"),
    ("grouping-sets", "p", "SELECT explanation AS v, count(*) FROM span_annotations GROUP BY GROUPING SETS ((explanation), ())", "flag"),
    ("rollup", "p", "SELECT coalesce(explanation, 'all') AS v, count(*) FROM span_annotations GROUP BY ROLLUP (explanation)", "flag"),
    ("distinct-on", "p", "SELECT DISTINCT ON (label) explanation AS v FROM span_annotations ORDER BY label, id", "flag"),
    ("greatest-pg", "p", "SELECT greatest(explanation, 'a') AS v FROM span_annotations", "flag"),
    ("jsonb-minus-arr", "p", "SELECT attributes - 'input.value' AS v FROM spans LIMIT 3", "flag"),
    ("generate_series-text", "p", "SELECT generate_series(1, 1) || explanation AS v FROM span_annotations", "flag"),
    ("any-array", "p", "SELECT 'x' = ANY (SELECT explanation FROM span_annotations) AS v", "noleak"),
    ("interval-cast", "p", "SELECT CAST(CAST(length(explanation) AS text) || ' days' AS interval) AS v FROM span_annotations", "flag"),
    ("timezone-fn", "p", "SELECT timezone('UTC', CAST('2026-01-01' AS timestamp)) || explanation AS v FROM span_annotations", "flag"),
    ("date_trunc-field", "p", "SELECT date_trunc(lower(substr(explanation,1,0)) || 'day', now()) AS v FROM span_annotations", "flag"),
    ("jsonb_extract_path_text", "p", "SELECT jsonb_extract_path_text(attributes, 'output.value') AS v FROM spans LIMIT 5", "flag"),
]

# Error messages: untrusted text coming back in an error envelope.
ERRLEAK = [
    ("pg-cast-int", "p", "SELECT CAST(explanation AS integer) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("pg-cast-bool", "p", "SELECT CAST(explanation AS boolean) FROM span_annotations WHERE explanation LIKE '%SYSTEM%'"),
    ("pg-cast-jsonb", "p", "SELECT CAST(explanation AS jsonb) FROM span_annotations WHERE explanation LIKE '%Ignore all%'"),
    ("pg-cast-uuid", "p", "SELECT CAST(explanation AS uuid) FROM span_annotations WHERE explanation LIKE '%Run this SQL%'"),
    ("pg-cast-interval", "p", "SELECT CAST(explanation AS interval) FROM span_annotations WHERE explanation LIKE '%system>%'"),
    ("pg-cast-numeric", "p", "SELECT CAST(attributes ->> 'input.value' AS numeric) FROM spans WHERE kind = 'LLM'"),
    ("pg-cast-date", "p", "SELECT CAST(explanation AS date) FROM span_annotations WHERE explanation LIKE '%attacker%'"),
    ("pg-timezone", "p", "SELECT timezone(explanation, now()) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("pg-date_trunc", "p", "SELECT date_trunc(explanation, now()) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("pg-date_part", "p", "SELECT date_part(explanation, now()) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("pg-cast-interval-attr", "p", "SELECT CAST(attributes ->> 'input.value' AS interval) FROM spans WHERE kind = 'LLM'"),
    ("pg-cast-timestamptz", "p", "SELECT CAST(explanation AS timestamptz) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("pg-jsonb-arrow-cast", "p", "SELECT CAST(attributes ->> 'output.value' AS bigint) FROM spans WHERE kind = 'LLM'"),
    ("sqlite-json-path", "s", "SELECT json_extract('{\"a\":1}', explanation) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("sqlite-json-path-attr", "s", "SELECT json_extract(attributes, explanation) FROM spans, span_annotations WHERE explanation LIKE '%SYSTEM%' LIMIT 1"),
    ("sqlite-json-extract", "s", "SELECT json_extract(explanation, '$') FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("sqlite-arrow-path", "s", "SELECT attributes ->> explanation FROM spans, span_annotations WHERE explanation LIKE '%IMPORTANT%' LIMIT 1"),
    ("sqlite-percentile-p", "s", "SELECT percentile(1, explanation) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
    ("sqlite-date-mod", "s", "SELECT date('2026-01-01', explanation) FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
]


def launder():
    n = 0
    for pid, be, sql, expect in LAUNDER:
        for port in ([SQLITE] if be == "s" else [PG] if be == "p" else [SQLITE, PG]):
            n += 1
            st, j = query(port, sql, limit=500)
            if check_leak("launder", pid, port, st, j):
                continue
            if st == 200 and expect == "flag":
                c0 = j["columns"][0]
                nonnull = [r[0] for r in j["rows"] if r[0] is not None]
                if not c0.get("untrusted") and nonnull:
                    report("FAIL", "launder", pid, run(port), st, f"column not flagged, sample={json.dumps(nonnull[:2], ensure_ascii=False)[:160]}")
                    continue
            if st == 200:
                report("PASS", "launder", pid, run(port), st, "flags=" + ",".join(c["name"] + ("!" if c.get("untrusted") else "") for c in j["columns"]))
            else:
                e = j.get("error", {})
                report("PASS", "launder", pid, run(port), st, f"refused {e.get('code')}: {e.get('message','')[:90]}")
    for pid, be, sql in ERRLEAK:
        port = SQLITE if be == "s" else PG
        n += 1
        st, j = query(port, sql)
        txt = json.dumps(j, ensure_ascii=False)
        g = grams()
        hit = any(txt[k:k + 16] in g for k in range(len(txt) - 15))
        if st != 200 and hit:
            report("FAIL", "errleak", pid, run(port), st, "untrusted text in error: " + txt[:300])
        else:
            report("PASS", "errleak", pid, run(port), st, txt[:140])
    return n




# ---------------------------------------------------------------- silent wrong answers
# (id, sql for the gateways, sql for psql or None = same). A 200 must equal psql's answer; when psql errors,
# a 200 is a FAIL too (the gateway answered what PostgreSQL refuses).
LAT = "round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3)"
WRONG = [
    ("substr-neg-start-nolen", "SELECT substr(name, -2) FROM projects ORDER BY id", None),
    ("substr-fn-neg-start", "SELECT substr(name, -1, 3) FROM projects ORDER BY id", None),
    ("substring-fn-neg", "SELECT substring(name, -1, 3) FROM projects ORDER BY id", None),
    ("substr-zero", "SELECT substr(name, 0, 3) FROM projects ORDER BY id", None),
    ("substr-neg-len", "SELECT substr(name, 3, -1) FROM projects ORDER BY id", None),
    ("substring-from-only-neg", "SELECT SUBSTRING(name FROM -2) FROM projects ORDER BY id", None),
    ("substring-for-only", "SELECT SUBSTRING(name FOR 3) FROM projects ORDER BY id", None),
    ("like-case", "SELECT count(*) FROM spans WHERE name LIKE 'chat%'", None),
    ("like-case-upper", "SELECT count(*) FROM spans WHERE kind LIKE 'llm'", None),
    ("like-underscore-esc", "SELECT count(*) FROM spans WHERE name LIKE 'tool\\_%'", None),
    ("like-escape-clause", "SELECT count(*) FROM spans WHERE name LIKE 'tool!_%' ESCAPE '!'", None),
    ("ilike-ascii", "SELECT count(*) FROM spans WHERE name ILIKE 'CHAT%'", None),
    ("not-ilike", "SELECT count(*) FROM spans WHERE name NOT ILIKE '%Step%'", None),
    ("upper-nonascii", "SELECT upper('écoleß'), lower('ÉCOLE')", None),
    ("length-nonascii", "SELECT length('é🎉')", None),
    ("collation-order", "SELECT x FROM (VALUES ('a'), ('B'), ('_'), ('é'), ('Z'), ('aa')) v(x) ORDER BY x", None),
    ("nulls-order-asc", "SELECT label FROM span_annotations ORDER BY label LIMIT 3", None),
    ("nulls-order-desc", "SELECT label FROM span_annotations ORDER BY label DESC LIMIT 3", None),
    ("nulls-window-rownum", "SELECT id, row_number() OVER (ORDER BY label, id) FROM span_annotations ORDER BY id LIMIT 5", None),
    ("nulls-window-first", "SELECT first_value(label) OVER (ORDER BY label) FROM span_annotations LIMIT 1", None),
    ("nulls-inner-limit", "SELECT count(label) FROM (SELECT label FROM span_annotations ORDER BY label LIMIT 5) t", None),
    ("nulls-union-order", "SELECT label FROM span_annotations UNION SELECT NULL ORDER BY 1 LIMIT 2", None),
    ("nulls-order-pos-desc", "SELECT label, count(*) FROM span_annotations GROUP BY label ORDER BY 1 DESC", None),
    ("min-over-null-partition", "SELECT label, max(id) FROM span_annotations GROUP BY label ORDER BY label NULLS FIRST", None),
    ("intdiv", "SELECT 7 / 2, -7 / 2, 7 % -3, -7 % 3", None),
    ("div-zero", "SELECT 1 / 0", None),
    ("mod-zero", "SELECT 7 % 0", None),
    ("int4-overflow", "SELECT 2147483647 + 1", None),
    ("int8-overflow", "SELECT 9223372036854775807 * 2", None),
    ("bigint-literal", "SELECT 12345678901234567890", None),
    ("bigint-literal-2p63", "SELECT 9223372036854775808", None),
    ("numeric-eq", "SELECT 0.1 + 0.2 = 0.3", None),
    ("numeric-eq-where", "SELECT count(*) FROM projects WHERE 0.1 * 3 = 0.3", None),
    ("round-half-float", "SELECT round(CAST(2.5 AS float8)), round(CAST(0.5 AS float8)), round(CAST(-2.5 AS float8))", None),
    ("round-half-numeric", "SELECT round(2.5), round(-2.5), round(0.125, 2)", None),
    ("cast-int-round", "SELECT CAST(2.7 AS integer), CAST(-2.5 AS integer), CAST(9.5 AS bigint)", None),
    ("cast-float-int", "SELECT CAST(score AS integer) FROM span_annotations WHERE score > 0 AND score < 1 ORDER BY id LIMIT 5", None),
    ("cast-text-int", "SELECT CAST('2.7' AS integer)", None),
    ("cast-badtext-int", "SELECT CAST('abc' AS integer)", None),
    ("cast-big-bigint", "SELECT CAST(1e20 AS bigint)", None),
    ("cast-num-text", "SELECT CAST(1.50 AS text), CAST(1e3 AS text), CAST(0.0000001 AS text)", None),
    ("num-concat", "SELECT 1.50 || '', 1e3 || ''", None),
    ("float-text", "SELECT CAST(cost_usd AS text) FROM spans WHERE cost_usd > 0 ORDER BY cost_usd LIMIT 3", None),
    ("float-concat", "SELECT cost_usd || '' FROM spans WHERE cost_usd > 0 ORDER BY cost_usd DESC LIMIT 3", None),
    ("text-int-eq", "SELECT '1' = 1, '9' > 10", None),
    ("text-int-where", "SELECT count(*) FROM projects WHERE '2' = 2", None),
    ("case-text-int", "SELECT CASE 1 WHEN '1' THEN 'y' ELSE 'n' END", None),
    ("union-text-int", "SELECT '1' AS x UNION SELECT 1", None),
    ("coalesce-text-int", "SELECT coalesce('1', 2)", None),
    ("greatest-text-int", "SELECT greatest('9', 10), least('9', 10)", None),
    ("least-null", "SELECT least(label, 'z') FROM span_annotations WHERE label IS NULL LIMIT 1", None),
    ("greatest-null", "SELECT greatest(NULL, 1), least(1, NULL)", None),
    ("int-concat", "SELECT 1 || 2", None),
    ("bool-output", "SELECT 1 < 2, count(*) > 0 FROM projects", None),
    ("bool-column-null", "SELECT label = 'correct' FROM span_annotations ORDER BY id LIMIT 3", None),
    ("avg-int", "SELECT avg(id), sum(id) FROM projects", None),
    ("avg-int-frac", "SELECT avg(project_id) FROM traces", None),
    ("sum-empty", "SELECT sum(id), count(*), max(name) FROM projects WHERE false", None),
    ("date-plus-int", "SELECT date('2026-10-05') + 1", None),
    ("date-minus-date", "SELECT date('2026-10-05') - date('2026-10-01')", None),
    ("date-offset", "SELECT date('2026-10-05 23:30:00-02:00')", None),
    ("date-fn-col", "SELECT date(start_time), count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 3", None),
    ("ts-minus-ts", "SELECT end_time - start_time FROM spans ORDER BY id LIMIT 1", None),
    ("ts-plus-int", "SELECT start_time + 1 FROM spans ORDER BY id LIMIT 1", None),
    ("avg-ts", "SELECT avg(start_time) FROM spans", None),
    ("sum-ts", "SELECT sum(start_time) FROM spans", None),
    ("cast-ts-int", "SELECT CAST(start_time AS integer) FROM spans LIMIT 1", None),
    ("cast-ts-text", "SELECT CAST(start_time AS text) FROM spans ORDER BY id LIMIT 1", None),
    ("ts-concat", "SELECT start_time || '' FROM spans ORDER BY id LIMIT 1", None),
    ("ts-substr", "SELECT substr(CAST(start_time AS text), 1, 19) FROM spans ORDER BY id LIMIT 1", None),
    ("ts-like", "SELECT count(*) FROM spans WHERE CAST(start_time AS text) LIKE '2026-10-05%'", None),
    ("ts-length", "SELECT length(CAST(start_time AS text)) FROM spans ORDER BY id LIMIT 1", None),
    ("ts-max-concat", "SELECT max(start_time) || 'x' FROM spans", None),
    ("tslit-nooffset", "SELECT count(*) FROM spans WHERE start_time > '2026-10-05 14:00'", None),
    ("tslit-dateonly", "SELECT count(*) FROM spans WHERE start_time >= '2026-10-05'", None),
    ("tslit-compact-offset", "SELECT count(*) FROM spans WHERE start_time > '2026-10-05T14:00:00+0200'", None),
    ("tslit-space-offset", "SELECT count(*) FROM spans WHERE start_time > '2026-10-05 14:00:00 +02:00'", None),
    ("tslit-7frac", "SELECT count(*) FROM spans WHERE start_time > '2026-10-05T14:00:00.1234567Z'", None),
    ("tslit-24h", "SELECT count(*) FROM spans WHERE start_time < '2026-10-05T24:00:00Z'", None),
    ("tslit-words", "SELECT count(*) FROM spans WHERE start_time < 'tomorrow'", None),
    ("tslit-in-list", "SELECT count(*) FROM spans WHERE start_time IN ('2026-10-05T14:00:00+02:00', '2026-10-06T00:00:00+02:00')", None),
    ("tslit-union-derived", "SELECT count(*) FROM (SELECT start_time AS t FROM spans UNION ALL SELECT end_time FROM spans) x WHERE t > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-agg-derived", "SELECT count(*) FROM (SELECT trace_id, max(start_time) AS m FROM spans GROUP BY trace_id) x WHERE m > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-coalesce", "SELECT count(*) FROM spans WHERE coalesce(start_time, end_time) > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-case", "SELECT count(*) FROM spans WHERE CASE WHEN true THEN start_time END > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-window", "SELECT count(*) FROM (SELECT lag(start_time) OVER (ORDER BY id) AS p FROM spans) x WHERE p > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-scalar-sub", "SELECT (SELECT max(start_time) FROM spans) > '2026-11-15T23:00:00+02:00'", None),
    ("tslit-in-sub", "SELECT count(*) FROM spans WHERE start_time > (SELECT '2026-10-05T14:00:00+02:00')", None),
    ("tslit-cte", "WITH v AS (SELECT '2026-10-05T14:00:00+02:00' AS t) SELECT count(*) FROM spans, v WHERE spans.start_time > v.t", None),
    ("tslit-values-join", "SELECT count(*) FROM spans s JOIN (VALUES ('2026-10-05T14:00:00+02:00')) v(t) ON s.start_time > v.t", None),
    ("tslit-least", "SELECT count(*) FROM spans WHERE least(start_time, end_time) > '2026-10-05T14:00:00+02:00'", None),
    ("tslit-min-having", "SELECT trace_id FROM spans GROUP BY trace_id HAVING '2026-10-05T14:00:00+02:00' < min(start_time) ORDER BY trace_id LIMIT 2", None),
    ("tslit-any", "SELECT count(*) FROM spans WHERE start_time > ANY (SELECT '2026-11-15T14:00:00+02:00')", None),
    ("tslit-date-fn", "SELECT count(*) FROM spans WHERE start_time <= date('2026-10-05')", None),
    ("tslit-current-ts", "SELECT count(*) FROM spans WHERE start_time < CURRENT_TIMESTAMP", None),
    ("tslit-between-cols", "SELECT count(*) FROM spans WHERE '2026-10-05T14:00:00+02:00' BETWEEN start_time AND end_time", None),
    ("tslit-distinct-from", "SELECT count(*) FROM spans WHERE start_time IS DISTINCT FROM '2026-10-05T14:00:00+02:00'", None),
    ("tslit-nullif", "SELECT count(nullif(start_time, '2026-10-05T14:00:00+02:00')) FROM spans", None),
    ("alias-virtual-orderby-expr", "SELECT name AS latency_ms FROM spans ORDER BY latency_ms || '' DESC, id LIMIT 3",
     f"SELECT name AS latency_ms FROM spans ORDER BY ({LAT}) || '' DESC, id LIMIT 3"),
    ("alias-virtual-where", "SELECT count(*) FROM (SELECT name AS latency_ms FROM spans WHERE latency_ms > 1000) t",
     f"SELECT count(*) FROM (SELECT name AS latency_ms FROM spans WHERE {LAT} > 1000) t"),
    ("alias-virtual-having", "SELECT kind AS total_tokens, count(*) FROM spans GROUP BY kind HAVING max(total_tokens) > 0 ORDER BY 1",
     "SELECT kind AS total_tokens, count(*) FROM spans GROUP BY kind HAVING max(CAST(attributes ->> 'llm.token_count.total' AS bigint)) > 0 ORDER BY 1"),
    ("alias-virtual-window", "SELECT name AS latency_ms, row_number() OVER (ORDER BY latency_ms, id) AS r FROM spans ORDER BY id LIMIT 3",
     f"SELECT name AS latency_ms, row_number() OVER (ORDER BY {LAT}, id) AS r FROM spans ORDER BY id LIMIT 3"),
    ("alias-real-orderby-expr", "SELECT name AS kind FROM spans ORDER BY kind || '', id LIMIT 3", None),
    ("alias-virtual-distinct-on", "SELECT DISTINCT ON (total_tokens) kind AS total_tokens FROM spans ORDER BY total_tokens LIMIT 3",
     "SELECT DISTINCT ON (kind) kind AS total_tokens FROM spans ORDER BY kind LIMIT 3"),
    ("alias-virtual-groupby-expr", "SELECT kind AS model_name, count(*) FROM spans GROUP BY kind, model_name || '' ORDER BY 1, 2 LIMIT 4",
     "SELECT kind AS model_name, count(*) FROM spans GROUP BY kind, (attributes ->> 'llm.model_name') || '' ORDER BY 1, 2 LIMIT 4"),
    ("json-arrow-num", "SELECT attributes ->> 'llm.token_count.total' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2", None),
    ("json-arrow-json", "SELECT attributes -> 'llm.model_name' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2", None),
    ("json-arrow-numjson", "SELECT attributes -> 'llm.token_count.total' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2", None),
    ("json-arrow-sum", "SELECT sum(CAST(attributes ->> 'llm.token_count.total' AS bigint)) FROM spans", None),
    ("json-arrow-missing", "SELECT count(attributes ->> 'nope'), count(attributes -> 'nope') FROM spans", None),
    ("json-arrow-order", "SELECT attributes ->> 'llm.model_name' AS m, count(*) FROM spans GROUP BY 1 ORDER BY 1", None),
    ("json-arrow-eq-text", "SELECT count(*) FROM spans WHERE attributes ->> 'llm.model_name' = 'gpt-4o'", None),
    ("json-arrow-like", "SELECT count(*) FROM spans WHERE attributes ->> 'llm.provider' LIKE 'open%'", None),
    ("json-nested-key", "SELECT count(attributes -> 'llm' -> 'model_name') FROM spans", None),
    ("json-array-length", "SELECT json_array_length(CAST('[1,2,3]' AS json))", "SELECT json_array_length(CAST('[1,2,3]' AS json))"),
    ("distinct-mixed", "SELECT DISTINCT x FROM (VALUES (1), (1.0), (NULL), (NULL)) v(x) ORDER BY x", None),
    ("group-float-negzero", "SELECT x, count(*) FROM (VALUES (0.0), (-0.0)) v(x) GROUP BY x", None),
    ("count-distinct-null", "SELECT count(DISTINCT label), count(label), count(*) FROM span_annotations", None),
    ("having-no-group", "SELECT count(*) FROM projects HAVING count(*) > 10", None),
    ("group-by-pos-expr", "SELECT upper(kind), count(*) FROM spans GROUP BY 1 ORDER BY 2 DESC, 1", None),
    ("with-ties", "SELECT kind FROM spans ORDER BY kind FETCH FIRST 1 ROWS WITH TIES", None),
    ("limit-offset", "SELECT id FROM projects ORDER BY id LIMIT 2 OFFSET 4", None),
    ("full-join-using-star", "SELECT * FROM projects FULL JOIN (SELECT 9 AS id, 'z' AS extra) x USING (id) ORDER BY id", None),
    ("right-join-using-qualified", "SELECT projects.id, x.id FROM projects RIGHT JOIN (SELECT 9 AS id) x USING (id)", None),
    ("exp-overflow", "SELECT exp(1000)", None),
    ("sqrt-neg", "SELECT sqrt(-1)", None),
    ("ln-zero", "SELECT ln(0)", None),
    ("acos-2", "SELECT acos(2)", None),
    ("power-neg", "SELECT power(0, -1)", None),
    ("log-base", "SELECT log(100), log(2, 8)", None),
    ("float-literal-big", "SELECT 1e308 * 10", None),
    ("trim-chars", "SELECT trim(BOTH 'x' FROM 'xxaxx'), ltrim('  a'), rtrim('a  ')", None),
    ("replace-empty", "SELECT replace('abc', '', 'x')", None),
    ("position", "SELECT strpos('abc', ''), strpos('abc', 'c')", "SELECT strpos('abc', ''), strpos('abc', 'c')"),
    ("string-lt", "SELECT 'Z' < 'a', 'a' < 'aa', 'é' > 'z'", None),
    ("in-null", "SELECT 1 IN (2, NULL), 1 NOT IN (2, NULL)", None),
    ("between-reverse", "SELECT count(*) FROM projects WHERE id BETWEEN 4 AND 2", None),
    ("abs-min-int", "SELECT abs(-9223372036854775807 - 1)", None),
    ("count-star-join", "SELECT count(*) FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE s.kind = 'LLM'", None),
    ("cost-sum", "SELECT round(CAST(sum(cost_usd) AS numeric), 4) FROM spans", None),
    ("avg-score-group", "SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY 1 ORDER BY 1", None),
    ("sum-int-overflow", "SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) v(x)", None),
    ("unary-minus-text", "SELECT -'5'", None),
    ("current-time-fmt", "SELECT length(CAST(CURRENT_DATE AS text))", None),
]


def wrong():
    n = 0
    for pid, sql, pgsql in WRONG:
        ordered = "ORDER BY" in sql.upper() and "LIMIT" not in sql.upper() or "ORDER BY" in sql.upper()
        want, err = psql(pgsql or sql)
        for port in (SQLITE, PG):
            n += 1
            st, j = query(port, sql)
            check_leak("wrong", pid, port, st, j)
            if st != 200:
                e = j.get("error", {})
                report("PASS", "wrong", pid, run(port), st, f"refused {e.get('code')}: {e.get('message','')[:100]} | pg: {(err or 'ok')[:60]}")
                continue
            got = j.get("rows", [])
            note = (" notes=" + json.dumps(j.get("notes"))[:120]) if j.get("notes") else ""
            if err is not None:
                report("FAIL", "wrong", pid, run(port), st, f"200 {json.dumps(got)[:120]} but psql errors: {err[:120]}{note}")
            elif not same_rows(got, want, ordered):
                report("FAIL", "wrong", pid, run(port), st, f"got {json.dumps(got, ensure_ascii=False)[:160]} psql {json.dumps(want, ensure_ascii=False)[:160]}{note}")
            else:
                report("PASS", "wrong", pid, run(port), st, json.dumps(got, ensure_ascii=False)[:100] + note)
    return n




# ---------------------------------------------------------------- bombs
import threading, glob


def rss_of(comm_prefix, pid=None):
    """Largest RSS (MB) of one process named comm_prefix (or of pid)."""
    best = 0
    for d in ([f"/proc/{pid}"] if pid else glob.glob("/proc/[0-9]*")):
        try:
            comm = open(d + "/comm").read().strip()
            if pid is None and not comm.startswith(comm_prefix):
                continue
            for line in open(d + "/status"):
                if line.startswith("VmRSS:"):
                    best = max(best, int(line.split()[1]) // 1024)
        except Exception:
            pass
    return best


def timed(port, sql, timeout_ms, watch):
    peak = [0]
    stop = [False]

    def sample():
        while not stop[0]:
            peak[0] = max(peak[0], watch())
            time.sleep(0.05)
    th = threading.Thread(target=sample)
    th.start()
    t0 = time.time()
    try:
        st, j = query(port, sql, timeout_ms=timeout_ms)
    except Exception as e:
        st, j = 0, {"error": {"code": "client", "message": str(e)}}
    dt = time.time() - t0
    time.sleep(0.3)
    stop[0] = True
    th.join()
    return st, j, dt, peak[0]


XS = "x" * 999
BOMBS = [
    # (id, backend, sql, timeout_ms)  FAIL when: 200 with a value the ceiling should have refused (see detail),
    # or the answer comes later than timeout + 1.5 s, or the engine's peak RSS grows past 300 MB.
    ("pg-numeric-literal-replace", "p", f"SELECT length(replace(CAST(1e131071 AS text), '0', '{XS[:500]}'))", 5000),
    ("pg-power-replace", "p", f"SELECT length(replace(CAST(power(10::numeric, 131071) AS text), '0', '{XS[:300]}'))", 5000),
    ("pg-agg-into-replace", "p", f"SELECT length(replace(string_agg(CAST(attributes AS text), ''), '\"', '{XS[:400]}')) FROM spans", 5000),
    ("pg-string_agg-crossjoin", "p", "SELECT length(string_agg(a.explanation, '')) FROM span_annotations a, span_annotations b", 4000),
    ("pg-string_agg-numeric-lit", "p", "SELECT length(string_agg(CAST(1e131071 AS text), '')) FROM spans", 4000),
    ("pg-crossjoin-count", "p", "SELECT count(*) FROM spans a, spans b, spans c", 1000),
    ("pg-generate_series-count", "p", "SELECT count(*) FROM generate_series(1, 2000000000) g", 1000),
    ("pg-regex-backtrack", "p", "SELECT count(*) FROM spans WHERE CAST(attributes AS text) ~ '^(([a-z\" ]+)*)*$'", 1000),
    ("pg-to_char-long", "p", "SELECT length(to_char(now(), 'FMMonth FMMonth FMMonth FMMonth FMMonth FMMonth FMMonth FMMonth'))", 1000),
    ("pg-sort-crossjoin", "p", "SELECT a.id FROM spans a, spans b ORDER BY CAST(a.attributes AS text) || CAST(b.attributes AS text) LIMIT 1", 2000),
    ("pg-jsonb_agg-crossjoin", "p", "SELECT length(CAST(jsonb_agg(a.attributes) AS text)) FROM spans a, span_annotations b", 4000),
    ("sqlite-agg-into-replace", "s", f"SELECT length(replace(group_concat(attributes), '\"', '{XS[:400]}')) FROM spans", 5000),
    ("sqlite-crossjoin-count", "s", "SELECT count(*) FROM spans a, spans b, spans c", 1000),
    ("sqlite-window-concat", "s", "SELECT length(group_concat(attributes) OVER (ORDER BY id)) AS n FROM spans ORDER BY n DESC LIMIT 1", 2000),
    ("sqlite-group_concat-crossjoin", "s", "SELECT length(group_concat(a.attributes)) FROM spans a, spans b", 4000),
    ("sqlite-like-backtrack", "s", "SELECT count(*) FROM spans WHERE replace(attributes, ' ', '          ') LIKE '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%zzz'", 1500),
    ("sqlite-printf-many", "s", "SELECT length(printf('" + "%1000c" * 40 + "'" + ", 'x'" * 40 + "))", 1000),
    ("sqlite-nested-replace-agg", "s", f"SELECT length(replace(replace(group_concat(attributes), 'e', 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeee'), 'e', 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')) FROM spans", 3000),
    ("sqlite-json_group-crossjoin", "s", "SELECT length(json_group_array(a.attributes)) FROM spans a, span_annotations b", 4000),
    ("sqlite-sort-crossjoin", "s", "SELECT a.id FROM spans a, spans b ORDER BY a.attributes || b.attributes LIMIT 1", 2000),
    ("sqlite-recursive-like-cte", "s", "WITH a AS (SELECT attributes AS x FROM spans), b AS (SELECT a1.x || a2.x AS y FROM a a1, a a2) SELECT max(length(y)) FROM b", 2000),
]


def bombs():
    n = 0
    pg_base = rss_of("postgres")
    sq_pid = int(open("/tmp/rt/sqlite.pid").read()) if os.path.exists("/tmp/rt/sqlite.pid") else None
    for pid, be, sql, tmo in BOMBS:
        port = SQLITE if be == "s" else PG
        watch = (lambda: rss_of("postgres")) if be == "p" else (lambda: rss_of("", sq_pid))
        base = watch()
        st, j, dt, peak = timed(port, sql, tmo, watch)
        n += 1
        e = j.get("error", {})
        detail = f"{dt:.2f}s peakRSS={peak}MB (before {base}MB) " + (json.dumps(j.get('rows'))[:80] if st == 200 else f"{e.get('code')}: {e.get('message','')[:110]}")
        bad = dt > tmo / 1000 + 1.5 or peak - base > 300
        if st == 200 and pid in ("pg-numeric-literal-replace", "pg-power-replace", "pg-agg-into-replace", "sqlite-agg-into-replace", "sqlite-nested-replace-agg"):
            bad = True  # the result is far more than max_expression_growth x the statement's literals / stored values
        report("FAIL" if bad else "PASS", "bomb", pid, run(port), st, detail)
        time.sleep(0.5)
    return n




# ---------------------------------------------------------------- breach and side effects
SECRET_MARKS = ("@example.com", "$argon2", "qg_live_")
BREACH = [
    # (id, backends, sql)  FAIL when 200 and a cell carries a secret mark, or 200 at all unless marked "ok-if-no-secret"
    ("main-users", "s", "SELECT * FROM main.users"),
    ("quoted-users-upper", "b", "SELECT * FROM \"USERS\""),
    ("public-users", "p", "SELECT email FROM public.users"),
    ("db-schema-users", "p", "SELECT email FROM demo.public.users"),
    ("cte-quoted-shadow", "b", "WITH \"Users\" AS (SELECT 1 AS x) SELECT * FROM users"),
    ("cte-shadow-rev", "b", "WITH users AS (SELECT 1 AS x) SELECT * FROM \"Users\""),
    ("cte-scope-leak", "b", "SELECT (SELECT count(*) FROM api_keys) AS n FROM (WITH api_keys AS (SELECT 1 AS k) SELECT k FROM api_keys) t"),
    ("cte-scope-leak-union", "b", "SELECT * FROM (WITH users AS (SELECT 'x' AS email) SELECT email FROM users) a UNION ALL SELECT email FROM users"),
    ("cte-later-ref-earlier", "b", "WITH a AS (SELECT email FROM users), users AS (SELECT 'x' AS email) SELECT * FROM a"),
    ("cte-self-name", "b", "WITH users AS (SELECT email FROM users) SELECT * FROM users"),
    ("sqlite_master", "s", "SELECT sql FROM sqlite_master"),
    ("sqlite_schema-temp", "s", "SELECT * FROM temp.sqlite_schema"),
    ("pragma-tvf", "s", "SELECT * FROM pragma_table_info('users')"),
    ("pragma-fn-list", "s", "SELECT name FROM pragma_function_list"),
    ("dbstat", "s", "SELECT * FROM dbstat"),
    ("json_each-tvf", "s", "SELECT value FROM json_each('[1]')"),
    ("pg-catalog-user", "p", "SELECT usename, passwd FROM pg_catalog.pg_user"),
    ("pg-shadow", "p", "SELECT * FROM pg_shadow"),
    ("pg-settings", "p", "SELECT name, setting FROM pg_settings"),
    ("info-schema", "p", "SELECT table_name FROM information_schema.tables"),
    ("pg-stat-activity", "p", "SELECT query FROM pg_stat_activity"),
    ("pg-read-qualified", "p", "SELECT pg_catalog.pg_read_file('/etc/passwd')"),
    ("pg-read-quoted", "p", "SELECT \"pg_read_file\"('/etc/passwd')"),
    ("pg-ls-dir", "p", "SELECT pg_ls_dir('.')"),
    ("current-setting", "p", "SELECT current_setting('data_directory')"),
    ("current-user", "p", "SELECT current_user, session_user, user"),
    ("inet-client", "p", "SELECT inet_client_addr()"),
    ("pg-qualified-upper", "p", "SELECT pg_catalog.upper(name) FROM projects"),
    ("public-fn", "p", "SELECT public.upper(name) FROM projects"),
    ("operator-syntax", "p", "SELECT 1 OPERATOR(pg_catalog.+) 1"),
    ("table-stmt", "b", "TABLE users"),
    ("only-users", "p", "SELECT * FROM ONLY users"),
    ("users-inherit", "p", "SELECT * FROM users*"),
    ("rows-from", "p", "SELECT * FROM ROWS FROM (generate_series(1,2))"),
    ("tablesample", "b", "SELECT * FROM spans TABLESAMPLE SYSTEM (1)"),
    ("readfile", "s", "SELECT readfile('/etc/passwd')"),
    ("load-ext", "s", "SELECT load_extension('/tmp/x')"),
    ("sqlite-attach-fn", "s", "SELECT sqlite_version()"),
    ("subquery-users-exists", "b", "SELECT count(*) FROM projects WHERE EXISTS (SELECT 1 FROM users)"),
    ("users-in-lateral", "p", "SELECT * FROM projects, LATERAL (SELECT email FROM users LIMIT 1) u"),
    ("users-via-alias", "b", "SELECT u.email FROM projects AS users, users u"),
    ("view-like-values", "b", "SELECT * FROM (VALUES (1)) AS users(email)"),
    ("xml", "p", "SELECT query_to_xml('select * from users', true, true, '')"),
    ("to-regclass", "p", "SELECT to_regclass('users')"),
    ("cast-regclass", "p", "SELECT CAST('users' AS regclass)"),
    ("pg-typeof", "p", "SELECT pg_typeof(1)"),
    ("uuid-gen", "p", "SELECT gen_random_uuid()"),
    ("txid", "p", "SELECT txid_current()"),
    ("unicode-ident", "b", "SELECT * FROM U&\"\\0075sers\""),
    ("escape-ident", "b", "SELECT * FROM \"users\" AS x"),
    ("comment-smuggle", "b", "SELECT 1 /* */ ; SELECT * FROM users"),
    ("dollar-quote", "p", "SELECT $$x$$ || name FROM projects; SELECT email FROM users"),
]
SIDE = [
    ("delete-cte", "b", "WITH d AS (DELETE FROM spans RETURNING id) SELECT count(*) FROM d"),
    ("insert-cte", "b", "WITH i AS (INSERT INTO projects(id, name, created_at) VALUES (99, 'x', '2026-01-01') RETURNING id) SELECT * FROM i"),
    ("update-cte", "b", "WITH u AS (UPDATE projects SET name = 'x' RETURNING id) SELECT * FROM u"),
    ("select-into", "b", "SELECT * INTO TEMP t FROM projects"),
    ("create-temp", "b", "CREATE TEMP TABLE t AS SELECT 1"),
    ("for-update", "b", "SELECT * FROM projects FOR UPDATE"),
    ("for-share-sub", "b", "SELECT * FROM (SELECT * FROM projects FOR SHARE) t"),
    ("nextval", "p", "SELECT nextval('projects_id_seq')"),
    ("set-config", "p", "SELECT set_config('statement_timeout', '0', false)"),
    ("advisory", "p", "SELECT pg_advisory_lock(1)"),
    ("notify", "p", "SELECT pg_notify('c', 'x')"),
    ("lo-create", "p", "SELECT lo_create(0)"),
    ("lo-import", "p", "SELECT lo_import('/etc/passwd')"),
    ("explain-analyze", "b", "EXPLAIN ANALYZE DELETE FROM spans"),
    ("copy-to", "p", "COPY projects TO '/tmp/x'"),
    ("do-block", "p", "DO $$BEGIN DELETE FROM spans; END$$"),
    ("call", "p", "CALL p()"),
    ("set", "b", "SET statement_timeout = 0"),
    ("vacuum", "b", "VACUUM"),
    ("prepare", "b", "PREPARE p AS SELECT 1"),
    ("declare", "p", "DECLARE c CURSOR FOR SELECT 1"),
    ("listen", "p", "LISTEN c"),
    ("multi-stmt", "b", "SELECT 1; DELETE FROM spans"),
    ("pragma", "s", "PRAGMA query_only = 0"),
    ("attach", "s", "ATTACH DATABASE '/tmp/rt/x.db' AS x"),
    ("values-only", "b", "VALUES (1)"),
    ("pg-stat-reset", "p", "SELECT pg_stat_reset()"),
    ("pg-terminate", "p", "SELECT pg_terminate_backend(1)"),
    ("setval", "p", "SELECT setval('x', 1)"),
    ("dblink", "p", "SELECT * FROM dblink('dbname=demo', 'delete from spans') AS t(x int)"),
    ("random-side", "b", "SELECT random() FROM projects"),
    ("sqlite-changes", "s", "SELECT changes()"),
    ("merge", "p", "MERGE INTO projects p USING projects q ON p.id = q.id WHEN MATCHED THEN DELETE"),
    ("lock", "b", "LOCK TABLE projects"),
    ("grant", "b", "GRANT SELECT ON users TO PUBLIC"),
]


def breach():
    n = 0
    for cat, table in (("breach", BREACH), ("side", SIDE)):
        for pid, be, sql in table:
            for port in ([SQLITE] if be == "s" else [PG] if be == "p" else [SQLITE, PG]):
                n += 1
                st, j = query(port, sql)
                txt = json.dumps(j)
                secret = any(m in txt for m in SECRET_MARKS)
                e = j.get("error", {})
                benign = pid in ("cte-quoted-shadow", "cte-shadow-rev", "view-like-values", "random-side", "escape-ident",
                                 "pg-qualified-upper", "tablesample", "values-only", "operator-syntax")
                if secret or (st == 200 and not benign):
                    report("FAIL", cat, pid, run(port), st, txt[:220])
                else:
                    why = "200 benign " + txt[:90] if st == 200 else f"{e.get('code')}: {e.get('message','')[:100]}"
                    if st == 200 and pid == "cte-quoted-shadow" and port == PG:
                        why = "ADMITTED (PG reads the real users table): " + txt[:120]
                        report("FAIL", cat, pid, run(port), st, why)
                        continue
                    report("PASS", cat, pid, run(port), st, why)
    return n




# ---------------------------------------------------------------- HTTP and auth
import socket
AUTHP = int(os.environ.get("RT_AUTH_PORT", "18963"))
TA = "tokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"  # key agent-a: databases [demo]
TB = "tokenBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"  # key agent-b: databases [demo2] (spotlight: true)


def raw(port, data, wait=3.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    s.sendall(data if isinstance(data, bytes) else data.encode())
    out = b""
    t0 = time.time()
    try:
        while time.time() - t0 < wait:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except socket.timeout:
        pass
    s.close()
    return out.decode("utf-8", "replace")


def req(method="POST", path="/v1/query", host="127.0.0.1:{p}", headers=(), body=None, port=None, version="HTTP/1.1"):
    port = port or SQLITE
    lines = [f"{method} {path} {version}"]
    if host is not None:
        lines.append("Host: " + host.format(p=port))
    lines += list(headers)
    b = body.encode() if isinstance(body, str) else (body or b"")
    if body is not None and not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        lines.append(f"Content-Length: {len(b)}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + b


def statuses(resp):
    return re.findall(r"HTTP/1\.[01] (\d\d\d)", resp)


def codes(resp):
    return re.findall(r'"code":"([^"]+)"', resp)


CT = "Content-Type: application/json"
USERS = '{"sql":"SELECT email FROM users"}'
OK1 = '{"sql":"SELECT 1"}'
# (id, raw request bytes, predicate on the response text, what a pass means)
def http_cases():
    P = SQLITE
    return [
        ("dupkey-escaped", req(headers=[CT], body='{"sql":"SELECT 1","s\\u0071l":"SELECT 2"}'), lambda r: "400" in statuses(r)[:1], "400 duplicate"),
        ("dupkey-database", req(headers=[CT], body='{"sql":"SELECT 1","database":"demo","database":"demo"}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("dupkey-nested-ok", req(headers=[CT], body='{"sql":"SELECT 1","limit":5,"limit":6}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("ct-upper", req(headers=["Content-Type: APPLICATION/JSON"], body=OK1), lambda r: statuses(r)[:1] in (["200"], ["415"]), "200 or 415"),
        ("ct-json-suffix", req(headers=["Content-Type: application/jsonx"], body=OK1), lambda r: "415" in statuses(r)[:1], "415"),
        ("ct-json-plus", req(headers=["Content-Type: application/vnd.api+json"], body=OK1), lambda r: "415" in statuses(r)[:1], "415"),
        ("ct-charset-latin1", req(headers=["Content-Type: application/json; charset=latin1"], body=OK1), lambda r: "415" in statuses(r)[:1], "415"),
        ("ct-two-headers", req(headers=["Content-Type: text/plain", CT], body=OK1), lambda r: statuses(r)[:1] in (["415"], ["400"]), "415/400"),
        ("ct-two-headers-rev", req(headers=[CT, "Content-Type: text/plain"], body=OK1), lambda r: statuses(r)[:1] in (["415"], ["400"]), "415/400"),
        ("ct-list", req(headers=["Content-Type: text/plain, application/json"], body=OK1), lambda r: "415" in statuses(r)[:1], "415"),
        ("ct-multipart", req(headers=["Content-Type: multipart/form-data; boundary=x"], body=OK1), lambda r: "415" in statuses(r)[:1], "415"),
        ("host-evil", req(host="evil.example:{p}", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1], "421"),
        ("host-127-suffix", req(host="127.0.0.1.evil.example:{p}", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1], "421"),
        ("host-localhost-suffix", req(host="localhost.evil.example", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1], "421"),
        ("host-userinfo", req(host="127.0.0.1@evil.example", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1] or "400" in statuses(r)[:1], "421/400"),
        ("host-trailing-dot", req(host="localhost.:{p}", headers=[CT], body=OK1), lambda r: True, "record"),
        ("host-decimal-ip", req(host="2130706433:{p}", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1], "421"),
        ("host-short-ip", req(host="127.1:{p}", headers=[CT], body=OK1), lambda r: "421" in statuses(r)[:1], "421"),
        ("host-v4mapped", req(host="[::ffff:127.0.0.1]:{p}", headers=[CT], body=OK1), lambda r: True, "record"),
        ("host-missing-11", req(host=None, headers=[CT], body=OK1), lambda r: statuses(r)[:1] in (["400"], ["421"]), "400/421"),
        ("host-missing-10", req(host=None, headers=[CT], body=OK1, version="HTTP/1.0"), lambda r: statuses(r)[:1] in (["400"], ["421"]), "400/421 (no Host: rebinding cannot be ruled out)"),
        ("host-two", req(host="127.0.0.1:{p}", headers=["Host: evil.example", CT], body=OK1), lambda r: statuses(r)[:1] in (["400"], ["421"]), "400/421"),
        ("host-two-rev", req(host="evil.example", headers=["Host: 127.0.0.1", CT], body=OK1), lambda r: statuses(r)[:1] in (["400"], ["421"]), "400/421"),
        ("absolute-uri-evil", req(path="http://evil.example/v1/query", headers=[CT], body=OK1), lambda r: statuses(r)[:1] in (["400"], ["421"]), "400/421"),
        ("origin-null", req(headers=[CT, "Origin: null"], body=OK1), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-evil", req(headers=[CT, "Origin: http://evil.example"], body=OK1), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-suffix", req(headers=[CT, "Origin: http://127.0.0.1.evil.example"], body=OK1), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-userinfo", req(headers=[CT, "Origin: http://127.0.0.1@evil.example"], body=OK1), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-file", req(headers=[CT, "Origin: file://"], body=OK1), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-two", req(headers=[CT, "Origin: http://127.0.0.1", "Origin: http://evil.example"], body=OK1), lambda r: statuses(r)[:1] in (["400"], ["403"]), "400/403"),
        ("origin-schema-get", req(method="GET", path="/v1/schema?database=demo", headers=["Origin: http://evil.example"]), lambda r: "403" in statuses(r)[:1], "403"),
        ("origin-openapi-get", req(method="GET", path="/openapi.json", headers=["Origin: http://evil.example"]), lambda r: "Access-Control-Allow-Origin" not in r, "no ACAO"),
        ("preflight", req(method="OPTIONS", headers=["Origin: http://evil.example", "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type"]), lambda r: "Access-Control-Allow-Origin" not in r, "no ACAO"),
        ("pipeline-2nd-evil-host", req(headers=[CT], body=OK1).replace(b"Connection: close\r\n", b"") + req(host="evil.example", headers=[CT], body=USERS), lambda r: statuses(r)[:2] in (["200", "421"], ["200"]), "200 then 421"),
        ("pipeline-2nd-users", req(headers=[CT], body=OK1).replace(b"Connection: close\r\n", b"") + req(headers=[CT], body=USERS), lambda r: "email" not in r.split('"rows"')[-1] or "422" in statuses(r), "2nd refused"),
        ("te-chunked", req(headers=[CT, "Transfer-Encoding: chunked"], body=b"11\r\n" + OK1.encode() + b"\r\n0\r\n\r\n"), lambda r: statuses(r)[:1] in (["200"], ["400"], ["411"], ["501"]), "200/4xx"),
        ("te-and-cl", req(headers=[CT, "Transfer-Encoding: chunked", "Content-Length: 5"], body=b"11\r\n" + OK1.encode() + b"\r\n0\r\n\r\n"), lambda r: statuses(r)[:1] in (["400"],), "400"),
        ("cl-twice", req(headers=[CT, "Content-Length: 17", "Content-Length: 5"], body=OK1), lambda r: statuses(r)[:1] in (["400"],), "400"),
        ("cl-short-smuggle", req(headers=[CT, f"Content-Length: {len(OK1)}"], body=OK1 + "GET /v1/schema HTTP/1.1\r\nHost: evil.example\r\n\r\n").replace(b"Connection: close\r\n", b""), lambda r: statuses(r)[1:2] in (["421"], []), "2nd 421"),
        ("bom-body", req(headers=[CT], body="\ufeff" + OK1), lambda r: statuses(r)[:1] in (["400"], ["200"]), "record"),
        ("trailing-garbage", req(headers=[CT], body=OK1 + " x"), lambda r: "400" in statuses(r)[:1], "400"),
        ("two-objects", req(headers=[CT], body=OK1 + OK1), lambda r: "400" in statuses(r)[:1], "400"),
        ("nul-in-sql", req(headers=[CT], body='{"sql":"SELECT 1\\u0000; SELECT email FROM users"}'), lambda r: statuses(r)[:1] in (["400"], ["422"]) and "@example.com" not in r, "refused"),
        ("lone-surrogate", req(headers=[CT], body='{"sql":"SELECT \'\\ud800\'"}'), lambda r: statuses(r)[:1] in (["400"], ["422"]), "400/422"),
        ("invalid-utf8", req(headers=[CT], body=b'{"sql":"SELECT \'\xff\xfe\'"}'), lambda r: statuses(r)[:1] in (["400"], ["422"]), "400/422"),
        ("deep-nesting", req(headers=[CT], body='{"sql":"SELECT 1","x":' + "[" * 100000 + "]" * 100000 + "}"), lambda r: statuses(r)[:1] in (["400"], ["413"]), "400/413"),
        ("sql-array", req(headers=[CT], body='{"sql":["SELECT 1"]}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("limit-negative", req(headers=[CT], body='{"sql":"SELECT 1","limit":-1}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("limit-float", req(headers=[CT], body='{"sql":"SELECT 1","limit":1.5}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("limit-huge", req(headers=[CT], body='{"sql":"SELECT 1","limit":1e30}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("timeout-zero", req(headers=[CT], body='{"sql":"SELECT 1","timeout_ms":0}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("timeout-huge", req(headers=[CT], body='{"sql":"SELECT 1","timeout_ms":99999999}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("validate-string", req(headers=[CT], body='{"sql":"SELECT 1","validate_only":"true"}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("unknown-field", req(headers=[CT], body='{"sql":"SELECT 1","sqll":"x"}'), lambda r: "400" in statuses(r)[:1], "400"),
        ("get-query", req(method="GET", path="/v1/query?sql=SELECT%201"), lambda r: statuses(r)[:1] in (["405"], ["404"], ["400"]), "405/404"),
        ("method-override", req(method="GET", path="/v1/query", headers=[CT, "X-HTTP-Method-Override: POST"], body=OK1), lambda r: statuses(r)[:1] in (["405"], ["404"], ["400"]), "405"),
        ("path-dotdot", req(path="/v1/../v1/query", headers=[CT], body=OK1), lambda r: True, "record"),
        ("path-double-slash", req(path="//v1/query", headers=[CT], body=OK1), lambda r: True, "record"),
        ("path-case", req(path="/V1/QUERY", headers=[CT], body=OK1), lambda r: True, "record"),
        ("path-encoded", req(path="/v1/%71uery", headers=[CT], body=OK1), lambda r: True, "record"),
        ("http09", b"GET /healthz\r\n\r\n", lambda r: "200 OK" not in r or True, "record"),
        ("header-folding", req(headers=[CT, "X-A: a", " folded: b"], body=OK1), lambda r: statuses(r)[:1] in (["400"],), "400"),
        ("huge-header", req(headers=[CT, "X-Big: " + "a" * 200000], body=OK1), lambda r: statuses(r)[:1] in (["431"], ["400"], ["413"]) or r == "", "431/400"),
        ("malformed-code", b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", lambda r: '"request:bad-field"' not in r, "not request:bad-field"),
    ]


def http():
    n = 0
    for pid, data, ok, want in http_cases():
        n += 1
        try:
            r = raw(SQLITE, data, wait=3.0)
        except Exception as e:
            r = f"EXC {e}"
        st = statuses(r)
        good = ok(r)
        report("PASS" if good else "FAIL", "http", pid, "sqlite", ",".join(st) or "-", f"want {want}; codes={codes(r)} " + (r.split("\r\n\r\n", 1)[-1][:120].replace("\n", " ")))
    return n


def auth():
    n = 0
    P = AUTHP
    q1 = lambda db: json.dumps({"sql": "SELECT count(*) FROM projects", "database": db})
    cases = [
        ("none", [CT], q1("demo"), "401"),
        ("wrong", [CT, "Authorization: Bearer nope"], q1("demo"), "401"),
        ("lower-bearer", [CT, "Authorization: bearer " + TA], q1("demo"), None),
        ("double-space", [CT, "Authorization: Bearer  " + TA], q1("demo"), None),
        ("trailing-space", [CT, "Authorization: Bearer " + TA + " "], q1("demo"), None),
        ("token-prefix", [CT, "Authorization: Bearer " + TA[:-1]], q1("demo"), "401"),
        ("token-extra", [CT, "Authorization: Bearer " + TA + "A"], q1("demo"), "401"),
        ("token-upper", [CT, "Authorization: Bearer " + TA.upper()], q1("demo"), "401"),
        ("basic", [CT, "Authorization: Basic " + TA], q1("demo"), "401"),
        ("token-only", [CT, "Authorization: " + TA], q1("demo"), "401"),
        ("two-auth-good-bad", [CT, "Authorization: Bearer " + TA, "Authorization: Bearer nope"], q1("demo"), "400|401"),
        ("two-auth-bad-good", [CT, "Authorization: Bearer nope", "Authorization: Bearer " + TA], q1("demo"), "400|401"),
        ("two-auth-a-b", [CT, "Authorization: Bearer " + TA, "Authorization: Bearer " + TB], q1("demo2"), "400|401|403"),
        ("a-on-demo2", [CT, "Authorization: Bearer " + TA], q1("demo2"), "403"),
        ("b-on-demo", [CT, "Authorization: Bearer " + TB], q1("demo"), "403"),
        ("a-no-db", [CT, "Authorization: Bearer " + TA], json.dumps({"sql": "SELECT 1"}), None),
        ("a-db-case", [CT, "Authorization: Bearer " + TA], q1("DEMO2"), "403|404|400"),
        ("a-db-unknown", [CT, "Authorization: Bearer " + TA], q1("nope"), "403|404|400"),
        ("query-token", [CT], q1("demo"), "401"),
    ]
    for pid, hdr, body, want in cases:
        n += 1
        path = "/v1/query?access_token=" + TA if pid == "query-token" else "/v1/query"
        r = raw(P, req(headers=hdr, body=body, port=P, path=path))
        st = (statuses(r) or ["-"])[0]
        good = True if want is None else st in want.split("|")
        if TA in r or TB in r:
            good = False
        report("PASS" if good else "FAIL", "auth", pid, "auth", st, f"want {want}; " + r.split("\r\n\r\n", 1)[-1][:140])
    for pid, path, hdr, want in [
        ("schema-a-demo2", "/v1/schema?database=demo2", ["Authorization: Bearer " + TA], "403"),
        ("schema-none", "/v1/schema?database=demo", [], "401"),
        ("schema-dup-param", "/v1/schema?database=demo&database=demo2", ["Authorization: Bearer " + TA], "403|400"),
        ("metrics-noauth", "/metrics", [], None),
        ("readyz-noauth", "/readyz", [], None),
        ("openapi", "/openapi.json", [], None),
    ]:
        n += 1
        r = raw(P, req(method="GET", path=path, headers=hdr, port=P))
        st = (statuses(r) or ["-"])[0]
        good = True if want is None else st in want.split("|")
        body = r.split("\r\n\r\n", 1)[-1]
        leak = [k for k in ("agent-a", "agent-b") if k in body]
        report("PASS" if good else "FAIL", "auth", pid, "auth", st, f"want {want}; key names in body: {leak}; " + body[:100].replace("\n", " "))
    # spotlight: untrusted values must arrive wrapped; derived text too
    for pid, sql in [("spotlight-col", "SELECT explanation FROM span_annotations WHERE explanation LIKE '%IMPORTANT%' LIMIT 1"),
                     ("spotlight-derived", "SELECT upper(explanation) AS v FROM span_annotations WHERE explanation LIKE '%IMPORTANT%' LIMIT 1"),
                     ("spotlight-json", "SELECT json_object('k', explanation) AS v FROM span_annotations WHERE explanation LIKE '%IMPORTANT%' LIMIT 1"),
                     ("spotlight-union", "SELECT 'a' AS v UNION ALL SELECT explanation FROM span_annotations WHERE explanation LIKE '%IMPORTANT%'"),
                     ("spotlight-group_concat", "SELECT group_concat(explanation, ' ') AS v FROM span_annotations WHERE explanation LIKE '%IMPORTANT%' AND id < 900")]:
        n += 1
        r = raw(P, req(headers=[CT, "Authorization: Bearer " + TB], body=json.dumps({"sql": sql, "database": "demo2"}), port=P))
        body = r.split("\r\n\r\n", 1)[-1]
        try:
            j = json.loads(body)
        except Exception:
            j = {}
        vals = [row[0] for row in j.get("rows", []) if isinstance(row[0], str) and "IMPORTANT" in row[0]]
        unwrapped = [v for v in vals if v.find("IMPORTANT") == v.find("IMPORTANT")]  # placeholder, judged below
        report("NOTE", "auth", pid, "auth", (statuses(r) or ["-"])[0], body[:260])
    return n




def conns():
    """Connection caps and slow clients (bounded: at most 80 sockets, all closed at the end)."""
    n = 0
    P = SQLITE
    def health():
        try:
            r = raw(P, req(method="GET", path="/healthz", port=P), wait=2.5)
        except Exception as e:
            r = f"EXC {e}"
        return (statuses(r) or ["-"])[0], codes(r)
    def query1():
        try:
            r = raw(P, req(headers=[CT], body=OK1, port=P), wait=2.5)
        except Exception as e:
            r = f"EXC {e}"
        return (statuses(r) or ["-"])[0], codes(r)
    # 1. 70 connections dribbling headers
    socks = []
    for i in range(70):
        s = socket.create_connection(("127.0.0.1", P), timeout=5)
        s.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        socks.append(s)
    time.sleep(0.5)
    h = health(); q = query1()
    n += 2
    report("PASS" if h[0] == "200" else "FAIL", "conn", "cap-healthz-while-70-slow", "sqlite", h[0], str(h[1]))
    report("PASS" if q[0] == "503" and "limit:connections" in q[1] else "FAIL", "conn", "cap-query-while-70-slow", "sqlite", q[0], str(q[1]))
    # the slow ones must be cut after header_timeout_ms (5 s)
    t0 = time.time()
    closed_at = []
    for s in socks[:5]:
        s.settimeout(12)
        try:
            while True:
                s.sendall(b"X-Slow: a\r\n")
                s.settimeout(1.0)
                try:
                    d = s.recv(4096)
                    if d == b"" or d:
                        closed_at.append(time.time() - t0); break
                except socket.timeout:
                    pass
                if time.time() - t0 > 12:
                    closed_at.append(None); break
        except Exception:
            closed_at.append(time.time() - t0)
    n += 1
    report("PASS" if all(c is not None and c < 8 for c in closed_at) else "FAIL", "conn", "slow-header-cut", "sqlite", "-", f"cut after {closed_at} s (header_timeout_ms 5000)")
    for s in socks:
        s.close()
    time.sleep(1.0)
    # 2. 64 idle keep-alive connections after one complete request each: do they hold the cap?
    socks = []
    for i in range(66):
        s = socket.create_connection(("127.0.0.1", P), timeout=5)
        s.sendall(req(method="GET", path="/healthz", port=P).replace(b"Connection: close\r\n", b""))
        try:
            s.recv(4096)
        except Exception:
            pass
        socks.append(s)
    for wait in (1, 7):
        time.sleep(wait)
        q = query1()
        n += 1
        report("PASS" if q[0] == "200" else "FAIL", "conn", f"idle-keepalive-66-after-{wait}s", "sqlite", q[0], f"{q[1]} (idle keep-alive sockets from one address hold the cap?)")
    for s in socks:
        s.close()
    time.sleep(1.0)
    # 3. body dribble: headers fast, body 1 byte/s
    s = socket.create_connection(("127.0.0.1", P), timeout=20)
    s.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
    t0 = time.time(); cut = None
    s.settimeout(1.0)
    while time.time() - t0 < 16:
        try:
            s.sendall(b" ")
            d = s.recv(4096)
            if d is not None:
                cut = time.time() - t0; break
        except socket.timeout:
            continue
        except Exception:
            cut = time.time() - t0; break
    s.close()
    n += 1
    report("PASS" if cut is not None and cut < 12 else "FAIL", "conn", "slow-body-cut", "sqlite", "-", f"cut after {cut} s (whole request within 10 s)")
    h = health(); n += 1
    report("PASS" if h[0] == "200" else "FAIL", "conn", "healthz-after", "sqlite", h[0], "")
    return n




def queue():
    """Deadline spent in the queue, and a client that leaves (SQLite: 2 permits)."""
    n = 0
    P = SQLITE
    def ready():
        st, j, _ = post(P, None, method="GET", path="/readyz", headers={})
        return j["admission"]["demo"]
    before = ready()
    slow = "SELECT count(*) FROM spans a, spans b, spans c"
    ths = [threading.Thread(target=lambda: query(P, slow, timeout_ms=4000)) for _ in range(2)]
    for t in ths:
        t.start()
    time.sleep(0.4)
    t0 = time.time()
    st, j = query(P, "SELECT 1", timeout_ms=1000)
    dt = time.time() - t0
    for t in ths:
        t.join()
    after = ready()
    n += 1
    msg = j.get("error", {}).get("message", "")
    good = st == 504 and after.get("expired_in_queue", 0) > before.get("expired_in_queue", 0) and "narrow" not in msg
    report("PASS" if good else "FAIL", "queue", "deadline-in-queue", "sqlite", st, f"{dt:.2f}s expired_in_queue {before.get('expired_in_queue')}->{after.get('expired_in_queue')} msg={msg[:120]}")
    # client leaves: its statement must stop and give the permit back
    s = socket.create_connection(("127.0.0.1", P), timeout=5)
    s.sendall(req(headers=[CT], body=json.dumps({"sql": slow, "timeout_ms": 30000}), port=P))
    time.sleep(0.7)
    busy = ready().get("in_use")
    s.close()
    time.sleep(1.0)
    later = ready().get("in_use")
    n += 1
    report("PASS" if busy == 1 and later == 0 else "FAIL", "queue", "client-leaves", "sqlite", "-", f"in_use while running {busy}, 1 s after hang-up {later}")
    # the same on PostgreSQL
    def ready_pg():
        st, j, _ = post(PG, None, method="GET", path="/readyz", headers={})
        return j["admission"]["demo"]
    s = socket.create_connection(("127.0.0.1", PG), timeout=5)
    s.sendall(req(headers=[CT], body=json.dumps({"sql": slow, "timeout_ms": 30000}), port=PG))
    time.sleep(0.7)
    busy = ready_pg().get("in_use")
    s.close()
    time.sleep(1.5)
    later = ready_pg().get("in_use")
    act, _ = psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%spans a, spans b, spans c%' AND state = 'active' AND pid <> pg_backend_pid()")
    n += 1
    report("PASS" if busy == 1 and later == 0 else "FAIL", "queue", "client-leaves", "pg", "-", f"in_use while running {busy}, after hang-up {later}; active on server {act}")
    # validate_only answer shape
    st, j = query(P, "SELECT id FROM projects", validate_only=True)
    n += 1
    report("PASS" if st == 200 and j.get("validated") is True and "rows" not in j else "FAIL", "queue", "validate-only-shape", "sqlite", st, json.dumps(j)[:120])
    return n




WRONG2 = [
    ("random-range", "SELECT count(*) FROM spans WHERE random() < 0 OR random() >= 1", None),
    ("numeric-cast-div", "SELECT CAST(10 AS numeric) / 4", None),
    ("decimal-cast-div", "SELECT CAST(count(*) AS decimal) / 2 FROM projects", None),
    ("ratio-numeric", "SELECT round(CAST(sum(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS numeric) / count(*), 4) FROM spans", None),
    ("round-numeric-div", "SELECT round(CAST(count(*) AS numeric) / 3, 2) FROM projects", None),
    ("numeric-text-cast-div", "SELECT CAST('10' AS numeric) / 4", None),
    ("round-1005", "SELECT round(1.005, 2), round(2.675, 2), round(-0.5)", None),
    ("mod-float", "SELECT 10 % 3.5", None),
    ("shift-big", "SELECT 1 << 40", None),
    ("text-leading-zero", "SELECT '01' = 1", None),
    ("cast-sci-int", "SELECT CAST('1e3' AS integer)", None),
    ("cast-hex-int", "SELECT CAST('0x10' AS integer)", None),
    ("ceil-negzero", "SELECT ceil(-0.5)", None),
    ("like-escape-default", "SELECT 'a_c' LIKE 'a\\_c', 'abc' LIKE 'a\\_c', 'a%c' LIKE 'a\\%c'", None),
    ("ilike-nonascii", "SELECT 'é' ILIKE 'É'", None),
    ("count-distinct-lower", "SELECT count(DISTINCT lower(name)) FROM spans", None),
    ("correlated-count", "SELECT (SELECT count(*) FROM spans s WHERE s.trace_id = t.trace_id) FROM traces t ORDER BY t.id LIMIT 3", None),
    ("limit-offset-only", "SELECT id FROM projects ORDER BY id OFFSET 2", None),
    ("limit-all", "SELECT id FROM projects ORDER BY id LIMIT ALL", None),
    ("limit-null", "SELECT id FROM projects ORDER BY id LIMIT NULL", None),
    ("limit-neg", "SELECT id FROM projects ORDER BY id LIMIT -1", None),
    ("offset-neg", "SELECT id FROM projects ORDER BY id OFFSET -1", None),
    ("limit-expr", "SELECT id FROM projects ORDER BY id LIMIT 1 + 1", None),
    ("limit-subq", "SELECT id FROM projects ORDER BY id LIMIT (SELECT 2)", None),
    ("fetch-first", "SELECT id FROM projects ORDER BY id DESC FETCH FIRST 2 ROWS ONLY", None),
    ("union-limit", "SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3 ORDER BY 1 DESC LIMIT 2", None),
    ("group-by-alias-real", "SELECT kind AS name, count(*) FROM spans GROUP BY name ORDER BY 2 DESC LIMIT 3", None),
    ("order-by-alias-real-desc", "SELECT id, kind AS name FROM spans ORDER BY name DESC, id LIMIT 3", None),
    ("having-alias", "SELECT kind, count(*) AS n FROM spans GROUP BY kind HAVING count(*) > 5000 ORDER BY n", None),
    ("distinct-order-expr", "SELECT DISTINCT kind FROM spans ORDER BY kind DESC", None),
    ("window-range-peers", "SELECT id, sum(id) OVER (ORDER BY project_id) FROM traces ORDER BY id LIMIT 3", None),
    ("window-frame-groups", "SELECT id, count(*) OVER (ORDER BY project_id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM traces ORDER BY id LIMIT 3", None),
    ("window-frame-range-num", "SELECT id, count(*) OVER (ORDER BY score RANGE BETWEEN 0.5 PRECEDING AND CURRENT ROW) FROM span_annotations WHERE score IS NOT NULL ORDER BY id LIMIT 3", None),
    ("ntile-nulls", "SELECT id, ntile(3) OVER (ORDER BY label) FROM span_annotations ORDER BY id LIMIT 5", None),
    ("lag-nulls-order", "SELECT id, lag(id) OVER (ORDER BY label DESC, id) FROM span_annotations ORDER BY id LIMIT 5", None),
    ("max-text-nulls", "SELECT max(label), min(label) FROM span_annotations", None),
    ("order-coalesce", "SELECT coalesce(label, '~') AS l, count(*) FROM span_annotations GROUP BY 1 ORDER BY 1", None),
    ("exists-limit0", "SELECT EXISTS (SELECT 1 FROM projects LIMIT 0)", None),
    ("in-subquery-nulls", "SELECT count(*) FROM spans WHERE id NOT IN (SELECT parent_id FROM spans)", None),
    ("cast-score-text", "SELECT CAST(score AS text) FROM span_annotations WHERE score IS NOT NULL ORDER BY id LIMIT 3", None),
    ("score-concat", "SELECT 'score=' || score FROM span_annotations WHERE score IS NOT NULL ORDER BY id LIMIT 2", None),
    ("sum-float-exact", "SELECT sum(x) FROM (VALUES (0.1), (0.2), (0.3)) v(x)", None),
    ("avg-numeric-literal", "SELECT avg(x) FROM (VALUES (1), (2)) v(x)", None),
    ("int-div-agg", "SELECT sum(id) / count(*) FROM projects", None),
    ("string-agg-order", "SELECT group_concat(name, ',') FROM (SELECT name FROM projects ORDER BY name) t", "SELECT string_agg(name, ',') FROM (SELECT name FROM projects ORDER BY name) t"),
    ("date-fn-text", "SELECT date('2026-10-05T23:30:00Z')", None),
    ("date-fn-ts-col", "SELECT date(created_at) FROM projects ORDER BY id LIMIT 2", None),
    ("current-date-cmp", "SELECT count(*) FROM projects WHERE created_at < CURRENT_DATE", None),
    ("between-text-ts", "SELECT count(*) FROM spans WHERE start_time BETWEEN '2026-10-05T00:00:00Z' AND '2026-10-05T23:59:59.999Z'", None),
    ("ts-eq-literal-ms", "SELECT count(*) FROM spans WHERE start_time = '2026-10-05T14:00:00.5Z'", None),
    ("ts-order-mixed-offsets", "SELECT count(*) FROM spans WHERE start_time >= '2026-10-05T00:00:00-12:00' AND start_time < '2026-10-05T00:00:00+14:00'", None),
    ("ts-groupby-date", "SELECT date(start_time) AS d, count(*) FROM spans GROUP BY d ORDER BY d DESC LIMIT 2", None),
    ("ts-min-max-text", "SELECT min(start_time) < max(end_time) FROM spans", None),
    ("ts-compare-cols-across", "SELECT count(*) FROM spans s JOIN traces t ON s.trace_id = t.trace_id WHERE s.start_time < t.start_time", None),
    ("ts-compare-created", "SELECT count(*) FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE a.created_at > s.end_time", None),
]


def wrong2():
    global WRONG
    WRONG = WRONG2
    return wrong()




WRONG3 = [
    ("implicit-name-cast-order", "SELECT CAST(id AS text) FROM traces ORDER BY id LIMIT 3", None),
    ("implicit-name-cast-order-float", "SELECT CAST(cost_usd AS text) FROM spans WHERE cost_usd > 0 ORDER BY cost_usd LIMIT 3", None),
    ("virtual-latency-eq", "SELECT count(*) FROM spans WHERE latency_ms = 60",
     "SELECT count(*) FROM spans WHERE round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3) = 60"),
    ("virtual-latency-range", "SELECT count(*) FROM spans WHERE latency_ms >= 1000 AND latency_ms <= 1000.5",
     "SELECT count(*) FROM spans WHERE round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3) BETWEEN 1000 AND 1000.5"),
    ("virtual-latency-values", "SELECT id, latency_ms FROM spans ORDER BY id LIMIT 5",
     "SELECT id, round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3) FROM spans ORDER BY id LIMIT 5"),
    ("pg-numeric-rounded", "SELECT 12345.6789, 123456789012.345, round(CAST(sum(cost_usd) AS numeric), 6) FROM spans", None),
]


def wrong3():
    global WRONG
    WRONG = WRONG3
    return wrong()


if __name__ == "__main__":
    cats = sys.argv[1:] or ["launder"]
    for c in cats:
        globals()[c]()
    fails = [r for r in results if r[0] == "FAIL"]
    print(f"# {len(results)} probes, {len(fails)} FAIL", flush=True)
