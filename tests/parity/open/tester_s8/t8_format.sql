-- tester8 (session 8): t8_format
-- database: demo

-- id: t8fmt-001
SELECT format('%s|%s|%s', 1.0::float8, true, 1.50);

-- id: t8fmt-002
SELECT format('%s', 0.1::float8 + 0.2::float8);

-- id: t8fmt-003
SELECT format('%s', 0.00001::float8), format('%s', 1e20::float8);

-- id: t8fmt-004
SELECT format('%s', false), format('%s', NULL::boolean);

-- id: t8fmt-005
SELECT format('%s', 2.50::numeric), format('%s', 10.0);

-- id: t8fmt-006
SELECT format('%s', id > 3) FROM projects ORDER BY id;

-- id: t8fmt-007
SELECT format('%s: %s', kind, avg(cost_usd)) FROM spans WHERE cost_usd IS NOT NULL GROUP BY kind ORDER BY kind;

-- id: t8fmt-008
SELECT format('%s', start_time) FROM traces ORDER BY id LIMIT 2;

-- id: t8fmt-009
SELECT format('%s', attributes->'llm.token_count.total') FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8fmt-010
SELECT format('%d', 5);

-- id: t8fmt-011
SELECT format('%I', 'A b');

-- id: t8fmt-012
SELECT format('%L', 'x');

-- id: t8fmt-013
SELECT format('%1$s %1$s', 'x');

-- id: t8fmt-014
SELECT format('%s', 'a', 'b'), format('%%'), format('%s');

-- id: t8fmt-015
SELECT format('%.2s', 'abc');

-- id: t8fmt-016
SELECT format('%s', 9007199254740993);

-- id: t8fmt-017
SELECT format('%s', 1.0::real), format('%s', 3::float8 / 7);

-- id: t8fmt-018
SELECT format('%s', ARRAY[1,2]);

-- id: t8fmt-019
SELECT format(NULL, 'a'), format('%s', NULL);

-- id: t8fmt-020
SELECT format('%x', 255);

