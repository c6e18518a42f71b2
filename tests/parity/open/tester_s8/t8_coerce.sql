-- tester8 (session 8): t8_coerce
-- database: demo

-- id: t8co-001
SELECT 1 = '1', '1' = 1, nullif(1, '1'), '2' > 10, 2 < '10', '10' > 9;

-- id: t8co-002
SELECT count(*) FROM projects WHERE id = '1';

-- id: t8co-003
SELECT count(*) FROM projects WHERE id IN ('1', 2);

-- id: t8co-004
SELECT count(*) FROM projects WHERE '2' < id;

-- id: t8co-005
SELECT count(*) FROM spans WHERE cost_usd > '0.001';

-- id: t8co-006
SELECT count(*) FROM spans WHERE parent_id = '1';

-- id: t8co-007
SELECT coalesce(1, 'a');

-- id: t8co-008
SELECT coalesce(parent_id, 'none') FROM spans ORDER BY id LIMIT 1;

-- id: t8co-009
SELECT CASE WHEN true THEN 1 ELSE 'x' END;

-- id: t8co-010
SELECT CASE WHEN id > 2 THEN id ELSE '0' END FROM projects ORDER BY id;

-- id: t8co-011
SELECT substr('abcdef', 3, -1);

-- id: t8co-012
SELECT substr('abcdef', -2, 4), substr('abcdef', 0), substr('abcdef', 1, 0);

-- id: t8co-013
SELECT 'a_c' LIKE 'a#_c' ESCAPE '#', 'abc' LIKE 'a#_c' ESCAPE '#', 'a\b' LIKE 'a\\b', 'a%' LIKE 'a!%' ESCAPE '!';

-- id: t8co-014
SELECT 'x' || 1::numeric(5,2), 'x' || CAST(2 AS numeric(6,3));

-- id: t8co-015
SELECT DISTINCT x FROM (VALUES (1.0), (1.00), (1)) t(x);

-- id: t8co-016
SELECT x, count(*) FROM (VALUES (1.0), (1.00), (1)) t(x) GROUP BY x;

-- id: t8co-017
SELECT true > false, true AND NULL, NOT NULL::boolean, (1 > 0)::text, true::text;

-- id: t8co-018
SELECT count(*) FILTER (WHERE NULL), count(*) FILTER (WHERE cost_usd > 0) FROM spans;

-- id: t8co-019
SELECT id FROM projects ORDER BY id LIMIT ALL;

-- id: t8co-020
SELECT id FROM projects ORDER BY id LIMIT NULL;

-- id: t8co-021
SELECT id FROM projects ORDER BY id OFFSET -1;

-- id: t8co-022
SELECT id FROM projects ORDER BY id LIMIT -1;

-- id: t8co-023
SELECT id FROM projects ORDER BY id LIMIT 2.5;

-- id: t8co-024
SELECT 1.1 * 1.1 = 1.21, 1.1 * 1.1, 3 * 1.1;

-- id: t8co-025
SELECT cost_usd * 100 = 0.1437 FROM spans WHERE id = 27;

-- id: t8co-026
SELECT sum(x) = 0.3 FROM (VALUES (0.1), (0.2)) t(x);

-- id: t8co-027
SELECT sum(x) FROM (VALUES (0.1), (0.2)) t(x);

-- id: t8co-028
SELECT 0.1 + 0.2, 1.005 * 1000, 0.3 - 0.1;

-- id: t8co-029
SELECT (0.1 + 0.2)::text, (1.10)::text, 1.10::float8::text;

-- id: t8co-030
SELECT id, id BETWEEN SYMMETRIC 4 AND 2 FROM projects ORDER BY id;

-- id: t8co-031
SELECT count(*) FROM spans WHERE NOT (cost_usd > 0.001);

-- id: t8co-032
SELECT count(*) FROM spans WHERE cost_usd NOT BETWEEN 0.001 AND 0.002;

-- id: t8co-033
SELECT length(123), upper(1);

-- id: t8co-034
SELECT 3 / 2 * 2.0, 3 / 2.0 * 2;

-- id: t8co-035
SELECT 2 * 3 % 4, -2 ^ 2;

-- id: t8co-036
SELECT - - 1, 1 - -1, +1;

-- id: t8co-037
SELECT x FROM (VALUES ('a'), ('B'), ('_'), ('1'), ('é'), ('Z')) t(x) ORDER BY x;

-- id: t8co-038
SELECT x FROM (VALUES ('a b'), ('a-b'), ('ab'), ('a')) t(x) ORDER BY x;

-- id: t8co-039
SELECT max(x), min(x) FROM (VALUES (1.5), (10), (9.99)) t(x);

-- id: t8co-040
SELECT max(x), min(x) FROM (VALUES ('10'), ('9')) t(x);

-- id: t8co-041
SELECT id, CASE WHEN parent_id IS NULL THEN 'root' END FROM spans ORDER BY id LIMIT 2;

