#pragma once
// The time source admission reads. Production uses the steady clock; tests use
// ManualClock and move time forward explicitly, so queue waits and deadlines
// are decided by the test, never by how fast the machine happens to be.
#include <atomic>
#include <chrono>

namespace qg::permits {

// The same time line as exec::Deadline, so a deadline set here is what the
// engine enforces.
using TimePoint = std::chrono::steady_clock::time_point;
using Duration = std::chrono::steady_clock::duration;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
};

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
};

// Stands still until told to move. Safe to read from several threads.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start = TimePoint{} + std::chrono::hours(1)) : now_(start) {}
  TimePoint now() const override { return now_.load(); }
  void advance(Duration d) { now_.store(now_.load() + d); }

 private:
  std::atomic<TimePoint> now_;
};

}  // namespace qg::permits
