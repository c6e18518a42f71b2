-- tester8 (session 8): t8_numbers
-- database: demo

-- id: t8num-001
SELECT 'x' || 1.50::numeric, 'x' || 1.50, 'x' || 2.0::numeric;

-- id: t8num-002
SELECT 2.50::numeric AS a, 10.0::numeric AS b, 1.10 + 1.20 AS c;

-- id: t8num-003
SELECT CAST(2.50 AS numeric) * 2 AS a, 1.5 * 1.5 AS b, 0.1 + 0.2 AS c;

-- id: t8num-004
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7 % -3, mod(-7, 3), mod(7.5, 2);

-- id: t8num-005
SELECT 7.0 / 2, 1 / 3.0, 2 / 3::float8, 10 / 4.0;

-- id: t8num-006
SELECT 1.0 / 3, round(1.0 / 3, 5), 100.0 / 7;

-- id: t8num-007
SELECT -7 / 2.0, (-7)::float8 / 2, div(-7, 2), div(7.5, 2);

-- id: t8num-008
SELECT 5 / 0;

-- id: t8num-009
SELECT 5.0 / 0;

-- id: t8num-010
SELECT 5 % 0;

-- id: t8num-011
SELECT 2 ^ 10, 2 ^ 0.5, (-8) ^ (1.0/3), power(2, 10), power(2.0, -1), 2 ^ -1;

-- id: t8num-012
SELECT sqrt(2), sqrt(16), cbrt(27), exp(1), ln(10), log(100), log(2, 8), log10(1000);

-- id: t8num-013
SELECT sqrt(-1);

-- id: t8num-014
SELECT ln(0);

-- id: t8num-015
SELECT abs(-5), abs(-5.5), abs(-2147483648::bigint), sign(-3), sign(0.0), sign(2.5::float8);

-- id: t8num-016
SELECT ceil(2.1), ceil(-2.1), floor(-2.1), ceiling(2.0), ceil(2.5::float8), floor(-0.5::float8);

-- id: t8num-017
SELECT round(2.5), round(3.5), round(-0.5), round(0.5::float8), round(1.5::float8), round(2.5::float8), round(-2.5::float8);

-- id: t8num-018
SELECT round(1234.5678, -2), round(1250, -2), round(1350.0, -2), round(-1250, -2);

-- id: t8num-019
SELECT round(2.345, 2), round(2.355, 2), round(-2.345, 2), round(0.0049, 2), round(1.0, 3);

-- id: t8num-020
SELECT round(cost_usd::numeric, 3) AS r, count(*) FROM spans WHERE cost_usd IS NOT NULL GROUP BY 1 ORDER BY 1 LIMIT 10;

-- id: t8num-021
SELECT trunc(2.5), trunc(-2.5), trunc(2.5::float8), trunc(1234.567, -2), trunc(-0.5);

-- id: t8num-022
SELECT (2.5)::smallint, (-2.5)::bigint, '3.5'::numeric::int, ('2.5')::float8::int;

-- id: t8num-023
SELECT '7'::int + 1, ' 42 '::int, '-0'::int;

-- id: t8num-024
SELECT '3.7'::int;

-- id: t8num-025
SELECT 'abc'::int;

-- id: t8num-026
SELECT 1e2::int, 1.5e0::int, 2.5e0::numeric::int;

-- id: t8num-027
SELECT CAST(-0.5 AS integer), CAST(0.49999999999 AS integer), CAST(-1.5 AS bigint);

-- id: t8num-028
SELECT 2147483647 + 1;

-- id: t8num-029
SELECT 2147483647::int + 1;

-- id: t8num-030
SELECT 32767::smallint + 1::smallint;

-- id: t8num-031
SELECT 9223372036854775807 * 2;

-- id: t8num-032
SELECT -9223372036854775808;

-- id: t8num-033
SELECT (-9223372036854775807 - 1) / -1;

-- id: t8num-034
SELECT abs(-9223372036854775807 - 1);

-- id: t8num-035
SELECT 3000000000 * 3, 123456789 * 1000;

-- id: t8num-036
SELECT greatest(1, NULL, 3), least(NULL, NULL), greatest(2, 2.5, 1::bigint), least(1.5::float8, 2);

-- id: t8num-037
SELECT greatest('10', '9'), least('abc', 'ABC'), greatest(1, '2');

-- id: t8num-038
SELECT greatest(cost_usd, 0) FROM spans ORDER BY id LIMIT 3;

-- id: t8num-039
SELECT greatest(id, 2.5) FROM projects ORDER BY id;

-- id: t8num-040
SELECT least(start_time, end_time) = start_time FROM spans ORDER BY id LIMIT 2;

-- id: t8num-041
SELECT greatest(start_time, TIMESTAMPTZ '2026-10-01T00:00:00Z') FROM traces ORDER BY id LIMIT 2;

-- id: t8num-042
SELECT 1.0::float8, 100.0::float8, 1e-7::float8, 123456789012345678::float8, 0.1::float8 * 3;

-- id: t8num-043
SELECT 1.0::real, 0.1::real, 1.0::float4 + 0.2::float4;

-- id: t8num-044
SELECT 'Infinity'::float8, '-inf'::float8, 'NaN'::float8;

-- id: t8num-045
SELECT 1::float8 / 3, 2::float8 / 3, 10::float8 / 3 * 3;

-- id: t8num-046
SELECT avg(x), sum(x) FROM (VALUES (1), (2), (2)) t(x);

-- id: t8num-047
SELECT avg(x) FROM (VALUES (1.0), (2.0), (2.0)) t(x);

-- id: t8num-048
SELECT avg(x), sum(x) FROM (VALUES (1::float8), (2), (2)) t(x);

-- id: t8num-049
SELECT sum(x), avg(x), min(x), max(x), count(x) FROM (VALUES (NULL::int)) t(x);

-- id: t8num-050
SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) t(x);

-- id: t8num-051
SELECT avg(x) FROM (VALUES (9223372036854775807), (9223372036854775807)) t(x);

-- id: t8num-052
SELECT sum(id)::float8 / count(*), sum(id) / count(*) FROM spans;

-- id: t8num-053
SELECT 10::numeric(5,2), 1.005::numeric(4,2), -1.005::numeric(4,2), 0.125::numeric(3,2);

-- id: t8num-054
SELECT 1.005::numeric(4,2) * 2, (1.25::numeric(3,1))::text;

-- id: t8num-055
SELECT 123.456::numeric(5,1), 99.95::numeric(3,1);

-- id: t8num-056
SELECT cost_usd::numeric(10,6) * 1000 FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 3;

-- id: t8num-057
SELECT round(cost_usd::numeric, 6) FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 3;

-- id: t8num-058
SELECT round(avg(cost_usd)::numeric, 10), sum(cost_usd) FROM spans;

-- id: t8num-059
SELECT 1 = 1.0, 1 = 1.0::float8, 0.1 + 0.2 = 0.3, 0.1::float8 + 0.2::float8 = 0.3::float8;

-- id: t8num-060
SELECT 0.3 = 0.1::float8 + 0.2::float8;

-- id: t8num-061
SELECT id FROM projects WHERE id = 1.0 ORDER BY id;

-- id: t8num-062
SELECT id FROM projects WHERE id IN (1.5, 2) ORDER BY id;

-- id: t8num-063
SELECT id / 2 AS h, count(*) FROM spans GROUP BY 1 ORDER BY 1 LIMIT 3;

-- id: t8num-064
SELECT id / 2.0 AS h FROM projects ORDER BY id;

-- id: t8num-065
SELECT 10 / 3 * 3, 10 / 3.0 * 3, (10 / 3)::float8;

-- id: t8num-066
SELECT count(*) / 7, count(*) / 7.0, count(*)::float8 / 7 FROM spans;

-- id: t8num-067
SELECT count(*) * 1.0 / (SELECT count(*) FROM traces) FROM spans;

-- id: t8num-068
SELECT 100 * count(*) FILTER (WHERE status = 'ERROR') / count(*) FROM spans;

-- id: t8num-069
SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(cost_usd, 0, 0.01, 4) FROM spans ORDER BY id LIMIT 3;

-- id: t8num-070
SELECT gcd(12, 18), lcm(4, 6), factorial(5);

-- id: t8num-071
SELECT pi(), degrees(pi()), radians(180), sin(0), cos(0), atan2(1, 1);

-- id: t8num-072
SELECT random() < 2;

-- id: t8num-073
SELECT scale(1.50), trim_scale(1.500), min_scale(1.50);

-- id: t8num-074
SELECT 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, 16 >> 2;

-- id: t8num-075
SELECT x::int FROM (VALUES ('12'), (' 7')) t(x) ORDER BY 1;

-- id: t8num-076
SELECT 1::boolean, 0::boolean, 'yes'::boolean, 'f'::boolean, true::int;

-- id: t8num-077
SELECT id::text || '', 1.50::text, 2.0::float8::text, (1/3::float8)::text, true::text;

-- id: t8num-078
SELECT cost_usd::text FROM spans WHERE cost_usd IS NOT NULL ORDER BY id LIMIT 3;

-- id: t8num-079
SELECT 12345678901234567890;

-- id: t8num-080
SELECT 0.1 * 3, 1.10 * 2, 3.000 - 1;

-- id: t8num-081
SELECT -0.0, 0.0::float8 * -1, -0::float8;

