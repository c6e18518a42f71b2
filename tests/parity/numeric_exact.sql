-- Numeric + - * / of any operands on SQLite as PostgreSQL's numeric computes them (outside tester s12): an
-- operand that is a call, an aggregate, a virtual column or a cast ran as doubles (abs(-0.1) + 0.2 = 0.3 was
-- false; floor(abs(4.35) * 100) was 434). pg_numeric_arith / pg_numeric_div compute on the operands' decimals;
-- float8 to numeric keeps 15 significant digits; round(x, n) rounds the decimal. Format: as tests/parity/chinook.sql.
-- database: demo

-- id: numexact-001
SELECT abs(-0.1) + 0.2 = 0.3 AS a, coalesce(0.1, 0) + 0.2 AS b, floor(abs(4.35) * 100) AS c, round(abs(100) * 1.005) AS d, ceil(abs(3270) * 1.1) AS e, round(1.011, 3) * 1000 = 1011 AS f;

-- id: numexact-002
SELECT max(v) - min(v) = 0.2 AS eq FROM (VALUES (0.1), (0.3)) t(v);

-- id: numexact-003
SELECT count(*) FROM spans WHERE (attributes ->> 'llm.token_count.total')::int * 0.001 BETWEEN 1.633 AND 1.633;

-- id: numexact-004
SELECT sum(ceil((attributes ->> 'llm.token_count.total')::int * 1.1)) AS s, count(*) FILTER (WHERE (attributes ->> 'llm.token_count.total')::bigint * 0.1 = (attributes ->> 'llm.token_count.total')::bigint / 10.0) AS n FROM spans;

-- id: numexact-005
SELECT count(*) FILTER (WHERE length(name) * 0.1 = 1.4) AS by_length, count(*) FILTER (WHERE extract(hour FROM start_time) * 0.1 = 0.3) AS by_hour FROM spans;

-- id: numexact-006
SELECT extract(epoch FROM interval '1.011 seconds') * 1000 = 1011 AS eq;

-- id: numexact-007
SELECT count(*) FROM spans WHERE extract(epoch FROM end_time - start_time) * 1000 = round(extract(epoch FROM end_time - start_time) * 1000);

-- id: numexact-008
SELECT (0.1::float8 + 0.2::float8)::numeric AS n, (0.1::float8 + 0.2::float8)::numeric = 0.3 AS eq;

-- id: numexact-009
SELECT count(*) FROM spans WHERE cost_usd::numeric = round(cost_usd::numeric, 6);

-- id: numexact-010
SELECT count(*) FROM (SELECT abs(-0.1) + 0.2 UNION SELECT 0.3) u;

-- id: numexact-011
SELECT count(*) FROM (SELECT (attributes ->> 'llm.token_count.total')::int * 0.001 FROM spans EXCEPT SELECT (attributes ->> 'llm.token_count.total')::int / 1000.0 FROM spans) e;

-- id: numexact-012
SELECT count(*) FROM spans WHERE round((attributes ->> 'llm.token_count.total')::int / 1000.0, 3) * 1000 <> (attributes ->> 'llm.token_count.total')::int;

-- id: numexact-013
SELECT trunc(sum(id::numeric / 7) * 7) AS t, sum(id::numeric / 7) * 7 = sum(id) AS eq FROM projects;

-- id: numexact-014
SELECT kind, round(avg((attributes ->> 'llm.token_count.total')::int) * 1.5, 4) AS a, round(sum(cost_usd::numeric) * 100 / nullif(count(*), 0), 6) AS b FROM spans GROUP BY kind ORDER BY kind;

-- id: numexact-015
SELECT id, greatest(cost_usd::numeric, 0.001) * 1000 AS g, nullif(cost_usd::numeric, 0) * 3 AS n FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 20;

-- id: numexact-016
-- database: chinook
SELECT invoiceid, total * 1.0825 AS with_tax, round(total * 1.0825, 2) AS rounded, abs(total - 5.94) * 3 AS off FROM invoice ORDER BY invoiceid LIMIT 40;

-- id: numexact-017
-- database: chinook
SELECT count(*) FROM invoiceline WHERE unitprice * quantity - 0.99 = 0;

-- A double precision value SQLite holds as an integer divides as a double (outside tester s12: 3 for 3.5).
-- id: numexact-018
SELECT coalesce(NULL::float8, 7) / 2 AS a, greatest(1::float8, 7) / 2 AS b, sign(-7::float8) / 2 AS c, date_part('hour', timestamp '2026-01-01 05:00') / 2 AS d, date_part('epoch', interval '90 seconds') / 60 AS e;

-- id: numexact-019
SELECT avg(coalesce(cost_usd, 1) / 2) AS a, count(*) FILTER (WHERE coalesce(cost_usd, 1) / 2 > 0.1) AS n, sum(date_part('hour', start_time)) / count(*) AS h FROM spans;

-- id: numexact-020
SELECT x / 2 AS half FROM (SELECT 7 AS x UNION ALL SELECT 1::float8) u ORDER BY 1;

-- id: numexact-021
SELECT id, nullif(id, 1.5) / 2 AS n FROM spans ORDER BY id LIMIT 3;

-- A chain of exact numerics keeps every digit between its steps (2.0 / 3 * 3 is 2.00000000000000000001).
-- id: numexact-022
SELECT floor(2.0 / 3 * 3) AS a, trunc(2.0 / 3 * 3) AS b, ceil(-2.0 / 3 * 3) AS c, 2.0 / 3 + 1.0 / 3 AS d;

-- Whatever reads an exact chain reads every digit of it: floor, ceil, trunc, round, sign, abs, a prefix minus, a
-- comparison, BETWEEN, IN, an integer or numeric(p, s) cast, sum (1.0 / 3 * 3 = 1 was true on SQLite, whose double
-- of 0.99999999999999999999 is 1; floor(5.0 / 7 * 7) was 5; outside tester s12).
-- id: numexact-023
SELECT floor(5.0 / 7 * 7) AS a, 1.0 / 3 * 3 = 1 AS b, 1.0 / 3 * 3 < 1 AS c, CAST(2.5 / 7 * 7 AS integer) AS d, round(2.5 / 7 * 7) AS e, sign(1.0 / 3 * 3 - 1) AS f;

-- id: numexact-024
SELECT count(*) FILTER (WHERE id / 3.0 * 3 = id) AS eq, count(*) FILTER (WHERE id / 7.0 * 7 < id) AS lt, count(*) FILTER (WHERE id / 7.0 * 7 BETWEEN id AND id) AS btw, count(*) FILTER (WHERE id / 7.0 * 7 NOT IN (id, 1)) AS not_in FROM spans;

-- id: numexact-025
SELECT sum(id / 3.0) * 3 = sum(id) AS s, floor(sum(id / 7.0) * 7) AS f, floor(avg(id / 7.0) * 7) AS a FROM spans;

-- id: numexact-026
SELECT floor(sqrt(2.0) * sqrt(2.0)) AS a, floor(-(1.0 / 3) * 3) AS b, trunc(2.0 / 3 * 3, 19) AS c, CAST(1.0 / 3 * 3 AS numeric(10, 2)) AS d, abs(-1.0 / 3) * 3 < 1 AS e;

-- id: numexact-027
SELECT count(*) FILTER (WHERE cost_usd::numeric / 3 * 3 = cost_usd::numeric) AS eq, count(*) FILTER (WHERE floor(cost_usd::numeric * 1000000 / 7 * 7) = cost_usd::numeric * 1000000) AS f FROM spans;

-- A literal a double does not hold exactly is the double nearest it (SQLite 3.40 read 0.005754 1 ulp above it:
-- cost_usd = 0.005754 found no row; and its text printed 17 digits; outside tester s13).
-- id: numexact-028
SELECT count(*) AS n, count(*) FILTER (WHERE cost_usd::text = '0.005754') AS t FROM spans WHERE cost_usd = 0.005754;

-- id: numexact-029
SELECT 0.005754::float8::text AS a, 5754::float8 / 1000000 = 0.005754 AS b, 0.1::float8 + 0.2 AS c, 1.1 * 1.1 AS d, 0.3 = 0.1::float8 * 3 AS e;

-- round / trunc to many places, a derived table's quotient cast to integer, IN of one exact value, ANY of an array
-- of one (outside tester s13: 6 digits for round(x, 25), an engine error for v::int, an internal error for ANY).
-- id: numexact-030
SELECT v::int AS i, round(12345.678, 25) AS r, round(12345.678, 14) AS s, trunc(0.1 * 3, 20) AS t, 1 = ANY(ARRAY[1.0 / 3]) AS a, 1.0 / 3 * 3 IN (1) AS b FROM (SELECT 1.0 / 3 AS v) AS q;

-- A time literal beside a stored time in NULLIF, IS DISTINCT FROM and CASE x WHEN is read as a time (SQLite
-- compared the texts; outside tester s13).
-- id: numexact-031
SELECT nullif(start_time, TIMESTAMPTZ '2026-09-16 00:19:23.561+00') IS NULL AS a, CASE start_time WHEN '2026-09-16 00:19:23.561+00' THEN 'y' ELSE 'n' END AS b, start_time IS DISTINCT FROM '2026-09-16 00:19:23.561+00' AS c, nullif(start_time, '2026-09-16 02:19:23.561+02') IS NULL AS d FROM spans WHERE id = 1;

-- An exact chain through COALESCE or CASE keeps its digits for whatever reads it (floor(coalesce(5.0 / 7 * 7, 0))
-- was 5; outside tester s13b).
-- id: numexact-032
SELECT floor(coalesce(5.0 / 7 * 7, 0)) AS a, coalesce(1.0 / 3 * 3, 0) = 1 AS b, floor(CASE WHEN id > 0 THEN 5.0 / 7 * 7 ELSE id END) AS c, CASE WHEN id > 0 THEN 1.0 / 3 * 3 END < 1 AS d, sum(coalesce(id / 3.0, 0)) * 3 = sum(id) AS f FROM projects GROUP BY id ORDER BY id;

-- An exact numeric that leaves its expression as a derived table's or CTE's column keeps every digit for what
-- reads it exactly outside (floor(v) of SELECT 1.0 / 3 * 3 AS v was 1 for 0; outside tester s13), also through two
-- levels, a star, a join condition, sum and a comparison; a column its own query sorts by keeps the double.
-- id: numexact-033
SELECT floor(v) AS f, v = 1 AS eq, v < 1 AS lt, round(v, 19) AS r, trunc(v * 10) AS t FROM (SELECT 1.0 / 3 * 3 AS v) AS s;

-- id: numexact-034
WITH shares AS (SELECT kind, count(*) * 1.0 / 7 * 7 AS n7, count(*) AS n FROM spans GROUP BY kind) SELECT kind, floor(n7) = n AS whole, n7 < n AS below, sum(n7) OVER () < sum(n) OVER () AS total_below FROM shares ORDER BY kind;

-- id: numexact-035
SELECT floor(w) AS f, ceil(w - 2) AS c, w BETWEEN 2 AND 2 AS exactly_two FROM (SELECT v * 2 + 0 AS w FROM (SELECT 1.0 / 3 * 3 AS v) AS a) AS b;

-- id: numexact-036
SELECT x.*, floor(x.v) AS f FROM (SELECT id, id / 3.0 * 3 AS v FROM projects) AS x JOIN projects p ON p.id = x.v ORDER BY x.id;

-- id: numexact-037
SELECT floor(v) AS f FROM (SELECT 2.0 / 3 * 3 AS v ORDER BY v LIMIT 1) AS s;

-- id: numexact-038
SELECT count(*) AS n, count(*) FILTER (WHERE ratio = 1) AS ones, min(floor(ratio)) AS low FROM (SELECT id / 3.0 * 3 / id AS ratio FROM spans WHERE id > 0) AS r;

-- A moving frame's numeric sum / mean has the scale of the values in the frame (the largest scale seen before
-- printed 31587.75000000000000000000 for 31587.750000000000), and window functions over a derived table's exact
-- column (a 500 before: outside tester s14).
-- id: numexact-039
SELECT id, avg(id / 2.0) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS a, sum(id / 2.0) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM spans WHERE id IN (1, 2, 3, 9998, 9999, 10000, 10001, 10002) ORDER BY id;

-- id: numexact-040
SELECT v, sum(v) OVER (ORDER BY v) AS s, avg(v) OVER () AS a, rank() OVER (ORDER BY v DESC) AS r, lag(v) OVER (ORDER BY v) AS l FROM (SELECT id / 3.0 AS v FROM spans ORDER BY id LIMIT 4) AS s ORDER BY v;

-- Exact numerics through subqueries (session 15): a scalar subquery's value, IN (SELECT ...) and a UNION ALL
-- branch kept every digit only inside their own query; SQLite compared the doubles, so (SELECT 1.0 / 3 * 3) = 1,
-- 1 IN (SELECT 1.0 / 3 * 3) and a union's 0.99999999999999999999 = 1 were true.
-- id: numexact-041
SELECT (SELECT 1.0 / 3 * 3) = 1 AS a, 1 IN (SELECT 1.0 / 3 * 3) AS b, (SELECT 1.0 / 3 * 3) AS c, 2 NOT IN (SELECT id / 1.0 FROM projects) AS d, NULL::int IN (SELECT 1.0) AS e;

-- id: numexact-042
SELECT p.id, (SELECT avg(s.id) FROM spans s WHERE s.id % 6 = p.id) AS mean, (SELECT sum(s.cost_usd::numeric) / 3 FROM spans s WHERE s.id % 6 = p.id) AS third, floor((SELECT sum(id) / 7.0 FROM spans WHERE id < 100) * 7) AS f FROM projects p ORDER BY p.id;

-- id: numexact-043
SELECT id FROM spans WHERE id / 2.0 IN (SELECT id / 4.0 * 2 FROM spans ORDER BY 1 DESC LIMIT 3) OR id * 1.0 IN (SELECT 5.000 UNION ALL SELECT 7) ORDER BY id;

-- id: numexact-044
SELECT x, floor(x) AS f, x = 1 AS one FROM (SELECT 1.0 / 3 * 3 AS x UNION ALL SELECT 2 UNION ALL SELECT 2.5 UNION ALL SELECT NULL) AS s ORDER BY x;

-- id: numexact-045
SELECT count(*) AS n FROM spans WHERE id > (SELECT avg(id) FROM spans) AND id / 3.0 * 3 <> (SELECT max(id) FROM spans);

-- max / min of exact numerics (session 15, outside tester s15): SQLite's max of the doubles made "which one is the
-- largest" find no row, and printed 15922.666666666668 for 15922.666666666667.
-- id: numexact-046
WITH m AS (SELECT kind, avg(id) AS a, count(*) FILTER (WHERE status = 'ERROR') * 100.0 / count(*) AS r FROM spans GROUP BY 1) SELECT kind, a = (SELECT max(a) FROM m) AS top, r < (SELECT max(r) FROM m) AS below, r = max(r) OVER () AS worst, min(r) OVER (ORDER BY kind ROWS 1 PRECEDING) AS low FROM m ORDER BY kind;

-- id: numexact-047
SELECT kind, max(id / 3.0) AS hi, min(id / 7.0) AS lo, max(DISTINCT id / 3.0) AS d, count(*) FILTER (WHERE id / 3.0 = (SELECT max(id / 3.0) FROM spans)) AS at_max FROM spans GROUP BY kind ORDER BY 1;

-- id: numexact-048
SELECT max(x) AS hi, min(x) AS lo, max(x) = 1 AS one FROM (SELECT 1.0 / 3 * 3 AS x UNION ALL SELECT 1 UNION ALL SELECT NULL) AS s;

-- A VALUES list's exact numerics (session 15, outside tester s15): a join on a VALUES column of quotients found no row.
-- id: numexact-049
SELECT p.id, v.x, floor(v.x * 3) AS f FROM projects p JOIN (VALUES (1, 1.0 / 3), (2, 2.0 / 3), (3, NULL), (4, 4)) AS v(i, x) ON p.id / 3.0 = v.x ORDER BY 1;

-- id: numexact-050
SELECT sum(x) AS s, max(x) * 3 AS m, floor(min(x) * 3) AS f, count(*) FILTER (WHERE x = 1) AS ones FROM (VALUES (2.0 / 3), (1.0 / 3), (1), (1.0 / 3 * 3)) AS v(x);

-- lag / lead / first_value of exact numerics, CAST(exact AS numeric), GROUP BY an exact expression written in the
-- select list (session 15, outside tester s15: doubles, and a 500 for the GROUP BY).
-- id: numexact-051
SELECT id, lead(id / 3.0) OVER (ORDER BY id) * 3 AS a, lag(id / 3.0, 1, 0) OVER (ORDER BY id) AS b, first_value(id / 7.0) OVER (ORDER BY id) AS c, id / 3.0 - lag(id / 3.0) OVER (ORDER BY id) AS d, (id / 3.0)::numeric AS e, floor(CAST(id / 3.0 AS numeric) * 3) AS f FROM spans ORDER BY id LIMIT 5;

-- id: numexact-052
SELECT v, v - lag(v) OVER (ORDER BY v) AS d, last_value(v) OVER (ORDER BY v ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) * 3 AS l FROM (SELECT id / 3.0 AS v FROM spans ORDER BY id LIMIT 4) AS s ORDER BY v;

-- id: numexact-053
SELECT id / 3.0 AS k, round(id / 1000.0, 1) AS r, count(*) AS n FROM spans WHERE id < 2500 GROUP BY id / 3.0, round(id / 1000.0, 1) ORDER BY 1 LIMIT 4;

-- x % y and mod(x, y) of numerics (session 15, outside tester s15: fmod of the doubles printed 0.666666666667); a
-- text function's result cast to an integer (refused before: "may have a fraction").
-- id: numexact-054
SELECT id, (id / 3.0) % 1 AS a, mod(id / 7.0, 1) AS b, (1.0 / 3) % (1.0 / 7) AS c, -7.5 % 2 AS d, 7 % 2.5 AS e, mod(-id, 2.5) AS f, sum((id / 3.0) % 1) OVER () AS s FROM spans ORDER BY id LIMIT 4;

-- id: numexact-055
SELECT split_part('a:12', ':', 2)::int AS a, split_part(' 7 ', ':', 1)::int AS c, CAST(regexp_substr('x-42', '[0-9]+') AS bigint) AS b;

-- id: numexact-056
SELECT mod(7.50, 2) AS a, 7.50 % 2 AS b, mod(id, 7.0) AS c, 100 % 7.0 AS d, mod(7, 2.00) AS e, 0.0 % 5 AS f, (id / 3.0) % 0.30 AS g, mod(-id / 4.0, 0.5) AS h FROM spans ORDER BY id LIMIT 3;

-- GROUP BY an exact expression: the select list prints its digits, a computation over the key is admitted (it was
-- refused: "id must appear in GROUP BY"), and a derived table's exact column grouped by name (outside tester s15b).
-- id: numexact-057
SELECT x / 3.0 AS k, x / 3.0 + 1 AS k1, count(*) AS n FROM (VALUES (1), (2), (1), (4)) AS v(x) GROUP BY x / 3.0 HAVING x / 3.0 < 1.4 ORDER BY k;

-- id: numexact-058
SELECT x, count(*) AS n FROM (SELECT 2.0 / 3 AS x UNION ALL SELECT 2.0 / 3 UNION ALL SELECT 1.0 / 3) AS t GROUP BY x ORDER BY x;

-- An exact item without an alias next to an ORDER BY / GROUP BY column (outside tester s15c: a 500, and the
-- double's digits under coalesce).
-- id: numexact-059
SELECT kind, coalesce(id / 3.0, 0) FROM spans WHERE id < 40 ORDER BY kind DESC, 2 LIMIT 5;

-- id: numexact-060
SELECT kind, coalesce(stddev(id), 0), coalesce(avg(id / 3.0), 0) FROM spans GROUP BY kind ORDER BY kind;

-- Exact numerics grouped, sorted and deduped by value on SQLite (the pg_numeric collation: outside testers s15,
-- s15c). Values equal as doubles but not as numerics (2 / 3.0 and 1 / 3.0 + 1 / 3.0) stay two; a UNION, INTERSECT,
-- EXCEPT, DISTINCT or GROUP BY key prints every digit; the set's ORDER BY sorts by value.
-- id: numexact-061
SELECT count(*) AS n FROM (SELECT 2 / 3.0 AS x UNION SELECT 1 / 3.0 + 1 / 3.0) AS t;

-- id: numexact-062
SELECT x, count(*) AS n FROM (SELECT 2 / 3.0 AS x UNION ALL SELECT 1 / 3.0 + 1 / 3.0) AS s GROUP BY x ORDER BY x;

-- id: numexact-063
SELECT 2.0 / 3 AS x UNION SELECT 1.0 / 3 UNION SELECT 1 UNION SELECT 2.50 ORDER BY x;

-- id: numexact-064
SELECT count(*) AS n FROM (SELECT 2 / 3.0 INTERSECT SELECT 1 / 3.0 + 1 / 3.0) AS t;

-- id: numexact-065
SELECT id / 3.0 AS x FROM projects EXCEPT SELECT 1 ORDER BY x;

-- id: numexact-066
SELECT DISTINCT (id % 50) / 3.0 AS x FROM spans WHERE id < 40 ORDER BY x LIMIT 5;

-- id: numexact-067
SELECT (id % 50) / 3.0 AS k, count(*) AS n FROM spans GROUP BY k ORDER BY n DESC, k LIMIT 3;

-- id: numexact-068
SELECT id FROM (VALUES (1, 2 / 3.0), (2, 1 / 3.0 + 1 / 3.0)) AS v(id, x) ORDER BY x, id LIMIT 1;

-- id: numexact-069
SELECT rank() OVER (ORDER BY x) AS r, x FROM (SELECT 2 / 3.0 AS x UNION ALL SELECT 1 / 3.0 + 1 / 3.0) AS s ORDER BY x;

-- id: numexact-070
SELECT count(DISTINCT x) AS n FROM (SELECT 2 / 3.0 AS x UNION ALL SELECT 1 / 3.0 + 1 / 3.0 UNION ALL SELECT 4 / 6.0) AS s;

-- id: numexact-071
SELECT kind, avg(id % 50) AS a FROM spans GROUP BY kind UNION ALL SELECT 'all', avg(id % 50) FROM spans ORDER BY a DESC LIMIT 3;

-- id: numexact-072
VALUES (1.0 / 3, 1), (2.50, 2), (-1, 3) ORDER BY 1;

-- id: numexact-073
SELECT p.id FROM projects AS p JOIN (SELECT DISTINCT id / 3.0 AS x FROM projects) AS v ON p.id / 3.0 = v.x ORDER BY 1;

-- GREATEST / LEAST / NULLIF of exact numerics compare the decimals and pass on the digits; percentile_disc and
-- mode() of exact values order the decimals (outside testers s15, s15c).
-- id: numexact-074
SELECT greatest(1.0 / 3, 0.3333) AS g, least(2.0 / 3, 0.67) AS l, greatest(2.0 / 3, 0.1) * 3 AS g3, nullif(1.0 / 3 * 3, 1) AS n1, nullif(3 / 3.0, 1) AS n2;

-- id: numexact-075
SELECT id, greatest((id % 50) / 3.0, 100) AS g, least((id % 50) / 3.0, NULL, 50) AS l FROM spans WHERE id < 12 ORDER BY id;

-- id: numexact-076
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY (id % 50) / 3.0) AS p, mode() WITHIN GROUP (ORDER BY (id % 50) / 3.0 DESC) AS m FROM spans WHERE id < 40;

-- id: numexact-077
WITH d AS (SELECT start_time::date AS d, avg(extract(epoch FROM end_time - start_time)) AS a FROM traces GROUP BY 1) SELECT d FROM d WHERE a >= (SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY a) FROM d) ORDER BY d;

-- sqrt of a numeric: exact (the integer square root), rounded at numeric.c's scale (long double was one off in the
-- last digit; outside tester s15).
-- id: numexact-078
SELECT id, sqrt(id / 3.0) AS a, sqrt(id * 1000003.0) AS b, sqrt(0.0002) AS c, sqrt(12345678.9123456) AS d, sqrt(2.0) * sqrt(2.0) AS e FROM projects ORDER BY id;

-- id: numexact-079
SELECT sqrt(avg(id % 50)) AS s, sqrt(sum(id) / 7.0) AS t FROM spans;

-- A set operation of an exact numeric and a float8 is double precision: the doubles, not texts (which SQLite
-- sorts after every number: max() chose 0.333..., WHERE x > 0.4 kept it; outside tester s16); a RANGE frame with
-- an offset computes on its ORDER BY key; GROUP BY a derived table's exact column with HAVING; 1e15 printed plain.
-- id: numexact-080
SELECT max(x) AS hi, min(x) AS lo, count(*) AS n FROM (SELECT 1 / 3.0 AS x UNION SELECT 5::float8 UNION SELECT 0.5) AS t;

-- id: numexact-081
SELECT x FROM (SELECT id / 3.0 AS x FROM projects UNION ALL SELECT 0.5::float8) AS t WHERE x > 0.4 ORDER BY x;

-- id: numexact-082
SELECT coalesce(NULL, 1 / 3.0, 0.5::float8) AS c, CASE WHEN id > 2 THEN id / 3.0 ELSE 0.5::float8 END AS k FROM projects ORDER BY k;

-- id: numexact-083
SELECT id, count(*) OVER (ORDER BY CAST(id / 2.0 AS double precision) RANGE BETWEEN 0.7 PRECEDING AND 0.7 FOLLOWING) AS n FROM projects ORDER BY id;

-- id: numexact-084
SELECT x, count(*) AS n FROM (SELECT id / 2.0 AS x FROM projects UNION ALL SELECT 1) AS t GROUP BY x HAVING x >= 1 ORDER BY x DESC;

-- id: numexact-085
SELECT 1e15 AS x UNION SELECT 1 / 3.0 UNION SELECT 5e-7 ORDER BY x;

-- array_agg of exact values prints each element's digits; sum / avg (DISTINCT) of exact values and of integers add
-- each numeric value once, exactly (outside testers s15, s16).
-- id: numexact-086
SELECT array_agg(x ORDER BY x DESC) AS a FROM (SELECT 1 / 3.0 AS x UNION SELECT 2 UNION SELECT 1.5) AS t;

-- id: numexact-087
SELECT kind, array_agg((id % 50) / 3.0 ORDER BY id) AS a FROM spans WHERE id < 12 GROUP BY kind ORDER BY kind;

-- id: numexact-088
SELECT sum(DISTINCT x) AS s, avg(DISTINCT x) AS a, count(DISTINCT x) AS n FROM (SELECT 1 / 3.0 AS x UNION ALL SELECT 1.0 / 3 UNION ALL SELECT 2 UNION ALL SELECT 2.0) AS t;

-- id: numexact-089
SELECT kind, avg(DISTINCT id % 7) AS a, sum(DISTINCT (id % 7) / 3.0) AS s FROM spans GROUP BY kind ORDER BY kind;

-- exp, ln, log and power of numerics at numeric.c's scales, computed in fixed point with guard digits (long
-- double's 19 digits differed in the last places: exp(0.0006...), ln near 1, avg(x) ^ 2; outside tester s15);
-- power with an integer exponent at its 16 places (8.0000000000000000).
-- id: numexact-090
SELECT exp(0.0006) AS a, ln(1.0006) AS b, power(2.0, 0.5) AS c, exp(10.25) AS d, exp(-100.25) AS e, power(2.0, 3) AS f, power(1.5, -7) AS g, (26 / 3.0) ^ 2 AS h;

-- id: numexact-091
SELECT id, exp(id / 10000.0) AS a, ln(id / 7.0) AS b, log(id + 0.5) AS c, power(id / 3.0, 1.5) AS d, log(id + 1.5, 1000.0) AS e FROM projects ORDER BY id;

-- id: numexact-092
SELECT power(avg(id % 50), 0.5) AS a, avg(id % 50) ^ 2 AS b, exp(avg(id % 50) / 100) AS c, ln(avg(id % 50)) AS d, 2.0 ^ 0.5 * 2.0 ^ 0.5 AS e FROM spans;

-- IS [NOT] DISTINCT FROM, CASE x WHEN y, count(DISTINCT) / window keys of COALESCE(exact, float8), percentile_disc
-- written as text, and a numeric literal's scale through VALUES / UNION ALL into text (outside tester s16b).
-- id: numexact-093
SELECT x, x IS DISTINCT FROM 1 AS d, x IS NOT DISTINCT FROM 1.0 AS nd, CASE x WHEN 1 THEN 'one' WHEN 2 / 3.0 THEN 'tt' ELSE 'other' END AS c FROM (VALUES ((1 / 3.0) * 3), (1.0), (2 / 3.0), (NULL)) AS v(x) ORDER BY x NULLS LAST;

-- id: numexact-094
SELECT count(DISTINCT coalesce(v, 0::float8)) AS n, count(*) AS m FROM (SELECT 1 / 3.0 * 3 AS v UNION ALL SELECT 1.0) AS t;

-- id: numexact-095
SELECT v, count(*) OVER (PARTITION BY coalesce(v, 0::float8)) AS n FROM (SELECT 1 / 3.0 * 3 AS v UNION ALL SELECT 1.0) AS t ORDER BY v;

-- id: numexact-096
SELECT (percentile_disc(0.5) WITHIN GROUP (ORDER BY (id % 50) / 3.0))::text AS p, (mode() WITHIN GROUP (ORDER BY (id % 50) / 4.0))::text AS m FROM spans;

-- id: numexact-097
SELECT (x * 2)::text AS t, 'a' || x AS a, x FROM (VALUES (2.50), (1.0), (3)) AS v(x) ORDER BY x;

-- id: numexact-098
SELECT x::text AS t, x FROM (SELECT 2.50 AS x UNION ALL SELECT 1 UNION ALL SELECT 1.0) AS s ORDER BY x, t;

-- Refused with a FIX that runs (the FIX's statement is the next one).
-- id: numexact-099
SELECT array_agg(DISTINCT x) AS a FROM (SELECT 1 / 3.0 AS x UNION ALL SELECT 2 / 3.0) AS t;

-- id: numexact-100
SELECT array_agg(x ORDER BY x) AS a FROM (SELECT DISTINCT x FROM (SELECT 1 / 3.0 AS x UNION ALL SELECT 2 / 3.0 UNION ALL SELECT 1.0 / 3) AS t) AS d;

-- id: numexact-101
SELECT x, count(*) OVER (ORDER BY x / 3.0 RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS n FROM (VALUES (1), (2), (4), (5), (7)) AS v(x) ORDER BY x;

-- A numeric literal's scale in exact arithmetic, extract(epoch ...)'s scale through sum / avg, and a derived
-- table's exact column written as text sorts as text (outside tester s16b).
-- id: numexact-102
SELECT 'took ' || ((id % 50) * 1.0)::text || ' ms' AS t, (id % 50) * 1.0 AS a, (id % 50) / 2.50 AS b, (id % 50) + 0.50 AS c FROM spans ORDER BY id LIMIT 3;

-- id: numexact-103
SELECT sum(extract(epoch FROM end_time - start_time))::text AS s, avg(extract(epoch FROM end_time - start_time)) AS a FROM traces;

-- id: numexact-104
SELECT x::text FROM (VALUES (2.50), (100), (1.0)) AS v(x) ORDER BY x;

-- id: numexact-105
SELECT avg(x) AS a, sum(x) AS s, sum(DISTINCT x) AS d FROM (VALUES (1.50), (2.5), (2.50)) AS v(x);

-- string_agg / array_agg ORDER BY an exact key: the decimals' order (outside tester s16b).
-- id: numexact-106
SELECT string_agg(y, ',' ORDER BY x, y) AS s, array_agg(y ORDER BY x DESC, y) AS a FROM (VALUES ((1 / 3.0) * 3, 'b'), (1.0, 'a'), (0.9999999999, 'c')) AS v(x, y);

-- id: numexact-107
SELECT string_agg(y, ',' ORDER BY x) AS s FROM (SELECT 'p' AS y, 2 / 3.0 AS x UNION ALL SELECT 'q', 1 / 3.0 + 1 / 3.0) AS t;

-- id: numexact-108
SELECT kind, string_agg(kind || (id % 7), ',' ORDER BY (id % 7) / 3.0 DESC, id) AS s FROM spans WHERE id < 30 GROUP BY kind ORDER BY kind;

-- NULLIF(a, b) is of a's and b's common type: x / NULLIF(y, 0.0) divides numerics (SQLite divided the integers;
-- outside tester s17d).
-- id: numexact-109
SELECT 7 / nullif(2, 0.0) AS a, 7 / nullif(2, 0) AS b, nullif(7, 0.0) / 2 AS c;

-- id: numexact-110
SELECT kind, max((id % 997)) / nullif(min((id % 997)), 0.0) AS a, count(*) FILTER (WHERE (id % 997) / nullif(1000, 0.0) > 1.5) AS n FROM spans GROUP BY kind ORDER BY kind;

-- id: numexact-111
SELECT id, nullif((id % 997), 0::float8) / 1000 AS a FROM spans WHERE id < 6 ORDER BY id;

-- A quoted number cast to numeric is that numeric literal on SQLite, its scale as written (the text went through
-- SQLite's double: '0.10'::numeric * id printed 0.1; outside tester s17d).
-- id: numexact-112
SELECT ('0.10'::numeric * id)::text AS a, '$' || ('19.90'::numeric + 0.1) AS b, CAST(' 2.50 ' AS numeric) * 2 AS c, '42'::numeric / 5 AS d FROM projects WHERE id < 4 ORDER BY id;

-- id: numexact-113
SELECT count(*) AS n FROM spans WHERE (id % 997)::numeric / 100 > '1.5'::numeric;

-- power(numeric, integer) of many digits: in fixed point with guard digits (a long double lost the last digits:
-- power(1.0001, 10000) ended ...261 for ...249; outside tester s19d).
-- id: exact-power-many-digits
SELECT power(1.0001, 10000) AS a, power(1 + 0.05 / 365, 3650) AS b, power(0.9999, 10000) AS c,
       power(1.0001, -10000) AS d, power(-1.00001, 99999) AS e, power(12.5, 3000)::text AS f;
