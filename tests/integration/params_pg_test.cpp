// Named parameters bound on PostgreSQL (extended protocol, text format, type
// inferred from where the parameter stands): quotes, unicode and SQL fragments
// are data; typed values filter as literals do.
#include <gtest/gtest.h>

#include "admission/pipeline.hpp"
#include "tests/integration/pg_demo.hpp"

namespace qg::testing {
namespace {

Result<exec::Rows> run(RealDemo& demo, const std::string& sql, std::vector<admit::ParamSpec> specs,
                       std::vector<exec::Value> values) {
  auto st = admit_statement(sql, demo.catalog, config::Limits{}, std::nullopt,
                            AdmitOptions{Origin::Configuration, std::move(specs)});
  if (!st) return st.error();
  exec::RunOptions opts;
  opts.max_rows = 100;
  opts.deadline = exec::Clock::now() + std::chrono::seconds(20);
  opts.params = std::move(values);
  return demo.executor->run(st->sql, opts);
}

TEST(ParamsPgTest, TextValuesAreDataNotSql) {
  QG_REAL_DEMO(demo);
  for (const std::string value :
       {"O'Brien", "'; DROP TABLE traces; --", "\" OR 1=1 --", "ünïcødé ☃ 𝄞", "$1", "?1", ":x", "\\", "%_", ""}) {
    auto rows = run(demo, "SELECT :v AS v, length(:v) AS n", {{"v"}}, {value});
    ASSERT_TRUE(rows) << value << ": " << rows.error().message;
    ASSERT_EQ(rows->rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(rows->rows[0][0]), value);
  }
}

TEST(ParamsPgTest, TypesAreInferredFromContext) {
  QG_REAL_DEMO(demo);
  auto literal = run(demo, "SELECT count(*) AS n FROM traces WHERE project_id = 1", {}, {});
  ASSERT_TRUE(literal) << literal.error().message;
  for (exec::Value v : {exec::Value{std::int64_t{1}}, exec::Value{std::string("1")}}) {
    auto got = run(demo, "SELECT count(*) AS n FROM traces WHERE project_id = :p", {{"p"}}, {v});
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->rows, literal->rows);
  }
  // An integer where a function wants int4 (left's count): inferred as int4, where a typed int8 would not resolve.
  auto left = run(demo, "SELECT left('abcdef', :n) AS s", {{"n"}}, {std::int64_t{3}});
  ASSERT_TRUE(left) << left.error().message;
  EXPECT_EQ(std::get<std::string>(left->rows[0][0]), "abc");
  auto flag = run(demo, "SELECT count(*) AS n FROM traces WHERE (project_id = 1) = :b", {{"b"}}, {true});
  ASSERT_TRUE(flag) << flag.error().message;
  EXPECT_EQ(flag->rows, literal->rows);
  auto none = run(demo, "SELECT count(*) AS n FROM traces WHERE project_id = :p", {{"p"}}, {std::monostate{}});
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(std::get<std::int64_t>(none->rows[0][0]), 0);
}

}  // namespace
}  // namespace qg::testing
