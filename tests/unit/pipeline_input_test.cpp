// The pipeline's guards on the raw text, before the grammar sees it.
#include <gtest/gtest.h>

#include <algorithm>

#include "admission/pipeline.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

TEST(PipelineInputTest, NulBytesAreRefusedNotTruncated) {
  const std::string sql("SELECT 1\0; DROP TABLE spans", 27);
  auto r = admit_statement(sql, testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::ParseSyntax);
  EXPECT_EQ(r.error().position, 8);
}

TEST(PipelineInputTest, InvalidUtf8IsRefusedAsSyntax) {
  auto r = admit_statement("SELECT '\xff'", testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::ParseSyntax);
  EXPECT_NE(r.error().message.find("UTF-8"), std::string::npos);
}

TEST(PipelineInputTest, LongFlatChainsPrintFlat) {
  std::string sql = "SELECT 1";
  for (int i = 0; i < 80; ++i) sql += " + 1";  // nested, 80 parentheses overflow SQLite's parser
  auto r = admit_statement(sql, testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
  ASSERT_TRUE(r) << r.error().message;
  // One pg_int8(...) around the whole chain (bigint overflow is an error, as on PostgreSQL), never one per +.
  EXPECT_LE(std::count(r->sql.begin(), r->sql.end(), '('), 1)
      << "no nested parentheses for SQLite's parser to overflow on\n"
      << r->sql;
  auto prepared = testing::Demo::get().sqlite().prepare(r->sql, exec::Clock::now() + std::chrono::seconds(10));
  EXPECT_TRUE(prepared.has_value()) << (prepared ? "" : prepared.error().message);
}

}  // namespace
}  // namespace qg
