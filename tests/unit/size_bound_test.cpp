// Static size bounds (admission/admit/size_bound.cpp): one call that builds a
// huge value is refused before it runs (issue #11, runtime bombs); ordinary
// text functions are not. Real statements through the real pipeline, on the
// demo catalog as both backends see it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "admission/capability/capability.hpp"
#include "admission/pipeline.hpp"
#include "executors/executor.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

catalog::Catalog catalog_for(Dialect d) {
  return d == Dialect::Sqlite ? testing::Demo::get().sqlite_catalog() : testing::Demo::get().postgres_catalog();
}

Result<AdmittedStatement> run(Dialect d, const std::string& sql, config::Limits limits = {}) {
  return admit_statement(sql, catalog_for(d), limits, std::nullopt);
}

constexpr Dialect kBoth[] = {Dialect::Sqlite, Dialect::Postgres};

std::string twenty(char c) {
  return std::string(20, c);
}

// replace(replace(...(x, 'o', 'oooooooooooooooooooo')...)), `depth` deep.
std::string nested_replace(const std::string& x, int depth) {
  std::string e = x;
  for (int i = 0; i < depth; ++i) e = "replace(" + e + ", 'o', '" + twenty('o') + "')";
  return e;
}

void expect_size_refusal(const Result<AdmittedStatement>& r, const std::string& sql, const std::string& fix_names) {
  ASSERT_FALSE(r) << sql << "\n  admitted as " << r->sql;
  EXPECT_EQ(name(r.error().code), "limit:expression-size") << sql << "\n  " << r.error().message;
  EXPECT_TRUE(r.error().fix.starts_with("FIX:")) << r.error().fix;
  EXPECT_NE(r.error().fix.find(fix_names), std::string::npos) << r.error().fix;
}

TEST(SizeBoundTest, RedTeamPrintfWidthIsRefusedOnSqlite) {
  const std::string sql = "SELECT printf('%.*c', 1000000000, 'x')";
  expect_size_refusal(run(Dialect::Sqlite, sql), sql, "1000");
  // Three in one row (the run that held both permits for 44 s).
  const std::string three =
      "SELECT printf('%.*c', 1000000000, 'x'), printf('%.*c', 1000000000, 'y'), "
      "printf('%.*c', 1000000000, 'z') FROM spans";
  expect_size_refusal(run(Dialect::Sqlite, three), three, "1000");
}

TEST(SizeBoundTest, PrintfWidthsAndPrecisionsAreBounded) {
  for (const std::string& sql : std::vector<std::string>{
           "SELECT printf('%2000d', 1)", "SELECT printf('%.1001f', cost_usd) FROM spans",
           "SELECT printf('%*s', 5000, name) FROM spans", "SELECT printf('%-*s', -5000, name) FROM spans",
           "SELECT printf('%.*c', id, 'x') FROM spans",     // * from a column
           "SELECT printf(name, 1) FROM spans",             // the format from a column
           "SELECT printf('%' || '.*c', 1000000000, 'x')",  // a format that is not a literal
           "SELECT printf('%99999999999999999999d', 1)",
           "SELECT group_concat(printf('%1000c', 'x'), '') FROM spans",  // the row count multiplies it
       }) {
    expect_size_refusal(run(Dialect::Sqlite, sql), sql, "FIX:");
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT printf('%.2f', cost_usd) FROM spans",
           "SELECT printf('%04d-%02d-%02d', 2026, 1, 2)",
           "SELECT printf('%-20s|%5.1f%%', name, cost_usd) FROM spans",
           "SELECT printf('%.*c', 1000, 'x')",
           "SELECT printf('%*d', -12, id) FROM spans",
           "SELECT printf('%q', name) FROM spans",
           "SELECT printf('%x', id) FROM spans",
       }) {
    auto r = run(Dialect::Sqlite, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
}

TEST(SizeBoundTest, RedTeamNestedReplaceIsRefusedOnBothBackends) {
  const std::string sql = "SELECT length(" + nested_replace("'o'", 8) + ")";
  for (Dialect d : kBoth) expect_size_refusal(run(d, sql), sql, "replace()");
}

TEST(SizeBoundTest, NormalReplaceIsAdmittedOnBothBackends) {
  for (const std::string& sql : std::vector<std::string>{
           "SELECT replace(name, ',', ' ') FROM spans",
           "SELECT replace(name, 'a', '') FROM spans",
           "SELECT replace(replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '\"', '&quot;') "
           "FROM spans",
           "SELECT " + nested_replace("name", 2) + " FROM spans",  // 400 times at most
           "SELECT " + nested_replace("'o'", 3),                   // 8000 bytes from a statement's literals
           "SELECT upper(name) || ': ' || lower(kind) FROM spans",
           "SELECT CAST(id AS text) || '-' || name FROM spans",
       }) {
    for (Dialect d : kBoth) {
      auto r = run(d, sql);
      EXPECT_TRUE(r) << dialect_name(d) << ": " << sql << "\n  " << r.error().message;
    }
  }
}

TEST(SizeBoundTest, StoredValuesMayGrowAtMostTheCeiling) {
  // 20 * 20 * 20 = 8000 times the longest name.
  const std::string sql = "SELECT " + nested_replace("name", 3) + " FROM spans";
  for (Dialect d : kBoth) expect_size_refusal(run(d, sql), sql, "replace()");
  config::Limits low;
  low.max_expression_growth = 10;
  const std::string once = "SELECT replace(name, 'o', '" + twenty('o') + "') FROM spans";
  for (Dialect d : kBoth) {
    expect_size_refusal(run(d, once, low), once, "replace()");
    EXPECT_TRUE(run(d, once)) << "20 times is within the default ceiling";
  }
  config::Limits high;
  high.max_expression_growth = 10000;
  EXPECT_TRUE(run(Dialect::Postgres, sql, high)) << "the ceiling is the operator's";
}

TEST(SizeBoundTest, GrowthCannotBeSplitAcrossSubqueriesOrClauses) {
  const std::string inner = nested_replace("name", 2);
  for (const std::string& sql : std::vector<std::string>{
           "SELECT " + nested_replace("x", 2) + " FROM (SELECT " + inner + " AS x FROM spans) AS s",
           "WITH s AS (SELECT " + inner + " AS x FROM spans) SELECT " + nested_replace("x", 2) + " FROM s",
           "SELECT " + nested_replace("(SELECT max(" + inner + ") FROM spans)", 2),
           "SELECT id FROM spans WHERE length(" + nested_replace("name", 3) + ") > 0",
           "SELECT id FROM spans ORDER BY " + nested_replace("name", 3),
           "SELECT count(*) FROM spans GROUP BY " + nested_replace("name", 3),
       }) {
    for (Dialect d : kBoth) expect_size_refusal(run(d, sql), sql, "FIX:");
  }
}

TEST(SizeBoundTest, CharPaddingIsBoundedLikeLpad) {
  const std::string sql = "SELECT CAST('x' AS char(10485760)) FROM spans";
  expect_size_refusal(run(Dialect::Postgres, sql), sql, "FIX:");
  EXPECT_TRUE(run(Dialect::Postgres, "SELECT CAST(kind AS char(12)) FROM spans"));
}

TEST(SizeBoundTest, ReplacementsMustBeBounded) {
  const std::string sql = "SELECT replace(name, 'a', kind) FROM spans";
  for (Dialect d : kBoth) expect_size_refusal(run(d, sql), sql, "literal");
  const std::string regexp = "SELECT regexp_replace(name, 'a', kind, 'g') FROM spans";
  expect_size_refusal(run(Dialect::Postgres, regexp), regexp, "literal");
  EXPECT_TRUE(run(Dialect::Postgres, "SELECT regexp_replace(name, '[^a-z]', '', 'g') FROM spans"));
  EXPECT_TRUE(run(Dialect::Postgres, "SELECT regexp_replace(name, '(\\w+)', '<\\1>', 'g') FROM spans"));
  const std::string empty_matches =
      "SELECT regexp_replace(" + nested_replace("name", 2) + ", '', '" + std::string(10, 'x') + "', 'g') FROM spans";
  expect_size_refusal(run(Dialect::Postgres, empty_matches), empty_matches, "regexp_replace()");
}

TEST(SizeBoundTest, TextAggregatesPayTheirSeparatorPerRow) {
  const std::string long_separator(2000, '-');
  expect_size_refusal(run(Dialect::Postgres, "SELECT string_agg(name, '" + long_separator + "') FROM spans"),
                      "string_agg", "separator");
  expect_size_refusal(run(Dialect::Sqlite, "SELECT group_concat(name, '" + long_separator + "') FROM spans"),
                      "group_concat", "separator");
  EXPECT_TRUE(run(Dialect::Postgres, "SELECT string_agg(name, ', ' ORDER BY name) FROM spans"));
  EXPECT_TRUE(run(Dialect::Postgres, "SELECT kind, json_agg(name), array_agg(id) FROM spans GROUP BY kind"));
  EXPECT_TRUE(run(Dialect::Sqlite, "SELECT kind, group_concat(name), json_group_array(name) FROM spans GROUP BY kind"));
}

// Rows made by generate_series are not stored data: string_agg over two million
// of them built 46 MB in 0.6 s on the test cluster (gigabytes by the deadline).
TEST(SizeBoundTest, TextAggregatesOverGeneratedRowsAreRefused) {
  const std::string series =
      "SELECT generate_series(timestamptz '2000-01-01', timestamptz '3000-01-01', INTERVAL '1 second') AS g";
  for (const std::string& sql : std::vector<std::string>{
           "SELECT string_agg(CAST(g AS text), ',') FROM (" + series + ") AS s",
           "WITH cal AS (" + series + ") SELECT json_agg(g) FROM cal",
           "WITH cal AS (" + series + "), again AS (SELECT g FROM cal) SELECT array_agg(g) FROM again",
           "WITH cal AS (" + series + ") SELECT string_agg(name, ',') FROM cal JOIN spans ON true",
           "SELECT (SELECT string_agg(CAST(g AS text), ',') FROM (" + series + ") AS s)",
       }) {
    auto r = run(Dialect::Postgres, sql);
    expect_size_refusal(r, sql, "LEFT JOIN");
  }
  // The calendar itself, and text aggregated over stored rows before the join, stay admitted.
  for (const std::string& sql : std::vector<std::string>{
           "SELECT count(*), min(g), max(g) FROM (" + series + ") AS s",
           "WITH cal AS (SELECT generate_series(date_trunc('month', min(start_time)), date_trunc('month', "
           "max(start_time)), INTERVAL '1 month') AS m FROM spans), names AS (SELECT date_trunc('month', start_time) "
           "AS m, string_agg(name, ', ') AS names FROM spans GROUP BY 1) SELECT cal.m, names.names FROM cal LEFT JOIN "
           "names ON names.m = cal.m",
       }) {
    auto r = run(Dialect::Postgres, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
}

// Red team, round 2: a number is not always 64 bytes. PostgreSQL prints the
// numeric literal 1e131071 as 131072 digits (a 560-byte statement returned
// 65,535,501), and power(10::numeric, 131071) built 39 MB.
TEST(SizeBoundTest, RedTeamNumbersCountAsTheirPrintedLength) {
  const std::string x500(500, 'x'), x300(300, 'x'), x999(999, 'x');
  for (const std::string& sql : std::vector<std::string>{
           "SELECT length(replace(CAST(1e131071 AS text), '0', '" + x500 + "'))",
           "SELECT length(replace(CAST(power(10::numeric, 131071) AS text), '0', '" + x300 + "'))",
           "SELECT length(replace(CAST(exp(300000::numeric) AS text), '0', '" + x300 + "'))",
           "SELECT length(string_agg(CAST(1e131071 AS text), '')) FROM spans",
           "SELECT length(string_agg(CAST(1e-16000 AS text), '')) FROM spans",
           // A cast to numeric is not 147 KB of the statement's own literal text.
           "SELECT replace(CAST(CAST(kind AS numeric) AS text), '0', '" + x999 + "') FROM spans",
       }) {
    expect_size_refusal(run(Dialect::Postgres, sql), sql, "FIX:");
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT power(cost_usd, 2), exp(1.5), round(CAST(cost_usd AS numeric), 2), 1e300 FROM spans",
           "SELECT string_agg(CAST(power(cost_usd, 2) AS text), ', ') FROM spans",
           "SELECT replace(CAST(power(CAST(cost_usd AS float8), id) AS text), '.', ',') FROM spans",
           "SELECT replace(CAST(exp(avg(ln(cost_usd))) AS text), '.', ',') FROM spans WHERE cost_usd > 0",
           "SELECT CAST(1e5 AS text) || ' USD', CAST(12.50 AS text) || 'x'",
       }) {
    auto r = run(Dialect::Postgres, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
  // On SQLite a number literal past a double's range is refused (PostgreSQL's numeric is exact, SQLite's
  // double would be Inf), and power() returns a REAL.
  {
    auto r = run(Dialect::Sqlite, "SELECT length(replace(CAST(1e131071 AS text), '0', '" + x500 + "'))");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::CapabilityNotOnSqlite) << r.error().message;
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT replace(CAST(power(10, 300) AS text), '0', '" + x300 + "')",
       }) {
    auto r = run(Dialect::Sqlite, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
}

// Red team, round 2: replace(string_agg(CAST(attributes AS text), ''), '"',
// '<400 x>') built 350 MB in one call: the aggregate's result grows with the
// rows, so no call may lengthen it.
TEST(SizeBoundTest, RedTeamAggregateResultsAreNotLengthened) {
  const std::string x400(400, 'x');
  for (const std::string& sql : std::vector<std::string>{
           "SELECT length(replace(string_agg(CAST(attributes AS text), ''), '\"', '" + x400 + "')) FROM spans",
           "SELECT upper(string_agg(name, ',')) FROM spans",
           "SELECT upper(s) FROM (SELECT string_agg(name, ',') AS s FROM spans) AS t",
           "SELECT replace((SELECT string_agg(name, ',') FROM spans), ',', ', ')",
           "WITH a AS (SELECT CAST(json_agg(attributes) AS text) AS j FROM spans) SELECT replace(j, '\"', '\"\"') "
           "FROM a",
       }) {
    expect_size_refusal(run(Dialect::Postgres, sql), sql, "inside the aggregate");
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT length(replace(group_concat(attributes), '\"', 'xx')) FROM spans",
           "SELECT upper(json_group_array(name)) FROM spans",
       }) {
    expect_size_refusal(run(Dialect::Sqlite, sql), sql, "inside the aggregate");
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT length(string_agg(name, ',')) FROM spans",
           "SELECT string_agg(name, ',') || '!' FROM spans",
           "SELECT replace(string_agg(name, ','), ',', ';') FROM spans",
           "SELECT substr(string_agg(name, ','), 1, 100) FROM spans",
           "SELECT kind, string_agg(upper(name), ', ') FROM spans GROUP BY kind",
           "SELECT length(s) FROM (SELECT string_agg(name, ',') AS s FROM spans) AS t",
       }) {
    auto r = run(Dialect::Postgres, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
  for (const std::string& sql : std::vector<std::string>{
           "SELECT kind, group_concat(upper(name), ', '), length(json_group_array(name)) FROM spans GROUP BY kind",
           "SELECT replace(group_concat(name), ',', ';') FROM spans",
       }) {
    auto r = run(Dialect::Sqlite, sql);
    EXPECT_TRUE(r) << sql << "\n  " << r.error().message;
  }
}

// The oracle: the engine itself. Each statement runs on the real demo SQLite
// file; every value it returns must fit the bound admission computed for its
// column (k + g * V, V the longest stored value of the table, or for an
// aggregate the bytes of every row it reads). A bound that is too small for
// some function is a hole in the ceiling, whatever the refusal tests say.
std::size_t text_bytes(const exec::Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return s->size();
  if (const auto* b = std::get_if<exec::Blob>(&v)) return b->bytes.size();
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i).size();
  if (std::holds_alternative<double>(v)) return 24;  // %.17g
  return 0;
}

TEST(SizeBoundTest, EveryBoundHoldsOnTheRealEngine) {
  auto& engine = testing::Demo::get().sqlite();
  config::Limits limits;
  limits.default_rows = limits.max_rows = 1'000'000;
  auto run_rows = [&](const std::string& sql) {
    auto st = admit_statement(sql, testing::Demo::get().sqlite_catalog(), limits, std::nullopt);
    EXPECT_TRUE(st) << sql << "\n  " << st.error().message;
    if (!st) return std::pair<AdmittedStatement, exec::Rows>{};
    auto rows = engine.run(st->sql, exec::RunOptions{});
    EXPECT_TRUE(rows) << st->sql << "\n  " << rows.error().message;
    return std::pair{std::move(st).value(), rows ? std::move(rows).value() : exec::Rows{}};
  };
  // The cases read 300 spans (aggregating all of them would pass SQLite's 10 MiB value cap).
  const std::string from = " FROM (SELECT * FROM spans WHERE id <= 300) AS s";
  // V: the longest stored value of spans (every column, as text); the bytes of the rows aggregated.
  double longest = 0, all_rows = 0;
  for (const std::string source : {" FROM spans", from.c_str()}) {
    auto [st, rows] = run_rows("SELECT *" + source);
    for (const auto& row : rows.rows) {
      double row_longest = 1;
      for (const auto& v : row) row_longest = std::max(row_longest, static_cast<double>(text_bytes(v)));
      if (source == from) all_rows += row_longest;
      longest = std::max(longest, row_longest);
    }
  }
  ASSERT_GT(longest, 100) << "the demo's attributes are JSON documents";
  struct Case {
    std::string expr;
    bool aggregate = false;
  };
  // attributes is jsonb (a JSON column): text functions take it as CAST(attributes AS text), as on PostgreSQL.
  const std::vector<Case> cases{
      {"replace(CAST(attributes AS text), '\"', '\"\"\"\"')"},
      {"replace(replace(CAST(attributes AS text), ',', ', , '), ' ', '  ')"},
      {"replace(name, '', 'xxxxxxxx')"},
      {"replace(CAST(attributes AS text), kind, '---------------')"},
      {"replace(replace(replace('o', 'o', 'oooooooooooooooooooo'), 'o', 'oooooooooooooooooooo'), 'o', 'oo')"},
      {"printf('%.*c', 1000, 'x')"},
      {"printf('%1000d|%-1000s|%.1000f', id, name, cost_usd)"},
      {"printf('%q%Q%w', attributes, attributes, attributes)"},
      {"printf('%,d %!.20g %c%c', id, cost_usd, name, kind)"},
      {"printf('%5s %5s %5s', attributes, attributes, attributes)"},
      {"upper(CAST(attributes AS text)) || lower(name)"},
      {"hex(hex(attributes))"},
      {"\"char\"(1114111, 1114111, 65, 0)"},
      {"json_quote(attributes)"},
      {"json_array(attributes, name, id, cost_usd)"},
      {"json_object('a', attributes, 'b', json_quote(attributes))"},
      {"strftime('%J %J %J %f %Y-%m-%d %H:%M:%S %s %w', start_time)"},
      {"date(start_time, '+5000 years')"},
      {"substr(CAST(attributes AS text), 2) || trim(name, 'a') || ltrim(kind) || rtrim(status)"},
      {"ifnull(NULL, CAST(attributes AS text)) || iif(id > 1, name, kind)"},  // jsonb || text: refused on SQLite
      {"CAST(cost_usd AS text) || CAST(id AS text) || name"},
      {"CAST(CAST(power(10.0, 300) AS float8) AS text) || CAST(1.5e-20 AS text) || power(cost_usd, 3) || exp(id % 5)"},
      {"max(CAST(attributes AS text), name, kind)"},       // jsonb with text: refused (SQLite compares what it stores)
      {"coalesce(NULL, CAST(attributes AS text), name)"},  // jsonb with text: PostgreSQL's error
      {"CASE WHEN id > 2 THEN CAST(attributes AS text) ELSE name || name END"},
      {"json_extract(attributes, '$') || json(attributes)"},
      {"json(attributes -> '$') || (attributes ->> '$')"},
      {"lag(attributes, 1, 'none') OVER (ORDER BY id)"},
      {"(SELECT max(CAST(attributes AS text)) FROM spans) || name"},
      {"group_concat(attributes, ', ')", true},
      {"group_concat(name)", true},
      {"group_concat(printf('%50s', name), '')", true},
      {"json_group_array(attributes)", true},
      {"json_group_object(name, attributes)", true},
      {"max(CAST(attributes AS text))", true},
  };
  for (const auto& c : cases) {
    const std::string sql = "SELECT " + c.expr + " AS v" + from;
    auto [st, rows] = run_rows(sql);
    if (st.admission.columns.empty()) continue;
    const auto& b = st.admission.columns.front().size;
    const double bound = b.k + b.g * (c.aggregate ? all_rows : longest);
    double actual = 0;
    for (const auto& row : rows.rows) actual = std::max(actual, static_cast<double>(text_bytes(row.front())));
    EXPECT_LE(actual, bound) << sql << "\n  k = " << b.k << ", g = " << b.g << ", V = " << longest;
    EXPECT_GT(actual, 0) << sql << ": the case must produce something to measure";
  }
}

// Every function and operator carries a growth decision; functions no backend
// admits carry Refused, and operators only the classes size_bound.cpp knows for them.
TEST(SizeBoundTest, EveryCapabilityRowHasAGrowthDecision) {
  using capability::Growth;
  using capability::Verdict;
  for (const auto& row : capability::functions()) {
    const bool admitted = row.sqlite.verdict != Verdict::Refuse || row.postgres.verdict != Verdict::Refuse;
    EXPECT_EQ(admitted, row.growth != Growth::Refused) << row.name;
    if (row.kind != capability::FunctionKind::Aggregate) EXPECT_NE(row.growth, Growth::TextAggregate) << row.name;
  }
  for (const auto& row : capability::operators()) {
    const bool admitted = row.sqlite.verdict != Verdict::Refuse || row.postgres.verdict != Verdict::Refuse;
    EXPECT_EQ(admitted, row.growth != Growth::Refused) << row.op;
    EXPECT_TRUE(row.growth == Growth::Fixed || row.growth == Growth::Within || row.growth == Growth::Double ||
                row.growth == Growth::Refused)
        << row.op;
    // An operator that only measures or compares returns a short value; one that
    // returns text can pass its arguments on, and so can `+x` (SQLite) and
    // `jsonb - 'k'` (PostgreSQL).
    if (!admitted) continue;
    if (capability::measures(row.returns)) EXPECT_EQ(row.growth, Growth::Fixed) << row.op;
    if (row.returns == capability::Returns::Text || row.op == "+" || row.op == "-")
      EXPECT_TRUE(row.growth == Growth::Within || row.growth == Growth::Double) << row.op;
  }
}

}  // namespace
}  // namespace qg
