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

// Ordered answers as SQL defines their order (parity run, issue #12): tied rows in any order, a last tied
// group cut by LIMIT may hold any of its candidates, anything else must match.
TEST(FidelityCompare, OrderedByKeysAllowsOnlyTies) {
  using I = std::int64_t;
  const auto truth = rows({{std::string("a"), I{3}}, {std::string("b"), I{1}}, {std::string("c"), I{1}}});
  const std::vector<std::size_t> keys = {1};
  EXPECT_TRUE(compare_rows_by_keys(rows({{std::string("a"), I{3}}, {std::string("c"), I{1}}, {std::string("b"), I{1}}}),
                                   truth, keys, false)
                  .same);
  // Not a tie: the order of the keys differs.
  EXPECT_FALSE(
      compare_rows_by_keys(rows({{std::string("b"), I{1}}, {std::string("a"), I{3}}, {std::string("c"), I{1}}}), truth,
                           keys, false)
          .same);
  // A tied group must still hold the same rows, unless LIMIT cut it at the end.
  const auto other = rows({{std::string("a"), I{3}}, {std::string("d"), I{1}}, {std::string("b"), I{1}}});
  EXPECT_FALSE(compare_rows_by_keys(other, truth, keys, false).same);
  EXPECT_TRUE(compare_rows_by_keys(other, truth, keys, true).same);
  // Rows before the last group are never excused by LIMIT.
  const auto early = rows({{std::string("x"), I{3}}, {std::string("b"), I{1}}, {std::string("c"), I{1}}});
  EXPECT_FALSE(compare_rows_by_keys(early, truth, keys, true).same);
  // Values inside a tied row are compared as ever.
  EXPECT_FALSE(compare_rows_by_keys(rows({{std::string("a"), I{3}}, {std::string("b"), I{1}}, {std::string("c"), 1.5}}),
                                    truth, keys, false)
                   .same);
}

TEST(FidelityTokens, OrderKeysAreOutputColumns) {
  const std::vector<std::string> names = {"name", "author_count"};
  auto k = top_level_order_keys(
      "SELECT d.name, COUNT(*) AS author_count FROM d GROUP BY 1 ORDER BY author_count DESC "
      "NULLS LAST, d.name LIMIT 5",
      names);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->columns, (std::vector<std::size_t>{1, 0}));
  EXPECT_TRUE(k->limited);
  k = top_level_order_keys("SELECT a, b FROM t ORDER BY 2", {"a", "b"});
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->columns, (std::vector<std::size_t>{1}));
  EXPECT_FALSE(k->limited);
  EXPECT_FALSE(top_level_order_keys("SELECT a FROM t ORDER BY count(*) DESC", {"a"}).has_value());
  EXPECT_FALSE(top_level_order_keys("SELECT a FROM t ORDER BY b", {"a"}).has_value());
  EXPECT_FALSE(top_level_order_keys("SELECT a FROM t", {"a"}).has_value());
  EXPECT_FALSE(top_level_order_keys("SELECT a, a FROM t ORDER BY a", {"a", "a"}).has_value());
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
  EXPECT_FALSE(apply_fix(sql, refusal(qg::ErrorCode::ValidationUnknownColumn, "FIX: if you meant the text, write 'b'",
                                      static_cast<int>(sql.find('b')))));
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

qg::Error spelling(std::string fix, std::string_view sql, std::string_view at, std::size_t nth = 0) {
  std::size_t pos = sql.find(at);
  for (std::size_t i = 0; i < nth; ++i) pos = sql.find(at, pos + 1);
  return refusal(qg::ErrorCode::ParseSqliteSpelling, std::move(fix), static_cast<int>(pos));
}

TEST(FidelityFixes, ReservedWordTableQuotedAsTheFixSpellsIt) {
  const std::string sql = "SELECT t1.name FROM CAST AS t2 JOIN actor AS t1 ON t2.aid = CAST(t1.aid AS int)";
  const std::string fix = "FIX: double-quote the table name: \"CAST\".";
  auto fixed = apply_fix(sql, spelling(fix, sql, "CAST"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "reserved-table");
  EXPECT_EQ(fixed->sql, "SELECT t1.name FROM \"CAST\" AS t2 JOIN actor AS t1 ON t2.aid = CAST(t1.aid AS int)");
  // Only the pointed-at word, and only when it is the FIX's name.
  EXPECT_FALSE(apply_fix(sql, spelling(fix, sql, "AS t2")));
  EXPECT_FALSE(apply_fix(sql, spelling("FIX: double-quote the table name: \"order\".", sql, "CAST")));
}

TEST(FidelityFixes, SessionKeywordTable) {
  const std::string sql = "SELECT user_id FROM USER WHERE name = 'Michelle'";
  const std::string fix = "FIX: if user is a table, double-quote its name: FROM \"user\".";
  auto fixed = apply_fix(sql, spelling(fix, sql, "USER"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "session-keyword-table");
  EXPECT_EQ(fixed->sql, "SELECT user_id FROM \"user\" WHERE name = 'Michelle'");
  EXPECT_FALSE(apply_fix(sql, spelling(fix, sql, "user_id")));
}

TEST(FidelityFixes, QuotedFunctionNameOnlyOnACall) {
  const std::string sql = "SELECT time('10:11:12'), char(65, 66), CAST(x AS char(3)) FROM t";
  auto fixed = apply_fix(sql, spelling("FIX: double-quote the function name: \"time\"(...).", sql, "time"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "quoted-function");
  EXPECT_EQ(fixed->sql, "SELECT \"time\"('10:11:12'), char(65, 66), CAST(x AS char(3)) FROM t");
  fixed = apply_fix(sql, spelling("FIX: double-quote the function name: \"char\"(...).", sql, "char"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT time('10:11:12'), \"char\"(65, 66), CAST(x AS char(3)) FROM t");
  // The FIX names char but points at time: not applied.
  EXPECT_FALSE(apply_fix(sql, spelling("FIX: double-quote the function name: \"char\"(...).", sql, "time")));
  const std::string bare = "SELECT time FROM t";
  EXPECT_FALSE(apply_fix(bare, spelling("FIX: double-quote the function name: \"time\"(...).", bare, "time")));
}

TEST(FidelityFixes, CrossJoinOnlyWhenNothingElseCanAttach) {
  const std::string fix =
      "FIX: add the join condition, JOIN t2 ON t2.key = t1.key, or write CROSS JOIN if every pairing is meant.";
  const std::string where = "SELECT a FROM p AS T1 JOIN q AS T2 WHERE c < 3";
  auto fixed = apply_fix(where, spelling(fix, where, "WHERE"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "cross-join");
  EXPECT_EQ(fixed->sql, "SELECT a FROM p AS T1 CROSS JOIN q AS T2 WHERE c < 3");

  const std::string group = "SELECT a FROM p T1 INNER JOIN q T2 GROUP BY a";
  fixed = apply_fix(group, spelling(fix, group, "GROUP"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM p T1 CROSS JOIN q T2 GROUP BY a");

  const std::string bare = "SELECT count(*) FROM p JOIN \"q\" ORDER BY 1 LIMIT 3";
  fixed = apply_fix(bare, spelling(fix, bare, "ORDER"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT count(*) FROM p CROSS JOIN \"q\" ORDER BY 1 LIMIT 3");

  const std::string end = "SELECT a FROM p JOIN q";
  fixed = apply_fix(end, refusal(qg::ErrorCode::ParseSqliteSpelling, fix, static_cast<int>(end.size())));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT a FROM p CROSS JOIN q");

  // Another JOIN follows: the grammars group it differently, a judgement.
  const std::string chain = "SELECT a FROM p JOIN q JOIN r ON q.x = r.x";
  EXPECT_FALSE(apply_fix(chain, spelling(fix, chain, "JOIN", 1)));
  // An outer join without a condition is not a cross join.
  const std::string left = "SELECT a FROM p LEFT JOIN q WHERE b = 1";
  EXPECT_FALSE(apply_fix(left, spelling(fix, left, "WHERE")));
  // The position must be the clause that ends the join.
  EXPECT_FALSE(apply_fix(where, spelling(fix, where, "c <")));
  // A join that has its condition is not what the refusal means.
  const std::string on = "SELECT a FROM p JOIN q ON p.x = q.x WHERE c";
  EXPECT_FALSE(apply_fix(on, spelling(fix, on, "WHERE")));
}

TEST(FidelityFixes, SubqueryAliasAfterTheMatchingParenthesis) {
  const std::string fix = "FIX: name it: FROM (SELECT ...) AS sub, and refer to its columns as sub.column.";
  const std::string sql = "SELECT count(*) FROM (SELECT a FROM t WHERE b IN (1, 2) AND c = ')')";
  auto fixed = apply_fix(sql, spelling(fix, sql, "(SELECT"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "subquery-alias");
  EXPECT_EQ(fixed->sql, "SELECT count(*) FROM (SELECT a FROM t WHERE b IN (1, 2) AND c = ')') AS sub");
  // The name is one the statement does not use; a second subquery gets another.
  const std::string two = "SELECT * FROM (SELECT sub FROM t) AS sub2, (SELECT 1) WHERE 1 = 1";
  fixed = apply_fix(two, spelling(fix, two, "(SELECT", 1));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT * FROM (SELECT sub FROM t) AS sub2, (SELECT 1) AS sub3 WHERE 1 = 1");
  // Not a parenthesis: not applied.
  EXPECT_FALSE(apply_fix(sql, spelling(fix, sql, "SELECT a")));
}

}  // namespace
}  // namespace fidelity
