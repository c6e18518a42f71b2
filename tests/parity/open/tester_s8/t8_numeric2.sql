-- tester8 (session 8): t8_numeric2
-- database: chinook

-- id: t8n2-001
SELECT invoiceid, round(total * 1.25, 2) FROM invoice ORDER BY invoiceid LIMIT 20;

-- id: t8n2-002
SELECT round(1.98 * 1.25, 2), round(0.99 * 2.5, 2), round(1.005, 2), round(2.675 * 1, 2);

-- id: t8n2-003
SELECT customerid, round(sum(total) / count(*), 2) FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 20;

-- id: t8n2-004
SELECT round(avg(total), 2), round(avg(unitprice), 3) FROM invoice, (SELECT avg(unitprice) AS unitprice FROM track) t;

-- id: t8n2-005
SELECT billingcountry, round(100 * sum(total) / (SELECT sum(total) FROM invoice), 2) AS pct FROM invoice GROUP BY 1 ORDER BY 1;

-- id: t8n2-006
SELECT trunc(total * 10) FROM invoice ORDER BY invoiceid LIMIT 10;

-- id: t8n2-007
SELECT floor(total * 100) FROM invoice ORDER BY invoiceid LIMIT 10;

-- id: t8n2-008
SELECT ceil(unitprice * 100) FROM track ORDER BY trackid LIMIT 3;

-- id: t8n2-009
SELECT (unitprice * 100)::int FROM track ORDER BY trackid LIMIT 3;

-- id: t8n2-010
SELECT count(*) FROM invoiceline WHERE unitprice * quantity > 0.99;

-- id: t8n2-011
SELECT count(DISTINCT total * 3) FROM invoice;

-- id: t8n2-012
SELECT total * 3 AS t, count(*) FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 5;

-- id: t8n2-013
SELECT invoicedate - INTERVAL '1 hour' FROM invoice ORDER BY invoiceid LIMIT 1;

-- id: t8n2-014
SELECT count(*) FROM invoice WHERE invoicedate = '2023-01-01 00:00:00+00';

-- id: t8n2-015
SELECT count(*) FROM invoice WHERE invoicedate = '2023-01-01T01:00:00+01:00';

-- id: t8n2-016
SELECT count(*) FROM invoice WHERE invoicedate BETWEEN '2023-01-01T00:00:00Z' AND '2023-01-31T00:00:00+03:00';

-- id: t8n2-017
SELECT count(*) FROM invoice WHERE invoicedate::date = '2023-01-05';

-- id: t8n2-018
SELECT count(*) FROM invoice WHERE invoicedate < DATE '2023-01-05' + 1;

-- id: t8n2-019
SELECT count(*) FROM invoice WHERE invoicedate IN ('2023-01-05T00:00:00-01:00', '2023-01-06T00:00:00Z');

-- id: t8n2-020
SELECT count(*) FROM invoice WHERE invoicedate > TIMESTAMP '2023-01-05 00:00:00+05';

-- id: t8n2-021
SELECT count(*) FROM invoice WHERE date_trunc('day', invoicedate) = '2023-01-05T00:00:00+02:00';

-- id: t8n2-022
SELECT max(invoicedate) FILTER (WHERE invoicedate < '2023-06-01T00:00:00-12:00') FROM invoice;

