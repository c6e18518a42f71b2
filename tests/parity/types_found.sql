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
