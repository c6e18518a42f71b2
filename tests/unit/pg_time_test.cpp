// common/pg_time: PostgreSQL's calendar arithmetic, input and output. The
// expected texts are PostgreSQL 15's answers (TimeZone UTC, IntervalStyle
// postgres), recorded from `psql` on the test cluster; the end-to-end check
// against a live PostgreSQL is tests/integration/time_parity_test.cpp.
#include "common/pg_time.hpp"

#include <gtest/gtest.h>

namespace qg::pgtime {
namespace {

Value read(std::string_view text, Kind k) {
  Value v;
  std::string error;
  EXPECT_TRUE(parse(text, k, v, error)) << text << ": " << error;
  return v;
}

std::string print(const Value& v) {
  std::string out, error;
  EXPECT_TRUE(format(v, out, error)) << error;
  return out;
}

Interval iv(std::string_view text) {
  return read(text, Kind::Interval).interval;
}

TEST(PgTimeTest, IntervalsPrintAsPostgres) {
  EXPECT_EQ(format_interval(iv("1 day 02:03:04.5")), "1 day 02:03:04.5");
  EXPECT_EQ(format_interval(iv("-1 day 2 hours")), "-1 days +02:00:00");
  EXPECT_EQ(format_interval(iv("1 year 2 months -3 days -04:05:06.7")), "1 year 2 mons -3 days -04:05:06.7");
  EXPECT_EQ(format_interval(iv("3 weeks ago")), "-21 days");
  EXPECT_EQ(format_interval(iv("00:00:00")), "00:00:00");
  EXPECT_EQ(format_interval(iv("1.5 days")), "1 day 12:00:00");
  EXPECT_EQ(format_interval(iv("90 minutes")), "01:30:00");
  EXPECT_EQ(format_interval(iv("1 month - 1 day")), "1 mon -1 days");  // a sign's spaces (outside tester s14)
  EXPECT_EQ(format_interval(iv("- 2 hours + 30 minutes")), "-01:30:00");
  Interval out;
  std::string error;
  ASSERT_TRUE(divide(iv("1 year 1 mon"), 7, out, error));
  EXPECT_EQ(format_interval(out), "1 mon 25 days 17:08:34.3104");
  ASSERT_TRUE(multiply(iv("1 mon"), 1.5, out, error));
  EXPECT_EQ(format_interval(out), "1 mon 15 days");
  ASSERT_TRUE(multiply(iv("3 days 04:00"), -0.3, out, error));
  EXPECT_EQ(format_interval(out), "-22:48:00");
  EXPECT_FALSE(parse_interval("1.5 months", out, error));  // refused, not guessed
  EXPECT_FALSE(parse_interval("soon", out, error));
  // A field given twice is PostgreSQL's error (outside tester s14: '1 hour + 1 hour' answered 02:00:00).
  for (const char* twice : {"1 day 1 day", "1 hour + 1 hour", "1 month - 1 month", "2 days - 3 hours - 1 hour",
                            "1 day 02:00 3 minutes", "1.5 seconds 3 milliseconds", "10 20"})
    EXPECT_FALSE(parse_interval(twice, out, error)) << twice;
  for (const char* once : {"1 week 1 day", "1 year 2 months 3 days 04:05:06", "1 day 10", "2 hours 30 minutes 5"})
    EXPECT_TRUE(parse_interval(once, out, error)) << once;
}

TEST(PgTimeTest, CalendarArithmeticIsPostgres) {
  Value out;
  std::string error;
  ASSERT_TRUE(add_interval(read("2024-02-29 12:00Z", Kind::Timestamptz), iv("1 year"), 1, out, error));
  EXPECT_EQ(print(out), "2025-02-28T12:00:00Z");
  ASSERT_TRUE(add_interval(read("2026-03-31Z", Kind::Timestamptz), iv("1 mon"), -1, out, error));
  EXPECT_EQ(print(out), "2026-02-28T00:00:00Z");
  ASSERT_TRUE(add_interval(read("2026-01-31", Kind::Date), iv("1 mon"), 1, out, error));
  EXPECT_EQ(print(out), "2026-02-28T00:00:00");  // date + interval is a timestamp
  EXPECT_EQ(format_interval(subtract(read("2026-01-01 10:00Z", Kind::Timestamptz),
                                     read("2026-01-03 11:00:00.5Z", Kind::Timestamptz))),
            "-2 days -01:00:00.5");
  ASSERT_TRUE(truncate("week", read("2027-01-03 23:59:59Z", Kind::Timestamptz), out, error));
  EXPECT_EQ(print(out), "2026-12-28T00:00:00Z");
}

TEST(PgTimeTest, ExtractAndToCharArePostgres) {
  Number n;
  std::string error, text;
  ASSERT_TRUE(extract("week", read("2027-01-01", Kind::Date), n, error));
  EXPECT_EQ(n.value, 53);
  ASSERT_TRUE(extract("isoyear", read("2027-01-01", Kind::Date), n, error));
  EXPECT_EQ(n.value, 2026);
  ASSERT_TRUE(extract("epoch", read("1 year 14 months -3 days 04:05:06.25", Kind::Interval), n, error));
  EXPECT_DOUBLE_EQ(n.value, 68054706.25);
  EXPECT_FALSE(extract("hour", read("2027-01-01", Kind::Date), n, error));
  EXPECT_EQ(error, "unit \"hour\" not supported for type date");
  ASSERT_TRUE(to_char(read("2026-01-31 10:00Z", Kind::Timestamptz), "Q WW IW IYYY DDD D ID J W", text, error));
  EXPECT_EQ(text, "1 05 05 2026 031 7 6 2461072 5");
  ASSERT_TRUE(to_char(read("2026-03-08 10:05:03.25Z", Kind::Timestamptz),
                      "YYYY-MM-DD HH24:MI:SS.MS Mon Month Dy Day Q WW IW FMMonth", text, error));
  EXPECT_EQ(text, "2026-03-08 10:05:03.250 Mar March     Sun Sunday    1 10 10 March");
  EXPECT_EQ(unsupported_pattern("YYYY-MM \"Quarter\" Q"), "");
  EXPECT_EQ(unsupported_pattern("CC"), "CC");
  EXPECT_EQ(unsupported_pattern("YYYY-MM-DDTHH24"), "TH (after DD)");
}

TEST(PgTimeTest, InputFollowsPostgresRules) {
  EXPECT_EQ(print(read("2026-03-08 10:00:00+02", Kind::Timestamptz)), "2026-03-08T08:00:00Z");
  EXPECT_EQ(print(read("2026-03-08 10:00:00+02", Kind::Timestamp)), "2026-03-08T10:00:00");  // offset ignored
  EXPECT_EQ(print(read("2026-03-08T23:30:00.5-05:00", Kind::Date)), "2026-03-08");
  EXPECT_EQ(print(read("14:30", Kind::Time)), "14:30:00");
  Value v;
  std::string error;
  EXPECT_FALSE(parse("12/08/2026", Kind::Date, v, error));
  EXPECT_EQ(error, "invalid input syntax for type date: \"12/08/2026\"");
}

}  // namespace
}  // namespace qg::pgtime
