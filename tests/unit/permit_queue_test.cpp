// The permit queue, driven step by step: a ManualClock moves time, dropping a
// Permit hands it on, expire() / close() / Cancellation are called by the test.
// No threads, no sleeps: every decision happens inside a call the test makes.
#include "load_control/permit_queue.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace qg::permits {
namespace {

using namespace std::chrono_literals;

// Records what a queued request was told.
struct Outcome {
  std::optional<Permit> permit;
  std::optional<Denied> denied;
  int calls = 0;
  bool decided() const { return calls > 0; }
};

OnDecision record(Outcome& out) {
  return [&out](Decision d) {
    ++out.calls;
    if (auto* p = std::get_if<Permit>(&d))
      out.permit = std::move(*p);
    else
      out.denied = std::get<Denied>(d);
  };
}

class PermitQueueTest : public ::testing::Test {
 protected:
  PermitQueue& make(int permits, int depth) {
    queue_.emplace(QueueOptions{.permits = permits, .queue_depth = depth}, clock_);
    return *queue_;
  }
  TimePoint in(Duration d) const { return clock_.now() + d; }

  // Submits and expects a permit at once.
  Permit grant(std::string_view key, Duration budget = 10s) {
    auto d = queue_->submit(key, in(budget), nullptr, [](Decision) { ADD_FAILURE() << "decided at once"; });
    EXPECT_TRUE(d && std::holds_alternative<Permit>(*d));
    return d && std::holds_alternative<Permit>(*d) ? std::move(std::get<Permit>(*d)) : Permit();
  }
  // Submits and expects the request to wait.
  void wait(std::string_view key, Outcome& out, Duration budget = 10s,
            const std::shared_ptr<Cancellation>& cancel = nullptr) {
    auto d = queue_->submit(key, in(budget), cancel, record(out));
    EXPECT_FALSE(d.has_value()) << "expected to be queued";
  }
  Denied refused(std::string_view key, Duration budget = 10s, const std::shared_ptr<Cancellation>& cancel = nullptr) {
    auto d = queue_->submit(key, in(budget), cancel, [](Decision) { ADD_FAILURE() << "decided at once"; });
    EXPECT_TRUE(d && std::holds_alternative<Denied>(*d));
    return d && std::holds_alternative<Denied>(*d) ? std::get<Denied>(*d) : Denied{};
  }

  void TearDown() override {
    if (!queue_) return;
    queue_->close();
    const QueueStats s = queue_->stats();
    EXPECT_EQ(s.in_use, 0) << "a permit was not given back";
    EXPECT_EQ(s.queued, 0);
  }

  ManualClock clock_;
  std::optional<PermitQueue> queue_;  // declared after the clock it reads
};

TEST_F(PermitQueueTest, GrantsUpToThePermitsThenQueues) {
  auto& q = make(2, 2);
  Permit a = grant("k");
  Permit b = grant("k");
  Outcome c;
  wait("k", c);
  EXPECT_EQ(q.stats().in_use, 2);
  EXPECT_EQ(q.stats().queued, 1);
  EXPECT_FALSE(c.decided());
  a.reset();
  ASSERT_EQ(c.calls, 1) << "the released permit goes straight to the waiter";
  EXPECT_TRUE(c.permit && *c.permit);
  EXPECT_EQ(q.stats().in_use, 2);
  EXPECT_EQ(q.stats().queued, 0);
  b.reset();
  c.permit.reset();
  EXPECT_EQ(q.stats().in_use, 0);
  EXPECT_EQ(q.stats().granted, 3u);
}

TEST_F(PermitQueueTest, PermitIsMoveOnlyAndGivenBackOnce) {
  auto& q = make(1, 0);
  Permit a = grant("k");
  Permit moved = std::move(a);
  EXPECT_FALSE(a) << "moved-from holds nothing";
  EXPECT_TRUE(moved);
  a.reset();  // no effect on the moved-to permit
  EXPECT_EQ(q.stats().in_use, 1);
  Permit assigned;
  assigned = std::move(moved);
  EXPECT_EQ(q.stats().in_use, 1);
  assigned.reset();
  assigned.reset();
  EXPECT_EQ(q.stats().in_use, 0);
  { Permit scoped = grant("k"); }
  EXPECT_EQ(q.stats().in_use, 0) << "destructor gives it back";
  static_assert(!std::is_copy_constructible_v<Permit> && !std::is_copy_assignable_v<Permit>);
}

TEST_F(PermitQueueTest, FullQueueAnswersAtOnceWithRetryAfterFromServiceTime) {
  auto& q = make(1, 1);
  Permit a = grant("k");
  Outcome b;
  wait("k", b);
  // Nothing observed yet: the least Retry-After.
  EXPECT_EQ(refused("k").retry_after, 1s);
  EXPECT_EQ(refused("k").reason, Refusal::QueueFull);

  clock_.advance(3s);  // statements take 3 s
  a.reset();
  ASSERT_TRUE(b.permit);
  Outcome c;
  wait("k", c);
  const Denied full = refused("k");
  EXPECT_EQ(full.reason, Refusal::QueueFull);
  // One waiter ahead and one permit: two turns of 3 s.
  EXPECT_EQ(full.retry_after, 6s);
  EXPECT_EQ(q.stats().queue_full, 3u);
  EXPECT_NEAR(q.stats().service_ms, 3000.0, 0.001);
  b.permit.reset();
  c.permit.reset();
}

TEST_F(PermitQueueTest, RetryAfterIsCappedAndShrinksWithMorePermits) {
  auto& q = make(4, 4);
  std::vector<Permit> held;
  for (int i = 0; i < 4; ++i) held.push_back(grant("k"));
  clock_.advance(2s);
  held.pop_back();  // average hold time: 2 s
  held.push_back(grant("k"));
  std::vector<Outcome> waiting(4);
  for (auto& w : waiting) wait("k", w, 1h);
  // Four waiters ahead, four permits: two turns of 2 s.
  EXPECT_EQ(refused("k").retry_after, 4s);
  clock_.advance(600s);
  held.pop_back();  // one very slow statement moves the average, within the cap
  ASSERT_TRUE(waiting[0].permit);
  Outcome more;
  wait("k", more, 1h);
  EXPECT_EQ(refused("k").retry_after, 60s);
  EXPECT_EQ(q.stats().queued, 4);
  held.clear();
  for (auto& w : waiting) w.permit.reset();
  more.permit.reset();
}

TEST_F(PermitQueueTest, WaitersAreServedRoundRobinAcrossKeys) {
  make(1, 8);
  std::vector<std::string> served;
  Permit running = grant("flood");
  std::vector<Outcome> flood(4), quiet(2);
  for (auto& o : flood) wait("flood", o);
  for (auto& o : quiet) wait("quiet", o);  // arrive after all of flood's
  // Each time the running statement ends, the next permit goes round-robin.
  std::vector<Outcome*> order;
  auto next = [&]() -> Outcome* {
    for (auto* group : {&flood, &quiet})
      for (auto& o : *group)
        if (o.permit && *o.permit) return &o;
    return nullptr;
  };
  running.reset();
  for (int i = 0; i < 6; ++i) {
    Outcome* holder = next();
    ASSERT_NE(holder, nullptr) << "turn " << i;
    order.push_back(holder);
    holder->permit.reset();
  }
  const std::vector<Outcome*> expected{&flood[0], &quiet[0], &flood[1], &quiet[1], &flood[2], &flood[3]};
  EXPECT_EQ(order, expected);
}

TEST_F(PermitQueueTest, AFloodingKeyCannotLockOthersOutOfAFullQueue) {
  auto& q = make(1, 4);
  Permit running = grant("flood");
  std::vector<Outcome> flood(4);
  for (auto& o : flood) wait("flood", o);
  EXPECT_EQ(refused("flood").reason, Refusal::QueueFull) << "a key does not push out its own waiters";
  Outcome quiet;
  wait("quiet", quiet);
  // flood's newest waiter gave its place up, and was told so.
  ASSERT_TRUE(flood[3].denied);
  EXPECT_EQ(flood[3].denied->reason, Refusal::QueueFull);
  EXPECT_EQ(q.stats().queued, 4);
  // flood 3 : quiet 1 — quiet can take one more place, but then shares are even.
  Outcome quiet2;
  wait("quiet", quiet2);
  ASSERT_TRUE(flood[2].denied);
  Denied even = refused("quiet");
  EXPECT_EQ(even.reason, Refusal::QueueFull) << "2 : 2 is fair; nobody is pushed out";
  running.reset();
  ASSERT_TRUE(flood[0].permit);
  flood[0].permit.reset();
  ASSERT_TRUE(quiet.permit) << "round-robin: quiet is next";
  quiet.permit.reset();
  ASSERT_TRUE(flood[1].permit);
  flood[1].permit.reset();
  ASSERT_TRUE(quiet2.permit);
  quiet2.permit.reset();
}

TEST_F(PermitQueueTest, DeadlineWhileQueuedIsRefusedWithoutAPermit) {
  auto& q = make(1, 4);
  Permit running = grant("k");
  Outcome hurried, patient;
  wait("k", hurried, 100ms);
  wait("k", patient, 10s);
  EXPECT_EQ(q.next_expiry(), in(100ms));
  clock_.advance(99ms);
  q.expire();
  EXPECT_FALSE(hurried.decided());
  clock_.advance(1ms);
  q.expire();
  ASSERT_TRUE(hurried.denied);
  EXPECT_EQ(hurried.denied->reason, Refusal::Deadline);
  EXPECT_FALSE(patient.decided());
  EXPECT_EQ(q.stats().in_use, 1) << "the running statement keeps its permit";
  EXPECT_EQ(q.stats().expired, 1u);
  EXPECT_EQ(q.next_expiry(), in(10s - 100ms));
  running.reset();
  EXPECT_TRUE(patient.permit);
  patient.permit.reset();
}

TEST_F(PermitQueueTest, DeadlineDuringExecutionLeavesTheEngineWhatIsLeft) {
  auto& q = make(1, 1);
  Permit running = grant("k");
  Outcome next;
  const TimePoint arrival = clock_.now();
  wait("k", next, 1s);
  clock_.advance(700ms);
  running.reset();
  ASSERT_TRUE(next.permit);
  // One deadline for wait and run: 300 ms of the second's budget are left.
  EXPECT_EQ(next.permit->deadline(), arrival + 1s);
  EXPECT_EQ(next.permit->deadline() - clock_.now(), 300ms);
  clock_.advance(5s);
  q.expire();
  EXPECT_TRUE(*next.permit) << "a granted permit is never revoked; the engine enforces the deadline";
  EXPECT_EQ(q.stats().in_use, 1);
  next.permit.reset();
  EXPECT_EQ(q.stats().in_use, 0);
}

TEST_F(PermitQueueTest, AWaiterPastItsDeadlineIsSkippedWhenAPermitFrees) {
  auto& q = make(1, 4);
  Permit running = grant("k");
  Outcome late, fine;
  wait("k", late, 100ms);
  wait("k", fine, 10s);
  clock_.advance(200ms);  // no expire() call in between
  running.reset();
  ASSERT_TRUE(late.denied);
  EXPECT_EQ(late.denied->reason, Refusal::Deadline);
  EXPECT_TRUE(fine.permit);
  EXPECT_EQ(q.stats().in_use, 1);
  fine.permit.reset();
}

TEST_F(PermitQueueTest, DeadlineAlreadyPastIsRefusedAtOnce) {
  auto& q = make(1, 4);
  EXPECT_EQ(refused("k", 0ms).reason, Refusal::Deadline);
  EXPECT_EQ(q.stats().in_use, 0);
}

TEST_F(PermitQueueTest, ACancelledWaiterLeavesTheQueueAtOnce) {
  auto& q = make(1, 2);
  Permit running = grant("k");
  auto cancel = Cancellation::make();
  Outcome gone, stays;
  wait("k", gone, 10s, cancel);
  wait("k", stays);
  cancel->cancel();
  ASSERT_TRUE(gone.denied);
  EXPECT_EQ(gone.denied->reason, Refusal::Cancelled);
  EXPECT_EQ(q.stats().queued, 1);
  EXPECT_EQ(q.stats().cancelled, 1u);
  cancel->cancel();  // again: nothing more happens
  EXPECT_EQ(gone.calls, 1);
  running.reset();
  EXPECT_TRUE(stays.permit) << "the next waiter, not the one that left";
  stays.permit.reset();
}

TEST_F(PermitQueueTest, AlreadyCancelledIsRefusedAtSubmit) {
  make(1, 2);
  auto cancel = Cancellation::make();
  cancel->cancel();
  EXPECT_EQ(refused("k", 10s, cancel).reason, Refusal::Cancelled);
}

TEST_F(PermitQueueTest, CancellingAfterTheGrantChangesNothingInTheQueue) {
  auto& q = make(1, 2);
  Permit running = grant("k");
  auto cancel = Cancellation::make();
  Outcome o;
  wait("k", o, 10s, cancel);
  running.reset();
  ASSERT_TRUE(o.permit);
  cancel->cancel();  // the holder notices through the flag; the queue has nothing to do
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(q.stats().in_use, 1);
  EXPECT_TRUE(cancel->flag().load());
  o.permit.reset();
}

TEST_F(PermitQueueTest, CloseRefusesWaitersAndNewcomersButHoldersFinish) {
  auto& q = make(1, 4);
  Permit running = grant("k");
  Outcome a, b;
  wait("k", a);
  wait("other", b);
  q.close();
  ASSERT_TRUE(a.denied && b.denied);
  EXPECT_EQ(a.denied->reason, Refusal::Closed);
  EXPECT_EQ(b.denied->reason, Refusal::Closed);
  EXPECT_EQ(refused("k").reason, Refusal::Closed);
  EXPECT_TRUE(running) << "a granted permit stays valid";
  EXPECT_EQ(q.stats().in_use, 1);
  running.reset();
  EXPECT_EQ(q.stats().in_use, 0);
  EXPECT_TRUE(q.stats().closed);
  EXPECT_EQ(q.stats().shut_out, 3u);
}

TEST_F(PermitQueueTest, ACallbackMayDropItsPermitAtOnce) {
  auto& q = make(1, 4);
  Permit running = grant("k");
  int dropped = 0;
  Outcome last;
  for (int i = 0; i < 2; ++i)
    ASSERT_FALSE(q.submit("k", in(10s), nullptr, [&dropped](Decision d) {
                    ++dropped;  // the permit is destroyed here, inside the release that granted it
                    EXPECT_TRUE(std::holds_alternative<Permit>(d));
                  }).has_value());
  wait("k", last);
  running.reset();
  EXPECT_EQ(dropped, 2);
  EXPECT_TRUE(last.permit) << "each dropped permit went on to the next waiter";
  last.permit.reset();
}

// Every path out of the queue — granted, full, expired, cancelled, closed —
// leaves the counts balanced.
TEST_F(PermitQueueTest, AccountingBalancesOnEveryPath) {
  auto& q = make(2, 3);
  auto cancel = Cancellation::make();
  Permit a = grant("x");
  Permit b = grant("y");
  Outcome w1, w2, w3;
  wait("x", w1, 50ms);
  wait("y", w2, 10s, cancel);
  wait("z", w3);
  EXPECT_EQ(refused("z").reason, Refusal::QueueFull);
  cancel->cancel();
  clock_.advance(60ms);
  q.expire();
  a.reset();
  ASSERT_TRUE(w3.permit);
  const QueueStats s = q.stats();
  EXPECT_EQ(s.in_use, 2);
  EXPECT_EQ(s.queued, 0);
  EXPECT_EQ(s.granted, 3u);
  EXPECT_EQ(s.queue_full, 1u);
  EXPECT_EQ(s.expired, 1u);
  EXPECT_EQ(s.cancelled, 1u);
  b.reset();
  w3.permit.reset();
  EXPECT_EQ(q.stats().in_use, 0);
}

}  // namespace
}  // namespace qg::permits
