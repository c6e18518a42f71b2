// One answer format (issue #12): SQLite's stored timestamp text and type names
// as the PostgreSQL executor prints them (executors/sqlite/answer_format.hpp).
#include "executors/sqlite/answer_format.hpp"

#include <gtest/gtest.h>

#include "executors/postgres/pg_values.hpp"

namespace qg::exec::sqlite {
namespace {

// The oracle: what the PostgreSQL executor makes of PostgreSQL's own text for the same instant.
std::string pg(std::string_view text, bool with_zone) {
  return std::get<std::string>(pg::read_value(with_zone ? pg::oid::kTimestamptz : pg::oid::kTimestamp, text));
}

TEST(AnswerFormat, TimestamptzTextAsPostgresPrintsIt) {
  EXPECT_EQ(pg_timestamp_text("2026-09-16T00:19:23.561+00:00"), pg("2026-09-16 00:19:23.561+00", true));
  EXPECT_EQ(pg_timestamp_text("2026-09-16T00:19:23.570+00:00"), pg("2026-09-16 00:19:23.57+00", true));
  EXPECT_EQ(pg_timestamp_text("2026-09-16T00:19:23.000+00:00"), pg("2026-09-16 00:19:23+00", true));
  EXPECT_EQ(pg_timestamp_text("2026-09-16T00:19:23Z"), pg("2026-09-16 00:19:23+00", true));
  // An offset is converted to UTC, across a day, a month end and a leap day.
  EXPECT_EQ(pg_timestamp_text("2026-11-01T00:30:00+02:00"), pg("2026-10-31 22:30:00+00", true));
  EXPECT_EQ(pg_timestamp_text("2028-02-29T23:30:00-01:00"), pg("2028-03-01 00:30:00+00", true));
  EXPECT_EQ(pg_timestamp_text("2026-01-01T00:00:00.123456+00:00"), pg("2026-01-01 00:00:00.123456+00", true));
}

TEST(AnswerFormat, NaiveTimestampTextAsPostgresPrintsIt) {
  EXPECT_EQ(pg_timestamp_text("2009-01-01 00:00:00"), pg("2009-01-01 00:00:00", false));
  EXPECT_EQ(pg_timestamp_text("2009-01-01T10:11:12.5"), pg("2009-01-01 10:11:12.5", false));
}

TEST(AnswerFormat, OtherTextIsLeftAsStored) {
  EXPECT_FALSE(pg_timestamp_text("2026-09-16"));  // a date prints as itself on both
  EXPECT_FALSE(pg_timestamp_text("12/08/2026"));
  EXPECT_FALSE(pg_timestamp_text("yesterday"));
  EXPECT_FALSE(pg_timestamp_text("2026-09-16T00:19:23.1234567Z"));  // finer than PostgreSQL keeps
  EXPECT_FALSE(pg_timestamp_text(""));
}

TEST(AnswerFormat, TypeNamesArePostgresNames) {
  EXPECT_EQ(pg_type_name("INTEGER", "", false, ""), "bigint");
  EXPECT_EQ(pg_type_name("", "INTEGER", false, ""), "bigint");
  EXPECT_EQ(pg_type_name("TEXT", "", false, ""), "text");
  EXPECT_EQ(pg_type_name("VARCHAR(20)", "", false, ""), "text");
  EXPECT_EQ(pg_type_name("REAL", "", false, ""), "double precision");
  EXPECT_EQ(pg_type_name("", "REAL", false, ""), "double precision");
  EXPECT_EQ(pg_type_name("BLOB", "", false, ""), "bytea");
  EXPECT_EQ(pg_type_name("BOOLEAN", "", false, ""), "boolean");
  EXPECT_EQ(pg_type_name("NUMERIC(10,2)", "", false, ""), "numeric");
  EXPECT_EQ(pg_type_name("TEXT", "", true, "2026-09-16T00:19:23.561+00:00"), "timestamp with time zone");
  EXPECT_EQ(pg_type_name("DATETIME", "", true, "2009-01-01 00:00:00"), "timestamp without time zone");
  EXPECT_EQ(pg_type_name("DATE", "", true, "2009-01-01"), "date");
  EXPECT_EQ(pg_type_name("", "", false, ""), "");
}

}  // namespace
}  // namespace qg::exec::sqlite

namespace qg::exec::sqlite {
namespace {

// A numeric of a known scale is the double's shortest text padded to the scale, as PostgreSQL prints the numeric
// (printf's %.14f printed the double's binary expansion, 12345.67799999999988; outside tester s13).
TEST(AnswerFormat, NumericOfAKnownScaleIsTheShortestTextPadded) {
  EXPECT_EQ(pg_numeric_text(12345.678, 14), "12345.67800000000000");
  EXPECT_EQ(pg_numeric_text(12345.678, 25), "12345.6780000000000000000000000");
  EXPECT_EQ(pg_numeric_text(0.3, 20), "0.30000000000000000000");
  EXPECT_EQ(pg_numeric_text(2.5, 2), "2.50");
  EXPECT_EQ(pg_numeric_text(7, 0), "7");
  EXPECT_EQ(pg_numeric_text(-0.0, 2), "0.00");
}

}  // namespace
}  // namespace qg::exec::sqlite
