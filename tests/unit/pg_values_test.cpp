// How PostgreSQL's text output becomes cell values: exact integers, doubles,
// ISO-8601 timestamps in UTC, bytes, booleans; numeric digits no double holds stay text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "executors/postgres/pg_values.hpp"

namespace qg::exec::pg {
namespace {

TEST(PgValues, IntegersStayExact) {
  EXPECT_EQ(read_value(oid::kInt8, "9223372036854775807"), Value(std::int64_t{9223372036854775807}));
  EXPECT_EQ(read_value(oid::kInt4, "-42"), Value(std::int64_t{-42}));
  EXPECT_EQ(read_value(oid::kInt2, "7"), Value(std::int64_t{7}));
}

TEST(PgValues, NumericIsAnIntegerWhenWholeElseItsExactDigits) {
  // sum() over integers is numeric in PostgreSQL: it must not turn into a float.
  EXPECT_EQ(read_value(oid::kNumeric, "123456789012345"), Value(std::int64_t{123456789012345}));
  EXPECT_EQ(read_value(oid::kNumeric, "-9223372036854775808"), Value(std::int64_t{INT64_MIN}));
  // numeric is exact: PostgreSQL's digits are kept (a double would print 5.651941747572816 or 12345.7).
  EXPECT_EQ(read_value(oid::kNumeric, "5.6519417475728155"), Value(Decimal{"5.6519417475728155"}));
  EXPECT_EQ(read_value(oid::kNumeric, "12345.6789"), Value(Decimal{"12345.6789"}));
  EXPECT_EQ(read_value(oid::kNumeric, "2.5000000000000000"), Value(Decimal{"2.5000000000000000"}));
  EXPECT_EQ(read_value(oid::kNumeric, "-0.0419"), Value(Decimal{"-0.0419"}));
  EXPECT_EQ(read_value(oid::kNumeric, "123456789012345.5"), Value(Decimal{"123456789012345.5"})) << "15 digits";
  // Beyond int64, or more integer digits than a double holds: the exact digits, as text.
  EXPECT_EQ(read_value(oid::kNumeric, "12345678901234567890"), Value(std::string("12345678901234567890")));
  EXPECT_EQ(read_value(oid::kNumeric, "-99999999999999999999"), Value(std::string("-99999999999999999999")));
  EXPECT_EQ(read_value(oid::kNumeric, "1234567890123456.5"), Value(std::string("1234567890123456.5")));
}

TEST(PgValues, FloatsAreDoublesNonFiniteIncluded) {
  EXPECT_EQ(read_value(oid::kFloat8, "0.1"), Value(0.1));
  EXPECT_EQ(read_value(oid::kFloat4, "-2.5"), Value(-2.5));
  // The envelope spells every non-finite double the same way, whichever engine made it.
  EXPECT_EQ(read_value(oid::kFloat8, "Infinity"), Value(HUGE_VAL));
  EXPECT_EQ(read_value(oid::kFloat8, "-Infinity"), Value(-HUGE_VAL));
  EXPECT_EQ(read_value(oid::kNumeric, "Infinity"), Value(HUGE_VAL));
  const auto nan = read_value(oid::kNumeric, "NaN");
  ASSERT_TRUE(std::holds_alternative<double>(nan));
  EXPECT_TRUE(std::isnan(std::get<double>(nan)));
}

TEST(PgValues, BooleansStayBooleans) {
  EXPECT_EQ(read_value(oid::kBool, "t"), Value(true));
  EXPECT_EQ(read_value(oid::kBool, "f"), Value(false));
}

TEST(PgValues, TimestampsBecomeIsoInUtc) {
  EXPECT_EQ(read_value(oid::kTimestamptz, "2024-03-01 12:00:00+00"), Value(std::string("2024-03-01T12:00:00Z")));
  EXPECT_EQ(read_value(oid::kTimestamptz, "2024-03-01 12:00:00.123456+00"),
            Value(std::string("2024-03-01T12:00:00.123456Z")));
  EXPECT_EQ(read_value(oid::kTimestamp, "2024-03-01 12:00:00"), Value(std::string("2024-03-01T12:00:00")));
  EXPECT_EQ(read_value(oid::kDate, "2024-03-01"), Value(std::string("2024-03-01")));
  EXPECT_EQ(read_value(oid::kTimestamptz, "infinity"), Value(std::string("infinity")));
}

TEST(PgValues, ByteaHexBecomesBytes) {
  EXPECT_EQ(read_value(oid::kBytea, "\\x00ff41"), Value(Blob{std::string("\0\xff"
                                                                         "A",
                                                                         3)}));
  EXPECT_EQ(read_value(oid::kBytea, "\\x"), Value(Blob{}));
}

TEST(PgValues, OtherTypesAreTheirText) {
  EXPECT_EQ(read_value(oid::kJsonb, "{\"a\": 1}"), Value(std::string("{\"a\": 1}")));
  EXPECT_EQ(read_value(25, "plain text"), Value(std::string("plain text")));
}

}  // namespace
}  // namespace qg::exec::pg
