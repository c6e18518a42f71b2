// SELECT * over JOIN ... USING, as PostgreSQL answers it (issue #11 section 3):
// the merged columns first, each COALESCE of both sides (a RIGHT or FULL join
// has rows only the right side fills), then the left side's other columns,
// then the right side's. Oracle: the same statement run directly on
// PostgreSQL, unrewritten. Each statement goes through the pipeline and the
// executor of both demo backends and must give PostgreSQL's column names and
// rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "admission/pipeline.hpp"
#include "tests/integration/pg_demo.hpp"
#include "tests/integration/test_support.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::testing {
namespace {

const char* const kLeft = "(VALUES ('a1', 1), ('a2', 2), ('a0', NULL)) AS a(x, c)";
const char* const kRight = "(VALUES (2, 'b2'), (3, 'b3'), (NULL, 'bn')) AS b(c, y)";
const char* const kThird = "(VALUES (3, 'd3'), (4, 'd4')) AS d(c, z)";

std::vector<std::string> statements() {
  const std::string l = kLeft, r = kRight, d = kThird;
  std::vector<std::string> out;
  for (const char* join : {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
    out.push_back("SELECT * FROM " + l + " " + join + " " + r + " USING (c) ORDER BY 1, 2, 3");
    out.push_back("SELECT a.*, b.* FROM " + l + " " + join + " " + r + " USING (c) ORDER BY 1, 2, 3, 4");
    out.push_back("SELECT c, x, y FROM " + l + " " + join + " " + r + " USING (c) ORDER BY 1, 2, 3");
    out.push_back("SELECT * FROM " + l + " " + join + " " + r + " USING (c) FULL JOIN " + d +
                  " USING (c) ORDER BY 1, 2, 3, 4");
  }
  out.push_back(
      "SELECT * FROM (VALUES (1, 'p', 'a')) AS a(k, j, x) FULL JOIN (VALUES ('p', 1, 'b'), ('q', 2, 'c')) "
      "AS b(j, k, y) USING (j, k) ORDER BY 1, 2");
  out.push_back(
      "SELECT * FROM (SELECT id, span_id FROM span_annotations WHERE id <= 3) AS a RIGHT JOIN (SELECT id "
      "AS span_id, name FROM spans WHERE id BETWEEN 25 AND 30) AS s USING (span_id) ORDER BY 1, 2");
  return out;
}

std::string show(const exec::Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* d = std::get_if<double>(&v)) return std::to_string(*d);
  if (const auto* n = std::get_if<exec::Decimal>(&v)) return n->digits;
  return "blob";
}

// Column names, then the rows sorted: SQLite sorts NULLs first where
// PostgreSQL sorts them last, which is not what this test is about.
std::string show(const exec::Rows& rows) {
  std::string out;
  for (const auto& c : rows.columns) out += c.name + " ";
  out += "|";
  std::vector<std::string> shown;
  for (const auto& row : rows.rows) {
    std::string r = " (";
    for (const auto& v : row) r += show(v) + ",";
    shown.push_back(r + ")");
  }
  std::sort(shown.begin(), shown.end());
  for (const auto& r : shown) out += r;
  return out;
}

exec::RunOptions options() {
  return exec::RunOptions{.max_rows = 100, .deadline = exec::Clock::now() + std::chrono::seconds(5)};
}

TEST(UsingStarTest, BothBackendsAnswerAsPostgresDoes) {
  QG_REAL_DEMO(pg);
  auto& lite = Demo::get();
  config::Limits limits;
  for (const auto& sql : statements()) {
    auto want = pg.executor->run(sql, options());
    ASSERT_TRUE(want) << "PostgreSQL itself: " << want.error().message << "\n  " << sql;
    ASSERT_FALSE(want->rows.empty()) << sql;
    for (Dialect d : {Dialect::Postgres, Dialect::Sqlite}) {
      const catalog::Catalog& catalog = d == Dialect::Postgres ? pg.catalog : lite.sqlite_catalog();
      exec::Executor& executor = d == Dialect::Postgres ? *pg.executor : lite.sqlite();
      auto st = admit_statement(sql, catalog, limits, std::nullopt);
      ASSERT_TRUE(st) << dialect_name(d) << ": " << st.error().message << "\n  " << sql;
      auto got = executor.run(st->sql, options());
      ASSERT_TRUE(got) << dialect_name(d) << ": " << got.error().message << "\n  " << st->sql;
      EXPECT_EQ(show(*got), show(*want)) << dialect_name(d) << "\n  sql: " << sql << "\n  rendered: " << st->sql;
    }
  }
}

}  // namespace
}  // namespace qg::testing
