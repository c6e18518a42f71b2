-- PostgreSQL-spelled analyst statements over the demo data (issue #12), for the parity run
-- (tests/fidelity/parity.hpp): each runs on PostgreSQL directly (the truth), through the SQLite
-- demo gateway (config/demo.yaml) and through the PostgreSQL demo gateway (config/demo-postgres.yaml).
-- Format: as tests/parity/chinook.sql. A top-level ORDER BY is total, so order is comparable.
-- database: demo

-- id: demo-001
SELECT count(*) FROM spans;

-- id: demo-002
SELECT count(*) FROM traces;

-- id: demo-003
SELECT count(*) FROM span_annotations;

-- id: demo-004
SELECT name FROM projects ORDER BY name;

-- id: demo-005
SELECT id, name FROM projects ORDER BY id;

-- id: demo-006
SELECT count(*) FROM spans WHERE kind = 'LLM';

-- id: demo-007
SELECT count(*) FROM spans WHERE kind = 'TOOL';

-- id: demo-008
SELECT count(*) FROM spans WHERE kind = 'AGENT';

-- id: demo-009
SELECT count(*) FROM spans WHERE kind = 'CHAIN';

-- id: demo-010
SELECT count(*) FROM spans WHERE kind = 'RETRIEVER';

-- id: demo-011
SELECT count(*) FROM spans WHERE kind = 'EMBEDDING';

-- id: demo-012
SELECT kind, count(*) AS n FROM spans WHERE status = 'OK' GROUP BY kind ORDER BY kind;

-- id: demo-013
SELECT kind, count(*) AS n FROM spans WHERE status = 'ERROR' GROUP BY kind ORDER BY kind;

-- id: demo-014
SELECT kind, count(*) AS n FROM spans WHERE status = 'UNSET' GROUP BY kind ORDER BY kind;

-- id: demo-015
SELECT kind, count(*) AS n FROM spans GROUP BY kind ORDER BY n DESC, kind;

-- id: demo-016
SELECT name, count(*) AS n FROM spans GROUP BY name ORDER BY n DESC, name;

-- id: demo-017
SELECT status, count(*) FROM traces GROUP BY status ORDER BY status;

-- id: demo-018
SELECT p.name, count(t.id) AS traces FROM projects p LEFT JOIN traces t ON t.project_id = p.id GROUP BY p.name ORDER BY p.name;

-- id: demo-019
SELECT p.name, count(*) FILTER (WHERE t.status = 'ERROR') AS errors, count(*) AS total FROM projects p JOIN traces t ON t.project_id = p.id GROUP BY p.name ORDER BY p.name;

-- id: demo-020
SELECT p.name, round(100.0 * count(*) FILTER (WHERE t.status = 'ERROR') / count(*), 2) AS error_pct FROM projects p JOIN traces t ON t.project_id = p.id GROUP BY p.name ORDER BY p.name;

-- id: demo-021
SELECT count(DISTINCT session_id) FROM traces;

-- id: demo-022
SELECT count(DISTINCT user_id) FROM traces WHERE user_id IS NOT NULL;

-- id: demo-023
SELECT count(*) FROM traces WHERE session_id IS NULL;

-- id: demo-024
SELECT project_id, count(DISTINCT session_id) AS sessions FROM traces GROUP BY project_id ORDER BY project_id;

-- id: demo-025
SELECT annotator_kind, label, count(*) AS n FROM span_annotations GROUP BY annotator_kind, label ORDER BY annotator_kind, label NULLS FIRST;

-- id: demo-026
SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY annotator_kind ORDER BY annotator_kind;

-- id: demo-027
SELECT label, round(avg(score)::numeric, 3) AS mean_score FROM span_annotations WHERE label IS NOT NULL GROUP BY label ORDER BY label;

-- id: demo-028
SELECT count(*) FROM span_annotations WHERE explanation IS NULL;

-- id: demo-029
SELECT count(*) FROM spans WHERE parent_id IS NULL;

-- id: demo-030
SELECT count(*) FROM spans s WHERE NOT EXISTS (SELECT 1 FROM spans c WHERE c.parent_id = s.id);

-- id: demo-031
SELECT kind, count(*) FROM spans WHERE parent_id IS NULL GROUP BY kind ORDER BY kind;

-- id: demo-032
SELECT sum(cost_usd) FROM spans;

-- id: demo-033
SELECT round(sum(cost_usd)::numeric, 2) FROM spans;

-- id: demo-034
SELECT max(cost_usd), min(cost_usd) FROM spans WHERE cost_usd > 0;

-- id: demo-035
SELECT avg(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-036
SELECT count(*) FROM spans WHERE cost_usd = 0;

-- id: demo-037
SELECT count(*) FROM spans WHERE cost_usd IS NULL;

-- id: demo-038
SELECT count(cost_usd) FROM spans;

-- id: demo-039
SELECT p.name, round(sum(s.cost_usd)::numeric, 4) AS cost FROM projects p JOIN traces t ON t.project_id = p.id JOIN spans s ON s.trace_id = t.trace_id GROUP BY p.name ORDER BY p.name;

-- id: demo-040
SELECT t.trace_id, round(sum(s.cost_usd)::numeric, 6) AS cost FROM traces t JOIN spans s ON s.trace_id = t.trace_id GROUP BY t.trace_id ORDER BY cost DESC NULLS LAST, t.trace_id LIMIT 10;

-- id: demo-041
SELECT status, round(avg(cost_usd)::numeric, 6) FROM spans WHERE kind = 'LLM' GROUP BY status ORDER BY status;

-- id: demo-042
SELECT id, cost_usd FROM spans WHERE cost_usd IS NOT NULL ORDER BY cost_usd DESC, id LIMIT 15;

-- id: demo-043
SELECT id, round(cost_usd::numeric, 3) AS c FROM spans WHERE cost_usd > 0.01 ORDER BY id LIMIT 20;

-- id: demo-044
SELECT count(*) FROM spans WHERE cost_usd BETWEEN 0.001 AND 0.002;

-- id: demo-045
SELECT CASE WHEN cost_usd IS NULL THEN 'none' WHEN cost_usd = 0 THEN 'free' WHEN cost_usd < 0.001 THEN 'cheap' ELSE 'costly' END AS bucket, count(*) FROM spans GROUP BY 1 ORDER BY 1;

-- id: demo-046
SELECT coalesce(cost_usd, 0) AS c, count(*) FROM spans WHERE kind <> 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-047
SELECT sum(coalesce(cost_usd, 0)) FROM spans WHERE status = 'ERROR';

-- id: demo-048
SELECT round(sum(cost_usd)::numeric, 2) AS total, round(avg(cost_usd)::numeric, 5) AS mean FROM spans WHERE kind = 'LLM' AND status = 'OK';

-- id: demo-049
SELECT cost_usd * 1000 AS millidollars FROM spans WHERE id = 27;

-- id: demo-050
SELECT ceil(cost_usd * 1000) AS c, floor(cost_usd * 1000) AS f FROM spans WHERE id IN (27, 132, 139) ORDER BY 1, 2;

-- id: demo-051
SELECT abs(-cost_usd) FROM spans WHERE id = 27;

-- id: demo-052
SELECT round(cost_usd::numeric, 4) FROM spans WHERE id = 139;

-- id: demo-053
SELECT stddev(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-054
SELECT variance(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-055
SELECT stddev_pop(cost_usd), var_samp(cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-056
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-057
SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY cost_usd) FROM spans WHERE kind = 'LLM';

-- id: demo-058
SELECT greatest(cost_usd, 0.001) FROM spans WHERE id IN (27, 28) ORDER BY 1;

-- id: demo-059
SELECT least(cost_usd, 0.001) FROM spans WHERE id = 27;

-- id: demo-060
SELECT greatest(1, NULL, 3);

-- id: demo-061
SELECT least(5, 2, NULL);

-- id: demo-062
SELECT power(2, 10);

-- id: demo-063
SELECT 2 ^ 10;

-- id: demo-064
SELECT sqrt(16.0);

-- id: demo-065
SELECT mod(17, 5), 17 % 5;

-- id: demo-066
SELECT 7 / 2, 7.0 / 2, -7 / 2;

-- id: demo-067
SELECT (2.5)::int, (3.5)::int, (-2.5)::int;

-- id: demo-068
SELECT CAST(2.5 AS integer);

-- id: demo-069
SELECT 1.23456::numeric(10,3);

-- id: demo-070
SELECT round(2.5), round(-2.5), round(0.125, 2);

-- id: demo-071
SELECT trunc(2.789, 1);

-- id: demo-072
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'llm.model_name' AS model, count(*) AS n FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes->>'llm.model_name' AS model, count(*) AS n FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-073
SELECT count(*) FROM spans WHERE attributes->>'llm.provider' = 'openai';

-- id: demo-074
SELECT attributes->>'llm.provider' AS provider, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-075
SELECT attributes->>'llm.provider' AS provider, round(sum(cost_usd)::numeric, 4) AS cost FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-076
SELECT sum((attributes->>'llm.token_count.total')::int) FROM spans WHERE kind = 'LLM';

-- id: demo-077
SELECT sum(CAST(attributes->>'llm.token_count.prompt' AS bigint)) AS prompt, sum(CAST(attributes->>'llm.token_count.completion' AS bigint)) AS completion FROM spans;

-- id: demo-078
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'llm.model_name' AS model, avg((attributes->>'llm.token_count.total')::int) AS mean_tokens FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes->>'llm.model_name' AS model, avg((attributes->>'llm.token_count.total')::int) AS mean_tokens FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-079
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'llm.model_name' AS model, max((attributes->>'llm.token_count.total')::int) AS most FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes->>'llm.model_name' AS model, max((attributes->>'llm.token_count.total')::int) AS most FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-080
SELECT count(*) FROM spans WHERE attributes ? 'exception.message';

-- id: demo-081
SELECT count(*) FROM spans WHERE attributes->>'exception.message' IS NOT NULL;

-- id: demo-082
SELECT attributes->>'exception.message' AS msg, count(*) FROM spans WHERE status = 'ERROR' GROUP BY 1 ORDER BY 2 DESC, 1;

-- id: demo-083
SELECT attributes->>'tool.name' AS tool, count(*) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: demo-084
SELECT id, attributes->'llm.token_count.total' AS tokens FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 5;

-- id: demo-085
SELECT id, attributes->>'retrieval.documents' AS docs FROM spans WHERE kind = 'RETRIEVER' ORDER BY id LIMIT 5;

-- id: demo-086
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT jsonb_extract_path_text(attributes, 'llm.model_name') AS m, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT jsonb_extract_path_text(attributes, 'llm.model_name') AS m, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-087
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes #>> '{llm.model_name}' AS m FROM spans WHERE id = 27
SELECT attributes #>> '{llm.model_name}' AS m FROM spans WHERE id = 27;

-- id: demo-088
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' LIKE 'gpt%'
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' LIKE 'gpt%';

-- id: demo-089
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' ILIKE 'GPT%'
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' ILIKE 'GPT%';

-- id: demo-090
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' IN ('gpt-4o', 'gpt-4o-mini')
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' IN ('gpt-4o', 'gpt-4o-mini');

-- id: demo-091
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' = ANY(ARRAY['gpt-4o', 'claude-3-5-sonnet'])
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' = ANY(ARRAY['gpt-4o', 'claude-3-5-sonnet']);

-- id: demo-092
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'embedding.model_name' AS m, count(*) FROM spans WHERE kind = 'EMBEDDING' GROUP BY 1 ORDER BY 1
SELECT attributes->>'embedding.model_name' AS m, count(*) FROM spans WHERE kind = 'EMBEDDING' GROUP BY 1 ORDER BY 1;

-- id: demo-093
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'reranker.model_name' AS m, count(*) FROM spans WHERE kind = 'CHAIN' AND name = 'rerank' GROUP BY 1 ORDER BY 1
SELECT attributes->>'reranker.model_name' AS m, count(*) FROM spans WHERE kind = 'CHAIN' AND name = 'rerank' GROUP BY 1 ORDER BY 1;

-- id: demo-094
SELECT (attributes->>'retrieval.documents')::int AS docs, count(*) FROM spans WHERE kind = 'RETRIEVER' GROUP BY 1 ORDER BY 1;

-- id: demo-095
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT (attributes ->> 'llm.model_name'), count(*) FROM spans WHERE (attributes ->> 'llm.model_name') IS NOT NULL GROUP BY (attributes ->> 'llm.model_name') ORDER BY (attributes ->> 'llm.model_name')
SELECT model_name, count(*) FROM spans WHERE model_name IS NOT NULL GROUP BY model_name ORDER BY model_name;

-- id: demo-096
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT (attributes ->> 'llm.model_name'), sum(CAST(attributes ->> 'llm.token_count.total' AS bigint)) AS tokens FROM spans WHERE kind = 'LLM' GROUP BY (attributes ->> 'llm.model_name') ORDER BY (attributes ->> 'llm.model_name')
SELECT model_name, sum(total_tokens) AS tokens FROM spans WHERE kind = 'LLM' GROUP BY model_name ORDER BY model_name;

-- id: demo-097
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT id, (attributes ->> 'llm.model_name'), CAST(attributes ->> 'llm.token_count.total' AS bigint) FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 10
SELECT id, model_name, total_tokens FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 10;

-- id: demo-098
SELECT length(attributes->>'input.value') AS len FROM spans WHERE id = 27;

-- id: demo-099
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'llm.model_name' AS model, count(*) FILTER (WHERE status = 'ERROR') AS failures FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes->>'llm.model_name' AS model, count(*) FILTER (WHERE status = 'ERROR') AS failures FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-100
SELECT count(*) FROM spans WHERE (attributes->>'llm.token_count.total')::int > 2000;

-- id: demo-101
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT attributes->>'llm.model_name' AS model, round(sum(cost_usd)::numeric / nullif(sum((attributes->>'llm.token_count.total')::int), 0) * 1000000, 4) AS usd_per_mtok FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes->>'llm.model_name' AS model, round(sum(cost_usd)::numeric / nullif(sum((attributes->>'llm.token_count.total')::int), 0) * 1000000, 4) AS usd_per_mtok FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-102
SELECT count(*) FROM spans WHERE start_time >= '2026-10-01T00:00:00Z';

-- id: demo-103
SELECT count(*) FROM spans WHERE start_time < '2026-10-01T00:00:00Z';

-- id: demo-104
SELECT count(*) FROM traces WHERE start_time BETWEEN '2026-10-01T00:00:00Z' AND '2026-10-08T00:00:00Z';

-- id: demo-105
SELECT min(start_time), max(end_time) FROM traces;

-- id: demo-106
SELECT min(start_time) FROM spans;

-- id: demo-107
SELECT trace_id, start_time FROM traces ORDER BY start_time, trace_id LIMIT 5;

-- id: demo-108
SELECT trace_id, end_time FROM traces ORDER BY end_time DESC, trace_id LIMIT 5;

-- id: demo-109
SELECT id, created_at FROM projects ORDER BY id;

-- id: demo-110
SELECT count(*) FROM span_annotations WHERE created_at >= '2026-11-01T00:00:00Z';

-- id: demo-111
SELECT count(*) FROM traces WHERE end_time > '2026-11-15T00:00:00Z';

-- id: demo-112
SELECT id, start_time FROM spans WHERE trace_id = 'c4253f31238aa4a42dfbeecec0579f27' ORDER BY id;

-- id: demo-113
SELECT date_trunc('day', start_time) AS day, count(*) FROM traces WHERE start_time < '2026-09-20T00:00:00Z' GROUP BY 1 ORDER BY 1;

-- id: demo-114
SELECT EXTRACT(HOUR FROM start_time) AS h, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: demo-115
SELECT start_time::date AS d, count(*) FROM traces WHERE start_time < '2026-09-19T00:00:00Z' GROUP BY 1 ORDER BY 1;

-- id: demo-116
SELECT to_char(start_time, 'YYYY-MM') AS month, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: demo-117
SELECT avg(end_time - start_time) FROM traces;

-- id: demo-118
SELECT max(EXTRACT(EPOCH FROM end_time - start_time)) FROM spans;

-- id: demo-119
SELECT count(*) FROM traces WHERE start_time > now() - interval '30 days';

-- id: demo-120
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3) FROM spans WHERE id = 27
SELECT latency_ms FROM spans WHERE id = 27;

-- id: demo-121
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT kind, max(round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3)) FROM spans GROUP BY kind ORDER BY kind
SELECT kind, max(latency_ms) FROM spans GROUP BY kind ORDER BY kind;

-- id: demo-122
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT count(*) FROM spans WHERE round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3) > 5000
SELECT count(*) FROM spans WHERE latency_ms > 5000;

-- id: demo-123
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT name, round(avg(round(CAST(date_part('epoch', end_time - start_time) * 1000 AS numeric), 3)), 1) AS mean_ms FROM spans WHERE kind = 'TOOL' GROUP BY name ORDER BY name
SELECT name, round(avg(latency_ms), 1) AS mean_ms FROM spans WHERE kind = 'TOOL' GROUP BY name ORDER BY name;

-- id: demo-124
SELECT id, cost_usd, row_number() OVER (ORDER BY cost_usd DESC, id) AS rn FROM spans WHERE kind = 'LLM' ORDER BY rn LIMIT 10;

-- id: demo-125
SELECT id, rank() OVER (ORDER BY (attributes->>'llm.token_count.total')::int DESC) AS r FROM spans WHERE kind = 'LLM' ORDER BY r, id LIMIT 10;

-- id: demo-126
SELECT project_id, trace_id, row_number() OVER (PARTITION BY project_id ORDER BY start_time, trace_id) AS n FROM traces ORDER BY project_id, n LIMIT 20;

-- id: demo-127
SELECT id, trace_id, lag(id) OVER (PARTITION BY trace_id ORDER BY id) AS prev FROM spans WHERE trace_id = 'e502b3a8c19375e272d6c8d0230239ab' ORDER BY id;

-- id: demo-128
SELECT id, lead(name) OVER (ORDER BY id) AS next_name FROM spans WHERE trace_id = 'e502b3a8c19375e272d6c8d0230239ab' ORDER BY id;

-- id: demo-129
SELECT id, sum(cost_usd) OVER (ORDER BY id) AS running FROM spans WHERE trace_id = 'e502b3a8c19375e272d6c8d0230239ab' ORDER BY id;

-- id: demo-130
SELECT kind, n, dense_rank() OVER (ORDER BY n DESC) AS r FROM (SELECT kind, count(*) AS n FROM spans GROUP BY kind) k ORDER BY r, kind;

-- id: demo-131
SELECT kind, round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct FROM spans GROUP BY kind ORDER BY kind;

-- id: demo-132
SELECT p.name, count(*) AS n, rank() OVER (ORDER BY count(*) DESC) FROM projects p JOIN traces t ON t.project_id = p.id GROUP BY p.name ORDER BY n DESC, p.name;

-- id: demo-133
SELECT id, ntile(4) OVER (ORDER BY id) AS q FROM projects ORDER BY id;

-- id: demo-134
SELECT id, first_value(name) OVER (PARTITION BY trace_id ORDER BY id) AS root FROM spans WHERE trace_id = 'e502b3a8c19375e272d6c8d0230239ab' ORDER BY id;

-- id: demo-135
SELECT id, count(*) OVER (PARTITION BY trace_id) AS spans_in_trace FROM spans WHERE trace_id IN ('e502b3a8c19375e272d6c8d0230239ab', 'c4253f31238aa4a42dfbeecec0579f27') ORDER BY id;

-- id: demo-136
WITH llm AS (SELECT trace_id, count(*) AS calls FROM spans WHERE kind = 'LLM' GROUP BY trace_id) SELECT calls, count(*) AS traces FROM llm GROUP BY calls ORDER BY calls;

-- id: demo-137
WITH per_trace AS (SELECT trace_id, sum(cost_usd) AS c FROM spans GROUP BY trace_id) SELECT count(*) FROM per_trace WHERE c > 0.01;

-- id: demo-138
SELECT count(*) FROM traces t WHERE EXISTS (SELECT 1 FROM spans s WHERE s.trace_id = t.trace_id AND s.status = 'ERROR');

-- id: demo-139
SELECT count(*) FROM traces WHERE trace_id IN (SELECT trace_id FROM spans WHERE kind = 'TOOL');

-- id: demo-140
SELECT count(*) FROM traces WHERE trace_id NOT IN (SELECT trace_id FROM spans WHERE kind = 'LLM');

-- id: demo-141
SELECT t.status, count(DISTINCT s.id) FROM traces t JOIN spans s ON s.trace_id = t.trace_id WHERE s.kind = 'LLM' GROUP BY t.status ORDER BY t.status;

-- id: demo-142
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT a.label, s.attributes->>'llm.model_name' AS model, count(*) AS n FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE a.annotator_kind = 'LLM' GROUP BY 1, 2 ORDER BY 1, 2
SELECT a.label, s.attributes->>'llm.model_name' AS model, count(*) AS n FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE a.annotator_kind = 'LLM' GROUP BY 1, 2 ORDER BY 1, 2;

-- id: demo-143
-- note: virtual columns: the truth spells out config/demo-postgres.yaml's expressions
-- truth: SELECT s.attributes->>'llm.model_name' AS model, round(avg(a.score)::numeric, 3) AS score FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE a.annotator_kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT s.attributes->>'llm.model_name' AS model, round(avg(a.score)::numeric, 3) AS score FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE a.annotator_kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: demo-144
SELECT p.name, count(a.id) AS feedback FROM projects p JOIN traces t ON t.project_id = p.id JOIN spans s ON s.trace_id = t.trace_id JOIN span_annotations a ON a.span_id = s.id WHERE a.annotator_kind = 'HUMAN' GROUP BY p.name ORDER BY p.name;

-- id: demo-145
SELECT p.name, round(avg(a.score)::numeric, 3) AS helpful FROM projects p JOIN traces t ON t.project_id = p.id JOIN spans s ON s.trace_id = t.trace_id JOIN span_annotations a ON a.span_id = s.id WHERE a.annotator_kind = 'HUMAN' GROUP BY p.name ORDER BY p.name;

-- id: demo-146
SELECT c.name, count(*) FROM spans c JOIN spans p ON c.parent_id = p.id WHERE p.name = 'agent.run' GROUP BY c.name ORDER BY c.name;

-- id: demo-147
SELECT p.kind AS parent_kind, c.kind AS child_kind, count(*) FROM spans c JOIN spans p ON p.id = c.parent_id GROUP BY 1, 2 ORDER BY 1, 2;

-- id: demo-148
SELECT max(n) FROM (SELECT trace_id, count(*) AS n FROM spans GROUP BY trace_id) x;

-- id: demo-149
SELECT trace_id, count(*) AS n FROM spans GROUP BY trace_id HAVING count(*) > 20 ORDER BY n DESC, trace_id;

-- id: demo-150
SELECT project_id, count(*) FROM traces GROUP BY project_id HAVING count(*) > 500 ORDER BY project_id;

-- id: demo-151
SELECT name FROM projects WHERE id = (SELECT project_id FROM traces GROUP BY project_id ORDER BY count(*) DESC, project_id LIMIT 1);

-- id: demo-152
SELECT (SELECT count(*) FROM spans) AS spans, (SELECT count(*) FROM traces) AS traces;

-- id: demo-153
SELECT kind FROM spans UNION SELECT status FROM traces ORDER BY 1;

-- id: demo-154
SELECT trace_id FROM spans WHERE kind = 'TOOL' INTERSECT SELECT trace_id FROM spans WHERE status = 'ERROR' ORDER BY 1 LIMIT 10;

-- id: demo-155
SELECT count(*) FROM (SELECT trace_id FROM spans WHERE kind = 'LLM' EXCEPT SELECT trace_id FROM spans WHERE kind = 'TOOL') x;

-- id: demo-156
SELECT count(*) FROM (SELECT session_id FROM traces WHERE session_id IS NOT NULL GROUP BY session_id HAVING count(*) >= 3) s;

-- id: demo-157
SELECT t.project_id, count(*) FROM traces t LEFT JOIN span_annotations a ON a.span_id = (SELECT id FROM spans s WHERE s.trace_id = t.trace_id AND s.parent_id IS NULL) WHERE a.id IS NULL GROUP BY t.project_id ORDER BY 1;

-- id: demo-158
SELECT DISTINCT upper(kind) FROM spans ORDER BY 1;

-- id: demo-159
SELECT lower(name), length(name) FROM projects ORDER BY 1;

-- id: demo-160
SELECT name, char_length(name) FROM projects ORDER BY name;

-- id: demo-161
SELECT substring(trace_id from 1 for 8) AS short FROM traces ORDER BY id LIMIT 5;

-- id: demo-162
SELECT substr(trace_id, 1, 8) FROM traces ORDER BY id LIMIT 5;

-- id: demo-163
SELECT replace(name, 'tool:', '') AS tool, count(*) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: demo-164
SELECT name || '#' || id FROM projects ORDER BY id;

-- id: demo-165
SELECT concat(name, '-', id) FROM projects ORDER BY id;

-- id: demo-166
SELECT concat_ws('/', name, id, NULL) FROM projects ORDER BY id;

-- id: demo-167
SELECT split_part(name, ':', 2) AS tool, count(*) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: demo-168
SELECT left(name, 4), right(name, 4) FROM projects ORDER BY id;

-- id: demo-169
SELECT strpos(name, '-') FROM projects ORDER BY id;

-- id: demo-170
SELECT position('-' in name) FROM projects ORDER BY id;

-- id: demo-171
SELECT initcap(replace(name, '-', ' ')) FROM projects ORDER BY id;

-- id: demo-172
SELECT btrim('  x  '), ltrim('  x'), rtrim('x  ');

-- id: demo-173
SELECT trim(both ' ' from '  padded  ');

-- id: demo-174
SELECT name FROM projects WHERE name LIKE '%-assistant' ORDER BY name;

-- id: demo-175
SELECT name FROM projects WHERE name LIKE 'S%' ORDER BY name;

-- id: demo-176
SELECT name FROM projects WHERE name ILIKE 'S%' ORDER BY name;

-- id: demo-177
SELECT name FROM projects WHERE name NOT LIKE '%bot%' ORDER BY name;

-- id: demo-178
SELECT count(*) FROM spans WHERE name ~ '^tool:search_';

-- id: demo-179
SELECT count(*) FROM spans WHERE name ~* '^TOOL:SEARCH';

-- id: demo-180
SELECT regexp_replace(name, '^tool:', '') FROM spans WHERE id IN (SELECT min(id) FROM spans WHERE kind = 'TOOL');

-- id: demo-181
SELECT string_agg(name, ', ' ORDER BY name) FROM projects;

-- id: demo-182
SELECT string_agg(DISTINCT kind, ',' ORDER BY kind) FROM spans;

-- id: demo-183
SELECT trace_id, string_agg(name, '>' ORDER BY id) AS path FROM spans WHERE trace_id = 'e502b3a8c19375e272d6c8d0230239ab' GROUP BY trace_id;

-- id: demo-184
SELECT repeat('ab', 3), reverse('abc'), lpad('7', 3, '0'), rpad('7', 3, '0');

-- id: demo-185
SELECT md5('abc');

-- id: demo-186
SELECT 'a' || NULL;

-- id: demo-187
SELECT nullif(status, 'UNSET') AS s, count(*) FROM spans GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- id: demo-188
SELECT coalesce(session_id, 'anonymous') AS s FROM traces ORDER BY id LIMIT 5;

-- id: demo-189
SELECT DISTINCT ON (kind) kind, id, cost_usd FROM spans ORDER BY kind, id;

-- id: demo-190
SELECT kind, status, count(*) FROM spans GROUP BY ROLLUP (kind, status) ORDER BY kind NULLS LAST, status NULLS LAST;

-- id: demo-191
SELECT kind, status, count(*) FROM spans GROUP BY CUBE (kind, status) ORDER BY kind NULLS LAST, status NULLS LAST;

-- id: demo-192
SELECT id, cost_usd FROM spans WHERE kind = 'LLM' ORDER BY cost_usd DESC FETCH FIRST 3 ROWS WITH TIES;

-- id: demo-193
SELECT id FROM spans ORDER BY id FETCH FIRST 5 ROWS ONLY;

-- id: demo-194
SELECT id FROM spans ORDER BY id OFFSET 10 LIMIT 5;

-- id: demo-195
SELECT g AS n FROM generate_series(1, 5) AS g;

-- id: demo-196
SELECT d::date FROM generate_series('2026-10-01'::date, '2026-10-05'::date, interval '1 day') AS d;

-- id: demo-197
SELECT p.name, x.n FROM projects p CROSS JOIN LATERAL (SELECT count(*) AS n FROM traces t WHERE t.project_id = p.id) x ORDER BY p.name;

-- id: demo-198
SELECT bool_or(status = 'ERROR'), bool_and(status = 'OK') FROM traces;

-- id: demo-199
SELECT project_id, bool_or(status = 'ERROR') AS any_error FROM traces GROUP BY project_id ORDER BY project_id;

-- id: demo-200
SELECT every(cost_usd >= 0) FROM spans WHERE cost_usd IS NOT NULL;

-- id: demo-201
SELECT id, status = 'ERROR' AS failed FROM traces ORDER BY id LIMIT 5;

-- id: demo-202
SELECT id, session_id IS NULL AS anonymous FROM traces ORDER BY id LIMIT 5;

-- id: demo-203
SELECT EXISTS (SELECT 1 FROM spans WHERE status = 'ERROR');

-- id: demo-204
SELECT 1 < 2, 'a' = 'b';

-- id: demo-205
SELECT mode() WITHIN GROUP (ORDER BY kind) FROM spans;

-- id: demo-206
SELECT array_agg(name ORDER BY id) FROM projects;

-- id: demo-207
SELECT corr(cost_usd, (attributes->>'llm.token_count.total')::float) FROM spans WHERE kind = 'LLM';

-- id: demo-208
SELECT regr_slope(cost_usd, (attributes->>'llm.token_count.total')::float) FROM spans WHERE kind = 'LLM';

-- id: demo-209
SELECT CASE WHEN count(*) > 100 THEN 'many' ELSE 'few' END FROM projects;

-- id: demo-210
SELECT id::text || '-' || name FROM projects ORDER BY id;

-- id: demo-211
SELECT CAST(id AS text) FROM projects ORDER BY id;

-- id: demo-212
SELECT CAST('42' AS integer) + 1;

-- id: demo-213
SELECT '3.7'::float8 * 2;

-- id: demo-214
SELECT 10::float / 4;

-- id: demo-215
SELECT count(*) FILTER (WHERE kind = 'LLM') AS llm, count(*) FILTER (WHERE kind = 'TOOL') AS tool FROM spans;

-- id: demo-216
SELECT sum(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) FROM spans;

-- id: demo-217
SELECT kind, sum(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END)::float / count(*) AS error_rate FROM spans GROUP BY kind ORDER BY kind;

-- id: demo-218
SELECT id FROM projects WHERE id IN (1, 3, 5) ORDER BY id DESC;

-- id: demo-219
SELECT id FROM projects WHERE id <> ALL(ARRAY[1, 2]) ORDER BY id;

-- id: demo-220
SELECT id FROM projects WHERE NOT (id BETWEEN 2 AND 4) ORDER BY id;

-- id: demo-221
SELECT count(*) FROM spans WHERE kind IN ('LLM', 'TOOL') AND status <> 'OK';

-- id: demo-222
SELECT count(*) FROM spans WHERE (kind = 'LLM' OR kind = 'TOOL') AND status = 'ERROR';

-- id: demo-223
SELECT count(*) FROM traces WHERE user_id > 100 AND session_id IS NOT NULL;

-- id: demo-224
SELECT user_id, count(*) AS n FROM traces WHERE user_id IS NOT NULL GROUP BY user_id ORDER BY n DESC, user_id LIMIT 10;

-- id: demo-225
SELECT session_id, count(*) AS turns FROM traces WHERE session_id IS NOT NULL GROUP BY session_id ORDER BY turns DESC, session_id LIMIT 10;

-- id: demo-226
SELECT avg(n) FROM (SELECT session_id, count(*) AS n FROM traces WHERE session_id IS NOT NULL GROUP BY session_id) s;

-- id: demo-227
SELECT kind, min(id), max(id) FROM spans GROUP BY kind ORDER BY kind;

-- id: demo-228
SELECT count(*) FROM spans WHERE id % 2 = 0;

-- id: demo-229
SELECT sum(id) FROM projects;

-- id: demo-230
SELECT avg(id) FROM projects;

-- id: demo-231
SELECT id * 2 + 1 AS x FROM projects ORDER BY x;

-- id: demo-232
SELECT -id FROM projects ORDER BY 1;

-- An output column's name inside an ORDER BY expression: SQLite's alias, PostgreSQL's error; read as the alias on
-- both (its expression on PostgreSQL) when no input column has the name (outside tester s17a).
-- id: demo-233
-- truth: SELECT kind, count(*) AS n FROM spans GROUP BY kind ORDER BY -count(*), kind
SELECT kind, count(*) AS n FROM spans GROUP BY kind ORDER BY -n, kind;

-- id: demo-234
-- truth: SELECT id AS name FROM spans WHERE id < 50 ORDER BY length(name), id
SELECT id AS name FROM spans WHERE id < 50 ORDER BY length(name), id;

-- A span tree five levels deep: its plan nests past Boost.JSON's default depth (32), which the PostgreSQL gateway's
-- plan gate answered with a 500 (outside tester s20d).
-- id: demo-235
SELECT count(*) AS n FROM spans s1 JOIN spans s2 ON s2.parent_id = s1.id JOIN spans s3 ON s3.parent_id = s2.id
JOIN spans s4 ON s4.parent_id = s3.id JOIN spans s5 ON s5.parent_id = s4.id JOIN spans s6 ON s6.parent_id = s5.id;

-- cume_dist() / percent_rank() are double precision: their text is PostgreSQL's (SQLite printed 15 digits; s20d).
-- id: demo-236
SELECT id, CAST(cume_dist() OVER (ORDER BY id) AS text) AS c, CAST(percent_rank() OVER (ORDER BY id) AS text) AS p
FROM traces ORDER BY id LIMIT 7;

-- extract() is numeric of scale 6: arithmetic on it keeps the scale (SQLite printed 60.00; s21c).
-- id: demo-237
SELECT id, (extract(epoch FROM end_time - start_time) * 1000)::text AS ms, 'ms=' || (extract(epoch FROM end_time - start_time) * 1000) AS label,
       (extract(epoch FROM end_time) - extract(epoch FROM start_time))::text AS d
FROM traces ORDER BY id LIMIT 5;

-- percentile_disc / mode of a time: a time (refused on SQLite before).
-- id: demo-238
SELECT kind, percentile_disc(0.5) WITHIN GROUP (ORDER BY start_time) AS p50, percentile_disc(0.9) WITHIN GROUP (ORDER BY start_time::date DESC) AS p90d,
       mode() WITHIN GROUP (ORDER BY date_trunc('hour', start_time)) AS busiest
FROM spans GROUP BY kind ORDER BY kind;

-- A duration where a number is: PostgreSQL's error (SQLite answered 0; s21b).
-- id: demo-239
SELECT avg(coalesce(end_time - start_time, 0)) FROM traces;

-- ->> of text: PostgreSQL's error (SQLite answered NULL; s21c).
-- id: demo-240
SELECT attributes ->> 'tool.parameters' ->> 'query' FROM spans WHERE kind = 'TOOL' ORDER BY id LIMIT 2;

-- A bucket flag rolled up: refused on SQLite with a FIX (a 500 before; s21c), its FIX's form answered.
-- id: demo-241
SELECT flag, count(*) FROM (SELECT CASE WHEN id > 10 THEN 1 ELSE 0 END AS flag FROM spans) AS s GROUP BY ROLLUP (flag) ORDER BY flag;

-- -x of an integer scaling an interval (a 500 before; s21c).
-- id: demo-242
SELECT id, extract(epoch FROM -parent_id * interval '1 second') AS e FROM spans WHERE parent_id IS NOT NULL ORDER BY id LIMIT 3;

-- A computed interval where a condition belongs, and meeting a quoted literal (s21e).
-- id: demo-243
SELECT count(*) FROM spans WHERE NOT (end_time - start_time);

-- id: demo-244
SELECT kind, max(CASE WHEN status = 'ERROR' THEN end_time - start_time ELSE '30 seconds' END) AS m,
       min(coalesce(end_time - start_time, '1 hour')) AS n
FROM spans GROUP BY kind ORDER BY kind;

-- id: demo-245
SELECT count(*) FROM spans WHERE start_time::date - date '2026-10-01';
