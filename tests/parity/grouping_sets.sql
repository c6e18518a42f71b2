-- GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING() on the SQLite gateway (issue #12, s8-shapes):
-- translated into one GROUP BY per grouping set, appended with UNION ALL (admission/admit/
-- grouping_sets_on_sqlite.cpp); PostgreSQL directly is the truth. Covered: ROLLUP, CUBE, GROUPING SETS,
-- (), mixed GROUP BY a, ROLLUP (b), duplicate sets (PostgreSQL keeps them), GROUPING() in the select list,
-- HAVING and ORDER BY, a column NULL in the data vs a rolled-up NULL, DISTINCT / FILTER aggregates per
-- set, grouped expressions (date_trunc), positions and output names in ROLLUP, LIMIT / OFFSET over the
-- whole result, empty input, and the refusals (window functions, more than 32 sets, ...).
-- Format: as tests/parity/demo.sql. A top-level ORDER BY is total (GROUPING() tells the rolled-up rows apart).
-- database: demo

-- id: gs-001
SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-002
SELECT kind, status, count(*) AS n, GROUPING(kind, status) AS g FROM spans GROUP BY ROLLUP (kind, status) ORDER BY kind, status;

-- id: gs-003
SELECT kind, status, count(*) AS n, GROUPING(kind, status) AS g FROM spans GROUP BY CUBE (kind, status) ORDER BY g, kind, status;

-- id: gs-004
SELECT kind, status, count(*) AS n FROM spans GROUP BY GROUPING SETS ((kind), (status), ()) ORDER BY GROUPING(kind), GROUPING(status), kind, status;

-- id: gs-005
SELECT count(*) AS n FROM spans GROUP BY ();

-- id: gs-006
SELECT kind, status, count(*) AS n FROM spans GROUP BY kind, ROLLUP (status) ORDER BY kind, status;

-- id: gs-007
-- note: duplicate grouping sets are kept (three rows per kind, one total)
SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind), ROLLUP (kind) ORDER BY kind, n;

-- id: gs-008
-- note: parent_id is NULL in the data for root spans; GROUPING() tells that NULL from the rolled-up one
SELECT parent_id IS NULL AS root, GROUPING(parent_id IS NULL) AS g, count(*) AS n FROM spans GROUP BY ROLLUP (parent_id IS NULL) ORDER BY g, root;

-- id: gs-009
SELECT date_trunc('month', start_time) AS month, count(*) AS n FROM spans GROUP BY ROLLUP (date_trunc('month', start_time)) ORDER BY month;

-- id: gs-010
SELECT date_trunc('month', start_time) AS month, kind, count(*) AS n FROM spans GROUP BY ROLLUP (1, 2) ORDER BY 1, 2;

-- id: gs-011
SELECT kind AS k, count(*) AS n FROM spans GROUP BY ROLLUP (k) ORDER BY k;

-- id: gs-012
SELECT kind, count(DISTINCT trace_id) AS traces, count(*) FILTER (WHERE status = 'ERROR') AS errors FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-013
SELECT kind, round(CAST(sum(cost_usd) AS numeric), 6) AS cost, min(start_time) AS first, max(end_time) AS last FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-014
SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) HAVING count(*) > 1000 ORDER BY kind;

-- id: gs-015
SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) HAVING GROUPING(kind) = 0 ORDER BY n DESC, kind;

-- id: gs-016
SELECT kind, status, count(*) AS n FROM spans GROUP BY ROLLUP (kind, status) ORDER BY n DESC, kind, status LIMIT 4;

-- id: gs-017
SELECT kind, status, count(*) AS n FROM spans GROUP BY ROLLUP (kind, status) ORDER BY kind, status LIMIT 3 OFFSET 2;

-- id: gs-018
SELECT kind, count(*) AS n FROM spans WHERE id < 0 GROUP BY ROLLUP (kind);

-- id: gs-019
SELECT count(*) AS n, sum(cost_usd) AS cost FROM spans WHERE id < 0 GROUP BY GROUPING SETS ((), ());

-- id: gs-020
SELECT COALESCE(kind, 'all kinds') AS kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) ORDER BY GROUPING(kind), kind;

-- id: gs-021
SELECT p.name, t.status, count(*) AS n FROM traces t JOIN projects p ON p.id = t.project_id GROUP BY ROLLUP (p.name, t.status) ORDER BY p.name, t.status;

-- id: gs-022
SELECT kind, status, count(*) AS n, GROUPING(status) AS gs, GROUPING(kind) AS gk FROM spans GROUP BY GROUPING SETS (ROLLUP (kind), CUBE (status)) ORDER BY gk, gs, kind, status;

-- id: gs-023
SELECT kind, count(*) AS n FROM spans GROUP BY kind HAVING GROUPING(kind) = 0 ORDER BY kind;

-- id: gs-024
SELECT kind, count(*) * 100 / (SELECT count(*) FROM spans) AS pct FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-025
-- note: refused on SQLite: a window function is computed over every grouping set's rows
SELECT kind, count(*) AS n, rank() OVER (ORDER BY count(*) DESC) AS r FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-026
-- note: refused on SQLite: CUBE of 6 expressions is 64 grouping sets
SELECT count(*) FROM spans WHERE id <= 2 GROUP BY CUBE (kind, status, name, trace_id, parent_id, id);

-- id: gs-027
-- note: an error on PostgreSQL (name is not grouped in the total row): refused on SQLite
SELECT id, name, count(*) FROM projects GROUP BY ROLLUP (id);

-- id: gs-028
-- note: refused on SQLite: one column written two ways
SELECT s.kind, count(*) AS n FROM spans s GROUP BY ROLLUP (kind) ORDER BY 1;

-- id: gs-029
SELECT kind, status, count(*) AS n FROM spans GROUP BY GROUPING SETS ((kind, status), (kind), ()) ORDER BY kind, status;

-- id: gs-030
SELECT DISTINCT kind FROM spans GROUP BY ROLLUP (kind);

-- id: gs-031
SELECT kind, length(kind) AS len, count(*) AS n FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-032
SELECT kind, string_agg(DISTINCT status, ',' ORDER BY status) AS statuses FROM spans GROUP BY ROLLUP (kind) ORDER BY kind;

-- id: gs-033
SELECT GROUPING(kind) AS g, count(*) FROM spans GROUP BY CUBE (kind) ORDER BY g;

-- id: gs-034
-- database: chinook
SELECT g.name AS genre, m.name AS media, count(*) AS tracks, sum(t.milliseconds) AS ms FROM track t JOIN genre g ON g.genreid = t.genreid JOIN mediatype m ON m.mediatypeid = t.mediatypeid WHERE g.genreid <= 4 GROUP BY ROLLUP (g.name, m.name) ORDER BY g.name, m.name;

-- id: gs-035
-- database: chinook
SELECT billingcountry, EXTRACT(YEAR FROM invoicedate) AS year, sum(total) AS total FROM invoice WHERE billingcountry IN ('USA', 'Canada', 'France') GROUP BY CUBE (billingcountry, EXTRACT(YEAR FROM invoicedate)) ORDER BY GROUPING(billingcountry, EXTRACT(YEAR FROM invoicedate)), billingcountry, year;

-- id: gs-036
-- database: chinook
SELECT mediatypeid, genreid, count(*) AS n FROM track WHERE genreid <= 3 GROUP BY GROUPING SETS (mediatypeid, genreid) ORDER BY GROUPING(mediatypeid), mediatypeid, genreid;

-- id: gs-037
-- database: chinook
SELECT composer IS NULL AS unknown, count(*) AS n, GROUPING(composer IS NULL) AS g FROM track GROUP BY ROLLUP (composer IS NULL) ORDER BY g, unknown;

-- id: gs-038
-- database: defog_broker
SELECT sbtxtype, sbtxstatus, count(*) AS n, min(sbtxdatetime) AS first, count(DISTINCT sbtxcustid) AS customers FROM sbtransaction GROUP BY ROLLUP (sbtxtype, sbtxstatus) ORDER BY sbtxtype, sbtxstatus;

-- id: gs-039
-- database: defog_broker
SELECT date_trunc('month', sbtxdatetime) AS month, count(*) AS n FROM sbtransaction GROUP BY ROLLUP (date_trunc('month', sbtxdatetime)) ORDER BY month;

-- id: gs-040
-- database: defog_broker
SELECT sbcustcountry, sbcuststatus, count(*) AS n, GROUPING(sbcustcountry, sbcuststatus) AS g FROM sbcustomer GROUP BY CUBE (sbcustcountry, sbcuststatus) ORDER BY g, sbcustcountry, sbcuststatus;

-- id: gs-041
SELECT kind, status, count(*) AS n FROM spans GROUP BY ROLLUP ((kind, status)) ORDER BY kind, status;

-- id: gs-042
SELECT kind, status, name IS NULL AS unnamed, count(*) AS n FROM spans GROUP BY CUBE ((kind, status), name IS NULL) ORDER BY GROUPING(kind, status, name IS NULL), kind, status, unnamed;

-- id: gs-043
-- database: chinook
SELECT g.name AS genre, m.name AS media, count(*) AS tracks FROM track t JOIN genre g ON g.genreid = t.genreid JOIN mediatype m ON m.mediatypeid = t.mediatypeid WHERE g.genreid <= 4 GROUP BY GROUPING SETS ((g.name, m.name), (g.name), ()) ORDER BY GROUPING(g.name, m.name), genre, media;

-- id: gs-044
-- note: refused on SQLite: PostgreSQL 15 drops the sort key WHERE fixes and leaves the rolled-up row's place open
SELECT kind, count(*) AS n FROM spans WHERE kind = 'LLM' GROUP BY ROLLUP (kind) ORDER BY kind DESC;

-- id: gs-045
SELECT kind, count(*) AS n FROM spans WHERE kind = 'LLM' GROUP BY ROLLUP (kind);

-- id: gs-046
-- note: refused on SQLite: PostgreSQL sorts by s.trace_id only (t.trace_id is equal to it by ON), so the order of a
--   trace's rolled-up row is open there
SELECT s.trace_id, t.trace_id, count(*) AS n FROM spans s JOIN traces t ON t.trace_id = s.trace_id WHERE t.id <= 3 GROUP BY ROLLUP (s.trace_id, t.trace_id) ORDER BY s.trace_id, t.trace_id;

-- id: gs-047
-- note: the FIX of gs-046
SELECT s.trace_id, t.trace_id, count(*) AS n FROM spans s JOIN traces t ON t.trace_id = s.trace_id WHERE t.id <= 3 GROUP BY ROLLUP (s.trace_id, t.trace_id) ORDER BY s.trace_id, GROUPING(t.trace_id);

-- id: gs-048
SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) UNION ALL SELECT 'projects', count(*) FROM projects ORDER BY 1, 2;

-- id: gs-049
WITH llm AS (SELECT kind, status, cost_usd FROM spans WHERE kind IN ('LLM', 'TOOL')) SELECT kind, status, count(*) AS n, count(cost_usd) AS priced FROM llm GROUP BY CUBE (kind, status) ORDER BY GROUPING(kind, status), kind, status;

-- id: gs-050
SELECT g.kind, g.n FROM (SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind)) AS g WHERE g.kind IS NULL OR g.n > 100 ORDER BY g.kind;

-- id: gs-051
SELECT start_time FROM spans WHERE id <= 3 UNION ALL SELECT NULL ORDER BY 1;

-- id: gs-052
SELECT date_trunc('day', start_time) AS day, count(*) AS n FROM spans WHERE id <= 500 GROUP BY ROLLUP (date_trunc('day', start_time)) HAVING count(*) > 2 ORDER BY day DESC LIMIT 5;

-- id: gs-053
-- note: a NULL first branch answered the stored text of SQLite ('…+00:00') before: a NULL literal now takes the
--   other branch's timestamp column (admit_query.cpp, null_output)
SELECT NULL AS t UNION ALL SELECT start_time FROM spans WHERE id <= 3 ORDER BY 1;
