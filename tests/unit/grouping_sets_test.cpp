// GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING() on SQLite (admission/admit/grouping_sets_on_sqlite.cpp):
// run on the demo's SQLite file and checked against facts PostgreSQL's meaning fixes (a rolled-up row's count is
// its sets' sum, GROUPING() is the bitmask of the NULLed keys, the empty set is one row even of no rows); the
// answers themselves are compared with PostgreSQL's by the parity run (tests/parity/grouping_sets.sql).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <variant>

#include "admission/pipeline.hpp"
#include "common/error_code.hpp"
#include "config/config.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::testing {
namespace {

Result<exec::Rows> run(const std::string& sql, std::string* rendered = nullptr) {
  auto& demo = Demo::unfiltered();
  config::Limits limits;
  auto st = admit_statement(sql, demo.sqlite_catalog(), limits, 10000);
  if (!st) return std::move(st).error();
  EXPECT_NE(std::find(st->rewrites.begin(), st->rewrites.end(), "dialect:grouping-sets"), st->rewrites.end()) << sql;
  if (rendered) *rendered = st->sql;
  return demo.sqlite().run(
      st->sql, exec::RunOptions{.max_rows = 10001, .deadline = exec::Clock::now() + std::chrono::seconds(20)});
}

std::int64_t integer(const exec::Value& v) {
  const auto* i = std::get_if<std::int64_t>(&v);
  EXPECT_NE(i, nullptr);
  return i ? *i : -1;
}

bool null(const exec::Value& v) {
  return std::holds_alternative<std::monostate>(v);
}

TEST(GroupingSetsOnSqlite, RollupAddsTheTotalRow) {
  auto total = run("SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind) ORDER BY kind");
  ASSERT_TRUE(total) << total.error().message;
  ASSERT_GE(total->rows.size(), 2u);
  ASSERT_EQ(total->columns.size(), 2u);
  EXPECT_EQ(total->columns[0].name, "kind");
  EXPECT_EQ(total->columns[1].name, "n");
  std::int64_t sum = 0;
  for (std::size_t i = 0; i + 1 < total->rows.size(); ++i) {
    EXPECT_FALSE(null(total->rows[i][0]));
    sum += integer(total->rows[i][1]);
  }
  // ORDER BY kind puts the rolled-up NULL last (PostgreSQL's NULLS LAST for ascending order).
  EXPECT_TRUE(null(total->rows.back()[0]));
  EXPECT_EQ(integer(total->rows.back()[1]), sum);
}

TEST(GroupingSetsOnSqlite, GroupingIsTheBitmaskOfTheRolledUpArguments) {
  auto rows =
      run("SELECT kind, status, GROUPING(kind, status) AS g, GROUPING(status) AS gs, count(*) AS n FROM spans GROUP BY "
          "CUBE (kind, status) ORDER BY g, kind, status");
  ASSERT_TRUE(rows) << rows.error().message;
  std::map<std::int64_t, std::int64_t> per_mask;
  for (const auto& row : rows->rows) {
    const std::int64_t g = integer(row[2]);
    EXPECT_EQ(g, (null(row[0]) ? 2 : 0) + (null(row[1]) ? 1 : 0));  // neither column is NULL in the data
    EXPECT_EQ(integer(row[3]), null(row[1]) ? 1 : 0);
    per_mask[g] += integer(row[4]);
  }
  ASSERT_EQ(per_mask.size(), 4u);  // CUBE of two: (kind, status), (kind), (status), ()
  for (const auto& [mask, n] : per_mask) EXPECT_EQ(n, per_mask[3]) << "set " << mask;
}

TEST(GroupingSetsOnSqlite, TheEmptySetIsOneRowEvenOfNoRows) {
  auto rows = run("SELECT kind, count(*) AS n FROM spans WHERE id < 0 GROUP BY ROLLUP (kind)");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->rows.size(), 1u);
  EXPECT_TRUE(null(rows->rows[0][0]));
  EXPECT_EQ(integer(rows->rows[0][1]), 0);
}

TEST(GroupingSetsOnSqlite, DuplicateSetsAreKeptAndMixedItemsMultiply) {
  auto twice = run("SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind), ROLLUP (kind)");
  auto once = run("SELECT kind, count(*) AS n FROM spans GROUP BY ROLLUP (kind)");
  ASSERT_TRUE(twice && once);
  // (kind, kind) = (kind), (kind), (kind), (): every kind three times, the total once.
  EXPECT_EQ(twice->rows.size(), 3 * (once->rows.size() - 1) + 1);
  auto mixed = run("SELECT kind, status, count(*) AS n FROM spans GROUP BY kind, ROLLUP (status)");
  ASSERT_TRUE(mixed) << mixed.error().message;
  for (const auto& row : mixed->rows) EXPECT_FALSE(null(row[0]));  // kind is in every set
}

TEST(GroupingSetsOnSqlite, OrderByAndLimitApplyToTheWholeResult) {
  auto rows =
      run("SELECT kind, status, count(*) AS n FROM spans GROUP BY ROLLUP (kind, status) ORDER BY n DESC LIMIT 1");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->rows.size(), 1u);
  EXPECT_TRUE(null(rows->rows[0][0]));  // the total is the largest group
  EXPECT_TRUE(null(rows->rows[0][1]));
}

TEST(GroupingSetsOnSqlite, PrintedStatementIsAFixedPoint) {
  std::string rendered;
  ASSERT_TRUE(run("SELECT kind AS k, count(*) AS n FROM spans GROUP BY ROLLUP (k) ORDER BY k", &rendered));
  EXPECT_NE(rendered.find("UNION ALL"), std::string::npos) << rendered;
  config::Limits limits;
  auto again = admit_statement(rendered, Demo::unfiltered().sqlite_catalog(), limits, 10000);
  ASSERT_TRUE(again) << again.error().message << "\n  " << rendered;
  EXPECT_EQ(again->sql, rendered);
}

TEST(GroupingSetsOnSqlite, ShapesItCannotMakeExactAreRefusedWithAFix) {
  auto& demo = Demo::unfiltered();
  config::Limits limits;
  for (const char* sql : {
           "SELECT kind, count(*), rank() OVER (ORDER BY count(*)) FROM spans GROUP BY ROLLUP (kind)",
           "SELECT count(*) FROM spans GROUP BY CUBE (kind, status, name, trace_id, parent_id, id)",
           "SELECT s.kind, count(*) FROM spans s GROUP BY ROLLUP (kind)",
           "SELECT kind, count(*) FROM spans GROUP BY ROLLUP (kind, spans.kind)",
           "SELECT DISTINCT kind FROM spans GROUP BY ROLLUP (kind)",
           "SELECT kind, (SELECT count(*) FROM traces) FROM spans GROUP BY ROLLUP (kind)",
           "SELECT * FROM projects GROUP BY ROLLUP (id)",
           "SELECT id, name, count(*) FROM projects GROUP BY ROLLUP (id)",  // PostgreSQL: name is not grouped
           "SELECT GROUPING(kind) FROM spans",
           "SELECT 1 AS one, count(*) FROM spans GROUP BY ROLLUP (1)",
           "SELECT kind, count(*) FROM spans WHERE kind = 'LLM' GROUP BY ROLLUP (kind) ORDER BY kind DESC",
           "SELECT kind, count(*) FROM spans WHERE random() < 0.5 GROUP BY ROLLUP (kind)",
           "SELECT kind, sum(GROUPING(kind)) FROM spans GROUP BY ROLLUP (kind)",
           "SELECT kind, GROUPING(status) FROM spans GROUP BY ROLLUP (kind)",
       }) {
    auto st = admit_statement(sql, demo.sqlite_catalog(), limits, 100);
    ASSERT_FALSE(st) << sql << "\n  admitted: " << st->sql;
    EXPECT_NE(st.error().fix.find("FIX:"), std::string::npos) << sql << ": " << st.error().fix;
  }
}

TEST(GroupingSetsOnSqlite, TheFixForTwoEqualSortKeysIsAdmitted) {
  auto& demo = Demo::unfiltered();
  config::Limits limits;
  const std::string join =
      "SELECT s.trace_id, t.trace_id, count(*) FROM spans s JOIN traces t ON t.trace_id = s.trace_id GROUP BY "
      "ROLLUP (s.trace_id, t.trace_id) ";
  EXPECT_FALSE(admit_statement(join + "ORDER BY s.trace_id, t.trace_id", demo.sqlite_catalog(), limits, 100));
  auto fixed = admit_statement(join + "ORDER BY s.trace_id, GROUPING(t.trace_id)", demo.sqlite_catalog(), limits, 100);
  EXPECT_TRUE(fixed) << fixed.error().message;
}

TEST(GroupingSetsOnSqlite, AnUntrustedColumnStaysUntrustedThroughTheSets) {
  config::Limits limits;
  auto st = admit_statement(
      "SELECT explanation, label, count(*) AS n FROM span_annotations GROUP BY ROLLUP (explanation, label)",
      Demo::unfiltered().sqlite_catalog(), limits, 100);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(st->admission.columns.size(), 3u);
  EXPECT_TRUE(st->admission.columns[0].untrusted);
  EXPECT_FALSE(st->admission.columns[2].untrusted);
}

TEST(GroupingSetsOnPostgres, GroupingIsPrintedInItsKeywordForm) {
  config::Limits limits;
  auto st = admit_statement("SELECT kind, GROUPING(kind) AS g, count(*) FROM spans GROUP BY ROLLUP (kind)",
                            Demo::unfiltered().postgres_catalog(), limits, 100);
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_NE(st->sql.find("GROUPING(kind)"), std::string::npos) << st->sql;
  EXPECT_NE(st->sql.find("ROLLUP (kind)"), std::string::npos) << st->sql;
}

}  // namespace
}  // namespace qg::testing
