-- tester8 (session 8): t8_time
-- database: demo

-- id: t8tm-001
SELECT date_trunc('week', TIMESTAMPTZ '2026-01-01T12:00:00Z'), date_trunc('quarter', TIMESTAMPTZ '2026-11-15T12:00:00Z'), date_trunc('year', TIMESTAMPTZ '2026-11-15T12:00:00Z');

-- id: t8tm-002
SELECT date_trunc('hour', start_time), date_trunc('minute', start_time), date_trunc('second', start_time), date_trunc('millisecond', start_time) FROM spans ORDER BY id LIMIT 2;

-- id: t8tm-003
SELECT date_trunc('decade', TIMESTAMPTZ '2026-11-15T12:00:00Z'), date_trunc('century', TIMESTAMPTZ '2026-11-15T12:00:00Z');

-- id: t8tm-004
SELECT date_trunc('week', start_time) AS w, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: t8tm-005
SELECT date_trunc('day', start_time, 'America/New_York') AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 5;

-- id: t8tm-006
SELECT extract(dow FROM TIMESTAMPTZ '2026-11-15T12:00:00Z'), extract(isodow FROM TIMESTAMPTZ '2026-11-15T12:00:00Z'), extract(doy FROM TIMESTAMPTZ '2026-12-31T12:00:00Z'), extract(week FROM TIMESTAMPTZ '2026-01-01T00:00:00Z'), extract(isoyear FROM TIMESTAMPTZ '2027-01-01T00:00:00Z');

-- id: t8tm-007
SELECT extract(quarter FROM start_time), extract(day FROM start_time), extract(hour FROM start_time), extract(minute FROM start_time) FROM traces ORDER BY id LIMIT 3;

-- id: t8tm-008
SELECT extract(microseconds FROM start_time), extract(julian FROM DATE '2026-01-01'), extract(century FROM DATE '2026-01-01'), extract(millennium FROM DATE '2026-01-01') FROM traces ORDER BY id LIMIT 1;

-- id: t8tm-009
SELECT extract(epoch FROM DATE '2026-01-01'), extract(epoch FROM INTERVAL '1 day 2 hours'), extract(epoch FROM INTERVAL '1 month');

-- id: t8tm-010
SELECT extract(day FROM INTERVAL '36 hours'), extract(hour FROM INTERVAL '36 hours'), extract(month FROM INTERVAL '14 months'), extract(year FROM INTERVAL '14 months');

-- id: t8tm-011
SELECT extract(day FROM end_time - start_time), extract(second FROM end_time - start_time) FROM traces ORDER BY id LIMIT 3;

-- id: t8tm-012
SELECT date_part('dow', start_time) AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: t8tm-013
SELECT date_part('week', start_time) AS w, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: t8tm-014
SELECT date_part('year', DATE '2026-03-01'), date_part('month', DATE '2026-03-01' - 1);

-- id: t8tm-015
SELECT to_char(start_time, 'YYYY-MM-DD HH24:MI:SS.MS') FROM traces ORDER BY id LIMIT 2;

-- id: t8tm-016
SELECT to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'Day DD Month YYYY'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'FMDay FMDD FMMonth');

-- id: t8tm-017
SELECT to_char(TIMESTAMPTZ '2026-03-05T17:08:09Z', 'HH12:MI AM'), to_char(TIMESTAMPTZ '2026-03-05T00:08:09Z', 'HH12 PM'), to_char(TIMESTAMPTZ '2026-03-05T12:08:09Z', 'HH:MI a.m.');

-- id: t8tm-018
SELECT to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'Dy Mon DD'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'DY MON'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'dy mon');

-- id: t8tm-019
SELECT to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'IYYY-IW'), to_char(TIMESTAMPTZ '2026-01-01T07:08:09Z', 'WW W Q'), to_char(TIMESTAMPTZ '2026-01-01T07:08:09Z', 'D ID DDD');

-- id: t8tm-020
SELECT to_char(TIMESTAMPTZ '2026-03-05T07:08:09.123456Z', 'SS.US'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'SSSS'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'YY Y');

-- id: t8tm-021
SELECT to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', 'TZ OF'), to_char(TIMESTAMPTZ '2026-03-05T07:08:09Z', '"Q"Q');

-- id: t8tm-022
SELECT to_char(start_time, 'YYYY-"W"IW') AS w, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: t8tm-023
SELECT to_char(DATE '2026-03-05', 'DD/MM/YYYY'), to_char(DATE '2026-12-31', 'Month');

-- id: t8tm-024
SELECT to_char(1234.5, '9999.99'), to_char(0.5, 'FM990.00'), to_char(1234567, '9,999,999');

-- id: t8tm-025
SELECT to_char(INTERVAL '1 day 02:03:04', 'HH24:MI:SS');

-- id: t8tm-026
SELECT DATE '2026-01-31' + INTERVAL '1 month', DATE '2026-03-31' - INTERVAL '1 month', TIMESTAMPTZ '2024-02-29T00:00:00Z' + INTERVAL '1 year';

-- id: t8tm-027
SELECT DATE '2026-03-01' - DATE '2026-02-01', DATE '2026-03-01' - 1, DATE '2026-03-01' + 7;

-- id: t8tm-028
SELECT TIMESTAMPTZ '2026-03-01T00:00:00Z' - TIMESTAMPTZ '2026-02-01T12:00:00Z', TIMESTAMPTZ '2026-01-01T00:00:00Z' - TIMESTAMPTZ '2026-01-03T01:00:00Z';

-- id: t8tm-029
SELECT INTERVAL '1 month' = INTERVAL '30 days', INTERVAL '1 day' = INTERVAL '24 hours', INTERVAL '90 minutes' > INTERVAL '1 hour';

-- id: t8tm-030
SELECT INTERVAL '1 day' * 2.5, INTERVAL '1 hour' / 3, INTERVAL '1 month' * 1.5, -INTERVAL '2 days';

-- id: t8tm-031
SELECT INTERVAL '1 year 2 months 3 days 04:05:06.5', INTERVAL '-1 day +2 hours', INTERVAL 'P1DT2H';

-- id: t8tm-032
SELECT INTERVAL '2 weeks', INTERVAL '1.5 days', INTERVAL '1.5 months', INTERVAL '100 hours';

-- id: t8tm-033
SELECT justify_hours(INTERVAL '100 hours'), justify_days(INTERVAL '45 days'), justify_interval(INTERVAL '1 month -1 hour');

-- id: t8tm-034
SELECT age(TIMESTAMPTZ '2026-03-01T00:00:00Z', TIMESTAMPTZ '2025-01-15T00:00:00Z'), age(DATE '2026-03-01', DATE '2026-01-31');

-- id: t8tm-035
SELECT max(end_time - start_time), min(end_time - start_time) FROM spans;

-- id: t8tm-036
SELECT id, end_time - start_time FROM traces ORDER BY end_time - start_time DESC, id LIMIT 3;

-- id: t8tm-037
SELECT count(*) FROM spans WHERE end_time - start_time > INTERVAL '1 second';

-- id: t8tm-038
SELECT count(*) FROM spans WHERE end_time - start_time > '1 second';

-- id: t8tm-039
SELECT count(*) FROM spans WHERE end_time > start_time + INTERVAL '500 milliseconds';

-- id: t8tm-040
SELECT count(*) FROM traces WHERE start_time::date = DATE '2026-10-05';

-- id: t8tm-041
SELECT start_time::date AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 3;

-- id: t8tm-042
SELECT start_time::time FROM traces ORDER BY id LIMIT 2;

-- id: t8tm-043
SELECT count(*) FROM traces WHERE start_time::time > TIME '12:00';

-- id: t8tm-044
SELECT start_time::text FROM traces ORDER BY id LIMIT 2;

-- id: t8tm-045
SELECT CAST(start_time AS varchar) FROM traces ORDER BY id LIMIT 2;

-- id: t8tm-046
SELECT count(*) FROM traces WHERE start_time::text LIKE '2026-10-05%';

-- id: t8tm-047
SELECT count(*) FROM traces WHERE start_time BETWEEN '2026-10-05' AND '2026-10-06';

-- id: t8tm-048
SELECT count(*) FROM traces WHERE start_time >= '2026-10-05 10:00:00+02';

-- id: t8tm-049
SELECT count(*) FROM traces WHERE start_time >= '2026-10-05T10:00:00-05:00';

-- id: t8tm-050
SELECT count(*) FROM traces WHERE start_time >= '2026-10-05 10:00';

-- id: t8tm-051
SELECT count(*) FROM traces WHERE start_time = '2026-09-16 00:19:23.561+00';

-- id: t8tm-052
SELECT count(*) FROM traces WHERE start_time IN ('2026-09-16 00:19:23.561+00', '2026-09-16T00:19:23.561Z');

-- id: t8tm-053
SELECT count(*) FROM traces WHERE start_time::date IN ('2026-10-05', '2026-10-06');

-- id: t8tm-054
SELECT count(*) FROM traces WHERE start_time > TIMESTAMP '2026-10-05 10:00:00';

-- id: t8tm-055
SELECT count(*) FROM traces WHERE date(start_time) = '2026-10-05';

-- id: t8tm-056
SELECT count(*) FROM traces WHERE start_time AT TIME ZONE 'America/New_York' < TIMESTAMP '2026-10-05 00:00:00';

-- id: t8tm-057
SELECT (start_time AT TIME ZONE 'Europe/Berlin')::date AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 3;

-- id: t8tm-058
SELECT TIMESTAMPTZ '2026-03-29T00:30:00Z' AT TIME ZONE 'Europe/London', TIMESTAMPTZ '2026-03-29T01:30:00Z' AT TIME ZONE 'Europe/London', TIMESTAMPTZ '2026-10-25T00:30:00Z' AT TIME ZONE 'Europe/London';

-- id: t8tm-059
SELECT TIMESTAMP '2026-03-08 02:30:00' AT TIME ZONE 'America/New_York', TIMESTAMP '2026-11-01 01:30:00' AT TIME ZONE 'America/New_York';

-- id: t8tm-060
SELECT TIMESTAMPTZ '2026-06-01T12:00:00Z' AT TIME ZONE 'Asia/Kolkata', TIMESTAMPTZ '2026-06-01T12:00:00Z' AT TIME ZONE '+05:30', TIMESTAMPTZ '2026-06-01T12:00:00Z' AT TIME ZONE 'UTC+3';

-- id: t8tm-061
SELECT TIMESTAMPTZ '2026-06-01T12:00:00Z' AT TIME ZONE INTERVAL '-03:00', timezone('Australia/Lord_Howe', TIMESTAMPTZ '2026-06-01T12:00:00Z');

-- id: t8tm-062
SELECT extract(hour FROM start_time AT TIME ZONE 'America/Los_Angeles') AS h, count(*) FROM traces GROUP BY 1 ORDER BY 1;

-- id: t8tm-063
SELECT date_trunc('day', start_time AT TIME ZONE 'Asia/Tokyo') AS d, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 4;

-- id: t8tm-064
SELECT make_timestamp(2026, 2, 28, 23, 59, 59.5), make_interval(days => 3), make_time(1, 2, 3.5);

-- id: t8tm-065
SELECT make_date(-1, 1, 1), make_date(2026, 0, 1);

-- id: t8tm-066
SELECT make_date(2026, 13, 1);

-- id: t8tm-067
SELECT to_timestamp(1700000000) - to_timestamp(1600000000);

-- id: t8tm-068
SELECT generate_series(TIMESTAMPTZ '2026-03-28T00:00:00Z', TIMESTAMPTZ '2026-03-30T00:00:00Z', INTERVAL '12 hours');

-- id: t8tm-069
SELECT d::date, count(t.id) FROM generate_series(DATE '2026-10-01', DATE '2026-10-05', INTERVAL '1 day') d LEFT JOIN traces t ON t.start_time::date = d::date GROUP BY 1 ORDER BY 1;

-- id: t8tm-070
SELECT DATE '2026-10-05' + TIME '10:30', DATE '2026-10-05' + INTERVAL '36 hours';

-- id: t8tm-071
SELECT (DATE '2026-10-05')::timestamptz, DATE '2026-10-05' = TIMESTAMPTZ '2026-10-05T00:00:00Z';

-- id: t8tm-072
SELECT DATE '2024-02-29' - INTERVAL '1 year', DATE '2026-05-31' + INTERVAL '1 month 1 day';

-- id: t8tm-073
SELECT TIMESTAMPTZ '2026-01-31T10:00:00Z' + INTERVAL '1 month' - INTERVAL '1 month';

-- id: t8tm-074
SELECT '2026-10-05'::date + 1, '2026-10-05'::timestamptz, '2026-10-05 10:00:00+02'::timestamptz;

-- id: t8tm-075
SELECT 'now'::date > DATE '2000-01-01', 'today'::date = current_date, 'epoch'::timestamptz;

-- id: t8tm-076
SELECT current_date > DATE '2020-01-01', now() > TIMESTAMPTZ '2020-01-01T00:00:00Z', now() = current_timestamp;

-- id: t8tm-077
SELECT count(*) FROM traces WHERE start_time > now() - INTERVAL '3650 days';

-- id: t8tm-078
SELECT date_trunc('month', now()) <= now(), extract(year FROM current_date) >= 2026;

-- id: t8tm-079
SELECT localtimestamp > TIMESTAMP '2020-01-01 00:00:00', current_time IS NOT NULL;

-- id: t8tm-080
SELECT isfinite(DATE '2026-01-01'), 'infinity'::timestamptz > now();

-- id: t8tm-081
SELECT TIMESTAMPTZ '2026-10-05 10:00:00.123456789Z', TIMESTAMPTZ '2026-10-05 10:00:00.5+01', TIME '24:00';

-- id: t8tm-082
SELECT DATE '2026-02-30';

-- id: t8tm-083
SELECT overlaps_ok FROM (SELECT (DATE '2026-01-01', DATE '2026-02-01') OVERLAPS (DATE '2026-01-15', DATE '2026-03-01') AS overlaps_ok) s;

-- id: t8tm-084
SELECT min(start_time)::date, max(end_time)::date, max(end_time) - min(start_time) FROM traces;

-- id: t8tm-085
SELECT avg(end_time - start_time) FROM spans WHERE kind = 'LLM';

-- id: t8tm-086
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY end_time - start_time) FROM spans;

-- id: t8tm-087
SELECT kind, sum(extract(epoch FROM end_time - start_time)) FROM spans GROUP BY kind ORDER BY kind;

-- id: t8tm-088
SELECT start_time - INTERVAL '1 day' FROM traces ORDER BY id LIMIT 1;

-- id: t8tm-089
SELECT date_bin(INTERVAL '15 minutes', start_time, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS b, count(*) FROM traces GROUP BY 1 ORDER BY 1 LIMIT 3;

-- id: t8tm-090
SELECT extract(epoch FROM max(end_time)) - extract(epoch FROM min(start_time)) FROM traces;

-- id: t8tm-091
SELECT to_timestamp(extract(epoch FROM start_time)) = start_time FROM traces ORDER BY id LIMIT 3;

