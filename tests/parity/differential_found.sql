-- Wrong answers found by the differential property (fidelity differential, tests/fuzz/README.md P5,
-- issue #12), minimised, with PostgreSQL as the truth (the parity run's format, as demo.sql). Each
-- entry names the seed and statement that found it; each is fixed in admission (refused with a FIX
-- or translated) and must stay so.
-- database: demo

-- id: diff-001
-- found: seed 2 #207 (SELECT true, a.j, ... GROUP BY 1, 2 ORDER BY 1, 2, ...): ORDER BY a jsonb column on
--   SQLite sorted the JSON text ('"str"' < '1' < '{...}'); PostgreSQL sorts by jsonb's order. Now refused on SQLite.
SELECT id FROM spans WHERE id <= 30 ORDER BY attributes, id;

-- id: diff-002
-- found: as diff-001, the sort key named by its position.
SELECT attributes ->> 'llm.model_name' AS model, attributes AS attrs FROM spans WHERE id <= 30 ORDER BY 2, 1;

-- id: diff-003
-- found: as diff-001, inside a window's ORDER BY.
SELECT id, row_number() OVER (ORDER BY attributes, id) AS rn FROM spans WHERE id <= 30 ORDER BY id;

-- id: diff-004
-- found: seed 20261202 #21 (... WHERE round(a.amount, 0) >= trunc(a.amount, 2) ...): trunc(x, n) was admitted
--   on SQLite, whose trunc() takes one argument: an engine error where PostgreSQL answers. Now refused with a FIX.
SELECT id, trunc(CAST(cost_usd AS numeric), 2) AS t FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 5;

-- id: diff-005
-- found: seed 6 #232 (max(c.v || c.w) with w = true): text || boolean on SQLite wrote 1 ('x y z51'), PostgreSQL
--   writes true ('x y z5true'). Refused on SQLite with a FIX, then (s8) written true/false (pg_bool_text).
SELECT id, name || (id > 3) AS t FROM projects ORDER BY id;

-- id: diff-006
-- found: seeds 100 #283 and 104 #136: mod() on SQLite computes in doubles (mod(a.i, a.id) with a.i =
--   9007199254740993 answered 2, PostgreSQL 3; mod(x, y) / n divided as floats). Now written a % b on SQLite.
SELECT id, mod(9007199254740993, id) AS m, mod(id + 6, 4) / 2 AS h FROM projects ORDER BY id;
