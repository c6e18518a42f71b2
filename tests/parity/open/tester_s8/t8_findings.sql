-- tester8 (session 8): t8_findings
-- database: demo

-- id: t8f-001
SELECT sum(id) / count(*) FROM projects;

-- id: t8f-002
SELECT sum(id) / 2 FROM projects;

-- id: t8f-003
SELECT round(1250, -2);

-- id: t8f-004
SELECT 0.1 + 0.2 = 0.3;

-- id: t8f-005
SELECT 'x' || 1.50::numeric;

-- id: t8f-006
SELECT format('%s', true);

-- id: t8f-007
SELECT format('%s', 1.0::float8);

-- id: t8f-008
SELECT format('%s', 1.50);

-- id: t8f-009
SELECT format('%s', start_time) FROM traces ORDER BY id LIMIT 1;

-- id: t8f-010
SELECT format('%d', 5);

-- id: t8f-011
SELECT TIME '24:00';

-- id: t8f-012
SELECT 2147483647 + 1;

-- id: t8f-013
SELECT (-9223372036854775807 - 1) / -1;

-- database: chinook

-- id: t8f-014
SELECT count(*) FROM invoice WHERE invoicedate >= '2023-01-01T22:00:00-05:00';

-- id: t8f-015
SELECT count(*) FROM track WHERE unitprice * 3 = 2.97;

-- id: t8f-016
SELECT billingcountry FROM invoice GROUP BY 1 HAVING sum(total) = 37.62 ORDER BY 1;

-- id: t8f-017
SELECT sum(total) = 2328.60 FROM invoice;

-- id: t8f-018
SELECT sum(total)::text FROM invoice;

-- id: t8f-019
SELECT round(total, -1) FROM invoice ORDER BY invoiceid LIMIT 1;

-- id: t8f-020
SELECT count(*) FROM invoice WHERE invoicedate = '2023-01-02T01:00:00+01:00';

-- id: t8f-021
SELECT round(total * 1.25, 2) AS r, count(*) FROM invoice GROUP BY 1 ORDER BY 1;

