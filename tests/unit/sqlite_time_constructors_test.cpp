// PostgreSQL's time constructors as querygate registers them on SQLite
// (executors/sqlite/sqlite_time_constructors.cpp, common/pg_time_input.cpp):
// pg_to_timestamp, pg_to_time (to_date / to_timestamp with a template),
// pg_make_date, pg_iv_sum / pg_iv_avg. The expected texts are PostgreSQL 15's
// answers (TimeZone UTC), recorded with psql on the test cluster; errors are
// where PostgreSQL errs. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "common/pg_time_input.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

struct Outcome {
  bool ok = false;
  bool null = false;
  std::string text;
  std::string error;
};

class SqliteTimeConstructorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
  }
  Outcome eval(const std::string& sql) {
    Outcome out;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      out.ok = true;
      out.null = sqlite3_column_type(stmt, 0) == SQLITE_NULL;
      if (!out.null) out.text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    } else {
      out.error = sqlite3_errmsg(db_.get());
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::string value(const std::string& expr) {
    const Outcome o = eval("SELECT " + expr);
    EXPECT_TRUE(o.ok) << expr << ": " << o.error;
    return o.null ? "NULL" : o.text;
  }
  std::string error(const std::string& expr) {
    const Outcome o = eval("SELECT " + expr);
    EXPECT_FALSE(o.ok) << expr << " answered " << o.text;
    return o.error;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

TEST_F(SqliteTimeConstructorsTest, EpochSecondsRoundAsPostgres) {
  EXPECT_EQ(value("pg_to_timestamp(0)"), "1970-01-01T00:00:00Z");
  EXPECT_EQ(value("pg_to_timestamp(1.5)"), "1970-01-01T00:00:01.5Z");
  EXPECT_EQ(value("pg_to_timestamp(-1.25)"), "1969-12-31T23:59:58.75Z");
  EXPECT_EQ(value("pg_to_timestamp(1700000000.123456)"), "2023-11-14T22:13:20.123456Z");
  EXPECT_EQ(value("pg_to_timestamp(-31536000)"), "1969-01-01T00:00:00Z");
  // PostgreSQL moves to its 2000 epoch before rounding: 0.0000005 s is 0, 0.0000015 s is 2 us.
  EXPECT_EQ(value("pg_to_timestamp(0.0000005)"), "1970-01-01T00:00:00Z");
  EXPECT_EQ(value("pg_to_timestamp(0.0000015)"), "1970-01-01T00:00:00.000002Z");
  EXPECT_EQ(value("pg_to_timestamp(NULL)"), "NULL");
  EXPECT_NE(error("pg_to_timestamp(1e20)").find("out of range"), std::string::npos);
  EXPECT_NE(error("pg_to_timestamp('1700000000')").find("does not exist"), std::string::npos);
}

TEST_F(SqliteTimeConstructorsTest, DatesFromTemplatesReadAsPostgres) {
  auto date = [&](const std::string& in, const std::string& fmt) {
    return value("pg_to_time('" + in + "', '" + fmt + "', 'date')");
  };
  EXPECT_EQ(date("2023-01-05", "YYYY-MM-DD"), "2023-01-05");
  EXPECT_EQ(date("2024-02-29", "YYYY-MM-DD"), "2024-02-29");
  EXPECT_EQ(date("2023-1-5", "YYYY-MM-DD"), "2023-01-05");
  EXPECT_EQ(date("2023/01/05", "YYYY-MM-DD"), "2023-01-05");
  EXPECT_EQ(date("20230105", "YYYYMMDD"), "2023-01-05");
  EXPECT_EQ(date("  2023-01-05 junk", "YYYY-MM-DD"), "2023-01-05");  // trailing text is not read
  EXPECT_EQ(date("2023-01-5x", "YYYY-MM-DD"), "2023-01-05");
  EXPECT_EQ(date("2023", "YYYY-MM-DD"), "2023-01-01");  // fields past the text keep their defaults
  EXPECT_EQ(date("99-01-02", "YY-MM-DD"), "1999-01-02");
  EXPECT_EQ(date("23-12-31", "YY-MM-DD"), "2023-12-31");
  EXPECT_EQ(date("23", "YYYY"), "0023-01-01");  // YYYY is not widened
  EXPECT_EQ(date("5 January 2024", "DD Month YYYY"), "2024-01-05");
  EXPECT_EQ(date("05 jan 2024", "DD Mon YYYY"), "2024-01-05");
  EXPECT_EQ(date("2024 DECEMBER 01", "YYYY MONTH DD"), "2024-12-01");
  EXPECT_EQ(date("2023-00-10", "YYYY-MM-DD"), "2023-01-10");  // a zero month is unset
  EXPECT_EQ(date("2023-01-00", "YYYY-MM-DD"), "2023-01-01");
  EXPECT_EQ(date("2023-01-02", "YYYYMMDD"), "2023-01-01");    // "-0" is month 0, "1" the day
  EXPECT_EQ(date("2023-+1-02", "YYYY-MM-DD"), "2023-01-02");  // strtol's sign
  EXPECT_EQ(date("2023.01.02", "YYYY MM DD"), "2023-01-02");
  EXPECT_EQ(date("2023  01 02", "YYYY-MM-DD"), "2023-01-02");
  EXPECT_EQ(date("2023x01x05", "YYYY\"x\"MM\"x\"DD"), "2023-01-05");
  EXPECT_EQ(date("2023-01-05", "FMYYYY-FMMM-FMDD"), "2023-01-05");
  EXPECT_EQ(date("Feb 29 2024", "Mon DD YYYY"), "2024-02-29");
  EXPECT_EQ(value("pg_to_time(NULL, 'YYYY', 'date')"), "NULL");
  // PostgreSQL's errors.
  for (const auto& [in, fmt] : std::initializer_list<std::pair<std::string, std::string>>{
           {"2023-02-30", "YYYY-MM-DD"},
           {"2023-13-01", "YYYY-MM-DD"},
           {"Feb 29 2023", "Mon DD YYYY"},
           {"Sept 05 2024", "Mon DD YYYY"},  // "Sep" matches, then "t" is not a day
           {"x2023-01-02", "YYYY-MM-DD"},
           {"2023--01-05", "YYYY-MM-DD"},  // month -1
           {"2023-01-02 25", "YYYY-MM-DD HH24"},
           {"0000-01-05", "YYYY-MM-DD"},  // 1 BC in PostgreSQL: not translated, an error here
       })
    error("pg_to_time('" + in + "', '" + fmt + "', 'date')");
}

TEST_F(SqliteTimeConstructorsTest, TimestampsFromTemplatesReadAsPostgres) {
  auto ts = [&](const std::string& in, const std::string& fmt) {
    return value("pg_to_time('" + in + "', '" + fmt + "', 'timestamptz')");
  };
  EXPECT_EQ(ts("2023-01-05 13:04:05", "YYYY-MM-DD HH24:MI:SS"), "2023-01-05T13:04:05Z");
  EXPECT_EQ(ts("20230105123045", "YYYYMMDDHH24MISS"), "2023-01-05T12:30:45Z");
  EXPECT_EQ(ts("2023-01-05 01:04 PM", "YYYY-MM-DD HH12:MI AM"), "2023-01-05T13:04:00Z");
  EXPECT_EQ(ts("2023-01-05 12:30 am", "YYYY-MM-DD HH:MI PM"), "2023-01-05T00:30:00Z");
  EXPECT_EQ(ts("2023-01-05 10:00:00.5", "YYYY-MM-DD HH24:MI:SS.MS"), "2023-01-05T10:00:00.5Z");
  EXPECT_EQ(ts("2023-01-05 1:2:3.12345", "YYYY-MM-DD HH24:MI:SS.US"), "2023-01-05T01:02:03.12345Z");
  EXPECT_EQ(ts("2023-01-05 1:2:3.12", "YYYY-MM-DD HH24:MI:SS.MS"), "2023-01-05T01:02:03.12Z");
  EXPECT_NE(error("pg_to_time('2023-01-05 24:00', 'YYYY-MM-DD HH24:MI', 'timestamptz')").find("out of range"),
            std::string::npos);
  EXPECT_NE(error("pg_to_time('2023-01-05 00:30', 'YYYY-MM-DD HH12:MI', 'timestamptz')").find("12-hour clock"),
            std::string::npos);
  error("pg_to_time('2023-01-05 10:00:60', 'YYYY-MM-DD HH24:MI:SS', 'timestamptz')");
  error("pg_to_time('2023-01-05 1:2:3.1234567', 'YYYY-MM-DD HH24:MI:SS.US', 'timestamptz')");
}

TEST_F(SqliteTimeConstructorsTest, TemplatesNotReadExactlyAreNamed) {
  using pgtime::unsupported_input_pattern;
  EXPECT_EQ(unsupported_input_pattern("YYYY-MM-DD HH24:MI:SS.US"), "");
  EXPECT_EQ(unsupported_input_pattern("FMDD Month YYYY \"at\" HH12 a.m."), "");
  EXPECT_EQ(unsupported_input_pattern("YYYY-DDD"), "DDD");
  EXPECT_EQ(unsupported_input_pattern("SSSS"), "SSSS");
  EXPECT_EQ(unsupported_input_pattern("YYY"), "YYY");
  EXPECT_EQ(unsupported_input_pattern("YYYY-MM-DDTHH24"), "THH");
  EXPECT_EQ(unsupported_input_pattern("YYYY TZH"), "TZH");
  EXPECT_EQ(unsupported_input_pattern("YYYY1MM"), "1MM");  // a digit in the template, with what follows
  EXPECT_EQ(unsupported_input_pattern("Dy DD"), "Dy");
  EXPECT_TRUE(pgtime::input_pattern_has_year("DD Mon YY"));
  EXPECT_FALSE(pgtime::input_pattern_has_year("Month"));
}

TEST_F(SqliteTimeConstructorsTest, MakeDateChecksAsPostgres) {
  EXPECT_EQ(value("pg_make_date(2024, 2, 29)"), "2024-02-29");
  EXPECT_EQ(value("pg_make_date(2023, 12, 31)"), "2023-12-31");
  EXPECT_EQ(value("pg_make_date(2024, 1, NULL)"), "NULL");
  EXPECT_NE(error("pg_make_date(2023, 2, 29)").find("date field value out of range: 2023-02-29"), std::string::npos);
  error("pg_make_date(0, 1, 1)");
  error("pg_make_date(2023, 13, 1)");
  error("pg_make_date(2023, 1, 1.5)");
}

TEST_F(SqliteTimeConstructorsTest, IntervalSumAndAverageAsPostgres) {
  const std::string rows = " FROM (SELECT '1 mon' AS x UNION ALL SELECT '1 day 00:00:01' UNION ALL SELECT NULL)";
  EXPECT_EQ(value("pg_iv_sum(x)" + rows), "1 mon 1 day 00:00:01");
  EXPECT_EQ(value("pg_iv_avg(x)" + rows), "15 days 12:00:00.5");  // interval_div: half a month is 15 days
  EXPECT_EQ(value("pg_iv_avg(x) FROM (SELECT '-1 days +02:00:00' AS x UNION ALL SELECT '3 days')"), "1 day 01:00:00");
  EXPECT_EQ(value("pg_iv_sum(x)" + rows + " WHERE 0"), "NULL");
  EXPECT_EQ(value("pg_iv_avg(x) FROM (SELECT NULL AS x)"), "NULL");
  error("pg_iv_sum(x) FROM (SELECT 'soon' AS x)");
}

TEST_F(SqliteTimeConstructorsTest, SeriesAreGenerateSeriesCalendars) {
  auto series = [&](const std::string& args) {
    return value("group_concat(value, ',') FROM (SELECT value FROM pg_series(" + args + ") ORDER BY rowid)");
  };
  // Month steps are added to the previous value: after 02-28 comes 03-28 (PostgreSQL's answer).
  EXPECT_EQ(series("'2026-01-31', '2026-05-31', '1 mon', 'timestamptz'"),
            "2026-01-31T00:00:00Z,2026-02-28T00:00:00Z,2026-03-28T00:00:00Z,2026-04-28T00:00:00Z,2026-05-28T00:00:00Z");
  EXPECT_EQ(series("'2026-03-01T00:00:00', '2026-01-01T00:00:00', '-1 mon', 'timestamp'"),
            "2026-03-01T00:00:00,2026-02-01T00:00:00,2026-01-01T00:00:00");
  EXPECT_EQ(series("'2024-02-28', '2024-03-01', '1 day', 'timestamptz'"),
            "2024-02-28T00:00:00Z,2024-02-29T00:00:00Z,2024-03-01T00:00:00Z");      // a date is its midnight UTC
  EXPECT_EQ(series("'2026-03-01', '2026-01-01', '1 mon', 'timestamptz'"), "NULL");  // empty
  EXPECT_EQ(series("NULL, '2026-01-01', '1 mon', 'timestamptz'"), "NULL");
  EXPECT_EQ(value("count(*) FROM pg_series('2026-01-01', '2026-01-02', '1 second', 'timestamptz')"), "86401");
  EXPECT_NE(error("count(*) FROM pg_series('2026-01-01', '2026-02-01', '1 mon -30 days', 'timestamptz')")
                .find("step size cannot equal zero"),
            std::string::npos);
  // Longer than the cap: the statement fails, it is not cut short.
  EXPECT_NE(error("count(*) FROM pg_series('2026-01-01', '2026-12-31', '1 minute', 'timestamptz')").find("100000"),
            std::string::npos);
  // Correlated with a table to its left, as admission writes it.
  EXPECT_EQ(value("group_concat(value, ',') FROM (SELECT '2026-01-01' AS a, '2026-03-01' AS b) AS q, "
                  "pg_series(q.a, q.b, '1 mon', 'timestamptz')"),
            "2026-01-01T00:00:00Z,2026-02-01T00:00:00Z,2026-03-01T00:00:00Z");
}

}  // namespace
}  // namespace qg
