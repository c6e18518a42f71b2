-- Run-time errors and digits on SQLite as PostgreSQL has them (issue #12; admission/admit/numbers_on_sqlite.cpp,
-- admission/render/render_expr.cpp, executors/sqlite/sqlite_numbers.cpp): a divisor computed to 0 is
-- PostgreSQL's "division by zero" (SQLite answers NULL), x % y keeps the fractions, round / trunc with a
-- negative count of digits cut before the point. Truth: PostgreSQL itself; where PostgreSQL fails, each
-- gateway must refuse or fail. Format: as tests/parity/chinook.sql.
-- database: demo

-- id: rt-001
-- note: an integer divided by a computed 0: PostgreSQL's error, where SQLite answered NULL.
SELECT id, 100 / (id - id) AS q FROM projects ORDER BY id;

-- id: rt-002
SELECT id, 7.5 / (id - id) AS q FROM projects ORDER BY id;

-- id: rt-003
SELECT id, id % (id - id) AS r FROM projects ORDER BY id;

-- id: rt-004
SELECT id, mod(id, id - id) AS r FROM projects ORDER BY id;

-- id: rt-005
SELECT id, CAST(cost_usd AS double precision) / (id - id) AS q FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 3;

-- id: rt-006
-- note: divisors that are not 0: SQLite's own division as before (integers truncated toward zero).
SELECT id, 100 / id AS a, -100 / (id + 1) AS b, 100 % (id + 2) AS c, -7 % (id + 1) AS d, 7.0 / (id + 1) AS e
FROM projects ORDER BY id;

-- id: rt-007
-- note: a branch PostgreSQL does not take is not computed on SQLite either (CASE is lazy on both).
SELECT id, CASE WHEN id - id <> 0 THEN 1 / (id - id) ELSE 0 END AS q FROM projects ORDER BY id;

-- id: rt-008
SELECT id, 100 / NULLIF(id - id, 0) AS q, 100 % NULLIF(id - id, 0) AS r FROM projects ORDER BY id;

-- id: rt-009
SELECT count(*) AS n, sum(1000 / (id + 1)) AS s FROM spans;

-- id: rt-010
SELECT round(1235, -1) AS a, round(-25, -1) AS b, trunc(-1299, -2) AS c, round(1234.5678, -2) AS d, round(4, -1) AS e;

-- id: rt-011
-- note: round(x, -1) on SQLite counted the -1 as 0 (1235.0 for 1240).
SELECT id, round(id * 123.456, -1) AS r, round(id * 1235, -2) AS s, trunc(id * 1299.9, -2) AS t
FROM projects ORDER BY id;

-- id: rt-012
-- note: a computed count of digits, negative at run time.
SELECT id, round(1234.5678, CAST(1 - id AS integer)) AS r FROM projects ORDER BY id;

-- id: rt-013
-- note: trunc(integer, n) is a numeric: trunc(7, 0) / 2 is 3.5 (SQLite divided the integers: 3).
SELECT id, trunc(id * 7, 0) / 2 AS h FROM projects ORDER BY id;

-- id: rt-014
-- note: % by a computed fraction: PostgreSQL's numeric remainder keeps the fraction (SQLite dropped it).
SELECT id, 10 % COALESCE(3.5, id) AS a, id % COALESCE(-0.5, 1.0) AS b, mod(id * 7, COALESCE(2.5, 1.0)) AS c
FROM projects ORDER BY id;

-- id: rt-015
SELECT id, (id * 7) % COALESCE(2.5, 0.0) AS a, COALESCE(-7.5, 0.0) % (id + 1) AS b FROM projects ORDER BY id;

-- id: rt-016
SELECT id, 10 % COALESCE(0.0, 1.5) AS a FROM projects ORDER BY id;

-- id: rt-017
SELECT id, ln(id - id) AS l FROM projects ORDER BY id;

-- id: rt-018
SELECT id, sqrt(-id) AS s FROM projects ORDER BY id;

-- id: rt-019
SELECT id, power(id - id, -1) AS p FROM projects ORDER BY id;

-- id: rt-020
-- note: float + - * on SQLite passes through pg_float8: SQLite's double overflows to Inf, PostgreSQL fails.
SELECT id, power(CAST(id + 9 AS double precision), 300) * power(CAST(10 AS double precision), 20) AS p
FROM projects ORDER BY id;

-- id: rt-021
SELECT id, power(CAST(id + 9 AS double precision), 300) / power(CAST(10 AS double precision), -20) AS p
FROM projects ORDER BY id;

-- id: rt-022
SELECT id, CAST(id AS double precision) * 2.5 + CAST(id AS double precision) / 4 - 1 AS p, round(CAST(id AS double precision) * 0.5) AS r
FROM projects ORDER BY id;
