-- tester8 (session 8): t8_json
-- database: demo

-- id: t8js-001
SELECT attributes->>'llm.token_count.total' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 3;

-- id: t8js-002
SELECT (attributes->>'llm.token_count.total')::int + 1 FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 3;

-- id: t8js-003
SELECT sum((attributes->>'llm.token_count.total')::int) FROM spans;

-- id: t8js-004
SELECT avg((attributes->>'llm.token_count.total')::int) FROM spans;

-- id: t8js-005
SELECT attributes->>'llm.model_name' AS m, sum((attributes->>'llm.token_count.prompt')::bigint) / count(*) AS per FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: t8js-006
SELECT max(attributes->>'llm.token_count.total') FROM spans;

-- id: t8js-007
SELECT max((attributes->>'llm.token_count.total')::int) FROM spans;

-- id: t8js-008
SELECT count(*) FROM spans WHERE attributes->>'llm.token_count.total' > '1000';

-- id: t8js-009
SELECT count(*) FROM spans WHERE (attributes->>'llm.token_count.total')::int > 1000;

-- id: t8js-010
SELECT count(*) FROM spans WHERE attributes->>'retrieval.documents' = '3';

-- id: t8js-011
SELECT attributes->>'retrieval.documents' AS d, count(*) FROM spans WHERE kind = 'RETRIEVER' GROUP BY 1 ORDER BY 1;

-- id: t8js-012
SELECT count(*) FROM spans WHERE attributes ? 'exception.message' AND status <> 'ERROR';

-- id: t8js-013
SELECT count(*) FROM spans WHERE attributes ?| array['tool.name', 'llm.provider'];

-- id: t8js-014
SELECT count(*) FROM spans WHERE attributes ?& array['tool.name', 'tool.parameters'];

-- id: t8js-015
SELECT count(*) FROM spans WHERE attributes @> '{"llm.provider": "openai"}';

-- id: t8js-016
SELECT count(*) FROM spans WHERE attributes->'llm.provider' = '"openai"';

-- id: t8js-017
SELECT count(*) FROM spans WHERE attributes->>'llm.provider' IS NULL;

-- id: t8js-018
SELECT count(*) FROM spans WHERE attributes->>'LLM.PROVIDER' IS NOT NULL;

-- id: t8js-019
SELECT attributes->>'tool.parameters' FROM spans WHERE kind = 'TOOL' ORDER BY id LIMIT 2;

-- id: t8js-020
SELECT (attributes->>'tool.parameters')::jsonb->>'query' FROM spans WHERE kind = 'TOOL' ORDER BY id LIMIT 2;

-- id: t8js-021
SELECT jsonb_typeof(attributes->'llm.token_count.total'), jsonb_typeof(attributes->'llm.model_name'), jsonb_typeof(attributes) FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 1;

-- id: t8js-022
SELECT '{"a": 1.50, "b": true, "c": null, "d": [1, 2], "e": {"f": "g"}}'::jsonb->>'a';

-- id: t8js-023
SELECT '{"a": 1.50, "b": true, "c": null}'::jsonb->>'b', '{"a": 1.50, "b": true, "c": null}'::jsonb->>'c', '{"a": 1e2}'::jsonb->>'a';

-- id: t8js-024
SELECT '{"d": [1, 2], "e": {"f": "g"}}'::jsonb->>'d', '{"d": [1, 2], "e": {"f": "g"}}'::jsonb->>'e';

-- id: t8js-025
SELECT '{"d": [1, 2]}'::jsonb->'d'->>0, '{"d": [1, 2]}'::jsonb->'d'->>-1, '[10, 20]'::jsonb->>1, '[10, 20]'::jsonb->>5;

-- id: t8js-026
SELECT '{"a.b": 1, "a": {"b": 2}}'::jsonb->>'a.b', '{"a.b": 1, "a": {"b": 2}}'::jsonb #>> '{a,b}', '{"a.b": 1, "a": {"b": 2}}'::jsonb->>'$.a.b';

-- id: t8js-027
SELECT '{"$.a": 5}'::jsonb->>'$.a', '{"a[0]": 1}'::jsonb->>'a[0]', '{"a\"b": 1}'::jsonb->>'a"b';

-- id: t8js-028
SELECT '{"a": "x\ny", "b": "é\u00e9"}'::jsonb->>'a', '{"b": "\u00e9"}'::jsonb->>'b';

-- id: t8js-029
SELECT '{"a": 12345678901234567890}'::jsonb->>'a', '{"a": 0.1}'::jsonb->>'a', '{"a": 1.0}'::jsonb->>'a', '{"a": -0}'::jsonb->>'a';

-- id: t8js-030
SELECT '{"a": 1, "a": 2}'::jsonb->>'a';

-- id: t8js-031
SELECT '{"a": {"b": {"c": 3}}}'::jsonb #>> '{a,b,c}', '{"a": {"b": {"c": 3}}}'::jsonb #>> '{a,b}', '{"a": [1, {"x": 9}]}'::jsonb #>> '{a,1,x}';

-- id: t8js-032
SELECT jsonb_extract_path_text('{"a": [1, 2]}'::jsonb, 'a', '1'), jsonb_extract_path_text('{"a": true}'::jsonb, 'a'), jsonb_extract_path_text('{"a": null}'::jsonb, 'a');

-- id: t8js-033
SELECT '{"a": 1}'::jsonb ? 'b', '{"a": 1}'::jsonb ? 'A', '[1, "1"]'::jsonb ? '1', '["a.b"]'::jsonb ? 'a.b';

-- id: t8js-034
SELECT '{"a": 1}'::json->>'a', '{"a": {"b": 1}}'::json->'a'->>'b';

-- id: t8js-035
SELECT jsonb_array_length('[1, 2, 3]'::jsonb), jsonb_array_length(attributes->'x') FROM spans WHERE id = 1;

-- id: t8js-036
SELECT attributes->>'llm.token_count.total' = (attributes->'llm.token_count.total')::text FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 1;

-- id: t8js-037
SELECT count(*) FROM spans WHERE attributes->>'llm.token_count.total' LIKE '1%';

-- id: t8js-038
SELECT count(*) FROM spans WHERE attributes->>'llm.token_count.total' ~ '^[0-9]{4}$';

-- id: t8js-039
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' IN ('gpt-4o-mini', 'claude-3-5-sonnet');

-- id: t8js-040
SELECT count(*) FROM spans WHERE attributes->>'llm.model_name' = ANY(ARRAY['gpt-4o-mini', 'claude-3-5-sonnet']);

-- id: t8js-041
SELECT attributes->>'llm.provider', count(DISTINCT attributes->>'llm.model_name') FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: t8js-042
SELECT string_agg(DISTINCT attributes->>'llm.model_name', ',' ORDER BY attributes->>'llm.model_name') FROM spans;

-- id: t8js-043
SELECT model_name, total_tokens FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8js-044
SELECT sum(total_tokens), avg(total_tokens) FROM spans;

-- id: t8js-045
SELECT sum(total_tokens) / count(*) FROM spans WHERE kind = 'LLM';

-- id: t8js-046
SELECT latency_ms FROM spans ORDER BY id LIMIT 3;

-- id: t8js-047
SELECT avg(latency_ms) FROM spans;

-- id: t8js-048
SELECT kind, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FROM spans GROUP BY kind ORDER BY kind;

-- id: t8js-049
SELECT coalesce(attributes->>'llm.model_name', 'none') AS m, count(*) FROM spans GROUP BY 1 ORDER BY 2 DESC, 1;

-- id: t8js-050
SELECT CASE WHEN attributes ? 'llm.model_name' THEN 'llm' ELSE 'other' END AS k, count(*) FROM spans GROUP BY 1 ORDER BY 1;

-- id: t8js-051
SELECT round(avg((attributes->>'llm.token_count.completion')::numeric), 2) FROM spans;

-- id: t8js-052
SELECT (attributes->>'llm.token_count.total')::numeric / 1000 FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 3;

-- id: t8js-053
SELECT (attributes->>'llm.token_count.total')::float8 / 3 FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8js-054
SELECT (attributes->>'llm.token_count.total')::int / 3 FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8js-055
SELECT (attributes->'llm.token_count.total')::int FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8js-056
SELECT attributes->'llm.token_count.total' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

-- id: t8js-057
SELECT attributes->'llm.model_name' FROM spans WHERE kind = 'LLM' ORDER BY id LIMIT 2;

