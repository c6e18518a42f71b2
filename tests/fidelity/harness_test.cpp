// The harness checks the gateway; this checks the harness. A comparator that
// always says "same" or a FIX that rewrites the wrong token would make the
// fidelity figures meaningless, so their edges are pinned here.
#include <gtest/gtest.h>

#include "compare.hpp"
#include "fixes.hpp"
#include "sql_tokens.hpp"

namespace fidelity {
namespace {

using qg::exec::Rows;
using qg::exec::Value;

Rows rows(std::vector<std::vector<Value>> data) {
  Rows r;
  if (!data.empty())
    for (std::size_t i = 0; i < data.front().size(); ++i) r.columns.push_back({std::to_string(i), ""});
  r.rows = std::move(data);
  return r;
}

TEST(FidelityCompare, MultisetIgnoresOrderButNotMultiplicity) {
  const auto a = rows({{std::int64_t{1}}, {std::int64_t{2}}, {std::int64_t{2}}});
  EXPECT_TRUE(compare_rows(a, rows({{std::int64_t{2}}, {std::int64_t{1}}, {std::int64_t{2}}}), false).same);
  EXPECT_FALSE(compare_rows(a, rows({{std::int64_t{1}}, {std::int64_t{1}}, {std::int64_t{2}}}), false).same);
  EXPECT_FALSE(compare_rows(a, rows({{std::int64_t{2}}, {std::int64_t{1}}, {std::int64_t{2}}}), true).same);
}

TEST(FidelityCompare, ValuesByTypeWithFloatTolerance) {
  EXPECT_TRUE(values_equal(std::int64_t{3}, 3.0));
  EXPECT_TRUE(values_equal(0.1 + 0.2, 0.3));
  EXPECT_FALSE(values_equal(1.0, 1.000001));
  EXPECT_FALSE(values_equal(std::string("1"), std::int64_t{1}));
  EXPECT_FALSE(values_equal(std::monostate{}, std::string()));
  EXPECT_FALSE(values_equal(std::string("a"), std::string("A")));
  EXPECT_TRUE(values_equal(std::monostate{}, std::monostate{}));
}

TEST(FidelityCompare, ColumnAndRowCountsMatter) {
  EXPECT_FALSE(compare_rows(rows({{std::int64_t{1}, std::int64_t{2}}}), rows({{std::int64_t{1}}}), false).same);
  EXPECT_FALSE(compare_rows(rows({{std::int64_t{1}}}), rows({}), false).same);
}

TEST(FidelityTokens, TopLevelOrderByOnly) {
  EXPECT_TRUE(has_top_level_order_by("SELECT a FROM t ORDER BY a"));
  EXPECT_TRUE(has_top_level_order_by("SELECT a FROM t UNION SELECT b FROM u order  by 1"));
  EXPECT_FALSE(has_top_level_order_by("SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)"));
  EXPECT_FALSE(has_top_level_order_by("SELECT rank() OVER (ORDER BY a) FROM t"));
  EXPECT_FALSE(has_top_level_order_by("SELECT 'ORDER BY' FROM t -- ORDER BY a"));
  EXPECT_FALSE(has_top_level_order_by("SELECT \"order\" FROM t WHERE \"by\" = 1"));
}

qg::Error refusal(qg::ErrorCode code, std::string fix, int position) {
  return qg::make_error(code, "", std::move(fix), position);
}

TEST(FidelityFixes, DoubleQuotedTextOnlyAtThePosition) {
  const std::string sql = R"(SELECT a FROM t WHERE b = "x" OR c = "it's ""q""")";
  const auto pos = static_cast<int>(sql.find("\"it"));
  const auto fixed = apply_fix(sql, refusal(qg::ErrorCode::ValidationUnknownColumn,
                                            "FIX: if you meant the text, write 'it's \"q\"' in single quotes", pos));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, R"(SELECT a FROM t WHERE b = "x" OR c = 'it''s "q"')");
  // A FIX without the "if you meant the text" offer is a judgement call: not applied.
  EXPECT_FALSE(apply_fix(sql, refusal(qg::ErrorCode::ValidationUnknownColumn, "FIX: did you mean b?", pos)));
  // A position that is not a double-quoted token: not applied.
  EXPECT_FALSE(apply_fix(sql, refusal(qg::ErrorCode::ValidationUnknownColumn,
                                      "FIX: if you meant the text, write 'b'", static_cast<int>(sql.find('b')))));
}

TEST(FidelityFixes, SqliteSpellings) {
  const std::string limit = "SELECT a FROM t ORDER BY a LIMIT 5 , 10";
  auto fixed = apply_fix(limit, refusal(qg::ErrorCode::ParseSqliteSpelling, "FIX: write LIMIT b OFFSET a.",
                                        static_cast<int>(limit.find("LIMIT"))));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM t ORDER BY a LIMIT 10 OFFSET 5");

  const std::string is_not = "SELECT a FROM t WHERE a IS NOT b";
  fixed = apply_fix(is_not, refusal(qg::ErrorCode::ParseSqliteSpelling, "FIX: write a IS DISTINCT FROM b.",
                                    static_cast<int>(is_not.find("IS"))));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM t WHERE a IS DISTINCT FROM b");

  const std::string eq = "SELECT a FROM t WHERE a == 'x=='";
  fixed = apply_fix(eq, refusal(qg::ErrorCode::ValidationUnsupported, "FIX: write = (a single equals sign).",
                                static_cast<int>(eq.find("=="))));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM t WHERE a = 'x=='");

  const std::string ts = "SELECT a FROM t WHERE d < '2005-08-23 02:06:01'";
  fixed = apply_fix(ts, refusal(qg::ErrorCode::ValidationTimestampLiteral,
                                "FIX: write '2005-08-23T02:06:01Z' for UTC (or add the offset you mean, e.g. "
                                "'2005-08-23T02:06:01+02:00').",
                                static_cast<int>(ts.find('\''))));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM t WHERE d < '2005-08-23T02:06:01Z'");

  const std::string tick = "SELECT `my col` FROM t";
  fixed = apply_fix(tick, refusal(qg::ErrorCode::ParseSqliteSpelling,
                                  "FIX: write the bare name (spans) or double-quote it (\"spans\").", 7));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT \"my col\" FROM t");
}

}  // namespace
}  // namespace fidelity
