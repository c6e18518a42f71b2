#include "executors/sqlite/sqlite_pool.hpp"

namespace qg::exec::sqlite {

Pool::Lease::~Lease() {
  if (conn_) pool_->give_back(std::move(conn_));
}

Pool::Pool(std::vector<std::unique_ptr<Connection>> connections) : idle_(std::move(connections)) {
  // Reserve once so give_back never allocates (and so never throws).
  idle_.reserve(idle_.size());
}

Result<Pool::Lease> Pool::borrow(Deadline deadline) {
  std::unique_lock lock(mutex_);
  const auto ready = [this] { return !idle_.empty(); };
  if (deadline == Deadline::max()) {
    freed_.wait(lock, ready);
  } else if (!freed_.wait_until(lock, deadline, ready)) {
    return make_error(ErrorCode::LimitDeadline,
                      "the statement ran past its deadline while waiting for a free SQLite connection",
                      "FIX: retry in a moment, or send fewer statements at once");
  }
  auto conn = std::move(idle_.back());
  idle_.pop_back();
  return Lease(this, std::move(conn));
}

std::optional<Pool::Lease> Pool::try_borrow() {
  std::lock_guard lock(mutex_);
  if (idle_.empty()) return std::nullopt;
  auto conn = std::move(idle_.back());
  idle_.pop_back();
  return std::optional<Lease>(std::in_place, this, std::move(conn));
}

void Pool::give_back(std::unique_ptr<Connection> conn) noexcept {
  // Clear what the last statement left so no deadline or denial leaks into the next.
  conn->backstop.arm(Deadline::max());
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(conn));  // capacity reserved in the constructor
  }
  freed_.notify_one();
}

}  // namespace qg::exec::sqlite
