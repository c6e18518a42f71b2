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
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include <fstream>

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

// The demo config without its row filters: these tests compare the gateway with the engine read directly
// (every row, the internal-tests project's too); the filters have their own deleted-rows oracles
// (row_filter_oracle_test, demo_config_test). A filter line and its indented continuation lines go.
void copy_without_row_filters(const fs::path& from, const fs::path& to) {
  std::ifstream in(from);
  std::ofstream out(to);
  std::string line;
  std::size_t dropping = std::string::npos;  // indentation of the row_filter key being dropped
  while (std::getline(in, line)) {
    const std::size_t indent = line.find_first_not_of(' ');
    if (dropping != std::string::npos && indent != std::string::npos && indent > dropping) continue;
    dropping = std::string::npos;
    if (indent != std::string::npos && line.compare(indent, 10, "row_filter") == 0) {
      dropping = indent;
      continue;
    }
    out << line << "\n";
  }
}

class WrongAnswersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sqlite_dir_ = new fs::path(make_temp_dir("qg-wrong-sqlite"));
    auto made = run_command({QG_BINARY, "demo-db", (*sqlite_dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    copy_without_row_filters(kSqliteConfig, *sqlite_dir_ / "demo.yaml");
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
    copy_without_row_filters(kPostgresConfig, dir / "demo-postgres.yaml");
    ::setenv("QG_DEMO_PG_DSN", dsn_.c_str(), 1);
    postgres_ = new GatewayProcess(dir / "demo-postgres.yaml");
    ::unsetenv("QG_DEMO_PG_DSN");
  }

  static HttpResult ask(GatewayProcess& g, const std::string& sql) {
    return http(g.port(), "POST", "/v1/query",
                json::serialize(json::object{{"sql", sql}, {"database", "demo"}, {"limit", 1000}}));
  }
  // The rows, a number as the text the gateway wrote (a numeric's digits past a double's: 1000000000000000.3).
  static Table rows(const HttpResult& r) {
    Table out;
    const json::value doc = json::parse(r.body);
    const std::string& body = r.body;
    std::size_t at = body.find('[', body.find("\"rows\":["));  // the rows' array
    for (const auto& row : doc.at("rows").as_array()) {
      std::vector<std::string> cells;
      at = body.find('[', at + 1);  // this row's opening bracket
      std::size_t cell = at + 1;
      for (const auto& c : row.as_array()) {
        const std::size_t end = past_json_value(body, cell);
        cells.push_back(c.is_number() ? body.substr(cell, end - cell) : text_of(c));
        cell = end + 1;  // past the ',' (or the row's ']')
      }
      at = cell - 1;
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

// Cells equal as text, or as numbers (PostgreSQL prints numeric 2.5 as 2.5000000000000000; the
// envelope rounds SQLite's floats to 6 significant digits).
bool same_numbers(const Table& got, const Table& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t r = 0; r < got.size(); ++r) {
    if (got[r].size() != want[r].size()) return false;
    for (std::size_t c = 0; c < got[r].size(); ++c) {
      if (got[r][c] == want[r][c]) continue;
      char* end_g = nullptr;
      char* end_w = nullptr;
      const double g = std::strtod(got[r][c].c_str(), &end_g), w = std::strtod(want[r][c].c_str(), &end_w);
      if (*end_g != '\0' || *end_w != '\0' || got[r][c].empty() || want[r][c].empty()) return false;
      if (std::fabs(g - w) > 5e-6 * std::max(std::fabs(g), std::fabs(w))) return false;
    }
  }
  return true;
}

std::string shown(const Table& t) {
  std::string out;
  for (const auto& row : t) {
    out += "[";
    for (const auto& c : row) out += c + ",";
    out += "]";
  }
  return out;
}

// Answers of both gateways equal PostgreSQL's own, numbers compared as numbers.
#define EXPECT_BOTH_ANSWER_AS_POSTGRES_NUMBERS(sql)                                                              \
  do {                                                                                                           \
    const Table want = oracle(sql);                                                                              \
    for (GatewayProcess * g : {sqlite_, postgres_}) {                                                            \
      const auto r = ask(*g, sql);                                                                               \
      ASSERT_EQ(r.status, 200) << (g == sqlite_ ? "sqlite " : "postgres ") << r.body;                            \
      EXPECT_TRUE(same_numbers(rows(r), want)) << (g == sqlite_ ? "sqlite: " : "postgres: ") << sql << "\n got " \
                                               << shown(rows(r)) << "\n want " << shown(want);                   \
    }                                                                                                            \
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
  // Exponents past a double's range: SQLite would answer 0 and Infinity, PostgreSQL's numeric is exact.
  for (const char* sql : {"SELECT 1e-400 AS tiny", "SELECT 1e400 AS huge", "SELECT -2.5E+500 AS huge",
                          "SELECT 1e-400 * count(*) AS tiny FROM spans"}) {
    const auto r = ask(*sqlite_, sql);
    EXPECT_EQ(r.status, 422) << sql << "\n" << r.body;
    EXPECT_EQ(code_of(r), "capability:not-on-sqlite") << r.body;
    EXPECT_EQ(ask(*postgres_, sql).status, 200) << sql;
  }
  EXPECT_BOTH_ANSWER_AS_POSTGRES_NUMBERS("SELECT 1e3, 2.5e-3, 1E+2, count(*) * 1e0 FROM spans WHERE cost_usd > 1e-9");
}

TEST_F(WrongAnswersTest, NonFiniteFloatsHaveOneSpellingAndANote) {
  QG_BOTH_GATEWAYS();
  // 1e308 is an exact numeric on PostgreSQL (times 10 is 1e309, not Infinity); SQLite's double would overflow
  // to Infinity: the literal is refused there.
  const auto lite = ask(*sqlite_, "SELECT 1e308 * 10 AS up, -1e308 * 10 AS down, 1.5 AS fine");
  EXPECT_EQ(lite.status, 422) << lite.body;
  EXPECT_EQ(code_of(lite), "capability:not-on-sqlite") << lite.body;
  EXPECT_EQ(oracle("SELECT 1e308 * 10 = 1e309"), (Table{{"t"}}));
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

// ---------- round 2: numeric, implicit names, text literals, times (red team results/wrong*.txt) ----------

TEST_F(WrongAnswersTest, NumericCastsDivideAsPostgresDoes) {
  QG_BOTH_GATEWAYS();
  // SQLite's NUMERIC affinity made 10.0 the integer 10, so these divided integers (2, 1, 0).
  for (const char* sql : {"SELECT CAST(10 AS numeric) / 4", "SELECT CAST(count(*) AS decimal) / 2 FROM projects",
                          "SELECT round(CAST(sum(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS numeric) / "
                          "count(*), 4) FROM spans",
                          "SELECT round(CAST(count(*) AS numeric) / 4, 2) FROM projects",
                          "SELECT CAST('10' AS numeric) / 4", "SELECT CAST(10 AS numeric), CAST(7 AS numeric) * 2"})
    EXPECT_BOTH_ANSWER_AS_POSTGRES_NUMBERS(sql);
  // The sanity check: PostgreSQL's answer is not the integer division.
  EXPECT_EQ(oracle("SELECT CAST(10 AS numeric) / 4"), (Table{{"2.5000000000000000"}}));
  EXPECT_EQ(oracle("SELECT round(CAST(count(*) AS numeric) / 4, 2) FROM projects"),
            (Table{{"1.50"}}));  // 6 projects / 4
}

TEST_F(WrongAnswersTest, PostgresNumericKeepsItsDigits) {
  QG_BOTH_GATEWAYS();
  // numeric is exact: its digits reach the JSON as PostgreSQL printed them (not rounded like a float).
  const std::string sql =
      "SELECT CAST(12345.6789 AS numeric) AS a, round(CAST(sum(cost_usd) AS numeric), 6) AS b, "
      "CAST(10 AS numeric) / 4 AS c, avg(CAST(id AS integer)) AS d FROM spans";
  const Table want = oracle(sql);
  ASSERT_EQ(want.size(), 1u);
  EXPECT_EQ(want[0][0], "12345.6789");
  EXPECT_GT(want[0][1].size(), 8u) << "more than the 6 digits a float keeps";
  const auto r = ask(*postgres_, sql);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string raw = "[[" + want[0][0] + "," + want[0][1] + "," + want[0][2] + "," + want[0][3] + "]]";
  EXPECT_NE(r.body.find("\"rows\":" + raw), std::string::npos) << r.body << "\nwant " << raw;
  const auto doc = json::parse(r.body);
  EXPECT_TRUE(doc.at("rows").at(0).at(0).is_double()) << "a JSON number, not a string";
  EXPECT_EQ(doc.at("columns").at(0).at("type").as_string(), "numeric");
  EXPECT_FALSE(doc.as_object().contains("notes")) << r.body;
  // A float is still rounded to limits.float_digits.
  const auto f = ask(*postgres_, "SELECT CAST(12345.6789 AS float8) AS f");
  ASSERT_EQ(f.status, 200) << f.body;
  EXPECT_NE(f.body.find("[[12345.7]]"), std::string::npos) << f.body;
}

TEST_F(WrongAnswersTest, OrderByAnImplicitOutputNameSortsByThatOutput) {
  QG_BOTH_GATEWAYS();
  // PostgreSQL names CAST(id AS text) "id", and ORDER BY id sorts by that output, as text.
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT CAST(id AS text) FROM traces ORDER BY id LIMIT 5");
  EXPECT_EQ(oracle("SELECT CAST(id AS text) FROM traces ORDER BY id LIMIT 3"), (Table{{"1"}, {"10"}, {"100"}}));
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT CAST(id AS text) FROM traces ORDER BY id DESC LIMIT 5");
  // A function's name: lower(name) is "lower", which no FROM column has.
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT lower(name) FROM projects ORDER BY lower");
  // In an expression ORDER BY sees the FROM column, as before.
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT CAST(id AS text) FROM traces ORDER BY id + 0 LIMIT 5");
}

TEST_F(WrongAnswersTest, TextLiteralsComparedWithNumbersReadAsNumbers) {
  QG_BOTH_GATEWAYS();
  for (const char* sql :
       {"SELECT count(*) FROM projects WHERE '2' = 2", "SELECT count(*) FROM projects WHERE 2 = '2'",
        "SELECT CASE 1 WHEN '1' THEN 'y' ELSE 'n' END", "SELECT CASE WHEN '9' > 10 THEN 'y' ELSE 'n' END",
        "SELECT CASE WHEN '01' = 1 THEN 'y' ELSE 'n' END", "SELECT CASE WHEN '1' = 1 THEN 'y' ELSE 'n' END",
        "SELECT count(*) FROM spans WHERE CAST(id AS integer) IN ('1', '2', '003')",
        "SELECT count(*) FROM spans WHERE CAST(id AS integer) BETWEEN '10' AND '20'",
        "SELECT count(*) FROM spans WHERE cost_usd * 1000 > '0.5'",
        "SELECT count(*) FROM (SELECT trace_id, count(*) AS n FROM spans GROUP BY trace_id) x WHERE n = '5'",
        "SELECT count(*) FROM spans GROUP BY trace_id HAVING count(*) = '5' ORDER BY 1 LIMIT 1",
        "SELECT '1' AS x UNION SELECT 1", "SELECT count(*) FROM (SELECT '1' AS x UNION SELECT 1 UNION SELECT '01') u",
        "SELECT x FROM (SELECT 2 AS x UNION SELECT '2' UNION SELECT '3') u ORDER BY x"})
    EXPECT_BOTH_ANSWER_AS_POSTGRES(sql);
  EXPECT_EQ(oracle("SELECT count(*) FROM (SELECT '1' AS x UNION SELECT 1 UNION SELECT '01') u"), (Table{{"1"}}));
  // The sanity checks: the literals match rows.
  EXPECT_EQ(oracle("SELECT count(*) FROM projects WHERE '2' = 2"), oracle("SELECT count(*) FROM projects"));
  EXPECT_NE(oracle("SELECT count(*) FROM (SELECT trace_id, count(*) AS n FROM spans GROUP BY trace_id) x "
                   "WHERE n = '5'"),
            (Table{{"0"}}));
  // PostgreSQL refuses a text that is no integer ("invalid input syntax for type integer"): refused on SQLite.
  for (const char* sql : {"SELECT count(*) FROM spans WHERE CAST(id AS integer) = '2.5'",
                          "SELECT count(*) FROM projects WHERE 1 = 'one'"}) {
    const auto lite = ask(*sqlite_, sql);
    EXPECT_EQ(lite.status, 422) << sql << "\n" << lite.body;
    EXPECT_EQ(code_of(lite), "validation:unsupported") << lite.body;
    EXPECT_NE(fix_of(lite).find("bare"), std::string::npos) << lite.body;
    EXPECT_EQ(ask(*postgres_, sql).status, 422) << sql;
  }
}

TEST_F(WrongAnswersTest, TimestampsAsTextAreWhatPostgresPrints) {
  QG_BOTH_GATEWAYS();
  // SQLite stores '2026-09-16T00:19:23.570+00:00'; PostgreSQL's text is '2026-09-16 00:19:23.57+00'.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT id, CAST(start_time AS text), length(CAST(start_time AS text)), start_time || '', "
      "substr(CAST(end_time AS text), 1, 19) FROM spans ORDER BY id LIMIT 50");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT max(start_time) || 'x', 'at ' || min(end_time) FROM spans");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT CAST(created_at AS text) FROM projects ORDER BY id");
  // The output keeps PostgreSQL's name for what was written.
  const auto named = ask(*sqlite_, "SELECT CAST(start_time AS text) FROM spans LIMIT 1");
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(json::parse(named.body).at("columns").at(0).at("name").as_string(), "start_time") << named.body;
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT count(*) FROM spans WHERE CAST(start_time AS text) LIKE '2026-10-05 %'");
  // The sanity checks: trailing zeros and whole seconds are in the data.
  EXPECT_NE(oracle("SELECT count(*) FROM spans WHERE length(CAST(start_time AS text)) < 26"), (Table{{"0"}}));
  EXPECT_EQ(oracle("SELECT CAST(created_at AS text) FROM projects ORDER BY id LIMIT 1"),
            (Table{{"2026-06-01 09:00:00+00"}}));
}

TEST_F(WrongAnswersTest, DateOfALiteralIgnoresItsOffsetAsPostgresDoes) {
  QG_BOTH_GATEWAYS();
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT date('2026-10-05 23:30:00-02:00'), date('2026-10-05T01:30:00+02:00'), date('2026-10-05T10:00:00Z')");
  EXPECT_EQ(oracle("SELECT date('2026-10-05 23:30:00-02:00')"), (Table{{"2026-10-05"}}));
}

TEST_F(WrongAnswersTest, TimeLiteralsReachedThroughWindowsOrSubqueries) {
  QG_BOTH_GATEWAYS();
  // lag() passes a timestamp on: the literal is read as a time (its offset applied).
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT count(*) FROM (SELECT lag(start_time) OVER (ORDER BY id) AS p FROM spans) x "
      "WHERE p > '2026-10-05T14:00:00+02:00'");
  EXPECT_NE(oracle("SELECT count(*) FROM (SELECT lag(start_time) OVER (ORDER BY id) AS p FROM spans) x "
                   "WHERE p > '2026-10-05T14:00:00+02:00'"),
            oracle("SELECT count(*) FROM (SELECT lag(start_time) OVER (ORDER BY id) AS p FROM spans) x "
                   "WHERE p > '2026-10-05T14:00:00Z'"))
      << "the offset matters";
  // Text from a subquery, CTE or VALUES is text to PostgreSQL, which refuses to compare it with a time.
  for (const char* sql :
       {"SELECT count(*) FROM spans WHERE start_time > (SELECT '2026-10-05T14:00:00+02:00')",
        "WITH v AS (SELECT '2026-10-05T14:00:00+02:00' AS t) SELECT count(*) FROM spans, v WHERE spans.start_time > "
        "v.t",
        "SELECT count(*) FROM spans s JOIN (VALUES ('2026-10-05T14:00:00+02:00')) v(t) ON s.start_time > v.t"}) {
    const auto lite = ask(*sqlite_, sql);
    EXPECT_EQ(lite.status, 422) << sql << "\n" << lite.body;
    EXPECT_NE(fix_of(lite).find("compare with the literal itself"), std::string::npos) << lite.body;
    EXPECT_EQ(ask(*postgres_, sql).status, 422) << sql;
  }
  // A subquery's time stays admitted.
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT count(*) FROM spans WHERE start_time = (SELECT max(start_time) FROM spans)");
}

TEST_F(WrongAnswersTest, WhatPostgresRefusesIsNotANumberOnSqlite) {
  QG_BOTH_GATEWAYS();
  // PostgreSQL errors where SQLite would answer NULL or a number read from the text's start.
  for (const char* sql :
       {"SELECT CAST('2.7' AS integer)", "SELECT CAST('1e3' AS integer)", "SELECT 1 / 0",
        "SELECT count(*) % 0 FROM spans", "SELECT 2.5 / -0.0", "SELECT sum(start_time) FROM spans",
        "SELECT avg(start_time) FROM spans", "SELECT CAST(start_time AS integer) FROM spans LIMIT 1"}) {
    const auto lite = ask(*sqlite_, sql);
    EXPECT_EQ(lite.status, 422) << sql << "\n" << lite.body;
    EXPECT_EQ(code_of(lite), "validation:unsupported") << lite.body;
    EXPECT_NE(fix_of(lite).find("FIX"), std::string::npos) << lite.body;
    EXPECT_EQ(ask(*postgres_, sql).status, 422) << sql;
  }
  // A fraction in %: SQLite's own % drops it (10 % 3.5 is 1 there, 3.0 in PostgreSQL); on SQLite % runs as
  // pg_mod, PostgreSQL's exact remainder (s8-runtime). A double precision operand is refused (no % for it).
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT 10.5 % 4, -7.5 % 2, mod(7.5, -2), 10 % 0.75");
  EXPECT_EQ(oracle("SELECT 10 % 3.5"), (Table{{"3.0"}}));
  const auto mod = ask(*sqlite_, "SELECT CAST(2.5 AS double precision) % 2");
  EXPECT_EQ(mod.status, 422) << mod.body;
  EXPECT_EQ(code_of(mod), "capability:not-on-sqlite") << mod.body;
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT 10 % 3, -7 % 3, count(*) % 7 FROM spans");
  EXPECT_BOTH_ANSWER_AS_POSTGRES("SELECT 1 || 'a', CAST(1 AS text) || CAST(2 AS text), 'x' || count(*) FROM spans");
  // A numeric literal's text is PostgreSQL's: its scale kept, no exponent.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT CAST(1.50 AS text), CAST(1e3 AS text), CAST(0.0000001 AS text), CAST(-1.5e-7 AS text), "
      "CAST(00.250 AS text), 1.50 || '', 'v' || 2.5e2, CAST(12.5e1 AS text), CAST(-0.0 AS text)");
  EXPECT_EQ(oracle("SELECT CAST(1.50 AS text), CAST(1e3 AS text)"), (Table{{"1.50", "1000"}}));
  const auto minus = ask(*sqlite_, "SELECT -'5'");
  EXPECT_EQ(minus.status, 422) << minus.body;
  EXPECT_EQ(ask(*postgres_, "SELECT -'5'").status, 422);
}

// A cast of text that is not a literal (a column, ->>, a derived table's output): PostgreSQL checks the whole
// text and raises "invalid input syntax" or "out of range"; SQLite's CAST would read the number at the start
// of the text ('31b6...' -> 31, 'Alpha' -> 0). The oracle is PostgreSQL: where it answers, both gateways
// answer the same; where it raises an error, neither answers 200.
TEST_F(WrongAnswersTest, CastsOfTextFromTheDataAreCheckedAsPostgresChecksThem) {
  QG_BOTH_GATEWAYS();
  const char* texts[] = {" 42 ",
                         "42abc",
                         "Alpha",
                         "",
                         "2.5",
                         "1e3",
                         "-0",
                         "+7",
                         "0x1F",
                         "1_000",
                         "12 34",
                         "99999999999",
                         "-2147483648",
                         "2147483648",
                         "32768",
                         "-32768",
                         "9223372036854775808",
                         "NaN",
                         "Infinity",
                         "-inf",
                         "  -1.5e-3 ",
                         ".5",
                         "5.",
                         "e5",
                         "1e",
                         "1e400",
                         "-",
                         "\t8\n"};
  const char* types[] = {"smallint", "integer", "bigint", "double precision", "numeric"};
  int compared = 0, refused = 0;
  for (const char* text : texts)
    for (const char* type : types) {
      const std::string sql = std::string("SELECT CAST(x AS ") + type + ") FROM (SELECT E'" + text + "' AS x) t";
      // E'...': PostgreSQL's escape string (admission renders its value as a plain literal on SQLite).
      std::optional<Table> want;
      try {
        want = oracle(sql);
      } catch (const std::exception&) {
      }
      for (GatewayProcess* g : {sqlite_, postgres_}) {
        const auto r = ask(*g, sql);
        if (!want) {
          EXPECT_NE(r.status, 200) << (g == sqlite_ ? "sqlite" : "postgres") << " answered where PostgreSQL raises "
                                   << "an error: " << sql << "\n"
                                   << r.body;
          ++refused;
          continue;
        }
        // SQLite has no NaN or infinity, nor numeric digits beyond a double's 15: refused there, never rounded.
        // Hexadecimal text (PostgreSQL's float input reads it with strtod) is refused on SQLite too.
        const std::string_view t = text;
        const bool unrepresentable = t.find("NaN") != t.npos || t.find("nf") != t.npos || t.find("0x") != t.npos ||
                                     (std::string_view(type) == "numeric" && (t.size() > 15 || t == "1e400"));
        if (g == sqlite_ && unrepresentable && r.status != 200) {
          EXPECT_EQ(r.status / 100, 4) << sql << "\n" << r.body;
          continue;
        }
        ASSERT_EQ(r.status, 200) << (g == sqlite_ ? "sqlite " : "postgres ") << sql << "\n" << r.body;
        EXPECT_TRUE(same_numbers(rows(r), *want)) << (g == sqlite_ ? "sqlite: " : "postgres: ") << sql << "\n got "
                                                  << shown(rows(r)) << "\nwant " << shown(*want);
        ++compared;
      }
    }
  EXPECT_GT(compared, 20);
  EXPECT_GT(refused, 40);
  // Over the data: trace ids are hex text, so PostgreSQL refuses the cast; SQLite would have read 0 or a prefix.
  for (const char* sql : {"SELECT CAST(trace_id AS integer) FROM traces",
                          "SELECT sum(CAST(t.trace_id AS bigint)) "
                          "FROM traces t",
                          "SELECT CAST(explanation AS numeric) FROM span_annotations WHERE explanation IS NOT NULL"}) {
    EXPECT_THROW(oracle(sql), std::exception) << sql;
    for (GatewayProcess* g : {sqlite_, postgres_}) EXPECT_NE(ask(*g, sql).status, 200) << sql;
  }
  // What PostgreSQL accepts still runs: numbers inside JSON text, digits cut from a text.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT sum(CAST(attributes ->> 'llm.token_count.total' AS integer)), "
      "max(CAST(attributes ->> 'llm.token_count.prompt' AS bigint)) FROM spans WHERE kind = 'LLM'");
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT CAST(substr(trace_id, 1, 3) AS integer) AS n, count(*) FROM traces WHERE substr(trace_id, 1, 1) = '0' "
      "AND substr(trace_id, 2, 1) IN ('0','1','2','3','4','5','6','7','8','9') AND substr(trace_id, 3, 1) IN "
      "('0','1','2','3','4','5','6','7','8','9') GROUP BY 1 ORDER BY 1");
}

TEST_F(WrongAnswersTest, RoundOfAFloatRoundsHalvesToEvenAsPostgresDoes) {
  QG_BOTH_GATEWAYS();
  // PostgreSQL's round(float8) is rint (2.5 -> 2, 3.5 -> 4); SQLite's rounds halves away from zero.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT round(CAST(2.5 AS float8)), round(CAST(3.5 AS float8)), round(CAST(-2.5 AS float8)), "
      "round(CAST(-3.5 AS float8)), round(CAST(1.5 AS float8)), round(CAST(2.4999 AS float8)), "
      "round(CAST(-1.7 AS float8)), round(CAST(7 AS float8)), round(CAST(NULL AS float8))");
  EXPECT_EQ(oracle("SELECT round(CAST(2.5 AS float8))"), (Table{{"2"}}));
  // Over data, with ties made by halving whole numbers, grouped and sorted by the rounded value.
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT round(CAST(id AS float8) / 2), round(cost_usd * 100000), round(avg(cost_usd) * 1e6) FROM spans "
      "GROUP BY id, cost_usd ORDER BY id LIMIT 40");
  EXPECT_BOTH_ANSWER_AS_POSTGRES(
      "SELECT round(CAST(id AS float8) / 2) AS r, count(*) FROM spans WHERE id < 30 GROUP BY round(CAST(id AS "
      "float8) / 2) ORDER BY r");
  // numeric rounds halves away from zero on both.
  EXPECT_BOTH_ANSWER_AS_POSTGRES_NUMBERS("SELECT round(2.5), round(-2.5), round(CAST(0.5 AS numeric))");
}

// What PostgreSQL answers, or its error (the oracle's exception text), for the SQLite gateway's comparisons.
struct OracleAnswer {
  bool failed = false;
  std::string error;
  Table rows;
};

// The SQLite gateway answers `sql` as PostgreSQL does, or fails where PostgreSQL fails (`range_words`: with
// PostgreSQL's "out of range" when that is its error); `refusal_allowed`: a refusal with a FIX where PostgreSQL
// answers.
#define EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, refusal_allowed, range_words)                               \
  do {                                                                                                     \
    OracleAnswer want;                                                                                     \
    try {                                                                                                  \
      want.rows = oracle(sql);                                                                             \
    } catch (const std::exception& e) {                                                                    \
      want.failed = true;                                                                                  \
      want.error = e.what();                                                                               \
    }                                                                                                      \
    const auto lite = ask(*sqlite_, sql);                                                                  \
    if (want.failed) {                                                                                     \
      EXPECT_NE(lite.status, 200) << (sql) << "\nPostgreSQL: " << want.error << "\nSQLite: " << lite.body; \
      if ((range_words) && want.error.find("out of range") != std::string::npos)                           \
        EXPECT_NE(lite.body.find("out of range"), std::string::npos) << (sql) << "\n" << lite.body;        \
    } else if ((refusal_allowed) && lite.status == 422) {                                                  \
      EXPECT_NE(fix_of(lite).find("FIX"), std::string::npos) << (sql) << "\n" << lite.body;                \
    } else {                                                                                               \
      ASSERT_EQ(lite.status, 200) << (sql) << "\n" << lite.body;                                           \
      EXPECT_EQ(rows(lite), want.rows) << (sql);                                                           \
    }                                                                                                      \
  } while (false)

// integer (int4) and smallint overflow: SQLite computes every integer in 64 bits (2147483647 + 1 is 2147483648
// there); PostgreSQL raises "integer out of range" / "smallint out of range" where its type is certainly int4 /
// int2 (literals, casts, text lengths and positions, and + - * / of those). Each statement answers as PostgreSQL
// does on the SQLite gateway, or fails where PostgreSQL fails (constants: refused at admission, with a FIX
// naming the bigint cast; the rest: pg_int4 / pg_int2, PostgreSQL's message). Mixed with bigint: bigint.
TEST_F(WrongAnswersTest, IntegerOverflowIsPostgresErrorOnSqlite) {
  QG_BOTH_GATEWAYS();
  const char* statements[] = {
      "SELECT 2147483647 + 1",
      "SELECT 2147483647 + 1 - 1",
      "SELECT -2147483647 - 1",
      "SELECT -2147483647 - 2",
      "SELECT 123456789 * 1000",
      "SELECT 2147483647::int * 2",
      "SELECT -2147483648::int * -1",
      "SELECT (-2147483648)::int * -1",
      "SELECT (-2147483647 - 1) / -1",
      "SELECT (-2147483647 - 1) % -1",
      "SELECT 32767::smallint + 1::smallint",
      "SELECT 32767::smallint + 1",
      "SELECT 200::smallint * 200::smallint",
      "SELECT -(-2147483647 - 1)",
      "SELECT 2147483647::bigint + 1",
      "SELECT 2147483647 + 1::bigint",
      "SELECT 2147483647 + 1.5",
      "SELECT NULL + 2147483647",
      "SELECT NULL * 2147483647 * 2",
      "SELECT 2147483647 + NULL::int",
      "SELECT 2147483648::int",
      "SELECT 65536 * 32768",
      "SELECT 46341 * 46341",
      "SELECT 46340 * 46340, 7 / 2, -7 / 2, 1 + 2 * 3",
      "SELECT (2147483647 + 1)::bigint",
      "SELECT 2147483647 + '1'",
      "SELECT count(*) FROM spans WHERE length(name) * 1000000000 > 0",
      "SELECT count(*) FROM spans WHERE length(name) * 1000 > 20000",
      "SELECT max(length(name) * 100000000) FROM spans",
      "SELECT max(length(name) * 10000000) FROM spans",
      "SELECT sum(id::int * 1000000) FROM spans",
      "SELECT sum(id::int * 10) FROM spans",
      "SELECT max(id::int * 2147483647) FROM spans WHERE id < 3",
      "SELECT max(length(name) + 2147483647 - 100) FROM spans",
      "SELECT max(length(name) + 2147483600) FROM spans",
      "SELECT max(id::int + 2147483647 - 100) FROM spans WHERE id < 50",
      "SELECT max(length(name)::smallint * 10000::smallint) FROM spans",
      "SELECT max(length(name)::smallint * 100::smallint) FROM spans",
      "SELECT max(strpos(name, 'a') * 1000000000) FROM spans",
      "SELECT max(char_length(name) * 1000000000) FROM spans",
      "SELECT max(position('a' IN name) * 1000000000) FROM spans",
      "SELECT max(-(id::int)) FROM spans",
      "SELECT count(*) FROM spans WHERE id::int * 100000000 > 5",
      "SELECT max(id::int / -1) FROM spans",
      "SELECT max((id::int - 2147483647 - 1) / -1) FROM spans WHERE id = 1",
      "SELECT max((id::int - 2147483647 - 2) / -1) FROM spans WHERE id = 1",
      "SELECT max(id::bigint * 2147483647) FROM spans",
      "SELECT max(length(name)::bigint * 1000000000) FROM spans",
      "SELECT max(length(name) * 1000000000::bigint) FROM spans",
      "SELECT max(CASE WHEN id > 0 THEN length(name) * 1000 END) FROM spans",
      "SELECT max(CASE WHEN id > 0 THEN length(name) * 1000000000 END) FROM spans",
      "SELECT max(length(name) * 1000 + id) FROM spans",
      "SELECT id, length(name) * 3 - 1 AS n FROM spans ORDER BY id LIMIT 5",
      "SELECT max(length(name) * 1000) / 7, min(length(name) % 4) FROM spans",
      // Casts to a narrower integer type (outside tester s9): PostgreSQL's range errors.
      "SELECT '9223372036854775808'::bigint",
      "SELECT '-9223372036854775808'::bigint, '2147483647'::int, '-32768'::smallint",
      "SELECT '3000000000'::int",
      "SELECT 40000::smallint",
      "SELECT -32768::smallint",
      "SELECT (count(*) * 1000000)::int FROM spans",
      "SELECT count(*)::int, count(*)::smallint FROM projects",
      "SELECT (id * 20000)::smallint FROM projects",
      "SELECT id::int, length(name)::smallint FROM projects ORDER BY id",
      // int4 through min / max / abs and ntile; -x of the smallest bigint (outside tester s9).
      "SELECT min(length(name)) * 1000000000 FROM projects",
      "SELECT max(length(name)) + 2147483640 FROM projects",
      "SELECT ntile(2) OVER (ORDER BY id) * 2147483647 FROM projects",
      "SELECT ntile(2) OVER (ORDER BY id) * 2 FROM projects ORDER BY id",
      "SELECT -(-9223372036854775807 - 1)",
      "SELECT -x FROM (VALUES (-9223372036854775807 - 1)) v(x)",
      "SELECT -id, -(id * 2) FROM projects ORDER BY id",
  };
  // A numeric past 2^53 is not held exactly on SQLite (a double): refused or failed, never other digits.
  for (const char* sql :
       {"SELECT 9007199254740993::numeric", "SELECT 9223372036854775807::numeric + 1", "SELECT 9007199254740993 + 0.0",
        "SELECT sum(x::numeric) FROM (VALUES (9007199254740993), (1)) v(x)", "SELECT 1e18::numeric * 100"}) {
    const auto lite = ask(*sqlite_, sql);
    EXPECT_NE(lite.status, 200) << sql << "\n" << lite.body;
    EXPECT_NE(fix_of(lite).find("FIX"), std::string::npos) << sql << "\n" << lite.body;
    // querygate's own words: nothing from the data to withhold (an apostrophe read as a quote garbled them).
    EXPECT_EQ(lite.body.find("withheld"), std::string::npos) << sql << "\n" << lite.body;
  }
  const auto exact = ask(*sqlite_, "SELECT 9007199254740991::numeric + 0, sum(id::numeric) FROM projects");
  EXPECT_EQ(exact.status, 200) << exact.body;
  // A whole numeric of 16 digits below 2^53 is exact on SQLite too (its 15-digit text dropped the 16th: fuzz seed
  // 018); a float8 cast to numeric keeps 15 significant digits, as PostgreSQL's float8 to numeric does.
  for (const char* sql : {"SELECT 900719925474 % 993::numeric - 9007199254740992",
                          "SELECT 351::numeric - 9007199254740992, (9007199254740641::float8)::numeric(20, 0)",
                          "SELECT trunc(1234567890123456::numeric, 0), round(1234567890123456::numeric)",
                          "SELECT (x::float8)::numeric(20, 1) FROM (VALUES (1234567890123.45), (0.1)) v(x)"})
    EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, false, false);
  // ... but the fraction a whole double of 16 digits lost is not known: an error, never the wrong digits.
  for (const char* sql :
       {"SELECT round(9007199254740641::numeric - 0.4)", "SELECT 1234567890123456::numeric + 0.5", "SELECT 1e15 + 0.3",
        "SELECT 1e15 + 1", "SELECT 1234567890123456::numeric * 2", "SELECT (1234567890123456::numeric + 0.5)::int8"})
    EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, true, false);
  // PostgreSQL's own words, at admission (a FIX) or from the engine.
  for (const char* sql : statements) EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, false, true);
  // A constant's overflow is refused at admission, with the bigint cast as the FIX.
  const auto folded = ask(*sqlite_, "SELECT 2147483647 + 1");
  EXPECT_EQ(folded.status, 422) << folded.body;
  EXPECT_EQ(code_of(folded), "validation:unsupported") << folded.body;
  EXPECT_NE(fix_of(folded).find("::bigint"), std::string::npos) << folded.body;
}

// PostgreSQL's errors raised on SQLite in PostgreSQL's words carry PostgreSQL's FIX (executors/executor_errors.cpp),
// on both gateways alike: an agent reads the same next step whichever engine ran the statement.
TEST_F(WrongAnswersTest, EngineErrorsCarryTheSameFixOnBothBackends) {
  QG_BOTH_GATEWAYS();
  for (const char* sql : {"SELECT 1 / (id - id) FROM projects", "SELECT length(name) * 2147483647 FROM projects",
                          "SELECT (attributes ->> 'llm.provider')::int FROM spans WHERE attributes ? 'llm.provider'"}) {
    const auto lite = ask(*sqlite_, sql);
    const auto pg = ask(*postgres_, sql);
    EXPECT_NE(lite.status, 200) << sql << "\n" << lite.body;
    EXPECT_NE(fix_of(lite).find("FIX"), std::string::npos) << sql << "\n" << lite.body;
    EXPECT_EQ(fix_of(lite), fix_of(pg)) << sql << "\nSQLite: " << lite.body << "\nPostgreSQL: " << pg.body;
  }
}

// int4 / smallint through derived relations (outside tester, s10): a column of a subquery, CTE, VALUES list or
// set operation, and CASE / COALESCE / NULLIF / GREATEST / LEAST / lag of it, is PostgreSQL's integer when its
// values are: its arithmetic overflows as PostgreSQL's (pg_int4 on SQLite), abs(-2147483648) is an error, and a
// VALUES list's column types are resolved as PostgreSQL's select_common_type resolves them.
TEST_F(WrongAnswersTest, IntegerWidthsFlowThroughDerivedRelationsOnSqlite) {
  QG_BOTH_GATEWAYS();
  const char* statements[] = {
      "SELECT x + 1 FROM (SELECT 2147483647 AS x) s",
      "WITH c AS (SELECT 2147483647 AS x) SELECT x + 1 FROM c",
      "WITH c(x) AS (SELECT 2147483647) SELECT x * 2 FROM c",
      "SELECT x + 1 FROM (VALUES (2147483647)) v(x)",
      "SELECT x + 1 FROM (VALUES (2147483647), (NULL)) v(x)",
      "SELECT x + 1 FROM (VALUES (NULL), (1), (2147483647)) v(x)",
      "SELECT x + 1 FROM (SELECT 1 AS x UNION ALL SELECT 2147483647) s",
      "SELECT x + 1 FROM (SELECT 1 AS x UNION SELECT NULL UNION SELECT 2147483647) s",
      "SELECT x - 1 FROM (SELECT 1 AS x UNION ALL SELECT -2147483647 - 1) s",
      "SELECT lag(x) OVER (ORDER BY x) + 1 FROM (SELECT 2147483647 AS x UNION ALL SELECT 1) s",
      "SELECT lag(x) OVER (ORDER BY x DESC) + 1 FROM (SELECT 2147483647 AS x UNION ALL SELECT 1) s",
      "SELECT lead(x, 1, 0) OVER (ORDER BY x) * 2 FROM (VALUES (1), (2147483647)) v(x)",
      "SELECT first_value(x) OVER () + 1, last_value(x) OVER () FROM (VALUES (2147483647)) v(x)",
      "SELECT lag(x, 1, 5000000000) OVER () + 1 FROM (SELECT 2147483647 AS x) s",
      "SELECT greatest(x, 1) + 1 FROM (SELECT 2147483647 AS x) s",
      "SELECT least(x, 5) * 1000000000 FROM (SELECT 3 AS x) s",
      "SELECT least(x, 5) * 100 FROM (SELECT 3 AS x) s",
      "SELECT nullif(x, 0) + 1 FROM (SELECT 2147483647 AS x) s",
      "SELECT coalesce(x, 0) + 1 FROM (SELECT 2147483647 AS x) s",
      "SELECT coalesce(x, 0) + 1 FROM (SELECT NULL::int AS x) s",
      "SELECT CASE WHEN x > 0 THEN x ELSE 0 END + 1 FROM (SELECT 2147483647 AS x) s",
      "SELECT CASE WHEN x > 0 THEN x END * 2 FROM (VALUES (1073741824), (-5)) v(x)",
      "SELECT (SELECT 2147483647) + 1",
      "SELECT (SELECT x FROM (VALUES (2147483647)) v(x)) + 1",
      "SELECT max(x) + 1 FROM (VALUES (1), (2147483647)) v(x)",
      "SELECT min(x) OVER () - 1 FROM (VALUES (-2147483647 - 1)) v(x)",
      "SELECT x + 1, x - 1 FROM (SELECT 2147483646 AS x) s",
      "SELECT x * x FROM (SELECT 46340 AS x UNION ALL SELECT 46341) s",
      // abs, -x and x * -1 of int4's smallest value.
      "SELECT abs(-2147483647 - 1)",
      "SELECT abs(-2147483647), abs(-2147483647 - 1 + 1)",
      "SELECT abs(x) FROM (VALUES (-2147483647 - 1)) v(x)",
      "SELECT abs(x) FROM (VALUES (-2147483647), (NULL), (5)) v(x)",
      "SELECT -x FROM (VALUES (-2147483647 - 1)) v(x)",
      "SELECT x * -1 FROM (VALUES (-2147483647 - 1)) v(x)",
      "SELECT x / -1 FROM (VALUES (-2147483647 - 1)) v(x)",
      "SELECT abs(x) FROM (SELECT (-32768)::smallint AS x) s",
      "SELECT abs(-32767::smallint), abs(x) FROM (SELECT (-32767)::smallint AS x) s",
      // smallint through a subquery; bigint stays 64-bit; int4 with int8 is int8 (no wrap).
      "SELECT x + 1::smallint FROM (SELECT 32767::smallint AS x) s",
      "SELECT x + 1 FROM (SELECT 32767::smallint AS x) s",
      "SELECT x * x FROM (VALUES (200::smallint)) v(x)",
      "SELECT x + 1 FROM (SELECT 2147483647::bigint AS x) s",
      "SELECT x + y FROM (SELECT 2147483647 AS x, 1::bigint AS y) s",
      "SELECT x + 1 FROM (SELECT 1 AS x UNION ALL SELECT 2147483648) s",
      "SELECT x + 1 FROM (VALUES (2147483647), (5000000000)) v(x)",
      "SELECT x + 1 FROM (SELECT id AS x FROM spans) s ORDER BY 1 LIMIT 3",
      "SELECT count(*) FROM (SELECT length(name) * 1000 AS n FROM spans) s WHERE n + 2147480000 > 0",
      // VALUES / UNION / CASE column types as PostgreSQL resolves them.
      "SELECT * FROM (VALUES (1, 'a'), ('x', 2)) v",
      "SELECT * FROM (VALUES (1, 'a'), (2, 'x')) v",
      "SELECT * FROM (VALUES (1), ('2')) v",
      "SELECT * FROM (VALUES ('1'), (2)) v",
      "SELECT * FROM (VALUES (1), (' 2 ')) v",
      "SELECT * FROM (VALUES (1), ('2.0')) v",
      "SELECT * FROM (VALUES (1), ('3000000000')) v",
      "SELECT * FROM (VALUES (NULL), ('x'), (1)) v",
      "SELECT * FROM (VALUES (1), (2.5)) v",
      "SELECT * FROM (VALUES (1.5), ('2')) v",
      "SELECT * FROM (VALUES (1), ('x'::text)) v",
      "SELECT * FROM (VALUES (true), ('x')) v",
      "SELECT * FROM (VALUES (true), ('off'), ('T'), (' yes ')) v",
      "VALUES (1, 'a'), ('x', 'b')",
      "SELECT x + 1 FROM (VALUES ('1')) v(x)",
      "SELECT x + 1 FROM (SELECT '1' AS x) s",
      "WITH c AS (SELECT '1' AS x) SELECT x + 1 FROM c",
      "SELECT 1 UNION SELECT 'x'",
      "SELECT 1 UNION ALL SELECT '2'",
      "SELECT '1' UNION SELECT '2' UNION SELECT 3",
      "SELECT 3 UNION SELECT '1' UNION SELECT '2' ORDER BY 1",
      "SELECT 1 UNION SELECT '3000000000'",
      "SELECT true UNION SELECT 'x'",
      "SELECT CASE WHEN id > 0 THEN true ELSE 'x' END FROM spans LIMIT 1",
      "SELECT CASE WHEN id > 0 THEN 1 ELSE '3000000000' END FROM spans LIMIT 1",
      "SELECT 1 = '3000000000'",
  };
  for (const char* sql : statements) EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, false, true);
  // The answer's type names are PostgreSQL's.
  const auto typed = ask(*sqlite_,
                         "SELECT x, y, z, w FROM (SELECT 1 AS x, 1::smallint AS y, 1::bigint AS z, "
                         "CASE WHEN true THEN 1 END AS w) s");
  ASSERT_EQ(typed.status, 200) << typed.body;
  const auto doc = json::parse(typed.body);
  EXPECT_EQ(doc.at("columns").at(0).at("type").as_string(), "integer") << typed.body;
  EXPECT_EQ(doc.at("columns").at(1).at("type").as_string(), "smallint") << typed.body;
  EXPECT_EQ(doc.at("columns").at(2).at("type").as_string(), "bigint") << typed.body;
  EXPECT_EQ(doc.at("columns").at(3).at("type").as_string(), "integer") << typed.body;
}

// TIME '24:00' is the end of the day in PostgreSQL (printed 24:00:00, its hour 24, after 23:59:59), not midnight.
TEST_F(WrongAnswersTest, TimeTwentyFourIsTheEndOfTheDay) {
  QG_BOTH_GATEWAYS();
  const char* statements[] = {
      "SELECT TIME '24:00'",
      "SELECT TIME '24:00:00', CAST('24:00' AS time), '24:00'::time",
      "SELECT CAST(TIME '24:00' AS text), TIME '24:00' || ''",
      "SELECT TIME '24:00' > TIME '23:59:59', TIME '24:00' = TIME '00:00', TIME '24:00' = '24:00:00'",
      "SELECT EXTRACT(hour FROM TIME '24:00'), EXTRACT(minute FROM TIME '24:00')",
      "SELECT TIME '24:00' - TIME '00:00'",
      "SELECT DATE '2024-01-01' + TIME '24:00'",
      "SELECT CAST(TIMESTAMP '2024-01-01 24:00' AS text)",
      "SELECT TIME '23:59:59.9999999'",
      "SELECT TIME '24:00:01'",
      "SELECT TIME '24:01'",
      "SELECT max(t), min(t) FROM (VALUES (TIME '24:00'), (TIME '12:00')) v(t)",
      "SELECT t FROM (VALUES (TIME '24:00'), (TIME '12:00'), (TIME '00:00')) v(t) ORDER BY t",
      "SELECT count(*) FROM spans WHERE CAST(start_time AS time) < TIME '24:00'",
  };
  // A refusal with a FIX is allowed; never a different answer.
  for (const char* sql : statements) EXPECT_SQLITE_ANSWERS_AS_POSTGRES(sql, true, false);
  const auto lite = ask(*sqlite_, "SELECT TIME '24:00'");
  ASSERT_EQ(lite.status, 200) << lite.body;
  EXPECT_EQ(rows(lite), (Table{{"24:00:00"}}));
}

// ---------- arrays (s10): one JSON array form on both backends ----------

// PostgreSQL's own answer as JSON (row_to_json: numbers as numbers, text as strings, NULL as null, booleans
// as booleans), one object per row, in the statement's order.
std::vector<json::value> json_rows_of(const Table& oracle_rows) {
  std::vector<json::value> out;
  for (const auto& row : oracle_rows) out.push_back(json::parse(row.at(0)));
  return out;
}

// The gateway's rows as the same objects (column name: value).
std::vector<json::value> json_rows_of(const HttpResult& r) {
  std::vector<json::value> out;
  const json::value doc = json::parse(r.body);
  const auto& columns = doc.at("columns").as_array();
  for (const auto& row : doc.at("rows").as_array()) {
    json::object o;
    for (std::size_t c = 0; c < columns.size(); ++c) o[columns[c].at("name").as_string()] = row.as_array().at(c);
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<std::string> column_types(const HttpResult& r) {
  std::vector<std::string> out;
  const json::value doc = json::parse(r.body);
  for (const auto& c : doc.at("columns").as_array())
    out.emplace_back(c.as_object().contains("type") ? c.at("type").as_string().c_str() : "");
  return out;
}

// array_agg (ORDER BY, DISTINCT, FILTER, NULL elements, no rows, ties of equal values) and regexp_match answer
// on both gateways exactly what PostgreSQL answers, as JSON arrays of the elements, with the same column types
// (text[], integer[], boolean[], numeric[]).
TEST_F(WrongAnswersTest, ArraysAreJsonArraysOfPostgresAnswer) {
  QG_BOTH_GATEWAYS();
  const char* statements[] = {
      "SELECT array_agg(name ORDER BY name) AS names FROM projects",
      "SELECT array_agg(id ORDER BY id DESC) AS ids FROM projects",
      "SELECT kind, array_agg(DISTINCT status) AS statuses FROM spans GROUP BY kind ORDER BY kind",
      "SELECT kind, array_agg(DISTINCT status ORDER BY status DESC) AS s FROM spans GROUP BY kind ORDER BY kind",
      // NULL elements are kept (label is NULL on some annotations), sorted where NULLS FIRST/LAST says.
      "SELECT array_agg(label ORDER BY id) AS labels FROM span_annotations WHERE span_id BETWEEN 300 AND 700",
      "SELECT array_agg(label ORDER BY label NULLS FIRST, id) AS l FROM span_annotations WHERE id <= 20",
      "SELECT array_agg(label ORDER BY label DESC NULLS LAST, id DESC) AS l FROM span_annotations WHERE id <= 20",
      "SELECT array_agg(DISTINCT label) AS l FROM span_annotations WHERE id <= 20",
      "SELECT array_agg(DISTINCT label ORDER BY label DESC) AS l FROM span_annotations WHERE id <= 20",
      // Ties of equal values: the order cannot tell them apart.
      "SELECT array_agg(status ORDER BY status) AS s FROM spans WHERE id <= 30",
      // No rows: NULL, not [].
      "SELECT array_agg(name ORDER BY id) AS names FROM projects WHERE id < 0",
      "SELECT array_agg(id ORDER BY id) FILTER (WHERE id % 2 = 0) AS even, array_agg(id ORDER BY id) FILTER (WHERE "
      "id > 100) AS none FROM projects",
      "SELECT id % 2 AS p, array_agg(id ORDER BY id) AS ids, count(*) AS n FROM projects GROUP BY id % 2 ORDER BY p",
      "SELECT array_agg(parent_id ORDER BY id) AS parents FROM spans WHERE trace_id = "
      "'c4253f31238aa4a42dfbeecec0579f27'",
      "SELECT array_agg(status = 'OK' ORDER BY id) AS ok FROM spans WHERE id <= 12",
      "SELECT array_agg(round(CAST(id AS numeric) / 4, 2) ORDER BY id) AS quarters FROM projects",
      "SELECT array_agg(id * 2 ORDER BY id) AS doubled, array_agg(upper(name) ORDER BY id) AS up FROM projects",
      "SELECT id, regexp_match(name, '([a-z]+)-([a-z]+)') AS parts FROM projects ORDER BY id",
      "SELECT id, regexp_match(name, '[a-z]+$') AS tail FROM projects ORDER BY id",
      "SELECT id, regexp_match(name, 'BOT', 'i') AS m FROM projects ORDER BY id",
      "SELECT id, regexp_match(name, 'x(y*)') AS m FROM projects ORDER BY id",
  };
  for (const char* sql : statements) {
    const auto want = json_rows_of(oracle(std::string("SELECT row_to_json(q)::text FROM (") + sql + ") AS q"));
    std::vector<std::string> types;
    for (GatewayProcess* g : {sqlite_, postgres_}) {
      const auto r = ask(*g, sql);
      ASSERT_EQ(r.status, 200) << (g == sqlite_ ? "sqlite " : "postgres ") << sql << "\n" << r.body;
      EXPECT_EQ(json_rows_of(r), want) << (g == sqlite_ ? "sqlite: " : "postgres: ") << sql << "\n" << r.body;
      if (types.empty())
        types = column_types(r);
      else
        EXPECT_EQ(column_types(r), types) << sql << "\n" << r.body;
    }
  }
  const auto r = ask(*sqlite_,
                     "SELECT array_agg(p.name ORDER BY p.name) AS names, array_agg(p.id ORDER BY p.id) AS ids, "
                     "array_agg(s.status = 'OK' ORDER BY s.id) AS ok FROM projects p JOIN spans s ON s.id = "
                     "p.id");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(column_types(r), (std::vector<std::string>{"text[]", "integer[]", "boolean[]"})) << r.body;
}

// Where SQLite would read an array's JSON text (compare, sort, group, deduplicate, cast to text, pass it on),
// the SQLite gateway refuses with a FIX; PostgreSQL answers.
TEST_F(WrongAnswersTest, ArraysAnywhereButAnOutputColumnAreRefusedOnSqlite) {
  QG_BOTH_GATEWAYS();
  const char* statements[] = {
      "SELECT array_agg(name) = array_agg(name) AS same FROM projects",
      "SELECT DISTINCT array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2",
      "WITH a AS (SELECT array_agg(name ORDER BY name) AS n FROM projects) SELECT n FROM a",
      "SELECT (SELECT array_agg(name ORDER BY name) FROM projects) AS n",
      "SELECT id % 2 AS p, array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2 ORDER BY ids",
      "SELECT id % 2 AS p, array_agg(id ORDER BY id) AS ids FROM projects GROUP BY id % 2 ORDER BY 2 DESC",
      "SELECT regexp_match(name, 'a') AS m, count(*) AS n FROM projects GROUP BY 1 ORDER BY n",
      "SELECT CAST(array_agg(name ORDER BY name) AS text) AS t FROM projects",
      "SELECT name FROM projects WHERE regexp_match(name, 'bot') IS NOT NULL ORDER BY name",
      "SELECT array_agg(name ORDER BY name) FROM projects UNION ALL SELECT array_agg(name ORDER BY name) FROM projects",
      "SELECT name, array_agg(name) OVER (ORDER BY id) AS so_far FROM projects ORDER BY id",
  };
  for (const char* sql : statements) {
    const auto pg = ask(*postgres_, sql);
    EXPECT_EQ(pg.status, 200) << sql << "\n" << pg.body;
    const auto lite = ask(*sqlite_, sql);
    ASSERT_EQ(lite.status, 422) << sql << "\n" << lite.body;
    EXPECT_EQ(code_of(lite), "capability:not-on-sqlite") << lite.body;
    EXPECT_NE(fix_of(lite).find("FIX"), std::string::npos) << lite.body;
  }
}

}  // namespace
}  // namespace qg::testing
