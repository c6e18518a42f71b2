-- PostgreSQL's text functions and regular expressions (issue #12, session 7 text), for the parity run
-- (tests/fidelity/parity.hpp): each runs on PostgreSQL directly (the truth), through the SQLite demo
-- gateway and through the PostgreSQL demo gateway. On SQLite they are translated into the functions
-- executors/sqlite/sqlite_text.cpp registers (admission/admit/text_on_sqlite.cpp), or refused with a FIX:
-- the last statements are forms that must be refused there (alternation or lazy quantifiers where the
-- matched text is used, back-references, \m, lookbehind, non-literal patterns,
-- unknown flags, floats and booleans in concat). NULLs, empty strings, UTF-8 (é, emoji), negative
-- arguments, patterns that match nothing, anchors and case flags. Format: as tests/parity/demo.sql.
-- database: demo

-- id: text-001
SELECT concat(name, '-', id) FROM projects ORDER BY id;

-- id: text-002
SELECT concat_ws('/', name, id, NULL) FROM projects ORDER BY id;

-- id: text-003
SELECT concat('a', NULL, 'b'), concat(NULL), concat_ws(',', NULL, NULL), concat_ws(NULL, 'a', 'b');

-- id: text-004
SELECT concat('x', 1, -2, 0), concat_ws('', 'a', 'b', 'c');

-- id: text-005
SELECT concat('é', '😀', 'ü'), concat_ws(' · ', 'Nação', 'Straße');

-- id: text-006
SELECT concat(1.50, '|', 2.0e1);

-- id: text-007
SELECT concat(name, ' ', kind) AS k, count(*) FROM spans GROUP BY 1 ORDER BY 1;

-- id: text-008
SELECT id, concat(label, ':', score IS NULL) FROM span_annotations ORDER BY id LIMIT 5;

-- id: text-009
SELECT concat(created_at, '') FROM projects ORDER BY id;

-- id: text-010
SELECT id, concat_ws(' ', label, annotator_kind) FROM span_annotations ORDER BY id LIMIT 20;

-- id: text-011
SELECT left(name, 4), right(name, 4) FROM projects ORDER BY id;

-- id: text-012
SELECT left(name, -3), right(name, -3), left(name, 0), right(name, 0) FROM projects ORDER BY id;

-- id: text-013
SELECT left('héllo', 2), right('héllo', 2), left('😀😀x', 1), right('😀😀x', 2), left('abc', 100), right('abc', -100);

-- id: text-014
SELECT left(NULL, 2), right('abc', NULL), left('', 3);

-- id: text-015
SELECT left(trace_id, 8) AS prefix, count(*) FROM traces GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10;

-- id: text-016
SELECT split_part(name, ':', 2) AS tool, count(*) FROM spans WHERE kind = 'TOOL' GROUP BY 1 ORDER BY 1;

-- id: text-017
SELECT split_part('a,b,c', ',', 1), split_part('a,b,c', ',', 3), split_part('a,b,c', ',', 4), split_part('a,b,c', ',', -1), split_part('a,b,c', ',', -3), split_part('a,b,c', ',', -4);

-- id: text-018
SELECT split_part('', ',', 1), split_part('abc', '', 1), split_part('abc', '', 2), split_part('abc', '', -1), split_part('a::b', '::', 2);

-- id: text-019
SELECT split_part('é,ü,😀', ',', 3), split_part(NULL, ',', 1), split_part('a,b', NULL, 1);

-- id: text-020
SELECT split_part(name, '-', 1) AS head, split_part(name, '-', -1) AS tail FROM projects ORDER BY id;

-- id: text-022
SELECT strpos(name, '-') FROM projects ORDER BY id;

-- id: text-023
SELECT position('-' in name) FROM projects ORDER BY id;

-- id: text-024
SELECT strpos('héllo', 'l'), strpos('😀é😀é', 'é'), strpos('abc', ''), strpos('', ''), strpos('abc', 'x'), strpos(NULL, 'a');

-- id: text-025
SELECT position('lo' in 'héllo'), position('' in 'abc'), position('z' in '');

-- id: text-026
SELECT name FROM spans WHERE strpos(name, ':') > 0 GROUP BY name ORDER BY name;

-- id: text-027
SELECT initcap(replace(name, '-', ' ')) FROM projects ORDER BY id;

-- id: text-028
SELECT initcap('hello wORLD'), initcap('o''neil mc-donald'), initcap('3rd_place x2y'), initcap(''), initcap(NULL);

-- id: text-029
SELECT initcap('élan VITAL école'), initcap('ÀÉÎ ñandú'), initcap('ß straße'), initcap('😀abc DEF');

-- id: text-098
SELECT DISTINCT initcap(kind) FROM spans ORDER BY 1;

-- id: text-031
SELECT char_length(name), character_length(name), name FROM projects ORDER BY id;

-- id: text-032
SELECT char_length('héllo'), char_length('😀'), char_length(''), char_length(NULL), character_length('ü');

-- id: text-033
SELECT btrim('  x  '), ltrim('  x'), rtrim('x  ');

-- id: text-034
SELECT btrim('xxhixx', 'x'), btrim('éaé', 'é'), btrim('abc', ''), btrim('', 'a'), btrim(NULL), btrim('aba', 'ab');

-- id: text-035
SELECT btrim(name, 'a') FROM projects ORDER BY id;

-- id: text-036
SELECT reverse(name) FROM projects ORDER BY id;

-- id: text-037
SELECT reverse('héllo😀'), reverse(''), reverse(NULL);

-- id: text-038
SELECT starts_with(name, 'S'), name FROM projects ORDER BY id;

-- id: text-039
SELECT starts_with('abc', ''), starts_with('abc', 'abcd'), starts_with('Ébc', 'É'), starts_with(NULL, 'a');

-- id: text-040
SELECT count(*) FROM spans WHERE starts_with(name, 'tool:');

-- id: text-041
SELECT count(*) FROM spans WHERE name ~ '^tool:search_';

-- id: text-042
SELECT count(*) FROM spans WHERE name ~* '^TOOL:SEARCH';

-- id: text-043
SELECT count(*) FROM spans WHERE name !~ '^tool:';

-- id: text-044
SELECT count(*) FROM spans WHERE name !~* 'CHAT';

-- id: text-045
SELECT name, name ~ '^[a-z_]+$' FROM spans GROUP BY name ORDER BY name;

-- id: text-046
SELECT name, name ~ '\d' FROM projects ORDER BY id;

-- id: text-047
SELECT name FROM projects WHERE name ~ '(bot|assistant)$' ORDER BY name;

-- id: text-048
SELECT 'abc' ~ 'b', 'abc' ~ '^b', 'abc' ~ 'c$', 'ABC' ~* 'abc', 'ABC' !~ 'abc', 'ABC' !~* 'abc';

-- id: text-049
SELECT 'a
b' ~ 'a.b', 'ab
' ~ 'b$', '' ~ '', 'x' ~ 'x*';

-- id: text-050
SELECT 'ÉCOLE' ~* 'école', 'école' ~ '^[[:alpha:]]+$', 'École' ~ '^[[:upper:]]', 'é' ~ '\w', '中文' ~ '^\w+$', '٣' ~ '\d';

-- id: text-051
SELECT 'Straße' ~* 'STRASSE', 'ǅ' ~* 'ǅ', 'k' ~* 'K';

-- id: text-052
SELECT 'a1 b2' ~ '[[:digit:]] [[:alpha:]]', 'tab	x' ~ '\t', 'a.b' ~ 'a\.b', 'axb' ~ 'a\.b', '[x]' ~ '\[x\]';

-- id: text-053
SELECT 'aaa' ~ '^a{2,3}$', 'aaaa' ~ '^a{2,3}$', 'ab' ~ '^(a|b)+$', 'abc' ~ '^(?:ab)+c$', 'x' ~ '[^a-z]';

-- id: text-054
SELECT NULL ~ 'a', 'a' ~ NULL;

-- id: text-055
SELECT count(*) FROM span_annotations WHERE explanation ~* 'helpful|useful';

-- id: text-056
SELECT regexp_replace(name, '-', ' ') FROM projects ORDER BY id;

-- id: text-057
SELECT regexp_replace(name, '[aeiou]', '*', 'g') FROM projects ORDER BY id;

-- id: text-058
SELECT regexp_replace(name, '^([a-z]+)-(.*)$', '\2/\1') FROM projects ORDER BY id;

-- id: text-059
SELECT regexp_replace('Hello World', 'o', '0'), regexp_replace('Hello World', 'o', '0', 'g'), regexp_replace('Hello', 'h', 'J', 'i'), regexp_replace('Hello', 'h', 'J');

-- id: text-060
SELECT regexp_replace('a.b.c', '\.', '', 'g'), regexp_replace('  a   b  ', '\s+', ' ', 'g'), regexp_replace('john@example.com', '^([^@]+)@.*$', '\1');

-- id: text-061
SELECT regexp_replace('abc', 'b*', '-', 'g'), regexp_replace('abc', 'x*', '-', 'g'), regexp_replace('aaa', 'a*', 'X', 'g'), regexp_replace('', 'x*', 'Y', 'g');

-- id: text-062
SELECT regexp_replace('abc', '$', '!', 'g'), regexp_replace('abc', '^', '!', 'g'), regexp_replace('abc', '(b)', '[\1\&\\\0\q\2]');

-- id: text-063
SELECT regexp_replace('héllo wörld', '[^a-z ]', '_', 'g'), regexp_replace('ÉCOLE école', 'é', 'e', 'gi'), regexp_replace(NULL, 'a', 'b');

-- id: text-064
SELECT regexp_replace('2026-12-02', '(\d+)-(\d+)-(\d+)', '\3.\2.\1');

-- id: text-065
SELECT regexp_count('banana', 'an'), regexp_count('banana', 'a*'), regexp_count('', 'x*'), regexp_count('abc', 'z'), regexp_count(NULL, 'a');

-- id: text-066
SELECT name, regexp_count(name, '[aeiou]') FROM projects ORDER BY id;

-- id: text-067
SELECT regexp_substr('abc123def456', '[0-9]+'), regexp_substr('abc', '[0-9]+'), regexp_substr('x=1;y=2', '[a-z]=[0-9]');

-- id: text-068
SELECT regexp_like('Hello', '^h', 'i'), regexp_like('Hello', '^h'), regexp_like(NULL, 'a'), regexp_like('a|b', 'a\|b');

-- id: text-069
SELECT count(*) FROM spans WHERE regexp_like(name, 'search', 'i');

-- id: text-070
SELECT regexp_replace('ab', 'a|ab', 'X');

-- id: text-071
SELECT regexp_replace('xaaay', 'x.*?y', 'Z');

-- id: text-072
SELECT regexp_replace('aab', 'a*(ab)*', 'X');

-- id: text-073
SELECT 'aa' ~ '(a)\1';

-- id: text-074
SELECT 'word' ~ '\mword\M';

-- id: text-075
SELECT 'ab' ~ '(?<=a)b';

-- id: text-076
SELECT concat(1.5::float8, 'x');

-- id: text-077
SELECT name FROM projects WHERE name ~ name ORDER BY 1;

-- id: text-078
SELECT regexp_replace('abc', 'b', 'x', 'q');

-- id: text-079
SELECT regexp_match('abc', 'b');

-- id: text-081
SELECT concat(true, 'x');

-- id: text-082
SELECT concat(cost_usd, '') FROM spans ORDER BY id LIMIT 3;

-- id: text-085
-- database: chinook
SELECT Name, initcap(Name), upper(Name) FROM ARTIST WHERE Name ~ '[^ -~]' ORDER BY ArtistId;

-- id: text-086
-- database: chinook
SELECT Name, char_length(Name), strpos(Name, 'ö'), reverse(Name) FROM ARTIST WHERE Name ~* 'ö|ü|é' ORDER BY ArtistId;

-- id: text-087
-- database: chinook
SELECT count(*) FROM ARTIST WHERE Name ~* '^the ';

-- id: text-088
-- database: chinook
SELECT Name FROM TRACK WHERE Name ~ '^[0-9]+' ORDER BY TrackId LIMIT 20;

-- id: text-089
-- database: chinook
SELECT split_part(Email, '@', 2) AS domain, count(*) FROM CUSTOMER GROUP BY 1 ORDER BY 2 DESC, 1;

-- id: text-090
-- database: chinook
SELECT concat_ws(', ', LastName, FirstName, Company) FROM CUSTOMER ORDER BY CustomerId LIMIT 15;

-- id: text-091
-- database: chinook
SELECT regexp_replace(Phone, '[^0-9]', '', 'g') FROM CUSTOMER ORDER BY CustomerId LIMIT 15;

-- id: text-092
-- database: chinook
SELECT left(Title, 10), right(Title, -5) FROM ALBUM ORDER BY AlbumId LIMIT 15;

-- id: text-093
-- database: chinook
SELECT Composer, regexp_count(Composer, ',') FROM TRACK WHERE Composer IS NOT NULL ORDER BY TrackId LIMIT 15;

-- id: text-094
-- database: chinook
SELECT regexp_substr(Name, '[[:alpha:]]+') FROM ARTIST ORDER BY ArtistId LIMIT 20;

-- id: text-095
-- database: chinook
SELECT concat(FirstName, ' ', LastName, ' (', CustomerId, ')') FROM CUSTOMER WHERE Country ~ '^(Brazil|Germany)$' ORDER BY CustomerId;

-- id: text-096
-- database: chinook
SELECT Name FROM ARTIST WHERE Name ~* 'É' ORDER BY ArtistId;

-- id: text-097
-- database: chinook
SELECT btrim(Title, 'A') FROM ALBUM ORDER BY AlbumId LIMIT 10;


-- ascii and octet_length run on SQLite (their FIXes pointed at unicode(x), NULL for '', and length(hex(x)) / 2,
-- 0 for NULL; outside tester s13).
-- id: text-098
SELECT ascii('') AS a, ascii(NULL) AS b, ascii('é') AS c, ascii(name) AS d, octet_length(name) AS e, octet_length('héllo') AS f, octet_length(NULL::text) AS g, octet_length('') AS h FROM projects ORDER BY id;
