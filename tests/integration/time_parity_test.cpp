// PostgreSQL's time, date and interval meaning on SQLite (issue #12): the same
// rows in a real SQLite file and a real PostgreSQL database; each statement,
// written in PostgreSQL, goes through a SQLite gateway and a PostgreSQL gateway
// over HTTP, and the two JSON answers must be identical (the PostgreSQL gateway
// runs the statement natively: its answer is PostgreSQL's). Rows cover NULLs,
// fractions of seconds, month ends, a leap day, week and year boundaries and
// the daylight-saving changes of America/Los_Angeles (2026-03-08) and
// Europe/Berlin (2026-10-25). What is not translated is refused with a FIX
// whose statement runs.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <pqxx/pqxx>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
using Cells = std::vector<std::vector<std::optional<std::string>>>;

struct Row {
  int id;
  const char* a;  // UTC, as SQLite stores it; NULL as nullptr
  const char* b;
  const char* d;  // a date
  double n;
};

const Row kRows[] = {
    {1, "2026-01-31 10:00:00", "2026-02-01 11:30:00.25", "2026-01-31", 1.5},
    {2, "2024-02-29 23:59:59.999", "2024-03-01 00:00:00", "2024-02-29", -2},
    {3, "2026-03-08 10:00:00", "2026-03-08 09:59:59.5", "2026-03-08", 0.25},  // 02:00 PST → 03:00 PDT
    {4, "2026-10-25 00:30:00", "2026-10-25 01:30:00", "2026-10-25", 3},       // 03:00 CEST → 02:00 CET
    {5, "2025-12-29 00:00:00", "2027-01-03 23:59:59", "2027-01-01", 7},       // ISO weeks across years
    {6, nullptr, "2026-06-15 12:00:00", nullptr, 1},
    {7, "2026-12-31 23:59:59.000001", nullptr, "2026-12-31", 0},
};

// Users' own files (outside testers s18b, s19a, s19b): per row, the same instant in several text forms as Python and
// CSV imports write them. m mixes forms (isoformat() drops .000000), o carries local offsets (astimezone()), z and p
// hold one form each ('...Z' and '...+00:00'), n is naive ('YYYY-MM-DD HH:MM:SS'), d a date; q, declared DATETIME on
// SQLite, holds texts that are no time beside times (outside tester s19g): text on both; c is TEXT holding digits,
// '' and words, as CSV imports leave it (outside tester s20a); x is NUMERIC of no scale (SQLite holds REALs); r is
// REAL with a CSV import's '' in one row: text on both.
constexpr const char* kFormsRows =
    "INSERT INTO f VALUES"
    " (1, '2024-03-31T01:00:00+00:00', '2024-03-31T03:00:00+02:00', '2024-03-31T01:00:00Z',"
    "     '2024-03-31T01:00:00+00:00', '2024-03-31 01:00:00', '2024-03-31', '2024-03-31 01:00:00', '007', 0.000001, "
    "1.5),"
    " (2, '2024-03-31T01:00:00.500000+00:00', '2024-03-30T20:00:00.5-05:00', '2024-03-31T01:00:00.500Z',"
    "     '2024-03-31T01:00:00.500+00:00', '2024-03-31 01:00:00.5', '2024-03-31', 'N/A', '12', 0.00001234, ''),"
    " (3, '2024-03-31T00:59:59.999999+00:00', '2024-03-31T06:29:59.999999+05:30', '2024-03-31T00:59:59.999Z',"
    "     '2024-03-31T00:59:59.999+00:00', '2024-03-31 00:59:59.999', '2024-03-30', 'soon', '', 1234567.5, 2.5),"
    " (4, '2024-03-31T00:00:00+00:00', '2024-03-31T00:00:00+00:00', '2024-03-31T00:00:00Z',"
    "     '2024-03-31T00:00:00+00:00', '2024-03-31 00:00:00', '2024-03-31', '2024-03-31', 'abc', 5, 4),"
    " (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);";
const std::string kFormsSqlite =
    std::string(
        "CREATE TABLE f (id INTEGER PRIMARY KEY, m DATETIME, o DATETIME, z DATETIME, p DATETIME, n DATETIME,"
        " d DATE, q DATETIME, c TEXT, x NUMERIC, r REAL);") +
    kFormsRows;
const std::string kFormsPostgres =
    std::string(
        "CREATE TABLE f (id integer PRIMARY KEY, m timestamptz, o timestamptz, z "
        "timestamptz, p timestamptz, n timestamp, d date, q text, c text, x numeric, r text);") +
    kFormsRows;

// A raw CSV import (`sqlite3 .import` into typed tables; outside tester s21a): a BOOLEAN column of 'true' / 'false'
// texts, a NUMERIC column of numbers beside '' (SQLite stored 10.10 as the real 10.1), an INTEGER column holding a
// fraction, a DATE column of texts that are no dates, a DATETIME column of epoch seconds beside ISO texts.
// PostgreSQL holds what SQLite stored, as the types the SQLite gateway serves: text, and double precision for n.
const std::string kImportSqlite =
    "CREATE TABLE g (id INTEGER PRIMARY KEY, ok BOOLEAN, price NUMERIC, n INTEGER, d DATE, at DATETIME);"
    "INSERT INTO g VALUES (1, 'true', '99999999.99', 1, '2024-01-31', 1700000000),"
    " (2, 'false', '10.10', '3.5', '', '2024-01-02T00:00:00Z'), (3, 'true', '', 7, 'NA', NULL),"
    " (4, NULL, '0.01', NULL, NULL, '2023-12-31T00:00:00Z'), (5, 'false', '5', 2, '2024-02-29', '1699999999');";
const std::string kImportPostgres =
    "CREATE TABLE g (id integer PRIMARY KEY, ok text, price text, n double precision, d text, at text);"
    "INSERT INTO g VALUES (1, 'true', '99999999.99', 1, '2024-01-31', '1700000000'),"
    " (2, 'false', '10.1', 3.5, '', '2024-01-02T00:00:00Z'), (3, 'true', '', 7, 'NA', NULL),"
    " (4, NULL, '0.01', NULL, NULL, '2023-12-31T00:00:00Z'), (5, 'false', '5', 2, '2024-02-29', '1699999999');";

std::string quoted(const char* s) {
  return s ? "'" + std::string(s) + "'" : "NULL";
}

class TimeParityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QG_PG_TEST_SERVER(server);
    server_ = server;
    dir_ = make_temp_dir("qg-time");
    db_ = "time_parity_" + std::to_string(getpid());
    std::string lite_rows, pg_rows;
    // a and b are instants (SQLite: ISO text with +00:00; PostgreSQL: timestamptz); w is a wall-clock time
    // (SQLite: ISO text without offset; PostgreSQL: timestamp without time zone), a's text.
    for (const auto& r : kRows) {
      const std::string n = std::to_string(r.n);
      auto with = [](const char* s, const char* suffix) {
        return s ? "'" + std::string(s) + suffix + "'" : std::string("NULL");
      };
      lite_rows += "INSERT INTO t VALUES (" + std::to_string(r.id) + ", " + with(r.a, "+00:00") + ", " +
                   with(r.b, "+00:00") + ", " + quoted(r.d) + ", " + n + ", " + quoted(r.a) + ");\n";
      pg_rows += "INSERT INTO t VALUES (" + std::to_string(r.id) + ", " + with(r.a, "+00") + ", " + with(r.b, "+00") +
                 ", " + quoted(r.d) + ", " + n + ", " + quoted(r.a) + ");\n";
    }
    sqlite3* lite = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "t.db").c_str(), &lite), SQLITE_OK);
    const std::string lite_sql =
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TIMESTAMP, b TIMESTAMP, d DATE, n REAL, w TIMESTAMP);\nBEGIN;\n" +
        lite_rows + "COMMIT;" + kFormsSqlite + kImportSqlite;
    ASSERT_EQ(sqlite3_exec(lite, lite_sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(lite);
    sqlite3_close(lite);
    {
      pqxx::connection admin(pg_dsn(server_, "postgres", "postgres"));
      pqxx::nontransaction tx(admin);
      tx.exec("DROP DATABASE IF EXISTS " + db_);
      tx.exec("CREATE DATABASE " + db_ + " OWNER qg_owner");
      tx.exec("GRANT CONNECT ON DATABASE " + db_ + " TO qg_reader");
    }
    {
      pqxx::connection owner(pg_dsn(server_, "qg_owner", db_));
      pqxx::work tx(owner);
      tx.exec(
          "SET TimeZone = 'UTC'; CREATE TABLE t (id integer PRIMARY KEY, a timestamptz, b timestamptz, d date, n "
          "double precision, w timestamp);\n" +
          pg_rows + kFormsPostgres + kImportPostgres +
          "GRANT USAGE ON SCHEMA public TO qg_reader; GRANT SELECT ON t, f, g TO qg_reader;");
      tx.commit();
    }
    std::filesystem::create_directories(dir_ / "lite");
    std::filesystem::create_directories(dir_ / "pg");
    std::filesystem::copy_file(dir_ / "t.db", dir_ / "lite" / "t.db");
    write_file(dir_ / "lite" / "querygate.yaml",
               "limits: { float_digits: 0 }\ndatabases:\n  t:\n    backend: sqlite\n    path: t.db\n"
               "    tables: { t: {}, f: {}, g: {} }\n");
    write_file(dir_ / "pg" / "querygate.yaml",
               "limits: { float_digits: 0 }\ndatabases:\n  t:\n    backend: postgres\n    dsn: \"" +
                   pg_dsn(server_, "qg_reader", db_) + "\"\n    tables: { t: {}, f: {}, g: {} }\n");
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

  static HttpResult ask(GatewayProcess& gateway, const std::string& sql) {
    return http(gateway.port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}));
  }

  // The answer's rows as text: strings as they are, numbers as %.15g (PostgreSQL's numeric 1.250000 and
  // SQLite's double 1.25 are the same number).
  static Cells answer(GatewayProcess& gateway, const std::string& sql, json::object* applied = nullptr) {
    auto r = ask(gateway, sql);
    EXPECT_EQ(r.status, 200) << sql << "\n" << r.body;
    if (r.status != 200) return {};
    auto body = json::parse(r.body).as_object();
    if (applied && body.contains("applied")) *applied = body.at("applied").as_object();
    Cells out;
    for (const auto& row : body.at("rows").as_array()) {
      out.emplace_back();
      for (const auto& v : row.as_array()) {
        if (v.is_null()) {
          out.back().push_back(std::nullopt);
        } else if (v.is_string()) {
          out.back().emplace_back(std::string(v.as_string()));
        } else if (v.is_number()) {
          char buf[40];
          std::snprintf(buf, sizeof buf, "%.15g", v.to_number<double>());
          out.back().emplace_back(buf);
        } else {
          out.back().emplace_back(json::serialize(v));
        }
      }
    }
    return out;
  }

  static std::string show(const Cells& cells) {
    std::string out;
    for (const auto& row : cells) {
      for (const auto& c : row) out += (c ? *c : "NULL") + " | ";
      out += "\n";
    }
    return out;
  }

  // The same answer through both gateways (PostgreSQL's own, and SQLite's translation).
  void expect_same(const std::string& sql, std::string_view rewrite = {}) {
    json::object applied;
    const Cells pg = answer(*postgres_, sql);
    const Cells lite = answer(*sqlite_, sql, &applied);
    EXPECT_FALSE(pg.empty()) << sql;
    EXPECT_EQ(lite, pg) << sql << "\nPostgreSQL:\n" << show(pg) << "SQLite:\n" << show(lite);
    if (!rewrite.empty()) {
      bool found = false;
      if (applied.contains("rewrites"))
        for (const auto& r : applied.at("rewrites").as_array()) found = found || r.as_string() == rewrite;
      EXPECT_TRUE(found) << sql << ": no " << rewrite << " in " << json::serialize(applied);
    }
  }

  void expect_refused(GatewayProcess& gateway, const std::string& sql, const std::string& fix_part) {
    auto r = ask(gateway, sql);
    EXPECT_EQ(r.status, 422) << sql << "\n" << r.body;
    EXPECT_NE(r.body.find("FIX"), std::string::npos) << sql << "\n" << r.body;
    EXPECT_NE(r.body.find(fix_part), std::string::npos) << sql << "\nwanted: " << fix_part << "\n" << r.body;
  }

  PgTestServer server_;
  std::filesystem::path dir_;
  std::string db_;
  std::unique_ptr<GatewayProcess> sqlite_, postgres_;
};

TEST_F(TimeParityTest, TimestampDifferencesAreIntervalsInPostgresForm) {
  expect_same("SELECT id, b - a, a - b FROM t ORDER BY id", "dialect:timestamp-minus-timestamp");
  expect_same("SELECT id, d - CAST('2026-01-01' AS date), CAST(a AS date) - d FROM t ORDER BY id",
              "dialect:date-minus-date");
  expect_same("SELECT id, date_part('epoch', b - a), EXTRACT(EPOCH FROM a - b) FROM t ORDER BY id");
  expect_same("SELECT id FROM t WHERE b - a > INTERVAL '1 hour' ORDER BY id", "dialect:time-compare");
  expect_same("SELECT id, b - a AS took FROM t ORDER BY took DESC NULLS LAST, id", "dialect:time-order");
  expect_same("SELECT id, b - a FROM t ORDER BY 2, 1");
  expect_same("SELECT id, d - a FROM t ORDER BY id");
}

TEST_F(TimeParityTest, IntervalsAddToTimestampsByPostgresCalendarRules) {
  // Month ends (Jan 31 + 1 month is Feb 28), the leap day, negative intervals, days then time.
  for (const char* iv : {"1 month", "-1 month", "1 year", "1 mon 1 day", "-1 day 02:00:00", "36 hours", "1 week",
                         "2 years 3 mons -4 days 05:06:07.5", "90 minutes", "1.5 days", "0.25 seconds"}) {
    expect_same("SELECT id, a + INTERVAL '" + std::string(iv) + "', a - INTERVAL '" + iv + "', d + INTERVAL '" + iv +
                    "' FROM t ORDER BY id",
                "dialect:timestamp-plus-interval");
  }
  expect_same("SELECT id, CAST('1 day' AS interval) + a, d + 7, d - 1, 3 + d FROM t ORDER BY id");
  expect_same("SELECT id, a + (b - a) FROM t ORDER BY id");
}

TEST_F(TimeParityTest, AgeIsPostgresSymbolicDifference) {
  expect_same("SELECT id, age(b, a), age(a, b), age(d, CAST('2023-03-31' AS date)), age(a, d) FROM t ORDER BY id",
              "dialect:age");
  expect_same(
      "SELECT age(TIMESTAMPTZ '2026-03-01T00:00:00Z', TIMESTAMPTZ '2026-01-31T12:00:00Z'), age(TIMESTAMPTZ "
      "'2026-01-31T12:00:00Z', TIMESTAMPTZ '2026-03-01T00:00:00Z'), age(DATE '2024-02-29', DATE '2023-02-28')");
}

TEST_F(TimeParityTest, IntervalArithmeticFollowsPostgres) {
  expect_same(
      "SELECT id, (b - a) * 2, (b - a) / 3, -(b - a), (b - a) + INTERVAL '1 mon', (b - a) - INTERVAL '2 "
      "days', (b - a) * n FROM t ORDER BY id",
      "dialect:interval-arithmetic");
  expect_same(
      "SELECT INTERVAL '1 mon' * 1.5, INTERVAL '1 year 1 mon' / 7, INTERVAL '-1 day 2 hours', INTERVAL '25 "
      "hours', INTERVAL '1 year 2 months 3 days 4 hours 5 minutes 6.789 seconds', INTERVAL '3 weeks ago', "
      "INTERVAL '00:00:00'");
}

TEST_F(TimeParityTest, ExtractAndDatePartGiveEveryFieldAsPostgres) {
  for (const char* f :
       {"year", "quarter", "month", "week", "day", "dow", "isodow", "doy", "hour", "minute", "second", "milliseconds",
        "microseconds", "epoch", "isoyear", "decade", "century", "millennium", "julian"}) {
    const std::string field = f;
    expect_same("SELECT id, EXTRACT(" + field + " FROM a), date_part('" + field + "', b) FROM t ORDER BY id",
                "dialect:extract");
  }
  for (const char* f : {"year", "quarter", "month", "week", "day", "dow", "isodow", "doy", "epoch"})
    expect_same("SELECT id, EXTRACT(" + std::string(f) + " FROM d) FROM t ORDER BY id");
  for (const char* f : {"epoch", "day", "hour", "minute", "second", "milliseconds", "month", "year"})
    expect_same("SELECT id, EXTRACT(" + std::string(f) + " FROM b - a), date_part('" + f +
                "', INTERVAL '1 year 14 months -3 days 04:05:06.25') FROM t ORDER BY id");
  // PostgreSQL's error for a field the type has not: refused before it runs, on SQLite too.
  expect_refused(*sqlite_, "SELECT EXTRACT(hour FROM d) FROM t", "FIX");
}

TEST_F(TimeParityTest, CastsReadIsoTextAsPostgres) {
  expect_same(
      "SELECT CAST('2026-03-08 10:00:00+02' AS timestamptz), CAST('2026-03-08T10:00:00Z' AS timestamp), "
      "CAST('2026-03-08 10:00:00.5+02' AS date), CAST('2026-03-08 10:00:00.5' AS time), "
      "CAST('2024-02-29' AS timestamptz), '2026-01-01'::date, '14:30'::time",
      "dialect:time-cast");
  expect_same(
      "SELECT id, CAST(a AS date), CAST(a AS timestamp), CAST(a AS time), CAST(d AS timestamptz), "
      "CAST(b AS timestamptz), CAST(d AS timestamp) FROM t ORDER BY id");
  expect_same("SELECT id, CAST(b - a AS text), CAST(date_trunc('day', a) AS text) || '!' FROM t ORDER BY id");
  expect_refused(*sqlite_, "SELECT CAST('12/08/2026' AS date)", "ISO-8601");
}

TEST_F(TimeParityTest, DateTruncTruncatesLikePostgresWeeksOnMonday) {
  for (const char* f : {"microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter",
                        "year", "decade", "century", "millennium"}) {
    const std::string field = f;
    expect_same("SELECT id, date_trunc('" + field + "', a), date_trunc('" + field + "', d) FROM t ORDER BY id",
                "dialect:date_trunc");
  }
  expect_same("SELECT date_trunc('month', a) AS m, count(*) FROM t GROUP BY 1 ORDER BY 1");
  expect_same(
      "SELECT date_trunc('day', b) AS day, count(*) FROM t WHERE date_trunc('day', b) >= '2026-01-01' GROUP "
      "BY day ORDER BY day");
  expect_same("SELECT min(date_trunc('hour', b)), max(date_trunc('week', a)), max(CAST(b AS date)) FROM t",
              "dialect:time-min-max");
  expect_same("SELECT id FROM t WHERE date_trunc('day', a) = '2026-03-08' ORDER BY id");
  expect_same("SELECT id FROM t WHERE date_trunc('month', a) BETWEEN '2026-01-01' AND d ORDER BY id");
  expect_same("SELECT id FROM t WHERE date_trunc('day', a) IS DISTINCT FROM CAST(d AS timestamptz) ORDER BY id");
  expect_same("SELECT id FROM t WHERE date_trunc('day', a) IN (SELECT date_trunc('day', b) FROM t) ORDER BY id");
  expect_same("SELECT id FROM t WHERE date_trunc('day', a) IN ('2026-03-08', '2024-02-29') ORDER BY id");
  // a stores its times in two forms ('...:00+00:00', '...:59.999+00:00'): each value is read as a time.
  expect_same("SELECT id FROM t WHERE a IN (SELECT date_trunc('day', a) + interval '23:59:59.999' FROM t) ORDER BY id",
              "dialect:mixed-time-forms");
  expect_same(
      "SELECT id FROM t AS u WHERE EXISTS (SELECT 1 FROM t WHERE date_trunc('day', t.b) = "
      "date_trunc('day', u.a)) ORDER BY id");
}

TEST_F(TimeParityTest, ToCharPrintsTheCommonPatternsAndRefusesTheRest) {
  for (const char* f : {"YYYY-MM-DD HH24:MI:SS.MS", "YYYY-MM-DD\"T\"HH24:MI:SS.US", "Mon DD, YYYY", "FMMonth FMDD",
                        "Month|Day|Dy|MON|DAY|month|day|mon|dy", "Q WW IW IYYY DDD D ID J", "HH12:MI AM a.m. pm",
                        "yyyy/mm/dd hh24", "YY-Y-YYY", "W"}) {
    expect_same("SELECT id, to_char(a, '" + std::string(f) + "'), to_char(d, '" + f + "') FROM t ORDER BY id",
                "dialect:to_char");
  }
  expect_refused(*sqlite_, "SELECT to_char(a, 'CC') FROM t", "YYYY");
  expect_refused(*sqlite_, "SELECT to_char(a, 'DDTH') FROM t", "double quotes");
  expect_refused(*sqlite_, "SELECT to_char(n, '999.99') FROM t", "printf");
}

TEST_F(TimeParityTest, NowIsOneUtcInstantPerStatement) {
  json::object applied;
  for (auto* gateway : {sqlite_.get(), postgres_.get()}) {
    const Cells one = answer(*gateway,
                             "SELECT count(DISTINCT now()), count(DISTINCT CURRENT_TIMESTAMP), "
                             "count(DISTINCT now() - now()) FROM t",
                             &applied);
    EXPECT_EQ(one, (Cells{{"1", "1", "1"}})) << show(one);
    const Cells zero = answer(*gateway, "SELECT DISTINCT now() - now(), now() - CURRENT_TIMESTAMP FROM t");
    EXPECT_EQ(zero, (Cells{{"00:00:00", "00:00:00"}})) << show(zero);
    const Cells recent = answer(*gateway,
                                "SELECT count(*) FROM t WHERE now() > TIMESTAMPTZ '2026-01-01T00:00:00Z' "
                                "AND now() < CURRENT_TIMESTAMP + INTERVAL '1 minute' AND CURRENT_DATE = "
                                "CAST(now() AS date)");
    EXPECT_EQ(recent, (Cells{{"7"}})) << show(recent);
  }
  expect_same("SELECT count(*) FROM t WHERE a > now() - INTERVAL '100 years'");
}

TEST_F(TimeParityTest, AtTimeZoneIsDaylightSavingCorrect) {
  for (const char* zone : {"UTC", "+02", "-05:30", "America/Los_Angeles", "Europe/Berlin", "Asia/Kolkata"}) {
    const std::string z = zone;
    expect_same("SELECT id, a AT TIME ZONE '" + z + "', timezone('" + z + "', b), d AT TIME ZONE '" + z +
                    "', CAST(a AS timestamp) AT TIME ZONE '" + z + "' FROM t ORDER BY id",
                "dialect:at-time-zone");
  }
  // The gap (02:30 does not exist on 2026-03-08 in Los Angeles) and the overlap (01:30 happens twice on
  // 2026-11-01): PostgreSQL's readings.
  expect_same(
      "SELECT TIMESTAMP '2026-03-08 02:30:00' AT TIME ZONE 'America/Los_Angeles', TIMESTAMP '2026-11-01 "
      "01:30:00' AT TIME ZONE 'America/Los_Angeles', TIMESTAMP '2026-10-25 02:30:00' AT TIME ZONE "
      "'Europe/Berlin'");
  expect_same(
      "SELECT id, EXTRACT(hour FROM a AT TIME ZONE 'America/Los_Angeles'), date_trunc('day', b AT TIME ZONE "
      "'Europe/Berlin') FROM t ORDER BY id");
  // An abbreviation is a fixed offset in PostgreSQL: the FIX names it so, and following it is PostgreSQL's answer.
  expect_refused(*sqlite_, "SELECT a AT TIME ZONE 'PST' FROM t", "AT TIME ZONE '+08'");
  {
    const Cells pst = answer(*postgres_, "SELECT id, a AT TIME ZONE 'PST' FROM t ORDER BY id");
    const Cells fixed = answer(*sqlite_, "SELECT id, a AT TIME ZONE '+08' FROM t ORDER BY id");
    EXPECT_EQ(fixed, pst) << show(pst) << show(fixed);
  }
}

TEST_F(TimeParityTest, StoredTimesAnswerInTheOneJsonForm) {
  // SQLite stores '2026-02-01 11:30:00.25+00:00'; both answer 2026-02-01T11:30:00.25Z (dates as stored: YYYY-MM-DD).
  expect_same("SELECT id, a, b, d, n FROM t ORDER BY id");
  expect_same("SELECT id, a FROM t ORDER BY a NULLS FIRST, id");
  expect_same("SELECT min(a), max(b), min(d) FROM t");
  // a and b store two forms each ('...:00+00:00', '...:59.999+00:00'): a UNION's column is a computed time, which a
  // compound SELECT's ORDER BY would sort as text: refused, and its FIX (sort outside) runs.
  expect_refused(*sqlite_, "SELECT a FROM t UNION SELECT b FROM t ORDER BY 1", "SELECT * FROM (...) AS u ORDER BY u.a");
  expect_same("SELECT * FROM (SELECT a FROM t UNION SELECT b FROM t) AS u ORDER BY u.a");
  expect_same("SELECT x.a FROM (SELECT a FROM t WHERE a IS NOT NULL) AS x ORDER BY x.a DESC");
}

TEST_F(TimeParityTest, StoredTextWithoutOffsetIsATimestampWithoutTimeZone) {
  // A wall-clock text is answered as stored (2026-01-31 10:00:00); CAST(w AS timestamp) prints PostgreSQL's form.
  expect_same(
      "SELECT id, CAST(w AS timestamp), w + INTERVAL '1 mon', w - CAST(a AS timestamp), date_trunc('day', w), "
      "EXTRACT(epoch FROM "
      "w), to_char(w, 'YYYY-MM-DD HH24:MI:SS.US') FROM t ORDER BY id");
  expect_same(
      "SELECT id, w AT TIME ZONE 'America/Los_Angeles', w AT TIME ZONE 'Europe/Berlin', CAST(w AS "
      "timestamptz) FROM t ORDER BY id");
  expect_same("SELECT id FROM t WHERE w + INTERVAL '1 hour' > a ORDER BY id");
  // A naive literal is that clock time: 'T' against ' ' compared as texts (outside tester s18b); w stores its times
  // in more than one form ('10:00:00', '23:59:59.999'), so each value is read as a time.
  expect_same("SELECT id FROM t WHERE w < '2026-03-08T10:00:00' ORDER BY id", "dialect:mixed-time-forms");
  expect_same("SELECT id FROM t WHERE w = '2026-01-31T10:00:00' OR w >= '2026-10-25' ORDER BY id",
              "dialect:mixed-time-forms");
  expect_same("SELECT id, w, a FROM t ORDER BY w DESC, a");
  expect_same("SELECT min(w), max(a), count(DISTINCT a) FROM t");
}

TEST_F(TimeParityTest, UntranslatedFormsAreRefusedWithFixesThatRun) {
  // sum / avg of intervals are translated since session 7 (dialect:interval-aggregate), max / min since session 18
  // (under the pg_interval collation: '1 day' = '24:00:00', a month is 30 days).
  expect_same("SELECT sum(b - a), avg(b - a) FROM t", "dialect:interval-aggregate");
  expect_same("SELECT sum(date_part('epoch', b - a)) FROM t");
  expect_same("SELECT max(b - a), min(b - a), count(DISTINCT b - a) FROM t", "dialect:interval-collation");
  expect_same("SELECT max(date_part('epoch', b - a)) FROM t");
  expect_refused(*sqlite_, "SELECT a - '2026-01-01' FROM t", "TIMESTAMPTZ");
  expect_same("SELECT id, a - TIMESTAMPTZ '2026-01-01T00:00:00Z' FROM t ORDER BY id");
}

TEST_F(TimeParityTest, UsersTimeFormsCompareOrderAndGroupAsTimes) {
  // A column of mixed forms or local offsets: each value read as a time (its texts sort as times only within one form).
  for (const char* c : {"m", "o"}) {
    const std::string x = c;
    expect_same("SELECT id FROM f WHERE " + x + " = '2024-03-31T01:00:00Z' ORDER BY id", "dialect:mixed-time-forms");
    expect_same("SELECT id FROM f WHERE " + x + " >= '2024-03-31T01:00:00.2Z' OR " + x +
                " < '2024-03-31T00:30:00+00' ORDER BY id");
    expect_same("SELECT id, " + x + " FROM f ORDER BY " + x + " DESC NULLS LAST, id");
    expect_same("SELECT min(" + x + "), max(" + x + "), count(DISTINCT " + x + ") FROM f");
    expect_same("SELECT date_trunc('hour', " + x + ") AS h, count(*) FROM f GROUP BY 1 ORDER BY 1");
    expect_same("SELECT " + x + " - lag(" + x + ") OVER (ORDER BY " + x + ", id) FROM f ORDER BY " + x + ", id");
  }
  // Two columns of different forms (or kinds) compared, merged or deduplicated: as times.
  expect_same("SELECT id FROM f WHERE z = p ORDER BY id", "dialect:time-compare");
  expect_same("SELECT id FROM f WHERE m = z OR n = CAST(p AS timestamp) ORDER BY id");
  expect_same("SELECT id FROM f WHERE d = n ORDER BY id");
  expect_same("SELECT id FROM f WHERE d < n AND n BETWEEN d AND z ORDER BY id");
  expect_same("SELECT id FROM f WHERE o IS DISTINCT FROM p ORDER BY id");
  expect_same("SELECT count(*) FROM (SELECT z FROM f UNION SELECT p FROM f UNION SELECT m FROM f) AS u");
  expect_same("SELECT id, coalesce(z, p), CASE WHEN id > 2 THEN p ELSE z END FROM f ORDER BY id");
  // USING compares what the engine holds: refused where the two sides' forms differ.
  expect_refused(*sqlite_,
                 "SELECT count(*) FROM (SELECT id, z AS x FROM f) AS a JOIN (SELECT id, p AS x FROM f) AS b USING (x)",
                 "ON a.x = b.x");
  expect_same("SELECT count(*) FROM (SELECT id, z AS x FROM f) AS a JOIN (SELECT id, p AS x FROM f) AS b ON a.x = b.x");
  // A column of dates cast to date, grouped and sorted by position (refused as not grouped; outside tester s19g).
  expect_same("SELECT d::date, count(*) FROM f GROUP BY 1 ORDER BY 1");
  expect_same("SELECT d::date AS x, count(*) FROM f GROUP BY d::date ORDER BY 1");
  // A column holding texts that are no time is text (was typed timestamptz: upper(q) refused, its FIXes a loop).
  expect_same("SELECT id, upper(q), q FROM f ORDER BY q, id");
  expect_same("SELECT id FROM f WHERE q > '2024' ORDER BY id");
  // Text ordered against a number or summed: PostgreSQL's error (SQLite compares the texts, sums '' as 0; s20a).
  expect_refused(*sqlite_, "SELECT count(*) FROM f WHERE q > 5", "CAST(q AS numeric) > 5");
  expect_refused(*sqlite_, "SELECT sum(q) FROM f", "sum(CAST(q AS numeric))");
  // So is an uncurated TEXT column (SQLite: '007' < 100 is false, avg('12', '', 'abc') 4).
  expect_refused(*sqlite_, "SELECT count(*) FROM f WHERE c < 100", "CAST(c AS numeric) < 100");
  expect_refused(*sqlite_, "SELECT avg(c) FROM f", "avg(CAST(c AS numeric))");
  expect_same("SELECT id FROM f WHERE c = '12' OR c > '5' ORDER BY id");
  // A NUMERIC column's text is the decimal PostgreSQL prints (SQLite's CAST printed 1.0e-06; outside tester s20c).
  expect_same("SELECT id, x::text, length(x::text) FROM f ORDER BY id");
  // A number column holding '' is its texts: counted as PostgreSQL counts them, summed only once cast (s20a).
  expect_same("SELECT count(r), count(*) FILTER (WHERE r = '') FROM f");
  expect_refused(*sqlite_, "SELECT avg(r) FROM f", "avg(CAST(r AS numeric))");
  expect_refused(*sqlite_, "SELECT count(*) FROM f WHERE r > 2", "CAST(r AS numeric) > 2");
}

// What a CSV import stored, served as what it holds (outside tester s21a): texts beside numbers are compared, ordered
// and min / maxed as texts (SQLite ordered every number before every text, and read '5' as a number against them);
// a BOOLEAN of texts is text (each 'true' read as false); an INTEGER holding 3.5 is double precision.
TEST_F(TimeParityTest, ImportedColumnsAreServedAsWhatTheyHold) {
  expect_same("SELECT max(price), min(price), max(at), min(at), max(d), min(d) FROM g", "dialect:mixed-storage");
  expect_same("SELECT id FROM g WHERE price > '5' ORDER BY id");
  expect_same("SELECT id, price FROM g ORDER BY price, id");
  expect_same("SELECT price, count(*) FROM g GROUP BY price ORDER BY price DESC NULLS LAST");
  expect_same("SELECT id, at, d FROM g WHERE at < '2' OR d = '' ORDER BY at, id");
  expect_same("SELECT id, n, n / 2 AS half FROM g ORDER BY id");
  expect_same("SELECT sum(n), avg(n) FROM g");
  expect_same("SELECT ok, count(*) FROM g GROUP BY ok ORDER BY ok");
  expect_same("SELECT count(*) FILTER (WHERE ok = 'true'), count(*) FILTER (WHERE ok = 'false') FROM g");
  expect_same("SELECT id, CAST(price AS text), upper(d) FROM g ORDER BY id");
  expect_refused(*sqlite_, "SELECT id FROM g WHERE ok", "FIX");
  expect_refused(*sqlite_, "SELECT sum(price) FROM g", "sum(CAST(price AS numeric))");
  expect_same("SELECT sum(CAST(NULLIF(price, '') AS numeric)) FROM g");  // the sum FIX's form, '' left out
  // A DATE column of texts compared with a number-like text: texts (its affinity read '2024' as a number; s21d).
  expect_same("SELECT count(*) FROM g WHERE d >= '2024'");
  expect_same("SELECT count(*) FROM g WHERE d BETWEEN '2023' AND '2024' OR ok >= '1'");
  // A date column as text is a text (the cast was dropped and '... 00:00:00' read as the date; s21d).
  expect_same("SELECT count(*) FROM t WHERE d::text >= '2026-03-08 00:00:00'");
  expect_same("SELECT CAST(d AS text) FROM t WHERE id = 1 UNION SELECT '2026-01-31 00:00' ORDER BY 1");
  auto r = ask(*sqlite_, "SELECT id, ok, price, n, d, at FROM g ORDER BY id");
  ASSERT_EQ(r.status, 200) << r.body;
  const auto columns = json::parse(r.body).at("columns").as_array();
  const char* kTypes[] = {"integer", "text", "text", "double precision", "text", "text"};
  for (std::size_t i = 0; i < columns.size() && i < 6; ++i)
    EXPECT_EQ(columns[i].at("type").as_string(), kTypes[i]) << r.body;
}

}  // namespace
}  // namespace qg::testing
