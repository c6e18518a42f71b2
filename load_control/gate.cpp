#include "load_control/gate.hpp"

#include <cassert>
#include <vector>

namespace qg::permits {

Gate::Ticket::~Ticket() {
  if (gate_ != nullptr) gate_->leave(id_);
}

Gate::~Gate() {
  assert(in_flight_.empty() && "a request outlived the gate");
}

Gate::Ticket Gate::enter(std::shared_ptr<Cancellation> cancellation) {
  std::lock_guard lock(mu_);
  const std::uint64_t id = next_id_++;
  in_flight_.emplace(id, std::move(cancellation));
  return Ticket(this, id);
}

int Gate::in_flight() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(in_flight_.size());
}

bool Gate::wait_until_empty(TimePoint deadline) {
  std::unique_lock lock(mu_);
  return empty_.wait_until(lock, deadline, [this] { return in_flight_.empty(); });
}

void Gate::cancel_all() {
  std::vector<std::shared_ptr<Cancellation>> all;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, c] : in_flight_)
      if (c) all.push_back(c);
  }
  for (auto& c : all) c->cancel();
}

void Gate::leave(std::uint64_t id) noexcept {
  std::shared_ptr<Cancellation> dropped;  // released outside the lock
  {
    std::lock_guard lock(mu_);
    auto it = in_flight_.find(id);
    if (it == in_flight_.end()) return;
    dropped = std::move(it->second);
    in_flight_.erase(it);
    if (!in_flight_.empty()) return;
  }
  empty_.notify_all();
}

}  // namespace qg::permits
