// The lineage oracle: an untrusted value must never come back in a column that
// is not flagged. A seeded generator writes expressions over the demo's
// untrusted columns (span_annotations.explanation, spans.attributes, the
// virtual spans.model_name) with every function and operator the capability
// table admits on the backend, nested, and places them in every position
// lineage must walk (select list, scalar subqueries, VALUES rows as a query and
// in FROM, CTEs, derived tables, set-operation branches, window arguments,
// partitions, orders and frames, named windows, aggregate FILTER and ORDER BY,
// ordered-set sort keys, merged USING columns, LATERAL). Each statement goes
// through the real pipeline and the real executor (the SQLite demo file, the
// test cluster's `demo` database on PostgreSQL); the test fails when a returned
// text cell holds 16 or more consecutive bytes of an untrusted source value
// (collected first with direct queries) that no trusted value of the same rows
// also holds, while its column is not flagged. Refusals are fine: they return
// nothing.
//
// The capability table's result declarations are checked here too, on both
// engines: every function, operator and cast declared Number or Boolean (the
// only ones lineage lets measure untrusted text unflagged) returns numbers,
// booleans or NULL over the untrusted columns.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "admission/capability/capability.hpp"
#include "admission/pipeline.hpp"
#include "tests/integration/leak_detector.hpp"
#include "tests/integration/pg_demo.hpp"
#include "tests/integration/test_support.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::testing {
namespace {

constexpr int kStatementsPerBackend = 6000;
constexpr std::uint32_t kSeed = 20261201;

// JSON text holds its strings escaped; the functions that read it return them unescaped.
void add_json_strings(const boost::json::value& v, LeakDetector& d) {
  if (v.is_string()) d.add_untrusted(std::string_view(v.as_string()));
  if (v.is_array())
    for (const auto& x : v.as_array()) add_json_strings(x, d);
  if (v.is_object())
    for (const auto& [k, x] : v.as_object()) {
      d.add_untrusted(std::string_view(k));
      add_json_strings(x, d);
    }
}

// How to fill a function's arguments. x: an expression (recursive); n: a small
// number; m: a numeric expression (may measure untrusted text); d: a time; j: a
// JSON path or key; J: a JSON value (PostgreSQL jsonb); l: a short literal;
// b: a condition. Functions written in keyword form have their own templates.
struct Signature {
  std::string_view name;
  std::string_view args;
};
constexpr Signature kSignatures[] = {
    {"avg", "m"},
    {"count", "x"},
    {"max", "x"},
    {"min", "x"},
    {"sum", "m"},
    {"total", "m"},
    {"group_concat", "xl"},
    {"string_agg", "xl"},
    {"json_group_array", "x"},
    {"json_group_object", "xx"},
    {"json_agg", "x"},
    {"jsonb_agg", "x"},
    {"json_object_agg", "xx"},
    {"jsonb_object_agg", "xx"},
    {"array_agg", "x"},
    {"bool_and", "b"},
    {"bool_or", "b"},
    {"every", "b"},
    {"stddev", "m"},
    {"stddev_samp", "m"},
    {"stddev_pop", "m"},
    {"variance", "m"},
    {"var_samp", "m"},
    {"var_pop", "m"},
    {"corr", "mm"},
    {"covar_pop", "mm"},
    {"covar_samp", "mm"},
    {"regr_slope", "mm"},
    {"regr_intercept", "mm"},
    {"percentile", "mn"},
    {"median", "m"},
    {"row_number", ""},
    {"rank", ""},
    {"dense_rank", ""},
    {"percent_rank", ""},
    {"cume_dist", ""},
    {"ntile", "n"},
    {"lag", "x"},
    {"lead", "xn"},
    {"first_value", "x"},
    {"last_value", "x"},
    {"nth_value", "xn"},
    {"abs", "m"},
    {"round", "m"},
    {"ceil", "m"},
    {"ceiling", "m"},
    {"floor", "m"},
    {"trunc", "m"},
    {"sign", "m"},
    {"sqrt", "m"},
    {"exp", "n"},
    {"ln", "m"},
    {"log", "m"},
    {"log10", "m"},
    {"power", "mn"},
    {"pow", "mn"},
    {"mod", "mn"},
    {"pi", ""},
    {"degrees", "m"},
    {"radians", "m"},
    {"sin", "m"},
    {"cos", "m"},
    {"tan", "m"},
    {"asin", "n"},
    {"acos", "n"},
    {"atan", "m"},
    {"atan2", "mm"},
    {"log2", "m"},
    {"random", ""},
    {"length", "x"},
    {"char_length", "x"},
    {"octet_length", "x"},
    {"lower", "x"},
    {"upper", "x"},
    {"substr", "xnn"},
    {"substring", "xnn"},
    {"replace", "xlx"},
    {"trim", "x"},
    {"ltrim", "x"},
    {"rtrim", "x"},
    {"btrim", "x"},
    {"concat", "xx"},
    {"concat_ws", "lxx"},
    {"left", "xn"},
    {"right", "xn"},
    {"strpos", "xl"},
    {"instr", "xl"},
    {"split_part", "xln"},
    {"initcap", "x"},
    {"md5", "x"},
    {"reverse", "x"},
    {"to_char", "dx"},
    {"to_date", "xx"},
    {"regexp_replace", "xlx"},
    {"regexp_match", "xl"},
    {"printf", "xx"},
    {"format", "xx"},
    {"char", "mm"},
    {"chr", "m"},
    {"unicode", "x"},
    {"ascii", "x"},
    {"hex", "x"},
    {"to_hex", "m"},
    {"soundex", "x"},
    {"typeof", "x"},
    {"ifnull", "xx"},
    {"iif", "bxx"},
    {"date", "d"},
    {"time", "d"},
    {"datetime", "dx"},
    {"julianday", "d"},
    {"unixepoch", "d"},
    {"strftime", "xd"},
    {"date_trunc", "ld"},
    {"date_part", "ld"},
    {"age", "dd"},
    {"timezone", "xd"},
    {"now", ""},
    {"to_timestamp", "m"},
    {"make_date", "nnn"},
    {"date_bin", "ldd"},
    {"json", "x"},
    {"json_extract", "xj"},
    {"json_type", "x"},
    {"json_valid", "x"},
    {"json_array_length", "x"},
    {"json_array", "xx"},
    {"json_object", "lx"},
    {"json_quote", "x"},
    {"jsonb_extract_path_text", "Jj"},
    {"json_extract_path_text", "Jj"},
    {"jsonb_extract_path", "Jj"},
    {"jsonb_typeof", "J"},
    {"jsonb_array_length", "J"},
    {"jsonb_build_object", "lx"},
    {"jsonb_build_array", "xx"},
    {"to_jsonb", "x"},
    {"generate_series", "nm"},
    // PostgreSQL's time family on SQLite (executors/sqlite/sqlite_time.cpp); literal kinds mostly fail in the engine.
    {"pg_cast", "dll"},
    {"pg_ts_diff", "ddl"},
    {"pg_ts_add", "dlnl"},
    {"pg_age", "ddl"},
    {"pg_iv_add", "xxn"},
    {"pg_iv_mul", "xm"},
    {"pg_iv_div", "xm"},
    {"pg_date_diff", "dd"},
    {"pg_date_add", "dnn"},
    {"pg_extract", "ldl"},
    {"pg_extract", "ldll"},
    {"pg_date_trunc", "ldl"},
    {"pg_to_char", "dll"},
    {"pg_timezone", "ldl"},
    {"pg_time_key", "dl"},
    {"pg_from_key", "nl"},
    {"pg_to_timestamp", "m"},
    {"pg_to_time", "xll"},
    {"pg_make_date", "nnn"},
    {"pg_iv_sum", "x"},
    {"pg_iv_avg", "x"},
    {"pg_series", "xxxl"},   // a table-valued function: as a scalar call, the engine's error
    {"pg_json_rows", "Jl"},  // json_each's argument for jsonb_each & co.; '-' names no function: the engine's error
    {"pg_number", "xl"},
    {"pg_int8", "m"},       // integer arithmetic's overflow check (a double there is "bigint out of range")
    {"pg_int4", "m"},       // int4 arithmetic's overflow check ("integer out of range")
    {"pg_int2", "m"},       // int2 arithmetic's overflow check ("smallint out of range")
    {"pg_single", "x"},     // a scalar subquery's one row (a second row is the engine's error)
    {"pg_numeric", "mnn"},  // CAST(x AS numeric(p, s)) on SQLite
    {"pg_trunc", "mn"},
    {"pg_round", "mn"},  // round(x, n) with n negative or computed, on SQLite
    {"pg_div", "mm"},
    {"pg_numeric_div", "mml"},
    {"pg_int4_arith", "mml"},
    {"pg_numeric_arith", "mmll"},
    {"pg_numeric_cmp", "mml"},     // a numeric comparison on SQLite
    {"pg_numeric_literal", "l"},   // a numeric literal on SQLite
    {"pg_numeric_value", "m"},     // a derived table's exact numeric column on SQLite
    {"pg_numeric_key", "ml"},      // x IN (SELECT y ...) of exact numerics on SQLite
    {"pg_numeric_decimal", "ml"},  // an exact numeric as collated text on SQLite
    {"pg_numeric_collate", "m"},
    {"pg_interval_collate", "m"},    // x COLLATE pg_interval on SQLite (as a call: x)
    {"pg_numeric_greatest", "mml"},  // GREATEST / LEAST of exact numerics on SQLite
    {"pg_numeric_least", "mml"},     // x COLLATE pg_numeric on SQLite (as a call: x)
    {"pg_numeric_max", "ml"},        // max / min of exact numerics on SQLite
    {"pg_numeric_min", "ml"},
    {"pg_float_sum", "m"},  // sum / avg of a float over a moving window frame on SQLite
    {"pg_float_avg", "m"},
    {"pg_shift", "mmll"},       // x << n, x >> n on SQLite
    {"pg_numeric_math", "lm"},  // numeric sqrt, exp, ln, log, power on SQLite  // numeric + - * on SQLite  // integer +
                                // - * on SQLite  // numeric a / b on SQLite (numeric_scale_on_sqlite.cpp)
    {"pg_float8",
     "m"},  // float + - * on SQLite ("value out of range: overflow")    // x / y on SQLite ("division by zero")
    {"pg_float8_mul", "mm"},  // double precision x * y on SQLite ("value out of range: underflow")
    {"pg_exact_int", "m"},    // integer_column = double in WHERE / ON on SQLite (numbers_on_sqlite.cpp)
    {"pg_mod", "mm"},         // x % y on SQLite
    {"pg_numeric_text",
     "mn"},  // a numeric of a known scale as PostgreSQL's text, on SQLite         // trunc(x, n) on SQLite
    {"pg_greatest", "xx"},      // GREATEST / LEAST on SQLite
    {"pg_least", "xx"},         //
    {"pg_jsonb_exists", "Jl"},  // x ? 'key' on SQLite
    {"pg_jsonb_text", "J"},     // x ->> k on SQLite
    {"pg_jsonb_out", "J"},      // jsonb's output form on SQLite
    {"pg_jsonb_in", "J"},       // CAST(text AS jsonb) on SQLite
    {"pg_jsonb_get", "Jl"},     // x -> 'key' on SQLite
    {"pg_jsonb_typeof", "J"},   // jsonb_typeof on SQLite
    {"pg_jsonb_array_length", "J"},
    {"pg_jsonb_array", "J"},  // x -> 0 on SQLite (a scalar as a one-element array)
    {"pg_float8_text", "m"},  // a float8 as text on SQLite
    {"pg_bool_text", "x"},    // a boolean as text on SQLite
    {"pg_bool", "xl"},        // CAST(x AS boolean) on SQLite
    // Admitted on PostgreSQL since session 7 (translated on SQLite).
    {"character_length", "x"},
    {"regexp_count", "xl"},
    {"regexp_like", "xl"},
    {"regexp_substr", "xl"},
    {"regr_avgx", "mm"},
    {"regr_avgy", "mm"},
    {"regr_count", "mm"},
    {"regr_r2", "mm"},
    {"regr_sxx", "mm"},
    {"regr_sxy", "mm"},
    {"regr_syy", "mm"},
    {"starts_with", "xl"},
    // The statistics, string_agg, ordered-set aggregates, text functions and regular expressions on SQLite.
    {"pg_var_samp", "m"},
    {"pg_var_samp_exact", "ml"},
    {"pg_var_pop", "m"},
    {"pg_var_pop_exact", "ml"},
    {"pg_stddev_samp", "m"},
    {"pg_stddev_samp_exact", "ml"},
    {"pg_stddev_pop", "m"},
    {"pg_stddev_pop_exact", "ml"},
    {"pg_numeric_sum", "ml"},  // sum / avg of a numeric of unknown scale on SQLite
    {"pg_numeric_avg", "ml"},
    {"pg_covar_pop", "mm"},
    {"pg_covar_samp", "mm"},
    {"pg_corr", "mm"},
    {"pg_regr_slope", "mm"},
    {"pg_regr_intercept", "mm"},
    {"pg_regr_r2", "mm"},
    {"pg_regr_count", "mm"},
    {"pg_regr_avgx", "mm"},
    {"pg_regr_avgy", "mm"},
    {"pg_regr_sxx", "mm"},
    {"pg_regr_syy", "mm"},
    {"pg_regr_sxy", "mm"},
    {"pg_string_agg", "xll"},
    {"pg_percentile_cont", "nmn"},
    {"pg_percentile_disc", "nxn"},
    {"pg_mode", "xn"},
    {"pg_concat", "xx"},
    {"pg_concat_ws", "lxx"},
    {"pg_left", "xn"},
    {"pg_right", "xn"},
    {"pg_split_part", "xln"},
    {"pg_strpos", "xl"},
    {"pg_initcap", "x"},
    {"pg_reverse", "x"},
    {"pg_ascii", "x"},
    {"pg_octet_length", "x"},
    {"pg_starts_with", "xl"},
    {"pg_regex", "xll"},
    {"pg_regexp_replace", "xlll"},
    {"pg_regexp_count", "xll"},
    {"pg_regexp_substr", "xll"},
    {"pg_regexp_match", "xll"},
    {"pg_array_agg", "xl"},
};
// Written in keyword form (POSITION(a IN b), EXTRACT(f FROM t)) or with WITHIN
// GROUP (the ordered-set aggregates): generated by hand below.
// GROUPING(a) takes a grouping expression of a grouped query (admit/grouping_sets_on_sqlite.cpp).
const std::set<std::string_view> kKeywordForm = {"position",        "extract", "percentile_cont",
                                                 "percentile_disc", "mode",    "grouping"};

const Signature* signature(std::string_view name) {
  for (const auto& s : kSignatures)
    if (s.name == name) return &s;
  return nullptr;
}

class Generator {
 public:
  Generator(Dialect d, std::uint32_t seed) : d_(d), rng_(seed) {
    for (const auto& f : capability::functions())
      if (capability::cell(f, d).verdict == capability::Verdict::Admit) functions_.push_back(&f);
    for (const auto& o : capability::operators())
      if (capability::cell(o, d).verdict == capability::Verdict::Admit) operators_.push_back(&o);
    for (const auto& c : capability::casts())
      if (capability::cell(c, d).verdict == capability::Verdict::Admit) casts_.push_back(c.type);
  }
  bool pg() const { return d_ == Dialect::Postgres; }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }

  // An untrusted leaf, or now and then a trusted one, over aliases a (span_annotations) and s (spans).
  std::string leaf() {
    static const char* const kSqlite[] = {
        "a.explanation", "a.explanation", "s.attributes", "s.model_name", "s.attributes ->> '$.\"input.value\"'",
        "a.label",       "'lit'",         "a.score"};
    static const char* const kPg[] = {"a.explanation",
                                      "a.explanation",
                                      "CAST(s.attributes AS text)",
                                      "s.model_name",
                                      "s.attributes ->> 'input.value'",
                                      "s.attributes ->> 'output.value'",
                                      "a.label",
                                      "'lit'"};
    return pg() ? kPg[pick(8)] : kSqlite[pick(8)];
  }
  std::string json() {
    if (!pg()) return expr(1);
    switch (pick(3)) {
      case 0:
        return "s.attributes";
      case 1:
        return "to_jsonb(" + expr(1) + ")";
      default:
        return "(s.attributes - 'llm.model_name')";
    }
  }
  std::string number(int depth) {
    switch (pick(4)) {
      case 0:
        return std::to_string(1 + pick(3));
      case 1:
        return "length(" + expr(depth) + ")";
      case 2:
        return pg() ? "strpos(" + expr(depth) + ", 'e')" : "instr(" + expr(depth) + ", 'e')";
      default:
        return pg() ? "ascii(" + expr(depth) + ")" : "unicode(" + expr(depth) + ")";
    }
  }
  std::string condition(int depth) {
    switch (pick(4)) {
      case 0:
        return expr(depth) + " LIKE '%e%'";
      case 1:
        return expr(depth) + " IS NOT NULL";
      case 2:
        return "length(" + expr(depth) + ") > 20";
      default:
        return expr(depth) + " = 'x'";
    }
  }
  std::string time() {
    if (chance(50)) return pg() ? "now()" : "'2026-01-01 10:00:00'";
    return pg() ? "a.created_at" : "a.created_at";
  }
  std::string argument(char kind, int depth) {
    switch (kind) {
      case 'x':
        return expr(depth);
      case 'n':
        return std::to_string(1 + pick(3));
      case 'm':
        return number(depth);
      case 'd':
        return time();
      case 'j':
        return pg() ? "'input.value'" : "'$.\"input.value\"'";
      case 'J':
        return json();
      case 'l':
        return pg() ? "'day'" : "'-'";
      case 'b':
        return condition(depth);
    }
    return "NULL";
  }
  // A scalar expression of at most `depth` more levels.
  std::string expr(int depth) {
    if (depth <= 0 || chance(20)) return leaf();
    const int d = depth - 1;
    switch (pick(12)) {
      case 0:
      case 1:
      case 2:
      case 3: {  // a scalar function
        std::vector<const capability::FunctionCapability*> scalars;
        for (const auto* f : functions_)
          if (f->kind == capability::FunctionKind::Scalar) scalars.push_back(f);
        const auto* f = scalars[pick(static_cast<int>(scalars.size()))];
        return call(*f, d);
      }
      case 4:
      case 5: {  // an operator
        const auto* o = operators_[pick(static_cast<int>(operators_.size()))];
        return op(*o, d);
      }
      case 6:
        return "CASE WHEN " + condition(d) + " THEN " + expr(d) + " ELSE " + expr(d) + " END";
      case 7:
        return "coalesce(" + expr(d) + ", " + expr(d) + ")";
      case 8:
        return "nullif(" + expr(d) + ", 'x')";
      case 9: {
        const auto& type = casts_[pick(static_cast<int>(casts_.size()))];
        return "CAST(" + expr(d) + " AS " + std::string(type == "bpchar" ? "char(40)" : type) + ")";
      }
      case 10:
        // A correlated scalar subquery; VALUES as its FROM item.
        return chance(50) ? "(SELECT " + expr(d) + ")" : "(SELECT v.column1 FROM (VALUES (" + expr(d) + ")) AS v)";
      default:
        return pg() && chance(50) ? "greatest(" + expr(d) + ", 'a')" : "(" + expr(d) + " || '')";
    }
  }
  std::string call(const capability::FunctionCapability& f, int d) {
    if (f.name == "position") return "position('e' IN " + expr(d) + ")";
    if (f.name == "extract") return "extract(epoch FROM " + time() + ")";
    const Signature* sig = signature(f.name);
    if (!sig) return "NULL";  // the test below fails on functions with no signature
    std::string out = f.name == "char" ? "\"char\"(" : std::string(f.name) + "(";
    for (std::size_t i = 0; i < sig->args.size(); ++i) out += (i ? ", " : "") + argument(sig->args[i], d);
    return out + ")";
  }
  std::string op(const capability::OperatorCapability& o, int d) {
    const std::string name(o.op);
    if (o.prefix && chance(30)) return "(" + name + " " + (name == "+" ? expr(d) : number(d)) + ")";
    if (name == "->" || name == "->>") return "(" + json() + " " + name + " " + argument('j', d) + ")";
    if (name == "#>" || name == "#>>") return "(" + json() + " " + name + " '{input.value}')";
    if (name == "@>" || name == "<@") return "(" + json() + " " + name + " " + json() + ")";
    if (name == "?") return "(" + json() + " ? 'input.value')";
    if (name == "-" && pg() && chance(30)) return "(" + json() + " - " + (chance(50) ? "'x'" : "0") + ")";
    if (name == "+" || name == "-" || name == "*" || name == "/" || name == "%" || name == "&" || name == "|" ||
        name == "<<" || name == ">>")
      return "(" + number(d) + " " + name + " " + number(d) + ")";
    return "(" + expr(d) + " " + name + " " + expr(d) + ")";
  }
  std::string aggregate_or_window(int depth) {
    std::vector<const capability::FunctionCapability*> list;
    for (const auto* f : functions_)
      if (f->kind != capability::FunctionKind::Scalar && signature(f->name)) list.push_back(f);
    const auto* f = list[pick(static_cast<int>(list.size()))];
    std::string out = call(*f, depth);
    if (f->kind == capability::FunctionKind::Window || (chance(30) && f->name != "percentile" && f->name != "median")) {
      out += " OVER (";
      if (chance(50)) out += "PARTITION BY " + expr(depth) + " ";
      out += "ORDER BY " + (chance(50) ? expr(depth) : std::string("a.id"));
      if (chance(30)) out += " ROWS BETWEEN " + std::to_string(1 + pick(2)) + " PRECEDING AND CURRENT ROW";
      out += ")";
      return out;
    }
    if (chance(40)) {
      out.pop_back();
      out += ") FILTER (WHERE " + condition(depth) + ")";
    }
    return out;
  }

  // A whole statement: the expression placed in one of the positions lineage
  // walks; `position` names it for the report.
  std::string statement(const std::string& rows, std::string& position) {
    static const char* const kPositions[] = {"select list",      "select list",  "scalar subquery",    "VALUES query",
                                             "VALUES in FROM",   "CTE",          "derived table",      "set operation",
                                             "aggregate/window", "named window", "USING (RIGHT)",      "USING (FULL)",
                                             "CASE result",      "WITHIN GROUP", "aggregate ORDER BY", "LATERAL"};
    const std::string from = "span_annotations a JOIN spans s ON s.id = a.span_id WHERE " + rows;
    const int depth = 2 + pick(3);  // 2..4 levels below the position
    const std::string e = expr(depth);
    const int which = pick(pg() ? 16 : 13);
    position = kPositions[which];
    switch (which) {
      case 0:
      case 1:
        return "SELECT " + e + " AS v FROM " + from;
      case 2:
        return "SELECT (SELECT " + e + " FROM " + from + " ORDER BY a.id LIMIT 1) AS v";
      case 3:
        return "VALUES ((SELECT " + e + " FROM " + from + " ORDER BY a.id LIMIT 1))";
      case 4:
        return "SELECT v.column1 FROM (VALUES ('x'), ((SELECT " + e + " FROM " + from +
               " ORDER BY a.id LIMIT 1))) AS v";
      case 5:
        return "WITH c AS (SELECT " + e + " AS v FROM " + from + ") SELECT v FROM c";
      case 6:
        return "SELECT d.v FROM (SELECT " + e + " AS v FROM " + from + ") AS d";
      case 7:
        return "SELECT 'x' AS v UNION ALL SELECT * FROM (SELECT " + e + " AS v FROM " + from + ") AS d";
      case 8:
        return "SELECT " + aggregate_or_window(depth) + " AS v FROM " + from;
      case 9:
        return "SELECT first_value(" + e + ") OVER w AS v FROM " + from + " WINDOW w AS (PARTITION BY " + expr(depth) +
               " ORDER BY a.id)";
      case 10:
      case 11: {
        const char* join = which == 10 ? "RIGHT" : "FULL";
        const std::string select = pick(2) ? "*" : "v";
        return "SELECT " + select + " FROM (SELECT 'x' AS v) AS t " + join + " JOIN (SELECT " + e + " AS v FROM " +
               from + ") AS u USING (v)";
      }
      case 12:
        return "SELECT CASE WHEN " + condition(depth) + " THEN " + e + " END AS v FROM " + from;
      case 13: {
        static const char* const kOrderedSet[] = {"mode()", "percentile_disc(0.5)", "percentile_cont(0.5)"};
        // percentile_cont needs a number (or an interval) to interpolate.
        const int which = pick(3);
        return std::string("SELECT ") + kOrderedSet[which] + " WITHIN GROUP (ORDER BY " +
               (which == 2 ? number(depth) : e) + ") AS v FROM " + from;
      }
      case 14:
        return "SELECT string_agg(a.label, ',' ORDER BY " + e + ") AS v FROM " + from;
      default:
        return "SELECT x.v FROM span_annotations o, LATERAL (SELECT " + e + " AS v FROM " + from +
               " AND a.id = o.id) AS x WHERE o.id < 200";
    }
  }

 private:
  Dialect d_;
  std::mt19937 rng_;
  std::vector<const capability::FunctionCapability*> functions_;
  std::vector<const capability::OperatorCapability*> operators_;
  std::vector<std::string_view> casts_;
};

struct Backend {
  Dialect dialect;
  exec::Executor& executor;
  const catalog::Catalog& catalog;
};

Result<exec::Rows> run_direct(exec::Executor& executor, const std::string& sql) {
  return executor.run(sql,
                      exec::RunOptions{.max_rows = 100000, .deadline = exec::Clock::now() + std::chrono::seconds(30)});
}

std::string cell_text(const exec::Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* b = std::get_if<exec::Blob>(&v)) return b->bytes;
  // An array (array_agg, regexp_match): every element's text, each apart, as the agent reads them.
  if (const auto* a = std::get_if<exec::Array>(&v)) {
    std::string out;
    for (const auto& item : a->items) out += cell_text(item) + "\n";
    return out;
  }
  return {};
}

// The rows every generated statement reads: annotations with distinct
// explanations (feedback and injections among them), and their spans.
Result<std::string> chosen_rows(exec::Executor& executor) {
  auto ids = run_direct(executor,
                        "SELECT min(id) FROM span_annotations WHERE explanation IS NOT NULL GROUP BY explanation "
                        "ORDER BY 1 LIMIT 40");
  if (!ids) return ids.error();
  std::string list;
  for (const auto& row : ids->rows) {
    const auto* id = std::get_if<std::int64_t>(&row[0]);
    if (id) list += (list.empty() ? "" : ", ") + std::to_string(*id);
  }
  return "a.id IN (" + list + ")";
}

Status collect_sources(exec::Executor& executor, const std::string& rows, LeakDetector& d) {
  auto untrusted = run_direct(executor,
                              "SELECT a.explanation, CAST(s.attributes AS text) FROM span_annotations a JOIN "
                              "spans s ON s.id = a.span_id WHERE " +
                                  rows);
  if (!untrusted) return untrusted.error();
  for (const auto& row : untrusted->rows) {
    d.add_untrusted(cell_text(row[0]));
    const std::string attributes = cell_text(row[1]);
    d.add_untrusted(attributes);
    boost::system::error_code ec;
    auto parsed = boost::json::parse(attributes, ec);
    if (!ec) add_json_strings(parsed, d);
  }
  auto trusted = run_direct(executor,
                            "SELECT a.id, a.span_id, a.annotator_kind, a.label, a.score, a.created_at, s.trace_id, "
                            "s.parent_id, s.name, s.kind, s.status, s.start_time, s.end_time, s.cost_usd FROM "
                            "span_annotations a JOIN spans s ON s.id = a.span_id WHERE " +
                                rows);
  if (!trusted) return trusted.error();
  for (const auto& row : trusted->rows)
    for (const auto& v : row) d.add_trusted(cell_text(v));
  return {};
}

struct Tally {
  int generated = 0, admitted = 0, executed = 0, engine_errors = 0, leaks = 0;  // leaks: statements
  int error_leaks = 0;  // engine errors whose message or FIX quotes untrusted text
  std::map<std::string, int> leaks_by_position;
};

void run_oracle(const Backend& b, Tally& t) {
  auto rows = chosen_rows(b.executor);
  ASSERT_TRUE(rows) << rows.error().message;
  LeakDetector detector;
  auto collected = collect_sources(b.executor, *rows, detector);
  ASSERT_TRUE(collected) << collected.error().message;
  ASSERT_GT(detector.size(), 1000u) << "too few untrusted windows: the oracle could not see a leak";
  // The engines' own words in their errors (type names) are not the data's,
  // even where the data says the same ("a timestamp with an offset").
  for (const char* words : {" timestamp with time zone", " timestamp without time zone", " time with time zone",
                            " time without time zone", " double precision", " character varying"})
    detector.add_trusted(words);
  Generator gen(b.dialect, kSeed);
  config::Limits limits;
  for (int i = 0; i < kStatementsPerBackend; ++i) {
    std::string position;
    const std::string sql = gen.statement(*rows, position);
    ++t.generated;
    auto st = admit_statement(sql, b.catalog, limits, 50);
    if (!st) continue;
    ++t.admitted;
    auto result = b.executor.run(
        st->sql, exec::RunOptions{.max_rows = 51, .deadline = exec::Clock::now() + std::chrono::seconds(5)});
    if (!result) {
      ++t.engine_errors;  // type errors, invalid JSON, domain errors: no rows, but the engine's words
      const std::string leaked = detector.leak(result.error().message + "\n" + result.error().fix);
      if (leaked.empty()) continue;
      ++t.error_leaks;
      if (t.error_leaks <= 12)
        ADD_FAILURE() << "[" << dialect_name(b.dialect) << "] UNTRUSTED TEXT IN AN ERROR (" << position << "): \""
                      << leaked << "\"\n  message: " << result.error().message << "\n  sql: " << sql;
      continue;
    }
    ++t.executed;
    std::string leaked;
    std::size_t column = 0;
    for (const auto& row : result->rows)
      for (std::size_t c = 0; c < row.size() && leaked.empty(); ++c) {
        const bool flagged = c < st->admission.columns.size() && st->admission.columns[c].untrusted;
        if (flagged) continue;
        leaked = detector.leak(cell_text(row[c]));
        column = c;
      }
    if (leaked.empty()) continue;
    ++t.leaks;
    ++t.leaks_by_position[position];
    if (t.leaks <= 12)
      ADD_FAILURE() << "[" << dialect_name(b.dialect) << "] UNFLAGGED UNTRUSTED TEXT in column " << column << " ("
                    << st->admission.columns.at(column).name << ", " << position << "): \"" << leaked
                    << "\"\n  sql: " << sql << "\n  rendered: " << st->sql;
  }
  std::cerr << "lineage oracle [" << dialect_name(b.dialect) << "]: " << t.generated << " generated, " << t.admitted
            << " admitted, " << t.executed << " executed (" << t.engine_errors << " failed in the engine), " << t.leaks
            << " leaked untrusted text unflagged, " << t.error_leaks << " errors quoted it\n";
  for (const auto& [position, n] : t.leaks_by_position) std::cerr << "  leaks in " << position << ": " << n << "\n";
  EXPECT_EQ(t.leaks, 0);
  EXPECT_EQ(t.error_leaks, 0);
  // The oracle must have seen something: most admitted statements run.
  EXPECT_GE(t.executed, kStatementsPerBackend / 4);
}

// Every result declared a measure (Number or Boolean) is one on this engine,
// over the untrusted columns: numbers, booleans or NULL, never text.
void check_measures(const Backend& b) {
  auto rows = chosen_rows(b.executor);
  ASSERT_TRUE(rows) << rows.error().message;
  Generator gen(b.dialect, kSeed);
  config::Limits limits;
  const std::string from = " FROM span_annotations a JOIN spans s ON s.id = a.span_id WHERE " + *rows;
  std::vector<std::string> probes;
  for (const auto& f : capability::functions()) {
    if (capability::cell(f, b.dialect).verdict != capability::Verdict::Admit) continue;
    EXPECT_TRUE(signature(f.name) || kKeywordForm.contains(f.name))
        << "function " << f.name << " has no argument signature in kSignatures: the oracle cannot generate it";
    if (!capability::measures(f.returns)) continue;
    for (int k = 0; k < 6; ++k) {
      std::string call = gen.call(f, 2);
      if (f.kind == capability::FunctionKind::Window) call += " OVER (ORDER BY a.id)";
      probes.push_back("SELECT " + call + " AS v" + from);
    }
  }
  for (const auto& o : capability::operators()) {
    if (capability::cell(o, b.dialect).verdict != capability::Verdict::Admit || !capability::measures(o.returns))
      continue;
    for (int k = 0; k < 6; ++k) probes.push_back("SELECT " + gen.op(o, 2) + " AS v" + from);
  }
  for (const auto& c : capability::casts()) {
    if (capability::cell(c, b.dialect).verdict != capability::Verdict::Admit || !capability::measures(c.returns))
      continue;
    probes.push_back("SELECT CAST(length(a.explanation) AS " + std::string(c.type) + ") AS v" + from);
    probes.push_back("SELECT CAST(a.explanation AS " + std::string(c.type) + ") AS v" + from);
  }
  int ran = 0;
  for (const auto& sql : probes) {
    auto st = admit_statement(sql, b.catalog, limits, 50);
    if (!st) continue;
    auto result = b.executor.run(
        st->sql, exec::RunOptions{.max_rows = 51, .deadline = exec::Clock::now() + std::chrono::seconds(5)});
    if (!result) continue;
    ++ran;
    for (const auto& row : result->rows) {
      const auto& v = row.at(0);
      bool measure = !std::holds_alternative<std::string>(v) && !std::holds_alternative<exec::Blob>(v);
      // PostgreSQL numeric arrives as its exact decimal text.
      if (const auto* s = std::get_if<std::string>(&v))
        measure = !s->empty() && s->find_first_not_of("0123456789.-+eE") == std::string::npos;
      EXPECT_TRUE(measure) << "[" << dialect_name(b.dialect) << "] declared a measure, returned text \""
                           << cell_text(v).substr(0, 60) << "\"\n  sql: " << sql;
      if (!measure) break;
    }
  }
  std::cerr << "measure declarations [" << dialect_name(b.dialect) << "]: " << probes.size() << " probes, " << ran
            << " ran\n";
  EXPECT_GE(ran, static_cast<int>(probes.size()) / 3);
}

TEST(LineageOracleTest, NoUntrustedTextInAnUnflaggedColumnOnSqlite) {
  auto& demo = Demo::unfiltered();
  Tally t;
  run_oracle(Backend{Dialect::Sqlite, demo.sqlite(), demo.sqlite_catalog()}, t);
}

TEST(LineageOracleTest, NoUntrustedTextInAnUnflaggedColumnOnPostgres) {
  QG_REAL_DEMO(demo);
  Tally t;
  run_oracle(Backend{Dialect::Postgres, *demo.executor, demo.catalog}, t);
}

TEST(LineageOracleTest, DeclaredMeasuresReturnNumbersOnSqlite) {
  auto& demo = Demo::unfiltered();
  check_measures(Backend{Dialect::Sqlite, demo.sqlite(), demo.sqlite_catalog()});
}

TEST(LineageOracleTest, DeclaredMeasuresReturnNumbersOnPostgres) {
  QG_REAL_DEMO(demo);
  check_measures(Backend{Dialect::Postgres, *demo.executor, demo.catalog});
}

}  // namespace
}  // namespace qg::testing
