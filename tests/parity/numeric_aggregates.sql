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

-- Windows and divisions (outside tester s11): sum / avg of a numeric OVER (...) run as the same exact
-- aggregates, now window functions; numeric a / b runs as pg_numeric_div, numeric_div's scale and rounding.
-- id: numagg-019
SELECT id, sum(cost_usd::numeric) OVER (ORDER BY id) AS running, avg(cost_usd::numeric) OVER (PARTITION BY kind) AS mean FROM spans WHERE cost_usd IS NOT NULL ORDER BY id DESC LIMIT 20;

-- id: numagg-020
SELECT id, avg(cost_usd::numeric) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS moving, sum(cost_usd::numeric) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS centred FROM spans WHERE cost_usd > 0 ORDER BY id LIMIT 40;

-- id: numagg-021
SELECT id, cost_usd::numeric / 7 AS seventh, 1.0 / 3 AS third, 10::numeric / 3 AS ten_thirds, cost_usd::numeric / (id % 9 + 1) AS share FROM spans WHERE cost_usd > 0 ORDER BY id LIMIT 30;

-- id: numagg-022
SELECT kind, sum(cost_usd::numeric) / count(*) AS per_span, count(*) * 100.0 / sum(count(*)) OVER () AS pct FROM spans GROUP BY kind ORDER BY kind;

-- id: numagg-023
SELECT round(sum(cost_usd::numeric) / nullif(sum((attributes ->> 'llm.token_count.total')::bigint), 0) * 1000000, 4) AS usd_per_million_tokens, avg((attributes ->> 'llm.token_count.total')::bigint) / 3 AS third FROM spans;

-- id: numagg-024
-- database: chinook
SELECT invoiceid, total / 3 AS third, total / 7.5 AS other, total / (invoiceid % 11 + 1) AS share, sum(total) OVER (PARTITION BY customerid ORDER BY invoiceid) AS running FROM invoice ORDER BY invoiceid LIMIT 60;

-- id: numagg-025
-- database: chinook
SELECT customerid, avg(total) OVER (PARTITION BY customerid) AS mean, total / sum(total) OVER (PARTITION BY customerid) AS share FROM invoice ORDER BY invoiceid LIMIT 60;

-- id: numagg-026
-- database: chinook
SELECT t.albumid, sum(t.unitprice) / count(*) AS mean_price, sum(t.milliseconds) / 60000.0 AS minutes, avg(t.milliseconds) / 1000 AS seconds FROM track t GROUP BY t.albumid ORDER BY t.albumid LIMIT 50;

-- id: numagg-027
-- database: chinook
SELECT billingcountry, sum(total) / (SELECT sum(total) FROM invoice) AS share FROM invoice GROUP BY billingcountry ORDER BY billingcountry;

-- id: numagg-028
SELECT x / y AS q FROM (VALUES (1.0, 3), (-2.5, 7), (0, 5), (123456789.123, 0.001), (1e-10, 3), (NULL, 2), (7, 0.03)) AS t(x, y) ORDER BY 1;

-- sum / avg of double precision over a moving window frame add each frame afresh, as PostgreSQL does (SQLite's
-- sum subtracted the rows leaving the frame: (1e20, 1, 1) over ROWS 1 PRECEDING summed 1 for 2; outside tester s13).
-- id: numagg-029
SELECT i, sum(x) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s, avg(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, sum(x) OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS f FROM (VALUES (1, '1e20'::float8), (2, 1.0::float8), (3, 1.0::float8), (4, 0.1::float8), (5, 0.2::float8), (6, NULL::float8), (7, 0.3::float8)) AS t(i, x) ORDER BY i;

-- id: numagg-030
SELECT id, sum(cost_usd) OVER (PARTITION BY trace_id ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s, avg(cost_usd) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a FROM spans WHERE id <= 3000 ORDER BY id;

-- stddev / variance of numerics on SQLite (session 15): numeric_stddev_internal's exact digits, each value read as
-- PostgreSQL's numeric holds it (a float8 cast at 15 digits, a known scale, an exact quotient's decimal).
-- id: numagg-031
SELECT kind, stddev(round(CAST(cost_usd AS numeric), 4)) AS s, variance(cost_usd::numeric) AS v, stddev_pop(id / 3.0) AS p, var_pop(id::numeric(12, 3)) AS q FROM spans GROUP BY kind ORDER BY kind;

-- id: numagg-032
SELECT stddev(x) AS s, var_samp(x) AS v, stddev_pop(x) AS p, var_pop(x) AS q, stddev(x) FILTER (WHERE x > 0) AS f FROM (VALUES (1.5), (-2.25), (NULL), (0.000001), (12345678.9)) AS t(x);

-- id: numagg-033
SELECT stddev(x) AS one_row, var_pop(x) AS pop_one, stddev(x) FILTER (WHERE x > 5) AS none, variance(y) AS equal FROM (VALUES (1.50, 2.0), (NULL, 2.00)) AS t(x, y);

-- stddev / variance compared, ordered, cast (session 15, outside tester s15b: their text answer compared with numbers
-- picked the wrong rows on SQLite).
-- id: numagg-034
SELECT kind, stddev(id) AS s FROM spans GROUP BY kind HAVING stddev(id) > 18200 AND var_pop(id / 2.0) BETWEEN 1 AND 1e12 ORDER BY variance(id) DESC, kind;

-- id: numagg-035
WITH r AS (SELECT kind, count(*) FILTER (WHERE status = 'ERROR') * 100.0 / count(*) AS e FROM spans GROUP BY 1) SELECT avg(e) AS a, stddev(e) AS s, variance(e)::numeric(20, 4) AS v, stddev(e)::text AS t, (SELECT count(*) FROM spans WHERE id > (SELECT stddev(id) FROM spans)) AS above FROM r;
