-- jsonb row sources in FROM (issue #12; admission/admit/json_rows.cpp): jsonb_each, jsonb_each_text,
-- jsonb_object_keys, jsonb_array_elements(_text) over spans.attributes (jsonb, dotted keys), judged
-- against PostgreSQL by the parity run (tests/fidelity/parity.hpp). On SQLite they run as
-- json_each(pg_json_rows(x, 'function')) (executors/sqlite/sqlite_json_rows.cpp). The wrong-kind errors
-- (jsonb_each on a scalar, ...) fail on PostgreSQL, so they live in the unit tests, not here.
-- database: demo

-- id: rows-001
-- note: the key census agents run first; GROUP BY the function's own column (named by its alias)
SELECT k, count(*) AS n FROM spans, jsonb_object_keys(attributes) AS k GROUP BY k ORDER BY 2 DESC, 1;

-- id: rows-002
-- note: key/value as text, explicit CROSS JOIN LATERAL
SELECT e.key, e.value FROM spans s CROSS JOIN LATERAL jsonb_each_text(s.attributes) AS e WHERE s.id = 5 ORDER BY e.key;

-- id: rows-003
-- note: jsonb values print as jsonb: strings quoted, numbers bare
SELECT s.id, e.key, e.value FROM spans s, jsonb_each(s.attributes) AS e WHERE s.id <= 40 ORDER BY s.id, e.key;

-- id: rows-004
-- note: an unqualified id next to the row source (json_each has an id column of its own on SQLite)
SELECT id, k FROM spans, jsonb_object_keys(attributes) AS k WHERE id BETWEEN 100 AND 130 ORDER BY id, k;

-- id: rows-005
-- note: LEFT JOIN LATERAL ... ON true keeps rows whose object has no keys (none here) and the others
SELECT s.id, count(e.key) AS keys FROM spans s LEFT JOIN LATERAL jsonb_each_text(s.attributes) AS e ON true WHERE s.id <= 50 GROUP BY s.id ORDER BY s.id;

-- id: rows-006
-- note: no alias: the relation and (for object_keys) its column are named as the function
SELECT jsonb_object_keys, count(*) AS n FROM spans, jsonb_object_keys(attributes) GROUP BY jsonb_object_keys ORDER BY 1;

-- id: rows-007
-- note: a column alias list renames the columns
SELECT kv.k, count(DISTINCT kv.v) AS distinct_values FROM spans, jsonb_each_text(attributes) AS kv(k, v) WHERE kind = 'LLM' GROUP BY kv.k ORDER BY kv.k;

-- id: rows-008
-- note: values compared and aggregated as text (numbers as their digits)
SELECT e.key, min(e.value) AS lo, max(e.value) AS hi FROM spans s, jsonb_each_text(s.attributes) AS e WHERE e.key LIKE 'llm.token_count.%' GROUP BY e.key ORDER BY e.key;

-- id: rows-009
-- note: a key filter in WHERE and a count per kind of span
SELECT s.kind, count(*) AS n FROM spans s, jsonb_object_keys(s.attributes) AS k WHERE k = 'exception.message' GROUP BY s.kind ORDER BY s.kind;

-- id: rows-010
-- note: the row source in a subquery, correlated with the outer row
SELECT s.id, (SELECT count(*) FROM jsonb_object_keys(s.attributes) AS k) AS keys FROM spans s WHERE s.id <= 25 ORDER BY s.id;

-- id: rows-011
-- note: a CTE over the rows, then a join back
WITH keys AS (SELECT s.trace_id, k FROM spans s, jsonb_object_keys(s.attributes) AS k) SELECT k, count(DISTINCT trace_id) AS traces FROM keys GROUP BY k ORDER BY k;

-- id: rows-012
-- note: a value cast to a number after ->> would; here the text value cast
SELECT sum(CAST(e.value AS integer)) AS total FROM spans s, jsonb_each_text(s.attributes) AS e WHERE e.key = 'llm.token_count.total';

-- id: rows-013
-- note: jsonb values of one key compared as values (distinct providers)
SELECT count(DISTINCT e.value) AS providers FROM spans s, jsonb_each(s.attributes) AS e WHERE e.key = 'llm.provider';

-- id: rows-014
-- note: the row source's star next to a span's columns (not attributes itself: printing a whole jsonb column is
-- another path)
SELECT s.id, s.kind, e.* FROM spans s, jsonb_each_text(s.attributes) AS e WHERE s.id <= 9 ORDER BY s.id, e.key;

-- id: rows-015
-- note: the row source's star alone
SELECT e.* FROM spans s, jsonb_each(s.attributes) AS e WHERE s.id = 9 ORDER BY e.key;

-- id: rows-016
-- note: rows of a row source without ORDER BY inside an aggregate (order-free)
SELECT count(*) AS n, count(DISTINCT k) AS distinct_keys FROM spans, jsonb_object_keys(attributes) AS k;

-- id: rows-017
-- note: string_agg with its own ORDER BY over the keys of each span
SELECT s.id, string_agg(k, ',' ORDER BY k) AS keys FROM spans s, jsonb_object_keys(s.attributes) AS k WHERE s.id <= 12 GROUP BY s.id ORDER BY s.id;

-- id: rows-018
-- note: a row source reading a step into the object (-> of a key whose value is a string: a scalar, so no rows
-- would be an error; filtered to rows where the key is absent, the argument is NULL: no rows)
SELECT count(*) AS n FROM spans s, jsonb_each(s.attributes -> 'no.such.key') AS e;

-- A table whose row filter reads another table (span_annotations: span_id IN (SELECT id FROM spans)) beside a jsonb
-- row source: the filter's own id was qualified for json_each, and the re-check called it a defect (500; s20d).
-- id: rows-019
SELECT a.label, e.key, count(*) AS n FROM span_annotations a JOIN spans s ON s.id = a.span_id, jsonb_each(s.attributes) e
GROUP BY 1, 2 ORDER BY 3 DESC, 2 LIMIT 5;
