-- PostgreSQL's time constructors on SQLite (issue #12, session 7, branch s7-time): to_timestamp(seconds),
-- to_timestamp(text, template), to_date(text, template), make_date, INTERVAL '3' DAY, sum/avg of intervals.
-- Edge cases: NULLs, negative epochs, fractions, leap days, month ends, zero fields (unset in PostgreSQL),
-- out-of-range fields (PostgreSQL's errors must be errors on SQLite too), DST zones, templates SQLite refuses.
-- Format: as tests/parity/demo.sql.
-- database: demo

-- id: time-001
SELECT to_timestamp(0);

-- id: time-002
SELECT to_timestamp(1.5), to_timestamp(-1.25);

-- id: time-003
SELECT to_timestamp(NULL);

-- id: time-004
SELECT to_timestamp(1700000000.123456);

-- id: time-005
SELECT to_timestamp(-86400 * 365);

-- id: time-006
SELECT count(*) FROM traces WHERE start_time > to_timestamp(1790000000);

-- id: time-007
SELECT id, to_timestamp(id * 86400) FROM traces ORDER BY id LIMIT 3;

-- id: time-008
SELECT date_trunc('month', to_timestamp(1700000000)), extract(year FROM to_timestamp(1700000000));

-- id: time-009
SELECT id, to_timestamp(user_id) FROM traces ORDER BY id LIMIT 5;

-- id: time-010
SELECT to_timestamp(1e20);

-- id: time-011
SELECT to_date('2023-01-05', 'YYYY-MM-DD');

-- id: time-012
SELECT to_date('2024-02-29', 'YYYY-MM-DD'), to_date('2023-1-5', 'YYYY-MM-DD'), to_date('2023/01/05', 'YYYY-MM-DD');

-- id: time-013
SELECT to_date('20230105', 'YYYYMMDD'), to_date('  2023-01-05 junk', 'YYYY-MM-DD');

-- id: time-014
SELECT to_date('2023-02-30', 'YYYY-MM-DD');

-- id: time-015
SELECT to_date('2023-13-01', 'YYYY-MM-DD');

-- id: time-016
SELECT to_date('99-01-02', 'YY-MM-DD'), to_date('23-12-31', 'YY-MM-DD');

-- id: time-017
SELECT to_date('5 January 2024', 'DD Month YYYY'), to_date('05 jan 2024', 'DD Mon YYYY'), to_date('2024 DECEMBER 01', 'YYYY MONTH DD');

-- id: time-018
SELECT to_date('2023-00-10', 'YYYY-MM-DD'), to_date('2023-01-00', 'YYYY-MM-DD');

-- id: time-019
SELECT to_timestamp('2023-01-05 13:04:05', 'YYYY-MM-DD HH24:MI:SS');

-- id: time-020
SELECT to_timestamp('2023-01-05 01:04 PM', 'YYYY-MM-DD HH12:MI AM'), to_timestamp('2023-01-05 12:30 am', 'YYYY-MM-DD HH:MI PM');

-- id: time-021
SELECT to_timestamp('2023-01-05 10:00:00.5', 'YYYY-MM-DD HH24:MI:SS.MS'), to_timestamp('2023-01-05 1:2:3.12345', 'YYYY-MM-DD HH24:MI:SS.US');

-- id: time-022
SELECT to_timestamp('2023-01-05 24:00', 'YYYY-MM-DD HH24:MI');

-- id: time-023
SELECT to_timestamp('2023-01-05 00:30', 'YYYY-MM-DD HH12:MI');

-- id: time-024
SELECT to_date('2023-01-02', 'YYYYMMDD');

-- id: time-025
SELECT to_date(NULL, 'YYYY-MM-DD');

-- id: time-026
SELECT to_date('2023-01-05', 'YYYY-MM-DD') + 1, to_date('2024-01-31', 'YYYY-MM-DD') + INTERVAL '1 month';

-- id: time-027
SELECT to_date(to_char(start_time, 'YYYY-MM-DD'), 'YYYY-MM-DD') AS d, count(*) FROM traces GROUP BY d ORDER BY d LIMIT 5;

-- id: time-028
SELECT to_date('January', 'Month');

-- id: time-029
SELECT to_date('2023-005', 'YYYY-DDD');

-- id: time-030
SELECT make_date(2024, 2, 29), make_date(2023, 12, 31);

-- id: time-031
SELECT make_date(2023, 2, 29);

-- id: time-032
SELECT make_date(2024, 1, NULL);

-- id: time-033
SELECT INTERVAL '70' DAY, INTERVAL '3' HOUR, INTERVAL '2' YEAR, INTERVAL '1.5' SECOND, INTERVAL '-5' MINUTE, INTERVAL '14' MONTH;

-- id: time-034
SELECT count(*) FROM traces WHERE start_time >= TIMESTAMPTZ '2026-11-15T00:00:00Z' - INTERVAL '30' DAY;

-- id: time-035
SELECT INTERVAL '1 day 3 hours' DAY;

-- id: time-036
SELECT avg(end_time - start_time) FROM traces;

-- id: time-037
SELECT sum(end_time - start_time) FROM traces;

-- id: time-038
SELECT project_id, avg(end_time - start_time), sum(end_time - start_time) FROM traces GROUP BY project_id ORDER BY project_id;

-- id: time-039
SELECT avg(end_time - start_time), sum(end_time - start_time) FROM traces WHERE status = 'no such status';

-- id: time-040
SELECT avg(end_time - start_time) FILTER (WHERE status = 'ok') FROM traces;

-- id: time-041
SELECT to_timestamp('1700000000');

-- id: time-042
SELECT to_timestamp(start_time) FROM traces LIMIT 1;

-- id: time-043
SELECT to_date(id, 'YYYY') FROM traces LIMIT 1;

-- id: time-044
SELECT date_part('epoch', to_timestamp(1700000000.5));

-- id: time-045
SELECT to_timestamp(1710054000) AT TIME ZONE 'America/Los_Angeles', to_timestamp(1710050400) AT TIME ZONE 'America/Los_Angeles';

-- id: time-046
SELECT to_char(to_timestamp(1700000000), 'YYYY-MM-DD HH24:MI');

-- id: time-047
SELECT extract(MONTH FROM to_date('2021 ' || 'March', 'YYYY Month'));

-- id: time-048
SELECT to_date('Feb 29 2023', 'Mon DD YYYY');

-- id: time-049
SELECT to_date('Feb 29 2024', 'Mon DD YYYY');

-- id: time-050
SELECT to_timestamp('2024-03-10 02:30', 'YYYY-MM-DD HH24:MI') AT TIME ZONE 'America/New_York';

-- id: time-051
SELECT count(*) FROM traces WHERE start_time < to_timestamp('2026-10-01', 'YYYY-MM-DD');

-- id: time-052
SELECT avg(end_time - start_time) > INTERVAL '1 second' FROM traces;

-- id: time-053
SELECT to_date('2023-01-05', 'YYYY-MM-DD"T"');

-- id: time-054
SELECT to_date('2023x01x05', 'YYYY"x"MM"x"DD'), to_date('2023-01-05', 'FMYYYY-FMMM-FMDD');

-- id: time-055
SELECT to_date('2023 1 5', 'YYYY MM DD'), to_date('2023--01-05', 'YYYY-MM-DD');

-- id: time-056
SELECT to_date('Sept 05 2024', 'Mon DD YYYY');

-- id: time-057
SELECT count(*) FROM traces WHERE to_date(to_char(start_time, 'YYYY-MM-DD'), 'YYYY-MM-DD') BETWEEN DATE '2026-10-01' AND DATE '2026-10-01' + INTERVAL '2 WEEK';

-- id: time-058
SELECT to_date('2026-01-31', 'YYYY-MM-DD') + INTERVAL '1' MONTH, to_date('2024-02-29', 'YYYY-MM-DD') + INTERVAL '1' YEAR;

-- id: time-059
SELECT generate_series(DATE '2026-01-31', DATE '2026-05-31', INTERVAL '1 month');

-- id: time-060
WITH d AS (SELECT generate_series(TIMESTAMP '2026-03-01 00:00:00', TIMESTAMP '2026-01-01 00:00:00', INTERVAL '-1 month') AS m) SELECT m FROM d ORDER BY m;

-- id: time-061
WITH d AS (SELECT generate_series(DATE '2026-03-01', DATE '2026-01-01', INTERVAL '1 month') AS m) SELECT count(*) FROM d;

-- id: time-062
SELECT generate_series(DATE '2026-03-01', DATE '2026-01-01', INTERVAL '0 days');

-- id: time-063
SELECT count(*) FROM (SELECT generate_series(TIMESTAMPTZ '2026-01-01T00:00:00Z', TIMESTAMPTZ '2026-12-31T00:00:00Z', INTERVAL '1 minute') AS m) s;

-- id: time-064
WITH d AS (SELECT to_char(generate_series(DATE '2026-01-01', DATE '2026-04-01', INTERVAL '1 month'), 'YYYY-MM') AS m) SELECT m FROM d ORDER BY m;

-- id: time-065
WITH d AS (SELECT generate_series(DATE '2024-02-27', DATE '2024-03-01', INTERVAL '1 day')::date AS d) SELECT d FROM d ORDER BY d;

-- id: time-066
SELECT generate_series(DATE '2026-01-01', DATE '2026-01-03', INTERVAL '1 day');

-- id: time-067
SELECT generate_series(TIMESTAMP '2026-01-31 00:00:00', TIMESTAMP '2026-06-30 00:00:00', '1 month');

-- id: time-068
SELECT generate_series(TIMESTAMPTZ '2026-03-07T12:00:00Z', TIMESTAMPTZ '2026-03-10T12:00:00Z', INTERVAL '1 day') AT TIME ZONE 'America/New_York';

-- id: time-069
WITH m AS (SELECT generate_series(date_trunc('month', min(start_time)), date_trunc('month', max(start_time)), INTERVAL '1 month') AS m FROM traces GROUP BY project_id) SELECT m, count(*) FROM m GROUP BY m ORDER BY m;

-- id: time-070
WITH totals AS (SELECT date_trunc('month', start_time) AS dt, count(*) AS n FROM traces GROUP BY dt), months AS (SELECT generate_series(date_trunc('month', min(start_time)), date_trunc('month', max(start_time)), '1 month'::interval) AS dt FROM traces) SELECT m.dt::date AS month, coalesce(t.n, 0) AS n, coalesce(t.n, 0) - lag(coalesce(t.n, 0)) OVER (ORDER BY m.dt) AS change FROM months m LEFT JOIN totals t ON m.dt = t.dt ORDER BY m.dt;

-- id: time-071
WITH days AS (SELECT generate_series(date_trunc('day', min(start_time)), date_trunc('day', min(start_time)) + INTERVAL '6 days', INTERVAL '1 day') AS day FROM traces), per_day AS (SELECT date_trunc('day', start_time) AS day, count(*) AS n FROM traces GROUP BY 1) SELECT d.day, coalesce(p.n, 0) AS n FROM days d LEFT JOIN per_day p ON p.day = d.day ORDER BY d.day;

-- id: time-072
SELECT generate_series(1, 5);

-- id: time-073
SELECT generate_series(DATE '2026-01-01', DATE '2026-01-03', INTERVAL '1 day') AS d ORDER BY d;

-- id: time-074
SELECT * FROM generate_series(DATE '2026-01-01', DATE '2026-01-03', INTERVAL '1 day');

-- id: time-075
SELECT count(*) FROM traces WHERE start_time > CAST('2026-10-01' AS text);

-- id: time-076
SELECT count(*) FROM traces WHERE start_time > lower('2026-10-01');

-- id: time-077
SELECT count(*) FROM traces WHERE start_time > '2026-10-' || '01';

-- id: time-078
SELECT count(*) FROM traces WHERE CAST(end_time AS text) < start_time;

-- id: time-079
SELECT (SELECT min(start_time) FROM traces);

-- id: time-080
SELECT (SELECT max(end_time) FROM traces WHERE status = 'OK') AS newest, (SELECT count(*) FROM traces) AS n;

-- id: time-081
SELECT count(*) FROM traces WHERE start_time > '13/01/2026';

-- id: time-082
SELECT count(*) FROM traces WHERE start_time > '0000-01-01';

-- id: time-083
SELECT count(*) FROM traces WHERE start_time > '10/01/2026';

-- id: time-084
SELECT (SELECT generate_series(DATE '2026-01-01', DATE '2026-01-03', INTERVAL '1 day'));

-- id: time-085
SELECT (SELECT generate_series(DATE '2026-01-01', DATE '2026-01-01', INTERVAL '1 day')) AS only_day;

-- id: time-086
SELECT (SELECT generate_series(min(start_time), max(start_time), INTERVAL '1 day') FROM traces) AS first_day;

-- id: time-087
SELECT (SELECT min(start_time) + INTERVAL '1 day' FROM traces) AS next_day;

-- id: time-088
SELECT count(*) FROM traces WHERE date_trunc('month', start_time) = (SELECT date_trunc('month', max(start_time)) FROM traces);

-- id: time-089
SELECT (SELECT start_time FROM traces WHERE id = 1) AS first_start;

-- id: time-090
SELECT (SELECT start_time + INTERVAL '1 hour' FROM traces WHERE id = 1) AS later;

-- id: time-091
SELECT count(*) FROM traces WHERE start_time > (SELECT start_time FROM traces WHERE id = 1);

-- id: time-092
SELECT count(*) FROM traces WHERE date_trunc('day', start_time) = (SELECT date_trunc('day', start_time) - INTERVAL '1 day' FROM traces WHERE id = 10);

-- id: time-093
SELECT count(*) FROM traces WHERE to_date(to_char(start_time, 'YYYY-MM-DD'), 'YYYY-MM-DD') = (SELECT to_date(to_char(start_time, 'YYYY-MM-DD'), 'YYYY-MM-DD') - INTERVAL '2 days' FROM traces WHERE id = 3);

-- date_trunc(field, t, zone) to a day or longer: the local day, week, month ... of a zone, read back in that zone
-- (DST changes included); refused on SQLite for an hour or less (outside tester s14: refused with a FIX that named
-- another zone).
-- id: time-094
SELECT date_trunc('day', start_time, 'America/New_York') AS d, count(*) AS n FROM spans GROUP BY 1 ORDER BY 1;

-- id: time-095
SELECT date_trunc('month', TIMESTAMPTZ '2026-11-01 03:30:00+00', 'America/New_York') AS a, date_trunc('DAY', TIMESTAMPTZ '2026-11-01 05:30:00+00', 'America/New_York') AS b, date_trunc('day', TIMESTAMPTZ '2026-03-08 12:00:00+00', 'America/New_York') AS c, date_trunc('week', DATE '2026-03-10', 'Asia/Kolkata') AS d, date_trunc('year', TIMESTAMPTZ '2024-12-31 23:30:00+00', 'Europe/Berlin') AS e, date_trunc('quarter', TIMESTAMPTZ '2024-03-31 22:30:00+00', 'Europe/Berlin') AS f;

-- id: time-096
SELECT date_trunc('hour', start_time, 'Asia/Kolkata') AS h FROM spans ORDER BY id LIMIT 3;

-- An interval literal with spaces after a sign, as PostgreSQL reads it (SQLite refused '1 month - 1 day' as
-- invalid input; outside tester s14).
-- id: time-097
SELECT DATE '2026-01-31' + INTERVAL '1 month - 1 day' AS a, INTERVAL '- 2 hours + 30 minutes' AS b, TIMESTAMPTZ '2026-03-31 10:00:00+00' + INTERVAL '1 month - 1 day' AS c;

-- Zone offsets past 2037 follow the zone's rule (the TZif files list transitions up to 2037: New York answered
-- standard time in a 2040 summer), and a zone name is found whatever its case (outside tester s14).
-- id: time-098
SELECT date_trunc('day', TIMESTAMPTZ '2040-07-01 03:00+00', 'America/New_York') AS a, TIMESTAMPTZ '2040-07-01 03:00+00' AT TIME ZONE 'America/New_York' AS b, date_trunc('day', TIMESTAMPTZ '2050-07-01 03:00+00', 'Europe/Berlin') AS c, TIMESTAMP '2040-07-01 03:00' AT TIME ZONE 'australia/sydney' AS d, TIMESTAMPTZ '2038-01-15 03:00+00' AT TIME ZONE 'Australia/Sydney' AS e, TIMESTAMP '2040-03-11 02:30' AT TIME ZONE 'America/New_York' AS f, TIMESTAMP '2040-11-04 01:30' AT TIME ZONE 'America/New_York' AS g, TIMESTAMPTZ '2099-10-30 12:00+00' AT TIME ZONE 'Europe/London' AS h, start_time AT TIME ZONE 'europe/berlin' AS i FROM spans WHERE id = 1;

-- A zone whose rules changed in recent years is refused past 2037 on SQLite (the offsets of 28 years earlier were an
-- old rule's: Europe/Moscow had summer time in 2010; outside tester s14c).
-- id: time-099
SELECT TIMESTAMPTZ '2038-07-15 12:00+00' AT TIME ZONE 'Europe/Moscow' AS a, TIMESTAMPTZ '2038-07-15 12:00+00' AT TIME ZONE 'America/Mexico_City' AS b;

-- A CTE over a bare VALUES list keeps its times' kinds (SQLite added 7 to the text of a date: 2033; outside
-- tester s17a).
-- id: time-100
WITH w(d) AS (VALUES (DATE '2026-11-01')) SELECT d + 7 AS a, d - DATE '2026-10-01' AS b FROM w;

-- id: time-101
WITH params(d0) AS (VALUES (DATE '2026-11-01')) SELECT count(*) AS n FROM traces AS t, params WHERE t.start_time >= d0 AND t.start_time < d0 + 7;

-- id: time-102
WITH v(x) AS (VALUES (INTERVAL '1 day'), (INTERVAL '23 hours')) SELECT x, x * 2 AS y FROM v ORDER BY x;

-- id: time-103
WITH v AS (VALUES (DATE '2026-11-01', TIMESTAMPTZ '2026-11-01T10:00:00Z')) SELECT column1 + 1 AS a, column2 + INTERVAL '1 hour' AS b FROM v;

-- id: time-104
WITH v(x) AS (VALUES (DATE '2026-11-01') UNION ALL VALUES (DATE '2026-11-03')) SELECT max(x) - min(x) AS span FROM v;

-- A quoted literal meeting a time in COALESCE / CASE is read as that time, and a stored time column beside a
-- computed time prints as PostgreSQL prints it (SQLite answered its stored text, +00:00; outside tester s17c).
-- id: time-105
SELECT id, coalesce(end_time, '2026-01-01') AS a, coalesce(start_time, now()) > start_time - INTERVAL '1 day' AS b, CASE WHEN id % 2 = 0 THEN start_time ELSE end_time + INTERVAL '1 day' END AS c FROM spans WHERE id < 6 ORDER BY id;

-- id: time-106
SELECT count(*) AS n FROM spans WHERE coalesce(end_time, '2026-01-01') > '2026-11-01';

-- to_char: FM does not touch MS / US (a fraction keeps its zeros), and an empty format is NULL (outside tester s17d).
-- id: time-107
SELECT to_char(TIMESTAMP '2026-01-01 00:00:00.045', 'FMMS') AS a, to_char(TIMESTAMP '2026-01-01 00:00:00.045', 'SS.FMUS') AS b, to_char(TIMESTAMP '2026-01-01 00:00:00', 'FMMS') AS c, to_char(TIMESTAMP '2026-03-05 14:07:09', '') AS d;

-- id: time-108
SELECT count(*) AS n FROM spans WHERE to_char(start_time, 'FMMS') = to_char(start_time, 'MS');

-- A set operation's column where a stored time meets a computed one or a quoted literal: every member compared as
-- the time (SQLite compared the stored texts with the computed ones: 10 rows for 5; outside tester s17e).
-- id: time-109
SELECT count(*) AS n FROM (SELECT created_at + INTERVAL '0 hour' AS t FROM projects UNION SELECT created_at FROM projects) AS x;

-- id: time-110
SELECT count(*) AS n FROM (SELECT start_time FROM spans INTERSECT SELECT start_time + INTERVAL '0 s' FROM spans) AS x;

-- id: time-111
SELECT t, count(*) AS n FROM (SELECT created_at AS t FROM projects UNION ALL SELECT created_at + INTERVAL '0 s' FROM projects) AS x GROUP BY t ORDER BY n DESC, t LIMIT 3;

-- id: time-112
SELECT count(*) AS n FROM (SELECT start_time FROM spans UNION SELECT '2026-09-16 00:19:23.561Z' UNION SELECT now()) AS x;

-- id: time-113
SELECT count(*) AS n FROM (SELECT start_time FROM spans WHERE id < 50 UNION SELECT start_time + INTERVAL '1 ms' FROM spans WHERE id < 50 EXCEPT SELECT start_time FROM spans WHERE id < 10) AS x;

-- Intervals compared as PostgreSQL compares them (a month is 30 days, a day 24 hours) under SQLite's pg_interval
-- collation: DISTINCT, GROUP BY, set operations, count(DISTINCT), IN (SELECT ...), min / max, PARTITION BY. SQLite
-- compared their texts ('1 day' and '24:00:00' were two values), and min / max of an interval were refused.
-- id: time-114
SELECT count(DISTINCT x) AS a, max(x) AS b, min(x) AS c FROM (VALUES (INTERVAL '1 day'), (INTERVAL '24 hours'), (INTERVAL '23 hours'), (INTERVAL '1 mon'), (INTERVAL '29 days 23:59:59'), (NULL)) AS v(x);

-- id: time-115
SELECT count(*) AS n FROM (SELECT DISTINCT x FROM (VALUES (INTERVAL '1 day'), (INTERVAL '24 hours'), (INTERVAL '-1 day'), (INTERVAL '-24 hours')) AS v(x)) AS d;

-- id: time-116
SELECT n, count(*) AS groups FROM (SELECT x, count(*) AS n FROM (VALUES (INTERVAL '1 mon'), (INTERVAL '30 days'), (INTERVAL '720 hours'), (INTERVAL '1 day')) AS v(x) GROUP BY x) AS g GROUP BY n ORDER BY n;

-- id: time-117
SELECT count(*) AS n FROM (SELECT INTERVAL '1 day' UNION SELECT INTERVAL '24 hours' UNION SELECT INTERVAL '86400 seconds') AS u;

-- id: time-118
SELECT count(*) AS n FROM (VALUES (INTERVAL '1 day'), (INTERVAL '24 hours'), (INTERVAL '2 days')) AS v(x) WHERE x IN (SELECT INTERVAL '1 day');

-- id: time-119
SELECT count(*) OVER (PARTITION BY x) AS n FROM (VALUES (INTERVAL '1 day'), (INTERVAL '24 hours'), (INTERVAL '2 days')) AS v(x) ORDER BY n;

-- id: time-120
SELECT max(end_time - start_time) AS longest, min(end_time - start_time) AS shortest, count(DISTINCT end_time - start_time) AS n FROM spans;

-- id: time-121
SELECT end_time - start_time AS d, count(*) AS n FROM spans GROUP BY d ORDER BY n DESC, d LIMIT 5;

-- id: time-122
SELECT kind, max(end_time - start_time) AS longest FROM spans GROUP BY kind ORDER BY kind;

-- Fractions of a microsecond in an interval's input, as PostgreSQL's DecodeInterval rounds them: a field's fraction
-- with a half towards zero, a clock's fraction of a second rint'ed (outside tester s19g).
-- id: time-123
SELECT interval '1.5 microseconds' AS a, interval '2.7 microseconds' AS b, interval '-2.6 microseconds' AS c,
       interval '0.5000016 seconds' AS d, interval '1.0000005 seconds' AS e, '00:00:00.0000015'::interval AS f,
       interval '0.0000005 min' AS g, interval '1.5 us' AS h;

-- age(t) is age(CURRENT_DATE, t), from today's midnight (refused on SQLite before, its FIX age(now(), t) changed the
-- answer; outside tester s20a).
-- id: time-124
SELECT id, age(start_time) AS a, age(start_time::date) AS b FROM traces ORDER BY id LIMIT 3;
