// The PostgreSQL demo script (querygate demo-db --postgres): COPY escaping, a
// deterministic script covering every table, and a real load into a fresh
// database of the test cluster (scripts/pg-test-cluster.sh) whose rows equal
// the SQLite demo's, value for value on the spans and annotations.
#include "demo/demo_pg_script.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <vector>

#include "demo/demo_db.hpp"

namespace qg::exec {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTables[] = {"projects", "users", "api_keys", "traces", "spans", "span_annotations"};

// The demo generated once for this file's tests, with its script.
class DemoFiles {
 public:
  static DemoFiles& get() {
    static DemoFiles files;
    return files;
  }
  const fs::path& sqlite() const { return sqlite_; }
  const fs::path& script() const { return script_; }
  const std::string& error() const { return error_; }

 private:
  DemoFiles() {
    std::string pattern = (fs::temp_directory_path() / "qg-demo-pg-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      error_ = "mkdtemp failed";
      return;
    }
    dir_ = pattern;
    sqlite_ = dir_ / "demo.db";
    script_ = dir_ / "demo.sql";
    if (auto s = create_demo_db(sqlite_); !s) {
      error_ = s.error().message;
      return;
    }
    std::ofstream out(script_, std::ios::binary);
    if (auto s = write_demo_pg_script(sqlite_, out); !s) error_ = s.error().message;
  }
  ~DemoFiles() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  fs::path dir_, sqlite_, script_;
  std::string error_;
};

// Reads the SQLite demo: each row's columns as text (NULL as nullopt), by id.
class Sqlite {
 public:
  explicit Sqlite(const fs::path& path) { sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr); }
  ~Sqlite() { sqlite3_close(db_); }
  Sqlite(const Sqlite&) = delete;
  Sqlite& operator=(const Sqlite&) = delete;

  std::vector<std::vector<std::optional<std::string>>> rows(const std::string& sql) {
    std::vector<std::vector<std::optional<std::string>>> out;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    while (sqlite3_step(s) == SQLITE_ROW) {
      auto& row = out.emplace_back();
      for (int i = 0; i < sqlite3_column_count(s); ++i) {
        if (sqlite3_column_type(s, i) == SQLITE_NULL) {
          row.emplace_back(std::nullopt);
        } else if (sqlite3_column_type(s, i) == SQLITE_FLOAT) {
          // SQLite's own text for a REAL keeps 15 digits; this keeps the exact double.
          std::array<char, 32> buf{};
          auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), sqlite3_column_double(s, i));
          row.emplace_back(std::string(buf.data(), end));
        } else
          row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, i)),
                                       static_cast<std::size_t>(sqlite3_column_bytes(s, i))));
      }
    }
    sqlite3_finalize(s);
    return out;
  }
  long long count(const std::string& table) {
    auto r = rows("SELECT count(*) FROM " + table);
    return r.empty() ? -1 : std::stoll(*r[0][0]);
  }

 private:
  sqlite3* db_ = nullptr;
};

TEST(DemoPgScriptTest, CopyFieldsEscapeTheFourSpecialCharacters) {
  EXPECT_EQ(copy_text_field("plain text, with 'quotes' and \"JSON\""), "plain text, with 'quotes' and \"JSON\"");
  EXPECT_EQ(copy_text_field("a\\b\tc\nd\re"), "a\\\\b\\tc\\nd\\re");
  EXPECT_EQ(copy_text_field("{\"k\": \"line\\nbreak\"}"), "{\"k\": \"line\\\\nbreak\"}");  // JSON's own escape survives
  EXPECT_EQ(copy_text_field("\\."), "\\\\.");  // never COPY's end-of-data marker
  EXPECT_EQ(copy_text_field("\\N"), "\\\\N");  // never NULL
  EXPECT_EQ(copy_text_field("naïve ✓"), "naïve ✓");
  EXPECT_EQ(copy_text_field(""), "");
}

TEST(DemoPgScriptTest, ScriptIsDeterministicAndCarriesEveryTable) {
  auto& files = DemoFiles::get();
  ASSERT_EQ(files.error(), "");
  std::ifstream in(files.script(), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string script = text.str();
  std::ostringstream again;
  ASSERT_TRUE(write_demo_pg_script(files.sqlite(), again));
  EXPECT_TRUE(again.str() == script) << "two conversions of the same demo differ";

  for (const char* t : kTables) {
    EXPECT_NE(script.find("CREATE TABLE " + std::string(t) + " ("), std::string::npos) << t;
    EXPECT_NE(script.find("COPY " + std::string(t) + " ("), std::string::npos) << t;
  }
  for (const char* piece :
       {"  start_time timestamptz NOT NULL,", "  attributes jsonb NOT NULL\n", "  cost_usd double precision,",
        "  id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,", "  UNIQUE (trace_id)",
        "ALTER TABLE spans ADD CONSTRAINT spans_trace_id_fkey FOREIGN KEY (trace_id) REFERENCES traces (trace_id);",
        "ALTER TABLE spans ADD CONSTRAINT spans_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES spans (id);",
        "CREATE INDEX idx_spans_start_time ON spans (start_time);",
        "CREATE INDEX idx_span_annotations_span_id ON span_annotations (span_id);"})
    EXPECT_NE(script.find(piece), std::string::npos) << piece;
  EXPECT_TRUE(script.ends_with("\nANALYZE projects, users, api_keys, traces, spans, span_annotations;\n"));
  // No SQLite type name survives in the DDL (before the first COPY).
  const std::string ddl = script.substr(0, script.find("\nCOPY "));
  for (const char* sqlite_type : {" INTEGER", " REAL", " TEXT"}) EXPECT_EQ(ddl.find(sqlite_type), std::string::npos);

  // One COPY line per SQLite row.
  Sqlite db(files.sqlite());
  for (const char* t : kTables) {
    const auto start = script.find("COPY " + std::string(t) + " (");
    const auto body = script.find('\n', start) + 1;
    const auto end = script.find("\n\\.\n", body);
    ASSERT_NE(end, std::string::npos) << t;
    const auto lines =
        std::count(script.begin() + static_cast<long>(body), script.begin() + static_cast<long>(end) + 1, '\n');
    EXPECT_EQ(lines, db.count(t)) << t;
  }
}

TEST(DemoPgScriptTest, AMissingDemoIsAnErrorThatNamesIt) {
  std::ostringstream out;
  auto s = write_demo_pg_script("/nonexistent/qg-demo.db", out);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("/nonexistent/qg-demo.db"), std::string::npos) << s.error().message;
}

// The test cluster, found as the integration tests find it (tests/integration/
// test_support.hpp): skipped loudly when QG_TEST_PG_HOST/QG_TEST_PG_PORT are
// unset, failed when QG_REQUIRE_PG=1.
struct PgServer {
  std::string host;
  std::string port;
  std::string dsn(const std::string& role, const std::string& db) const {
    return "postgresql://" + role + ":" + role + "@" + host + ":" + port + "/" + db;
  }
};
std::optional<PgServer> pg_server() {
  const char* host = std::getenv("QG_TEST_PG_HOST");
  const char* port = std::getenv("QG_TEST_PG_PORT");
  if (host == nullptr || *host == '\0' || port == nullptr || *port == '\0') return std::nullopt;
  return PgServer{host, port};
}
bool pg_required() {
  const char* v = std::getenv("QG_REQUIRE_PG");
  return v != nullptr && std::string(v) == "1";
}

class DemoPgLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto found = pg_server();
    if (!found) {
      if (pg_required()) FAIL() << "QG_REQUIRE_PG=1 but QG_TEST_PG_HOST/QG_TEST_PG_PORT are not set";
      GTEST_SKIP() << "*** SKIPPED: no PostgreSQL for tests (QG_TEST_PG_HOST/QG_TEST_PG_PORT unset). Run "
                      "scripts/pg-test-cluster.sh start && eval \"$(scripts/pg-test-cluster.sh env)\" ***";
    }
    server_ = *found;
    db_ = "qg_demo_script_" + std::to_string(::getpid());
    pqxx::connection admin(server_.dsn("postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db_);
    tx.exec("CREATE DATABASE " + db_ + " OWNER qg_owner");
    created_ = true;
  }
  void TearDown() override {
    if (!created_) return;
    pqxx::connection admin(server_.dsn("postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
  }
  PgServer server_;
  std::string db_;
  bool created_ = false;
};

// Loaded with psql as the loaders do (one transaction, stop at the first error),
// as the owning role, not as a superuser.
TEST_F(DemoPgLoadTest, ScriptLoadsWithPsqlAndHoldsTheSqliteRows) {
  auto& files = DemoFiles::get();
  ASSERT_EQ(files.error(), "");
  const fs::path log = files.script().string() + ".load.log";
  const std::string command = "psql -X -q -v ON_ERROR_STOP=1 -1 -h '" + server_.host + "' -p '" + server_.port +
                              "' -U qg_owner -d " + db_ + " -f '" + files.script().string() + "' >'" + log.string() +
                              "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream output;
  output << in.rdbuf();
  ASSERT_EQ(rc, 0) << command << "\n" << output.str();
  EXPECT_EQ(output.str(), "") << "loading printed warnings or notices";

  Sqlite sqlite(files.sqlite());
  pqxx::connection conn(server_.dsn("qg_owner", db_));
  pqxx::nontransaction tx(conn);
  for (const char* t : kTables)
    EXPECT_EQ(tx.exec1(std::string("SELECT count(*) FROM ") + t)[0].as<long long>(), sqlite.count(t)) << t;
  // Ids come from the database, after the copied ones (SQLite's rowid, PostgreSQL's identity).
  {
    pqxx::connection other(server_.dsn("qg_owner", db_));
    pqxx::work insert(other);
    const auto next = insert
                          .exec1(
                              "INSERT INTO span_annotations (span_id, annotator_kind, created_at) SELECT min(id), "
                              "'TEST', now() FROM spans "
                              "RETURNING id")[0]
                          .as<long long>();
    EXPECT_EQ(
        next,
        insert.exec1("SELECT max(id) FROM span_annotations WHERE annotator_kind <> 'TEST'")[0].as<long long>() + 1);
    insert.abort();
  }
  // ANALYZE ran: the planner knows the sizes.
  EXPECT_EQ(tx.exec1("SELECT reltuples::bigint FROM pg_class WHERE relname = 'spans'")[0].as<long long>(),
            sqlite.count("spans"));

  // Every span, value for value: timestamps printed back in the SQLite text
  // format, doubles exact, attributes equal as JSON (jsonb reorders keys).
  auto lite = sqlite.rows(
      "SELECT id, trace_id, parent_id, name, kind, status, start_time, end_time, cost_usd, attributes FROM spans "
      "ORDER BY id");
  const std::string iso = "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"+00:00\"'";
  auto pg = tx.exec("SELECT id, trace_id, parent_id, name, kind, status, to_char(start_time AT TIME ZONE 'UTC', " +
                    iso + "), to_char(end_time AT TIME ZONE 'UTC', " + iso +
                    "), cost_usd, attributes::text FROM spans ORDER BY id");
  ASSERT_EQ(pg.size(), lite.size());
  int mismatches = 0;
  for (std::size_t i = 0; i < lite.size() && mismatches < 5; ++i) {
    const auto row = pg[static_cast<pqxx::result::size_type>(i)];
    const auto& want = lite[i];
    for (int c = 0; c < 8; ++c) {
      const std::optional<std::string> got =
          row[c].is_null() ? std::nullopt : std::optional<std::string>(row[c].c_str());
      if (got != want[static_cast<std::size_t>(c)]) {
        ++mismatches;
        ADD_FAILURE() << "spans id " << *want[0] << " column " << c << ": " << got.value_or("NULL") << " vs "
                      << want[static_cast<std::size_t>(c)].value_or("NULL");
      }
    }
    if (row[8].is_null() != !want[8].has_value() ||
        (want[8] && row[8].as<double>() != std::strtod(want[8]->c_str(), nullptr))) {
      ++mismatches;
      ADD_FAILURE() << "spans id " << *want[0] << " cost_usd: " << row[8].c_str() << " vs " << want[8].value_or("NULL");
    }
    if (boost::json::parse(row[9].c_str()) != boost::json::parse(*want[9])) {
      ++mismatches;
      ADD_FAILURE() << "spans id " << *want[0] << " attributes:\n  " << row[9].c_str() << "\n  " << *want[9];
    }
  }

  // End-user text (feedback comments) arrives byte for byte.
  auto lite_text = sqlite.rows("SELECT id, explanation FROM span_annotations ORDER BY id");
  auto pg_text = tx.exec("SELECT id, explanation FROM span_annotations ORDER BY id");
  ASSERT_EQ(pg_text.size(), lite_text.size());
  for (std::size_t i = 0; i < lite_text.size(); ++i) {
    const auto row = pg_text[static_cast<pqxx::result::size_type>(i)];
    const std::optional<std::string> got = row[1].is_null() ? std::nullopt : std::optional<std::string>(row[1].c_str());
    ASSERT_EQ(got, lite_text[i][1]) << "span_annotations id " << *lite_text[i][0];
  }
}

}  // namespace
}  // namespace qg::exec
