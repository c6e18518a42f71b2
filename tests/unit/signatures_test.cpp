// PostgreSQL's argument signatures at admission (admission/capability/signatures.hpp,
// admission/admit/signatures.cpp). The table itself is checked against PostgreSQL by
// tests/integration/signatures_pg_test.cpp; here: it agrees with the capability table,
// and admission reads untyped literals and refuses mismatches as PostgreSQL 15 does
// (each expectation below was checked with psql on the test cluster).
#include <gtest/gtest.h>

#include <string>

#include "admission/capability/capability.hpp"
#include "admission/capability/signatures.hpp"
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

TEST(SignaturesTest, EverySignatureNamesAFunctionOfTheCapabilityTableWithKnownTypes) {
  for (const auto& s : capability::signatures()) {
    const auto* row = capability::find_function(s.function);
    ASSERT_NE(row, nullptr) << s.function << " has signatures but no capability row";
    EXPECT_EQ(row->kind, capability::FunctionKind::Scalar) << s.function;
    // Admitted or translated on some backend: a signature of a refused function would never be read.
    EXPECT_TRUE(row->sqlite.verdict != capability::Verdict::Refuse ||
                row->postgres.verdict != capability::Verdict::Refuse)
        << s.function;
    std::string_view rest = s.args;
    std::size_t n = 0;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      capability::ArgType t{};
      EXPECT_TRUE(capability::arg_type_from_name(rest.substr(0, comma), t)) << s.function << "(" << s.args << ")";
      ++n;
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    bool found = false;
    for (const auto& parsed : capability::signatures_of(s.function)) found = found || parsed.size() == n;
    EXPECT_TRUE(found) << s.function << "(" << s.args << ")";
  }
}

// The fuzzer's find (tests/fuzz/regressions/014.sql): SQLite computed max('a', 1).
TEST(SignaturesTest, AnUntypedLiteralWhereAnIntegerIsTakenIsReadAsOneOrRefused) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto bad = admit_on(d, "SELECT substr(name, 'a', 2) FROM spans");
    ASSERT_FALSE(bad) << bad->sql;
    EXPECT_EQ(bad.error().code, ErrorCode::ValidationUnsupported);
    EXPECT_TRUE(contains(bad.error().message, "invalid input syntax for type integer: \"a\"")) << bad.error().message;
    EXPECT_TRUE(contains(bad.error().fix, "substr(name, 1, 2)")) << bad.error().fix;
    EXPECT_TRUE(admit_on(d, "SELECT substr(name, 1, 2) FROM spans"));  // the FIX is admitted

    auto range = admit_on(d, "SELECT substr(name, '3000000000') FROM spans");
    ASSERT_FALSE(range);
    EXPECT_TRUE(contains(range.error().message, "out of range for type integer")) << range.error().message;
    for (const char* sql : {"SELECT substr(name, '2.0') FROM spans", "SELECT substr(name, '') FROM spans",
                            "SELECT left(name, '0x2') FROM spans", "SELECT to_hex('255')"})
      EXPECT_FALSE(admit_on(d, sql)) << sql;

    auto good =
        admit_on(d, "SELECT substr(name, ' +2 ', '3'), left(name, '-1'), round(cost_usd::numeric, '2') FROM spans");
    ASSERT_TRUE(good) << good.error().message;
    EXPECT_TRUE(contains(good->sql, "substr(name, 2, 3)")) << good->sql;
    EXPECT_FALSE(contains(good->sql, "'-1'")) << good->sql;
    EXPECT_FALSE(contains(good->sql, "'2'")) << good->sql;
  }
}

TEST(SignaturesTest, AKnownArgumentTypeWithoutASignatureIsRefusedWithTheCast) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto big = admit_on(d, "SELECT substr(name, count(*)) FROM spans GROUP BY name");
    ASSERT_FALSE(big);
    EXPECT_TRUE(contains(big.error().message, "function substr(text, bigint) does not exist")) << big.error().message;
    EXPECT_TRUE(contains(big.error().fix, "CAST(count(*) AS integer)")) << big.error().fix;
    EXPECT_TRUE(admit_on(d, "SELECT substr(name, CAST(count(*) AS integer)) FROM spans GROUP BY name"));

    for (const char* sql :
         {"SELECT left(name, 2.0) FROM spans", "SELECT split_part(name, '.', 2::bigint) FROM spans",
          "SELECT sqrt(name) FROM spans", "SELECT upper(id > 1) FROM spans", "SELECT left(name, cost_usd) FROM spans",
          "SELECT substr(name) FROM spans", "SELECT abs(name) FROM spans", "SELECT strpos(name, 1) FROM spans"}) {
      auto r = admit_on(d, sql);
      ASSERT_FALSE(r) << sql;
      EXPECT_TRUE(contains(r.error().message, "does not exist")) << sql << ": " << r.error().message;
    }
    // Common correct SQL stays admitted: implicit casts and the kindness rule for round(double precision, n).
    for (const char* sql :
         {"SELECT substr(name, 2, 3), left(name, length(name) - 1), round(avg(cost_usd)::numeric, 2) FROM spans "
          "GROUP BY name",
          "SELECT round(cost_usd, 2), power(2, 3), log(2, 8), sqrt(4), abs(id) FROM spans",
          "SELECT split_part(name, '.', 1), strpos(name, 'a'), replace(name, 'a', 'b') FROM spans",
          "SELECT date_trunc('day', start_time), to_char(start_time, 'YYYY-MM') FROM spans"}) {
      auto r = admit_on(d, sql);
      EXPECT_TRUE(r) << sql << ": " << r.error().message;
    }
  }
}

TEST(SignaturesTest, RegularExpressionSubstringIsNotReadAsAPositionOnSqlite) {
  auto r = admit_on(Dialect::Sqlite, "SELECT substring(name, '2') FROM spans");
  ASSERT_FALSE(r) << r->sql;
  EXPECT_EQ(r.error().code, ErrorCode::CapabilityNotOnSqlite);
  EXPECT_TRUE(contains(r.error().fix, "regexp_substr(name, '2')")) << r.error().fix;
  EXPECT_TRUE(admit_on(Dialect::Postgres, "SELECT substring(name, '2') FROM spans"));
}

// PostgreSQL's select_common_type (branch_types.cpp): CASE / COALESCE / UNION branches of different
// type categories are its error; an untyped literal meeting a number is read as that number, or is its error.
TEST(SignaturesTest, BranchesOfDifferentTypeCategoriesAreRefused) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    for (const char* sql :
         {"SELECT CASE WHEN id > 1 THEN name ELSE id END FROM spans", "SELECT COALESCE(name, 0) FROM spans",
          "SELECT id FROM spans UNION SELECT name FROM spans", "SELECT CASE WHEN id > 1 THEN 1 ELSE 'a' END FROM spans",
          "SELECT id = 'a' FROM spans", "SELECT id + '1.5' FROM spans"}) {
      auto r = admit_on(d, sql);
      ASSERT_FALSE(r) << sql << " → " << r->sql;
      EXPECT_FALSE(r.error().fix.empty()) << sql;
    }
    auto text = admit_on(d, "SELECT CASE WHEN id > 1 THEN name ELSE CAST(id AS text) END FROM spans");
    EXPECT_TRUE(text) << text.error().message;  // the FIX
    for (const char* sql : {"SELECT CASE WHEN id > 1 THEN 1 ELSE 0.5 END FROM spans",
                            "SELECT COALESCE(cost_usd, 0), COALESCE(name, '') FROM spans",
                            "SELECT CASE WHEN id > 1 THEN true ELSE id > 5 END FROM spans",
                            "SELECT id FROM spans UNION SELECT 1", "SELECT name FROM spans UNION SELECT 'x'"}) {
      auto r = admit_on(d, sql);
      EXPECT_TRUE(r) << sql << ": " << r.error().message;
    }
    auto read = admit_on(d, "SELECT id = ' 7 ', CASE WHEN id > 1 THEN 1 ELSE '2' END AS c FROM spans");
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_TRUE(contains(read->sql, "id = 7")) << read->sql;
    EXPECT_TRUE(contains(read->sql, "ELSE 2 END")) << read->sql;
  }
}

// differential open-9: a date meeting a timestamptz is a timestamptz in PostgreSQL; SQLite printed the date.
TEST(SignaturesTest, ADateMeetingATimestamptzIsRefusedOnSqliteWithTheCast) {
  for (const char* sql : {"SELECT start_time FROM spans UNION SELECT CAST(start_time AS date) FROM spans",
                          "SELECT COALESCE(CAST(start_time AS date), start_time) FROM spans"}) {
    auto r = admit_on(Dialect::Sqlite, sql);
    ASSERT_FALSE(r) << sql << " → " << r->sql;
    EXPECT_EQ(r.error().code, ErrorCode::CapabilityNotOnSqlite);
    EXPECT_TRUE(contains(r.error().fix, "AS timestamptz)")) << r.error().fix;
    EXPECT_TRUE(admit_on(Dialect::Postgres, sql));
  }
  EXPECT_TRUE(
      admit_on(Dialect::Sqlite,
               "SELECT start_time FROM spans UNION SELECT CAST(CAST(start_time AS date) AS timestamptz) FROM spans"));
}

}  // namespace
}  // namespace qg
