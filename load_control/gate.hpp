#pragma once
// Counts the requests in flight, so shutdown can wait for them (with a bound)
// and then cancel whatever is left. Each request holds a Ticket from the
// moment it is accepted until its answer is handed back; the Ticket is RAII,
// so a request cannot leave the count wrong on any path.
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "load_control/cancel.hpp"
#include "load_control/clock.hpp"

namespace qg::permits {

class Gate {
 public:
  class Ticket {
   public:
    Ticket(Ticket&& other) noexcept : gate_(std::exchange(other.gate_, nullptr)), id_(other.id_) {}
    Ticket& operator=(Ticket&&) = delete;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();

   private:
    friend class Gate;
    Ticket(Gate* gate, std::uint64_t id) : gate_(gate), id_(id) {}
    Gate* gate_;
    std::uint64_t id_;
  };

  Gate() = default;
  ~Gate();  // every Ticket must be gone (asserted)
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  // `cancellation` is what cancel_all() fires for this request.
  Ticket enter(std::shared_ptr<Cancellation> cancellation);
  int in_flight() const;
  // Blocks until no request is in flight or until `deadline` (real time:
  // shutdown waits for real requests). True when none is left.
  bool wait_until_empty(TimePoint deadline);
  // Cancels every request in flight (outside the lock).
  void cancel_all();

 private:
  void leave(std::uint64_t id) noexcept;

  mutable std::mutex mu_;
  std::condition_variable empty_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, std::shared_ptr<Cancellation>> in_flight_;
};

}  // namespace qg::permits
