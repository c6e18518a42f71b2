-- Column names (issue #12, one answer format): the envelope names every output column as PostgreSQL does,
-- on every backend. SQLite names an unaliased expression after its own text ("lower(name)", "1 + 1",
-- "CASE WHEN ..."); the SQLite gateway answers with the names admission gives the columns (PostgreSQL's:
-- "lower", "?column?", "case"), and a derived table's columns are referred to by those names. The parity
-- judge compares names (letter case aside) wherever the statement is its own truth. Also PostgreSQL's errors
-- for VALUES rows of different lengths, and INT64_MIN / -1. Format: as tests/parity/chinook.sql.
-- database: demo

-- id: names-001
SELECT lower(name), upper(name), length(name), name::text, name || '!' FROM projects ORDER BY id;

-- id: names-002
SELECT CASE WHEN id > 2 THEN 'big' END, coalesce(NULL, name), nullif(id, 2), greatest(id, 3), least(id, 3) FROM projects ORDER BY id;

-- id: names-003
SELECT 1 + 1, 7 / 2, 7 % 2, -id, id * 2.5, id IN (1, 2), id IS NULL, NOT (id > 1), name LIKE 's%' FROM projects ORDER BY id;

-- id: names-004
SELECT (SELECT max(id) FROM traces), EXISTS (SELECT 1 FROM traces WHERE traces.project_id = projects.id) FROM projects ORDER BY id;

-- id: names-005
SELECT trim(name), trim(both 'x' from name), ltrim(name), substring(name from 1 for 3), substring(name, 2), position('o' in name) FROM projects ORDER BY id;

-- id: names-006
SELECT * FROM (SELECT trim(name), substring(name from 2 for 2), lower(name), 1 + id FROM projects) s ORDER BY 1;

-- id: names-007
SELECT count(*), sum(parent_id), avg(parent_id), min(start_time), max(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: names-008
SELECT kind, count(*) FILTER (WHERE status = 'ERROR'), round(avg(parent_id)), round(sum(cost_usd)::numeric, 2) FROM spans GROUP BY kind ORDER BY kind;

-- id: names-009
SELECT 1::int, 2::bigint, 'a'::text, 1.5::numeric(4,1), CAST(id AS text), CAST('7' AS integer) FROM projects ORDER BY id;

-- id: names-010
SELECT date_trunc('day', start_time), extract(year FROM start_time), start_time::date FROM spans ORDER BY id LIMIT 3;

-- id: names-011
SELECT row_number() OVER (ORDER BY id), rank() OVER (ORDER BY kind), lag(id) OVER (ORDER BY id) FROM spans ORDER BY id LIMIT 5;

-- id: names-012
VALUES (1, 'a'), (2, 'b');

-- id: names-013
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v ORDER BY 1;

-- id: names-014
SELECT a, b FROM (VALUES (1, 'a'), (2, 'b')) AS v(a, b) ORDER BY a;

-- id: names-015
VALUES (1), (2, 3);

-- id: names-016
SELECT * FROM (VALUES (1, 'a'), (2)) AS v(id, name);

-- id: names-017
SELECT (-9223372036854775807 - 1) / -1;

-- id: names-018
SELECT 9223372036854775807 / -1, -9 / -1;

-- id: names-019
SELECT attributes ->> 'llm.model_name', attributes -> 'llm.provider' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 3;

-- id: names-020
WITH t AS (SELECT kind, count(*) FROM spans GROUP BY kind) SELECT * FROM t ORDER BY kind;

-- id: names-021
SELECT kind FROM spans UNION SELECT lower(name) FROM projects ORDER BY 1;

-- id: names-022
SELECT concat(name, '-', id), concat_ws('/', name, id), left(name, 2), right(name, 2), replace(name, 'a', 'b') FROM projects ORDER BY id;

-- id: names-023
SELECT CASE WHEN id > 2 THEN 'x' ELSE name END, CASE WHEN id > 2 THEN 'x' ELSE lower(name) END, (CASE WHEN id > 2 THEN 1 END)::text FROM projects ORDER BY id;

-- id: names-024
SELECT x.name FROM (SELECT CASE WHEN id > 2 THEN 'x' ELSE name END FROM projects) x ORDER BY 1;

-- id: names-025
SELECT -id, -(id * 2), -count(*) OVER () FROM projects ORDER BY id;

-- id: names-026
-- sign(integer) is double precision, sign(numeric) numeric; an untyped NULL is text (session 10)
SELECT NULL, sign(3), sign(2.5), sign(-2.5::float8), CASE WHEN 1 = 2 THEN NULL END;

-- id: names-027
SELECT sign(id - 2) AS s, NULL AS n FROM projects ORDER BY id;
