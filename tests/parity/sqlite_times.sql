-- SQLite's time spellings compared with stored ISO-8601 timestamps (issue #12, red team s3:
-- tests/redteam/s3/sqlite_spellings.out): datetime() and strftime() print 'YYYY-MM-DD HH:MM:SS', the
-- demo stores '2026-10-05T09:00:00.000+00:00'; compared as texts, the same day's rows fall on the wrong
-- side. Each must compare times, as PostgreSQL's truth does, or be refused. Format: as
-- tests/parity/sqlite_spellings.sql.
-- database: demo

-- id: sqlite-times-001
-- truth: SELECT count(*) FROM traces WHERE start_time > timestamptz '2026-10-05 10:00:00+00'
SELECT count(*) FROM traces WHERE start_time > datetime('2026-10-05 10:00:00');

-- id: sqlite-times-002
-- truth: SELECT count(*) FROM traces WHERE start_time > timestamptz '2026-10-05 10:00:00+00'
SELECT count(*) FROM traces WHERE start_time > strftime('%Y-%m-%d %H:%M:%S', '2026-10-05 10:00:00');

-- id: sqlite-times-003
-- truth: SELECT count(*) FROM traces WHERE start_time >= timestamptz '2026-10-06 10:00:00+00'
SELECT count(*) FROM traces WHERE start_time >= datetime('2026-10-05 10:00:00', '+1 day');

-- id: sqlite-times-004
-- truth: SELECT count(*) FROM traces WHERE start_time < timestamptz '2026-10-05 10:00:00+00'
SELECT count(*) FROM traces WHERE datetime('2026-10-05 10:00:00') > start_time;

-- id: sqlite-times-005
-- truth: SELECT count(*) FROM traces WHERE start_time BETWEEN timestamptz '2026-10-05 10:00:00+00' AND timestamptz '2026-10-05 18:00:00+00'
SELECT count(*) FROM traces WHERE start_time BETWEEN datetime('2026-10-05 10:00:00') AND datetime('2026-10-05 18:00:00');

-- id: sqlite-times-006
-- truth: SELECT count(*) FROM traces WHERE end_time > timestamptz '2026-10-05 10:00:00+00'
SELECT count(*) FROM traces WHERE end_time > strftime('%Y-%m-%dT%H:%M:%S', '2026-10-05 10:00:00');

-- id: sqlite-times-007
-- truth: SELECT count(*) FROM traces WHERE start_time >= timestamptz '2026-10-05 00:00:00+00'
SELECT count(*) FROM traces WHERE start_time >= strftime('%Y-%m-%d', '2026-10-05 10:00:00');

-- id: sqlite-times-008
-- truth: SELECT count(*) FROM spans WHERE start_time > timestamptz '2026-10-05 10:00:00+00'
SELECT count(*) FROM spans WHERE start_time > datetime('2026-10-05T10:00:00Z');

-- datetime() compared with a text literal is text on both backends (to_char on PostgreSQL), not a time: the SQLite
-- gateway typed it as a time (6 388 rows for SQLite's and the PostgreSQL gateway's 6 258; outside tester s19a).
-- id: sqlite-times-009
-- truth: SELECT count(*) FROM traces WHERE to_char(start_time, 'YYYY-MM-DD HH24:MI:SS') >= '2026-10-01T00:00:00Z'
SELECT count(*) FROM traces WHERE datetime(start_time) >= '2026-10-01T00:00:00Z';

-- strftime() is text: a UNION with a quoted literal keeps text (it was a 500: the literal read as a date).
-- id: sqlite-times-010
-- truth: SELECT count(*) FROM (SELECT to_char(start_time, 'YYYY-MM-DD') AS d FROM traces UNION SELECT '2026-09-16' UNION SELECT 'total') AS u
SELECT count(*) FROM (SELECT strftime('%Y-%m-%d', start_time) AS d FROM traces UNION SELECT '2026-09-16' UNION SELECT 'total') AS u;

-- datetime() passed on by a subquery or CTE is a time, as compared directly (text there compared 303 rows for
-- PostgreSQL's 124; outside tester s19f); strftime() passed on is refused (text against a time).
-- id: sqlite-times-011
-- truth: SELECT count(*) FROM traces t WHERE t.start_time > (SELECT date_trunc('second', max(start_time)) - interval '1 day' FROM traces)
SELECT count(*) FROM traces t WHERE t.start_time > (SELECT datetime(max(start_time), '-1 day') FROM traces);

-- id: sqlite-times-012
-- truth: WITH c AS (SELECT date_trunc('second', max(start_time)) - interval '1 day' AS cut FROM traces) SELECT count(*) FROM traces, c WHERE start_time > c.cut
WITH c AS (SELECT datetime(max(start_time), '-1 day') AS cut FROM traces) SELECT count(*) FROM traces, c WHERE start_time > c.cut;

-- SQLite computes in whole milliseconds, rounded half up, after a modifier and for %s, julianday and unixepoch;
-- without a modifier it prints the fields it read (outside tester s19g).
-- id: sqlite-times-013
-- truth: SELECT '1767225601' AS a, '2026-01-01 23:59:59' AS b, '2026-01-02 00:00:00' AS c, '-1' AS f, '2026-01-01 08:00:01' AS g
SELECT strftime('%s', '2026-01-01 00:00:00.9996') AS a, datetime('2026-01-01 23:59:59.9996') AS b,
       datetime('2026-01-01 23:59:59.9996', '+0 days') AS c, strftime('%s', '1969-12-31 23:59:59.5') AS f,
       datetime('2026-01-01T10:00:00.9996+02:00') AS g;
