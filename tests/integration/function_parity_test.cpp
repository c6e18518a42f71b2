// The equivalents querygate registers on SQLite for what only PostgreSQL has
// give PostgreSQL's answers: percentile(x, p) is percentile_cont(p / 100.0)
// WITHIN GROUP (ORDER BY x), median(x) is percentile_cont(0.5). Both gateways,
// real engines, the same rows: groups with many values, duplicates, one value,
// NULLs mixed in, only NULLs, and no rows at all. (PostgreSQL has no window
// form of percentile_cont, so only the aggregate forms can be compared.)
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cmath>
#include <pqxx/pqxx>
#include <random>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

struct Row {
  int g;
  std::optional<double> x;
};

// Group 1: 200 spread values; 2: ties; 3: one value; 4: values and NULLs;
// 5: only NULLs. Group 6 has no rows.
std::vector<Row> dataset() {
  std::vector<Row> rows;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> spread(-1000.0, 1000.0);
  for (int i = 0; i < 200; ++i) rows.push_back({1, spread(rng)});
  for (double v : {5.0, 5.0, 5.0, 1.0, 9.0, 9.0}) rows.push_back({2, v});
  rows.push_back({3, 42.5});
  for (int i = 0; i < 30; ++i) rows.push_back({4, i % 3 == 0 ? std::nullopt : std::optional<double>(i * 0.1)});
  for (int i = 0; i < 5; ++i) rows.push_back({5, std::nullopt});
  return rows;
}

std::string literal(const std::optional<double>& x) {
  if (!x) return "NULL";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", *x);
  return buf;
}

class FunctionParityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QG_PG_TEST_SERVER(server);
    server_ = server;
    dir_ = make_temp_dir("qg-fparity");
    db_ = "qg_fparity_" + std::to_string(getpid());
    std::string inserts;
    for (const auto& r : dataset())
      inserts += "INSERT INTO v (g, x) VALUES (" + std::to_string(r.g) + ", " + literal(r.x) + ");\n";

    sqlite3* lite = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "v.db").c_str(), &lite), SQLITE_OK);
    const std::string lite_sql = "CREATE TABLE v (g INTEGER, x REAL);\nBEGIN;\n" + inserts + "COMMIT;";
    ASSERT_EQ(sqlite3_exec(lite, lite_sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(lite);
    sqlite3_close(lite);

    {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + db_);
      tx.exec("CREATE DATABASE " + db_ + " OWNER qg_owner");
      tx.exec("GRANT CONNECT ON DATABASE " + db_ + " TO qg_reader");
    }
    pqxx::connection owner(pg_dsn(server_, "qg_owner", db_));
    pqxx::work tx(owner);
    tx.exec("CREATE TABLE v (g integer, x double precision);\n" + inserts +
            "GRANT USAGE ON SCHEMA public TO qg_reader; GRANT SELECT ON v TO qg_reader;");
    tx.commit();

    write_file(dir_ / "sqlite.yaml",
               "limits: { float_digits: 0 }\ndatabases:\n  v:\n    backend: sqlite\n    path: v.db\n"
               "    tables: { v: {} }\n");
    write_file(dir_ / "pg.yaml", "limits: { float_digits: 0 }\ndatabases:\n  v:\n    backend: postgres\n    dsn: \"" +
                                     pg_dsn(server_, "qg_reader", db_) + "\"\n    tables: { v: {} }\n");
    std::filesystem::create_directories(dir_ / "lite");
    std::filesystem::create_directories(dir_ / "pg");
    std::filesystem::copy_file(dir_ / "sqlite.yaml", dir_ / "lite" / "querygate.yaml");
    std::filesystem::copy_file(dir_ / "v.db", dir_ / "lite" / "v.db");
    std::filesystem::copy_file(dir_ / "pg.yaml", dir_ / "pg" / "querygate.yaml");
    sqlite_ = std::make_unique<GatewayProcess>(dir_ / "lite" / "querygate.yaml");
    postgres_ = std::make_unique<GatewayProcess>(dir_ / "pg" / "querygate.yaml");
  }

  void TearDown() override {
    sqlite_.reset();
    postgres_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    if (db_.empty()) return;
    pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
  }

  static json::array rows_of(GatewayProcess& gateway, const std::string& sql) {
    auto r = http(gateway.port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
    EXPECT_EQ(r.status, 200) << sql << "\n" << r.body;
    if (r.status != 200) return {};
    return json::parse(r.body).at("rows").as_array();
  }

  // Cell by cell: both NULL, or numbers within 1e-9 (relative, absolute near 0).
  static void expect_same(const json::array& lite, const json::array& pg, const std::string& what) {
    ASSERT_EQ(lite.size(), pg.size()) << what;
    for (std::size_t i = 0; i < lite.size(); ++i) {
      const auto& a = lite[i].as_array();
      const auto& b = pg[i].as_array();
      ASSERT_EQ(a.size(), b.size()) << what;
      for (std::size_t j = 0; j < a.size(); ++j) {
        if (a[j].is_null() || b[j].is_null()) {
          EXPECT_TRUE(a[j].is_null() && b[j].is_null()) << what << " row " << i << " col " << j << ": "
                                                        << json::serialize(a[j]) << " vs " << json::serialize(b[j]);
          continue;
        }
        const double x = a[j].to_number<double>(), y = b[j].to_number<double>();
        EXPECT_LE(std::fabs(x - y), 1e-9 * std::max(1.0, std::max(std::fabs(x), std::fabs(y))))
            << what << " row " << i << " col " << j << ": SQLite " << x << " vs PostgreSQL " << y;
      }
    }
  }

  PgTestServer server_;
  std::filesystem::path dir_;
  std::string db_;
  std::unique_ptr<GatewayProcess> sqlite_, postgres_;
};

TEST_F(FunctionParityTest, PercentileAndMedianEqualPercentileCont) {
  const std::string lite =
      "SELECT g, percentile(x, 0), percentile(x, 12.5), percentile(x, 25), percentile(x, 50), percentile(x, 90), "
      "percentile(x, 100), median(x) FROM v GROUP BY g ORDER BY g";
  const std::string pg =
      "SELECT g, percentile_cont(0) WITHIN GROUP (ORDER BY x), percentile_cont(0.125) WITHIN GROUP (ORDER BY x), "
      "percentile_cont(0.25) WITHIN GROUP (ORDER BY x), percentile_cont(0.5) WITHIN GROUP (ORDER BY x), "
      "percentile_cont(0.9) WITHIN GROUP (ORDER BY x), percentile_cont(1) WITHIN GROUP (ORDER BY x), "
      "percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM v GROUP BY g ORDER BY g";
  const auto a = rows_of(*sqlite_, lite);
  const auto b = rows_of(*postgres_, pg);
  ASSERT_EQ(a.size(), 5u);  // groups 1..5; group 5 is all NULL
  expect_same(a, b, "grouped");
}

TEST_F(FunctionParityTest, NoRowsAndOnlyNullsGiveNull) {
  for (const char* where : {"g = 6", "g = 5", "x IS NULL", "false"}) {
    const auto a = rows_of(*sqlite_, std::string("SELECT percentile(x, 30), median(x) FROM v WHERE ") + where);
    const auto b = rows_of(*postgres_, std::string("SELECT percentile_cont(0.3) WITHIN GROUP (ORDER BY x), "
                                                   "percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM v WHERE ") +
                                           where);
    ASSERT_EQ(a.size(), 1u) << where;
    EXPECT_TRUE(a[0].as_array()[0].is_null() && a[0].as_array()[1].is_null()) << where;
    expect_same(a, b, where);
  }
}

TEST_F(FunctionParityTest, OverTheWholeTable) {
  expect_same(rows_of(*sqlite_, "SELECT percentile(x, 75), median(x) FROM v"),
              rows_of(*postgres_,
                      "SELECT percentile_cont(0.75) WITHIN GROUP (ORDER BY x), "
                      "percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM v"),
              "whole table");
}

// PostgreSQL's own spelling runs on SQLite too (issue #12: pg_percentile_cont, sqlite_aggregates.cpp); SQLite's
// spelling is refused on PostgreSQL with PostgreSQL's.
TEST_F(FunctionParityTest, PostgresSpellingRunsOnSqliteAndTheOtherIsNamed) {
  const std::string pg_sql =
      "SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY x), percentile_cont(0.5) WITHIN GROUP "
      "(ORDER BY x DESC) FROM v";
  expect_same(rows_of(*sqlite_, pg_sql), rows_of(*postgres_, pg_sql), "percentile_cont on both");
  auto on_pg = http(postgres_->port(), "POST", "/v1/query", R"({"sql": "SELECT median(x) FROM v"})");
  EXPECT_EQ(on_pg.status, 422);
  EXPECT_NE(on_pg.body.find("percentile_cont(0.5) WITHIN GROUP (ORDER BY x)"), std::string::npos) << on_pg.body;
}

}  // namespace
}  // namespace qg::testing
