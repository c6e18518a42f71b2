-- PostgreSQL's aggregates on the SQLite gateway (issue #12, s7-agg): stddev/variance/covar/corr/regr_*,
-- string_agg with DISTINCT / ORDER BY / FILTER, percentile_cont / percentile_disc / mode() WITHIN GROUP.
-- SQLite runs them as aggregates querygate registers (executors/sqlite/sqlite_aggregates.cpp), called by
-- admission (admission/admit/aggregates_on_sqlite.cpp). Each statement: PostgreSQL directly is the truth.
-- Covered: NULLs, empty input, one row, ties, GROUP BY, FILTER, DISTINCT, negative numbers, integer vs
-- float vs numeric inputs (numeric is refused on SQLite with the float8 cast as its FIX).
-- Format: as tests/parity/demo.sql.
-- database: demo

-- id: agg-001
SELECT stddev(cost_usd), variance(cost_usd), stddev_pop(cost_usd), var_pop(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: agg-002
SELECT stddev_samp(cost_usd), var_samp(cost_usd) FROM spans WHERE kind = 'LLM' AND status = 'ERROR';

-- id: agg-003
SELECT kind, stddev(cost_usd) AS sd, variance(cost_usd) AS v, count(*) AS n FROM spans GROUP BY kind ORDER BY kind;

-- id: agg-004
SELECT stddev(cost_usd) FROM spans WHERE id = 1;

-- id: agg-005
SELECT stddev(cost_usd), stddev_pop(cost_usd), variance(cost_usd), var_pop(cost_usd) FROM spans WHERE id < 0;

-- id: agg-006
SELECT stddev(id), variance(id), stddev_pop(id), var_pop(id) FROM projects;

-- id: agg-007
SELECT stddev(parent_id), variance(parent_id) FROM spans;

-- id: agg-008
SELECT trace_id, stddev(id) AS sd, var_pop(id) AS vp FROM spans WHERE trace_id IN (SELECT trace_id FROM traces ORDER BY id LIMIT 5) GROUP BY trace_id ORDER BY trace_id;

-- id: agg-009
SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (1), (2), (4)) AS t(x);

-- id: agg-010
SELECT stddev(x), variance(x) FROM (VALUES (5), (5), (NULL)) AS t(x);

-- id: agg-011
SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (7)) AS t(x);

-- id: agg-012
SELECT stddev(x), var_pop(x) FROM (VALUES (-3), (100000), (7), (1234567)) AS t(x);

-- id: agg-013
SELECT var_samp(x), stddev_pop(x) FROM (VALUES (1), (1), (2)) AS t(x);

-- id: agg-014
SELECT stddev(x), variance(x) FROM (VALUES (-1000000), (-999999), (-2)) AS t(x);

-- id: agg-015
SELECT stddev(CAST(x AS double precision)), variance(CAST(x AS double precision)) FROM (VALUES (1), (2), (4)) AS t(x);

-- id: agg-016
SELECT stddev(cost_usd) FILTER (WHERE status = 'OK'), variance(cost_usd) FILTER (WHERE status <> 'OK') FROM spans WHERE kind = 'LLM';

-- id: agg-017
SELECT stddev(score), variance(score), stddev(span_id) FROM span_annotations;

-- id: agg-018
SELECT annotator_kind, round(CAST(stddev(score) AS numeric), 6) AS sd FROM span_annotations GROUP BY annotator_kind ORDER BY annotator_kind;

-- id: agg-019
SELECT stddev(round(CAST(cost_usd AS numeric), 4)) FROM spans WHERE kind = 'LLM';

-- id: agg-020
SELECT stddev(CAST(round(CAST(cost_usd AS numeric), 4) AS double precision)) FROM spans WHERE kind = 'LLM';

-- id: agg-021
SELECT corr(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_slope(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_intercept(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)) FROM spans WHERE kind = 'LLM';

-- id: agg-022
SELECT regr_r2(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_count(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_avgx(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_avgy(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)) FROM spans WHERE kind = 'LLM';

-- id: agg-023
SELECT regr_sxx(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_syy(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), regr_sxy(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)) FROM spans WHERE kind = 'LLM';

-- id: agg-024
SELECT covar_pop(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)), covar_samp(cost_usd, CAST(attributes->>'llm.token_count.total' AS float)) FROM spans WHERE kind = 'LLM';

-- id: agg-025
SELECT corr(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), regr_count(y, x), covar_pop(y, x), covar_samp(y, x) FROM (VALUES (1, 2), (2, 7), (4, 3), (NULL, 1), (5, NULL), (-6, -2)) AS t(y, x);

-- id: agg-026
SELECT regr_count(y, x), corr(y, x), covar_pop(y, x), regr_avgx(y, x), regr_sxx(y, x) FROM (VALUES (1, 1)) AS t(y, x) WHERE y > 5;

-- id: agg-027
SELECT regr_r2(y, x), corr(y, x), regr_slope(y, x), covar_samp(y, x), regr_count(y, x) FROM (VALUES (1, 1), (1, 2)) AS t(y, x);

-- id: agg-028
SELECT regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), covar_samp(y, x), covar_pop(y, x) FROM (VALUES (3, 1), (5, 1)) AS t(y, x);

-- id: agg-029
SELECT kind, corr(cost_usd, CAST(id AS double precision)) AS c, regr_count(cost_usd, id) AS n FROM spans GROUP BY kind ORDER BY kind;

-- id: agg-030
SELECT corr(span_id, score), regr_slope(score, span_id) FROM span_annotations;

-- id: agg-031
SELECT string_agg(name, ', ' ORDER BY name) FROM projects;

-- id: agg-032
SELECT string_agg(name, ', ' ORDER BY name DESC) FROM projects;

-- id: agg-033
SELECT string_agg(DISTINCT kind, ',' ORDER BY kind) FROM spans;

-- id: agg-034
SELECT string_agg(DISTINCT kind, ',' ORDER BY kind DESC) FROM spans;

-- id: agg-035
SELECT string_agg(DISTINCT status, '|') FROM spans;

-- id: agg-036
SELECT trace_id, string_agg(name, '>' ORDER BY id) AS path FROM spans WHERE trace_id IN (SELECT trace_id FROM traces ORDER BY id LIMIT 3) GROUP BY trace_id ORDER BY trace_id;

-- id: agg-037
SELECT kind, string_agg(DISTINCT status, ',' ORDER BY status) AS statuses FROM spans GROUP BY kind ORDER BY kind;

-- id: agg-038
SELECT string_agg(name, ',' ORDER BY name) FILTER (WHERE id > 2) FROM projects;

-- id: agg-039
SELECT string_agg(name, ',' ORDER BY name) FROM projects WHERE id < 0;

-- id: agg-040
SELECT string_agg(x, ',' ORDER BY x DESC NULLS FIRST), string_agg(x, NULL ORDER BY x), string_agg(x, '-' ORDER BY x NULLS FIRST) FROM (VALUES ('b'), ('a'), (NULL), ('b'), ('C')) AS t(x);

-- id: agg-041
SELECT string_agg(x, y ORDER BY x) FROM (VALUES ('b', '-'), ('a', '+'), ('c', NULL)) AS t(x, y);

-- id: agg-042
SELECT string_agg(x, ',' ORDER BY k NULLS FIRST, x DESC), string_agg(x, ',' ORDER BY k DESC NULLS LAST, x) FROM (VALUES ('a', 2), ('b', NULL), ('c', 1), ('d', 2), ('e', NULL)) AS t(x, k);

-- id: agg-043
SELECT string_agg(label, ';' ORDER BY id) FROM span_annotations WHERE span_id < 200;

-- id: agg-044
SELECT string_agg(CAST(id AS text), ',' ORDER BY id DESC) FROM projects;

-- id: agg-045
SELECT string_agg(name, ',' ORDER BY created_at DESC, id) FROM projects;

-- id: agg-046
SELECT annotator_kind, string_agg(DISTINCT label, ', ') AS labels FROM span_annotations GROUP BY annotator_kind ORDER BY annotator_kind;

-- id: agg-047
SELECT string_agg(x, ',' ORDER BY x) FROM (VALUES ('é'), ('e'), ('Z'), ('z'), ('ä'), ('10'), ('9')) AS t(x);

-- id: agg-048
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY cost_usd), percentile_disc(0.9) WITHIN GROUP (ORDER BY cost_usd) FROM spans WHERE kind = 'LLM';

-- id: agg-049
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.5) WITHIN GROUP (ORDER BY x), percentile_cont(0.25) WITHIN GROUP (ORDER BY x DESC), percentile_disc(0) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x DESC) FROM (VALUES (1), (2), (2), (3), (3), (10), (NULL)) AS t(x);

-- id: agg-050
SELECT percentile_cont(0) WITHIN GROUP (ORDER BY x), percentile_cont(1) WITHIN GROUP (ORDER BY x), percentile_disc(1) WITHIN GROUP (ORDER BY x), percentile_cont(0.1) WITHIN GROUP (ORDER BY x) FROM (VALUES (-5), (2), (7)) AS t(x);

-- id: agg-051
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.5) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (2)) AS t(x) WHERE x > 5;

-- id: agg-052
SELECT kind, percentile_cont(0.9) WITHIN GROUP (ORDER BY cost_usd) AS p90, percentile_disc(0.5) WITHIN GROUP (ORDER BY id) AS median_id FROM spans GROUP BY kind ORDER BY kind;

-- id: agg-053
SELECT mode() WITHIN GROUP (ORDER BY kind) FROM spans;

-- id: agg-054
SELECT kind, mode() WITHIN GROUP (ORDER BY status) AS common_status, mode() WITHIN GROUP (ORDER BY name DESC) AS common_name FROM spans GROUP BY kind ORDER BY kind;

-- id: agg-055
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY name), percentile_disc(0.5) WITHIN GROUP (ORDER BY name DESC) FROM projects;

-- id: agg-056
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY score) FILTER (WHERE annotator_kind = 'HUMAN'), mode() WITHIN GROUP (ORDER BY label) FILTER (WHERE label IS NOT NULL) FROM span_annotations;

-- id: agg-057
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY cost_usd) FROM spans;

-- id: agg-058
SELECT mode() WITHIN GROUP (ORDER BY x), percentile_disc(0.34) WITHIN GROUP (ORDER BY x) FROM (VALUES ('b'), ('a'), ('b'), ('a'), ('c')) AS t(x);

-- id: agg-059
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY CAST(x AS double precision)), percentile_cont(0.3) WITHIN GROUP (ORDER BY x) FROM (VALUES (1.5), (2.25), (-0.75), (10)) AS t(x);

-- id: agg-060
SELECT stddev(x) FROM (VALUES (1.5), (2.25)) AS t(x);

-- id: agg-061
SELECT count(*) AS n, stddev(cost_usd) AS sd, string_agg(DISTINCT kind, '/') AS kinds, percentile_cont(0.5) WITHIN GROUP (ORDER BY cost_usd) AS med FROM spans WHERE status = 'ERROR';

-- id: agg-062
SELECT p.name, string_agg(DISTINCT s.kind, ',' ORDER BY s.kind) AS kinds, round(CAST(stddev(s.cost_usd) AS numeric), 8) AS sd FROM projects p JOIN traces t ON t.project_id = p.id JOIN spans s ON s.trace_id = t.trace_id GROUP BY p.name ORDER BY p.name;

-- id: agg-063
SELECT name, stddev(id) OVER (PARTITION BY kind) FROM spans ORDER BY id LIMIT 3;

-- id: agg-064
SELECT array_agg(name ORDER BY id) FROM projects;

-- id: agg-065
SELECT string_agg(name, ',' ORDER BY start_time - end_time, id) FROM spans WHERE trace_id IN (SELECT trace_id FROM traces ORDER BY id LIMIT 1);

-- id: agg-066
SELECT string_agg(DISTINCT name, ',' ORDER BY id) FROM projects;

-- id: agg-067
-- database: chinook
SELECT stddev(milliseconds), variance(bytes), stddev_pop(milliseconds) FROM track;

-- id: agg-068
-- database: chinook
SELECT g.name, round(CAST(stddev(t.milliseconds) AS numeric), 3) AS sd, percentile_cont(0.5) WITHIN GROUP (ORDER BY t.milliseconds) AS med FROM track t JOIN genre g ON g.genreid = t.genreid GROUP BY g.name ORDER BY g.name;

-- id: agg-069
-- database: chinook
SELECT stddev(unitprice) FROM track;

-- id: agg-070
-- database: chinook
SELECT stddev(CAST(unitprice AS double precision)), percentile_disc(0.5) WITHIN GROUP (ORDER BY unitprice), mode() WITHIN GROUP (ORDER BY unitprice) FROM track;

-- id: agg-071
-- database: chinook
SELECT a.title, string_agg(t.name, ' / ' ORDER BY t.trackid) AS tracks FROM album a JOIN track t ON t.albumid = a.albumid WHERE a.albumid <= 5 GROUP BY a.title ORDER BY a.title;

-- id: agg-072
-- database: chinook
-- note: trim, because the SQLite file stores 'Edinburgh ' with a blank and PostgreSQL's 'Edinburgh' (chinook.sql x-edinburgh-blank)
SELECT country, string_agg(DISTINCT trim(city), ', ' ORDER BY trim(city)) AS cities, count(*) AS n FROM customer GROUP BY country ORDER BY country;

-- id: agg-073
-- database: chinook
SELECT corr(milliseconds, bytes), regr_slope(bytes, milliseconds), regr_count(bytes, milliseconds) FROM track;

-- id: agg-074
-- database: chinook
SELECT mode() WITHIN GROUP (ORDER BY composer) FROM track;
