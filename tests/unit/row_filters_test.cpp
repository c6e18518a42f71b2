// Row filters: start-up admission (errors name the table and the config key),
// the rewrite every reference gets, the rewrite's report, and the fail-closed
// check before printing. The answers themselves are checked against the
// deleted-rows oracle (tests/integration/row_filter_oracle_test.cpp).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "admission/pipeline.hpp"
#include "admission/rewrite/row_filters.hpp"
#include "executors/sqlite/sqlite_functions.hpp"
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

// A fence materializes each filtered table; SQLite planned a join of two fenced tables as two nested scans (no
// automatic index: the filter's index search promised a few dozen rows), 30 s on the demo for a statement that
// takes 0.2 s. The plan of that join must search one side by an index.
TEST(RowFilterRewriteTest, AFencedJoinIsSearchedByAnIndexOnSqlite) {
  auto st = admit_statement(
      "SELECT a.annotator_kind, count(*) FROM span_annotations a JOIN spans s ON a.span_id = s.id "
      "WHERE a.annotator_kind = 'LLM' AND (s.end_time - s.start_time) > interval '2 seconds' GROUP BY 1",
      testing::Demo::get().sqlite_catalog(), config::Limits{}, std::nullopt);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_NE(std::find(st->rewrites.begin(), st->rewrites.end(), "row-filter-fence"), st->rewrites.end()) << st->sql;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(testing::Demo::get().sqlite_file().c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  ASSERT_TRUE(exec::sqlite::register_functions(db));
  sqlite3_stmt* plan = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + st->sql).c_str(), -1, &plan, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  std::string steps;
  bool searched = false;
  while (sqlite3_step(plan) == SQLITE_ROW) {
    const std::string detail = reinterpret_cast<const char*>(sqlite3_column_text(plan, 3));
    steps += detail + "\n";
    searched = searched || detail.rfind("SEARCH a ", 0) == 0 || detail.rfind("SEARCH s ", 0) == 0;
  }
  sqlite3_finalize(plan);
  sqlite3_close(db);
  EXPECT_TRUE(searched) << steps << st->sql;
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

// A filter is the operator's SQL: it may read a column hidden from callers (a
// tenant column the model never sees), and the column stays hidden from them.
TEST(RowFilterStartupTest, FiltersMayReadHiddenColumns) {
  auto c = filtered({{"traces", "user_id IS NOT NULL"}});
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->find_table("traces")->find_column("user_id", c->dialect)->hidden)
      << "the demo hides traces.user_id (config/demo.yaml)";
  auto st = admit_statement("SELECT count(*) FROM traces", *c, config::Limits{}, std::nullopt);
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_NE(st->sql.find("user_id"), std::string::npos) << st->sql;
  auto direct = admit_statement("SELECT user_id FROM traces", *c, config::Limits{}, std::nullopt);
  ASSERT_FALSE(direct);
  EXPECT_NE(direct.error().message.find("does not exist"), std::string::npos) << direct.error().message;
  auto star = admit_statement("SELECT * FROM traces", *c, config::Limits{}, std::nullopt);
  ASSERT_TRUE(star) << star.error().message;
  const auto& cols = star->admission.columns;
  EXPECT_TRUE(std::none_of(cols.begin(), cols.end(), [](const auto& col) { return col.name == "user_id"; }));
}

}  // namespace
}  // namespace qg

namespace qg {
namespace {

constexpr const char* kBindConfig = R"yaml(
keys:
  - name: tenant
    sha256: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    databases: [demo]
    bind: { i: 1, n: 2.5, b: true, s: support-bot, q: "42", quote: "it's; --" }
databases:
  demo:
    backend: sqlite
    path: demo.db
    tables:
      traces:
        row_filter: "project_id <> 5"
        row_filter_note: "no internal project"
)yaml";

TEST(RowFilterConfigTest, BindValuesKeepTheirYamlTypes) {
  auto config = config::parse_config(kBindConfig, "/tmp");
  ASSERT_TRUE(config) << config.error().message;
  const auto& bind = config->keys.front().bind;
  ASSERT_EQ(bind.size(), 6u);
  EXPECT_EQ(std::get<std::int64_t>(bind[0].second), 1);
  EXPECT_EQ(std::get<double>(bind[1].second), 2.5);
  EXPECT_EQ(std::get<bool>(bind[2].second), true);
  EXPECT_EQ(std::get<std::string>(bind[3].second), "support-bot");
  EXPECT_EQ(std::get<std::string>(bind[4].second), "42") << "a quoted scalar stays a string";
  EXPECT_EQ(std::get<std::string>(bind[5].second), "it's; --");
  EXPECT_EQ(config->databases.front().tables.front().row_filter, "project_id <> 5");
  EXPECT_EQ(config->databases.front().tables.front().row_filter_note, "no internal project");
}

TEST(RowFilterConfigTest, BadBindValuesAreConfigErrors) {
  std::string nested = kBindConfig;
  nested.replace(nested.find("{ i: 1"), 6, "{ i: [1]");
  auto r = config::parse_config(nested, "/tmp");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("keys[0].bind.i"), std::string::npos) << r.error().message;
  std::string typo = kBindConfig;
  typo.replace(typo.find("row_filter:"), 11, "row_fliter:");
  auto t = config::parse_config(typo, "/tmp");
  ASSERT_FALSE(t) << "unknown keys stop the start";
}

TEST(RowFilterStartupTest, AFilterNeedingABindingNeedsKeys) {
  const auto dir = std::filesystem::temp_directory_path() / ("qg-rowfilter-anon-" + std::to_string(::getpid()));
  auto config = gateway::demo_config(dir);
  ASSERT_TRUE(config) << config.error().message;
  for (auto& t : config->databases.front().tables)
    if (t.name == "traces") t.row_filter = "project_id = :project_id";
  config->keys.clear();
  auto dbs = gateway::open_databases(*config);
  ASSERT_FALSE(dbs);
  EXPECT_EQ(dbs.error().code, ErrorCode::ConfigInvalid);
  EXPECT_NE(dbs.error().message.find("project_id"), std::string::npos) << dbs.error().message;
  EXPECT_NE(dbs.error().message.find("no keys"), std::string::npos) << dbs.error().message;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg
