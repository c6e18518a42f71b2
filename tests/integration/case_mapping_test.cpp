// upper() and lower() on SQLite give PostgreSQL's answers for text beyond
// ASCII: the SQLite gateway (which registers its own upper/lower) against the
// same words in a real PostgreSQL database created with the cluster's UTF-8
// libc locale (C.UTF-8 in the test cluster). Words from several scripts,
// letters without a one-character case partner (ß, ŉ), title-case digraphs,
// Turkish dotted/dotless i, combining marks, symbols and NULL.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <pqxx/pqxx>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

const std::vector<std::string> kWords = {
    "Nação",         "ÀÉÎÕÜ àéîõü", "straße STRASSE",  "ŉ ǅ ǈ ǋ", "İstanbul ısparta", "Σίσυφος ΣΊΣΥΦΟΣ",
    "Москва МОСКВА", "Ǆemal",       "e\u0301te\u0301", "ﬁne ﬂow", "Ⅻ ⅻ ⓐⒶ",           "日本語 😀 123 !?",
    "ÿ Ÿ",           "Ωmega ωMEGA", "Ꭰ ꭰ",         "",
};

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

class CaseMappingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QG_PG_TEST_SERVER(server);
    server_ = server;
    dir_ = make_temp_dir("qg-case");
    db_ = "qg_case_" + std::to_string(getpid());
    std::string inserts;
    for (std::size_t i = 0; i < kWords.size(); ++i)
      inserts += "INSERT INTO words (id, w) VALUES (" + std::to_string(i) + ", " + quote(kWords[i]) + ");\n";
    inserts += "INSERT INTO words (id, w) VALUES (" + std::to_string(kWords.size()) + ", NULL);\n";

    sqlite3* lite = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "w.db").c_str(), &lite), SQLITE_OK);
    const std::string lite_sql = "CREATE TABLE words (id INTEGER PRIMARY KEY, w TEXT);\nBEGIN;\n" + inserts + "COMMIT;";
    ASSERT_EQ(sqlite3_exec(lite, lite_sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(lite);
    sqlite3_close(lite);
    {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + db_);
      tx.exec("CREATE DATABASE " + db_ + " OWNER qg_owner");
    }
    pqxx::connection owner(pg_dsn(server_, "qg_owner", db_));
    pqxx::work tx(owner);
    tx.exec("CREATE TABLE words (id integer PRIMARY KEY, w text);\n" + inserts);
    tx.commit();
    write_file(dir_ / "querygate.yaml",
               "databases:\n  w:\n    backend: sqlite\n    path: w.db\n    tables: { words: {} }\n");
    sqlite_ = std::make_unique<GatewayProcess>(dir_ / "querygate.yaml");
  }

  void TearDown() override {
    sqlite_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    if (db_.empty()) return;
    pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
  }

  PgTestServer server_;
  std::filesystem::path dir_;
  std::string db_;
  std::unique_ptr<GatewayProcess> sqlite_;
};

TEST_F(CaseMappingTest, UpperAndLowerOnSqliteAnswerAsPostgresDoes) {
  const std::string sql =
      "SELECT id, upper(w) AS u, lower(w) AS l, upper(lower(w)) AS ul, length(upper(w)) AS n FROM words ORDER BY id";
  auto r = http(sqlite_->port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto lite = json::parse(r.body).at("rows").as_array();

  pqxx::connection conn(pg_dsn(server_, "qg_owner", db_));
  pqxx::work tx(conn);
  const auto pg = tx.exec(sql);
  ASSERT_EQ(lite.size(), pg.size());
  std::size_t differing_from_ascii_mapping = 0;
  for (std::size_t i = 0; i < pg.size(); ++i) {
    const auto& row = lite[i].as_array();
    for (int c = 1; c <= 3; ++c) {
      if (pg[i][c].is_null()) {
        EXPECT_TRUE(row[c].is_null()) << "row " << i;
        continue;
      }
      ASSERT_TRUE(row[c].is_string()) << "row " << i << ": " << json::serialize(row[c]);
      EXPECT_EQ(std::string(row[c].as_string()), pg[i][c].as<std::string>())
          << "row " << i << " column " << c << " of " << kWords[std::min(i, kWords.size() - 1)];
    }
    if (!pg[i][4].is_null()) EXPECT_EQ(row[4].to_number<std::int64_t>(), pg[i][4].as<std::int64_t>()) << "row " << i;
    if (i < kWords.size()) {
      std::string ascii = kWords[i];
      for (auto& ch : ascii) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (ascii != pg[i][1].as<std::string>()) ++differing_from_ascii_mapping;
    }
  }
  // The words are chosen so that SQLite's built-in (ASCII-only) mapping would be wrong on most.
  EXPECT_GE(differing_from_ascii_mapping, 10u);
}

}  // namespace
}  // namespace qg::testing
