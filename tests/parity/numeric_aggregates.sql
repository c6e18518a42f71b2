-- sum() and avg() of numerics on SQLite (issue #12; outside tester s10): PostgreSQL adds numerics exactly,
-- SQLite adds doubles (sum(cost_usd::numeric) answered 67.85329300000005 for 67.853293000). A sum of a numeric
-- of unknown scale and every avg of a numeric run as pg_numeric_sum / pg_numeric_avg on SQLite, which add the
-- values' decimals exactly (float8 to numeric keeps 15 significant digits). Format: as tests/parity/chinook.sql.
-- database: demo

-- id: numagg-001
SELECT sum(cost_usd::numeric), avg(cost_usd::numeric) FROM spans;

-- id: numagg-002
SELECT kind, sum(cost_usd::numeric) AS total, avg(cost_usd::numeric) AS mean FROM spans GROUP BY kind ORDER BY kind;

-- id: numagg-003
SELECT status, round(avg(cost_usd::numeric), 8) AS mean FROM spans WHERE cost_usd IS NOT NULL GROUP BY status ORDER BY status;

-- id: numagg-004
SELECT sum(y::numeric), avg(y::numeric) FROM (VALUES (0.1::float8), (0.2::float8), (NULL), (0.30000000000000004::float8)) v(y);

-- id: numagg-005
SELECT avg(x), sum(x) FROM (VALUES (1.0), (2.0), (2.5), (NULL)) v(x);

-- id: numagg-006
SELECT avg(x) FROM (VALUES (1.0), (2.0)) v(x) WHERE x > 5;

-- id: numagg-007
SELECT kind FROM spans GROUP BY kind HAVING sum(cost_usd::numeric) > 0 ORDER BY kind;

-- id: numagg-008
SELECT avg(x) FILTER (WHERE x > 0), sum(x::numeric) FILTER (WHERE x < 0) FROM (VALUES (-1.25::float8), (3.5::float8), (0.1::float8)) v(x);

-- id: numagg-009
SELECT avg(x) FROM (VALUES (-0.5), (-0.25), (0.1)) v(x);

-- id: numagg-010
SELECT sum(x::numeric) FROM (VALUES (123456.789::float8), (0.000001::float8), (-123456.789::float8)) v(x);

-- id: numagg-011
SELECT count(*), avg(cost_usd::numeric) * 1000 AS per_thousand FROM spans WHERE cost_usd > 0;

-- id: numagg-012
SELECT avg(round(cost_usd::numeric, 4)) FROM spans;

-- id: numagg-013
-- database: chinook
SELECT billingcountry, avg(total) AS mean, sum(total) AS total FROM invoice GROUP BY billingcountry ORDER BY billingcountry;

-- id: numagg-014
-- database: chinook
SELECT avg(unitprice), avg(unitprice * quantity), sum(unitprice * quantity) FROM invoiceline;

-- id: numagg-015
-- database: chinook
SELECT g.name, avg(t.unitprice) AS price, avg(t.milliseconds / 1000.0) AS seconds FROM track t JOIN genre g ON g.genreid = t.genreid GROUP BY g.name ORDER BY g.name;

-- id: numagg-016
SELECT kind, round(count(*) / sum(count(*)) OVER (), 6) AS share, sum(count(*)) OVER () / count(*) AS inverse FROM spans GROUP BY kind ORDER BY kind;

-- id: numagg-017
SELECT DISTINCT date_trunc('day', start_time) AS d FROM spans WHERE id < 50 ORDER BY d;

-- id: numagg-018
SELECT d, d + interval '1 day' AS next FROM (VALUES ('2026-01-02 10:00'::timestamptz), ('2026-01-03 09:00'), (NULL)) v(d) ORDER BY d;
