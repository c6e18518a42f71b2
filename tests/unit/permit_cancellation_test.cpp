// The engine end of cancellation: a statement whose request is cancelled stops
// (SQLite's progress handler polls the flag), with request:cancelled, and the
// connection is clean for the next statement.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tests/unit/demo_fixture.hpp"

namespace qg::exec {
namespace {

using namespace std::chrono_literals;

constexpr const char* kRunaway = "SELECT count(*) FROM spans AS a, spans AS b, spans AS c";

TEST(PermitEngineCancellationTest, AStatementCancelledBeforeItStartsDoesNotRun) {
  std::atomic<bool> cancelled{true};
  RunOptions options;
  options.deadline = Clock::now() + 60s;
  options.cancelled = &cancelled;
  auto r = testing::Demo::get().sqlite().run(kRunaway, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::RequestCancelled);
}

TEST(PermitEngineCancellationTest, ARunningStatementStopsWhenCancelled) {
  std::atomic<bool> cancelled{false};
  RunOptions options;
  options.deadline = Clock::now() + 60s;  // far away: only the cancellation can end it
  options.cancelled = &cancelled;
  // Whether the flag is set before or during the run, the outcome is the same;
  // the delay only makes "during" the likely case.
  std::thread canceller([&cancelled] {
    std::this_thread::sleep_for(50ms);
    cancelled = true;
  });
  const auto start = Clock::now();
  auto r = testing::Demo::get().sqlite().run(kRunaway, options);
  canceller.join();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::RequestCancelled) << r.error().message;
  EXPECT_LT(Clock::now() - start, 30s);
  // The connection went back clean: the next statement runs.
  auto next = testing::Demo::get().sqlite().run("SELECT 1", RunOptions{.max_rows = 1, .deadline = Clock::now() + 5s});
  EXPECT_TRUE(next) << next.error().message;
}

}  // namespace
}  // namespace qg::exec
