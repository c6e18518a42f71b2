#include "load_control/cancel.hpp"

#include <algorithm>

namespace qg::permits {

Cancellation::Subscription& Cancellation::Subscription::operator=(Subscription&& other) noexcept {
  if (this != &other) {
    reset();
    owner_ = std::exchange(other.owner_, nullptr);
    id_ = other.id_;
  }
  return *this;
}

void Cancellation::Subscription::reset() noexcept {
  if (owner_) owner_->unsubscribe(id_);
  owner_.reset();
}

void Cancellation::cancel() {
  std::vector<std::pair<std::uint64_t, std::function<void()>>> run;
  {
    std::lock_guard lock(mu_);
    if (cancelled_.exchange(true, std::memory_order_acq_rel)) return;
    run.swap(callbacks_);
  }
  // Outside the lock: a callback may take other locks (a queue's) whose holders
  // in turn unsubscribe from here.
  for (auto& [id, fn] : run) fn();
}

Cancellation::Subscription Cancellation::subscribe(const std::shared_ptr<Cancellation>& self,
                                                   std::function<void()> fn) {
  {
    std::lock_guard lock(self->mu_);
    if (!self->cancelled()) {
      const std::uint64_t id = self->next_id_++;
      self->callbacks_.emplace_back(id, std::move(fn));
      return Subscription(self, id);
    }
  }
  fn();
  return {};
}

void Cancellation::unsubscribe(std::uint64_t id) noexcept {
  std::lock_guard lock(mu_);
  std::erase_if(callbacks_, [id](const auto& entry) { return entry.first == id; });
}

}  // namespace qg::permits
