// The note on a time window against the data's range (gateway/api/time_window_notes.hpp):
// what is said for each position of the window, and that nothing is said when the
// window lies inside the data or is open on the side the data ends.
#include <gtest/gtest.h>

#include "common/pg_time.hpp"
#include "gateway/api/time_window_notes.hpp"

namespace qg::gateway {
namespace {

std::int64_t at(const char* text) {
  pgtime::Value v;
  std::string error;
  EXPECT_TRUE(pgtime::parse(text, pgtime::Kind::Timestamptz, v, error)) << text << ": " << error;
  return v.micros;
}

const std::int64_t kMin = at("2026-09-16T00:01:00Z");
const std::int64_t kMax = at("2026-11-15T23:59:00Z");
const std::int64_t kNow = at("2026-12-02T10:00:00Z");

std::string note(std::optional<std::int64_t> lower, std::optional<std::int64_t> upper, bool clock = false,
                 std::size_t rows = 5) {
  return window_note("spans", "start_time", kMin, kMax, lower, upper, clock, kNow, rows);
}

TEST(TimeWindowNote, AWindowReachingPastTheEndSaysHowMuchOfItHoldsData) {
  const std::string n = note(at("2026-11-02T10:00:00Z"), std::nullopt, true);
  EXPECT_EQ(n,
            "spans.start_time holds 2026-09-16 … 2026-11-15 (UTC); the window 2026-11-02 … 2026-12-02 (30 days) "
            "overlaps it for 14 days: compare per-day figures, not totals, with a full window.");
}

TEST(TimeWindowNote, AWindowWhollyOutsideSaysNoRowIsInIt) {
  EXPECT_EQ(note(at("2026-11-20T00:00:00Z"), std::nullopt, false, 0),
            "spans.start_time holds 2026-09-16 … 2026-11-15 (UTC); the window from 2026-11-20 lies wholly after it, "
            "so no row of spans is in it (hence the empty answer).");
  EXPECT_NE(note(at("2026-01-01T00:00:00Z"), at("2026-02-01T00:00:00Z")).find("lies wholly before it, so no row"),
            std::string::npos);
  EXPECT_NE(note(std::nullopt, at("2026-09-01T00:00:00Z")).find("before"), std::string::npos);
}

TEST(TimeWindowNote, NothingIsSaidInsideTheDataOrForAnOpenEndWithoutTheClock) {
  EXPECT_EQ(note(at("2026-10-01T00:00:00Z"), at("2026-10-31T00:00:00Z")), "");
  EXPECT_EQ(note(at("2026-10-01T00:00:00Z"), std::nullopt), "");                // "since October": no end to compare
  EXPECT_EQ(note(std::nullopt, at("2026-10-01T00:00:00Z")), "");                // "before October"
  EXPECT_EQ(note(at("2026-09-15T00:00:00Z"), at("2026-11-15T00:00:00Z")), "");  // 1 of 61 days short: < 10 %
  EXPECT_EQ(note(at("2026-11-10T00:00:00Z"), at("2026-11-01T00:00:00Z")), "");  // an empty window: nothing to say
}

}  // namespace
}  // namespace qg::gateway
