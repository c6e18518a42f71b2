// Row filters against the deleted-rows oracle, on both backends. Every
// statement of tests/corpus/row_filters/reach.tsv runs through admission with
// the filters below on the full demo data, and (the oracle) through admission
// WITHOUT filters on a copy where the rows the filters hide are deleted: a
// SQLite file copy, and on PostgreSQL a schema of copies in the test cluster's
// demo database (dropped at the end). The answers must be equal.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <pqxx/pqxx>

#include "admission/pipeline.hpp"
#include "admission/rewrite/row_filters.hpp"
#include "admission/rewrite/virtual_columns.hpp"
#include "gateway/api/bindings.hpp"
#include "gateway/startup.hpp"
#include "tests/integration/pg_demo.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

// The filters (PostgreSQL SQL, admitted for both backends) and, per backend,
// the condition that keeps the same rows, written by hand, for the oracle copy.
struct FilterCase {
  const char* table;
  const char* filter;
  const char* keep_sqlite;
  const char* keep_postgres;
};
// In dependency order: a filter reads only tables cut before it.
const FilterCase kFilters[] = {
    {"projects", "id <> :hidden_project", "id <> 5", "id <> 5"},
    {"traces", "start_time < '2026-11-01 00:00:00+00' AND project_id <> :hidden_project",
     "julianday(start_time) < julianday('2026-11-01') AND project_id <> 5",
     "start_time < timestamptz '2026-11-01 00:00:00+00' AND project_id <> 5"},
    {"spans", "start_time < '2026-11-01 00:00:00+00' AND trace_id IN (SELECT trace_id FROM traces)",
     "julianday(start_time) < julianday('2026-11-01') AND trace_id IN (SELECT trace_id FROM traces)",
     "start_time < timestamptz '2026-11-01 00:00:00+00' AND trace_id IN (SELECT trace_id FROM traces)"},
    {"span_annotations", "span_id IN (SELECT id FROM spans)", "span_id IN (SELECT id FROM spans)",
     "span_id IN (SELECT id FROM spans)"},
};

// The demo configs' own filters are replaced: these are the ones the corpus and the oracle agree on.
void without_filters(config::Database& db) {
  for (auto& t : db.tables) {
    t.row_filter.clear();
    t.row_filter_note.clear();
  }
}

void add_filters(config::Database& db) {
  without_filters(db);
  for (const auto& f : kFilters)
    for (auto& t : db.tables)
      if (t.name == f.table) {
        t.row_filter = f.filter;
        t.row_filter_note = "test cut";
      }
}

config::ApiKey tenant_key() {
  config::ApiKey key;
  key.name = "tenant";
  key.sha256 = std::string(64, 'a');
  key.databases = {"demo"};
  key.bind = {{"hidden_project", config::BindValue{std::int64_t{5}}}};
  return key;
}

struct CorpusCase {
  std::string where;
  std::string construct;
  std::string sql;
};

std::vector<CorpusCase> load_reach_corpus() {
  std::vector<CorpusCase> out;
  std::ifstream in(std::string(QG_SOURCE_DIR) + "/tests/corpus/row_filters/reach.tsv");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      ADD_FAILURE() << "reach.tsv:" << n << ": expected <construct> TAB <statement>";
      continue;
    }
    out.push_back({"reach.tsv:" + std::to_string(n), line.substr(0, tab), line.substr(tab + 1)});
  }
  return out;
}

// One cell as text; floats to 9 significant digits (sums over the same rows in another order).
std::string cell(const exec::Value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "NULL";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.9g", x);
          return buf;
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "'" + x + "'";
        } else if constexpr (std::is_same_v<T, exec::Blob>) {
          return "blob:" + std::to_string(x.bytes.size());
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, exec::Decimal>) {
          return x.digits;
        } else if constexpr (std::is_same_v<T, exec::Array>) {
          std::string out = "{";
          for (std::size_t i = 0; i < x.items.size(); ++i) out += (i ? "," : "") + cell(x.items[i]);
          return out + "}";
        } else {
          static_assert(sizeof(T) == 0, "cell: every value kind");
        }
      },
      v);
}

// The rows as sorted lines (ORDER BY with unique keys makes the multiset the answer).
std::vector<std::string> lines(const exec::Rows& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows.rows) {
    std::string line;
    for (const auto& v : r) line += cell(v) + " | ";
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Outcome {
  bool admitted = false;
  std::string refusal;
  std::vector<std::string> rows;
  std::vector<std::string> rewrites;
};

Outcome run(const std::string& sql, const catalog::Catalog& catalog, exec::Executor& engine, const auth::Key* key) {
  Outcome out;
  auto st = admit_statement(sql, catalog, config::Limits{}, std::nullopt);
  if (!st) {
    out.refusal = std::string(name(st.error().code)) + ": " + st.error().message;
    return out;
  }
  out.rewrites = st->rewrites;
  auto bound = gateway::key_bindings(st->param_names, key, catalog);
  if (!bound) {
    out.refusal = std::string(name(bound.error().code)) + ": " + bound.error().message;
    return out;
  }
  exec::RunOptions options;
  options.deadline = exec::Clock::now() + std::chrono::seconds(30);
  options.max_rows = st->limit.row_cap + 1;
  options.params = std::move(bound).value();
  auto rows = engine.run(st->sql, options);
  if (!rows) {
    out.refusal = "engine: " + rows.error().message + "\n    " + st->sql;
    return out;
  }
  out.admitted = true;
  out.rows = lines(*rows);
  return out;
}

struct Tally {
  int compared = 0, refused_both = 0, oracle_only_refused = 0, differences = 0;
};

// Runs the corpus: `filtered` on the full data, `plain` (no filters) on the cut copy.
Tally run_corpus(const catalog::Catalog& filtered, exec::Executor& full, const catalog::Catalog& plain,
                 exec::Executor& cut, const char* backend) {
  const auto corpus = load_reach_corpus();
  EXPECT_GE(corpus.size(), 150u);
  auth::Key key{"tenant", {}, {"demo"}, {}, tenant_key().bind};
  Tally t;
  for (const auto& c : corpus) {
    SCOPED_TRACE(c.where + " [" + backend + "] " + c.sql);
    const Outcome got = run(c.sql, filtered, full, &key);
    const Outcome want = run(c.sql, plain, cut, nullptr);
    if (!got.admitted && !want.admitted) {
      ++t.refused_both;
      continue;
    }
    if (got.admitted && !want.admitted) {
      ++t.oracle_only_refused;  // e.g. `public.traces` names the oracle's own schema elsewhere
      std::cerr << "  oracle cannot run " << c.where << ": " << want.refusal << "\n";
      continue;
    }
    if (!got.admitted) {
      ++t.differences;
      ADD_FAILURE() << "refused only with row filters: " << got.refusal;
      continue;
    }
    ++t.compared;
    const bool reads_filtered = std::any_of(got.rewrites.begin(), got.rewrites.end(),
                                            [](const std::string& r) { return r.starts_with("row-filter:"); });
    EXPECT_TRUE(reads_filtered) << "every corpus statement reads a filtered table; `applied` must say so";
    if (got.rows != want.rows) {
      ++t.differences;
      std::string g, w;
      for (std::size_t i = 0; i < got.rows.size() && i < 5; ++i) g += "\n    " + got.rows[i];
      for (std::size_t i = 0; i < want.rows.size() && i < 5; ++i) w += "\n    " + want.rows[i];
      ADD_FAILURE() << "gateway (" << got.rows.size() << " rows):" << g << "\n  oracle (" << want.rows.size()
                    << " rows):" << w;
    }
  }
  std::cerr << "row-filter oracle [" << backend << "]: " << corpus.size() << " statements, " << t.compared
            << " compared, " << t.differences << " differences, " << t.refused_both << " refused on both, "
            << t.oracle_only_refused << " not runnable on the oracle\n";
  return t;
}

TEST(RowFilterOracleTest, SqliteEqualsDeletedRows) {
  const auto dir = make_temp_dir("qg-rowfilter");
  auto config = gateway::demo_config(dir);
  ASSERT_TRUE(config) << config.error().message;
  // The oracle copy first, from the untouched file.
  const auto full_path = config->databases.front().path;
  const auto cut_path = dir / "cut.db";
  auto plain_config = *config;  // demo_config generated the file
  without_filters(plain_config.databases.front());
  std::filesystem::copy_file(full_path, cut_path);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(cut_path.c_str(), &db), SQLITE_OK);
    for (const auto& f : kFilters) {
      const std::string sql = std::string("DELETE FROM ") + f.table + " WHERE NOT coalesce((" + f.keep_sqlite + "), 0)";
      char* err = nullptr;
      ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << sql << ": " << (err ? err : "");
      std::cerr << "  oracle copy: " << f.table << " lost " << sqlite3_changes(db) << " rows\n";
      EXPECT_GT(sqlite3_changes(db), 0) << "the cut of " << f.table << " must bite on the demo data";
    }
    sqlite3_close(db);
  }
  plain_config.databases.front().path = cut_path;
  auto cut = gateway::open_databases(plain_config);
  ASSERT_TRUE(cut) << cut.error().message;

  add_filters(config->databases.front());
  config->keys = {tenant_key()};
  auto full = gateway::open_databases(*config);
  ASSERT_TRUE(full) << full.error().message;
  auto& f = full->begin()->second;
  auto& c = cut->begin()->second;
  const Tally t = run_corpus(f.catalog, *f.executor, c.catalog, *c.executor, "sqlite");
  EXPECT_EQ(t.differences, 0);
  EXPECT_GE(t.compared, 150);
  std::filesystem::remove_all(dir);
}

TEST(RowFilterOracleTest, PostgresEqualsDeletedRows) {
  QG_PG_TEST_SERVER(server);
  auto config = config::load_config(kDemoPostgresConfig);
  ASSERT_TRUE(config) << config.error().message;
  const std::string schema = "filters_oracle_" + std::to_string(getpid());
  // The oracle: a schema of copies with the hidden rows left out, readable by qg_reader.
  {
    pqxx::connection admin(pg_dsn(server, "postgres", "demo"));
    pqxx::work tx(admin);
    tx.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    tx.exec("CREATE SCHEMA " + schema);
    for (const auto& t : config->databases.front().tables)
      tx.exec("CREATE TABLE " + schema + "." + t.name + " AS SELECT * FROM public." + t.name);
    for (const auto& f : kFilters) {
      // Each keep condition reads the schema's copies (cut before it, in this order).
      tx.exec("SET LOCAL search_path = " + schema);
      auto r = tx.exec(std::string("DELETE FROM ") + f.table + " WHERE NOT coalesce((" + f.keep_postgres + "), false)");
      EXPECT_GT(r.affected_rows(), 0u) << "the cut of " << f.table << " must bite on the demo data";
    }
    // The demo's keys and indexes, so the oracle runs as fast as the original.
    tx.exec("ALTER TABLE " + schema + ".projects ADD PRIMARY KEY (id)");
    tx.exec("ALTER TABLE " + schema + ".traces ADD PRIMARY KEY (id)");
    tx.exec("ALTER TABLE " + schema + ".spans ADD PRIMARY KEY (id)");
    tx.exec("ALTER TABLE " + schema + ".span_annotations ADD PRIMARY KEY (id)");
    tx.exec("CREATE UNIQUE INDEX ON " + schema + ".traces (trace_id)");
    tx.exec("CREATE INDEX ON " + schema + ".traces (project_id)");
    tx.exec("CREATE INDEX ON " + schema + ".spans (trace_id)");
    tx.exec("CREATE INDEX ON " + schema + ".spans (parent_id)");
    tx.exec("CREATE INDEX ON " + schema + ".span_annotations (span_id)");
    tx.exec("GRANT USAGE ON SCHEMA " + schema + " TO qg_reader");
    tx.exec("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO qg_reader");
    tx.exec("ANALYZE");
    tx.commit();
  }
  struct DropSchema {
    std::string dsn, schema;
    ~DropSchema() {
      try {
        pqxx::connection admin(dsn);
        pqxx::nontransaction tx(admin);
        tx.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      } catch (const std::exception& e) {
        std::cerr << "cannot drop " << schema << ": " << e.what() << "\n";
      }
    }
  } drop{pg_dsn(server, "postgres", "demo"), schema};

  auto open = [&](config::Database db) -> Result<std::pair<std::unique_ptr<exec::Executor>, catalog::Catalog>> {
    exec::PostgresOptions options;
    options.dsn = pg_dsn(server, "qg_reader", "demo");
    options.connections = 1;
    options.functions = capability::postgres_plan_functions();
    auto executor = exec::open_postgres(db, std::move(options));
    if (!executor) return executor.error();
    catalog::Catalog cat = (*executor)->catalog();
    if (auto s = rewrite::attach_virtual_columns(cat, db); !s) return s.error();
    if (auto s = rewrite::attach_row_filters(cat, db); !s) return s.error();
    // As open_databases does: the plan gate requires the key-bound filters in every plan.
    (*executor)->set_bound_row_filters(gateway::bound_row_filters(cat));
    return std::make_pair(std::move(executor).value(), std::move(cat));
  };
  config::Database cut_db = config->databases.front();
  without_filters(cut_db);
  cut_db.schema = schema;
  auto cut = open(cut_db);
  ASSERT_TRUE(cut) << cut.error().message;
  config::Database full_db = config->databases.front();
  add_filters(full_db);
  auto full = open(full_db);
  ASSERT_TRUE(full) << full.error().message;
  // projects and traces bind :hidden_project: the plan gate checks every plan for their filters.
  const auto bound = gateway::bound_row_filters(full->second);
  ASSERT_GE(bound.size(), 2u);
  const Tally t = run_corpus(full->second, *full->first, cut->second, *cut->first, "postgres");
  EXPECT_EQ(t.differences, 0);
  EXPECT_GE(t.compared, 150);
}

// The demo configs' own filters (only complete days: start_time < CURRENT_DATE;
// not the internal-tests project, 6) admit on both backends and, the demo data
// lying in the past, keep every row of the other projects.
void expect_demo_filter_keeps_the_past(const catalog::Catalog& filtered, exec::Executor& engine) {
  ASSERT_TRUE(filtered.find_table("traces")->row_filter);
  ASSERT_TRUE(filtered.find_table("spans")->row_filter);
  catalog::Catalog plain = filtered;
  for (auto& t : plain.tables) t.row_filter.reset();
  for (const auto& [sql, unfiltered] :
       {std::pair{"SELECT count(*), max(start_time) FROM traces",
                  "SELECT count(*), max(start_time) FROM traces WHERE project_id <> 6"},
        std::pair{"SELECT count(*), max(start_time) FROM spans",
                  "SELECT count(*), max(start_time) FROM spans WHERE trace_id IN (SELECT trace_id FROM traces WHERE "
                  "project_id <> 6)"}}) {
    const Outcome got = run(sql, filtered, engine, nullptr);
    const Outcome all = run(unfiltered, plain, engine, nullptr);
    ASSERT_TRUE(got.admitted) << got.refusal;
    ASSERT_TRUE(all.admitted) << all.refusal;
    EXPECT_EQ(got.rows, all.rows) << sql;
    EXPECT_FALSE(got.rewrites.empty());
  }
}

TEST(RowFilterDemoTest, SqliteDemoConfigKeepsCompleteDays) {
  const auto dir = make_temp_dir("qg-rowfilter-demo");
  auto config = gateway::demo_config(dir);
  ASSERT_TRUE(config) << config.error().message;
  auto dbs = gateway::open_databases(*config);
  ASSERT_TRUE(dbs) << dbs.error().message;
  expect_demo_filter_keeps_the_past(dbs->begin()->second.catalog, *dbs->begin()->second.executor);
  std::filesystem::remove_all(dir);
}

TEST(RowFilterDemoTest, PostgresDemoConfigKeepsCompleteDays) {
  QG_REAL_DEMO(demo);
  ASSERT_TRUE(rewrite::attach_row_filters(demo.catalog, demo.database));
  expect_demo_filter_keeps_the_past(demo.catalog, *demo.executor);
}

}  // namespace
}  // namespace qg::testing
