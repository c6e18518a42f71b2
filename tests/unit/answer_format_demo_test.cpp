// One answer format on the SQLite demo (issue #12): boolean-valued output
// columns answer booleans, stored timestamps answer PostgreSQL's ISO-8601 UTC
// text, column types are PostgreSQL's names. The PostgreSQL side of the same
// statements is checked against PostgreSQL itself by the parity run
// (tests/fidelity/parity.hpp, ctest fidelity_parity).
#include <gtest/gtest.h>

#include "admission/pipeline.hpp"
#include "executors/postgres/pg_values.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::testing {
namespace {

exec::Rows run(const std::string& sql) {
  auto& demo = Demo::get();
  auto statement = admit_statement(sql, demo.sqlite_catalog(), config::Limits{}, std::nullopt);
  EXPECT_TRUE(statement.has_value()) << sql << ": " << (statement ? "" : statement.error().message);
  if (!statement) return {};
  exec::RunOptions options;
  options.deadline = exec::Clock::now() + std::chrono::seconds(10);
  options.columns = &statement->admission.columns;
  auto rows = demo.sqlite().run(statement->sql, options);
  EXPECT_TRUE(rows.has_value()) << sql << ": " << (rows ? "" : rows.error().message);
  return rows ? std::move(rows).value() : exec::Rows{};
}

TEST(AnswerFormatDemo, BooleanExpressionsAnswerBooleans) {
  const auto r =
      run("SELECT id = 1 AS a, id IS NULL AS b, EXISTS (SELECT 1 FROM spans) AS c, id IN (1, 2) AS d, "
          "name LIKE 'support%' AS e, NOT (id = 1) AS f, id BETWEEN 1 AND 2 AS g, id AS h, true AS i "
          "FROM projects WHERE id = 1");
  ASSERT_EQ(r.rows.size(), 1u);
  // (id: a SQLite INTEGER column is PostgreSQL's integer, as GET /v1/schema names it.)
  const std::vector<exec::Value> want = {true, false, true, true, true, false, true, std::int64_t{1}, true};
  EXPECT_EQ(r.rows[0], want);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(r.columns[i].type, i == 7 ? "integer" : "boolean") << i;
}

TEST(AnswerFormatDemo, NullBooleanStaysNull) {
  const auto r = run("SELECT session_id = 'x' AS a FROM traces WHERE session_id IS NULL ORDER BY id LIMIT 1");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0], exec::Value(std::monostate{}));
}

TEST(AnswerFormatDemo, SetOperationTakesTheLeftBranchType) {
  const auto r =
      run("SELECT id = 1 AS a FROM projects WHERE id = 1 UNION ALL SELECT id = 1 FROM projects WHERE id = 2");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0][0], exec::Value(true));
  EXPECT_EQ(r.rows[1][0], exec::Value(false));
}

TEST(AnswerFormatDemo, StoredTimestampsAnswerAsPostgresPrintsThem) {
  // traces id 1: stored '2026-09-16T00:19:23.561+00:00'; PostgreSQL prints '2026-09-16 00:19:23.561+00'.
  const auto r = run("SELECT start_time, s FROM (SELECT start_time, start_time AS s FROM traces WHERE id = 1) AS x");
  ASSERT_EQ(r.rows.size(), 1u);
  const auto want = exec::pg::read_value(exec::pg::oid::kTimestamptz, "2026-09-16 00:19:23.561+00");
  EXPECT_EQ(r.rows[0][0], want);
  EXPECT_EQ(r.rows[0][1], want);
  EXPECT_EQ(r.columns[0].type, "timestamp with time zone");
}

}  // namespace
}  // namespace qg::testing
