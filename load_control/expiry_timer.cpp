#include "load_control/expiry_timer.hpp"

namespace qg::permits {

ExpiryTimer::ExpiryTimer(std::vector<PermitQueue*> queues) : queues_(std::move(queues)), thread_([this] { run(); }) {}

ExpiryTimer::~ExpiryTimer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

void ExpiryTimer::wake() {
  {
    std::lock_guard lock(mu_);
    woken_ = true;
  }
  cv_.notify_one();
}

void ExpiryTimer::run() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    woken_ = false;
    lock.unlock();
    std::optional<TimePoint> earliest;
    for (PermitQueue* q : queues_) {
      q->expire();
      if (auto t = q->next_expiry(); t && (!earliest || *t < *earliest)) earliest = t;
    }
    lock.lock();
    // A wake() after the scan above set woken_, so its deadline is not missed.
    const auto ready = [this] { return stopping_ || woken_; };
    if (earliest)
      cv_.wait_until(lock, *earliest, ready);
    else
      cv_.wait(lock, ready);
  }
}

}  // namespace qg::permits
