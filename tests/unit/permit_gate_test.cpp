// The pieces shutdown and disconnects rely on: Cancellation (callbacks once,
// unsubscribe, flag) and Gate (in-flight count, cancel_all, bounded wait).
#include <gtest/gtest.h>

#include <optional>

#include "load_control/cancel.hpp"
#include "load_control/gate.hpp"

namespace qg::permits {
namespace {

using namespace std::chrono_literals;

TEST(PermitCancellationTokenTest, CallbacksRunOnceAndFlagIsSet) {
  auto c = Cancellation::make();
  int calls = 0;
  auto sub = Cancellation::subscribe(c, [&calls] { ++calls; });
  EXPECT_FALSE(c->cancelled());
  c->cancel();
  c->cancel();
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(c->cancelled());
  EXPECT_TRUE(c->flag().load());
}

TEST(PermitCancellationTokenTest, SubscribingAfterTheFactRunsAtOnce) {
  auto c = Cancellation::make();
  c->cancel();
  int calls = 0;
  auto sub = Cancellation::subscribe(c, [&calls] { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(PermitCancellationTokenTest, AnUnsubscribedCallbackNeverRuns) {
  auto c = Cancellation::make();
  int calls = 0;
  {
    auto sub = Cancellation::subscribe(c, [&calls] { ++calls; });
    auto moved = std::move(sub);  // still one subscription
  }
  auto kept = Cancellation::subscribe(c, [&calls] { calls += 10; });
  kept.reset();
  c->cancel();
  EXPECT_EQ(calls, 0);
}

TEST(PermitGateTest, TicketsCountRequestsInFlight) {
  Gate gate;
  EXPECT_EQ(gate.in_flight(), 0);
  std::optional<Gate::Ticket> a(gate.enter(nullptr));
  {
    Gate::Ticket b = gate.enter(Cancellation::make());
    Gate::Ticket moved = std::move(b);
    EXPECT_EQ(gate.in_flight(), 2);
  }
  EXPECT_EQ(gate.in_flight(), 1);
  // Already past: returns at once with the answer, whatever the machine's speed.
  EXPECT_FALSE(gate.wait_until_empty(std::chrono::steady_clock::now() - 1s));
  a.reset();
  EXPECT_EQ(gate.in_flight(), 0);
  EXPECT_TRUE(gate.wait_until_empty(std::chrono::steady_clock::now() - 1s));
}

TEST(PermitGateTest, CancelAllReachesEveryRequestInFlight) {
  Gate gate;
  auto c1 = Cancellation::make();
  auto c2 = Cancellation::make();
  auto gone = Cancellation::make();
  Gate::Ticket t1 = gate.enter(c1);
  Gate::Ticket t2 = gate.enter(c2);
  { Gate::Ticket t3 = gate.enter(gone); }
  gate.cancel_all();
  EXPECT_TRUE(c1->cancelled());
  EXPECT_TRUE(c2->cancelled());
  EXPECT_FALSE(gone->cancelled()) << "a request that already answered is left alone";
}

}  // namespace
}  // namespace qg::permits
