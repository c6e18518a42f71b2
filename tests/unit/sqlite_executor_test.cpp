// The SQLite executor against a real file: introspection + curation, typed rows,
// and every engine backstop (authorizer, deadline, read-only, limits, pool).
#include "executors/sqlite/sqlite_executor.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace qg::exec {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Writes a small database with a read-write connection (the executor never writes).
void make_db(const fs::path& path, bool analyze) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql =
      "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', price REAL, note TEXT);"
      "CREATE TABLE secrets(id, token);"
      "INSERT INTO secrets VALUES (1, 'hunter2');"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
      "INSERT INTO items SELECT i, 'item ' || i, i * 1.5, CASE WHEN i % 2 = 0 THEN 'even' END FROM n;";
  if (analyze) sql += "CREATE INDEX items_name ON items(name); ANALYZE;";
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

class SqliteExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ =
        fs::temp_directory_path() / ("qg_sqlite_exec_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
    path_ = dir_ / "demo.db";
    make_db(path_, /*analyze=*/true);

    db_.name = "demo";
    db_.path = path_;
    config::TableCuration items;
    items.name = "items";
    items.comment = "Things for sale";
    items.columns.push_back({"price", config::ColumnCuration{"Unit price", "USD", false}});
    items.columns.push_back({"note", config::ColumnCuration{"Free text from the seller", "", true}});
    db_.tables.push_back(items);

    options_.path = path_;
    options_.allowed_functions = {"count", "sum", "max", "coalesce"};
    options_.connections = 2;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::unique_ptr<Executor> open() {
    auto ex = open_sqlite(db_, options_);
    EXPECT_TRUE(ex.has_value()) << (ex ? "" : ex.error().message);
    return ex ? std::move(*ex) : nullptr;
  }

  static RunOptions within(std::chrono::milliseconds budget, std::int64_t max_rows = 0) {
    return RunOptions{.max_rows = max_rows, .deadline = Clock::now() + budget};
  }

  static Error run_error(Executor& ex, const std::string& sql) {
    auto r = ex.run(sql, within(5s));
    EXPECT_FALSE(r.has_value()) << "expected a refusal for: " << sql;
    return r ? Error{} : r.error();
  }

  fs::path dir_, path_;
  config::Database db_;
  SqliteOptions options_;
};

// --- introspection ------------------------------------------------------------

TEST_F(SqliteExecutorTest, CatalogHasColumnsTypesAndCuration) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const auto& cat = ex->catalog();
  EXPECT_EQ(cat.dialect, Dialect::Sqlite);
  ASSERT_EQ(cat.tables.size(), 1u);  // secrets is not allowlisted, so not described
  const auto& t = cat.tables[0];
  EXPECT_EQ(t.name, "items");
  EXPECT_EQ(t.comment, "Things for sale");
  ASSERT_EQ(t.columns.size(), 4u);
  EXPECT_EQ(t.columns[0].name, "id");
  EXPECT_EQ(t.columns[0].type, "INTEGER");
  EXPECT_TRUE(t.columns[0].primary_key);
  EXPECT_FALSE(t.columns[0].curated);
  EXPECT_EQ(t.columns[1].name, "name");
  EXPECT_TRUE(t.columns[1].not_null);
  const auto* price = t.find_column("PRICE", Dialect::Sqlite);
  ASSERT_NE(price, nullptr);
  EXPECT_EQ(price->type, "REAL");
  EXPECT_TRUE(price->curated);
  EXPECT_EQ(price->comment, "Unit price");
  EXPECT_EQ(price->unit, "USD");
  EXPECT_FALSE(price->untrusted);
  EXPECT_TRUE(t.find_column("note", Dialect::Sqlite)->untrusted);
  ASSERT_TRUE(t.row_estimate.has_value());
  EXPECT_EQ(*t.row_estimate, 200);
}

TEST_F(SqliteExecutorTest, RowEstimateUnknownWithoutStatistics) {
  fs::remove(path_);
  make_db(path_, /*analyze=*/false);
  auto ex = open();
  ASSERT_TRUE(ex);
  EXPECT_FALSE(ex->catalog().tables[0].row_estimate.has_value());
}

TEST_F(SqliteExecutorTest, TableNameAsTheEngineSpellsIt) {
  db_.tables[0].name = "ITEMS";
  auto ex = open();
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->catalog().tables[0].name, "items");
  EXPECT_TRUE(ex->run("SELECT id FROM ITEMS LIMIT 1", within(5s)).has_value());
}

TEST_F(SqliteExecutorTest, MissingFileNamesThePath) {
  options_.path = dir_ / "nope.db";
  auto ex = open_sqlite(db_, options_);
  ASSERT_FALSE(ex.has_value());
  EXPECT_EQ(ex.error().code, ErrorCode::BackendUnavailable);
  EXPECT_EQ(ex.error().message, "database file '" + (dir_ / "nope.db").string() + "' does not exist");
}

TEST_F(SqliteExecutorTest, FileThatIsNotADatabaseIsUnavailable) {
  std::ofstream(dir_ / "junk.db") << "this is not a database, just text that is long enough to have a header....";
  options_.path = dir_ / "junk.db";
  auto ex = open_sqlite(db_, options_);
  ASSERT_FALSE(ex.has_value());
  EXPECT_EQ(ex.error().code, ErrorCode::BackendUnavailable);
  EXPECT_NE(ex.error().message.find("junk.db"), std::string::npos) << ex.error().message;
}

TEST_F(SqliteExecutorTest, UnknownAllowlistedTableIsNamedWithSuggestion) {
  db_.tables[0].name = "itemz";
  auto ex = open_sqlite(db_, options_);
  ASSERT_FALSE(ex.has_value());
  EXPECT_EQ(ex.error().code, ErrorCode::BackendUnavailable);
  EXPECT_NE(ex.error().message.find("'itemz'"), std::string::npos) << ex.error().message;
  EXPECT_NE(ex.error().message.find("did you mean 'items'"), std::string::npos) << ex.error().message;
}

TEST_F(SqliteExecutorTest, UnknownCuratedColumnIsNamedWithTableAndSuggestion) {
  db_.tables[0].columns.push_back({"prise", config::ColumnCuration{"typo", "", false}});
  auto ex = open_sqlite(db_, options_);
  ASSERT_FALSE(ex.has_value());
  const std::string& m = ex.error().message;
  EXPECT_NE(m.find("'prise'"), std::string::npos) << m;
  EXPECT_NE(m.find("table 'items'"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean 'price'"), std::string::npos) << m;
  EXPECT_NE(ex.error().fix.find("databases.demo.tables.items.columns.prise"), std::string::npos) << ex.error().fix;
}

// --- reading rows -------------------------------------------------------------

TEST_F(SqliteExecutorTest, RunReturnsTypedValues) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("SELECT id, price, name, note, x'00ff' AS raw FROM items WHERE id = 1", within(5s));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->rows.size(), 1u);
  const auto& row = r->rows[0];
  EXPECT_EQ(row[0], Value(std::int64_t{1}));
  EXPECT_EQ(row[1], Value(1.5));
  EXPECT_EQ(row[2], Value(std::string("item 1")));
  EXPECT_EQ(row[3], Value(std::monostate{}));
  EXPECT_EQ(row[4], Value(Blob{std::string("\x00\xff", 2)}));
  ASSERT_EQ(r->columns.size(), 5u);
  EXPECT_EQ(r->columns[0].name, "id");
  // PostgreSQL's type names (format_type) on both backends (issue #12, answer_format.hpp).
  EXPECT_EQ(r->columns[0].type, "bigint");  // declared INTEGER
  EXPECT_EQ(r->columns[3].type, "text");    // declared TEXT, even though this value is NULL
  EXPECT_EQ(r->columns[4].name, "raw");
  EXPECT_EQ(r->columns[4].type, "bytea");  // expression: the value's storage class, BLOB
}

TEST_F(SqliteExecutorTest, ExpressionTypeComesFromFirstNonNullValue) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("SELECT CASE WHEN id = 1 THEN NULL ELSE id * 2.0 END AS d, NULL AS n FROM items WHERE id <= 3",
                   within(5s));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->columns[0].type, "double precision");  // REAL
  EXPECT_EQ(r->columns[1].type, "unknown");           // nothing tells: PostgreSQL's name for an unresolved type
}

TEST_F(SqliteExecutorTest, MaxRowsStopsReadingEarly) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("SELECT id FROM items ORDER BY id", within(5s, 11));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows.size(), 11u);
  EXPECT_EQ(r->rows.back()[0], Value(std::int64_t{11}));
  auto all = ex->run("SELECT id FROM items", within(5s));
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->rows.size(), 200u);
}

TEST_F(SqliteExecutorTest, EngineErrorIsPassedOnVerbatim) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const Error e = run_error(*ex, "SELECT nosuch FROM items");
  EXPECT_EQ(e.code, ErrorCode::BackendError);
  EXPECT_EQ(e.message, "SQLite: no such column: nosuch");
}

TEST_F(SqliteExecutorTest, DoubleQuotedStringIsNotALiteral) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const Error e = run_error(*ex, "SELECT \"hello\" FROM items");
  EXPECT_EQ(e.code, ErrorCode::BackendError);
  EXPECT_NE(e.message.find("no such column: hello"), std::string::npos) << e.message;
}

TEST_F(SqliteExecutorTest, MoreThanOneStatementIsAnInternalError) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const Error e = run_error(*ex, "SELECT 1; SELECT 2");
  EXPECT_EQ(e.code, ErrorCode::Internal);
  EXPECT_EQ(e.message, "more than one statement reached the executor");
  EXPECT_TRUE(ex->run("SELECT 1 \n\t ", within(5s)).has_value());  // trailing whitespace is fine
  // Text after an embedded NUL was never compiled; it must not slip by unnoticed.
  EXPECT_EQ(run_error(*ex, std::string("SELECT 1\0; SELECT 2", 20)).code, ErrorCode::Internal);
}

TEST_F(SqliteExecutorTest, PrepareReturnsColumnsWithoutRunning) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto cols = ex->prepare("SELECT id, name AS label, count(*) AS n FROM items GROUP BY id, name", Clock::now() + 5s);
  ASSERT_TRUE(cols.has_value()) << cols.error().message;
  ASSERT_EQ(cols->size(), 3u);
  EXPECT_EQ((*cols)[0].name, "id");
  EXPECT_EQ((*cols)[0].type, "bigint");  // declared INTEGER, named as PostgreSQL names it (issue #12)
  EXPECT_EQ((*cols)[1].name, "label");
  EXPECT_EQ((*cols)[1].type, "text");
  EXPECT_EQ((*cols)[2].name, "n");
  EXPECT_EQ((*cols)[2].type, "");
  auto denied = ex->prepare("SELECT token FROM secrets", Clock::now() + 5s);
  ASSERT_FALSE(denied.has_value());
  EXPECT_EQ(denied.error().code, ErrorCode::BackendDenied);
}

TEST_F(SqliteExecutorTest, PingWorks) {
  auto ex = open();
  ASSERT_TRUE(ex);
  EXPECT_TRUE(ex->ping().has_value());
}

// --- authorizer ---------------------------------------------------------------

TEST_F(SqliteExecutorTest, ReadingATableOutsideTheAllowlistIsDenied) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const Error e = run_error(*ex, "SELECT * FROM secrets");
  EXPECT_EQ(e.code, ErrorCode::BackendDenied);
  EXPECT_NE(e.message.find("the engine backstop denied reading table 'secrets'"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("prohibited"), std::string::npos) << e.message;  // the engine's own words
  EXPECT_FALSE(e.fix.empty());
  // Counting rows reads no column, and still may not learn anything about secrets.
  EXPECT_EQ(run_error(*ex, "SELECT count(*) FROM secrets").code, ErrorCode::BackendDenied);
  EXPECT_EQ(run_error(*ex, "SELECT 1 FROM items, secrets").code, ErrorCode::BackendDenied);
  // Hidden in a subquery or a CTE.
  EXPECT_EQ(run_error(*ex, "SELECT id FROM items WHERE id IN (SELECT id FROM secrets)").code, ErrorCode::BackendDenied);
  EXPECT_EQ(run_error(*ex, "WITH s AS (SELECT token FROM secrets) SELECT * FROM s").code, ErrorCode::BackendDenied);
  // SQLite reports a CTE's name as the "view" doing the read; a CTE named like an
  // allowlisted table must not launder the read.
  EXPECT_EQ(run_error(*ex, "WITH items AS (SELECT token FROM secrets) SELECT * FROM items").code,
            ErrorCode::BackendDenied);
}

TEST_F(SqliteExecutorTest, ReadsThroughCtesAndSubqueriesOfAllowlistedTablesWork) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run(
      "WITH cheap AS (SELECT id, price FROM items WHERE price < 10) "
      "SELECT count(*) FROM (SELECT c.id FROM cheap c JOIN items i ON i.id = c.id)",
      within(5s));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows[0][0], Value(std::int64_t{6}));
}

TEST_F(SqliteExecutorTest, SchemaTableIsDenied) {
  auto ex = open();
  ASSERT_TRUE(ex);
  for (const char* sql :
       {"SELECT * FROM sqlite_master", "SELECT sql FROM sqlite_schema", "SELECT count(*) FROM sqlite_master",
        "SELECT * FROM temp.sqlite_master", "SELECT * FROM sqlite_stat1"}) {
    const Error e = run_error(*ex, sql);
    EXPECT_EQ(e.code, ErrorCode::BackendDenied) << sql << ": " << e.message;
  }
}

TEST_F(SqliteExecutorTest, FunctionsOutsideTheAllowlistAreDenied) {
  {
    auto ex = open();
    ASSERT_TRUE(ex);
    const Error e = run_error(*ex, "SELECT random()");
    EXPECT_EQ(e.code, ErrorCode::BackendDenied);
    EXPECT_NE(e.message.find("calling function 'random'"), std::string::npos) << e.message;
    EXPECT_EQ(run_error(*ex, "SELECT load_extension('/tmp/x.so')").code, ErrorCode::BackendDenied);
    EXPECT_EQ(run_error(*ex, "SELECT id FROM items WHERE name LIKE 'item 1%'").code, ErrorCode::BackendDenied);
  }
  options_.allowed_functions.insert("RANDOM");  // compared case-insensitively
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("SELECT random()", within(5s));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  // The gateway's random(): a float in [0, 1), as PostgreSQL's (sqlite_math_test.cpp).
  ASSERT_TRUE(std::holds_alternative<double>(r->rows[0][0]));
  EXPECT_GE(std::get<double>(r->rows[0][0]), 0.0);
  EXPECT_LT(std::get<double>(r->rows[0][0]), 1.0);
}

TEST_F(SqliteExecutorTest, WritesSchemaChangesAndConnectionControlAreRefused) {
  auto ex = open();
  ASSERT_TRUE(ex);
  for (const char* sql :
       {"INSERT INTO items(id, name) VALUES (1000, 'x')", "UPDATE items SET price = 0", "DELETE FROM items",
        "CREATE TABLE x(a)", "DROP TABLE items", "CREATE TEMP TABLE t(a)", "PRAGMA writable_schema=1",
        "PRAGMA query_only=0", "PRAGMA table_info(secrets)", "ATTACH 'x' AS y", "BEGIN", "SAVEPOINT s", "ANALYZE",
        "VACUUM", "REINDEX", "REINDEX items", "EXPLAIN SELECT 1", "EXPLAIN QUERY PLAN SELECT id FROM items"}) {
    auto r = ex->run(sql, within(5s));
    ASSERT_FALSE(r.has_value()) << sql;
    EXPECT_TRUE(r.error().code == ErrorCode::BackendDenied || r.error().code == ErrorCode::BackendError)
        << sql << ": " << r.error().message;
  }
  auto count = ex->run("SELECT count(*) FROM items", within(5s));
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(count->rows[0][0], Value(std::int64_t{200}));
}

TEST_F(SqliteExecutorTest, RecursiveCteIsDenied) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const Error e =
      run_error(*ex, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
  EXPECT_EQ(e.code, ErrorCode::BackendDenied);
  EXPECT_NE(e.message.find("WITH RECURSIVE"), std::string::npos) << e.message;
}

// SQLite reports "count(*) FROM x" as a read of x with no column, whether x is a
// table or a materialized CTE; only the tables outside the allowlist are denied.
TEST_F(SqliteExecutorTest, CountingAMaterializedCteWorksCountingATableOutsideTheAllowlistDoesNot) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("WITH c AS MATERIALIZED (SELECT id FROM items WHERE id <= 5) SELECT count(*) FROM c", within(5s));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows[0][0], Value(std::int64_t{5}));
  // A CTE used twice is materialized as well.
  auto twice =
      ex->run("WITH c AS (SELECT id FROM items) SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM c)", within(5s));
  ASSERT_TRUE(twice.has_value()) << twice.error().message;
  const Error e = run_error(*ex, "SELECT count(*) FROM secrets");
  EXPECT_EQ(e.code, ErrorCode::BackendDenied);
  EXPECT_EQ(e.message, "the engine backstop denied reading table 'secrets'");
  EXPECT_EQ(run_error(*ex, "SELECT count(*) FROM main.secrets").code, ErrorCode::BackendDenied);
  EXPECT_EQ(run_error(*ex, "SELECT count(*) FROM SECRETS AS s").code, ErrorCode::BackendDenied);
}

// The catalog is a snapshot; the backstop asks the live schema.
TEST_F(SqliteExecutorTest, TableCreatedAfterStartUpIsStillOutsideTheAllowlist) {
  auto ex = open();
  ASSERT_TRUE(ex);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, "CREATE TABLE later(a); INSERT INTO later VALUES (1)", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  EXPECT_EQ(run_error(*ex, "SELECT count(*) FROM later").code, ErrorCode::BackendDenied);
  EXPECT_EQ(run_error(*ex, "SELECT a FROM later").code, ErrorCode::BackendDenied);
  EXPECT_TRUE(ex->run("SELECT count(*) FROM items", within(5s)).has_value());
}

TEST_F(SqliteExecutorTest, TableValuedFunctionsDoNotExist) {
  options_.allowed_functions.insert("json_each");
  auto ex = open();
  ASSERT_TRUE(ex);
  for (const char* sql : {"SELECT * FROM json_each('[1,2]')", "SELECT count(*) FROM pragma_table_info('secrets')"}) {
    const Error e = run_error(*ex, sql);
    EXPECT_EQ(e.code, ErrorCode::BackendError) << sql;
    EXPECT_NE(e.message.find("no such table"), std::string::npos) << e.message;  // SQLITE_PREPARE_NO_VTAB
  }
}

// A statement whose text holds "pg_series(" is prepared with virtual tables
// (the generate_series calendar, sqlite_series.cpp). No other one serves it,
// even where admission was bypassed: an eponymous virtual table (json_each,
// pragma_*) is built on first use by declaring its schema, which the
// authorizer denies; pg_series alone was built before the authorizer was on.
TEST_F(SqliteExecutorTest, OnlyPgSeriesIsAVirtualTableEvenWhenVirtualTablesAreOn) {
  options_.allowed_functions.insert("json_each");
  options_.allowed_functions.insert("pg_series");
  auto ex = open();
  ASSERT_TRUE(ex);
  for (const char* sql : {"SELECT * FROM json_each('[1,2]') WHERE 'pg_series(' <> ''",
                          "SELECT count(*) FROM json_each('[1,2]') WHERE 'pg_series(' <> ''",
                          "SELECT count(*) FROM pragma_table_info('secrets') WHERE 'pg_series(' <> ''",
                          "SELECT name FROM pragma_table_info('secrets') WHERE 'pg_series(' <> ''",
                          "SELECT count(*) FROM json_tree('[1,2]') WHERE 'pg_series(' <> ''",
                          "SELECT count(*) FROM items, pragma_table_info('secrets') WHERE 'pg_series(' <> ''"}) {
    const auto r = ex->run(sql, within(5s));
    ASSERT_FALSE(r.has_value()) << sql;
    EXPECT_EQ(r.error().code, ErrorCode::BackendDenied) << sql << ": " << r.error().message;
  }
}

// The jsonb row sources (admission/admit/json_rows.cpp) run as json_each(pg_json_rows(...)): json_each was
// built before the authorizer (sqlite_json_rows.cpp) and is the one more virtual table it lets be read.
// json_tree and pragma_* stay denied in such a statement; without pg_json_rows allowed, json_each is too.
TEST_F(SqliteExecutorTest, JsonEachServesOnlyTheJsonbRowSources) {
  options_.allowed_functions.insert("json_each");
  options_.allowed_functions.insert("json_tree");
  options_.allowed_functions.insert("pg_json_rows");
  auto ex = open();
  ASSERT_TRUE(ex);
  const auto ok = ex->run(
      "SELECT e.key, e.value FROM json_each(pg_json_rows('{\"b\": 2, \"aa\": [1, {\"y\":1,\"x\":null}]}', "
      "'jsonb_each')) AS e",
      within(5s));
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  ASSERT_EQ(ok->rows.size(), 2u);
  for (const char* sql :
       {"SELECT count(*) FROM json_tree('[1,2]') WHERE 'json_each(pg_json_rows(' <> ''",
        "SELECT count(*) FROM pragma_table_info('secrets') WHERE 'json_each(pg_json_rows(' <> ''",
        "SELECT name FROM pragma_table_info('secrets') WHERE 'json_each(pg_json_rows(' <> ''",
        "SELECT count(*) FROM items, pragma_table_info('secrets') WHERE 'json_each(pg_json_rows(' <> ''",
        "SELECT count(*) FROM json_each(pg_json_rows('[1]', 'jsonb_array_elements')), json_tree('[1,2]')"}) {
    const auto r = ex->run(sql, within(5s));
    ASSERT_FALSE(r.has_value()) << sql;
    EXPECT_EQ(r.error().code, ErrorCode::BackendDenied) << sql << ": " << r.error().message;
  }
  // A statement without the row source's spelling has no virtual tables at all.
  const Error plain = run_error(*ex, "SELECT count(*) FROM json_each('[1,2]')");
  EXPECT_NE(plain.message.find("no such table"), std::string::npos) << plain.message;
}

TEST_F(SqliteExecutorTest, JsonEachIsDeniedWithoutPgJsonRows) {
  options_.allowed_functions.insert("json_each");
  options_.allowed_functions.insert("pg_series");
  auto ex = open();
  ASSERT_TRUE(ex);
  const auto r = ex->run("SELECT count(*) FROM json_each('[1,2]') WHERE 'json_each(pg_json_rows(' <> ''", within(5s));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::BackendDenied) << r.error().message;
}

TEST_F(SqliteExecutorTest, VirtualTableInTheAllowlistIsAStartUpError) {
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, "CREATE VIRTUAL TABLE docs USING fts5(body)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  db_.tables.push_back(config::TableCuration{"docs", "", {}});
  auto ex = open_sqlite(db_, options_);
  ASSERT_FALSE(ex.has_value());
  EXPECT_EQ(ex.error().code, ErrorCode::BackendUnavailable);
  EXPECT_NE(ex.error().message.find("'docs'"), std::string::npos) << ex.error().message;
  EXPECT_NE(ex.error().message.find("virtual table"), std::string::npos) << ex.error().message;
}

// --- deadline and pool --------------------------------------------------------

TEST_F(SqliteExecutorTest, DeadlineInterruptsALongStatement) {
  auto ex = open();
  ASSERT_TRUE(ex);
  const auto start = Clock::now();
  // 200^4 = 1.6e9 rows: minutes of work, stopped by the progress handler.
  auto r = ex->run("SELECT count(*) FROM items a, items b, items c, items d", within(200ms));
  const auto took = Clock::now() - start;
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::LimitDeadline);
  EXPECT_EQ(r.error().message, "the statement ran past its deadline");
  EXPECT_EQ(r.error().fix.rfind("FIX: ", 0), 0u);
  EXPECT_LT(took, 2s);
  // The connection comes back clean: the next statement is not tripped by the old deadline.
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ex->run("SELECT count(*) FROM items", within(5s)).has_value());
}

TEST_F(SqliteExecutorTest, ExpiredDeadlineRefusesBeforeStarting) {
  auto ex = open();
  ASSERT_TRUE(ex);
  auto r = ex->run("SELECT 1", RunOptions{.max_rows = 0, .deadline = Clock::now() - 1ms});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::LimitDeadline);
}

TEST_F(SqliteExecutorTest, WaitingForABusyConnectionIsBoundedByTheDeadline) {
  options_.connections = 1;
  auto ex = open();
  ASSERT_TRUE(ex);
  std::thread slow([&] { (void)ex->run("SELECT count(*) FROM items a, items b, items c, items d", within(1000ms)); });
  std::this_thread::sleep_for(200ms);  // let the slow statement take the only connection
  const auto start = Clock::now();
  auto r = ex->run("SELECT 1", within(100ms));
  EXPECT_LT(Clock::now() - start, 800ms);
  slow.join();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::LimitDeadline);
  EXPECT_TRUE(ex->run("SELECT 1", within(5s)).has_value());
}

TEST_F(SqliteExecutorTest, ConcurrentRunsAllSucceed) {
  auto ex = open();
  ASSERT_TRUE(ex);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        auto r = ex->run("SELECT sum(id), max(price) FROM items WHERE id > " + std::to_string(t), within(10s));
        if (r && r->rows.size() == 1) ++ok;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 100);
}

}  // namespace
}  // namespace qg::exec
