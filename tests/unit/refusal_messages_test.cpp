// Refusals that used to name the wrong cause (issue #11, section 4): each now
// names what is wrong and a FIX that works. The corpus (tests/corpus/admission)
// holds the codes; these check the words an agent acts on, and, for SQLite's
// compound-SELECT limit, that admission and the real engine agree at the edge.
#include <gtest/gtest.h>

#include <string>

#include "admission/capability/capability.hpp"
#include "admission/pipeline.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

Result<AdmittedStatement> admit_on(Dialect dialect, const std::string& sql) {
  auto& demo = testing::Demo::get();
  if (dialect == Dialect::Sqlite) return admit_statement(sql, demo.sqlite_catalog(), config::Limits{}, std::nullopt);
  return admit_statement(sql, demo.postgres_catalog(), config::Limits{}, std::nullopt);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RefusalMessagesTest, ADuplicatedAliasIsNamedNotReportedAsAMissingColumn) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto r = admit_on(d, "SELECT s.id FROM spans s JOIN traces s ON s.trace_id = s.trace_id");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::ValidationDuplicateAlias);
    EXPECT_TRUE(contains(r.error().message, "table name 's' is used twice in one FROM (spans AS s and traces AS s)"))
        << r.error().message;
    EXPECT_TRUE(contains(r.error().fix, "traces AS s_2")) << r.error().fix;
    EXPECT_EQ(r.error().position, 30);  // the second one
  }
}

TEST(RefusalMessagesTest, AQuotedCteIsNeverOfferedAsAnAllowlistedTable) {
  // PostgreSQL folds the unquoted Users to users; the CTE keeps its capital.
  auto r = admit_on(Dialect::Postgres, "WITH \"Users\" AS (SELECT id FROM spans) SELECT id FROM Users");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::ValidationTableNotAllowed);
  EXPECT_TRUE(contains(r.error().message, "the CTE \"Users\" differs only in case")) << r.error().message;
  EXPECT_TRUE(contains(r.error().fix, "write \"Users\" in double quotes")) << r.error().fix;
  // A near miss: suggested as a CTE, spelled so that it resolves, and not listed among the tables.
  auto near = admit_on(Dialect::Postgres, "WITH \"Recent\" AS (SELECT id FROM spans) SELECT id FROM \"Recen\"");
  ASSERT_FALSE(near);
  EXPECT_TRUE(contains(near.error().fix, "did you mean the CTE \"Recent\"?")) << near.error().fix;
  const std::string fix = near.error().fix;
  const auto tables = fix.find("Allowlisted tables: ");
  ASSERT_NE(tables, std::string::npos) << fix;
  EXPECT_FALSE(contains(fix.substr(tables, fix.find('.', tables) - tables), "Recent")) << fix;
  EXPECT_TRUE(contains(fix, "CTEs in scope: Recent.")) << fix;
  // And the suggestion works.
  EXPECT_TRUE(admit_on(Dialect::Postgres, "WITH \"Recent\" AS (SELECT id FROM spans) SELECT id FROM \"Recent\""));
}

TEST(RefusalMessagesTest, ASelfReferencingCteIsRefusedAsRecursionOnBothBackends) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto r = admit_on(d, "WITH t AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM t WHERE x < 5) SELECT * FROM t");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::ValidationRecursiveCte);
    EXPECT_TRUE(contains(r.error().message, "CTE t refers to itself")) << r.error().message;
    EXPECT_TRUE(contains(r.error().fix, "without recursion")) << r.error().fix;
  }
  // Over an allowlisted table's name SQLite reads the CTE itself, PostgreSQL the table.
  auto sqlite = admit_on(Dialect::Sqlite, "WITH spans AS (SELECT * FROM spans) SELECT count(*) FROM spans");
  ASSERT_FALSE(sqlite);
  EXPECT_EQ(sqlite.error().code, ErrorCode::ValidationRecursiveCte);
  EXPECT_TRUE(contains(sqlite.error().fix, "WITH spans_1 AS")) << sqlite.error().fix;
  EXPECT_TRUE(admit_on(Dialect::Postgres, "WITH spans AS (SELECT * FROM spans) SELECT count(*) FROM spans"));
}

TEST(RefusalMessagesTest, ACteReadingALaterCtesNameIsNotASilentlyDifferentAnswerOnSqlite) {
  // SQLite would count the one row of the later CTE; PostgreSQL counts the table.
  const std::string sql = "WITH a AS (SELECT count(*) AS n FROM spans), spans AS (SELECT 1 AS x) SELECT n FROM a";
  auto r = admit_on(Dialect::Sqlite, sql);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::CapabilityNotOnSqlite);
  EXPECT_TRUE(contains(r.error().fix, "rename CTE spans")) << r.error().fix;
  EXPECT_TRUE(admit_on(Dialect::Postgres, sql));
}

TEST(RefusalMessagesTest, CteColumnListsThatDoNotFitAreRefusedBeforeTheEngine) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto r = admit_on(d, "WITH c(a, b) AS (SELECT 1) SELECT * FROM c");
    ASSERT_FALSE(r);
    EXPECT_TRUE(contains(r.error().message, "names 2 columns but its query returns 1 column")) << r.error().message;
    EXPECT_TRUE(r.error().fix.starts_with("FIX: name ")) << r.error().fix;
  }
  auto fewer = admit_on(Dialect::Sqlite, "WITH c(a) AS (SELECT 1, 2) SELECT * FROM c");
  ASSERT_FALSE(fewer);
  EXPECT_EQ(fewer.error().code, ErrorCode::CapabilityNotOnSqlite);
  EXPECT_TRUE(contains(fewer.error().fix, "exactly 2 columns")) << fewer.error().fix;
}

// The oracle is SQLite itself (the demo's executor, with the gateway's limits):
// whatever admission lets through prepares, and a chain at the limit is admitted.
TEST(RefusalMessagesTest, SqliteCompoundSelectLimitIsCheckedAtAdmissionExactlyWhereTheEngineFails) {
  const int limit = capability::kSqliteCompoundSelectTerms;
  const auto chain = [](int from, int n) {
    std::string out;
    for (int i = from; i < from + n; ++i) out += (out.empty() ? "" : " UNION ALL ") + ("SELECT " + std::to_string(i));
    return out;
  };
  const auto values = [](int n) {
    std::string out = "VALUES ";
    for (int i = 0; i < n; ++i) out += (i ? ", (" : "(") + std::to_string(i) + ")";
    return out;
  };
  struct Shape {
    std::string sql;
    bool admitted;
  };
  const std::vector<Shape> shapes{
      {chain(0, limit - 1), true},
      {chain(0, limit), true},
      {chain(0, limit + 1), false},
      {chain(0, limit + 10), false},  // (much longer chains nest past the depth limit first)
      {"SELECT * FROM (" + chain(0, limit) + ") AS p1 UNION ALL SELECT * FROM (" + chain(0, limit) + ") AS p2", true},
      {chain(0, limit - 1) + " UNION ALL (" + chain(0, limit - 1) + ")", true},  // the right member is a subquery
      {chain(0, limit - 1) + " UNION ALL " + values(5), true},                   // a VALUES on the right is one term
      {values(2) + " UNION ALL " + chain(0, limit - 2), true},                   // first in the chain: one per row
      {values(3) + " UNION ALL " + chain(0, limit - 2), false},
  };
  auto& engine = testing::Demo::get().sqlite();
  for (const auto& shape : shapes) {
    SCOPED_TRACE(shape.sql.substr(0, 80));
    auto r = admit_on(Dialect::Sqlite, shape.sql);
    ASSERT_EQ(r.has_value(), shape.admitted) << (r ? r->sql : r.error().message);
    if (r) {
      auto prepared = engine.prepare(r->sql, exec::Clock::now() + std::chrono::seconds(10));
      EXPECT_TRUE(prepared) << (prepared ? "" : prepared.error().message);
    } else {
      EXPECT_EQ(r.error().code, ErrorCode::CapabilityNotOnSqlite);
      EXPECT_TRUE(contains(r.error().message, "SQLite runs at most " + std::to_string(limit))) << r.error().message;
      EXPECT_TRUE(r.error().fix.starts_with("FIX: split")) << r.error().fix;
      // The engine agrees: the same text, as written, fails there.
      auto direct = engine.prepare(shape.sql, exec::Clock::now() + std::chrono::seconds(10));
      ASSERT_FALSE(direct);
      EXPECT_TRUE(contains(direct.error().message, "too many terms in compound SELECT")) << direct.error().message;
    }
    // PostgreSQL has no such limit.
    EXPECT_TRUE(admit_on(Dialect::Postgres, shape.sql));
  }
}

}  // namespace
}  // namespace qg
