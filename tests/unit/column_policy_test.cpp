// Issue #14, columns: hidden columns (config `hidden: true`, a key's
// hidden_columns), companion columns (`requires`) and per-column float_digits,
// in admission and the schema text, on the demo's catalogs for both dialects.
//
// The oracle for hidden columns: a statement is admitted exactly as it would be
// on a catalog where the column does not exist at all: the same printed SQL when
// admitted, the same code, message, FIX and position when refused. So a hidden
// column gets the refusal an unknown one gets, with no hint it exists, and star
// expansion, USING, CTEs, derived tables and set operations behave as if it were
// not there.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "admission/pipeline.hpp"
#include "config/config.hpp"
#include "gateway/api/schema_text.hpp"
#include "gateway/startup.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

catalog::Catalog demo_catalog(Dialect d) {
  auto& demo = testing::Demo::get();
  return d == Dialect::Sqlite ? demo.sqlite_catalog() : demo.postgres_catalog();
}

catalog::Table& table(catalog::Catalog& c, const std::string& name) {
  for (auto& t : c.tables)
    if (t.name == name) return t;
  throw std::runtime_error("no table " + name);
}

// The catalog with the column removed, as if the engine had never had it.
catalog::Catalog without(catalog::Catalog c, const std::string& table_name, const std::string& column) {
  auto& t = table(c, table_name);
  std::erase_if(t.columns, [&](const catalog::Column& x) { return x.name == column; });
  std::erase_if(t.virtual_columns, [&](const catalog::VirtualColumn& x) { return x.name == column; });
  return c;
}

void expect_as_if_absent(const std::string& sql, const catalog::Catalog& hiding, const config::HiddenColumns* key,
                         const catalog::Catalog& absent) {
  SCOPED_TRACE(sql);
  const config::Limits limits;
  auto seen = admit_statement(sql, hiding, limits, std::nullopt, key);
  auto oracle = admit_statement(sql, absent, limits, std::nullopt);
  ASSERT_EQ(seen.has_value(), oracle.has_value())
      << (seen ? "admitted: " + seen->sql : "refused: " + seen.error().message)
      << (oracle ? "\n  absent: admitted " + oracle->sql : "\n  absent: refused " + oracle.error().message);
  if (seen) {
    EXPECT_EQ(seen->sql, oracle->sql);
    ASSERT_EQ(seen->admission.columns.size(), oracle->admission.columns.size());
    for (std::size_t i = 0; i < seen->admission.columns.size(); ++i)
      EXPECT_EQ(seen->admission.columns[i].name, oracle->admission.columns[i].name);
    return;
  }
  EXPECT_EQ(seen.error().code, oracle.error().code);
  EXPECT_EQ(seen.error().message, oracle.error().message);
  EXPECT_EQ(seen.error().fix, oracle.error().fix);
  EXPECT_EQ(seen.error().position, oracle.error().position);
}

// Statements around traces.user_id, hidden by the demo config (`hidden: true`).
const std::vector<std::string> kUserIdStatements = {
    "SELECT user_id FROM traces",
    "SELECT t.user_id FROM traces t",
    "SELECT \"user_id\" FROM traces",
    "SELECT * FROM traces",
    "SELECT t.* FROM traces t",
    "SELECT * FROM traces JOIN spans USING (trace_id)",
    "SELECT * FROM traces t JOIN traces u USING (trace_id)",
    "SELECT * FROM traces t JOIN traces u USING (user_id)",
    "SELECT * FROM (SELECT * FROM traces) AS x",
    "SELECT x.* FROM (SELECT * FROM traces) AS x",
    "SELECT user_id FROM (SELECT * FROM traces) AS x",
    "WITH c AS (SELECT * FROM traces) SELECT * FROM c",
    "WITH c AS (SELECT * FROM traces) SELECT user_id FROM c",
    "SELECT * FROM traces UNION ALL SELECT * FROM traces",
    "SELECT id FROM traces ORDER BY user_id",
    "SELECT id FROM traces ORDER BY traces.user_id DESC",
    "SELECT count(*) FROM traces GROUP BY user_id",
    "SELECT id FROM traces WHERE user_id = 7",
    "SELECT id FROM traces WHERE user_id IS NOT NULL",
    "SELECT count(DISTINCT user_id) FROM traces",
    "SELECT max(coalesce(user_id, 0)) FROM traces",
    "SELECT id FROM traces t JOIN projects p ON p.id = t.user_id",
    "SELECT id FROM traces WHERE EXISTS (SELECT 1 FROM traces u WHERE u.user_id = 1)",
    "SELECT (SELECT user_id FROM traces LIMIT 1)",
    "SELECT usr_id FROM traces",
    "SELECT user_ids FROM traces",
    "SELECT id, user_id FROM traces t, projects p",
    "SELECT id FROM traces WHERE session_id = 'a' OR user_id > 3",
};

TEST(HiddenColumns, ConfiguredHiddenColumnIsAsIfItDidNotExist) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto hiding = demo_catalog(d);
    auto copy = hiding;
    ASSERT_TRUE(table(copy, "traces").find_column("user_id", d)->hidden) << "the demo config hides traces.user_id";
    const auto absent = without(hiding, "traces", "user_id");
    for (const auto& sql : kUserIdStatements) expect_as_if_absent(sql, hiding, nullptr, absent);
  }
}

TEST(HiddenColumns, TheRefusalReadsLikeAnUnknownColumnsWithNoSuggestionOfIt) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    auto r = admit_statement("SELECT user_id FROM traces", demo_catalog(d), config::Limits{}, std::nullopt);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::ValidationUnknownColumn);
    EXPECT_FALSE(contains(r.error().fix, "user_id")) << r.error().fix;  // the message quotes the caller
    // A near spelling is not steered to it either.
    auto near = admit_statement("SELECT user_i FROM traces", demo_catalog(d), config::Limits{}, std::nullopt);
    ASSERT_FALSE(near);
    EXPECT_FALSE(contains(near.error().fix, "user_id")) << near.error().fix;
    // Nor is it in what * returns.
    auto star = admit_statement("SELECT * FROM traces", demo_catalog(d), config::Limits{}, std::nullopt);
    ASSERT_TRUE(star) << star.error().message;
    EXPECT_FALSE(contains(star->sql, "user_id")) << star->sql;
  }
}

// The backstop: SQLite's authorizer makes a column hidden for everybody (that
// no virtual column reads) read as NULL, should admission ever let one
// through: its value never leaves the engine. (Not a DENY: SQLite reads every
// column of a table inside a parenthesised join it flattens, a statement that
// never names the column.)
TEST(HiddenColumns, SqliteAuthorizerNeverLetsAHiddenValueOut) {
  auto& engine = testing::Demo::get().sqlite();
  auto hidden = engine.run("SELECT count(*), count(user_id), max(user_id) FROM traces", exec::RunOptions{});
  ASSERT_TRUE(hidden) << hidden.error().message;
  ASSERT_EQ(hidden->rows.size(), 1u);
  EXPECT_GT(std::get<std::int64_t>(hidden->rows[0][0]), 0);
  EXPECT_EQ(std::get<std::int64_t>(hidden->rows[0][1]), 0);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(hidden->rows[0][2]));
  // The file does hold user ids: read it without the gateway.
  const auto file = std::filesystem::temp_directory_path() / ("qg-corpus-" + std::to_string(::getpid())) / "demo.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK) << file;
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(user_id) FROM traces", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_GT(sqlite3_column_int64(st, 0), 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  // A parenthesised join (SQLite reads every traces column inside it) runs.
  auto nested = engine.run(
      "SELECT count(*) FROM spans AS s JOIN (traces AS t JOIN projects AS p ON p.id = t.project_id) ON "
      "s.trace_id = t.trace_id",
      exec::RunOptions{});
  EXPECT_TRUE(nested) << nested.error().message;
}

// Per key: the same, for that key only; other callers still see the column.
TEST(HiddenColumns, PerKeyHiddenColumnsAreAsIfTheyDidNotExistForThatKey) {
  const config::HiddenColumns key{{{"spans", {"status", "cost_usd"}}, {"projects", {"created_at"}}}};
  const std::vector<std::string> statements = {
      "SELECT * FROM spans",
      "SELECT status FROM spans",
      "SELECT s.cost_usd FROM spans s",
      "SELECT sum(cost_usd) FROM spans",
      "SELECT * FROM spans JOIN traces USING (trace_id)",
      "SELECT * FROM spans s JOIN traces t USING (status)",
      "SELECT id FROM spans ORDER BY cost_usd",
      "SELECT * FROM projects UNION SELECT * FROM projects",
      "WITH p AS (SELECT * FROM projects) SELECT created_at FROM p",
      "SELECT id FROM spans WHERE status = 'ERROR'",
      "SELECT id FROM traces t WHERE EXISTS (SELECT 1 FROM spans s WHERE s.trace_id = t.trace_id AND cost_usd > 0)",
  };
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    const auto absent =
        without(without(without(catalog, "spans", "status"), "spans", "cost_usd"), "projects", "created_at");
    for (const auto& sql : statements) expect_as_if_absent(sql, catalog, &key, absent);
    // Without the key the columns are there.
    EXPECT_TRUE(admit_statement("SELECT status, cost_usd FROM spans", catalog, config::Limits{}, std::nullopt));
  }
}

// An unqualified name the engine would resolve to the hidden column must not
// reach an outer query's column of that name, nor an output alias in GROUP BY.
// A hidden column leaves no trace (red team s3): a bare name it would capture in
// the engine means what it means without it, written so the engine reads that.
TEST(HiddenColumns, ABareNameAHiddenColumnShadowsIsWrittenForTheEngine) {
  const config::HiddenColumns key{{{"spans", {"status"}}}};
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    // The engine would read spans.status; without it the name is the outer traces.status.
    auto correlated = admit_statement("SELECT id FROM traces WHERE EXISTS (SELECT 1 FROM spans WHERE status = 'ERROR')",
                                      catalog, config::Limits{}, std::nullopt, &key);
    ASSERT_TRUE(correlated) << correlated.error().message;
    EXPECT_TRUE(contains(correlated->sql, "traces.status")) << correlated->sql;
    // GROUP BY would prefer the (hidden) input column over the alias: grouped by the output's expression.
    auto grouped = admit_statement("SELECT name AS status, count(*) FROM spans GROUP BY status", catalog,
                                   config::Limits{}, std::nullopt, &key);
    ASSERT_TRUE(grouped) << grouped.error().message;
    EXPECT_TRUE(contains(grouped->sql, "GROUP BY spans.name") || contains(grouped->sql, "GROUP BY name"))
        << grouped->sql;
    // ORDER BY a bare output name is the output column on both engines.
    EXPECT_TRUE(admit_statement("SELECT name AS status FROM spans ORDER BY status", catalog, config::Limits{},
                                std::nullopt, &key));
    // Two relations: the engine would call the bare name ambiguous; it is traces.status.
    auto both = admit_statement("SELECT status FROM spans JOIN traces USING (trace_id)", catalog, config::Limits{},
                                std::nullopt, &key);
    ASSERT_TRUE(both) << both.error().message;
    EXPECT_TRUE(contains(both->sql, "traces.status")) << both->sql;
    EXPECT_FALSE(contains(both->sql, "spans.status")) << both->sql;
    // Without the key's hidden column, the same statements mean spans.status (ambiguous for the last).
    EXPECT_FALSE(admit_statement("SELECT status FROM spans JOIN traces USING (trace_id)", catalog, config::Limits{},
                                 std::nullopt));
    // A correlated bare name whose outer relation's name an inner relation also has is refused for any name.
    auto renamed = admit_statement(
        "SELECT id FROM traces WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS x) traces WHERE status = 'ERROR')", catalog,
        config::Limits{}, std::nullopt);
    ASSERT_FALSE(renamed);
    EXPECT_EQ(renamed.error().code, ErrorCode::ValidationAmbiguousColumn);
    // Column aliases on the table would rename hidden columns by position.
    EXPECT_FALSE(admit_statement("SELECT a FROM spans AS s(a, b)", catalog, config::Limits{}, std::nullopt, &key));
  }
}

// Decision: a virtual column stays usable when its expression reads a hidden
// column (the operator wrote it to expose a safe derivative).
TEST(HiddenColumns, VirtualColumnsReadingAHiddenColumnStayUsable) {
  const config::HiddenColumns key{{{"spans", {"attributes"}}}};
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    auto r = admit_statement("SELECT model_name, total_tokens FROM spans WHERE model_name IS NOT NULL", catalog,
                             config::Limits{}, std::nullopt, &key);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(contains(r->sql, "attributes")) << r->sql;
    // The raw column stays hidden, also through star expansion.
    EXPECT_FALSE(
        admit_statement("SELECT attributes FROM spans", catalog, config::Limits{}, std::nullopt, &key).has_value());
    auto star = admit_statement("SELECT * FROM spans", catalog, config::Limits{}, std::nullopt, &key);
    ASSERT_TRUE(star);
    EXPECT_EQ(std::count_if(star->admission.columns.begin(), star->admission.columns.end(),
                            [](const auto& c) { return c.name == "attributes"; }),
              0);
    // Config-level hidden: the same.
    auto hidden_for_all = catalog;
    for (auto& c : table(hidden_for_all, "spans").columns)
      if (c.name == "attributes") c.hidden = true;
    EXPECT_TRUE(admit_statement("SELECT model_name FROM spans", hidden_for_all, config::Limits{}, std::nullopt));
    EXPECT_FALSE(admit_statement("SELECT attributes FROM spans", hidden_for_all, config::Limits{}, std::nullopt));
  }
}

TEST(HiddenColumns, SchemaTextOmitsThemAtEveryDetailLevelAndSearch) {
  const config::HiddenColumns key{{{"spans", {"attributes"}}}};
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    for (auto detail : {gateway::SchemaDetail::Brief, gateway::SchemaDetail::Detailed, gateway::SchemaDetail::Full}) {
      gateway::SchemaRequest request;
      request.detail = detail;
      const std::string text = gateway::describe_schema("demo", catalog, config::Limits{}, request);
      EXPECT_FALSE(contains(text, "user_id")) << text;
      request.hidden = &key;
      const std::string keyed = gateway::describe_schema("demo", catalog, config::Limits{}, request);
      // (The operator's comments on virtual columns may still mention it: they wrote them.)
      EXPECT_FALSE(contains(keyed, "\n  attributes")) << keyed;
      EXPECT_FALSE(contains(keyed, "user_id"));
      if (detail != gateway::SchemaDetail::Brief) {
        EXPECT_TRUE(contains(keyed, "model_name")) << "the virtual column is still described";
        EXPECT_FALSE(contains(keyed, "json_extract(attributes")) << "but not its expression over the hidden column";
        EXPECT_TRUE(contains(text, "\n  attributes")) << "other callers still see it";
      }
    }
    gateway::SchemaRequest search;
    search.search = "user_id";
    EXPECT_TRUE(contains(gateway::describe_schema("demo", catalog, config::Limits{}, search), "-- No table matches"));
    search.search = "llm.provider";  // only in the attributes column's comment
    EXPECT_FALSE(contains(gateway::describe_schema("demo", catalog, config::Limits{}, search), "-- No table matches"));
    search.hidden = &key;
    EXPECT_TRUE(contains(gateway::describe_schema("demo", catalog, config::Limits{}, search), "-- No table matches"));
  }
}

// Companions: span_annotations.score requires annotator_kind (the demo config).
TEST(CompanionColumns, AnOutputReadingTheColumnNeedsTheCompanionInTheSameRow) {
  const std::vector<std::string> refused = {
      "SELECT score FROM span_annotations",
      "SELECT a.score FROM span_annotations a",
      "SELECT avg(score) FROM span_annotations",
      "SELECT id, score * 100 AS pct FROM span_annotations",
      "SELECT CASE WHEN score > 0.5 THEN 'good' END FROM span_annotations",
      "SELECT (SELECT max(score) FROM span_annotations)",
      // dropped by an outer query
      "SELECT s FROM (SELECT score AS s, annotator_kind FROM span_annotations) AS x",
      "WITH c AS (SELECT score, annotator_kind FROM span_annotations) SELECT score FROM c",
      // a set operation whose companion column also carries another column
      "SELECT score, annotator_kind FROM span_annotations UNION ALL SELECT score, label FROM span_annotations",
      // the companion combined with something else is not the companion
      "SELECT score, annotator_kind || label FROM span_annotations",
      // a companion in form only (red team s3): computed, from another reference, or an aggregate of it
      "SELECT score, CASE WHEN false THEN annotator_kind END AS annotator_kind FROM span_annotations",
      "SELECT score, NULLIF(annotator_kind, annotator_kind) AS annotator_kind FROM span_annotations",
      "SELECT a.score, b.annotator_kind FROM span_annotations a JOIN span_annotations b ON b.id = a.id + 1",
      "SELECT avg(score), min(annotator_kind) FROM span_annotations",
      "SELECT avg(score), max(annotator_kind) FROM span_annotations",
      "SELECT score, (SELECT annotator_kind FROM span_annotations LIMIT 1) AS k FROM span_annotations",
      "SELECT (SELECT avg(score) FROM span_annotations) AS s, annotator_kind FROM span_annotations",
      "WITH c AS (SELECT id, score, annotator_kind FROM span_annotations) "
      "SELECT c1.score, c2.annotator_kind FROM c c1 JOIN c c2 ON c2.id = c1.id",
      "SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY annotator_kind, label HAVING count(*) > 0 "
      "UNION ALL SELECT 'all', avg(score) FROM span_annotations",
      "SELECT avg(score) OVER () AS m, annotator_kind FROM span_annotations",
      "SELECT avg(score) OVER w AS m, annotator_kind FROM span_annotations WINDOW w AS (ORDER BY id)",
  };
  const std::vector<std::string> admitted = {
      "SELECT score, annotator_kind FROM span_annotations",
      "SELECT * FROM span_annotations",
      "SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY annotator_kind",
      "SELECT annotator_kind AS k, avg(score) FROM span_annotations GROUP BY k",
      "SELECT annotator_kind, avg(score) FROM span_annotations GROUP BY 1",
      "SELECT avg(score) OVER (PARTITION BY annotator_kind) AS m, annotator_kind FROM span_annotations",
      "SELECT avg(score) OVER w AS m, annotator_kind FROM span_annotations WINDOW w AS (PARTITION BY "
      "annotator_kind)",
      "SELECT x.k, x.m FROM (SELECT annotator_kind AS k, avg(score) AS m FROM span_annotations GROUP BY 1) AS x",
      "SELECT id FROM span_annotations WHERE score > 0.5 ORDER BY score",
      "SELECT x.s, x.k FROM (SELECT score AS s, annotator_kind AS k FROM span_annotations) AS x",
      "WITH c AS (SELECT * FROM span_annotations) SELECT c.score, c.annotator_kind FROM c",
      "SELECT score, annotator_kind FROM span_annotations UNION SELECT score, annotator_kind FROM span_annotations",
      "SELECT count(*) FROM span_annotations WHERE score IS NULL",
  };
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    for (const auto& sql : refused) {
      auto r = admit_statement(sql, catalog, config::Limits{}, std::nullopt);
      ASSERT_FALSE(r) << sql;
      EXPECT_EQ(r.error().code, ErrorCode::ValidationCompanionColumn) << sql << ": " << r.error().message;
      EXPECT_TRUE(contains(r.error().fix, "annotator_kind")) << r.error().fix;
    }
    for (const auto& sql : admitted) {
      auto r = admit_statement(sql, catalog, config::Limits{}, std::nullopt);
      EXPECT_TRUE(r) << sql << ": " << r.error().message;
    }
  }
}

TEST(CompanionColumns, TheFixShowsTheSelectListWithTheCompanionAdded) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    auto plain = admit_statement("SELECT a.id, a.score FROM span_annotations a", catalog, config::Limits{}, {});
    ASSERT_FALSE(plain);
    EXPECT_TRUE(contains(plain.error().fix, "SELECT a.id, a.score, a.annotator_kind FROM ...")) << plain.error().fix;
    auto aggregated = admit_statement("SELECT avg(score) AS mean FROM span_annotations", catalog, config::Limits{}, {});
    ASSERT_FALSE(aggregated);
    EXPECT_TRUE(contains(aggregated.error().fix,
                         "SELECT avg(score) AS mean, annotator_kind FROM ... GROUP BY ..., "
                         "annotator_kind"))
        << aggregated.error().fix;
    // Following the FIX admits.
    EXPECT_TRUE(
        admit_statement("SELECT avg(score) AS mean, annotator_kind FROM span_annotations GROUP BY annotator_kind",
                        catalog, config::Limits{}, {}));
  }
}

// float_digits: 4 on spans.cost_usd (the demo config).
TEST(ColumnFloatDigits, OutputsComputedOnlyFromTheColumnTakeItsSetting) {
  struct Case {
    std::string sql;
    std::vector<int> digits;
  };
  const std::vector<Case> cases = {
      {"SELECT cost_usd FROM spans", {4}},
      {"SELECT sum(cost_usd), avg(cost_usd) * 1000 FROM spans", {4, 4}},
      {"SELECT id, cost_usd FROM spans", {-1, 4}},
      {"SELECT c FROM (SELECT cost_usd AS c FROM spans) AS x", {4}},
      {"WITH w AS (SELECT cost_usd FROM spans) SELECT max(cost_usd) FROM w", {4}},
      {"SELECT cost_usd / (id + 1) FROM spans", {-1}},                      // reads id too: the global rule
      {"SELECT cost_usd FROM spans UNION ALL SELECT id FROM spans", {-1}},  // either branch's column
      {"SELECT 1.5 AS x", {-1}},
  };
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto catalog = demo_catalog(d);
    for (const auto& c : cases) {
      auto r = admit_statement(c.sql, catalog, config::Limits{}, std::nullopt);
      ASSERT_TRUE(r) << c.sql << ": " << r.error().message;
      std::vector<int> got;
      for (const auto& col : r->admission.columns) got.push_back(col.float_digits);
      EXPECT_EQ(got, c.digits) << c.sql;
    }
  }
}

// ---------- start-up checks: the configuration says what it means or does not start ----------

namespace config_checks {

Result<config::Config> parse(const std::string& columns_yaml, const std::string& keys_yaml = {}) {
  return config::parse_config(
      "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n    tables:\n"
      "      spans:\n        columns:\n" +
          columns_yaml + keys_yaml,
      "/tmp");
}

TEST(ColumnPolicyConfig, KeysAreReadAndRangeChecked) {
  auto ok = parse("          cost_usd: { float_digits: 3, hidden: true, requires: [status] }\n",
                  "keys:\n  - name: a\n    sha256: " + std::string(64, 'a') +
                      "\n    databases: [demo]\n    hidden_columns: { spans: [name, kind] }\n");
  ASSERT_TRUE(ok) << ok.error().message;
  const auto& column = ok->databases.front().tables.front().columns.front().second;
  EXPECT_EQ(column.float_digits, 3);
  EXPECT_TRUE(column.hidden);
  EXPECT_EQ(column.companions, std::vector<std::string>{"status"});
  ASSERT_EQ(ok->keys.front().hidden_columns.tables.size(), 1u);
  EXPECT_EQ(ok->keys.front().hidden_columns.tables.front().second, (std::vector<std::string>{"name", "kind"}));

  EXPECT_FALSE(parse("          cost_usd: { float_digits: 18 }\n"));
  EXPECT_FALSE(parse("          cost_usd: { requires: [] }\n"));
  EXPECT_FALSE(parse("          cost_usd: { requires: [cost_usd] }\n"));
  EXPECT_FALSE(parse("          cost_usd: { requires: [a, a] }\n"));
  EXPECT_FALSE(parse("          cost_usd: { requires: status }\n"));
  EXPECT_FALSE(parse("          cost_usd: { hiden: true }\n"));
  EXPECT_FALSE(parse("          cost_usd: {}\n", "keys:\n  - name: a\n    sha256: " + std::string(64, 'a') +
                                                     "\n    databases: [demo]\n    hidden_columns: { spans: [] }\n"));
}

// The demo config with `edit` applied, opened as start-up opens it.
Status open_demo_with(const std::function<void(config::Config&)>& edit) {
  testing::Demo::get();  // the database file exists from here on
  auto config =
      gateway::demo_config(std::filesystem::temp_directory_path() / ("qg-corpus-" + std::to_string(::getpid())));
  if (!config) return config.error();
  edit(*config);
  auto opened = gateway::open_databases(*config);
  if (!opened) return opened.error();
  return {};
}

config::ColumnCuration& curated(config::Config& c, const std::string& table, const std::string& column) {
  for (auto& t : c.databases.front().tables)
    if (t.name == table)
      for (auto& [name, curation] : t.columns)
        if (name == column) return curation;
  throw std::runtime_error("not curated: " + table + "." + column);
}

config::ApiKey key_hiding(const std::string& table, std::vector<std::string> columns) {
  config::ApiKey key{"k", std::string(64, 'a'), {"demo"}, {}};
  key.hidden_columns.tables.emplace_back(table, std::move(columns));
  return key;
}

TEST(ColumnPolicyConfig, StartUpRefusesWhatCouldNeverWork) {
  EXPECT_TRUE(open_demo_with([](config::Config&) {}));
  auto unknown = open_demo_with([](config::Config& c) { curated(c, "spans", "cost_usd").companions = {"stauts"}; });
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::ConfigInvalid);
  EXPECT_TRUE(contains(unknown.error().message, "did you mean status?")) << unknown.error().message;
  auto hidden_companion = open_demo_with([](config::Config& c) {
    curated(c, "spans", "cost_usd").companions = {"status"};
    curated(c, "spans", "status").hidden = true;
  });
  ASSERT_FALSE(hidden_companion);
  EXPECT_TRUE(contains(hidden_companion.error().message, "which is hidden")) << hidden_companion.error().message;

  EXPECT_TRUE(open_demo_with([](config::Config& c) { c.keys = {key_hiding("spans", {"attributes", "model_name"})}; }));
  auto no_table = open_demo_with([](config::Config& c) { c.keys = {key_hiding("users", {"email"})}; });
  ASSERT_FALSE(no_table);
  EXPECT_TRUE(contains(no_table.error().message, "keys[0].hidden_columns.users")) << no_table.error().message;
  auto no_column = open_demo_with([](config::Config& c) { c.keys = {key_hiding("spans", {"cost"})}; });
  ASSERT_FALSE(no_column);
  EXPECT_TRUE(contains(no_column.error().message, "'cost'")) << no_column.error().message;
  // The key would still read score, but never with its companion.
  auto companion =
      open_demo_with([](config::Config& c) { c.keys = {key_hiding("span_annotations", {"annotator_kind"})}; });
  ASSERT_FALSE(companion);
  EXPECT_TRUE(contains(companion.error().message, "companion of score")) << companion.error().message;
  EXPECT_TRUE(open_demo_with([](config::Config& c) {
    c.keys = {key_hiding("span_annotations", {"annotator_kind", "score"})};
  }));
}

}  // namespace config_checks

}  // namespace
}  // namespace qg
