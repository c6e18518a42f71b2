-- tester8: text functions, LIKE, regex edge cases
-- database: demo

-- id: t8txt-001
SELECT left('abcdef', -10), right('abcdef', -10), left('abc', -3), right('abc', -2);

-- id: t8txt-002
SELECT substr('héllo', 2, 3), substr('abc', 0, 2), substr('abc', -1, 3), substr('abc', 2), substring('héllo' from 2 for 2);

-- id: t8txt-003
SELECT substring('abc' from 0), substring('abcdef' from -2 for 4), substr('abc', 5);

-- id: t8txt-004
SELECT substring('foo123bar' from '[0-9]+'), substring('abc' from 'x'), substring('abc' from 'a(b)c');

-- id: t8txt-005
SELECT lower('ÉCOLE ŞİMDİ'), upper('straße éa'), lower('ΑΣ'), upper('ǆ');

-- id: t8txt-006
SELECT length('héllo'), octet_length('héllo'), bit_length('é');

-- id: t8txt-007
SELECT 'abc' LIKE 'A%', 'Abc' LIKE 'a%', 'abc' ILIKE 'A%', 'a_c' LIKE 'a\_c', 'abc' LIKE 'a\_c';

-- id: t8txt-008
SELECT 'ÉCOLE' ILIKE 'école', 'é' LIKE '_', '😀x' LIKE '_x';

-- id: t8txt-009
SELECT count(*) FROM spans WHERE name LIKE 'Tool%';

-- id: t8txt-010
SELECT count(*) FROM spans WHERE name NOT LIKE 'tool%';

-- id: t8txt-011
SELECT 'a%b' LIKE 'a\%b', 'axb' LIKE 'a\%b', 'ab' LIKE 'a%b%';

-- id: t8txt-012
SELECT concat_ws(',', 'a', NULL, 'b', NULL), concat_ws(',', NULL), concat_ws('', NULL, NULL);

-- id: t8txt-013
SELECT strpos('', 'a'), strpos('aaa', 'aa'), position('b' in 'ébc'), strpos('ß', 'ss');

-- id: t8txt-014
SELECT repeat('ab', 3), repeat('x', 0), repeat('x', -1), lpad('abc', 5, 'xy'), rpad('abc', 2), lpad('é', 3, '😀');

-- id: t8txt-015
SELECT lpad('abc', 6), rpad('abc', 6, ''), lpad('', 2, 'a');

-- id: t8txt-016
SELECT translate('hello', 'el', 'ip'), translate('abc', 'abc', 'x'), replace('aaa', 'a', ''), replace('abc', '', 'x');

-- id: t8txt-017
SELECT ascii('é'), chr(233), ascii(''), md5('abc');

-- id: t8txt-018
SELECT trim(both 'x' from 'xxaxx'), trim(leading 'ab' from 'abbac'), trim(trailing from '  a  '), ltrim('xxy', 'x');

-- id: t8txt-019
SELECT 'abc' || NULL, NULL || 'x', 'a' || 1 || 2.50;

-- id: t8txt-020
SELECT 'abc' < 'abd', 'B' < 'a', 'é' > 'z', 'a' < 'B';

-- id: t8txt-021
SELECT name FROM projects ORDER BY upper(name) DESC, id;

-- id: t8txt-022
SELECT max(name), min(name) FROM spans;

-- id: t8txt-023
SELECT 'abc' ~ 'B', 'abc' ~* 'B', 'a.c' ~ '^a.c$', 'a\c' ~ 'a\\c';

-- id: t8txt-024
SELECT 'foo bar' ~ '\bbar', 'foo bar' ~ '\ybar\y', 'x' ~ '\Ax\Z';

-- id: t8txt-025
SELECT 'ABC' ~ '[[:lower:]]', 'abc' ~ '[A-Z]', 'abc' ~* '[A-Z]', 'a b' ~ '\S\s\S';

-- id: t8txt-026
SELECT 'abc' SIMILAR TO 'a%', 'abc' SIMILAR TO '(a|b)c';

-- id: t8txt-027
SELECT regexp_replace('aaa', 'a', 'b', 2), regexp_replace('Abc', 'a', 'x', 'ig');

-- id: t8txt-028
SELECT regexp_replace('abc', '(a)(b)', '\2\1\\'), regexp_replace('a.b', '.', 'x', 'g');

-- id: t8txt-029
SELECT regexp_count('aaaa', 'aa'), regexp_count('AbA', 'a', 1, 'i'), regexp_count('abcabc', 'c', 4);

-- id: t8txt-030
SELECT regexp_substr('a1b22c333', '[0-9]+', 1, 2), regexp_substr('abc', 'B', 1, 1, 'i');

-- id: t8txt-031
SELECT regexp_instr('abcabc', 'c'), regexp_instr('abc', 'x');

-- id: t8txt-032
SELECT split_part('a,,b', ',', 2), split_part(',a', ',', 1), split_part('a,b,', ',', -1), split_part('aXbxc', 'x', 2);

-- id: t8txt-033
SELECT initcap('hello-world foo_bar'), initcap('a.b,c;d'), initcap('ÄBC déf'), initcap('1st 2ND');

-- id: t8txt-034
SELECT initcap('İstanbul ıi'), initcap('o''brien'), initcap('x123y z');

-- id: t8txt-035
SELECT format('%s-%s', 'a', NULL), format('%L', 'x'), format('%I', 'A b');

-- id: t8txt-036
SELECT quote_literal('it''s'), quote_ident('a b'), to_hex(255), to_hex(-1);

-- id: t8txt-037
SELECT string_to_array('a,b,c', ',');

-- id: t8txt-038
SELECT starts_with('', ''), 'abc' ^@ 'ab';

-- id: t8txt-039
SELECT lower(name), upper(kind) FROM spans GROUP BY 1, 2 ORDER BY 1, 2;

-- id: t8txt-040
SELECT count(*) FROM span_annotations WHERE explanation ILIKE '%HELP%';

-- id: t8txt-041
SELECT count(*) FROM span_annotations WHERE explanation ~ 'helpful';

-- id: t8txt-042
SELECT count(*) FROM span_annotations WHERE explanation ~* 'HELPFUL';

-- id: t8txt-043
SELECT count(*) FROM span_annotations WHERE label ~ '^[a-z]+$';

-- id: t8txt-044
SELECT label, count(*) FROM span_annotations WHERE label IS NOT NULL GROUP BY label ORDER BY label;

-- id: t8txt-045
SELECT count(*) FROM spans WHERE attributes->>'input.value' ~* 'webhook';

-- id: t8txt-046
SELECT count(*) FROM spans WHERE attributes->>'input.value' ILIKE '%WEBHOOK%';

-- id: t8txt-047
SELECT count(*) FROM spans WHERE attributes->>'input.value' LIKE '%Webhook%';

-- id: t8txt-048
SELECT count(*) FROM spans WHERE lower(attributes->>'input.value') LIKE '%é%';

-- id: t8txt-049
SELECT count(*) FROM spans WHERE attributes->>'input.value' ~ '[^\x01-\x7f]';

-- id: t8txt-050
SELECT char_length(attributes->>'input.value') AS n, count(*) FROM spans WHERE id <= 50 GROUP BY 1 ORDER BY 1;

-- id: t8txt-051
SELECT md5(name) FROM projects ORDER BY id;

-- id: t8txt-052
SELECT 'x' || 1.0, 'x' || 1.50::numeric, 'x' || (1.5::float8), 'x' || 100000000000000000000.0;

-- id: t8txt-053
SELECT 'x' || 1e3, 1e3 || '', 0.1 + 0.2 || '';

-- id: t8txt-054
SELECT 'abc' = 'abc ', 'abc'::char(5) = 'abc', length('abc '::char(5));

-- id: t8txt-055
SELECT upper(NULL), lower(''), length(NULL), reverse('ab');

-- id: t8txt-056
SELECT overlay('abcdef' placing 'XY' from 2 for 3), overlay('abc' placing 'Z' from 2);

-- id: t8txt-057
SELECT regexp_split_to_array('a1b2c', '[0-9]');

-- id: t8txt-058
SELECT split_part(name, ':', 1) AS k, count(*) FROM spans GROUP BY 1 ORDER BY 2 DESC, 1;

-- id: t8txt-059
SELECT left(name, strpos(name, ':') - 1) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: t8txt-060
SELECT right(name, -strpos(name, ':')) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: t8txt-061
SELECT 'Hello' ~ '^h' OR 'x' ~ 'x', NOT ('a' ~ 'b');

-- id: t8txt-062
SELECT 'aB' ~ '(?i)ab', 'ab' ~ '(?x) a b';

-- id: t8txt-063
SELECT 'abc' ~ '^.{3}$', '😀😀😀' ~ '^.{3}$', 'ééé' ~ '^.{3}$';

-- id: t8txt-064
SELECT regexp_replace('😀a😀', '.', 'x', 'g'), regexp_replace('ééé', 'é{2}', 'E');

-- id: t8txt-065
SELECT regexp_replace('abc', 'B', 'x', 'i'), regexp_replace('a b c', ' ', '', 'g'), regexp_replace('abc', '[a-', 'x');

-- id: t8txt-066
SELECT regexp_replace('aaa', '^a', 'b', 'g'), regexp_replace('a
a', '^a', 'b', 'g'), regexp_replace('a
a', '^a', 'b', 'gn');

-- id: t8txt-067
SELECT regexp_count('a
a', '^a'), regexp_count('a
a', '^a', 1, 'n'), 'a
b' ~ '^b';

-- id: t8txt-068
SELECT 'line1
line2' ~ 'line1$', 'x
' ~ 'x$';

-- id: t8txt-069
SELECT regexp_replace('Foo', '[[:upper:]]', '_\&', 'g'), regexp_replace('x', 'x', '$1');

-- id: t8txt-070
SELECT regexp_replace('aXbX', 'x', '-', 'gi'), regexp_replace('abc', '', '-', 'g');

-- id: t8txt-071
SELECT NULLIF('', ''), NULLIF('a', NULL), COALESCE(NULL, '', 'x'), COALESCE(NULLIF(name, ''), 'none') FROM projects ORDER BY 4;

-- id: t8txt-072
SELECT 'abc' IS DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL, 'a' IS DISTINCT FROM 'A';

