// jsonb row sources in FROM (admission/admit/json_rows.cpp) as printed for each backend: PostgreSQL's text
// as written, SQLite's json_each(pg_json_rows(...)) with references pointed at json_each's columns and
// every name json_each shares qualified. Their answers are judged against PostgreSQL by
// tests/parity/json_rows.sql; the refusals are in tests/corpus/admission/json_rows.tsv.
#include <gtest/gtest.h>

#include "admission/pipeline.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

std::string printed(std::string_view sql, Dialect d) {
  auto& demo = testing::Demo::get();
  const catalog::Catalog catalog = d == Dialect::Sqlite ? demo.sqlite_catalog() : demo.postgres_catalog();
  config::Limits limits;
  auto admitted = admit_statement(sql, catalog, limits, std::nullopt);
  if (!admitted) return "refused: " + admitted.error().message;
  return admitted->sql;
}

TEST(JsonRowsAdmissionTest, SqliteReadsJsonEachWithPostgresNames) {
  const std::string s =
      printed("SELECT id, k FROM spans, jsonb_object_keys(attributes) AS k WHERE id < 9 ORDER BY id", Dialect::Sqlite);
  EXPECT_NE(s.find("json_each(pg_json_rows("), std::string::npos) << s;
  EXPECT_NE(s.find("'jsonb_object_keys')) AS k"), std::string::npos) << s;
  EXPECT_NE(s.find("k.\"key\" AS k"), std::string::npos) << s;
  EXPECT_EQ(s.find(" id "), std::string::npos) << s;        // every id qualified (json_each has one too)
  EXPECT_NE(s.find("ORDER BY 1"), std::string::npos) << s;  // the output id, by position
}

TEST(JsonRowsAdmissionTest, PostgresRunsTheCallAsWritten) {
  const std::string s = printed(
      "SELECT e.key, e.value FROM spans s CROSS JOIN LATERAL jsonb_each_text(s.attributes) AS e", Dialect::Postgres);
  EXPECT_NE(s.find("jsonb_each_text(s.attributes) AS e"), std::string::npos) << s;
  EXPECT_EQ(s.find("json_each("), std::string::npos) << s;
}

}  // namespace
}  // namespace qg
