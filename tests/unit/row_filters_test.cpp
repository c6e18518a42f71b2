// Row filters: start-up admission (errors name the table and the config key),
// the rewrite every reference gets, the rewrite's report, and the fail-closed
// check before printing. The answers themselves are checked against the
// deleted-rows oracle (tests/integration/row_filter_oracle_test.cpp).
#include <gtest/gtest.h>

#include "admission/pipeline.hpp"
#include "admission/rewrite/row_filters.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

config::Database database(std::vector<std::pair<std::string, std::string>> filters) {
  config::Database db;
  db.name = "demo";
  for (auto& [table, filter] : filters) {
    config::TableCuration t;
    t.name = table;
    t.row_filter = filter;
    t.row_filter_note = "note for " + table;
    db.tables.push_back(std::move(t));
  }
  return db;
}

Result<catalog::Catalog> filtered(std::vector<std::pair<std::string, std::string>> filters,
                                  Dialect dialect = Dialect::Sqlite) {
  catalog::Catalog c =
      dialect == Dialect::Sqlite ? testing::Demo::get().sqlite_catalog() : testing::Demo::get().postgres_catalog();
  for (auto& t : c.tables) t.row_filter.reset();
  if (auto s = rewrite::attach_row_filters(c, database(std::move(filters))); !s) return s.error();
  return c;
}

void expect_startup_error(std::vector<std::pair<std::string, std::string>> filters, const std::string& key,
                          const std::string& words) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto c = filtered(filters, d);
    ASSERT_FALSE(c) << filters.front().second;
    EXPECT_EQ(c.error().code, ErrorCode::ConfigInvalid);
    EXPECT_NE(c.error().message.find(key), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().message.find(words), std::string::npos) << c.error().message;
  }
}

TEST(RowFilterStartupTest, FilterThatDoesNotAdmitStopsTheStart) {
  expect_startup_error({{"traces", "no_such_column = 1"}}, "databases.demo.tables.traces.row_filter", "no_such_column");
  expect_startup_error({{"traces", "project_id IN (SELECT id FROM users)"}}, "tables.traces.row_filter", "users");
  expect_startup_error({{"traces", "pg_sleep(1) IS NULL"}}, "tables.traces.row_filter", "pg_sleep");
  expect_startup_error({{"traces", "project_id = 1) OR (true"}}, "tables.traces.row_filter", "");
  expect_startup_error({{"traces", "project_id"}}, "tables.traces.row_filter", "not a condition");
  expect_startup_error({{"traces", "project_id = 1; DELETE FROM traces"}}, "tables.traces.row_filter", "");
  expect_startup_error({{"traces", "project_id = $1"}}, "tables.traces.row_filter", "positional");
}

TEST(RowFilterStartupTest, CyclesAreRefused) {
  expect_startup_error(
      {{"traces", "trace_id IN (SELECT trace_id FROM spans)"}, {"spans", "trace_id IN (SELECT trace_id FROM traces)"}},
      "row_filter", "cycle");
  expect_startup_error({{"traces", "id IN (SELECT id FROM traces WHERE project_id = 1)"}}, "tables.traces.row_filter",
                       "its own table");
}

TEST(RowFilterStartupTest, ChainsAdmitInDependencyOrder) {
  // Written in the order that needs reordering: annotations read spans, spans read traces.
  auto c = filtered({{"span_annotations", "span_id IN (SELECT id FROM spans)"},
                     {"spans", "trace_id IN (SELECT trace_id FROM traces)"},
                     {"traces", "project_id <> :hidden"}});
  ASSERT_TRUE(c) << c.error().message;
  const auto* spans = c->find_table("spans");
  ASSERT_TRUE(spans->row_filter && spans->row_filter->predicate);
  EXPECT_EQ(c->find_table("traces")->row_filter->binds, std::vector<std::string>{"bind:hidden"});
  auto st = admit_statement("SELECT count(*) FROM span_annotations", *c, config::Limits{}, std::nullopt);
  ASSERT_TRUE(st) << st.error().message;
  // The one bind parameter, through three levels of filters.
  EXPECT_EQ(st->param_names, std::vector<std::string>{"bind:hidden"});
  EXPECT_NE(st->sql.find("?1"), std::string::npos) << st->sql;
  EXPECT_NE(std::find(st->rewrites.begin(), st->rewrites.end(), "row-filter:span_annotations"), st->rewrites.end());
}

TEST(RowFilterRewriteTest, EveryReferenceIsFilteredUnderItsOwnName) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto c = filtered({{"traces", "project_id <> 5"}}, d);
    ASSERT_TRUE(c) << c.error().message;
    auto st = admit_statement(
        "SELECT t.id, (SELECT count(*) FROM traces) FROM traces t WHERE EXISTS (SELECT 1 FROM traces x WHERE x.id = "
        "t.id) UNION ALL SELECT id, 0 FROM traces",
        *c, config::Limits{}, std::nullopt);
    ASSERT_TRUE(st) << st.error().message;
    const std::string inner =
        std::string("(SELECT * FROM ") + (d == Dialect::Sqlite ? "main" : "public") + ".traces WHERE";
    std::size_t count = 0;
    for (std::size_t at = 0; (at = st->sql.find(inner, at)) != std::string::npos; ++at) ++count;
    EXPECT_EQ(count, 4u) << st->sql;
    EXPECT_NE(st->sql.find(") AS t"), std::string::npos) << st->sql;
    EXPECT_NE(st->sql.find(") AS x"), std::string::npos) << st->sql;
    EXPECT_NE(std::find(st->rewrites.begin(), st->rewrites.end(), "row-filter:traces"), st->rewrites.end());
  }
}

TEST(RowFilterRewriteTest, StarsAndVirtualColumnsSeeTheBaseTable) {
  auto c = filtered({{"spans", "kind <> 'LLM'"}});
  ASSERT_TRUE(c) << c.error().message;
  auto star = admit_statement("SELECT * FROM spans", *c, config::Limits{}, std::nullopt);
  ASSERT_TRUE(star) << star.error().message;
  auto plain =
      admit_statement("SELECT * FROM spans", testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
  ASSERT_TRUE(plain);
  ASSERT_EQ(star->admission.columns.size(), plain->admission.columns.size());
  for (std::size_t i = 0; i < star->admission.columns.size(); ++i) {
    EXPECT_EQ(star->admission.columns[i].name, plain->admission.columns[i].name);
    EXPECT_EQ(star->admission.columns[i].untrusted, plain->admission.columns[i].untrusted);  // lineage
  }
  auto v = admit_statement("SELECT max(latency_ms), model_name FROM spans s GROUP BY model_name", *c, config::Limits{},
                           std::nullopt);
  ASSERT_TRUE(v) << v.error().message;
}

TEST(RowFilterRewriteTest, ACteCannotStandInForATableAFilterReads) {
  // The filter's tables are printed schema-qualified: a CTE of the same name does not capture them.
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto c = filtered({{"spans", "trace_id IN (SELECT trace_id FROM traces)"}}, d);
    ASSERT_TRUE(c) << c.error().message;
    const std::string schema = d == Dialect::Sqlite ? "main" : "public";
    auto st = admit_statement("WITH traces AS (SELECT * FROM projects) SELECT count(*) FROM spans", *c,
                              config::Limits{}, std::nullopt);
    ASSERT_TRUE(st) << st.error().message;
    EXPECT_NE(st->sql.find("FROM " + schema + ".spans WHERE"), std::string::npos) << st->sql;
    EXPECT_NE(st->sql.find("FROM " + schema + ".traces"), std::string::npos) << st->sql;
    // The CTE itself is read as the CTE, unfiltered (it is not the table).
    auto cte =
        admit_statement("WITH spans AS (SELECT 1 AS x) SELECT count(*) FROM spans", *c, config::Limits{}, std::nullopt);
    ASSERT_TRUE(cte) << cte.error().message;
    EXPECT_EQ(cte->sql.find("WHERE"), std::string::npos) << cte->sql;
  }
}

TEST(RowFilterRewriteTest, CallerCannotWriteTheParameterOrUndoTheFilter) {
  auto c = filtered({{"traces", "project_id = :tenant"}});
  ASSERT_TRUE(c) << c.error().message;
  auto st = admit_statement("SELECT count(*) FROM traces WHERE project_id = :tenant OR true", *c, config::Limits{},
                            std::nullopt);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::ValidationPlaceholder);
}

TEST(RowFilterVerifyTest, AReferenceWithoutItsFilterIsADefect) {
  auto c = filtered({{"traces", "project_id <> 5"}});
  ASSERT_TRUE(c) << c.error().message;
  ast::Query q;
  ast::Select s;
  s.items.push_back(ast::SelectItem{ast::make_expr(ast::ColumnRef{"", "id"}), ""});
  ast::TableRef ref;
  ref.name = "traces";
  s.from.push_back(ast::FromItem{ref});
  q.body = s;
  auto bare = rewrite::verify_row_filters(q, *c);
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().code, ErrorCode::Internal);
  EXPECT_NE(bare.error().message.find("ADMISSION DEFECT"), std::string::npos);
  // Another predicate is no better than none.
  ref.row_filter = ast::Box<ast::Expr>(ast::make_expr(ast::Literal{ast::LiteralKind::Boolean, "true"}));
  std::get<ast::Select>(q.body).from.front() = ast::FromItem{ref};
  EXPECT_FALSE(rewrite::verify_row_filters(q, *c));
  ref.row_filter = ast::Box<ast::Expr>(*c->find_table("traces")->row_filter->predicate);
  std::get<ast::Select>(q.body).from.front() = ast::FromItem{ref};
  EXPECT_TRUE(rewrite::verify_row_filters(q, *c));
}

}  // namespace
}  // namespace qg
