-- integer (int4) and smallint through derived relations (helper s10-widths): a subquery's, CTE's, VALUES
-- list's or set operation's integer column, and CASE / COALESCE / NULLIF / GREATEST / LEAST / lag / abs of
-- it, keeps PostgreSQL's type (answer type names: integer, smallint, bigint), and VALUES columns are typed as
-- PostgreSQL's select_common_type types them. Each answers on PostgreSQL; the SQLite gateway must answer the
-- same (arithmetic that stays in range is wrapped in pg_int4 there, which changes nothing). Format: as
-- tests/parity/chinook.sql.
-- database: demo

-- id: widths-001
SELECT x + 1 AS a, x - 1 AS b, -x AS c FROM (SELECT 2147483646 AS x) s;

-- id: widths-002
WITH c AS (SELECT length(name) AS n FROM projects) SELECT n * 1000, n + 2147483000 FROM c ORDER BY 1, 2;

-- id: widths-003
SELECT x, x * 2 AS twice FROM (VALUES (1), (NULL), (1073741823)) v(x) ORDER BY x NULLS FIRST;

-- id: widths-004
SELECT x + 1 FROM (SELECT 1 AS x UNION ALL SELECT 2147483646) s ORDER BY 1;

-- id: widths-005
SELECT x, lag(x) OVER (ORDER BY x) + 1 AS prev, lead(x, 1, 0) OVER (ORDER BY x) * 2 AS next FROM (VALUES (1), (5), (1000)) v(x) ORDER BY x;

-- id: widths-006
SELECT greatest(x, 10) + 1 AS g, least(x, 10) * 3 AS l, nullif(x, 5) + 1 AS n, coalesce(x, 0) - 1 AS c FROM (VALUES (5), (NULL), (2147483)) v(x) ORDER BY x NULLS LAST;

-- id: widths-007
SELECT CASE WHEN x > 2 THEN x ELSE 0 END + 1 AS a FROM (VALUES (1), (3), (2147483646)) v(x) ORDER BY a;

-- id: widths-008
SELECT abs(x) AS a, abs(x) - 1 AS b FROM (VALUES (-2147483647), (0), (NULL), (12)) v(x) ORDER BY a NULLS LAST;

-- id: widths-009
SELECT x + y AS sum_bigint, x + 1 AS sum_int FROM (SELECT 2147483646 AS x, 2147483647::bigint AS y) s;

-- id: widths-010
SELECT x + 1 AS a, x * x AS b FROM (SELECT 181::smallint AS x) s;

-- id: widths-011
SELECT * FROM (VALUES (1, 'a'), (2, 'x')) v ORDER BY 1;

-- id: widths-012
SELECT column1 + 1 AS a FROM (VALUES (1), ('2'), (' 3 ')) v ORDER BY a;

-- id: widths-013
SELECT * FROM (VALUES (1), (2.5), (NULL)) v ORDER BY 1;

-- id: widths-014
SELECT 3 AS k UNION SELECT '1' UNION SELECT '2' ORDER BY 1;

-- id: widths-015
SELECT (SELECT max(x) FROM (VALUES (1), (2147483646)) v(x)) + 1 AS top;

-- id: widths-016
SELECT * FROM (VALUES (true), ('off'), (' YES '), ('f')) v ORDER BY 1;

-- id: widths-017
SELECT p.id, s.n + 1 AS n FROM projects p JOIN (SELECT project_id, count(*)::int AS n FROM traces GROUP BY project_id) s ON s.project_id = p.id ORDER BY p.id;

-- Integer columns of a SQLite file are PostgreSQL's integer (int4): their + - * overflows at 32 bits there
-- (pg_int4_arith), while an operand beyond int4 makes it bigint arithmetic (outside tester s11).
-- id: widths-018
SELECT id * 100000 FROM spans ORDER BY id DESC LIMIT 1;

-- id: widths-019
SELECT id * 10 AS a, id + id AS b, (id * 2) - 1 AS c, -id + 3 AS d, 3 - -id AS e, id * 1000::bigint AS f FROM spans ORDER BY id DESC LIMIT 3;

-- id: widths-020
SELECT sum(id * 1000) AS s, max(id * id) AS m FROM spans WHERE id < 40000;

-- id: widths-021
SELECT max(id * id) FROM spans;

-- id: widths-022
SELECT -2147483648 AS lowest, -2147483648 + id AS shifted, -2147483649 AS below FROM spans ORDER BY id LIMIT 2;

-- id: widths-023
-- database: chinook
SELECT trackid, milliseconds * 1000 AS us FROM track ORDER BY milliseconds DESC LIMIT 3;

-- id: widths-024
-- database: chinook
SELECT trackid, milliseconds * 100 AS cs, bytes + milliseconds AS b FROM track ORDER BY milliseconds DESC LIMIT 3;

-- x << n and x >> n shift within the type's bits, the count masked as the machine does (1 << 31 was refused on
-- SQLite; 1::bigint << 64 answered 0 for 1, 5::bigint >> -1 10 for 0; outside tester s13).
-- id: widths-025
SELECT 1 << 31 AS a, CAST(1 AS bigint) << 64 AS b, CAST(5 AS bigint) >> -1 AS c, id << 30 AS d, CAST(3 AS smallint) << 15 AS e, -8 >> 1 AS f, (id * 3) >> 1 AS g, CAST(id AS bigint) << 40 AS h FROM projects ORDER BY id;
