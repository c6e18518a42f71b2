-- Values written as text as PostgreSQL writes them, on SQLite (issue #12, "one answer format";
-- admission/admit/text_of_values.cpp, admission/render/render_expr.cpp json arrows,
-- executors/sqlite/sqlite_json.cpp, sqlite_values.cpp): ->> of numbers, nested objects and
-- scalars read by an integer index, jsonb as text, booleans and float8 in || and CAST(x AS text),
-- ORDER BY a set operation's jsonb column. Truth: PostgreSQL itself; where PostgreSQL fails, each
-- gateway must refuse or fail. Format: as tests/parity/chinook.sql.
-- database: demo

-- id: val-001
-- open-5: a jsonb string read as a one-element array (an outside tester: 0 rows on SQLite, 24 542 on PostgreSQL).
SELECT count(*) AS n FROM spans WHERE attributes -> 'llm.model_name' ->> 0 IS NOT NULL;

-- id: val-002
SELECT id, attributes -> 'llm.model_name' ->> 0 AS m0, attributes -> 'llm.model_name' ->> -1 AS m1, attributes -> 'llm.token_count.total' ->> 0 AS t0, attributes -> 'llm.model_name' ->> 1 AS none FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 5;

-- id: val-003
SELECT '1'::jsonb ->> 0 AS a, '"a"'::jsonb ->> 0 AS b, '{"a": 1}'::jsonb ->> 0 AS c, 'null'::jsonb ->> 0 AS d, '[1, 2]'::jsonb ->> -1 AS e, '[1, 2]'::jsonb ->> -3 AS f, 'true'::jsonb ->> -1 AS g;

-- id: val-004
-- open-15: an object or array read as text prints in jsonb's form.
SELECT '{"b": {"c": null, "aa": [1, 2.50]}}'::jsonb ->> 'b' AS b, '{"a": [1, {"x": 2}]}'::jsonb ->> 'a' AS a;

-- id: val-005
SELECT '{"b": {"zz": 1, "a": 2, "a": 3}}'::jsonb ->> 'b' AS dup_last_wins;

-- id: val-006
-- open-13: a number beyond 2^63, and numbers as written (1.50, 1e2 as numeric prints it).
SELECT '{"a": 12345678901234567890}'::jsonb ->> 'a' AS big, '{"a": 1.50}'::jsonb ->> 'a' AS scale, '{"a": 1e2}'::jsonb ->> 'a' AS exp, '{"a": -0.0}'::jsonb ->> 'a' AS negzero;

-- id: val-007
SELECT id, attributes ->> 'llm.token_count.total' AS t, attributes ->> 'retrieval.documents' AS d FROM spans WHERE kind IN ('LLM', 'RETRIEVER') ORDER BY id LIMIT 8;

-- id: val-008
SELECT attributes ->> 'llm.token_count.total' AS t, count(*) FROM spans WHERE attributes ->> 'llm.token_count.total' = '1633' GROUP BY 1;

-- id: val-009
SELECT max(attributes ->> 'llm.token_count.total') AS most FROM spans;

-- id: val-010
-- open-6: booleans and numbers written into text.
SELECT id, name || (id > 3) AS t, 'x' || true AS lit, CAST(id > 3 AS text) AS c FROM projects ORDER BY id;

-- id: val-011
-- open-10: float8out.
SELECT CAST(CAST('1e-300' AS double precision) AS text) AS tiny, CAST(CAST('1.5e300' AS double precision) AS text) AS huge, CAST(CAST('1e15' AS double precision) AS text) AS e15, CAST(CAST('1e14' AS double precision) AS text) AS e14, CAST(CAST('0.1' AS double precision) + CAST('0.2' AS double precision) AS text) AS sum, CAST(CAST('-3' AS double precision) AS text) AS whole, 'x' || CAST('1e-5' AS double precision) AS e5;

-- id: val-012
SELECT id, 'c' || cost_usd AS c, CAST(cost_usd AS text) AS t, CAST(cost_usd * 1e-6 AS text) AS small FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 10;

-- id: val-013
SELECT 'a' || floor(-2.675) AS f, CAST(floor(-2.675) AS text) AS g, 'a' || 2.50 AS h, 'a' || floor(id / 2.0) AS i, 'a' || sqrt(id) AS r FROM projects ORDER BY id;

-- id: val-014
-- a numeric of unknown scale written as text: refused with the rounding that makes it exact.
SELECT 'avg ' || avg(id) AS a FROM projects;

-- id: val-015
SELECT 'avg ' || round(avg(id), 2) AS a FROM projects;

-- id: val-016
-- open-11: ORDER BY a set operation's jsonb column (refused on SQLite: jsonb's own order).
SELECT attributes AS a FROM spans WHERE id <= 3 UNION SELECT attributes FROM spans WHERE id BETWEEN 4 AND 6 ORDER BY 1;

-- id: val-017
SELECT attributes ->> 'input.value' AS a FROM spans WHERE id <= 3 UNION SELECT attributes ->> 'input.value' FROM spans WHERE id BETWEEN 4 AND 6 ORDER BY 1;

-- id: val-018
SELECT length('é' || (id > 2)) AS l FROM projects ORDER BY id;

-- id: val-019
-- ->> compared with text: PostgreSQL's text on both (SQLite's ->> gave 1633 as a number).
SELECT count(*) AS n FROM spans WHERE attributes ->> 'llm.token_count.total' IN ('1633', '780');

-- id: val-020
-- neither side of || is text: PostgreSQL has no such operator.
SELECT (id > 3) || id AS t FROM projects;

-- id: val-021
SELECT id, attributes -> 'llm.model_name' AS m FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 3;

-- id: val-101
-- A jsonb column answered as a value is in jsonb's output form on SQLite too (keys shorter first; lead, s8:
-- SQLite answered its stored key order), and so is its text.
SELECT id, attributes FROM spans WHERE id <= 40 ORDER BY id;

-- id: val-103
SELECT id, CAST(attributes AS text) AS t FROM spans WHERE id <= 40 ORDER BY id;

-- id: val-102
SELECT s.* FROM spans AS s WHERE s.id IN (3, 7) ORDER BY s.id;

-- concat() of floats, booleans ('t' / 'f' there, unlike ||), numerics and exact quotients, and an exact numeric
-- written as text, on SQLite (session 15: refused before; a derived table's exact column printed its double).
-- id: val-106
SELECT concat(kind = 'LLM', ':', cost_usd, ':', id / 7.0, ':', round(cost_usd::numeric, 3)) AS c, concat_ws(',', id = 1, 1.0::float8, 0.1::float8 + 0.2::float8, NULL, 2.50) AS w FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 5;

-- id: val-107
SELECT 'n=' || avg(id) AS a, concat(sum(id / 3.0)) AS s, CAST(1.0 / 3 * 3 AS text) AS t, avg(id)::text AS v FROM spans;

-- id: val-108
SELECT concat(x, '|', floor(x)) AS c, concat_ws('-', x, x) AS w, x || '!' AS o, CAST(x AS text) AS t FROM (SELECT id / 3.0 AS x FROM spans ORDER BY id LIMIT 3) AS s;
