#include "admission/capability/capability.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <iterator>
#include <vector>

namespace qg::capability {
namespace {

using enum FunctionKind;
using enum Returns;

// What each construct needs the renderer to print (render::Construct); empty
// when every dialect has a spelling for it.
namespace printed {
using enum render::Construct;
constexpr std::array kNothing = std::array<render::Construct, 0>{};
constexpr std::array kDistinctOn{DistinctOn};
constexpr std::array kWithinGroup{WithinGroup};
constexpr std::array kAggregateOrderBy{AggregateOrderBy};
constexpr std::array kLateral{Lateral};
constexpr std::array kGroupingSets{Rollup, Cube, GroupingSets, EmptyGroupingSet};
constexpr std::array kILike{ILike};
constexpr std::array kSimilarTo{SimilarTo};
constexpr std::array kLocalTime{LocalTime, LocalTimestamp};
constexpr std::array kBetweenSymmetric{BetweenSymmetric};
constexpr std::array kSetOpAll{IntersectAll, ExceptAll};
constexpr std::array kGreatestLeast{Greatest, Least};
constexpr std::array kQuantified{AnySubquery, AllSubquery};
constexpr std::array kColumnAliases{TableColumnAliases};
constexpr std::array kEmptySelectList{EmptySelectList};
}  // namespace printed

// One row per Construct, in enum order (checked below: a missing row does not compile).
constexpr std::array kConstructs{
    // On SQLite the first row per group by row_number() (admit/distinct_on.cpp).
    ConstructCapability{Construct::DistinctOn, "DISTINCT ON", rewrite("dialect:distinct-on"), admit(),
                        printed::kDistinctOn},
    ConstructCapability{Construct::WithinGroup, "WITHIN GROUP (ORDER BY ...)",
                        refuse("FIX: on SQLite write percentile(x, p) with p in 0..100, or median(x)."), admit(),
                        printed::kWithinGroup},
    ConstructCapability{Construct::AggregateFilter, "FILTER (WHERE ...)", admit(), admit(), printed::kNothing},
    // SQLite accepts ORDER BY inside an aggregate's arguments only from 3.44; querygate links 3.40.
    ConstructCapability{Construct::AggregateOrderBy, "ORDER BY inside an aggregate",
                        refuse("FIX: on SQLite, order the rows in a subquery and aggregate without ORDER BY: SELECT "
                               "group_concat(x, ',') FROM (SELECT x FROM t ORDER BY y) AS sorted."),
                        admit(), printed::kAggregateOrderBy},
    ConstructCapability{Construct::WindowFunction, "a window function (OVER ...)", admit(), admit(), printed::kNothing},
    ConstructCapability{Construct::WindowFrameGroups, "GROUPS frames", admit(), admit(), printed::kNothing},
    ConstructCapability{Construct::WindowFrameExclusion, "EXCLUDE in a window frame", admit(), admit(),
                        printed::kNothing},
    ConstructCapability{Construct::Lateral, "LATERAL",
                        refuse("FIX: on SQLite, move the subquery into the select list as a correlated scalar "
                               "subquery, e.g. SELECT s.id, (SELECT count(*) FROM a WHERE a.span_id = s.id) AS n FROM "
                               "s, or JOIN a grouped subquery on its key."),
                        admit(), printed::kLateral},
    // On SQLite one GROUP BY per grouping set, appended with UNION ALL (admit/grouping_sets_on_sqlite.cpp).
    ConstructCapability{Construct::GroupingSets, "ROLLUP / CUBE / GROUPING SETS", rewrite("dialect:grouping-sets"),
                        admit(), printed::kGroupingSets},
    // SQLite's LIKE is case-sensitive there (case_sensitive_like); ILIKE with an ASCII literal pattern is
    // lower(x) LIKE '<lower-case pattern>' (admit/dialect.cpp), otherwise refused.
    ConstructCapability{Construct::ILike, "ILIKE", rewrite("dialect:ilike-to-lower-like"), admit(), printed::kILike},
    ConstructCapability{Construct::SimilarTo, "SIMILAR TO",
                        refuse("FIX: on SQLite, use LIKE patterns (% and _), combined with OR where needed."), admit(),
                        printed::kSimilarTo},
    ConstructCapability{Construct::LikeEscape, "LIKE ... ESCAPE", admit(), admit(), printed::kNothing},
    ConstructCapability{Construct::RightJoin, "RIGHT JOIN", admit(), admit(), printed::kNothing},  // SQLite >= 3.39
    ConstructCapability{Construct::FullJoin, "FULL JOIN", admit(), admit(), printed::kNothing},    // SQLite >= 3.39
    // With column names (AS v(a, b)) the SQLite renderer wraps the VALUES in a renaming SELECT.
    ConstructCapability{Construct::ValuesInFrom, "VALUES in FROM", admit(), admit(), printed::kNothing},
    ConstructCapability{Construct::LocalTime, "LOCALTIME / LOCALTIMESTAMP",
                        refuse("FIX: on SQLite, write CURRENT_TIMESTAMP (UTC) or datetime('now')."), admit(),
                        printed::kLocalTime},
    ConstructCapability{Construct::CurrentTime, "CURRENT_TIME", admit(), admit(), printed::kNothing},
    ConstructCapability{Construct::BetweenSymmetric, "BETWEEN SYMMETRIC",
                        refuse("FIX: on SQLite, write x BETWEEN min(a, b) AND max(a, b)."), admit(),
                        printed::kBetweenSymmetric},
    ConstructCapability{Construct::IsDistinctFrom, "IS [NOT] DISTINCT FROM", admit(), admit(),
                        printed::kNothing},  // SQLite >= 3.39
    ConstructCapability{Construct::SetOpIntersectAll, "INTERSECT ALL / EXCEPT ALL",
                        refuse("FIX: on SQLite, INTERSECT / EXCEPT without ALL drop repeated rows (another answer "
                               "when rows repeat); to keep the counts, count each value on both sides (SELECT v, "
                               "count(*) AS n ... GROUP BY v) and join the two counts on v."),
                        admit(), printed::kSetOpAll},
    // SQLite's multi-argument max()/min() return NULL when any argument is NULL; GREATEST/LEAST skip NULLs:
    // on SQLite pg_greatest / pg_least of numbers or of texts (admit/numbers_on_sqlite.cpp).
    ConstructCapability{Construct::GreatestLeast, "GREATEST / LEAST", rewrite("dialect:greatest-least"), admit(),
                        printed::kGreatestLeast},
    ConstructCapability{Construct::QuantifiedSubquery, "x op ANY / ALL (subquery)",
                        refuse("FIX: on SQLite, write x = ANY (SELECT y FROM t ...) as x IN (SELECT y FROM t ...); in "
                               "WHERE, x > ALL (SELECT y FROM t ...) as NOT EXISTS (SELECT 1 FROM t WHERE ... AND (y "
                               "IS NULL OR x IS NULL OR y >= x)) (NULLs and an empty subquery as PostgreSQL reads "
                               "them; not max(y), which differs on both)."),
                        admit(), printed::kQuantified},
    ConstructCapability{Construct::RelationColumnAliases, "column aliases on a FROM item, AS x(a, b)",
                        refuse("FIX: on SQLite, name the columns inside the subquery (SELECT col AS a ...) or alias "
                               "them in the select list."),
                        admit(), printed::kColumnAliases},
    ConstructCapability{Construct::EmptySelectList, "an empty select list (SELECT FROM ...)",
                        refuse("FIX: on SQLite, select at least one value, e.g. SELECT 1 FROM t WHERE ... (inside "
                               "EXISTS (...) the value does not matter)."),
                        admit(), printed::kEmptySelectList},
};

constexpr bool constructs_in_enum_order() {
  if (kConstructs.size() != kConstructCount) return false;
  for (std::size_t i = 0; i < kConstructs.size(); ++i)
    if (static_cast<std::size_t>(kConstructs[i].construct) != i) return false;
  return true;
}
static_assert(constructs_in_enum_order(), "kConstructs must have one row per Construct, in enum order");

// The jsonb forms that run on SQLite: a key is one key, dots and all ('$.llm.provider' would be a path of two keys,
// and find nothing in the demo's flat attributes: outside tester s14).
constexpr std::string_view kNoSqliteJsonb =
    "FIX: write the jsonb forms that run on SQLite: col ->> 'key' (one key, dots and all: attributes ->> "
    "'llm.provider'), col #>> '{a,b}' for a path; a containment test of a string value, col @> '{\"k\": \"v\"}', is "
    "col ->> 'k' = 'v'.";
// date_bin: bins of N seconds since the epoch are date_bin's bins from origin 1970-01-01 (whole units: date_trunc).
constexpr std::string_view kPgOnlyDate =
    "FIX: on SQLite, bin by seconds since the epoch, as date_bin does from origin 1970-01-01: "
    "to_timestamp(floor(date_part('epoch', t) / 900) * 900) for 15-minute bins (900 = the bin in seconds); for whole "
    "units write date_trunc('hour', t).";
constexpr std::string_view kSqliteOnlyPercentile =
    "FIX: on PostgreSQL, write percentile_cont(p / 100.0) WITHIN GROUP (ORDER BY x).";
constexpr std::string_view kSqliteOnlyJsonValid =
    "FIX: on PostgreSQL, cast the text with CAST(x AS jsonb) (invalid JSON is an error), then use -> / ->>.";
constexpr std::string_view kPgTimeCast = "FIX: on PostgreSQL, cast instead: CAST(t AS timestamptz).";
constexpr std::string_view kPgTimeArithmetic =
    "FIX: on PostgreSQL, write the operators: end_time - start_time, start_time + CAST('1 hour' AS interval).";
// The aggregates querygate registers on SQLite for PostgreSQL's (admit/aggregates_on_sqlite.cpp).
constexpr std::string_view kPgStatistics =
    "FIX: on PostgreSQL, write the aggregate itself: stddev(x), variance(x), corr(y, x), regr_slope(y, x) ...";
constexpr std::string_view kPgStringAgg = "FIX: on PostgreSQL, write string_agg(x, ', ' ORDER BY y).";
constexpr std::string_view kPgOrderedSet =
    "FIX: on PostgreSQL, write percentile_cont(0.5) WITHIN GROUP (ORDER BY x) or mode() WITHIN GROUP (ORDER BY x).";
constexpr std::string_view kNeverSleep =
    "FIX: remove the sleep; querygate runs statements under a deadline and never waits on purpose.";
constexpr std::string_view kNeverSession =
    "FIX: remove it; querygate reads table data only, not engine or session state.";
constexpr std::string_view kNeverFiles = "FIX: remove it; querygate never reads or writes files or loads code.";
constexpr std::string_view kNeverBlob =
    "FIX: remove it; large generated values are refused. Aggregate existing data instead.";
// Padding and repetition build a value as long as a number the caller picks
// (lpad('x', 1000000000) allocates a gigabyte on PostgreSQL, which has no
// per-value cap like SQLite's SQLITE_LIMIT_LENGTH): refused, with a spelling
// whose length is bounded by the statement's own text.
constexpr std::string_view kNeverRepeat =
    "FIX: write the text out as a literal and cut it: substr('##########', 1, n).";

// jsonb_each / jsonb_object_keys / jsonb_array_elements (and _text) are admitted as row sources in FROM
// (ast::JsonRows, admit/json_rows.cpp), never as select-list calls: the refusal names the FROM form.
constexpr std::string_view kSetKeysSqlite =
    "FIX: call it in FROM, as a row source: SELECT k, count(*) FROM spans, jsonb_object_keys(attributes) AS k GROUP "
    "BY k, or SELECT e.key, e.value FROM spans s, jsonb_each_text(s.attributes) AS e; to read a key you know, write "
    "x ->> 'key'.";
constexpr std::string_view kSetKeysPg = kSetKeysSqlite;
constexpr std::string_view kSetElementsSqlite =
    "FIX: call it in FROM, as a row source: SELECT e.value FROM t, jsonb_array_elements_text(t.col -> 'list') AS e; "
    "count elements with json_array_length(x) (jsonb_array_length on PostgreSQL), read one with x ->> 0.";
constexpr std::string_view kSetElementsPg = kSetElementsSqlite;
constexpr std::string_view kUnnest =
    "FIX: for a JSON array, read its elements in FROM with jsonb_array_elements_text(t.col -> 'list') AS e; count "
    "them with json_array_length(x) (jsonb_array_length on PostgreSQL).";

constexpr FunctionCapability both(std::string_view n, FunctionKind k, Returns r, Growth g) {
  return {n, k, r, g, admit(), admit()};
}
// A function on one backend only: the refusal on the other names the spelling that works there.
constexpr FunctionCapability sqlite_only(std::string_view n, FunctionKind k, Returns r, Growth g,
                                         std::string_view pg_fix) {
  return {n, k, r, g, admit(), refuse(pg_fix)};
}
constexpr FunctionCapability pg_only(std::string_view n, FunctionKind k, Returns r, Growth g,
                                     std::string_view sqlite_fix) {
  return {n, k, r, g, refuse(sqlite_fix), admit()};
}
// Admitted on PostgreSQL, translated on SQLite by the rewrite `name` (admission reports it).
constexpr FunctionCapability sqlite_rewrite(std::string_view n, FunctionKind k, Returns r, Growth g,
                                            std::string_view rewrite_name) {
  return {n, k, r, g, rewrite(rewrite_name), admit()};
}
// SQLite's own function, translated on PostgreSQL into PostgreSQL's meaning by the rewrite `name`
// (admit/sqlite_spellings.cpp: replaced at admission, or refused with a FIX where not exact).
constexpr FunctionCapability pg_rewrite(std::string_view n, FunctionKind k, Returns r, Growth g,
                                        std::string_view rewrite_name) {
  return {n, k, r, g, admit(), rewrite(rewrite_name)};
}
// Refused on both backends, each with its own spelling.
constexpr FunctionCapability neither(std::string_view n, FunctionKind k, Returns r, std::string_view sqlite_fix,
                                     std::string_view pg_fix) {
  return {n, k, r, Growth::Refused, refuse(sqlite_fix), refuse(pg_fix)};
}
constexpr FunctionCapability never(std::string_view n, std::string_view fix) {
  return {n, Scalar, Text, Growth::Refused, refuse(fix), refuse(fix)};
}

// Sorted by kind then name for reading; lookups are linear (the table is small
// and admission calls it a handful of times per statement).
// A plain array: deducing std::array<T, N> from 280-odd rows exceeds clang's fold-expression nesting limit.
constexpr FunctionCapability kFunctions[] = {
    // ---- aggregates
    both("avg", Aggregate, LikeArguments, Growth::Fixed),
    both("count", Aggregate, Number, Growth::Fixed),
    both("max", Aggregate, LikeArguments, Growth::Within),
    both("min", Aggregate, LikeArguments, Growth::Within),
    both("sum", Aggregate, LikeArguments, Growth::Fixed),
    pg_rewrite("total", Aggregate, Number, Growth::Fixed, "dialect:total"),
    pg_rewrite("group_concat", Aggregate, Text, Growth::TextAggregate, "dialect:group_concat"),
    sqlite_rewrite("string_agg", Aggregate, Text, Growth::TextAggregate, "dialect:string_agg"),
    sqlite_only("json_group_array", Aggregate, Text, Growth::TextAggregate, "FIX: on PostgreSQL, write json_agg(x)."),
    sqlite_only("json_group_object", Aggregate, Text, Growth::TextAggregate,
                "FIX: on PostgreSQL, write json_object_agg(k, v)."),
    pg_only("json_agg", Aggregate, Text, Growth::TextAggregate, "FIX: on SQLite, write json_group_array(x)."),
    pg_only("jsonb_agg", Aggregate, Text, Growth::TextAggregate, "FIX: on SQLite, write json_group_array(x)."),
    pg_only("json_object_agg", Aggregate, Text, Growth::TextAggregate,
            "FIX: on SQLite, write json_group_object(k, v)."),
    pg_only("jsonb_object_agg", Aggregate, Text, Growth::TextAggregate,
            "FIX: on SQLite, write json_group_object(k, v)."),
    // On SQLite pg_array_agg, answered as the JSON array of its elements (admit/arrays_on_sqlite.cpp).
    sqlite_rewrite("array_agg", Aggregate, Text, Growth::TextAggregate, "dialect:array_agg"),
    // On SQLite: min/max of the condition's 1/0, answered as a boolean (value_types.cpp).
    sqlite_rewrite("bool_and", Aggregate, Boolean, Growth::Fixed, "dialect:bool-aggregate"),
    sqlite_rewrite("bool_or", Aggregate, Boolean, Growth::Fixed, "dialect:bool-aggregate"),
    sqlite_rewrite("every", Aggregate, Boolean, Growth::Fixed, "dialect:bool-aggregate"),
    sqlite_rewrite("stddev", Aggregate, Number, Growth::Fixed, "dialect:stddev"),
    sqlite_rewrite("stddev_samp", Aggregate, Number, Growth::Fixed, "dialect:stddev_samp"),
    sqlite_rewrite("stddev_pop", Aggregate, Number, Growth::Fixed, "dialect:stddev_pop"),
    sqlite_rewrite("variance", Aggregate, Number, Growth::Fixed, "dialect:variance"),
    sqlite_rewrite("var_samp", Aggregate, Number, Growth::Fixed, "dialect:var_samp"),
    sqlite_rewrite("var_pop", Aggregate, Number, Growth::Fixed, "dialect:var_pop"),
    sqlite_rewrite("corr", Aggregate, Number, Growth::Fixed, "dialect:corr"),
    sqlite_rewrite("covar_pop", Aggregate, Number, Growth::Fixed, "dialect:covar_pop"),
    sqlite_rewrite("covar_samp", Aggregate, Number, Growth::Fixed, "dialect:covar_samp"),
    sqlite_rewrite("regr_slope", Aggregate, Number, Growth::Fixed, "dialect:regr_slope"),
    sqlite_rewrite("regr_intercept", Aggregate, Number, Growth::Fixed, "dialect:regr_intercept"),
    sqlite_rewrite("regr_r2", Aggregate, Number, Growth::Fixed, "dialect:regr_r2"),
    sqlite_rewrite("regr_avgx", Aggregate, Number, Growth::Fixed, "dialect:regr_avgx"),
    sqlite_rewrite("regr_avgy", Aggregate, Number, Growth::Fixed, "dialect:regr_avgy"),
    sqlite_rewrite("regr_sxx", Aggregate, Number, Growth::Fixed, "dialect:regr_sxx"),
    sqlite_rewrite("regr_syy", Aggregate, Number, Growth::Fixed, "dialect:regr_syy"),
    sqlite_rewrite("regr_sxy", Aggregate, Number, Growth::Fixed, "dialect:regr_sxy"),
    sqlite_rewrite("regr_count", Aggregate, Number, Growth::Fixed, "dialect:regr_count"),
    sqlite_rewrite("percentile_cont", Aggregate, LikeArguments, Growth::Fixed, "dialect:percentile_cont"),
    sqlite_rewrite("percentile_disc", Aggregate, LikeArguments, Growth::Within, "dialect:percentile_disc"),
    // Registered on SQLite connections by the gateway (executors/sqlite/sqlite_functions.cpp)
    // as plain aggregates: SQLite cannot run them with OVER (...).
    sqlite_only("percentile", Aggregate, Number, Growth::Fixed, kSqliteOnlyPercentile),
    // A scalar subquery's one row on SQLite (admit/scalar_subquery.cpp): fails on a second row, as PostgreSQL does.
    sqlite_only("pg_single", Aggregate, LikeArguments, Growth::Within,
                "FIX: on PostgreSQL, write the scalar subquery itself, e.g. (SELECT name FROM projects WHERE id = 1) "
                "(more than one row is its error there)."),
    sqlite_only("median", Aggregate, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write percentile_cont(0.5) WITHIN GROUP (ORDER BY x)."),
    sqlite_rewrite("mode", Aggregate, LikeArguments, Growth::Within, "dialect:mode"),
    // Registered on SQLite connections (executors/sqlite/sqlite_aggregates.cpp): the translations of the
    // aggregates above call them (admit/aggregates_on_sqlite.cpp); PostgreSQL has the aggregates themselves.
    sqlite_only("pg_var_samp", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_var_samp_exact", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_var_pop", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_var_pop_exact", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_stddev_samp", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_stddev_samp_exact", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_stddev_pop", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_stddev_pop_exact", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_numeric_sum", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write sum(x)."),
    // sum / avg of double precision over a moving window frame on SQLite (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_float_sum", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write sum(x)."),
    sqlite_only("pg_float_avg", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write avg(x)."),
    sqlite_only("pg_numeric_avg", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write avg(x)."),
    // max / min of exact numerics on SQLite (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_numeric_max", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write max(x)."),
    sqlite_only("pg_numeric_min", Aggregate, Number, Growth::Fixed, "FIX: on PostgreSQL, write min(x)."),
    sqlite_only("pg_covar_pop", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_covar_samp", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_corr", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_slope", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_intercept", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_r2", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_count", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_avgx", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_avgy", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_sxx", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_syy", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_regr_sxy", Aggregate, Number, Growth::Fixed, kPgStatistics),
    sqlite_only("pg_string_agg", Aggregate, Text, Growth::TextAggregate, kPgStringAgg),
    sqlite_only("pg_array_agg", Aggregate, Text, Growth::TextAggregate,
                "FIX: on PostgreSQL, write array_agg(x ORDER BY y)."),
    sqlite_only("pg_percentile_cont", Aggregate, Number, Growth::Fixed, kPgOrderedSet),
    sqlite_only("pg_percentile_disc", Aggregate, LikeArguments, Growth::Within, kPgOrderedSet),
    sqlite_only("pg_mode", Aggregate, LikeArguments, Growth::Within, kPgOrderedSet),
    // ---- window functions
    both("row_number", Window, Number, Growth::Fixed),
    both("rank", Window, Number, Growth::Fixed),
    both("dense_rank", Window, Number, Growth::Fixed),
    both("percent_rank", Window, Number, Growth::Fixed),
    both("cume_dist", Window, Number, Growth::Fixed),
    both("ntile", Window, Number, Growth::Fixed),
    both("lag", Window, LikeArguments, Growth::Within),
    both("lead", Window, LikeArguments, Growth::Within),
    both("first_value", Window, LikeArguments, Growth::Within),
    both("last_value", Window, LikeArguments, Growth::Within),
    both("nth_value", Window, LikeArguments, Growth::Within),
    // ---- numbers
    both("abs", Scalar, Number, Growth::Fixed),
    both("round", Scalar, Number, Growth::Fixed),
    both("ceil", Scalar, Number, Growth::Fixed),
    both("ceiling", Scalar, Number, Growth::Fixed),
    both("floor", Scalar, Number, Growth::Fixed),
    both("trunc", Scalar, Number, Growth::Fixed),
    both("sign", Scalar, Number, Growth::Fixed),
    both("sqrt", Scalar, Number, Growth::Fixed),
    both("exp", Scalar, Number, Growth::Power),
    both("ln", Scalar, Number, Growth::Fixed),
    both("log", Scalar, Number, Growth::Fixed),
    both("log10", Scalar, Number, Growth::Fixed),
    both("power", Scalar, Number, Growth::Power),
    both("pow", Scalar, Number, Growth::Power),
    both("mod", Scalar, Number, Growth::Fixed),
    both("pi", Scalar, Number, Growth::Fixed),
    both("degrees", Scalar, Number, Growth::Fixed),
    both("radians", Scalar, Number, Growth::Fixed),
    both("sin", Scalar, Number, Growth::Fixed),
    both("cos", Scalar, Number, Growth::Fixed),
    both("tan", Scalar, Number, Growth::Fixed),
    both("asin", Scalar, Number, Growth::Fixed),
    both("acos", Scalar, Number, Growth::Fixed),
    both("atan", Scalar, Number, Growth::Fixed),
    both("atan2", Scalar, Number, Growth::Fixed),
    sqlite_only("log2", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write log(2, x)."),
    both("random", Scalar, Number, Growth::Fixed),
    // ---- text
    both("length", Scalar, Number, Growth::Fixed),
    // Translated on SQLite (admit/text_on_sqlite.cpp): into length(), trim() or the pg_* functions below.
    sqlite_rewrite("char_length", Scalar, Number, Growth::Fixed, "dialect:char_length"),
    sqlite_rewrite("character_length", Scalar, Number, Growth::Fixed, "dialect:char_length"),
    sqlite_rewrite("octet_length", Scalar, Number, Growth::Fixed, "dialect:octet_length"),
    both("lower", Scalar, Text, Growth::CaseMap),
    both("upper", Scalar, Text, Growth::CaseMap),
    both("substr", Scalar, Text, Growth::Within),
    // substring(x, start, count) as a plain call (SUBSTRING(x FROM a FOR b) converts to substr).
    both("substring", Scalar, Text, Growth::Within),
    both("replace", Scalar, Text, Growth::Replace),
    both("trim", Scalar, Text, Growth::Within),
    both("ltrim", Scalar, Text, Growth::Within),
    both("rtrim", Scalar, Text, Growth::Within),
    sqlite_rewrite("btrim", Scalar, Text, Growth::Within, "dialect:btrim"),
    sqlite_rewrite("concat", Scalar, Text, Growth::Within, "dialect:concat"),
    sqlite_rewrite("concat_ws", Scalar, Text, Growth::JoinedWith, "dialect:concat_ws"),
    sqlite_rewrite("left", Scalar, Text, Growth::Within, "dialect:left"),
    sqlite_rewrite("right", Scalar, Text, Growth::Within, "dialect:right"),
    sqlite_rewrite("position", Scalar, Number, Growth::Fixed, "dialect:strpos"),
    // GROUPING(a, b) of a grouped query: on SQLite each grouping set's constant (admit/grouping_sets_on_sqlite.cpp).
    sqlite_rewrite("grouping", Scalar, Number, Growth::Fixed, "dialect:grouping-sets"),
    sqlite_rewrite("strpos", Scalar, Number, Growth::Fixed, "dialect:strpos"),
    sqlite_rewrite("starts_with", Scalar, Boolean, Growth::Fixed, "dialect:starts_with"),
    pg_rewrite("instr", Scalar, Number, Growth::Fixed, "dialect:instr"),
    sqlite_rewrite("split_part", Scalar, Text, Growth::Within, "dialect:split_part"),
    sqlite_rewrite("initcap", Scalar, Text, Growth::CaseMap, "dialect:initcap"),
    neither("lpad", Scalar, Text,
            "FIX: on SQLite, write CASE WHEN length(x) >= n THEN substr(x, 1, n) ELSE substr('ffffffffff' || x, "
            "length(x) + 11 - n) END, with the fill character written ten times (spaces when lpad has none; n up to "
            "10; lpad cuts a longer x to its first n characters).",
            "FIX: on PostgreSQL, write CASE WHEN length(x) >= n THEN left(x, n) ELSE right('ffffffffff' || x, n) END, "
            "with the fill character written ten times (spaces when lpad has none; n up to 10; lpad cuts a longer x "
            "to its first n characters)."),
    neither("rpad", Scalar, Text, "FIX: on SQLite, write substr(x || '          ', 1, n) (pad with a literal).",
            "FIX: on PostgreSQL, write left(x || '          ', n) (pad with a literal)."),
    neither("repeat", Scalar, Text, kNeverRepeat, kNeverRepeat),
    pg_only("md5", Scalar, Text, Growth::Fixed,
            "FIX: on SQLite there is no hash function: compare or group the values themselves, or show their bytes "
            "with hex(x)."),
    sqlite_rewrite("reverse", Scalar, Text, Growth::Within, "dialect:reverse"),
    // Translated on SQLite for timestamps and dates (admit/time_types.cpp); number formats are refused there.
    sqlite_rewrite("to_char", Scalar, Text, Growth::Format, "dialect:to_char"),
    // to_date(text, template) on SQLite: pg_to_time with the common template patterns (admit/time_constructors.cpp).
    sqlite_rewrite("to_date", Scalar, Text, Growth::Fixed, "dialect:to_date"),
    // PostgreSQL's regular expressions on SQLite: a literal pattern in the subset common/pg_regex.hpp reads.
    sqlite_rewrite("regexp_replace", Scalar, Text, Growth::RegexpReplace, "dialect:regexp_replace"),
    sqlite_rewrite("regexp_like", Scalar, Boolean, Growth::Fixed, "dialect:regex"),
    sqlite_rewrite("regexp_count", Scalar, Number, Growth::Fixed, "dialect:regexp_count"),
    sqlite_rewrite("regexp_substr", Scalar, Text, Growth::Within, "dialect:regexp_substr"),
    sqlite_rewrite("regexp_match", Scalar, Text, Growth::RegexpMatch, "dialect:regexp_match"),
    // A width or precision can be huge (printf('%.*c', 1000000000, 'x') runs for seconds inside one
    // call, where neither the progress handler nor SQLITE_LIMIT_LENGTH can stop it): admission
    // requires a literal format whose widths and precisions are at most 1000 (Growth::Printf).
    // PostgreSQL's format() has the same widths and no such cap, so it stays refused there.
    pg_rewrite("printf", Scalar, Text, Growth::Printf, "dialect:printf"),
    // format() is PostgreSQL's own (its %s prints a boolean as t, a float8 as float8out does, %d is an error);
    // on SQLite the name is printf's, which prints them otherwise (outside tester s8, H5).
    pg_only("format", Scalar, Text, Growth::Printf,
            "FIX: on SQLite, join the parts with ||: 'a: ' || x (CAST(x AS text) for a number); the SQLite function "
            "of that name is printf, which prints booleans and numbers otherwise."),
    // CHAR is a type name in the PostgreSQL grammar: the function is reachable only as "char"(n).
    sqlite_only("char", Scalar, Text, Growth::CodePoint, "FIX: on PostgreSQL, write chr(n)."),
    pg_only("chr", Scalar, Text, Growth::Fixed,
            "FIX: on SQLite, write \"char\"(n) (quoted: CHAR is also a type name)."),
    sqlite_only("unicode", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write ascii(x)."),
    sqlite_rewrite("ascii", Scalar, Number, Growth::Fixed, "dialect:ascii"),
    sqlite_only("hex", Scalar, Text, Growth::Double,
                "FIX: on PostgreSQL, write to_hex(n) for the hex digits of an integer."),
    pg_only("to_hex", Scalar, Text, Growth::Fixed, "FIX: on SQLite, write printf('%x', n)."),
    sqlite_only(
        "soundex", Scalar, Text, Growth::Fixed,
        "FIX: on PostgreSQL, compare normalised text instead, e.g. lower(trim(x)), or match with LIKE patterns."),
    sqlite_only(
        "typeof", Scalar, Text, Growth::Fixed,
        "FIX: on PostgreSQL, column types are fixed (see GET /v1/schema); convert explicitly with CAST(x AS text)."),
    pg_rewrite("ifnull", Scalar, LikeArguments, Growth::Within, "dialect:ifnull"),
    pg_rewrite("iif", Scalar, LikeArguments, Growth::Within, "dialect:iif"),
    // ---- date and time
    // date(x) exists on both: SQLite's date(timestring) and PostgreSQL's date(timestamp), the
    // function form of CAST(x AS date). SQLite's modifiers (date(t, '+1 day')) fail on PostgreSQL
    // with the engine's own "function does not exist".
    both("date", Scalar, Text, Growth::Fixed),
    // TIME is a type name in the PostgreSQL grammar: the function is reachable only as "time"(t).
    sqlite_only("time", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, cast instead: CAST(t AS time)."),
    pg_rewrite("datetime", Scalar, Text, Growth::Fixed, "dialect:datetime"),
    pg_rewrite("julianday", Scalar, Number, Growth::Fixed, "dialect:julianday"),
    pg_rewrite("unixepoch", Scalar, Number, Growth::Fixed, "dialect:unixepoch"),
    pg_rewrite("strftime", Scalar, Text, Growth::Format, "dialect:strftime"),
    // PostgreSQL's time family is translated on SQLite into the pg_* functions below (admit/time_types.cpp).
    sqlite_rewrite("date_trunc", Scalar, Text, Growth::Fixed, "dialect:date_trunc"),
    sqlite_rewrite("extract", Scalar, Number, Growth::Fixed, "dialect:extract"),
    sqlite_rewrite("date_part", Scalar, Number, Growth::Fixed, "dialect:extract"),
    sqlite_rewrite("age", Scalar, Text, Growth::Fixed, "dialect:age"),
    sqlite_rewrite("now", Scalar, Text, Growth::Fixed, "dialect:now"),
    sqlite_rewrite("to_timestamp", Scalar, Text, Growth::Fixed, "dialect:to_timestamp"),
    sqlite_rewrite("make_date", Scalar, Text, Growth::Fixed, "dialect:make_date"),
    pg_only("date_bin", Scalar, Text, Growth::Fixed, kPgOnlyDate),
    // x AT TIME ZONE z is timezone(z, x): on SQLite pg_timezone, with the tz database (DST-correct).
    sqlite_rewrite("timezone", Scalar, Text, Growth::Fixed, "dialect:at-time-zone"),
    // Registered on SQLite connections (executors/sqlite/sqlite_time.cpp): the translations of the time
    // family call them; PostgreSQL has the operators and functions themselves.
    sqlite_only("pg_cast", Scalar, Text, Growth::Fixed, kPgTimeCast),
    sqlite_only("pg_ts_diff", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_ts_add", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_age", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write age(end_time, start_time)."),
    sqlite_only("pg_iv_add", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_iv_mul", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_iv_div", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_date_diff", Scalar, Number, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_date_add", Scalar, Text, Growth::Fixed, kPgTimeArithmetic),
    sqlite_only("pg_extract", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write date_part('year', t)."),
    sqlite_only("pg_date_trunc", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write date_trunc('day', t)."),
    sqlite_only("pg_to_char", Scalar, Text, Growth::Format, "FIX: on PostgreSQL, write to_char(t, 'YYYY-MM')."),
    sqlite_only("pg_timezone", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write timezone('UTC', t)."),
    sqlite_only("pg_time_key", Scalar, Number, Growth::Fixed, kPgTimeCast),
    // Registered on SQLite connections (executors/sqlite/sqlite_text.cpp): the translations of PostgreSQL's text
    // functions and regular expressions call them (admit/text_on_sqlite.cpp).
    sqlite_only("pg_concat", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write concat(a, b)."),
    sqlite_only("pg_concat_ws", Scalar, Text, Growth::JoinedWith, "FIX: on PostgreSQL, write concat_ws(',', a, b)."),
    sqlite_only("pg_left", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write left(x, n)."),
    sqlite_only("pg_right", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write right(x, n)."),
    sqlite_only("pg_split_part", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write split_part(x, ',', n)."),
    sqlite_only("pg_strpos", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write strpos(x, sub)."),
    sqlite_only("pg_initcap", Scalar, Text, Growth::CaseMap, "FIX: on PostgreSQL, write initcap(x)."),
    sqlite_only("pg_reverse", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write reverse(x)."),
    sqlite_only("pg_starts_with", Scalar, Boolean, Growth::Fixed, "FIX: on PostgreSQL, write starts_with(x, p)."),
    sqlite_only("pg_regex", Scalar, Boolean, Growth::Fixed,
                "FIX: on PostgreSQL, write regexp_like(x, 'pattern') or x ~ 'pattern'."),
    sqlite_only("pg_regexp_replace", Scalar, Text, Growth::RegexpReplace,
                "FIX: on PostgreSQL, write regexp_replace(x, 'pattern', 'replacement', 'g')."),
    sqlite_only("pg_regexp_count", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write regexp_count(x, 'p')."),
    sqlite_only("pg_regexp_substr", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write regexp_substr(x, 'p')."),
    sqlite_only("pg_regexp_match", Scalar, Text, Growth::RegexpMatch,
                "FIX: on PostgreSQL, write regexp_match(x, 'pattern')."),
    sqlite_only(
        "pg_int8", Scalar, Number, Growth::Fixed,
        "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT id * 2 FROM spans (bigint overflow is its "
        "error there)."),
    sqlite_only("pg_int4", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT length(name) * 1000 FROM spans (integer "
                "overflow is its error there)."),
    sqlite_only("pg_int2", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT 2::smallint * 3::smallint (smallint "
                "overflow is its error there)."),
    sqlite_only("pg_float8", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT cost_usd * 2 FROM spans (float overflow "
                "is its error there)."),
    sqlite_only("pg_float8_mul", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the product itself, e.g. SELECT cost_usd * 2.5::float8 FROM spans (float "
                "overflow and underflow are its errors there)."),
    sqlite_only("pg_exact_int", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, compare the values themselves, e.g. s.id = a.score * 1000."),
    sqlite_only("pg_from_key", Scalar, Text, Growth::Fixed, kPgTimeCast),
    // executors/sqlite/sqlite_time_constructors.cpp
    sqlite_only("pg_to_timestamp", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write to_timestamp(seconds)."),
    sqlite_only("pg_to_time", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write to_date(x, 'YYYY-MM-DD')."),
    sqlite_only("pg_make_date", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write make_date(y, m, d)."),
    sqlite_only("pg_iv_sum", Aggregate, Text, Growth::Fixed, "FIX: on PostgreSQL, write sum(end_time - start_time)."),
    sqlite_only("pg_iv_avg", Aggregate, Text, Growth::Fixed, "FIX: on PostgreSQL, write avg(end_time - start_time)."),
    // The table-valued function a select-list generate_series calendar becomes on SQLite (admit/series_on_sqlite.cpp).
    sqlite_only("pg_series", Scalar, Text, Growth::Rows,
                "FIX: on PostgreSQL, write generate_series(start, stop, INTERVAL '1 month')."),
    // The argument json_each walks for jsonb_each and its kin in FROM on SQLite (admit/json_rows.cpp,
    // executors/sqlite/sqlite_json_rows.cpp): PostgreSQL's error for the wrong JSON kind, else the elements.
    sqlite_only("pg_json_rows", Scalar, Text, Growth::Double,
                "FIX: on PostgreSQL, write jsonb_each(x) (or jsonb_object_keys, jsonb_array_elements, ...) in FROM."),
    // PostgreSQL's checked cast to a number type on SQLite (executors/sqlite/sqlite_numbers.cpp): admission wraps
    // the argument of CAST(x AS integer/numeric/float...) when x may be text.
    sqlite_only("pg_number", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write CAST(x AS integer)."),
    // PostgreSQL's numeric(p, s) cast, trunc(x, n) and GREATEST / LEAST on SQLite (admit/numbers_on_sqlite.cpp).
    sqlite_only("pg_numeric", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write round(x, 2) (a numeric rounded to 2 places)."),
    sqlite_only("pg_trunc", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write trunc(x, 2)."),
    sqlite_only("pg_round", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write round(x, -1)."),
    // x / y and x % y as SQLite prints them (render.hpp, division_checked): PostgreSQL's "division by zero".
    sqlite_only("pg_div", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the division itself, e.g. SELECT cost_usd / id FROM spans."),
    // integer + - * of INTEGER columns on SQLite, with PostgreSQL's int4 overflow (admit/numbers_on_sqlite.cpp).
    sqlite_only("pg_int4_arith", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT id * 2 FROM spans."),
    // numeric x + y, x - y, x * y on SQLite, exact (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only(
        "pg_numeric_arith", Scalar, Number, Growth::Fixed,
        "FIX: on PostgreSQL, write the arithmetic itself, e.g. SELECT abs(cost_usd::numeric) + 0.5 FROM spans."),
    // numeric sqrt, exp, ln, log, power on SQLite at numeric.c's scales (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_numeric_math", Scalar, Number, Growth::Power,
                "FIX: on PostgreSQL, write the function itself, e.g. SELECT log(10, 1000), power(2, 0.5)."),
    // numeric x / y on SQLite, exact (admit/numeric_scale_on_sqlite.cpp, executors/sqlite/sqlite_decimals.cpp).
    sqlite_only("pg_numeric_div", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the division itself, e.g. SELECT cost_usd::numeric / 7 FROM spans."),
    // a comparison of numerics on SQLite, exact (-1, 0, 1: admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_numeric_cmp", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the comparison itself, e.g. SELECT id FROM spans WHERE id / 7.0 > 3."),
    // one text per numeric value, for x IN (SELECT y ...) of exact numerics on SQLite
    // (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_numeric_key", Scalar, Text, Growth::Fixed,
                "FIX: on PostgreSQL, write the membership itself, e.g. SELECT 1 IN (SELECT 1.0 / 3 * 3)."),
    // a numeric literal a double does not hold exactly, as printed for SQLite (admission/render/render_expr.cpp).
    sqlite_only("pg_numeric_literal", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the number itself, e.g. SELECT id FROM spans WHERE cost_usd = 0.005754."),
    // a derived table's exact numeric column read as a double on SQLite (admit/numeric_scale_on_sqlite.cpp).
    sqlite_only("pg_numeric_value", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the column itself, e.g. SELECT v FROM (SELECT 1.0 / 3 AS v) AS s."),
    // an exact numeric held as its decimal text on SQLite, compared by value under the pg_numeric collation
    // (admit/numeric_scale_on_sqlite.cpp, executors/sqlite/sqlite_decimals.cpp).
    sqlite_only("pg_numeric_decimal", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the value itself, e.g. SELECT DISTINCT id / 3.0 FROM spans."),
    sqlite_only("pg_numeric_greatest", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write greatest(a, b), e.g. SELECT greatest(id / 3.0, 1) FROM spans."),
    sqlite_only("pg_numeric_least", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write least(a, b), e.g. SELECT least(id / 3.0, 1) FROM spans."),
    sqlite_only("pg_numeric_collate", Scalar, LikeArguments, Growth::Within,
                "FIX: on PostgreSQL, write the value itself, e.g. SELECT DISTINCT id / 3.0 FROM spans."),
    // x COLLATE pg_interval: a computed interval compared as PostgreSQL compares intervals on SQLite
    // (admit/time_types.cpp, executors/sqlite/sqlite_time.cpp).
    sqlite_only("pg_interval_collate", Scalar, LikeArguments, Growth::Within,
                "FIX: on PostgreSQL, write the value itself, e.g. SELECT DISTINCT end_time - start_time FROM spans."),
    // x << n, x >> n of an integer on SQLite, within the type's bits (admit/numbers_on_sqlite.cpp).
    sqlite_only("pg_shift", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write the shift itself, e.g. SELECT 1 << 4."),
    sqlite_only("pg_mod", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write mod(x, y)."),
    sqlite_only("pg_ascii", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write ascii(x)."),
    sqlite_only("pg_octet_length", Scalar, Number, Growth::Fixed, "FIX: on PostgreSQL, write octet_length(x)."),
    sqlite_only("pg_numeric_text", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write CAST(x AS text)."),
    // A float8 / boolean as PostgreSQL writes it into text, on SQLite (executors/sqlite/sqlite_values.cpp).
    sqlite_only("pg_float8_text", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write CAST(x AS text)."),
    sqlite_only("pg_bool_text", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write CAST(x AS text)."),
    sqlite_only("pg_bool", Scalar, Boolean, Growth::Fixed, "FIX: on PostgreSQL, write CAST(x AS boolean)."),
    sqlite_only("pg_greatest", Scalar, LikeArguments, Growth::Within, "FIX: on PostgreSQL, write greatest(a, b)."),
    sqlite_only("pg_least", Scalar, LikeArguments, Growth::Within, "FIX: on PostgreSQL, write least(a, b)."),
    // ---- JSON
    sqlite_only("json", Scalar, Text, Growth::Within, kSqliteOnlyJsonValid),
    pg_rewrite("json_extract", Scalar, Text, Growth::Within, "dialect:json_extract"),
    sqlite_only("json_type", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write jsonb_typeof(col -> 'key')."),
    sqlite_only("json_valid", Scalar, Number, Growth::Fixed, kSqliteOnlyJsonValid),
    // json_array_length(x) exists on both (PostgreSQL's takes json: cast text with CAST(x AS json)).
    both("json_array_length", Scalar, Number, Growth::Fixed),
    sqlite_only("json_array", Scalar, Text, Growth::Escape, "FIX: on PostgreSQL, write jsonb_build_array(...)."),
    sqlite_only("json_object", Scalar, Text, Growth::Escape, "FIX: on PostgreSQL, write jsonb_build_object(...)."),
    sqlite_only("json_quote", Scalar, Text, Growth::Escape, "FIX: on PostgreSQL, write to_jsonb(x)."),
    // On SQLite literal keys become an arrow chain (admit/json_on_sqlite.cpp).
    sqlite_rewrite("jsonb_extract_path_text", Scalar, Text, Growth::Within, "dialect:json-path-chain"),
    pg_only("json_extract_path_text", Scalar, Text, Growth::Within, kNoSqliteJsonb),
    sqlite_rewrite("jsonb_extract_path", Scalar, Text, Growth::Double, "dialect:json-path-chain"),
    sqlite_only("pg_jsonb_exists", Scalar, Boolean, Growth::Fixed,
                "FIX: on PostgreSQL, write attributes ? 'key' (or attributes -> 'key' IS NOT NULL for an object)."),
    // PostgreSQL's ->> text, jsonb's output form and an integer index's array on SQLite
    // (executors/sqlite/sqlite_json.cpp; render/render_expr.cpp prints x ->> k and x -> 0 with them).
    sqlite_only("pg_jsonb_text", Scalar, Text, Growth::Double, "FIX: on PostgreSQL, write attributes ->> 'key'."),
    sqlite_only("pg_jsonb_out", Scalar, Text, Growth::Double, "FIX: on PostgreSQL, write CAST(attributes AS text)."),
    // CAST(text AS jsonb) on SQLite (admit/json_on_sqlite.cpp).
    sqlite_only("pg_jsonb_in", Scalar, Text, Growth::Double,
                "FIX: on PostgreSQL, write the cast itself: CAST('{\"a\": 1}' AS jsonb)."),
    sqlite_only("pg_jsonb_get", Scalar, Text, Growth::Double, "FIX: on PostgreSQL, write attributes -> 'key'."),
    sqlite_only("pg_jsonb_array", Scalar, Text, Growth::Within, "FIX: on PostgreSQL, write attributes -> 0."),
    sqlite_rewrite("jsonb_typeof", Scalar, Text, Growth::Fixed, "dialect:jsonb_typeof"),
    sqlite_rewrite("jsonb_array_length", Scalar, Number, Growth::Fixed, "dialect:jsonb_array_length"),
    // jsonb_typeof / jsonb_array_length on SQLite (admit/json_on_sqlite.cpp, executors/sqlite/sqlite_json.cpp).
    sqlite_only("pg_jsonb_typeof", Scalar, Text, Growth::Fixed, "FIX: on PostgreSQL, write jsonb_typeof(x)."),
    sqlite_only("pg_jsonb_array_length", Scalar, Number, Growth::Fixed,
                "FIX: on PostgreSQL, write jsonb_array_length(x)."),
    pg_only("jsonb_build_object", Scalar, Text, Growth::Escape, "FIX: on SQLite, write json_object(...)."),
    pg_only("jsonb_build_array", Scalar, Text, Growth::Escape, "FIX: on SQLite, write json_array(...)."),
    pg_only("to_jsonb", Scalar, Text, Growth::Escape, "FIX: on SQLite, write json_quote(x)."),
    // ---- set-returning: they multiply rows, and neither engine has them in the select list alike
    neither("jsonb_object_keys", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("json_object_keys", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("jsonb_each", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("jsonb_each_text", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("json_each", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("json_each_text", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("json_tree", SetReturning, Text, kSetKeysSqlite, kSetKeysPg),
    neither("jsonb_array_elements", SetReturning, Text, kSetElementsSqlite, kSetElementsPg),
    neither("jsonb_array_elements_text", SetReturning, Text, kSetElementsSqlite, kSetElementsPg),
    neither("json_array_elements", SetReturning, Text, kSetElementsSqlite, kSetElementsPg),
    neither("json_array_elements_text", SetReturning, Text, kSetElementsSqlite, kSetElementsPg),
    neither("unnest", SetReturning, Text, kUnnest, kUnnest),
    // ---- never: engine state, files, sleeps, locks, sequences, generators, dynamic SQL
    never("load_extension", kNeverFiles),
    never("readfile", kNeverFiles),
    never("writefile", kNeverFiles),
    never("edit", kNeverFiles),
    never("fts3_tokenizer", kNeverFiles),
    never("pg_read_file", kNeverFiles),
    never("pg_read_binary_file", kNeverFiles),
    never("pg_ls_dir", kNeverFiles),
    never("pg_stat_file", kNeverFiles),
    never("lo_import", kNeverFiles),
    never("lo_export", kNeverFiles),
    never("lo_get", kNeverFiles),
    never("lo_open", kNeverFiles),
    never("dblink", kNeverFiles),
    never("dblink_exec", kNeverFiles),
    never("query_to_xml", kNeverFiles),
    never("pg_sleep", kNeverSleep),
    never("pg_sleep_for", kNeverSleep),
    never("pg_sleep_until", kNeverSleep),
    never("pg_advisory_lock", kNeverSession),
    never("pg_advisory_xact_lock", kNeverSession),
    never("pg_try_advisory_lock", kNeverSession),
    never("pg_terminate_backend", kNeverSession),
    never("pg_cancel_backend", kNeverSession),
    never("pg_reload_conf", kNeverSession),
    never("set_config", kNeverSession),
    never("current_setting", kNeverSession),
    never("nextval", kNeverSession),
    never("setval", kNeverSession),
    never("currval", kNeverSession),
    never("lastval", kNeverSession),
    never("pg_notify", kNeverSession),
    never("txid_current", kNeverSession),
    never("version", kNeverSession),
    never("current_database", kNeverSession),
    never("current_schema", kNeverSession),
    never("inet_server_addr", kNeverSession),
    never("pg_backend_pid", kNeverSession),
    never("has_table_privilege", kNeverSession),
    never("pg_get_userbyid", kNeverSession),
    never("pg_typeof", kNeverSession),
    never("sqlite_version", kNeverSession),
    never("sqlite_source_id", kNeverSession),
    never("sqlite_compileoption_used", kNeverSession),
    never("sqlite_compileoption_get", kNeverSession),
    never("sqlite_offset", kNeverSession),
    never("changes", kNeverSession),
    never("total_changes", kNeverSession),
    never("last_insert_rowid", kNeverSession),
    never("randomblob", kNeverBlob),
    never("zeroblob", kNeverBlob),
    // A calendar to LEFT JOIN totals onto (so empty months show 0) is ordinary analytics. Each
    // row is small; how many there are is bounded by the deadline (statement_timeout), and a
    // materialised CTE by work_mem and the role's temp_file_limit (the posture check warns
    // when that is unlimited). SQLite has no series function in the library.
    pg_only("generate_series", Scalar, LikeArguments, Growth::Rows,
            "FIX: on SQLite there is no series generator: GROUP BY strftime('%Y-%m', t) over the existing rows (months "
            "without rows are absent), or list the periods with SELECT '2026-09' AS m UNION ALL SELECT '2026-10'."),
};

constexpr std::string_view kJsonPgArrow =
    "FIX: on PostgreSQL, col -> 'key' returns json and col ->> 'key' returns text.";

constexpr std::array kOperators{
    OperatorCapability{"=", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{"<>", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{"!=", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{"<", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{">", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{"<=", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{">=", Boolean, Growth::Fixed, admit(), admit()},
    OperatorCapability{"+", LikeArguments, Growth::Within, admit(), admit(), /*prefix=*/true},
    OperatorCapability{"-", LikeArguments, Growth::Within, admit(), admit(), /*prefix=*/true},
    OperatorCapability{"*", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"/", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"%", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"||", Text, Growth::Within, admit(), admit()},
    OperatorCapability{"->", Text, Growth::Double, admit(), admit()},
    OperatorCapability{"->>", Text, Growth::Within, admit(), admit()},
    // On SQLite a literal path of keys becomes an arrow chain (admit/json_on_sqlite.cpp).
    OperatorCapability{"#>", Text, Growth::Double, rewrite("dialect:json-path-chain"), admit()},
    OperatorCapability{"#>>", Text, Growth::Within, rewrite("dialect:json-path-chain"), admit()},
    OperatorCapability{"@>", Boolean, Growth::Fixed, refuse(kNoSqliteJsonb), admit()},
    OperatorCapability{"<@", Boolean, Growth::Fixed, refuse(kNoSqliteJsonb), admit()},
    OperatorCapability{"?", Boolean, Growth::Fixed, rewrite("dialect:jsonb-exists"), admit()},
    // Binary ~ is a regular-expression match; prefix ~ is PostgreSQL's bitwise NOT (refused on SQLite by
    // admit/text_on_sqlite.cpp). On SQLite a literal pattern is translated into pg_regex (common/pg_regex.hpp).
    OperatorCapability{"~", Boolean, Growth::Fixed, rewrite("dialect:regex"), admit(), /*prefix=*/true},
    OperatorCapability{"~*", Boolean, Growth::Fixed, rewrite("dialect:regex"), admit()},
    OperatorCapability{"!~", Boolean, Growth::Fixed, rewrite("dialect:regex"), admit()},
    OperatorCapability{"!~*", Boolean, Growth::Fixed, rewrite("dialect:regex"), admit()},
    OperatorCapability{"&", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"|", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"<<", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{">>", LikeArguments, Growth::Fixed, admit(), admit()},
    OperatorCapability{"==", Boolean, Growth::Fixed, rewrite("dialect:double-equals"),
                       rewrite("dialect:double-equals")},
    OperatorCapability{"::", Text, Growth::Refused, refuse(kJsonPgArrow), refuse(kJsonPgArrow)},
};

constexpr std::string_view kSqliteNoLen = "FIX: on SQLite, cast to TEXT and cut with substr(x, 1, n).";
// real (float4) on SQLite, which has doubles only: every value, sum, comparison with a numeric, set operation and
// text of a real would need a rounding to single precision (0.3::real IN (0.3) is true in PostgreSQL, 0.1::real's
// text is 0.1; outside tester s13).
constexpr std::string_view kSqliteNoFloat4 =
    "FIX: on SQLite, cast to double precision instead, e.g. SELECT CAST(cost_usd AS double precision) FROM spans "
    "(SQLite has no single-precision float).";
constexpr std::string_view kPgOnlyJsonType = "FIX: on SQLite, JSON is TEXT: write json(x) to normalise it.";

constexpr std::array kCasts{
    CastCapability{"int2", Number, admit(), admit()},
    CastCapability{"int4", Number, admit(), admit()},
    CastCapability{"int8", Number, admit(), admit()},
    CastCapability{"float4", Number, refuse(kSqliteNoFloat4), admit()},
    CastCapability{"float8", Number, admit(), admit()},
    CastCapability{"numeric", Number, admit(), admit()},
    CastCapability{"text", Text, admit(), admit()},
    CastCapability{"varchar", Text, refuse(kSqliteNoLen), admit()},
    CastCapability{"bpchar", Text, refuse(kSqliteNoLen), admit()},
    CastCapability{"bool", Boolean, rewrite("dialect:bool-cast"), admit()},
    CastCapability{"date", Text, rewrite("dialect:time-cast"), admit()},
    CastCapability{"timestamp", Text, rewrite("dialect:time-cast"), admit()},
    CastCapability{"timestamptz", Text, rewrite("dialect:time-cast"), admit()},
    CastCapability{"time", Text, rewrite("dialect:time-cast"), admit()},
    CastCapability{"interval", Text, rewrite("dialect:time-cast"), admit()},
    CastCapability{"json", Text, refuse(kPgOnlyJsonType), admit()},
    CastCapability{"jsonb", Text, rewrite("dialect:jsonb-cast"), admit()},
    CastCapability{"uuid", Text,
                   refuse("FIX: on SQLite, UUIDs are stored as TEXT: drop the cast and compare the text, e.g. "
                          "lower(x) = lower('<uuid>')."),
                   admit()},
};

// Functions SQLite's code generator calls for admitted constructs that are not
// calls of a table function; the authorizer sees them as function calls.
constexpr std::array kSqliteEngineFunctions{
    EngineFunction{"like", "LIKE / NOT LIKE / LIKE ... ESCAPE, and ILIKE rewritten to lower(x) LIKE"},
    EngineFunction{"->", "the JSON arrow operator col -> '$.key' (SQLite >= 3.38)"},
    EngineFunction{"->>", "the JSON arrow operator col ->> '$.key' (SQLite >= 3.38)"},
    EngineFunction{"coalesce", "COALESCE(...)"},
    EngineFunction{"nullif", "NULLIF(a, b)"},
    EngineFunction{"current_date", "CURRENT_DATE"},
    EngineFunction{"current_time", "CURRENT_TIME"},
    EngineFunction{"current_timestamp", "CURRENT_TIMESTAMP"},
    EngineFunction{"likely", "a fenced row filter, likely(filter): the planner's row estimate (render_from.cpp)"},
};

// Functions PostgreSQL's plans show for admitted constructs that are not
// written as calls of that name: the deparser prints SQL-standard syntax as
// the function it compiles to, and the plan gate must recognise them.
constexpr std::array kPostgresEngineFunctions{
    EngineFunction{"like_escape", "LIKE ... ESCAPE with a pattern that is not a constant"},
    EngineFunction{"similar_to_escape", "SIMILAR TO with a pattern that is not a constant"},
    // The row sources in FROM (admit/json_rows.cpp): a Function Scan names them.
    EngineFunction{"jsonb_each", "jsonb_each(x) AS e in FROM"},
    EngineFunction{"jsonb_each_text", "jsonb_each_text(x) AS e in FROM"},
    EngineFunction{"jsonb_object_keys", "jsonb_object_keys(x) AS k in FROM"},
    EngineFunction{"jsonb_array_elements", "jsonb_array_elements(x) AS e in FROM"},
    EngineFunction{"jsonb_array_elements_text", "jsonb_array_elements_text(x) AS e in FROM"},
};

}  // namespace

std::span<const EngineFunction> postgres_engine_functions() {
  return kPostgresEngineFunctions;
}

std::set<std::string> postgres_plan_functions() {
  std::set<std::string> out;
  for (const auto& row : kFunctions)
    if (row.postgres.verdict == Verdict::Admit) out.emplace(row.name);
  for (const auto& f : kPostgresEngineFunctions) out.emplace(f.name);
  return out;
}

std::span<const ConstructCapability> constructs() {
  return kConstructs;
}
std::span<const FunctionCapability> functions() {
  return kFunctions;
}
std::span<const OperatorCapability> operators() {
  return kOperators;
}
std::span<const CastCapability> casts() {
  return kCasts;
}
std::span<const EngineFunction> sqlite_engine_functions() {
  return kSqliteEngineFunctions;
}

const Cell& cell(const ConstructCapability& r, Dialect d) {
  return d == Dialect::Sqlite ? r.sqlite : r.postgres;
}
const Cell& cell(const FunctionCapability& r, Dialect d) {
  return d == Dialect::Sqlite ? r.sqlite : r.postgres;
}
const Cell& cell(const OperatorCapability& r, Dialect d) {
  return d == Dialect::Sqlite ? r.sqlite : r.postgres;
}
const Cell& cell(const CastCapability& r, Dialect d) {
  return d == Dialect::Sqlite ? r.sqlite : r.postgres;
}

const ConstructCapability& find(Construct c) {
  const auto i = static_cast<std::size_t>(c);
  assert(i < kConstructs.size() && "Construct::Count is not a construct");
  return kConstructs[i];  // rows are in enum order (static_assert above)
}

const FunctionCapability* find_function(std::string_view n) {
  for (const auto& row : kFunctions)
    if (row.name == n) return &row;
  return nullptr;
}

const OperatorCapability* find_operator(std::string_view op) {
  for (const auto& row : kOperators)
    if (row.op == op) return &row;
  return nullptr;
}

const CastCapability* find_cast(std::string_view type) {
  for (const auto& row : kCasts)
    if (row.type == type) return &row;
  return nullptr;
}

std::set<std::string> sqlite_authorizer_functions() {
  std::set<std::string> out;
  for (const auto& row : kFunctions)
    if (row.sqlite.verdict == Verdict::Admit) out.emplace(row.name);
  for (const auto& f : kSqliteEngineFunctions) out.emplace(f.name);
  return out;
}

bool row_source_in_from(std::string_view name) {
  static constexpr std::string_view kRowSources[] = {"jsonb_each", "jsonb_each_text", "jsonb_object_keys",
                                                     "jsonb_array_elements", "jsonb_array_elements_text"};
  return std::find(std::begin(kRowSources), std::end(kRowSources), name) != std::end(kRowSources);
}

std::vector<std::string> admitted_function_names(Dialect d) {
  std::vector<std::string> out;
  for (const auto& row : kFunctions)
    if (cell(row, d).verdict == Verdict::Admit) out.emplace_back(row.name);
  return out;
}

}  // namespace qg::capability
