#pragma once
// A permit: the right to run one statement on one database. Move-only; its
// destructor gives it back, so it is returned on every path (success,
// refusal, engine error, deadline, disconnect, shutdown) without anyone
// writing a release call.
#include <utility>

#include "load_control/clock.hpp"

namespace qg::permits {

class PermitQueue;

class Permit {
 public:
  Permit() = default;  // holds nothing
  Permit(Permit&& other) noexcept
      : owner_(std::exchange(other.owner_, nullptr)), granted_at_(other.granted_at_), deadline_(other.deadline_) {}
  Permit& operator=(Permit&& other) noexcept {
    if (this != &other) {
      reset();
      owner_ = std::exchange(other.owner_, nullptr);
      granted_at_ = other.granted_at_;
      deadline_ = other.deadline_;
    }
    return *this;
  }
  Permit(const Permit&) = delete;
  Permit& operator=(const Permit&) = delete;
  ~Permit() { reset(); }

  explicit operator bool() const noexcept { return owner_ != nullptr; }
  // The request's one deadline (queue wait included); the engine gets what is left.
  TimePoint deadline() const noexcept { return deadline_; }
  TimePoint granted_at() const noexcept { return granted_at_; }

  // Gives the permit back now (e.g. once the engine is done, before the
  // response is shaped). Idempotent.
  void reset() noexcept;

 private:
  friend class PermitQueue;
  Permit(PermitQueue* owner, TimePoint granted_at, TimePoint deadline)
      : owner_(owner), granted_at_(granted_at), deadline_(deadline) {}

  PermitQueue* owner_ = nullptr;
  TimePoint granted_at_{};
  TimePoint deadline_{};
};

}  // namespace qg::permits
