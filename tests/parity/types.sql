-- Types at admission (issue #12, red team s3: tests/redteam/s3/bools.out, parity*.out): statements whose
-- answer depends on PostgreSQL's type of a value passed through derived tables, CTEs, set operations,
-- CASE and COALESCE (booleans), on numeric against double precision (round, EXTRACT, sum/avg of
-- integers), and PostgreSQL's type errors, which each gateway must refuse (the statement is its own
-- truth: PostgreSQL's error). Format: as tests/parity/chinook.sql.
-- database: demo

-- id: types-001
SELECT id, x FROM (SELECT id, status = 'OK' AS x FROM traces) s ORDER BY id LIMIT 5;

-- id: types-002
WITH t AS (SELECT id, status = 'ERROR' AS failed FROM traces) SELECT id, failed FROM t ORDER BY id LIMIT 5;

-- id: types-003
SELECT id, coalesce(status = 'OK', false) AS b FROM traces ORDER BY id LIMIT 5;

-- id: types-004
SELECT id, CASE WHEN status = 'OK' THEN true ELSE false END AS ok FROM traces ORDER BY id LIMIT 5;

-- id: types-005
SELECT id, status = 'OK' AS b FROM traces WHERE id <= 3 UNION ALL SELECT id, kind = 'LLM' FROM spans WHERE id <= 3 ORDER BY 1, 2;

-- id: types-006
SELECT ok, count(*) AS n FROM (SELECT status = 'OK' AS ok FROM traces) s GROUP BY ok ORDER BY ok;

-- id: types-007
SELECT x FROM (SELECT x FROM (SELECT id, session_id IS NULL AS x FROM traces) a ORDER BY id LIMIT 3) b;

-- id: types-008
SELECT id, (SELECT s.status = 'OK' FROM traces s WHERE s.id = t.id) AS same FROM traces t ORDER BY id LIMIT 3;

-- id: types-009
SELECT CASE WHEN status = 'OK' THEN true ELSE false END::text AS t FROM traces ORDER BY id LIMIT 2;

-- id: types-010
SELECT x::text FROM (SELECT id, status = 'OK' AS x FROM traces) s ORDER BY id LIMIT 2;

-- id: types-011
SELECT count(*) FROM (SELECT status = 'OK' AS x FROM traces) s WHERE x = 'true';

-- id: types-012
SELECT count(*) FROM (SELECT status = 'OK' AS x FROM traces) s WHERE x;

-- id: types-013
SELECT count(*) FROM traces WHERE coalesce(session_id IS NULL, false) = 't';

-- id: types-014
SELECT id, nullif(status = 'OK', true) AS b FROM traces ORDER BY id LIMIT 5;

-- id: types-020
SELECT round(avg(project_id), 4) FROM traces;

-- id: types-021
SELECT kind, round(avg(cost_usd)::numeric, 6) AS c FROM spans GROUP BY kind ORDER BY kind;

-- id: types-022
SELECT round(sum(cost_usd)::numeric, 4) FROM spans;

-- id: types-023
SELECT id, EXTRACT(EPOCH FROM start_time) AS e FROM traces ORDER BY id LIMIT 3;

-- id: types-024
SELECT id, EXTRACT(EPOCH FROM end_time - start_time) AS e FROM traces ORDER BY id LIMIT 3;

-- id: types-025
-- truth: SELECT round(avg(cost_usd)::numeric, 4) FROM spans
SELECT round(avg(cost_usd), 4) FROM spans;

-- id: types-026
-- truth: SELECT kind, round(sum(cost_usd)::numeric, 2) AS usd FROM spans GROUP BY kind ORDER BY kind
SELECT kind, round(sum(cost_usd), 2) AS usd FROM spans GROUP BY kind ORDER BY kind;

-- id: types-027
SELECT 123456.7891::numeric, 1.50 AS x, 2.5 * 2 AS y;

-- id: types-028
SELECT round(avg(EXTRACT(EPOCH FROM end_time - start_time)), 3) FROM spans;

-- id: types-029
SELECT id, EXTRACT(SECOND FROM start_time) AS s, EXTRACT(MILLISECONDS FROM start_time) AS ms FROM traces ORDER BY id LIMIT 3;

-- id: types-030
SELECT avg(project_id) FROM traces;

-- id: types-031
SELECT project_id, round(avg(id), 2) AS u FROM traces GROUP BY project_id ORDER BY project_id;

-- id: types-032
SELECT sum(project_id) FROM traces;

-- id: types-033
SELECT round(100.0 * count(*) FILTER (WHERE status = 'ERROR') / count(*), 2) AS pct FROM spans;

-- id: types-034
SELECT kind, round(avg(date_part('epoch', end_time - start_time))::numeric, 3) AS s FROM spans GROUP BY kind ORDER BY kind;

-- id: types-035
SELECT id, date_part('epoch', start_time) AS e FROM traces ORDER BY id LIMIT 3;

-- id: types-036
SELECT round(2.5), round(-2.5), round(2.675, 2), round(1, 2);

-- id: types-037
SELECT x FROM (SELECT round(avg(id), 3) AS x FROM traces) s;

-- id: types-038
WITH m AS (SELECT kind, round(avg(cost_usd)::numeric, 5) AS c FROM spans GROUP BY kind) SELECT kind, c FROM m ORDER BY kind;

-- id: types-050
SELECT count(*) FROM traces WHERE status = 1;

-- id: types-051
SELECT count(*) FROM traces WHERE trace_id = 5;

-- id: types-052
SELECT count(*) FROM traces WHERE session_id > 5;

-- id: types-053
SELECT sum(trace_id) FROM traces;

-- id: types-054
SELECT trace_id + 1 FROM traces ORDER BY id LIMIT 1;

-- id: types-055
SELECT length(attributes) FROM spans ORDER BY id LIMIT 1;

-- id: types-056
SELECT count(*) FROM spans WHERE attributes LIKE '%openai%';

-- id: types-057
SELECT avg(status) FROM traces;

-- id: types-058
SELECT count(*) FROM traces WHERE start_time > 5;

-- id: types-059
-- truth: SELECT bool_or(status = 'OK') AS max FROM traces
SELECT max(status = 'OK') FROM traces;

-- id: types-074
-- truth: SELECT kind, bool_and(cost_usd > 0) AS all_paid, bool_or(status = 'ERROR') AS any_error FROM spans GROUP BY kind ORDER BY kind
SELECT kind, min(cost_usd > 0) AS all_paid, max(status = 'ERROR') AS any_error FROM spans GROUP BY kind ORDER BY kind;

-- id: types-061
SELECT upper(id) FROM projects ORDER BY id;

-- id: types-062
SELECT name * 2 FROM projects ORDER BY id;

-- id: types-063
SELECT count(*) FROM traces t JOIN spans s ON s.trace_id = t.id;

-- id: types-064
SELECT lower(attributes) FROM spans ORDER BY id LIMIT 1;

-- id: types-065
SELECT sum(x) FROM (SELECT status AS x FROM traces) s;

-- id: types-066
SELECT count(*) FROM (SELECT kind || '' AS k FROM spans) s WHERE k = 3;

-- id: types-070
SELECT 9223372036854775807 + 1;

-- id: types-071
SELECT max(id) * 9223372036854775807 FROM projects;

-- id: types-072
SELECT count(*) FROM projects WHERE id * 4611686018427387904 > 0;

-- id: types-073
SELECT -9223372036854775807 - 2;

-- id: types-078
SELECT date(start_time) AS x FROM traces WHERE id < 3 INTERSECT SELECT date_trunc('day', start_time) FROM traces WHERE id < 3;

-- id: types-079
SELECT date(start_time) AS x FROM traces WHERE id < 3 UNION ALL SELECT start_time FROM traces WHERE id < 3 ORDER BY 1;

-- id: types-080
SELECT start_time AS x FROM traces WHERE id < 3 UNION ALL SELECT end_time - start_time FROM traces WHERE id < 3;

-- id: types-081
SELECT id, CASE WHEN id > 1 THEN end_time - start_time ELSE 0 END AS d FROM traces WHERE id < 4 ORDER BY id;
