-- tester8 (session 8): t8_chinook
-- database: chinook

-- id: t8chk-001
SELECT 'x' || total FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-002
SELECT total::text, unitprice::text FROM invoice i JOIN invoiceline l ON l.invoiceid = i.invoiceid ORDER BY l.invoicelineid LIMIT 3;

-- id: t8chk-003
SELECT concat(total, ' USD') FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-004
SELECT format('%s', total) FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-005
SELECT sum(total), avg(total), min(total) FROM invoice;

-- id: t8chk-006
SELECT billingcountry, sum(total) FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 5;

-- id: t8chk-007
SELECT sum(total) / count(*) FROM invoice;

-- id: t8chk-008
SELECT sum(quantity) / count(*), sum(quantity)::numeric / count(*) FROM invoiceline;

-- id: t8chk-009
SELECT sum(unitprice * quantity) FROM invoiceline;

-- id: t8chk-010
SELECT round(total, -1), round(total, 0), trunc(total) FROM invoice ORDER BY invoiceid LIMIT 5;

-- id: t8chk-011
SELECT total * 1.1 FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-012
SELECT total / 3 FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-013
SELECT unitprice / 2 FROM track ORDER BY trackid LIMIT 2;

-- id: t8chk-014
SELECT milliseconds / 60000, milliseconds / 60000.0, milliseconds % 60000 FROM track ORDER BY trackid LIMIT 3;

-- id: t8chk-015
SELECT avg(milliseconds), avg(milliseconds)::int, round(avg(milliseconds)) FROM track;

-- id: t8chk-016
SELECT sum(bytes) FROM track;

-- id: t8chk-017
SELECT sum(bytes) / count(*) FROM track;

-- id: t8chk-018
SELECT count(*) FROM invoice WHERE invoicedate >= '2010-01-01T05:00:00+05:00';

-- id: t8chk-019
SELECT count(*) FROM invoice WHERE invoicedate >= '2010-01-01 00:00:00+14';

-- id: t8chk-020
SELECT count(*) FROM invoice WHERE invoicedate >= TIMESTAMPTZ '2010-01-01T00:00:00+14:00';

-- id: t8chk-021
SELECT count(*) FROM invoice WHERE invoicedate >= '2010-01-01';

-- id: t8chk-022
SELECT count(*) FROM invoice WHERE invoicedate >= '2010-01-01 12:00';

-- id: t8chk-023
SELECT count(*) FROM invoice WHERE invoicedate < '2009-01-02T00:00:00Z';

-- id: t8chk-024
SELECT invoicedate FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-025
SELECT invoicedate AT TIME ZONE 'UTC' FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-026
SELECT invoicedate AT TIME ZONE 'America/New_York' FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-027
SELECT (invoicedate AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo' FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-028
SELECT date_trunc('month', invoicedate) AS m, count(*) FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 3;

-- id: t8chk-029
SELECT extract(epoch FROM invoicedate) FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-030
SELECT to_char(invoicedate, 'YYYY-MM-DD HH24:MI') FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-031
SELECT invoicedate::date, invoicedate + INTERVAL '1 day' FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-032
SELECT invoicedate::timestamptz FROM invoice ORDER BY invoiceid LIMIT 2;

-- id: t8chk-033
SELECT max(invoicedate) - min(invoicedate) FROM invoice;

-- id: t8chk-034
SELECT count(*) FROM invoice WHERE invoicedate > now() - INTERVAL '20 years';

-- id: t8chk-035
SELECT customerid, string_agg(total::text, ',' ORDER BY invoiceid) FROM invoice WHERE customerid < 3 GROUP BY 1 ORDER BY 1;

-- id: t8chk-036
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total), percentile_disc(0.5) WITHIN GROUP (ORDER BY total), mode() WITHIN GROUP (ORDER BY total) FROM invoice;

-- id: t8chk-037
SELECT greatest(total, 10), least(total, 1.5::float8) FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8chk-038
SELECT total::int, total::numeric(10,1), (total * 100)::bigint FROM invoice ORDER BY invoiceid LIMIT 5;

-- id: t8chk-039
SELECT total = 1.98, total = 1.980, total::float8 = 1.98 FROM invoice ORDER BY invoiceid LIMIT 1;

-- id: t8chk-040
SELECT count(*) FROM invoice WHERE total = 0.99 * 2;

-- id: t8chk-041
SELECT count(*) FROM invoiceline WHERE unitprice * quantity = 0.99;

-- id: t8chk-042
SELECT count(*) FROM track WHERE unitprice = 0.99;

-- id: t8chk-043
SELECT count(*) FROM track WHERE unitprice::float8 * 3 = 2.97;

-- id: t8chk-044
SELECT sum(unitprice) FROM track WHERE unitprice * 3 = 2.97;

-- id: t8chk-045
SELECT upper(name), lower(name) FROM artist WHERE name ~ '[^ -~]' ORDER BY artistid LIMIT 10;

-- id: t8chk-046
SELECT name FROM artist WHERE name ILIKE 'the %' ORDER BY artistid LIMIT 5;

-- id: t8chk-047
SELECT name FROM artist WHERE name LIKE '%é%' ORDER BY artistid;

-- id: t8chk-048
SELECT name FROM artist ORDER BY name LIMIT 10;

-- id: t8chk-049
SELECT max(name), min(name) FROM artist;

-- id: t8chk-050
SELECT name FROM genre ORDER BY lower(name), genreid;

-- id: t8chk-051
SELECT firstname || ' ' || lastname AS n FROM customer ORDER BY n LIMIT 10;

-- id: t8chk-052
SELECT name, length(name), char_length(name) FROM artist WHERE artistid IN (1, 2, 3) ORDER BY artistid;

-- id: t8chk-053
SELECT email, split_part(email, '@', 1) FROM customer ORDER BY customerid LIMIT 3;

-- id: t8chk-054
SELECT country, count(*) FILTER (WHERE company IS NULL), bool_and(company IS NULL) FROM customer GROUP BY 1 ORDER BY 1 LIMIT 5;

-- id: t8chk-055
SELECT genreid, stddev(milliseconds), var_pop(milliseconds) FROM track GROUP BY 1 ORDER BY 1 LIMIT 4;

-- id: t8chk-056
SELECT corr(milliseconds, bytes) FROM track;

-- id: t8chk-057
SELECT 'x' || total, format('%s', total), total::text FROM invoice WHERE total > 5 ORDER BY invoiceid LIMIT 5;

-- id: t8chk-058
SELECT 'x' || unitprice FROM track WHERE unitprice > 1 ORDER BY trackid LIMIT 2;

-- id: t8chk-059
SELECT 'x' || sum(total) FROM invoice;

-- id: t8chk-060
SELECT sum(total)::text, avg(total)::text FROM invoice;

-- id: t8chk-061
SELECT count(*) FROM invoice WHERE invoicedate >= '2023-01-01T05:00:00+05:00';

-- id: t8chk-062
SELECT count(*) FROM invoice WHERE invoicedate >= '2023-01-01T22:00:00-05:00';

-- id: t8chk-063
SELECT count(*) FROM invoiceline WHERE unitprice * 3 = 2.97;

-- id: t8chk-064
SELECT count(*) FROM invoice WHERE total * 3 = 5.94;

-- id: t8chk-065
SELECT count(*) FROM invoice WHERE total / 3 = 0.66;

-- id: t8chk-066
SELECT count(*) FROM invoice WHERE total - 1.98 = 0;

-- id: t8chk-067
SELECT count(*) FROM invoice WHERE total + 0.1 = 2.08;

-- id: t8chk-068
SELECT sum(total) = 2328.60, sum(total) FROM invoice;

-- id: t8chk-069
SELECT billingcountry FROM invoice GROUP BY 1 HAVING sum(total) = 37.62 ORDER BY 1;

