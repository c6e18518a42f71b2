-- tester8 (session 8): t8_shapes
-- database: demo

-- id: t8shp-001
SELECT count(*) FROM spans WHERE id < ANY(ARRAY[3, NULL]);

-- id: t8shp-002
SELECT count(*) FROM spans WHERE id > ALL(ARRAY[3, NULL]);

-- id: t8shp-003
SELECT count(*) FROM spans WHERE id >= ALL(ARRAY[]::bigint[]);

-- id: t8shp-004
SELECT count(*) FROM spans WHERE id = ANY(ARRAY[]::bigint[]);

-- id: t8shp-005
SELECT 5 > ANY(ARRAY[1, NULL]), 5 < ANY(ARRAY[1, NULL]), 5 <> ALL(ARRAY[1, NULL]), 5 = ALL(ARRAY[5, 5]), 5 = ALL(ARRAY[5, NULL]);

-- id: t8shp-006
SELECT NULL = ANY(ARRAY[1, 2]), 1 = ANY(ARRAY[1, NULL]), 3 = ANY(ARRAY[1, NULL]), 3 <> ANY(ARRAY[3, NULL]);

-- id: t8shp-007
SELECT 'b' > ANY(ARRAY['a', 'c']), 'b' >= ALL(ARRAY['a', 'b']), 'B' < ALL(ARRAY['a', 'b']);

-- id: t8shp-008
SELECT 'tool' || '' LIKE ANY(ARRAY['to%', 'x%']), 'ab' LIKE ALL(ARRAY['a%', '%c']);

-- id: t8shp-009
SELECT count(*) FROM spans WHERE name LIKE ANY(ARRAY['tool:%', 'chat%']);

-- id: t8shp-010
SELECT count(*) FROM spans WHERE name ILIKE ANY(ARRAY['TOOL:%']);

-- id: t8shp-011
SELECT count(*) FROM spans WHERE name ~ ANY(ARRAY['^tool', 'chat$']);

-- id: t8shp-012
SELECT count(*) FROM spans WHERE kind <> ALL(ARRAY['LLM', 'TOOL']);

-- id: t8shp-013
SELECT count(*) FROM spans WHERE cost_usd > ANY(ARRAY[0.001, 0.002]);

-- id: t8shp-014
SELECT count(*) FROM spans WHERE cost_usd > ALL(ARRAY[0.001, NULL]);

-- id: t8shp-015
SELECT count(*) FROM spans WHERE NOT (cost_usd > ALL(ARRAY[0.001, NULL]));

-- id: t8shp-016
SELECT count(*) FROM spans WHERE start_time > ANY(ARRAY[TIMESTAMPTZ '2026-10-01T00:00:00Z', TIMESTAMPTZ '2026-11-01T00:00:00Z']);

-- id: t8shp-017
SELECT count(*) FROM spans WHERE start_time > ALL(ARRAY['2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z']::timestamptz[]);

-- id: t8shp-018
SELECT count(*) FROM spans WHERE id = ANY('{1,2,3}'::bigint[]);

-- id: t8shp-019
SELECT count(*) FROM spans WHERE id = ANY(ARRAY[1, 2.5]);

-- id: t8shp-020
SELECT count(*) FROM spans WHERE (id = ANY(ARRAY[1, 2])) IS NULL;

-- id: t8shp-021
SELECT id, id = ANY(ARRAY[1, NULL]) AS a, id <> ALL(ARRAY[1, NULL]) AS b FROM projects ORDER BY id;

-- id: t8shp-022
SELECT id, parent_id = ANY(ARRAY[1, 2]) AS p FROM spans ORDER BY id LIMIT 4;

-- id: t8shp-023
SELECT count(*) FROM spans WHERE id = ANY(SELECT span_id FROM span_annotations);

-- id: t8shp-024
SELECT count(*) FROM spans WHERE id > ALL(SELECT span_id FROM span_annotations WHERE span_id < 100);

-- id: t8shp-025
SELECT count(*) FROM spans WHERE parent_id <> ALL(SELECT id FROM spans WHERE kind = 'AGENT');

-- id: t8shp-026
SELECT count(*) FROM spans WHERE parent_id NOT IN (SELECT parent_id FROM spans WHERE id < 5);

-- id: t8shp-027
SELECT count(*) FROM spans WHERE id NOT IN (1, NULL);

-- id: t8shp-028
SELECT DISTINCT ON (kind) kind, id, name FROM spans ORDER BY kind, id DESC;

-- id: t8shp-029
SELECT DISTINCT ON (kind, status) kind, status, cost_usd FROM spans ORDER BY kind, status, cost_usd DESC NULLS LAST, id;

-- id: t8shp-030
SELECT DISTINCT ON (kind) kind, cost_usd FROM spans ORDER BY kind, cost_usd NULLS FIRST, id;

-- id: t8shp-031
SELECT DISTINCT ON (kind) kind, cost_usd FROM spans ORDER BY kind, cost_usd DESC, id;

-- id: t8shp-032
SELECT DISTINCT ON (trace_id) trace_id, name FROM spans WHERE id < 40 ORDER BY trace_id, start_time DESC, id;

-- id: t8shp-033
SELECT id, cost_usd FROM spans ORDER BY cost_usd DESC NULLS LAST FETCH FIRST 3 ROWS WITH TIES;

-- id: t8shp-034
SELECT kind FROM spans ORDER BY kind FETCH FIRST 1 ROWS WITH TIES;

-- id: t8shp-035
SELECT id, cost_usd FROM spans ORDER BY cost_usd FETCH FIRST 2 ROWS WITH TIES;

-- id: t8shp-036
SELECT name FROM projects ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY;

-- id: t8shp-037
SELECT id FROM spans ORDER BY cost_usd, id LIMIT 3;

-- id: t8shp-038
SELECT id FROM spans ORDER BY cost_usd DESC, id LIMIT 3;

-- id: t8shp-039
SELECT id, cost_usd FROM spans WHERE kind = 'LLM' ORDER BY cost_usd NULLS FIRST, id LIMIT 3;

-- id: t8shp-040
SELECT kind, status FROM spans GROUP BY kind, status ORDER BY status DESC, kind;

-- id: t8shp-041
SELECT kind FROM spans UNION SELECT status FROM spans ORDER BY 1;

-- id: t8shp-042
SELECT kind FROM spans INTERSECT SELECT 'LLM' EXCEPT SELECT 'TOOL';

-- id: t8shp-043
SELECT 1 UNION SELECT 1.0 UNION SELECT 2;

-- id: t8shp-044
SELECT 1 AS x UNION ALL SELECT 2.5 ORDER BY 1;

-- id: t8shp-045
SELECT 'a' AS x UNION SELECT 'A' ORDER BY 1;

-- id: t8shp-046
SELECT NULL UNION SELECT NULL;

-- id: t8shp-047
SELECT count(*) FROM (SELECT kind FROM spans EXCEPT ALL SELECT kind FROM spans WHERE id < 100) s;

-- id: t8shp-048
SELECT count(*) FROM (SELECT kind FROM spans INTERSECT ALL SELECT kind FROM spans WHERE id < 100) s;

-- id: t8shp-049
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r;

-- id: t8shp-050
WITH RECURSIVE t AS (SELECT id, parent_id, 0 AS depth FROM spans WHERE id = 1 UNION ALL SELECT s.id, s.parent_id, t.depth + 1 FROM spans s JOIN t ON s.parent_id = t.id) SELECT depth, count(*) FROM t GROUP BY depth ORDER BY depth;

-- id: t8shp-051
WITH x AS (SELECT kind, count(*) n FROM spans GROUP BY kind) SELECT kind, n, n * 100.0 / sum(n) OVER () AS pct FROM x ORDER BY kind;

-- id: t8shp-052
SELECT CASE WHEN cost_usd > 0.001 THEN 'hi' WHEN cost_usd > 0 THEN 'lo' END AS b, count(*) FROM spans GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- id: t8shp-053
SELECT CASE kind WHEN 'LLM' THEN 1 ELSE 0.5 END AS w, count(*) FROM spans GROUP BY 1 ORDER BY 1;

-- id: t8shp-054
SELECT CASE WHEN true THEN 1 ELSE 2.5 END, CASE WHEN false THEN 1 END, CASE WHEN NULL THEN 'a' ELSE 'b' END;

-- id: t8shp-055
SELECT coalesce(cost_usd, 0) AS c FROM spans ORDER BY id LIMIT 2;

-- id: t8shp-056
SELECT coalesce(NULL, 1, 2.5), coalesce(1.50, 2), nullif(1, 1.0), nullif(2.50, 2);

-- id: t8shp-057
SELECT id, coalesce(parent_id, 0) + 0.5 FROM spans ORDER BY id LIMIT 2;

-- id: t8shp-058
SELECT cost_usd IS DISTINCT FROM NULL, cost_usd IS NOT DISTINCT FROM 0.001 FROM spans ORDER BY id LIMIT 3;

-- id: t8shp-059
SELECT count(*) FROM spans WHERE parent_id IS DISTINCT FROM 1;

-- id: t8shp-060
SELECT count(*) FROM spans s WHERE EXISTS (SELECT 1 FROM span_annotations a WHERE a.span_id = s.id AND a.score > 0.5);

-- id: t8shp-061
SELECT (SELECT max(id) FROM spans), (SELECT name FROM projects WHERE id = 999);

-- id: t8shp-062
SELECT kind, count(*) FROM spans GROUP BY ROLLUP (kind) ORDER BY kind NULLS LAST;

-- id: t8shp-063
SELECT kind, status, count(*), grouping(kind, status) FROM spans GROUP BY CUBE (kind, status) ORDER BY kind NULLS LAST, status NULLS LAST;

-- id: t8shp-064
SELECT kind, status, count(*) FROM spans GROUP BY GROUPING SETS ((kind), (status), ()) ORDER BY kind NULLS LAST, status NULLS LAST;

-- id: t8shp-065
SELECT kind, count(*) FROM spans GROUP BY kind HAVING count(*) > 1000 ORDER BY kind;

-- id: t8shp-066
SELECT count(*) FROM spans HAVING count(*) > 0;

-- id: t8shp-067
SELECT 1 WHERE false;

-- id: t8shp-068
SELECT count(*), sum(cost_usd), avg(cost_usd), max(name), bool_or(true), string_agg(name, ',') FROM spans WHERE false;

-- id: t8shp-069
SELECT bool_and(x), bool_or(x), every(x) FROM (VALUES (true), (NULL), (false)) t(x);

-- id: t8shp-070
SELECT bool_and(cost_usd > 0), bool_or(cost_usd > 0.01), every(kind <> '') FROM spans;

-- id: t8shp-071
SELECT count(DISTINCT kind), count(DISTINCT (kind, status)), count(DISTINCT cost_usd) FROM spans;

-- id: t8shp-072
SELECT count(DISTINCT x) FROM (VALUES ('a'), ('A'), (NULL), ('a')) t(x);

-- id: t8shp-073
SELECT avg(x) FROM (VALUES (1), (2)) t(x);

-- id: t8shp-074
SELECT avg(id), avg(id)::float8, avg(parent_id) FROM spans;

-- id: t8shp-075
SELECT kind, avg(id) FROM spans GROUP BY kind ORDER BY kind;

-- id: t8shp-076
SELECT sum(x) FROM (VALUES (1.5), (2.25)) t(x);

-- id: t8shp-077
SELECT sum(cost_usd)::numeric(12,6), avg(cost_usd) * 1000 FROM spans;

-- id: t8shp-078
SELECT max(cost_usd), min(cost_usd), max(parent_id) FROM spans;

-- id: t8shp-079
SELECT string_agg(kind, ',') FILTER (WHERE kind = 'x') FROM spans;

-- id: t8shp-080
SELECT string_agg(DISTINCT kind, ', ' ORDER BY kind) FILTER (WHERE status = 'ERROR') FROM spans;

-- id: t8shp-081
SELECT string_agg(name, '' ORDER BY name) FROM projects;

-- id: t8shp-082
SELECT string_agg(id::text, ',' ORDER BY id DESC) FROM projects;

-- id: t8shp-083
SELECT string_agg(x, ',') FROM (VALUES (NULL::text), (NULL)) t(x);

-- id: t8shp-084
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id), percentile_disc(0.5) WITHIN GROUP (ORDER BY id) FROM projects;

-- id: t8shp-085
SELECT percentile_cont(ARRAY[0.25, 0.5]) WITHIN GROUP (ORDER BY id) FROM projects;

-- id: t8shp-086
SELECT mode() WITHIN GROUP (ORDER BY x) FROM (VALUES (2), (1), (1), (2)) t(x);

-- id: t8shp-087
SELECT mode() WITHIN GROUP (ORDER BY x DESC) FROM (VALUES (2), (1), (1), (2)) t(x);

-- id: t8shp-088
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY start_time) FROM traces;

-- id: t8shp-089
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (NULL), (3)) t(x);

-- id: t8shp-090
SELECT stddev(x), variance(x) FROM (VALUES (1e15::float8), (1e15::float8 + 1), (1e15::float8 + 2)) t(x);

-- id: t8shp-091
SELECT stddev(x), var_samp(x) FROM (VALUES (100000000.1::float8), (100000000.2::float8), (100000000.3::float8)) t(x);

-- id: t8shp-092
SELECT corr(x, x), regr_slope(x, x) FROM (VALUES (1::float8), (2), (3)) t(x);

-- id: t8shp-093
SELECT stddev(id) FROM spans;

-- id: t8shp-094
SELECT id, row_number() OVER w, rank() OVER w, dense_rank() OVER w FROM spans WHERE id < 10 WINDOW w AS (ORDER BY kind) ORDER BY id;

-- id: t8shp-095
SELECT id, percent_rank() OVER (ORDER BY kind), cume_dist() OVER (ORDER BY kind), ntile(3) OVER (ORDER BY id) FROM spans WHERE id < 10 ORDER BY id;

-- id: t8shp-096
SELECT id, lag(id, 2, 0) OVER (ORDER BY id), lead(name) OVER (ORDER BY id), first_value(name) OVER (ORDER BY id DESC), last_value(id) OVER (ORDER BY id) FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-097
SELECT id, nth_value(id, 2) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-098
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), avg(id) OVER (ORDER BY id ROWS 2 PRECEDING) FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-099
SELECT id, sum(cost_usd) OVER (PARTITION BY kind ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM spans WHERE id < 20 ORDER BY id;

-- id: t8shp-100
SELECT id, count(*) OVER (ORDER BY kind) FROM spans WHERE id < 10 ORDER BY id;

-- id: t8shp-101
SELECT id, avg(id) OVER (PARTITION BY kind) FROM spans WHERE id < 10 ORDER BY id;

-- id: t8shp-102
SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM spans WHERE id < 8 ORDER BY id;

-- id: t8shp-103
SELECT id, count(*) OVER (ORDER BY start_time RANGE BETWEEN INTERVAL '1 second' PRECEDING AND CURRENT ROW) FROM spans WHERE id < 8 ORDER BY id;

-- id: t8shp-104
SELECT id, sum(id) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-105
SELECT kind, count(*), sum(count(*)) OVER (), round(100.0 * count(*) / sum(count(*)) OVER (), 2) FROM spans GROUP BY kind ORDER BY kind;

-- id: t8shp-106
SELECT id, count(*) FILTER (WHERE kind = 'LLM') OVER (ORDER BY id) FROM spans WHERE id < 8 ORDER BY id;

-- id: t8shp-107
SELECT id, string_agg(name, ',') OVER (ORDER BY id) FROM spans WHERE id < 4 ORDER BY id;

-- id: t8shp-108
SELECT id, sum(id) OVER (ORDER BY id) / 2 FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-109
SELECT id, sum(id) OVER () / count(*) OVER () FROM spans WHERE id < 6 ORDER BY id;

-- id: t8shp-110
SELECT sum(id) / count(id) FROM projects;

-- id: t8shp-111
SELECT sum(parent_id) / 3, sum(user_id) / count(*) FROM spans, (SELECT 1 AS user_id) u WHERE spans.id < 10;

-- id: t8shp-112
SELECT project_id, sum(user_id) / count(*) FROM traces GROUP BY project_id ORDER BY project_id;

-- id: t8shp-113
SELECT sum(id) % 7, sum(id) * 1 / 3 FROM projects;

