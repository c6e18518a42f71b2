#pragma once
// Admission for one database: a fixed number of permits and a bounded queue
// of requests waiting for one, served round-robin across fairness keys (API
// key names, or client addresses when no keys are configured).
//
// Nothing here blocks or sleeps. submit() decides at once (grant, queue full,
// deadline already past, closed) or queues the request; a queued request is
// decided later, exactly once, by whichever call frees its turn: a Permit's
// release (grant), expire() (deadline), cancel() or its Cancellation firing
// (client gone), or close() (shutdown). Decisions are delivered outside the
// queue's lock, on the thread of that call. So tests drive everything —
// time (a ManualClock), grants (dropping Permits), expiry — step by step.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "load_control/cancel.hpp"
#include "load_control/clock.hpp"
#include "load_control/permit.hpp"

namespace qg::permits {

struct QueueOptions {
  int permits = 2;      // statements running at once (>= 1)
  int queue_depth = 8;  // requests waiting at once (>= 0); beyond it: QueueFull
};

enum class Refusal : std::uint8_t {
  QueueFull,  // every permit busy and the queue full (or this request was pushed out for fairness)
  Deadline,   // the request's deadline passed before a permit was free
  Cancelled,  // the client went away while waiting
  Closed,     // the gateway is shutting down
};

struct Denied {
  Refusal reason = Refusal::QueueFull;
  // When a retry has a fair chance: observed service time times the turns
  // ahead, whole seconds, at least 1 (an HTTP Retry-After value).
  std::chrono::seconds retry_after{1};
};

using Decision = std::variant<Permit, Denied>;
using OnDecision = std::function<void(Decision)>;

struct QueueStats {
  int permits = 0;
  int queue_depth = 0;
  int in_use = 0;
  int queued = 0;
  bool closed = false;
  double service_ms = 0;  // moving average of how long a permit is held
  // Totals since start.
  std::uint64_t granted = 0;
  std::uint64_t queue_full = 0;  // refused at once, or pushed out for fairness
  std::uint64_t expired =
      0;  // deadline passed while waiting (or was mostly spent waiting: see note_expired_after_grant)
  std::uint64_t cancelled = 0;  // client left while waiting
  std::uint64_t shut_out = 0;   // refused or dropped because the queue was closed
};

class PermitQueue {
 public:
  PermitQueue(QueueOptions options, const Clock& clock);
  ~PermitQueue();  // every Permit must have been given back (asserted)
  PermitQueue(const PermitQueue&) = delete;
  PermitQueue& operator=(const PermitQueue&) = delete;

  // Asks for a permit for one request. Returns the decision when it is made
  // at once (`on_decision` is then never called). Otherwise the request waits
  // and `on_decision` is called exactly once later — possibly before submit
  // returns, if `cancel` fires meanwhile. `on_decision` must not throw.
  std::optional<Decision> submit(std::string_view fairness_key, TimePoint deadline,
                                 const std::shared_ptr<Cancellation>& cancel, OnDecision on_decision);

  // Refuses (Deadline) every waiter whose deadline is now or past.
  void expire();
  // The earliest deadline among waiters: when expire() next has work.
  std::optional<TimePoint> next_expiry() const;
  // Refuses (Closed) every waiter and every later submit. Permits already
  // granted stay valid until their holders drop them.
  void close();

  QueueStats stats() const;
  // Counts, with the waiters that expired (stats().expired), a granted request
  // whose deadline was spent waiting: it passed before its statement started,
  // or while it ran after a wait longer than the run.
  void note_expired_after_grant();

 private:
  friend class Permit;
  struct Waiter {
    std::string key;
    TimePoint deadline;
    OnDecision on_decision;
    Cancellation::Subscription subscription;
  };
  // A decision made under the lock, delivered after it is released.
  struct Pending {
    OnDecision on_decision;
    Decision decision;
    Cancellation::Subscription subscription;  // dropped outside the lock too
  };

  void release(TimePoint granted_at) noexcept;
  void cancel(std::uint64_t id);
  static void deliver(std::deque<Pending>& pending) noexcept;

  // Under mu_.
  std::uint64_t enqueue(std::string_view key, TimePoint deadline, OnDecision on_decision);
  Waiter take(std::uint64_t id);
  std::optional<std::uint64_t> next_in_turn();
  std::optional<std::uint64_t> fairness_victim(std::string_view arriving_key) const;
  std::size_t waiting_for(std::string_view key) const;
  std::chrono::seconds retry_after(int turns_ahead) const;
  Denied denied(Refusal reason, int turns_ahead = 0) const { return Denied{reason, retry_after(turns_ahead)}; }

  const QueueOptions options_;
  const Clock& clock_;

  mutable std::mutex mu_;
  bool closed_ = false;
  int in_use_ = 0;
  double service_ns_ = 0;  // 0 until the first permit comes back
  QueueStats totals_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, Waiter> waiters_;  // ids grow, so this is arrival order
  std::map<std::string, std::deque<std::uint64_t>, std::less<>> by_key_;
  std::deque<std::string> rotation_;  // keys with waiters; the front one is served next
  std::multimap<TimePoint, std::uint64_t> by_deadline_;
};

}  // namespace qg::permits
