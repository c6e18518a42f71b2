#include "admission/rewrite/time_literals.hpp"

#include <gtest/gtest.h>

namespace qg::rewrite {
namespace {

TEST(TimeLiteralsTest, ParsesIsoForms) {
  auto t = parse_iso_time("2026-11-01T10:20:30.5+02:00");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->hour, 10);
  EXPECT_EQ(t->nanos, 500'000'000);
  EXPECT_EQ(t->offset_minutes, 120);
  EXPECT_FALSE(parse_iso_time("2026-11-01")->has_time);
  EXPECT_EQ(parse_iso_time("2026-11-01 10:20Z")->offset_minutes, 0);
  EXPECT_FALSE(parse_iso_time("2026-02-30"));
  EXPECT_FALSE(parse_iso_time("2026-11-01T25:00Z"));
  EXPECT_FALSE(parse_iso_time("not a time"));
  EXPECT_FALSE(parse_iso_time("2026-11-01T10:00:00Zjunk"));
}

TEST(TimeLiteralsTest, FormatsIntoTheStoredShapeInUtc) {
  auto format = detect_text_format("2026-10-05T14:03:27.512+00:00");
  ASSERT_TRUE(format);
  EXPECT_EQ(format->fraction_digits, 3);
  EXPECT_EQ(format->suffix, "+00:00");
  // 00:30 at +02:00 is 22:30 the day before in UTC.
  EXPECT_EQ(format_utc(*parse_iso_time("2026-11-01T00:30:00+02:00"), *format), "2026-10-31T22:30:00.000+00:00");
  EXPECT_EQ(format_utc(*parse_iso_time("2026-03-01T00:00:00+01:00"), *format), "2026-02-28T23:00:00.000+00:00");
  EXPECT_EQ(format_utc(*parse_iso_time("2026-11-01T10:00:00.1234Z"), *format), "") << "more precise than stored";
  EXPECT_FALSE(detect_text_format("2026-10-05T14:03:27+05:00")) << "only UTC spellings can be rewritten into";
}

TEST(TimeLiteralsTest, DecisionsFollowTheRules) {
  const std::string sample = "2026-10-05T14:03:27.512+00:00";
  auto naive = check_time_literal("2026-11-01 10:00:00", "start_time", sample, 5);
  ASSERT_FALSE(naive);
  EXPECT_EQ(naive.error().code, ErrorCode::ValidationTimestampLiteral);
  EXPECT_NE(naive.error().fix.find("'2026-11-01T10:00:00Z'"), std::string::npos);
  EXPECT_EQ(naive.error().position, 5);

  auto utc = check_time_literal("2026-11-01T10:00:00Z", "start_time", sample, 0);
  ASSERT_TRUE(utc);
  EXPECT_EQ(utc->replacement, "2026-11-01T10:00:00.000+00:00");

  auto same = check_time_literal("2026-11-01T10:00:00.000+00:00", "start_time", sample, 0);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same->replacement) << "idempotent: a literal already in the stored shape stays";

  auto date = check_time_literal("2026-11-01", "start_time", sample, 0);
  ASSERT_TRUE(date);
  EXPECT_TRUE(date->note);
  EXPECT_EQ(date->replacement, "2026-11-01T00:00:00.000+00:00");

  auto not_time = check_time_literal("hello", "start_time", sample, 0);
  ASSERT_FALSE(not_time) << "text that is no ISO time would compare as text";
  EXPECT_EQ(not_time.error().code, ErrorCode::ValidationTimestampLiteral);

  // Data stored without an offset is naive: a naive literal is that clock time, written in the stored format
  // (SQLite compared '2024-01-31T12:00:00' and '2024-01-31 10:17:00' with stored '... 10:17:00.000' as texts).
  auto naive_data = check_time_literal("2026-11-01 10:00:00", "d", "1978-06-26 19:10:17", 0);
  ASSERT_TRUE(naive_data);
  EXPECT_FALSE(naive_data->replacement);
  auto naive_t = check_time_literal("2024-01-31T12:00:00", "d", "2024-01-31 10:17:00.000", 0);
  ASSERT_TRUE(naive_t);
  EXPECT_EQ(naive_t->replacement.value_or(""), "2024-01-31 12:00:00.000");
  auto naive_date = check_time_literal("2024-01-31", "d", "2024-01-31T10:17:00", 0);
  ASSERT_TRUE(naive_date);
  EXPECT_EQ(naive_date->replacement.value_or(""), "2024-01-31T00:00:00");
  EXPECT_FALSE(check_time_literal("2024-01-31 10:17:00.0005", "d", "2024-01-31 10:17:00.000", 0))
      << "more precise than the column stores: refused, not compared as text";
  // ... but a literal with an offset names an instant, which PostgreSQL's timestamp input drops (it
  // compares 10:30): refused, the FIX spelling both readings in the stored format.
  auto instant = check_time_literal("2023-04-01T10:30:00+02:00", "d", "1978-06-26 19:10:17", 0);
  ASSERT_FALSE(instant);
  EXPECT_EQ(instant.error().code, ErrorCode::ValidationTimestampLiteral);
  EXPECT_NE(instant.error().fix.find("'2023-04-01 08:30:00'"), std::string::npos) << instant.error().fix;
  EXPECT_NE(instant.error().fix.find("'2023-04-01 10:30:00'"), std::string::npos) << instant.error().fix;
  auto pg_naive = check_time_literal("2023-04-01T10:30:00.25Z", "d", "2000-01-01 00:00:00.000000", 0);
  ASSERT_TRUE(pg_naive);
  EXPECT_EQ(pg_naive->replacement.value_or(""), "2023-04-01 10:30:00.250000");

  // A typed column (no text sample) still refuses ambiguity but needs no rewrite.
  auto typed = check_time_literal("2026-11-01T10:00:00Z", "t", "", 0);
  ASSERT_TRUE(typed);
  EXPECT_FALSE(typed->replacement);
}

TEST(TimeLiteralsTest, TextFormatsCompareByShape) {
  EXPECT_TRUE(same_text_format("2026-10-05T14:03:27.512+00:00", "2025-01-01T00:00:00.000+00:00"));
  EXPECT_FALSE(same_text_format("2026-10-05T14:03:27.512+00:00", "2026-10-05T14:03:27Z"));
  EXPECT_FALSE(same_text_format("2026-10-05 14:03:27", "2026-10-05T14:03:27"));
  EXPECT_TRUE(same_text_format("", "")) << "typed columns";
  EXPECT_FALSE(same_text_format("", "2026-10-05"));
  EXPECT_FALSE(same_text_format("05/10/2026", "05/10/2026")) << "not ISO: no known shape";
}

// Issue #12: a non-ISO literal compared with a timestamp column is refused,
// with the ISO form PostgreSQL would have read (its DateStyle is MDY).
TEST(TimeLiteralsTest, NonIsoLiteralsAreRefusedWithTheIsoForm) {
  const std::string sample = "2026-10-05T14:03:27.512+00:00";
  auto fix_of = [&](std::string_view literal, std::string_view stored) {
    auto d = check_time_literal(literal, "start_time", stored, 3);
    EXPECT_FALSE(d) << literal;
    if (d) return std::string("<admitted>");
    EXPECT_EQ(d.error().code, ErrorCode::ValidationTimestampLiteral);
    EXPECT_EQ(d.error().position, 3);
    EXPECT_EQ(d.error().fix.rfind("FIX: ", 0), 0u) << d.error().fix;
    return d.error().fix;
  };
  for (const std::string& stored : {sample, std::string()}) {  // text-stored (SQLite) and typed (PostgreSQL)
    EXPECT_NE(fix_of("12/08/2026", stored).find("'2026-12-08'"), std::string::npos) << fix_of("12/08/2026", stored);
    EXPECT_NE(fix_of("12/08/2026", stored).find("month/day"), std::string::npos);
    // PostgreSQL (DateStyle MDY) rejects a day-first date: no ISO rewrite is offered for it, only the form.
    EXPECT_EQ(fix_of("13/08/2026", stored).find("'2026-08-13'"), std::string::npos) << fix_of("13/08/2026", stored);
    EXPECT_NE(fix_of("13/08/2026", stored).find("YYYY-MM-DD"), std::string::npos);
    EXPECT_NE(fix_of("0000-01-01", stored).find("ISO-8601"), std::string::npos) << "year 0 is no year in PostgreSQL";
    EXPECT_NE(fix_of("1/2/2026 14:30", stored).find("'2026-01-02T14:30Z'"), std::string::npos);
    EXPECT_NE(fix_of("14:30:00", stored).find("'2026-12-08T14:30:00Z'"), std::string::npos);
    EXPECT_NE(fix_of("now", stored).find("CURRENT_TIMESTAMP"), std::string::npos);
    EXPECT_NE(fix_of("Infinity", stored).find("CURRENT_TIMESTAMP"), std::string::npos);
    EXPECT_NE(fix_of("2026-1-5", stored).find("'2026-12-08T14:30:00Z'"), std::string::npos) << "the generic form";
    EXPECT_NE(fix_of("", stored).find("IS NULL"), std::string::npos);
    EXPECT_NE(fix_of("null", stored).find("IS NULL"), std::string::npos);
  }
  // A column whose own text is not ISO compares as that text: nothing to hold it to.
  auto odd = check_time_literal("12/08/2026", "d", "08/12/2026", 0);
  ASSERT_TRUE(odd);
  EXPECT_FALSE(odd->replacement);
}

// A column of dates reads the literal as PostgreSQL's date input does: the time of day and the offset dropped, the
// date as written (not the UTC day of the instant; outside tester s19b).
TEST(TimeLiteralsTest, DateColumnsReadTheLiteralsDate) {
  for (const char* literal : {"2024-03-19 00:00:00", "2024-03-19T22:00:00-05:00", "2024-03-19T10:00Z", "2024-03-19"}) {
    auto d = check_time_literal(literal, "d", "2024-01-01", 0);
    ASSERT_TRUE(d) << literal << ": " << d.error().message;
    EXPECT_EQ(d->replacement.value_or(literal), "2024-03-19") << literal;
  }
  EXPECT_TRUE(check_time_literal("2024-03-19T10:00:00", "d", "2024-01-01", 0)->note.has_value());
  EXPECT_FALSE(check_time_literal("2024-03-19", "d", "2024-01-01", 0)->note.has_value());
}

}  // namespace
}  // namespace qg::rewrite
