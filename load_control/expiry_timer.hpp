#pragma once
// Wakes at the earliest deadline of any waiter and calls expire() on the
// queues, so a request whose deadline passes while queued is answered then,
// not when a permit next comes back. Real time (the steady clock) on purpose:
// this is the production driver of PermitQueue::expire(); tests call expire()
// themselves and need no thread.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "load_control/permit_queue.hpp"

namespace qg::permits {

class ExpiryTimer {
 public:
  // The queues must outlive the timer.
  explicit ExpiryTimer(std::vector<PermitQueue*> queues);
  ~ExpiryTimer();  // stops and joins
  ExpiryTimer(const ExpiryTimer&) = delete;
  ExpiryTimer& operator=(const ExpiryTimer&) = delete;

  // A request was queued: its deadline may be earlier than the one slept for.
  void wake();

 private:
  void run();

  std::vector<PermitQueue*> queues_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool woken_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything it reads exists
};

}  // namespace qg::permits
