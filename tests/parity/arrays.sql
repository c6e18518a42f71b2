-- PostgreSQL arrays on every backend (issue #12, s10-arrays): answered as one JSON array form (a JSON array
-- of the elements, each in the gateway's format for its type; docs/FIDELITY.md, "Arrays"). On SQLite
-- array_agg is pg_array_agg and regexp_match pg_regexp_match (admission/admit/arrays_on_sqlite.cpp,
-- executors/sqlite/sqlite_arrays.hpp); an array anywhere but as a whole output column of the outermost
-- SELECT is refused there with a FIX (the last statements). Each statement: PostgreSQL directly is the truth.
-- Covered: ORDER BY (ASC/DESC, NULLS FIRST/LAST, several keys, ties of equal values), DISTINCT, FILTER,
-- NULL elements kept, no rows (NULL, not []), GROUP BY, integers, floats, booleans, text; regexp_match with
-- groups, without, no match, flags.
-- Format: as tests/parity/demo.sql.
-- database: demo

-- id: arr-001
SELECT array_agg(name ORDER BY name) AS names FROM projects;

-- id: arr-002
SELECT array_agg(id ORDER BY id DESC) FROM projects;

-- id: arr-003
SELECT kind, array_agg(DISTINCT status) AS statuses FROM spans GROUP BY kind ORDER BY kind;

-- id: arr-004
SELECT kind, array_agg(DISTINCT status ORDER BY status DESC) AS statuses FROM spans GROUP BY kind ORDER BY kind;

-- id: arr-005
SELECT array_agg(label ORDER BY id) AS labels FROM span_annotations WHERE span_id BETWEEN 300 AND 700;

-- id: arr-006
SELECT array_agg(label ORDER BY label NULLS FIRST, id) AS labels FROM span_annotations WHERE id <= 20;

-- id: arr-007
SELECT array_agg(label ORDER BY label DESC NULLS LAST, id DESC) AS labels FROM span_annotations WHERE id <= 20;

-- id: arr-008
SELECT array_agg(label ORDER BY id) FILTER (WHERE annotator_kind = 'HUMAN') AS labels FROM span_annotations WHERE id <= 40;

-- id: arr-009
SELECT array_agg(name ORDER BY id) FROM projects WHERE id < 0;

-- id: arr-010
SELECT array_agg(id ORDER BY id) FILTER (WHERE id % 2 = 0) AS even, array_agg(id ORDER BY id) FILTER (WHERE id > 100) AS none FROM projects;

-- id: arr-011
SELECT array_agg(parent_id ORDER BY id) AS parents FROM spans WHERE trace_id = 'c4253f31238aa4a42dfbeecec0579f27';

-- id: arr-012
SELECT array_agg(status = 'OK' ORDER BY id) AS ok FROM spans WHERE id <= 12;

-- id: arr-013
SELECT array_agg(cost_usd ORDER BY id) AS costs FROM spans WHERE id <= 12;

-- id: arr-014
SELECT array_agg(DISTINCT kind) AS kinds FROM spans;

-- id: arr-015
SELECT array_agg(name ORDER BY length(name) DESC, name) AS names FROM projects;

-- id: arr-016
SELECT count(*) AS n, array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2 ORDER BY n, min(id);

-- id: arr-017
SELECT id % 2 AS parity, array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2 ORDER BY parity;

-- id: arr-018
SELECT p.name, array_agg(DISTINCT t.status ORDER BY t.status) AS statuses, count(*) AS traces FROM projects p JOIN traces t ON t.project_id = p.id GROUP BY p.name ORDER BY p.name;

-- id: arr-019
SELECT array_agg(DISTINCT parent_id) AS parents FROM spans WHERE trace_id = 'c4253f31238aa4a42dfbeecec0579f27';

-- id: arr-020
SELECT array_agg(id * 2 ORDER BY id) AS doubled, array_agg(upper(name) ORDER BY id) AS upper_names FROM projects;

-- id: arr-021
SELECT id, regexp_match(name, '([a-z]+)-([a-z]+)') AS parts FROM projects ORDER BY id;

-- id: arr-022
SELECT id, regexp_match(name, '[a-z]+$') AS tail FROM projects ORDER BY id;

-- id: arr-023
SELECT id, regexp_match(name, '\d+') AS digits FROM projects ORDER BY id;

-- id: arr-024
SELECT id, regexp_match(name, 'BOT|ASSIST', 'i') AS m FROM projects ORDER BY id;

-- id: arr-025
SELECT regexp_match(trace_id, '^([0-9a-f]{4})([0-9a-f]{4})') AS head FROM spans WHERE id = 5;

-- id: arr-026
SELECT array_agg(name) = array_agg(name) AS same FROM projects;

-- id: arr-027
SELECT DISTINCT array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2;

-- id: arr-028
WITH a AS (SELECT array_agg(name ORDER BY name) AS names FROM projects) SELECT names FROM a;

-- id: arr-029
SELECT id % 2 AS parity, array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2 ORDER BY ids;

-- id: arr-030
SELECT CAST(array_agg(name ORDER BY name) AS text) AS names FROM projects;

-- id: arr-031
SELECT name FROM projects WHERE regexp_match(name, '-bot') IS NOT NULL ORDER BY name;
