-- SQLite-spelled statements agents carry over (issue #12), for the parity run
-- (tests/fidelity/parity.hpp). Each entry's `truth:` is the same question spelt for PostgreSQL and
-- run there directly; the SQLite spelling goes through both gateways and must give PostgreSQL's
-- answer or be refused with a FIX. A spelling PostgreSQL also reads (substr(x, -3), CAST(x AS INTEGER))
-- means what it means on PostgreSQL: its truth is itself.
-- Chinook entries: PostgreSQL's tables and columns are lower case.

-- id: sqlite-001
-- database: demo
-- truth: SELECT attributes ->> 'llm.model_name' AS model, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT json_extract(attributes, '$."llm.model_name"') AS model, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: sqlite-002
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE attributes ->> 'llm.provider' = 'openai'
SELECT count(*) FROM spans WHERE json_extract(attributes, '$."llm.provider"') = 'openai';

-- id: sqlite-003
-- database: demo
-- truth: SELECT sum((attributes ->> 'llm.token_count.total')::bigint) FROM spans WHERE kind = 'LLM'
SELECT sum(json_extract(attributes, '$."llm.token_count.total"')) FROM spans WHERE kind = 'LLM';

-- id: sqlite-004
-- database: demo
-- truth: SELECT max((attributes ->> 'llm.token_count.prompt')::bigint) FROM spans
SELECT max(json_extract(attributes, '$."llm.token_count.prompt"')) FROM spans;

-- id: sqlite-005
-- database: demo
-- truth: SELECT id, attributes ->> 'tool.name' FROM spans WHERE kind = 'TOOL' ORDER BY id LIMIT 5
SELECT id, json_extract(attributes, '$."tool.name"') FROM spans WHERE kind = 'TOOL' ORDER BY id LIMIT 5;

-- id: sqlite-006
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE attributes ->> 'exception.message' IS NOT NULL
SELECT count(*) FROM spans WHERE json_extract(attributes, '$."exception.message"') IS NOT NULL;

-- id: sqlite-007
-- database: demo
-- truth: SELECT attributes ->> 'llm.model_name' AS m, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT attributes ->> '$."llm.model_name"' AS m, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: sqlite-008
-- database: demo
-- truth: SELECT (attributes ->> 'retrieval.documents')::bigint AS docs, count(*) FROM spans WHERE kind = 'RETRIEVER' GROUP BY 1 ORDER BY 1
SELECT json_extract(attributes, '$."retrieval.documents"') AS docs, count(*) FROM spans WHERE kind = 'RETRIEVER' GROUP BY 1 ORDER BY 1;

-- id: sqlite-009
-- database: demo
-- truth: SELECT avg((attributes ->> 'llm.token_count.completion')::bigint) FROM spans WHERE kind = 'LLM'
SELECT avg(json_extract(attributes, '$."llm.token_count.completion"')) FROM spans WHERE kind = 'LLM';

-- id: sqlite-010
-- database: demo
-- truth: SELECT attributes ->> 'llm.model_name' AS m, sum(cost_usd) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT json_extract(attributes, '$."llm.model_name"') AS m, sum(cost_usd) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: sqlite-011
-- database: demo
-- truth: SELECT string_agg(name, ', ' ORDER BY id) FROM projects
SELECT group_concat(name, ', ') FROM (SELECT name FROM projects ORDER BY id) p;

-- id: sqlite-012
-- database: demo
-- truth: SELECT string_agg(DISTINCT kind, ',') FROM spans WHERE kind = 'LLM'
SELECT group_concat(DISTINCT kind) FROM spans WHERE kind = 'LLM';

-- id: sqlite-013
-- database: chinook
-- truth: SELECT string_agg(Name, '|' ORDER BY GenreId) FROM Genre WHERE GenreId < 4
SELECT group_concat(Name, '|') FROM Genre WHERE GenreId < 4;

-- id: sqlite-014
-- database: chinook
-- truth: SELECT count(*) FROM (SELECT AlbumId FROM Track GROUP BY AlbumId) x
SELECT count(*) FROM (SELECT AlbumId, group_concat(Name) FROM Track GROUP BY AlbumId) x;

-- id: sqlite-015
-- database: demo
-- truth: SELECT coalesce(session_id, 'anonymous') FROM traces ORDER BY id LIMIT 5
SELECT ifnull(session_id, 'anonymous') FROM traces ORDER BY id LIMIT 5;

-- id: sqlite-016
-- database: demo
-- truth: SELECT sum(coalesce(cost_usd, 0)) FROM spans
SELECT sum(ifnull(cost_usd, 0)) FROM spans;

-- id: sqlite-017
-- database: demo
-- truth: SELECT count(*) FROM traces WHERE coalesce(user_id, 0) = 0
SELECT count(*) FROM traces WHERE ifnull(user_id, 0) = 0;

-- id: sqlite-018
-- database: chinook
-- truth: SELECT coalesce(Company, 'private') AS c, count(*) FROM Customer GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5
SELECT ifnull(Company, 'private') AS c, count(*) FROM Customer GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;

-- id: sqlite-019
-- database: chinook
-- truth: SELECT CustomerId, coalesce(State, Country) FROM Customer ORDER BY CustomerId LIMIT 10
SELECT CustomerId, ifnull(State, Country) FROM Customer ORDER BY CustomerId LIMIT 10;

-- id: sqlite-020
-- database: demo
-- truth: SELECT CASE WHEN status = 'ERROR' THEN 'failed' ELSE 'fine' END AS s, count(*) FROM traces GROUP BY 1 ORDER BY 1
SELECT iif(status = 'ERROR', 'failed', 'fine') AS s, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: sqlite-021
-- database: demo
-- truth: SELECT sum(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) FROM spans
SELECT sum(iif(status = 'ERROR', 1, 0)) FROM spans;

-- id: sqlite-022
-- database: demo
-- truth: SELECT kind, sum(CASE WHEN cost_usd > 0 THEN 1 ELSE 0 END) FROM spans GROUP BY kind ORDER BY kind
SELECT kind, sum(iif(cost_usd > 0, 1, 0)) FROM spans GROUP BY kind ORDER BY kind;

-- id: sqlite-023
-- database: chinook
-- truth: SELECT CASE WHEN Milliseconds > 300000 THEN 'long' ELSE 'short' END AS l, count(*) FROM Track GROUP BY 1 ORDER BY 1
SELECT iif(Milliseconds > 300000, 'long', 'short') AS l, count(*) FROM Track GROUP BY 1 ORDER BY 1;

-- id: sqlite-024
-- database: chinook
-- truth: SELECT CASE WHEN Composer IS NULL THEN 'unknown' ELSE 'known' END AS c, count(*) FROM Track GROUP BY 1 ORDER BY 1
SELECT iif(Composer IS NULL, 'unknown', 'known') AS c, count(*) FROM Track GROUP BY 1 ORDER BY 1;

-- id: sqlite-025
-- database: demo
-- truth: SELECT count(*) FILTER (WHERE status = 'ERROR') FROM traces
SELECT sum(status = 'ERROR') FROM traces;

-- id: sqlite-026
-- database: demo
-- truth: SELECT kind, count(*) FILTER (WHERE status = 'ERROR') AS errors FROM spans GROUP BY kind ORDER BY kind
SELECT kind, sum(status = 'ERROR') AS errors FROM spans GROUP BY kind ORDER BY kind;

-- id: sqlite-027
-- database: chinook
-- truth: SELECT count(*) FILTER (WHERE UnitPrice > 1) FROM Track
SELECT sum(UnitPrice > 1) FROM Track;

-- id: sqlite-028
-- database: demo
-- truth: SELECT avg(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) FROM traces
SELECT avg(status = 'ERROR') FROM traces;

-- id: sqlite-029
-- database: demo
-- truth: SELECT strpos(name, '-') FROM projects ORDER BY id
SELECT instr(name, '-') FROM projects ORDER BY id;

-- id: sqlite-030
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE strpos(name, 'search') > 0
SELECT count(*) FROM spans WHERE instr(name, 'search') > 0;

-- id: sqlite-031
-- database: chinook
-- truth: SELECT strpos(Email, '@') FROM Customer ORDER BY CustomerId LIMIT 5
SELECT instr(Email, '@') FROM Customer ORDER BY CustomerId LIMIT 5;

-- id: sqlite-032
-- database: chinook
-- truth: SELECT substr(Email, strpos(Email, '@') + 1) AS domain, count(*) FROM Customer GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5
SELECT substr(Email, instr(Email, '@') + 1) AS domain, count(*) FROM Customer GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;

-- id: sqlite-033
-- database: demo
-- truth: SELECT coalesce(sum(cost_usd), 0)::float8 FROM spans
SELECT total(cost_usd) FROM spans;

-- id: sqlite-034
-- database: demo
-- truth: SELECT coalesce(sum(cost_usd), 0)::float8 FROM spans WHERE kind = 'TOOL'
SELECT total(cost_usd) FROM spans WHERE kind = 'TOOL';

-- id: sqlite-035
-- database: chinook
-- truth: SELECT coalesce(sum(Total), 0)::float8 FROM Invoice
SELECT total(Total) FROM Invoice;

-- id: sqlite-036
-- database: chinook
-- truth: SELECT coalesce(sum(Quantity), 0)::float8 FROM InvoiceLine
SELECT total(Quantity) FROM InvoiceLine;

-- id: sqlite-037
-- database: demo
-- truth: SELECT CASE WHEN cost_usd IS NULL THEN NULL ELSE greatest(cost_usd, 0.001) END FROM spans WHERE id = 27
SELECT max(cost_usd, 0.001) FROM spans WHERE id = 27;

-- id: sqlite-038
-- database: demo
-- truth: SELECT least(id, 3) FROM projects ORDER BY id
SELECT min(id, 3) FROM projects ORDER BY id;

-- id: sqlite-039
-- database: demo
-- truth: SELECT greatest(id, 3) FROM projects ORDER BY id
SELECT max(id, 3) FROM projects ORDER BY id;

-- id: sqlite-040
-- database: chinook
-- truth: SELECT greatest(Milliseconds, 200000) FROM Track ORDER BY TrackId LIMIT 5
SELECT max(Milliseconds, 200000) FROM Track ORDER BY TrackId LIMIT 5;

-- id: sqlite-041
-- database: chinook
-- truth: SELECT least(UnitPrice, 0.5) FROM Track ORDER BY TrackId LIMIT 3
SELECT min(UnitPrice, 0.5) FROM Track ORDER BY TrackId LIMIT 3;

-- id: sqlite-042
-- database: demo
-- truth: SELECT format('%s#%s', name, id) FROM projects ORDER BY id
SELECT printf('%s#%d', name, id) FROM projects ORDER BY id;

-- id: sqlite-043
-- database: demo
-- truth: SELECT to_char(3.14159, 'FM0.00')
SELECT printf('%.2f', 3.14159);

-- id: sqlite-044
-- database: chinook
-- truth: SELECT lpad(InvoiceId::text, 5, '0') FROM Invoice ORDER BY InvoiceId LIMIT 3
SELECT printf('%05d', InvoiceId) FROM Invoice ORDER BY InvoiceId LIMIT 3;

-- id: sqlite-045
-- database: demo
-- truth: SELECT format('%s-%s', name, id) FROM projects ORDER BY id
SELECT format('%s-%s', name, id) FROM projects ORDER BY id;

-- id: sqlite-046
-- database: demo
-- truth: SELECT id FROM spans ORDER BY id LIMIT 5 OFFSET 10
SELECT id FROM spans ORDER BY id LIMIT 10, 5;

-- id: sqlite-047
-- database: demo
-- truth: SELECT name FROM projects ORDER BY id LIMIT 2 OFFSET 1
SELECT name FROM projects ORDER BY id LIMIT 1, 2;

-- id: sqlite-048
-- database: chinook
-- truth: SELECT Name FROM Artist ORDER BY ArtistId LIMIT 10 OFFSET 20
SELECT Name FROM Artist ORDER BY ArtistId LIMIT 20, 10;

-- id: sqlite-049
-- database: chinook
-- truth: SELECT TrackId FROM Track ORDER BY TrackId LIMIT 3 OFFSET 100
SELECT TrackId FROM Track ORDER BY TrackId LIMIT 100, 3;

-- id: sqlite-050
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE name LIKE 'tool:search\_%'
SELECT count(*) FROM spans WHERE name GLOB 'tool:search_*';

-- id: sqlite-051
-- database: demo
-- truth: SELECT name FROM projects WHERE name LIKE '%-%' ORDER BY name
SELECT name FROM projects WHERE name GLOB '*-*' ORDER BY name;

-- id: sqlite-052
-- database: chinook
-- truth: SELECT count(*) FROM Artist WHERE Name LIKE 'The %'
SELECT count(*) FROM Artist WHERE Name GLOB 'The *';

-- id: sqlite-053
-- database: chinook
-- truth: SELECT count(*) FROM Track WHERE Name ~ '^[A-C]'
SELECT count(*) FROM Track WHERE Name GLOB '[A-C]*';

-- id: sqlite-054
-- database: demo
-- truth: SELECT to_char(start_time, 'YYYY-MM') AS month, count(*) FROM traces GROUP BY 1 ORDER BY 1
SELECT strftime('%Y-%m', start_time) AS month, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: sqlite-055
-- database: demo
-- truth: SELECT to_char(start_time, 'HH24') AS h, count(*) FROM traces GROUP BY 1 ORDER BY 1
SELECT strftime('%H', start_time) AS h, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: sqlite-056
-- database: demo
-- truth: SELECT to_char(start_time, 'YYYY-MM-DD') AS d, count(*) FROM traces WHERE start_time < '2026-09-19T00:00:00Z' GROUP BY 1 ORDER BY 1
SELECT date(start_time) AS d, count(*) FROM traces WHERE start_time < '2026-09-19T00:00:00Z' GROUP BY 1 ORDER BY 1;

-- id: sqlite-057
-- database: demo
-- truth: SELECT count(*) FROM traces WHERE start_time >= '2026-10-01T00:00:00Z' AND start_time < '2026-10-02T00:00:00Z'
SELECT count(*) FROM traces WHERE date(start_time) = '2026-10-01';

-- id: sqlite-058
-- database: demo
-- truth: SELECT count(*) FROM traces WHERE start_time >= '2026-11-08T00:00:00Z'
SELECT count(*) FROM traces WHERE start_time >= datetime('2026-11-15', '-7 days');

-- id: sqlite-059
-- database: demo
-- truth: SELECT '2026-03-03'
SELECT date('2026-01-31', '+1 month');

-- id: sqlite-060
-- database: demo
-- truth: SELECT '2026-03-01'
SELECT date('2026-03-15', 'start of month');

-- id: sqlite-061
-- database: demo
-- truth: SELECT '2'
SELECT strftime('%w', '2026-12-01');

-- id: sqlite-062
-- database: demo
-- truth: SELECT 30.0::float8
SELECT julianday('2026-12-01') - julianday('2026-11-01');

-- id: sqlite-063
-- database: demo
-- parity_skip: julianday() of a time of day is a float day number (about 50 microseconds apart): its differences are 1e-8 off PostgreSQL's exact epoch arithmetic. Open: admission's FIX for timestamp arithmetic on SQLite points to julianday (s3-time's translations replace it)
-- truth: SELECT avg(date_part('epoch', end_time - start_time)) FROM traces
SELECT avg((julianday(end_time) - julianday(start_time)) * 86400) FROM traces;

-- id: sqlite-064
-- database: demo
-- parity_skip: julianday() of a time of day is a float day number (about 50 microseconds apart): its differences are 1e-8 off PostgreSQL's exact epoch arithmetic. Open: admission's FIX for timestamp arithmetic on SQLite points to julianday (s3-time's translations replace it)
-- truth: SELECT max(date_part('epoch', end_time - start_time)) / 3600 FROM traces
SELECT max(julianday(end_time) - julianday(start_time)) * 24 FROM traces;

-- id: sqlite-065
-- database: demo
-- truth: SELECT '1790812800'
SELECT strftime('%s', '2026-10-01T00:00:00Z');

-- id: sqlite-066
-- database: demo
-- truth: SELECT count(*) FROM span_annotations WHERE to_char(created_at, 'YYYY-MM-DD') = '2026-10-05'
SELECT count(*) FROM span_annotations WHERE strftime('%Y-%m-%d', created_at) = '2026-10-05';

-- id: sqlite-067
-- database: chinook
-- truth: SELECT to_char(InvoiceDate, 'YYYY') AS y, count(*) FROM Invoice GROUP BY 1 ORDER BY 1
SELECT strftime('%Y', InvoiceDate) AS y, count(*) FROM Invoice GROUP BY 1 ORDER BY 1;

-- id: sqlite-068
-- database: chinook
-- truth: SELECT to_char(InvoiceDate, 'YYYY') AS y, round(sum(Total), 2) FROM Invoice GROUP BY 1 ORDER BY 1
SELECT strftime('%Y', InvoiceDate) AS y, round(sum(Total), 2) FROM Invoice GROUP BY 1 ORDER BY 1;

-- id: sqlite-069
-- database: chinook
-- truth: SELECT to_char(InvoiceDate, 'MM') AS m, count(*) FROM Invoice GROUP BY 1 ORDER BY 1
SELECT strftime('%m', InvoiceDate) AS m, count(*) FROM Invoice GROUP BY 1 ORDER BY 1;

-- id: sqlite-070
-- database: chinook
-- truth: SELECT to_char(InvoiceDate, 'YYYY-MM-DD') FROM Invoice ORDER BY InvoiceId LIMIT 3
SELECT date(InvoiceDate) FROM Invoice ORDER BY InvoiceId LIMIT 3;

-- id: sqlite-071
-- database: chinook
-- truth: SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2012-12-31'
SELECT count(*) FROM Invoice WHERE InvoiceDate >= date('2013-12-31', '-1 year');

-- id: sqlite-072
-- database: chinook
-- truth: SELECT count(*) FROM Employee WHERE HireDate - BirthDate > interval '10950 days'
SELECT count(*) FROM Employee WHERE julianday(HireDate) - julianday(BirthDate) > 365 * 30;

-- id: sqlite-073
-- database: demo
-- truth: SELECT length(name), upper(name), lower(name) FROM projects ORDER BY id
SELECT length(name), upper(name), lower(name) FROM projects ORDER BY id;

-- id: sqlite-074
-- database: demo
-- truth: SELECT substr(name, 2) FROM projects ORDER BY id
SELECT substr(name, 2) FROM projects ORDER BY id;

-- id: sqlite-075
-- database: demo
-- truth: SELECT substr(name, -3) FROM projects ORDER BY id
SELECT substr(name, -3) FROM projects ORDER BY id;

-- id: sqlite-076
-- database: demo
-- truth: SELECT btrim(name, 's') FROM projects ORDER BY id
SELECT trim(name, 's') FROM projects ORDER BY id;

-- id: sqlite-077
-- database: demo
-- truth: SELECT ltrim(trace_id, '0123456789') FROM traces ORDER BY id LIMIT 3
SELECT ltrim(trace_id, '0123456789') FROM traces ORDER BY id LIMIT 3;

-- id: sqlite-078
-- database: demo
-- truth: SELECT replace(name, '-', '_') FROM projects ORDER BY id
SELECT replace(name, '-', '_') FROM projects ORDER BY id;

-- id: sqlite-079
-- database: demo
-- truth: SELECT upper(encode('ab'::bytea, 'hex'))
SELECT hex('ab');

-- id: sqlite-080
-- database: demo
-- truth: SELECT 'integer'
SELECT typeof(id) FROM projects WHERE id = 1;

-- id: sqlite-081
-- database: demo
-- truth: SELECT ascii('A'), chr(66)
SELECT unicode('A'), char(66);

-- id: sqlite-082
-- database: demo
-- truth: SELECT abs(-3), round(2.567, 1)
SELECT abs(-3), round(2.567, 1);

-- id: sqlite-083
-- database: demo
-- truth: SELECT round(cost_usd::numeric, 4) FROM spans WHERE id = 27
SELECT round(cost_usd, 4) FROM spans WHERE id = 27;

-- id: sqlite-084
-- database: demo
-- truth: SELECT round(avg(cost_usd)::numeric, 6) FROM spans WHERE kind = 'LLM'
SELECT round(avg(cost_usd), 6) FROM spans WHERE kind = 'LLM';

-- id: sqlite-085
-- database: demo
-- truth: SELECT CAST(cost_usd * 1000 AS INTEGER) FROM spans WHERE id = 27
SELECT CAST(cost_usd * 1000 AS INTEGER) FROM spans WHERE id = 27;

-- id: sqlite-086
-- database: demo
-- truth: SELECT 3.5::float8
SELECT CAST(7 AS REAL) / 2;

-- id: sqlite-087
-- database: demo
-- truth: SELECT 3
SELECT 7 / 2;

-- id: sqlite-088
-- database: demo
-- truth: SELECT 24
SELECT CAST('12' AS INTEGER) * 2;

-- id: sqlite-089
-- database: demo
-- truth: SELECT name FROM projects WHERE name = 'support-bot'
SELECT name FROM projects WHERE name == 'support-bot';

-- id: sqlite-090
-- database: demo
-- truth: SELECT count(*) FROM traces WHERE session_id IS NOT NULL AND status <> 'OK'
SELECT count(*) FROM traces WHERE session_id IS NOT NULL AND status != 'OK';

-- id: sqlite-091
-- database: demo
-- truth: SELECT name FROM projects ORDER BY id
SELECT `name` FROM projects ORDER BY id;

-- id: sqlite-092
-- database: demo
-- truth: SELECT name FROM projects ORDER BY id
SELECT [name] FROM projects ORDER BY id;

-- id: sqlite-093
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE kind = 'LLM'
SELECT count(*) FROM spans WHERE kind = "LLM";

-- id: sqlite-094
-- database: demo
-- truth: SELECT name FROM projects WHERE id = 3
SELECT name FROM projects WHERE id IS 3;

-- id: sqlite-095
-- database: demo
-- truth: SELECT name FROM projects WHERE id IS DISTINCT FROM 3 ORDER BY id
SELECT name FROM projects WHERE id IS NOT 3 ORDER BY id;

-- id: sqlite-096
-- database: demo
-- truth: SELECT count(*) FROM traces WHERE session_id IS NULL OR user_id IS NULL
SELECT count(*) FROM traces WHERE session_id IS NULL OR user_id IS NULL;

-- id: sqlite-097
-- database: demo
-- truth: SELECT id FROM projects ORDER BY id DESC LIMIT 2
SELECT id FROM projects ORDER BY id DESC LIMIT 2;

-- id: sqlite-098
-- database: demo
-- truth: SELECT true
SELECT random() >= 0;

-- id: sqlite-099
-- database: demo
-- truth: SELECT 'x'
SELECT coalesce(NULL, NULL, 'x');

-- id: sqlite-100
-- database: demo
-- truth: SELECT NULL::int, 1
SELECT nullif(1, 1), nullif(1, 2);

-- id: sqlite-101
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE name LIKE 'tool:%'
SELECT count(*) FROM spans WHERE name LIKE 'tool:%';

-- id: sqlite-102
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE lower(name) LIKE 'TOOL:%'
SELECT count(*) FROM spans WHERE lower(name) LIKE 'TOOL:%';

-- id: sqlite-103
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE name LIKE 'Tool:%'
SELECT count(*) FROM spans WHERE name LIKE 'Tool:%';

-- id: sqlite-104
-- database: demo
-- truth: SELECT kind, count(*) FROM spans GROUP BY 1 HAVING count(*) > 5000 ORDER BY 1
SELECT kind, count(*) FROM spans GROUP BY 1 HAVING count(*) > 5000 ORDER BY 1;

-- id: sqlite-105
-- database: demo
-- truth: SELECT count(*) FROM spans s JOIN traces t ON s.trace_id = t.trace_id WHERE t.status = 'ERROR'
SELECT count(*) FROM spans s, traces t WHERE s.trace_id = t.trace_id AND t.status = 'ERROR';

-- id: sqlite-106
-- database: chinook
-- truth: SELECT a.Title, count(t.TrackId) FROM Album a JOIN Track t ON t.AlbumId = a.AlbumId GROUP BY a.AlbumId, a.Title ORDER BY 2 DESC, a.AlbumId LIMIT 5
SELECT a.Title, count(t.TrackId) FROM Album a JOIN Track t ON t.AlbumId = a.AlbumId GROUP BY a.AlbumId, a.Title ORDER BY 2 DESC, a.AlbumId LIMIT 5;

-- id: sqlite-107
-- database: chinook
-- truth: SELECT Name FROM Track WHERE Name LIKE '%love%' ORDER BY TrackId LIMIT 5
SELECT Name FROM Track WHERE Name LIKE '%love%' ORDER BY TrackId LIMIT 5;

-- id: sqlite-108
-- database: chinook
-- truth: SELECT count(*) FROM Track WHERE Composer LIKE '%Jagger%'
SELECT count(*) FROM Track WHERE Composer LIKE '%Jagger%';

-- id: sqlite-109
-- database: chinook
-- truth: SELECT BillingCountry, count(*) FROM Invoice GROUP BY BillingCountry ORDER BY 2 DESC, 1 LIMIT 5
SELECT BillingCountry, count(*) FROM Invoice GROUP BY BillingCountry ORDER BY 2 DESC, 1 LIMIT 5;

-- id: sqlite-110
-- database: chinook
-- truth: SELECT LastName || ', ' || FirstName FROM Employee ORDER BY EmployeeId
SELECT LastName || ', ' || FirstName FROM Employee ORDER BY EmployeeId;

-- id: sqlite-111
-- database: chinook
-- truth: SELECT round(avg(Milliseconds) / 60000.0, 2) FROM Track
SELECT round(avg(Milliseconds) / 60000.0, 2) FROM Track;

-- id: sqlite-112
-- database: chinook
-- truth: SELECT MediaTypeId, count(*) FROM Track GROUP BY MediaTypeId ORDER BY MediaTypeId
SELECT MediaTypeId, count(*) FROM Track GROUP BY MediaTypeId ORDER BY MediaTypeId;

-- id: sqlite-113
-- database: chinook
-- truth: SELECT count(DISTINCT CustomerId) FROM Invoice
SELECT count(DISTINCT CustomerId) FROM Invoice;

-- id: sqlite-114
-- database: chinook
-- truth: SELECT coalesce(ReportsTo, 0), count(*) FROM Employee GROUP BY 1 ORDER BY 1
SELECT ifnull(ReportsTo, 0), count(*) FROM Employee GROUP BY 1 ORDER BY 1;

-- id: sqlite-115
-- database: chinook
-- truth: SELECT upper(substr(Country, 1, 3)) AS c, count(*) FROM Customer GROUP BY 1 ORDER BY 1
SELECT upper(substr(Country, 1, 3)) AS c, count(*) FROM Customer GROUP BY 1 ORDER BY 1;

-- id: sqlite-116
-- database: chinook
-- truth: SELECT length(Name) AS l FROM Genre ORDER BY GenreId
SELECT length(Name) AS l FROM Genre ORDER BY GenreId;

-- id: sqlite-117
-- database: chinook
-- truth: SELECT sum(Milliseconds)::float8 / 3600000 FROM Track
SELECT total(Milliseconds) / 3600000 FROM Track;

-- id: sqlite-118
-- database: chinook
-- truth: SELECT Name, UnitPrice * 100 FROM Track ORDER BY TrackId LIMIT 3
SELECT Name, UnitPrice * 100 FROM Track ORDER BY TrackId LIMIT 3;

-- id: sqlite-119
-- database: chinook
-- truth: SELECT CAST(Total AS INTEGER) FROM Invoice ORDER BY InvoiceId LIMIT 5
SELECT CAST(Total AS INTEGER) FROM Invoice ORDER BY InvoiceId LIMIT 5;

-- id: sqlite-120
-- database: chinook
-- truth: SELECT count(*) FROM Invoice WHERE Total > 10 AND BillingState IS NOT NULL
SELECT count(*) FROM Invoice WHERE Total > 10 AND BillingState IS NOT NULL;

-- id: sqlite-121
-- database: demo
-- truth: SELECT to_char(date_trunc('week', start_time), 'YYYY-MM-DD') AS week_start, count(*) FROM traces GROUP BY 1 ORDER BY 1
SELECT date(start_time, '-6 days', 'weekday 1') AS week_start, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: sqlite-122
-- database: demo
-- truth: SELECT to_char(start_time, 'YYYY-MM-01') AS month_start, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT date(start_time, 'start of month') AS month_start, count(*) FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: sqlite-123
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE start_time >= '2026-10-01T00:00:00Z' AND start_time < '2026-11-01T00:00:00Z'
SELECT count(*) FROM spans WHERE start_time >= datetime('2026-10-15', 'start of month') AND start_time < datetime('2026-10-15', 'start of month', '+1 month');

-- id: sqlite-124
-- database: demo
-- truth: SELECT to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') FROM traces ORDER BY id LIMIT 5
SELECT datetime(start_time) FROM traces ORDER BY id LIMIT 5;

-- id: sqlite-125
-- database: demo
-- truth: SELECT to_char(start_time + interval '2 hours', 'YYYY-MM-DD HH24:MI:SS') FROM traces ORDER BY id LIMIT 5
SELECT datetime(start_time, '+2 hours') FROM traces ORDER BY id LIMIT 5;

-- id: sqlite-126
-- database: demo
-- truth: SELECT to_char(start_time, 'DD') AS d, count(*) FROM traces GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3
SELECT strftime('%d', start_time) AS d, count(*) FROM traces GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3;

-- id: sqlite-127
-- database: demo
-- truth: SELECT CAST(date_part('dow', start_time) AS int)::text AS dow, count(*) FROM traces GROUP BY 1 ORDER BY 1
SELECT strftime('%w', start_time) AS dow, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: sqlite-128
-- database: demo
-- truth: SELECT min(trunc(date_part('epoch', start_time)))::bigint, max(trunc(date_part('epoch', start_time)))::bigint FROM traces
SELECT min(unixepoch(start_time)), max(unixepoch(start_time)) FROM traces;

-- id: sqlite-129
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE (attributes ->> 'llm.token_count.total')::numeric > 1000
SELECT count(*) FROM spans WHERE json_extract(attributes, '$."llm.token_count.total"') > 1000;

-- id: sqlite-130
-- database: demo
-- truth: SELECT attributes ->> 'llm.model_name' AS m, sum((attributes ->> 'llm.token_count.prompt')::bigint) AS p, sum((attributes ->> 'llm.token_count.completion')::bigint) AS c FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1
SELECT json_extract(attributes, '$."llm.model_name"') AS m, sum(json_extract(attributes, '$."llm.token_count.prompt"')) AS p, sum(json_extract(attributes, '$."llm.token_count.completion"')) AS c FROM spans WHERE kind = 'LLM' GROUP BY 1 ORDER BY 1;

-- id: sqlite-131
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE kind = 'LLM' AND attributes ->> 'llm.model_name' IN ('gpt-4o', 'gpt-4o-mini')
SELECT count(*) FROM spans WHERE kind = 'LLM' AND (json_extract(attributes, '$."llm.model_name"') = 'gpt-4o' OR json_extract(attributes, '$."llm.model_name"') = 'gpt-4o-mini');

-- id: sqlite-132
-- database: demo
-- truth: SELECT kind, coalesce(sum(cost_usd), 0)::float8 AS cost FROM spans GROUP BY kind ORDER BY kind
SELECT kind, total(cost_usd) AS cost FROM spans GROUP BY kind ORDER BY kind;

-- id: sqlite-133
-- database: demo
-- truth: SELECT kind, round(coalesce(sum(cost_usd), 0)::numeric, 4) FROM spans GROUP BY kind ORDER BY kind
SELECT kind, round(total(cost_usd), 4) FROM spans GROUP BY kind ORDER BY kind;

-- id: sqlite-134
-- database: demo
-- truth: SELECT status, sum(CASE WHEN session_id IS NULL THEN 1 ELSE 0 END) AS anonymous FROM traces GROUP BY status ORDER BY status
SELECT status, sum(iif(session_id IS NULL, 1, 0)) AS anonymous FROM traces GROUP BY status ORDER BY status;

-- id: sqlite-135
-- database: demo
-- truth: SELECT substr(name, 1, strpos(name, ':') - 1) AS prefix, count(*) FROM spans WHERE strpos(name, ':') > 0 GROUP BY 1 ORDER BY 2 DESC, 1
SELECT substr(name, 1, instr(name, ':') - 1) AS prefix, count(*) FROM spans WHERE instr(name, ':') > 0 GROUP BY 1 ORDER BY 2 DESC, 1;

-- id: sqlite-136
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE name LIKE 'tool:_%'
SELECT count(*) FROM spans WHERE name GLOB 'tool:?*';

-- id: sqlite-137
-- database: demo
-- truth: SELECT id, kind || ' #' || id FROM spans ORDER BY id LIMIT 5
SELECT id, printf('%s #%d', kind, id) FROM spans ORDER BY id LIMIT 5;

-- id: sqlite-138
-- database: demo
-- truth: SELECT id, CASE WHEN cost_usd IS NULL THEN NULL ELSE least(cost_usd, 0.01) END FROM spans ORDER BY id LIMIT 20
SELECT id, min(cost_usd, 0.01) FROM spans ORDER BY id LIMIT 20;

-- id: sqlite-139
-- database: demo
-- truth: SELECT t.trace_id, count(s.id) FROM traces t JOIN spans s ON s.trace_id = t.trace_id GROUP BY t.trace_id ORDER BY 2 DESC, 1 LIMIT 5 OFFSET 5
SELECT t.trace_id, count(s.id) FROM traces t JOIN spans s ON s.trace_id = t.trace_id GROUP BY t.trace_id ORDER BY 2 DESC, 1 LIMIT 5, 5;

-- id: sqlite-140
-- database: chinook
-- truth: SELECT to_char(InvoiceDate, 'YYYY') AS y, to_char(InvoiceDate, 'MM') AS m, count(*) FROM Invoice GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 5
SELECT strftime('%Y', InvoiceDate) AS y, strftime('%m', InvoiceDate) AS m, count(*) FROM Invoice GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 5;

-- id: sqlite-141
-- database: chinook
-- truth: SELECT e.LastName, count(c.CustomerId) FROM Employee e LEFT JOIN Customer c ON c.SupportRepId = e.EmployeeId GROUP BY e.EmployeeId, e.LastName ORDER BY e.EmployeeId
SELECT e.LastName, count(c.CustomerId) FROM Employee e LEFT JOIN Customer c ON c.SupportRepId = e.EmployeeId GROUP BY e.EmployeeId, e.LastName ORDER BY e.EmployeeId;

-- id: sqlite-142
-- database: chinook
-- truth: SELECT FirstName || ' ' || LastName, coalesce(Company, '-'), coalesce(State, '-') FROM Customer ORDER BY CustomerId LIMIT 10
SELECT FirstName || ' ' || LastName, ifnull(Company, '-'), ifnull(State, '-') FROM Customer ORDER BY CustomerId LIMIT 10;

-- id: sqlite-143
-- database: chinook
-- truth: SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2013-01-01' AND InvoiceDate < '2013-04-01'
SELECT count(*) FROM Invoice WHERE InvoiceDate >= date('2013-01-01') AND InvoiceDate < date('2013-01-01', '+3 months');

-- id: sqlite-144
-- database: chinook
-- truth: SELECT Name FROM Track WHERE Name LIKE 'A%' ORDER BY TrackId LIMIT 5 OFFSET 10
SELECT Name FROM Track WHERE Name GLOB 'A*' ORDER BY TrackId LIMIT 10, 5;

-- id: sqlite-145
-- database: chinook
-- truth: SELECT BillingCountry, round(coalesce(sum(Total), 0)::numeric, 2) FROM Invoice GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5
SELECT BillingCountry, round(total(Total), 2) FROM Invoice GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;

-- id: sqlite-146
-- database: demo
-- truth: SELECT avg((attributes ->> 'llm.token_count.total')::numeric), avg((attributes ->> 'llm.token_count.total')::numeric / 3.0), sum((attributes ->> 'llm.token_count.total')::numeric) / 7, max((attributes ->> 'llm.token_count.total')::numeric) FROM spans
SELECT avg(json_extract(attributes, '$."llm.token_count.total"')), avg(json_extract(attributes, '$."llm.token_count.total"') / 3.0), sum(json_extract(attributes, '$."llm.token_count.total"')) / 7, max(json_extract(attributes, '$."llm.token_count.total"')) FROM spans;

-- id: sqlite-147
-- database: demo
-- truth: SELECT to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS dt, (start_time AT TIME ZONE 'UTC')::date + 1 AS next, coalesce(cost_usd, 0) AS c, CASE WHEN kind = 'LLM' THEN 1 ELSE 0 END AS llm, CASE WHEN kind = 'LLM' THEN 1.0 ELSE 0.0 END AS llm_n FROM spans ORDER BY id LIMIT 5
SELECT strftime('%Y-%m-%d', start_time) AS d, datetime(start_time) AS dt, date(start_time, '+1 day') AS next, ifnull(cost_usd, 0) AS c, iif(kind = 'LLM', 1, 0) AS llm, iif(kind = 'LLM', 1.0, 0.0) AS llm_n FROM spans ORDER BY id LIMIT 5;

-- id: sqlite-148
-- database: demo
-- truth: SELECT avg(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS error_rate, sum(CASE WHEN kind = 'LLM' THEN 1 ELSE 0 END) AS llm FROM spans
SELECT avg(iif(status = 'ERROR', 1, 0)) AS error_rate, sum(iif(kind = 'LLM', 1, 0)) AS llm FROM spans;

-- min / max of datetime() / strftime() is of their text, as PostgreSQL's translation (to_char) gives it (SQLite
-- answered max(datetime(t)) as a timestamp '2026-11-14T22:47:52'; outside tester s13).
-- id: sqlite-149
-- database: demo
-- truth: SELECT max(to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')) AS a, min(to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')) AS b FROM spans
SELECT max(datetime(start_time)) AS a, min(strftime('%Y-%m-%d', start_time)) AS b FROM spans;

-- SQLite's scalar max / min of mixed types: GREATEST / LEAST's common type (typed as the first argument, / divided
-- the integers; outside tester s17d).
-- id: sqlite-150
-- database: demo
-- truth: SELECT greatest((id % 997), 0.0) / 1000 AS a, least(3, 2.5) / 2 AS b FROM spans WHERE id < 4 ORDER BY id
SELECT max((id % 997), 0.0) / 1000 AS a, min(3, 2.5) / 2 AS b FROM spans WHERE id < 4 ORDER BY id;

-- id: sqlite-151
-- database: demo
-- truth: SELECT count(*) FROM spans WHERE greatest((id % 997), 0.0) / 1000 > 1.5
SELECT count(*) FROM spans WHERE max((id % 997), 0.0) / 1000 > 1.5;

-- printf's %d of NULL prints 0 (its %s the empty text), and group_concat(DISTINCT x) sorts as PostgreSQL's
-- string_agg(DISTINCT ...) does on both backends (outside tester s18c).
-- id: sqlite-152
-- database: demo
-- truth: SELECT '0' AS a, 'n=0;' AS b, '' AS c
SELECT printf('%d', NULL) AS a, printf('n=%d;', (SELECT max(id) FROM spans WHERE false)) AS b, printf('%s', NULL) AS c;

-- id: sqlite-153
-- database: demo
-- truth: SELECT string_agg(DISTINCT kind, ',') FROM spans
SELECT group_concat(DISTINCT kind) FROM spans;

-- id: sqlite-154
-- database: demo
-- truth: SELECT kind, string_agg(DISTINCT status, ',') AS statuses, string_agg(DISTINCT name, ',') AS names FROM spans WHERE id < 300 GROUP BY kind ORDER BY kind
SELECT kind, group_concat(DISTINCT status) AS statuses, group_concat(DISTINCT name) AS names FROM spans WHERE id < 300 GROUP BY kind ORDER BY kind;

-- id: sqlite-155
-- database: demo
-- truth: WITH x AS (SELECT to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') AS d FROM spans) SELECT count(*) FROM x WHERE d >= '2026-10-01T00:00:00Z'
WITH x AS (SELECT datetime(start_time) d FROM spans) SELECT count(*) FROM x WHERE d >= '2026-10-01T00:00:00Z';

-- id: sqlite-156
-- database: demo
-- truth: SELECT to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') AS v FROM spans WHERE id IN (1, 2) UNION SELECT NULL ORDER BY 1
SELECT datetime(start_time) AS v FROM spans WHERE id IN (1, 2) UNION SELECT NULL ORDER BY 1;

-- id: sqlite-157
-- database: demo
-- truth: SELECT kind, coalesce(sum(cost_usd), 0)::float8 AS t FROM spans GROUP BY kind HAVING coalesce(sum(cost_usd), 0)::float8 > 0.01 ORDER BY kind
SELECT kind, total(cost_usd) AS t FROM spans GROUP BY kind HAVING total(cost_usd) > 0.01 ORDER BY kind;

-- id: sqlite-158
-- database: demo
-- truth: SELECT id, CASE WHEN id > 1 THEN to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') END AS c, coalesce(to_char(end_time, 'YYYY-MM-DD HH24:MI:SS'), to_char(start_time, 'YYYY-MM-DD HH24:MI:SS')) AS d FROM spans ORDER BY id LIMIT 3
SELECT id, CASE WHEN id > 1 THEN datetime(start_time) END AS c, coalesce(datetime(end_time), datetime(start_time)) AS d FROM spans ORDER BY id LIMIT 3;
