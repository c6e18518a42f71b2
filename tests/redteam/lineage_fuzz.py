#!/usr/bin/env python3
"""Bounded random lineage fuzz: nested text functions over untrusted columns, in several statement positions,
on both gateways; FAIL when an unflagged text cell carries 16+ characters of an untrusted value."""
import sys, random, json
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from rt import *

S_FUN = ["lower({})", "upper({})", "substr({}, 1, 300)", "trim({})", "ltrim({})", "rtrim({})", "replace({}, 'zq', 'zq')",
         "{} || ''", "'' || {}", "coalesce({}, '')", "ifnull({}, '')", "iif(1, {}, '')", "nullif({}, 'zq')", "max({}, '')",
         "min({}, '~~~~')", "printf('%s', {})", "json_extract(json_array({}), '$[0]')", "json_array({}) ->> 0",
         "json_object('k', {}) ->> 'k'", "CAST({} AS text)", "CASE WHEN 1 = 1 THEN {} END", "(SELECT {})",
         "json_extract(json_quote({}), '$')", "substr({}, 2)", "trim({}, 'zq')", "strftime({}, '2026-01-01')"]
P_FUN = ["lower({})", "upper({})", "initcap({})", "substr({}, 1, 300)", "left({}, 300)", "right({}, 300)",
         "split_part({}, 'zq', 1)", "reverse(reverse({}))", "concat({})", "concat_ws('', {})", "btrim({})", "ltrim({})",
         "rtrim({})", "replace({}, 'zq', 'zq')", "regexp_replace({}, 'zq', '')", "CAST({} AS varchar)",
         "jsonb_build_array({}) ->> 0", "jsonb_build_object('k', {}) ->> 'k'", "to_jsonb({}) #>> '{{}}'",
         "greatest({}, '')", "least({}, '~~~~')", "coalesce({}, '')", "nullif({}, 'zq')", "CASE WHEN true THEN {} END",
         "(SELECT {})", "{} || ''", "CAST({} AS text)", "jsonb_extract_path_text(jsonb_build_object('a', {}), 'a')",
         "split_part({}, 'zq', 1) || ''"]
S_BASE = ["explanation", "attributes ->> 'input.value'", "a.explanation"]
P_BASE = ["explanation", "attributes ->> 'input.value'", "a.explanation"]
WRAP = [
    "SELECT {e} AS v FROM span_annotations a, spans WHERE spans.id = a.span_id AND explanation IS NOT NULL",
    "SELECT v FROM (SELECT {e} AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id) t WHERE v IS NOT NULL",
    "WITH c AS (SELECT {e} AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id) SELECT v FROM c WHERE v IS NOT NULL",
    "SELECT 'a' AS v UNION ALL SELECT {e} FROM span_annotations a JOIN spans ON spans.id = a.span_id",
    "SELECT (SELECT {e} FROM span_annotations a JOIN spans ON spans.id = a.span_id WHERE explanation IS NOT NULL ORDER BY a.id LIMIT 1) AS v",
    "SELECT max({e}) AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id",
    "SELECT first_value({e}) OVER (ORDER BY a.id DESC) AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id",
    "SELECT column1 AS v FROM (VALUES ((SELECT max({e}) FROM span_annotations a JOIN spans ON spans.id = a.span_id))) t",
    "SELECT explanation AS v FROM (SELECT 'x' AS explanation) t RIGHT JOIN (SELECT {e} AS explanation FROM span_annotations a JOIN spans ON spans.id = a.span_id) s USING (explanation)",
    "SELECT CASE WHEN length(x) > 0 THEN x END AS v FROM (SELECT {e} AS x FROM span_annotations a JOIN spans ON spans.id = a.span_id) t",
]
P_WRAP = WRAP + [
    "SELECT t.v FROM span_annotations a JOIN spans ON spans.id = a.span_id, LATERAL (SELECT {e} AS v) t",
    "SELECT mode() WITHIN GROUP (ORDER BY {e}) AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id",
    "SELECT string_agg({e}, '|') AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id WHERE a.id < 30",
    "SELECT DISTINCT ON (a.label) {e} AS v FROM span_annotations a JOIN spans ON spans.id = a.span_id ORDER BY a.label, a.id",
]


def expr(funs, base, depth, rnd):
    e = rnd.choice(base)
    for _ in range(depth):
        e = rnd.choice(funs).format(e)
    return e


def main(n_per_backend=150, seed=11):
    rnd = random.Random(seed)
    fails = 0
    total = 0
    admitted = 0
    refused = {}
    for port, funs, base, wraps in ((SQLITE, S_FUN, S_BASE, WRAP), (PG, P_FUN, P_BASE, P_WRAP)):
        for i in range(n_per_backend):
            e = expr(funs, base, rnd.randint(1, 4), rnd)
            sql = rnd.choice(wraps).format(e=e)
            st, j = query(port, sql, limit=200)
            total += 1
            if st != 200:
                c = j.get('error', {}).get('code')
                refused[c] = refused.get(c, 0) + 1
                continue
            admitted += 1
            lk = leaks(j)
            if lk:
                fails += 1
                print("FAIL", "sqlite" if port == SQLITE else "pg", sql, "->", json.dumps(lk[:1], ensure_ascii=False)[:160], flush=True)
    print(f"# lineage fuzz: {total} statements, {admitted} answered 200, {fails} FAIL; refusals {refused}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
