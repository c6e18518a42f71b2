// Named parameters in configured SQL (admission/params): `:name` becomes `$n`
// only where the scanner sees a parameter, never inside literals, quoted
// names, comments or casts; admitted only for SQL whose origin is configuration.
#include <gtest/gtest.h>

#include "admission/params/params.hpp"
#include "admission/pipeline.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

params::PositionalSql positional(std::string_view sql) {
  auto r = params::to_positional(sql);
  EXPECT_TRUE(r) << sql << ": " << (r ? "" : r.error().message);
  return r ? std::move(r).value() : params::PositionalSql{};
}

TEST(ParamsScanTest, NamesBecomePositionsInOrder) {
  auto p = positional("SELECT 1 FROM t WHERE a = :alpha AND b = :beta");
  EXPECT_EQ(p.text, "SELECT 1 FROM t WHERE a = $1 AND b = $2");
  EXPECT_EQ(p.names, (std::vector<std::string>{"alpha", "beta"}));
}

TEST(ParamsScanTest, OneNameTwiceIsOnePosition) {
  auto p = positional("SELECT :x + :y + :x");
  EXPECT_EQ(p.text, "SELECT $1 + $2 + $1");
  EXPECT_EQ(p.names, (std::vector<std::string>{"x", "y"}));
}

TEST(ParamsScanTest, CastsStringsQuotedNamesCommentsAndDollarQuotesAreUntouched) {
  const std::vector<std::string> untouched = {
      "SELECT a::int FROM t",     "SELECT ':x' FROM t",       "SELECT E'\\':x' FROM t", "SELECT \"a:b\" FROM t",
      "SELECT 1 -- :x\n FROM t",  "SELECT 1 /* :x */ FROM t", "SELECT $$:x$$ FROM t",   "SELECT $tag$ :x $tag$ FROM t",
      "SELECT 'it''s :x' FROM t", "SELECT a[1:2] FROM t",     "SELECT x : y",
  };
  for (const auto& sql : untouched) {
    auto p = positional(sql);
    EXPECT_EQ(p.text, sql);
    EXPECT_TRUE(p.names.empty()) << sql;
  }
}

TEST(ParamsScanTest, CastOfAParameterKeepsTheCast) {
  auto p = positional("SELECT :days::int, :when::timestamptz");
  EXPECT_EQ(p.text, "SELECT $1::int, $2::timestamptz");
  EXPECT_EQ(p.names, (std::vector<std::string>{"days", "when"}));
}

TEST(ParamsScanTest, KeywordNamesAndCaseAreKept) {
  auto p = positional("SELECT :limit, :projectId, :_x1");
  EXPECT_EQ(p.text, "SELECT $1, $2, $3");
  EXPECT_EQ(p.names, (std::vector<std::string>{"limit", "projectId", "_x1"}));
}

TEST(ParamsScanTest, PositionalPlaceholdersAndUnreadableTextAreRefused) {
  auto dollar = params::to_positional("SELECT $1");
  ASSERT_FALSE(dollar);
  EXPECT_EQ(dollar.error().code, ErrorCode::ConfigInvalid);
  EXPECT_NE(dollar.error().fix.find(":project_id"), std::string::npos);
  auto open = params::to_positional("SELECT ':x");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().code, ErrorCode::ConfigInvalid);
}

TEST(ParamsScanTest, MultibyteTextAroundParametersIsCopiedExactly) {
  auto p = positional("SELECT 'ünï' || :name || 'çödé' AS \"naïve:x\"");
  EXPECT_EQ(p.text, "SELECT 'ünï' || $1 || 'çödé' AS \"naïve:x\"");
  EXPECT_EQ(p.names, (std::vector<std::string>{"name"}));
}

AdmitOptions configured(std::vector<admit::ParamSpec> specs) {
  return AdmitOptions{Origin::Configuration, std::move(specs)};
}

TEST(ParamsAdmitTest, ConfiguredSqlRendersPositionsPerDialect) {
  const char* sql = "SELECT trace_id FROM traces WHERE project_id = :p AND user_id <> :n AND project_id < :p + 1";
  auto opts = configured({{"p"}, {"n"}});
  auto lite = admit_statement(sql, testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt, opts);
  ASSERT_TRUE(lite) << lite.error().message;
  EXPECT_NE(lite->sql.find("project_id = ?1"), std::string::npos) << lite->sql;
  EXPECT_NE(lite->sql.find("?2"), std::string::npos) << lite->sql;
  EXPECT_NE(lite->sql.find("?1 + 1"), std::string::npos) << lite->sql;
  EXPECT_EQ(lite->param_names, (std::vector<std::string>{"p", "n"}));
  auto pg = admit_statement(sql, testing::Demo::get().postgres_catalog(), config::Limits{}, std::nullopt, opts);
  ASSERT_TRUE(pg) << pg.error().message;
  EXPECT_NE(pg->sql.find("project_id = $1"), std::string::npos) << pg->sql;
  EXPECT_NE(pg->sql.find("$1 + 1"), std::string::npos) << pg->sql;
  EXPECT_EQ(pg->param_names, (std::vector<std::string>{"p", "n"}));
}

TEST(ParamsAdmitTest, CallerSqlWithPlaceholdersIsRefused) {
  for (const char* sql :
       {"SELECT trace_id FROM traces WHERE project_id = $1", "SELECT trace_id FROM traces WHERE project_id = :p"}) {
    auto r = admit_statement(sql, testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
    ASSERT_FALSE(r) << sql;
    EXPECT_EQ(r.error().code, ErrorCode::ValidationPlaceholder) << sql << ": " << r.error().message;
    EXPECT_EQ(r.error().fix.rfind("FIX:", 0), 0u) << r.error().fix;
  }
}

TEST(ParamsAdmitTest, UndeclaredParameterIsRefused) {
  auto r = admit_statement("SELECT :nobody", testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt,
                           configured({{"p"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::ConfigInvalid);
  EXPECT_NE(r.error().message.find(":nobody"), std::string::npos);
}

TEST(ParamsAdmitTest, LineageFollowsTheDeclaration) {
  const char* sql = "SELECT :a AS a, :b AS b";
  auto r = admit_statement(sql, testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt,
                           configured({{"a", false}, {"b", true}}));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->admission.columns.size(), 2u);
  EXPECT_FALSE(r->admission.columns[0].untrusted);
  EXPECT_TRUE(r->admission.columns[1].untrusted);
}

TEST(ParamsAdmitTest, SizeBoundCountsTheDeclaredMaximum) {
  const char* sql = "SELECT :s || :s AS r";
  auto small = admit_statement(sql, testing::Demo::get().postgres_catalog(), config::Limits{}, std::nullopt,
                               configured({{"s", false, 10}}));
  ASSERT_TRUE(small) << small.error().message;
  EXPECT_EQ(small->admission.columns[0].size.in, 20);
  EXPECT_GE(small->admission.columns[0].size.k, 20);
}

}  // namespace
}  // namespace qg

namespace qg {
namespace {

// Values with quotes, unicode and SQL fragments are bound as data: each comes
// back exactly, and nothing they spell runs.
const std::vector<std::string> kNastyTexts = {
    "O'Brien", "'; DROP TABLE traces; --", "\" OR 1=1 --", "ünïcødé ☃ 𝄞", "$1", "?1", ":x", "\\", "%_", ""};

TEST(ParamsBindSqliteTest, TextValuesAreDataNotSql) {
  auto& demo = testing::Demo::get();
  for (const auto& value : kNastyTexts) {
    auto st = admit_statement("SELECT :v AS v, :v = :v AS same, length(:v) AS n", demo.sqlite_catalog(),
                              config::Limits{}, std::nullopt, AdmitOptions{Origin::Configuration, {{"v"}}});
    ASSERT_TRUE(st) << st.error().message;
    ASSERT_EQ(st->param_names, std::vector<std::string>{"v"});
    exec::RunOptions opts;
    opts.max_rows = 10;
    opts.deadline = exec::Clock::now() + std::chrono::seconds(10);
    opts.params = {value};
    auto rows = demo.sqlite().run(st->sql, opts);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows->rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(rows->rows[0][0]), value);
  }
}

TEST(ParamsBindSqliteTest, TypedValuesFilterRows) {
  auto& demo = testing::Demo::get();
  auto st = admit_statement("SELECT count(*) AS n FROM traces WHERE project_id = :p", demo.sqlite_catalog(),
                            config::Limits{}, std::nullopt, AdmitOptions{Origin::Configuration, {{"p"}}});
  ASSERT_TRUE(st) << st.error().message;
  auto literal = admit_statement("SELECT count(*) AS n FROM traces WHERE project_id = 1", demo.sqlite_catalog(),
                                 config::Limits{}, std::nullopt);
  ASSERT_TRUE(literal);
  exec::RunOptions opts;
  opts.deadline = exec::Clock::now() + std::chrono::seconds(10);
  auto expected = demo.sqlite().run(literal->sql, opts);
  ASSERT_TRUE(expected);
  for (exec::Value v : {exec::Value{std::int64_t{1}}, exec::Value{1.0}, exec::Value{std::string("1")}}) {
    opts.params = {v};
    auto got = demo.sqlite().run(st->sql, opts);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->rows, expected->rows);
  }
  opts.params = {exec::Value{std::monostate{}}};
  auto none = demo.sqlite().run(st->sql, opts);
  ASSERT_TRUE(none);
  EXPECT_EQ(std::get<std::int64_t>(none->rows[0][0]), 0);
  opts.params = {};  // a missing value is never read as NULL silently
  EXPECT_FALSE(demo.sqlite().run(st->sql, opts));
}

}  // namespace
}  // namespace qg
