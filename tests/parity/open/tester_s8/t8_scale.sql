-- tester8 (session 8): t8_scale
-- database: chinook

-- id: t8sc-001
SELECT (total * 1.0)::text, (total + 0)::text, round(total, 1)::text, (total * 2)::text FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8sc-002
SELECT 'x' || round(total, 3), 'x' || (total / 1) FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8sc-003
SELECT string_agg(round(total, 1)::text, ',' ORDER BY invoiceid) FROM invoice WHERE invoiceid < 5;

-- id: t8sc-004
SELECT string_agg((unitprice * quantity)::text, ',' ORDER BY invoicelineid) FROM invoiceline WHERE invoicelineid < 5;

-- id: t8sc-005
SELECT max(total)::text, min(unitprice)::text FROM invoice, track;

-- id: t8sc-006
SELECT (avg(milliseconds))::text FROM track;

-- id: t8sc-007
SELECT 'n=' || count(*) || ' avg=' || round(avg(total), 2) FROM invoice;

-- id: t8sc-008
SELECT split_part(total::text, '.', 2) FROM invoice ORDER BY invoiceid LIMIT 3;

-- id: t8sc-009
SELECT length(total::text), length(sum(total)::text) FROM invoice GROUP BY total ORDER BY total LIMIT 3;

-- id: t8sc-010
SELECT count(*) FROM invoice WHERE total::text LIKE '%.0%';

-- id: t8sc-011
SELECT count(*) FROM invoice WHERE (total * 10)::text LIKE '%.0';

