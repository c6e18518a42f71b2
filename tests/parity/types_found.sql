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
