// Silent wrong answers (issue #11 section 3, and the non-ISO literals of #12):
// every red-team example goes through two real gateways, one on the SQLite demo
// and one on the same data in PostgreSQL (the test cluster's `demo` database,
// served with config/demo-postgres.yaml as qg_reader), and the answers are
// compared with what PostgreSQL itself returns for the statement, with the
// virtual columns materialised as real columns of a CTE (their expressions read
// from the same config the gateway serves).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/json.hpp>
#include <charconv>
#include <filesystem>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

const fs::path kSqliteConfig = fs::path(QG_SOURCE_DIR) / "config" / "demo.yaml";
const fs::path kPostgresConfig = fs::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml";

using Table = std::vector<std::vector<std::string>>;

// A JSON cell as PostgreSQL prints it in text.
std::string text_of(const json::value& v) {
  if (v.is_null()) return "<null>";
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_int64()) return std::to_string(v.as_int64());
  if (v.is_bool()) return v.as_bool() ? "t" : "f";
  if (v.is_double()) {  // shortest round-trip text, as PostgreSQL prints float8 ("1.5", not "1.5E0")
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v.as_double()).ptr;
    return std::string(buf, end);
  }
  return json::serialize(v);
}

class WrongAnswersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sqlite_dir_ = new fs::path(make_temp_dir("qg-wrong-sqlite"));
    auto made = run_command({QG_BINARY, "demo-db", (*sqlite_dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    fs::copy_file(kSqliteConfig, *sqlite_dir_ / "demo.yaml");
    sqlite_ = new GatewayProcess(*sqlite_dir_ / "demo.yaml");
  }
  static void TearDownTestSuite() {
    delete sqlite_;
    delete postgres_;
    delete sqlite_dir_;
    sqlite_ = postgres_ = nullptr;
    sqlite_dir_ = nullptr;
  }

  // The PostgreSQL gateway and a direct connection for the oracle (false: skipped or failed).
  void open_postgres(const PgTestServer& server) {
    dsn_ = pg_dsn(server, "qg_reader", "demo");
    if (postgres_) return;
    const auto dir = make_temp_dir("qg-wrong-pg");
    fs::copy_file(kPostgresConfig, dir / "demo-postgres.yaml");
    ::setenv("QG_DEMO_PG_DSN", dsn_.c_str(), 1);
    postgres_ = new GatewayProcess(dir / "demo-postgres.yaml");
    ::unsetenv("QG_DEMO_PG_DSN");
  }

  static HttpResult ask(GatewayProcess& g, const std::string& sql) {
    return http(g.port(), "POST", "/v1/query",
                json::serialize(json::object{{"sql", sql}, {"database", "demo"}, {"limit", 1000}}));
  }
  static Table rows(const HttpResult& r) {
    Table out;
    const json::value doc = json::parse(r.body);
    for (const auto& row : doc.at("rows").as_array()) {
      std::vector<std::string> cells;
      for (const auto& c : row.as_array()) cells.push_back(text_of(c));
      out.push_back(std::move(cells));
    }
    return out;
  }
  static std::string code_of(const HttpResult& r) {
    return std::string(json::parse(r.body).at("error").at("code").as_string());
  }
  static std::string fix_of(const HttpResult& r) {
    return std::string(json::parse(r.body).at("error").at("fix").as_string());
  }

  // What PostgreSQL returns for `sql`, run over `spans` with the virtual columns
  // as real columns: WITH spans AS (SELECT *, <expr> AS latency_ms, ...) <sql>.
  Table oracle(const std::string& sql) const {
    auto config = config::load_config(kPostgresConfig);
    EXPECT_TRUE(config);
    std::string cte = "WITH spans AS (SELECT *";
    for (const auto& t : config->databases.front().tables)
      if (t.name == "spans")
        for (const auto& [name, v] : t.virtual_columns) cte += ", " + v.postgres + " AS " + name;
    cte += " FROM public.spans)";
    const std::string statement = sql.rfind("WITH ", 0) == 0 ? cte + ", " + sql.substr(5) : cte + " " + sql;
    pqxx::connection c(dsn_);
    pqxx::work tx(c);
    tx.exec("SET LOCAL TimeZone = 'UTC'");
    Table out;
    for (const auto& row : tx.exec(statement)) {
      std::vector<std::string> cells;
      for (const auto& f : row) cells.push_back(f.is_null() ? "<null>" : f.c_str());
      out.push_back(std::move(cells));
    }
    return out;
  }

  static fs::path* sqlite_dir_;
  static GatewayProcess* sqlite_;
  static GatewayProcess* postgres_;
  std::string dsn_;
};

fs::path* WrongAnswersTest::sqlite_dir_ = nullptr;
GatewayProcess* WrongAnswersTest::sqlite_ = nullptr;
GatewayProcess* WrongAnswersTest::postgres_ = nullptr;

#define QG_BOTH_GATEWAYS()       \
  QG_PG_TEST_SERVER(pg_server);  \
  open_postgres(pg_server);      \
  ASSERT_TRUE(sqlite_->alive()); \
  ASSERT_TRUE(postgres_->alive()) << postgres_->log()

// Answers of both gateways equal PostgreSQL's own.
#define EXPECT_BOTH_ANSWER_AS_POSTGRES(sql)                                           \
  do {                                                                                \
    const Table want = oracle(sql);                                                   \
    for (GatewayProcess * g : {sqlite_, postgres_}) {                                 \
      const auto r = ask(*g, sql);                                                    \
      ASSERT_EQ(r.status, 200) << (g == sqlite_ ? "sqlite " : "postgres ") << r.body; \
      EXPECT_EQ(rows(r), want) << (g == sqlite_ ? "sqlite: " : "postgres: ") << sql;  \
    }                                                                                 \
  } while (0)

#define EXPECT_BOTH_REFUSE(sql, code, fix_part)                                                                   \
  for (GatewayProcess * g : {sqlite_, postgres_}) {                                                               \
    const auto r = ask(*g, sql);                                                                                  \
    ASSERT_EQ(r.status, 422) << (g == sqlite_ ? "sqlite " : "postgres ") << sql << "\n" << r.body;                \
    EXPECT_EQ(code_of(r), code) << r.body;                                                                        \
    EXPECT_NE(fix_of(r).find(fix_part), std::string::npos) << (g == sqlite_ ? "sqlite " : "postgres ") << r.body; \
  }

// The demo's latency_ms is whole milliseconds on both backends (julianday()
// floats made a 60 ms span 59.988 on SQLite, so `= 60` found 0 spans, not 91).
TEST_F(WrongAnswersTest, VirtualColumnLatencyIsExactOnBothBackends) {
  QG_BOTH_GATEWAYS();
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT count(*) FROM spans WHERE latency_ms = 60");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT count(*) FROM spans WHERE latency_ms BETWEEN 1000 AND 1000.5");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT id FROM spans WHERE latency_ms >= 12000 ORDER BY id LIMIT 50");
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM spans WHERE latency_ms IN (1, 2, 3, 10, 60, 100, 250, 1000, 1500, 2000)");
}

// ---------- output aliases and virtual columns ----------

TEST_F(WrongAnswersTest, OrderByPrefersTheOutputAliasOverAVirtualColumn) {
  QG_BOTH_GATEWAYS();
  // id AS latency_ms: ORDER BY latency_ms sorts by the alias (id), not by the virtual column.
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT id AS latency_ms FROM spans ORDER BY latency_ms DESC LIMIT 5");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT id, -id AS model_name FROM spans ORDER BY model_name LIMIT 5");
  // In an expression, ORDER BY sees the FROM columns: the virtual column.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT id, id AS latency_ms FROM spans WHERE latency_ms IS NOT NULL ORDER BY latency_ms + 0 DESC, id LIMIT 5");
  // The sanity check that the two orders differ, so the test can fail.
  EXPECT_NE(oracle("SELECT id AS latency_ms FROM spans ORDER BY latency_ms DESC LIMIT 5"),
            oracle("SELECT id FROM spans ORDER BY latency_ms DESC, id LIMIT 5"));
}

TEST_F(WrongAnswersTest, GroupByPrefersTheFromColumnAsPostgresDoes) {
  QG_BOTH_GATEWAYS();
  // GROUP BY model_name groups by the (virtual) FROM column, not by the alias min(kind).
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) AS n, min(kind) AS model_name FROM spans GROUP BY model_name ORDER BY n DESC, 2 LIMIT 20");
  EXPECT_GT(oracle("SELECT count(*) FROM spans GROUP BY model_name").size(), 2u);
  // kind AS model_name ... GROUP BY model_name: kind is not grouped, which PostgreSQL refuses.
  const auto r = ask(*postgres_, "SELECT kind AS model_name, count(*) FROM spans GROUP BY model_name");
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_NE(r.body.find("GROUP BY"), std::string::npos) << r.body;
}

TEST_F(WrongAnswersTest, OrderByANameTwoOutputsShareIsRefused) {
  QG_BOTH_GATEWAYS();
  EXPECT_BOTH_REFUSE("SELECT name AS latency_ms, latency_ms FROM spans ORDER BY latency_ms",
                     "validation:ambiguous-column", "distinct aliases");
}

// ---------- substring ----------

TEST_F(WrongAnswersTest, SubstringMeansWhatPostgresMeansOnBothBackends) {
  QG_BOTH_GATEWAYS();
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT id, substring(name FROM -1 FOR 3), substr(name, -1, 3), substr(name, 0, 3), substr(name, -5, 3), "
      "substr(name, -2), substring(name, 0), substr(name, 2, 3), substr(name, 3), substring(name FROM 2 FOR 0), "
      "substr(name, 40, 2) FROM spans ORDER BY id LIMIT 40");
  // Positions and lengths computed per row, negative ones included.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT id, substr(name, CAST(id AS integer) % 7 - 3, 4), substr(name, CAST(id AS integer) % 7 - 3), "
      "substr(name, 2, CAST(id AS integer) % 5), substr(name, -2, CAST(id AS integer) % 5), "
      "substr(name, CAST(id AS integer) % 3 - 1, CAST(id AS integer) % 4) FROM spans ORDER BY id LIMIT 60");
  // NULL arguments give NULL.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT coalesce(substr(name, NULL, 2), 'null'), coalesce(substr(name, 1, NULL), 'null'), "
      "coalesce(substr(name, NULL), 'null') FROM spans ORDER BY id LIMIT 1");
  // The red team's example, spelled out.
  const auto r = ask(*sqlite_, "SELECT substring('name' FROM -1 FOR 3) AS s");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(rows(r), Table{{"n"}});
  // A negative length is an error in PostgreSQL: refused on both.
  EXPECT_BOTH_REFUSE("SELECT substr(name, 1, -2) FROM spans", "validation:unsupported", "0 or more");
}

// ---------- timestamp literals ----------

TEST_F(WrongAnswersTest, TimestampLiteralsAreCheckedWhereverTheyMeetATimestamp) {
  QG_BOTH_GATEWAYS();
  // On the left of BETWEEN.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM spans WHERE '2026-11-07T08:22:00Z' BETWEEN start_time AND end_time");
  // An offset names the same instant (SQLite would compare the text, 09:22, an hour off).
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM spans WHERE '2026-11-07T09:22:00+01:00' BETWEEN start_time AND end_time");
  EXPECT_EQ(oracle("SELECT count(*) FROM spans WHERE '2026-11-07T09:22:00+01:00' BETWEEN start_time AND end_time"),
            (Table{{"3"}}))
      << "three spans were running then: the comparison is not vacuous";
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT count(*) FROM spans WHERE '2026-11-05' BETWEEN start_time AND end_time");
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM spans WHERE '2026-11-05 10:00:00' BETWEEN start_time AND end_time",
                     "validation:timestamp-literal", "'2026-11-05T10:00:00Z'");
  // Through a derived table and a CTE (a bare column, or max() of one).
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM (SELECT start_time AS t FROM spans) s WHERE t >= '2026-11-05T10:00:00Z'");
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "WITH last AS (SELECT trace_id, max(start_time) AS at FROM spans GROUP BY trace_id) "
      "SELECT count(*) FROM last WHERE at > '2026-11-05T10:00:00+01:00'");
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM (SELECT start_time AS t FROM spans) s WHERE t >= '2026-11-05 10:00'",
                     "validation:timestamp-literal", "Z'");
  EXPECT_BOTH_REFUSE(
      "WITH last AS (SELECT trace_id, max(start_time) AS at FROM spans GROUP BY trace_id) "
      "SELECT count(*) FROM last WHERE at > '2026-11-05 10:00:00'",
      "validation:timestamp-literal", "Z'");
  // COALESCE, CASE and UNION branches that are all timestamp columns stored alike.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM spans WHERE coalesce(end_time, start_time) > '2026-11-07T09:22:00+01:00'");
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM (SELECT start_time AS t FROM spans UNION ALL SELECT end_time FROM spans) u "
      "WHERE t > '2026-11-07T09:22:00+01:00'");
  EXPECT_BOTH_REFUSE(
      "SELECT count(*) FROM spans WHERE CASE WHEN kind = 'LLM' THEN start_time ELSE end_time END > '2026-11-07 08:22'",
      "validation:timestamp-literal", "'2026-11-07T08:22Z'");
  // An aggregate in HAVING.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM (SELECT trace_id FROM spans GROUP BY trace_id "
      "HAVING max(start_time) > '2026-11-05T10:00:00Z') x");
  EXPECT_BOTH_REFUSE("SELECT trace_id FROM spans GROUP BY trace_id HAVING min(start_time) > '2026-11-05 10:00:00'",
                     "validation:timestamp-literal", "Z'");
  // The sanity check: the literal splits the data.
  const auto half = oracle("SELECT count(*) FROM spans WHERE start_time >= '2026-11-05T10:00:00Z'");
  const auto all = oracle("SELECT count(*) FROM spans");
  EXPECT_NE(half, all);
  EXPECT_NE(half, (Table{{"0"}}));
}

TEST_F(WrongAnswersTest, NonIsoTimestampLiteralsAreRefusedWithTheIsoForm) {
  QG_BOTH_GATEWAYS();
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM spans WHERE start_time > '12/08/2026'", "validation:timestamp-literal",
                     "'2026-12-08'");
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM spans WHERE start_time > '14:30:00'", "validation:timestamp-literal",
                     "T14:30:00Z'");
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM spans WHERE start_time BETWEEN '12/01/2026 08:00' AND '2026-12-31'",
                     "validation:timestamp-literal", "'2026-12-01T08:00Z'");
  EXPECT_BOTH_REFUSE("SELECT count(*) FROM spans WHERE start_time IN ('now')", "validation:timestamp-literal",
                     "CURRENT_TIMESTAMP");
}

// ---------- numbers ----------

TEST_F(WrongAnswersTest, NumericDigitsBeyondAJsonNumberArriveExactAsText) {
  QG_BOTH_GATEWAYS();
  const auto r = ask(*postgres_,
                     "SELECT CAST(12345678901234567890 AS numeric) AS big, CAST(9007199254740993 AS numeric) AS fits, "
                     "CAST(-12345678901234567.5 AS numeric) AS frac, CAST(2.5 AS numeric) AS small");
  ASSERT_EQ(r.status, 200) << r.body;
  const auto doc = json::parse(r.body);
  const auto& row = doc.at("rows").at(0).as_array();
  EXPECT_EQ(row.at(0).as_string(), "12345678901234567890");
  EXPECT_EQ(row.at(1).as_int64(), 9007199254740993);  // fits int64: an exact JSON number
  EXPECT_EQ(row.at(2).as_string(), "-12345678901234567.5");
  EXPECT_EQ(row.at(3).as_double(), 2.5);
  EXPECT_EQ(doc.at("columns").at(0).at("type").as_string(), "numeric");
  EXPECT_NE(r.body.find("Column big: numeric values"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("Column fits"), std::string::npos) << r.body;
  EXPECT_EQ(oracle("SELECT CAST(12345678901234567890 AS numeric)"), (Table{{"12345678901234567890"}}));
  // SQLite has no such numbers: the literal is refused rather than rounded.
  const auto lite = ask(*sqlite_, "SELECT 12345678901234567890 AS big");
  EXPECT_EQ(lite.status, 422) << lite.body;
  EXPECT_EQ(code_of(lite), "capability:not-on-sqlite") << lite.body;
}

TEST_F(WrongAnswersTest, NonFiniteFloatsHaveOneSpellingAndANote) {
  QG_BOTH_GATEWAYS();
  // SQLite overflows to infinity.
  const auto lite = ask(*sqlite_, "SELECT 1e308 * 10 AS up, -1e308 * 10 AS down, 1.5 AS fine");
  ASSERT_EQ(lite.status, 200) << lite.body;
  EXPECT_EQ(rows(lite), (Table{{"Infinity", "-Infinity", "1.5"}}));
  EXPECT_NE(lite.body.find("Column up holds floats with no JSON number"), std::string::npos) << lite.body;
  EXPECT_NE(lite.body.find("Column down holds"), std::string::npos) << lite.body;
  EXPECT_EQ(lite.body.find("Column fine holds"), std::string::npos) << lite.body;
  // PostgreSQL's own special values, the same spelling.
  const auto pg = ask(*postgres_,
                      "SELECT CAST('Infinity' AS float8) AS up, CAST('-Infinity' AS float8) AS down, "
                      "CAST('NaN' AS float8) AS nan");
  ASSERT_EQ(pg.status, 200) << pg.body;
  EXPECT_EQ(rows(pg), (Table{{"Infinity", "-Infinity", "NaN"}}));
  EXPECT_EQ(rows(pg), oracle("SELECT CAST('Infinity' AS float8), CAST('-Infinity' AS float8), CAST('NaN' AS float8)"));
  EXPECT_NE(pg.body.find("Column nan holds floats"), std::string::npos) << pg.body;
  // SQLite would read 'Infinity' as 0: refused.
  const auto cast = ask(*sqlite_, "SELECT CAST('Infinity' AS float8) AS up");
  EXPECT_EQ(cast.status, 422) << cast.body;
  EXPECT_EQ(code_of(cast), "capability:not-on-sqlite") << cast.body;
  EXPECT_NE(fix_of(cast).find("1e308"), std::string::npos) << cast.body;
  // PostgreSQL's float overflow is its error, with a FIX.
  const auto over = ask(*postgres_, "SELECT CAST(1e308 AS float8) * 10 AS x");
  EXPECT_EQ(over.status, 422) << over.body;
  EXPECT_NE(over.body.find("FIX"), std::string::npos) << over.body;
}

TEST_F(WrongAnswersTest, PrintfPastTheLengthLimitIsAnErrorNotNull) {
  ASSERT_TRUE(sqlite_->alive());
  // A width past SQLite's length limit never reaches the engine: admission
  // bounds printf widths (size_bound.cpp), so the NULL SQLite would answer
  // cannot come back as a value.
  const auto big = ask(*sqlite_, "SELECT printf('%.*c', 20000000, 'x') AS s");
  ASSERT_EQ(big.status, 422) << big.body.substr(0, 400);
  EXPECT_EQ(code_of(big), "limit:expression-size") << big.body;
  EXPECT_NE(fix_of(big).find("FIX"), std::string::npos) << big.body;
  const auto ok = ask(*sqlite_, "SELECT printf('%05d|%s|%.2f', 42, 'ab', 3.14159) AS s");
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(rows(ok), (Table{{"00042|ab|3.14"}}));
}

}  // namespace
}  // namespace qg::testing
