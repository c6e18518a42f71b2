-- PostgreSQL's function signatures at admission (issue #12, "Types at admission"; session 8):
-- admission/capability/signatures.hpp holds PostgreSQL's argument signatures of the scalar functions
-- admitted or translated; admission/admit/signatures.cpp checks each call against them with PostgreSQL's
-- implicit casts, and reads an untyped literal where an integer is taken as that integer. Statements
-- PostgreSQL refuses are their own truth (each gateway must refuse or fail too). Format: as
-- tests/parity/differential_found.sql.
-- database: demo

-- id: types-found-001
-- found: the fuzzer (tests/fuzz/regressions/014.sql): substr(name, 'a', 2) was admitted on SQLite, which
--   computed max('a', 1); PostgreSQL: invalid input syntax for type integer: "a". Now refused with a FIX.
SELECT id, substr(name, 'a', 2) AS s FROM spans ORDER BY id LIMIT 3;

-- id: types-found-002
-- note: a quoted whole number where an integer is taken is that integer (PostgreSQL's int4in: spaces and
--   a sign allowed).
SELECT id, substr(name, '2', ' 3 ') AS s, left(name, '-1') AS l, right(name, '+2') AS r FROM spans ORDER BY id LIMIT 5;

-- id: types-found-003
-- note: mod(integer, unknown) is mod(integer, integer): the literal is read as an integer.
SELECT id, mod(id, '3') AS m, split_part(name, '.', '1') AS p FROM spans ORDER BY id LIMIT 5;

-- id: types-found-004
-- found: open-1 (substr(text, bigint)): count(*) is bigint, and PostgreSQL has no substr(text, bigint).
SELECT substr(name, count(*)) AS s FROM spans GROUP BY name ORDER BY 1 LIMIT 3;

-- id: types-found-005
-- note: the FIX of types-found-004, admitted on both.
SELECT name, substr(name, CAST(count(*) AS integer)) AS s FROM spans GROUP BY name ORDER BY 1 LIMIT 3;

-- id: types-found-006
-- note: left(text, numeric) does not exist.
SELECT left(name, 2.0) AS s FROM spans ORDER BY 1 LIMIT 3;

-- id: types-found-007
-- note: left(text, double precision) does not exist (no implicit cast from double precision to integer).
SELECT left(name, cost_usd) AS t FROM spans ORDER BY 1 LIMIT 3;

-- id: types-found-008
-- note: substring(text, unknown) is PostgreSQL's regular-expression substring: refused on SQLite, which
--   would read the pattern as a position.
SELECT id, substring(name, 'L.') AS s FROM spans ORDER BY id LIMIT 5;

-- id: types-found-009
-- note: a quoted number where several number types are taken is double precision in PostgreSQL.
SELECT abs('-2') AS a, power(2, '3') AS p, sqrt('16') AS q;

-- id: types-found-010
-- note: to_hex(unknown) is not unique in PostgreSQL (integer or bigint).
SELECT to_hex('255') AS h;

-- id: types-found-011
-- note: strpos(text, integer) and upper(boolean) do not exist.
SELECT strpos(name, 1) AS p FROM spans ORDER BY 1 LIMIT 3;

-- id: types-found-012
SELECT upper(id > 3) AS u FROM spans ORDER BY 1 LIMIT 3;

-- id: types-found-013
-- note: an out-of-range quoted integer is PostgreSQL's error.
SELECT substr(name, '3000000000') AS s FROM spans ORDER BY 1 LIMIT 3;

-- id: types-found-014
-- found: open-1 (CASE/COALESCE/UNION branch types): text with integer cannot be matched in PostgreSQL.
SELECT id, CASE WHEN id > 2 THEN name ELSE id END AS v FROM spans ORDER BY id LIMIT 5;

-- id: types-found-015
SELECT id, COALESCE(label, 0) AS v FROM span_annotations ORDER BY id LIMIT 5;

-- id: types-found-016
SELECT id FROM spans WHERE id <= 3 UNION SELECT name FROM spans WHERE id <= 3 ORDER BY 1;

-- id: types-found-017
-- note: an untyped literal branch joins the number: '2' is 2, 'a' is PostgreSQL's error.
SELECT id, CASE WHEN id > 2 THEN 1 ELSE '2' END AS v, COALESCE(cost_usd, '0') AS c FROM spans ORDER BY id LIMIT 5;

-- id: types-found-018
SELECT id, CASE WHEN id > 2 THEN 1 ELSE 'a' END AS v FROM spans ORDER BY id LIMIT 5;

-- id: types-found-019
-- note: a text literal meeting a number is read as that number (' 7 ' is 7) or is PostgreSQL's error.
SELECT id, id = ' 3 ' AS same, id + '1' AS next FROM spans WHERE id > '2' ORDER BY id LIMIT 5;

-- id: types-found-020
SELECT id FROM spans WHERE id = 'a' ORDER BY id LIMIT 5;

-- id: types-found-021
-- found: open-9: a date meeting a timestamptz is answered as a timestamptz by PostgreSQL; refused on SQLite
--   with the cast (types-found-022).
SELECT start_time AS t FROM spans WHERE id <= 2 UNION SELECT CAST(start_time AS date) FROM spans WHERE id <= 2 ORDER BY 1;

-- id: types-found-022
SELECT start_time AS t FROM spans WHERE id <= 2 UNION SELECT CAST(CAST(start_time AS date) AS timestamptz) FROM spans WHERE id <= 2 ORDER BY 1;

-- id: types-found-023
-- found: open-1 (casts from boolean): PostgreSQL casts a boolean to integer only.
SELECT id, CAST(id > 2 AS numeric) AS n FROM spans ORDER BY id LIMIT 3;

-- id: types-found-024
-- note: the FIX of types-found-023.
SELECT id, CAST(CASE WHEN id > 2 THEN 1 ELSE 0 END AS numeric) AS n FROM spans ORDER BY id LIMIT 3;

-- id: types-found-025
-- found: open-12: a scalar subquery answering a date, minus an integer, is a date (translated on SQLite).
SELECT (SELECT min(date(start_time)) FROM spans) - 3 AS d, (SELECT min(CAST(start_time AS date)) FROM spans) - -3 AS e;

-- id: types-found-026
-- note: date ± bigint does not exist in PostgreSQL (count(*) is bigint).
SELECT (SELECT min(CAST(start_time AS date)) FROM spans) + count(*) AS d FROM traces;

-- id: types-found-027
-- note: a cast to real is named real (computed as a double on SQLite); arithmetic on it is double precision.
SELECT 0.1::real AS r, max(cost_usd::real) AS m, 1.5::real * 2 AS d, min((id * 7)::real) AS i FROM spans;

-- id: types-found-028
-- note: a cast to real rounds to a single-precision float on SQLite too (outside tester s12).
SELECT 16777217::real AS a, 123456789::real::int AS b, 0.1::real = 0.1 AS c, (SELECT count(*) FROM spans WHERE cost_usd::real = cost_usd) AS d;

-- The trigonometric functions are double precision whatever the argument: their text and numeric casts are
-- float8's (sin(1)::text printed SQLite's 15 digits; outside tester s13).
-- id: types-found-029
SELECT sin(1)::text AS a, cos(0.5)::text AS b, atan2(1, 2)::numeric AS c, degrees(1) = degrees(1)::text::float8 AS d, radians(30)::text AS e, tan(id)::text AS f FROM projects ORDER BY id;

-- A stored time passed on with a NULL beside it is answered in PostgreSQL's form (coalesce(start_time, NULL),
-- NULLIF, lag with a NULL default and CASE ... END printed SQLite's stored text; outside tester s13).
-- id: types-found-030
SELECT coalesce(start_time, NULL) AS a, nullif(start_time, end_time) AS b, lag(start_time, 1, NULL) OVER (ORDER BY id) AS c, CASE WHEN id > 1 THEN start_time END AS d, coalesce(start_time, NULL)::text AS e, nullif(end_time, start_time) - start_time AS f FROM spans WHERE id <= 50 ORDER BY id;

-- lag / lead with a default are of the common type of the value and the default (lag(id, 1, 0.5) was typed
-- integer on SQLite; outside tester s13).
-- id: types-found-031
SELECT id, lag(id, 1, 0.5) OVER (ORDER BY id) AS a, lead(id, 2, 0) OVER (ORDER BY id) AS b, lag(name, 1, 'none') OVER (ORDER BY id) AS c FROM projects ORDER BY id;

-- degrees / radians as PostgreSQL computes them (x / RADIANS_PER_DEGREE): degrees(17)::text differed in the last
-- digit; EXTRACT of timezone_hour / timezone_minute (refused with a FIX about SUBSTRING; outside tester s13).
-- id: types-found-032
SELECT degrees(17)::text AS a, degrees(0.0151)::text AS b, radians(100)::text AS c, degrees(id)::text AS d, radians(id * 7)::text AS e, EXTRACT(timezone_hour FROM start_time) AS f FROM spans WHERE id <= 40 ORDER BY id;

-- A timestamp column's max / min of no row is still named a timestamp with time zone (it was text: the type was told
-- by the first value; outside tester s15).
-- id: types-found-033
SELECT max(start_time) AS a, min(end_time) AS b, count(*) AS n FROM traces WHERE id < 0;

-- "time"(x) is PostgreSQL's cast to time (milliseconds kept); SQLite's time() printed HH:MM:SS (outside tester s19c).
-- id: found-time-cast-call
SELECT "time"(start_time) AS t, "date"(start_time) AS d FROM traces ORDER BY start_time LIMIT 3;

-- CAST(x AS boolean) on SQLite: PostgreSQL's boolean words from text, 0 / other from an integer (refused before;
-- outside testers s19b, s19d).
-- id: found-bool-cast
SELECT 'yes'::boolean AS a, ' TRUE '::boolean AS b, 'of'::boolean AS c, 0::boolean AS d, 5::boolean AS e,
       NULL::boolean AS f, (1 = 1)::boolean AS g, 'N'::boolean AS h, 'on'::boolean AS i, '1'::boolean AS j;

-- id: found-bool-cast-rows
SELECT id, (id % 2)::boolean AS odd, (CASE WHEN id > 2 THEN 'true' ELSE 'false' END)::boolean AS big,
       count(*) FILTER (WHERE (id % 3)::boolean) OVER () AS n
FROM projects ORDER BY id;

-- A fraction finer than a microsecond is rounded as PostgreSQL does: rint of strtod's double (.0000005 is 0 µs;
-- summed digit by digit it rounded up; outside tester s19c).
-- id: found-sub-microsecond
SELECT timestamptz '2024-01-01 00:00:59.0000005Z' AS a, timestamptz '2024-01-01 00:00:00.1234565Z' AS b,
       timestamptz '2024-01-01 00:00:00.0000025Z' AS c, timestamptz '2024-01-01 00:00:00.9999995Z' AS d;
