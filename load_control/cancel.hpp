#pragma once
// Cancellation of one request, shared by whoever may end it early (the
// transport when the client disconnects, start-up when the grace period of a
// shutdown runs out) and whatever does its work (the permit queue while it
// waits, the engine while it runs).
//
// Engines poll cancelled() (SQLite's progress handler does, every few thousand
// VM steps); a queue cannot poll, so it subscribes and is called back.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace qg::permits {

class Cancellation {
 public:
  // Unsubscribes when destroyed. The callback may still be running on the
  // cancelling thread at that moment, so it must only touch objects that
  // outlive the Cancellation's users (a queue, not a request).
  class Subscription {
   public:
    Subscription() = default;
    Subscription(Subscription&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)), id_(other.id_) {}
    Subscription& operator=(Subscription&& other) noexcept;
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    ~Subscription() { reset(); }
    void reset() noexcept;

   private:
    friend class Cancellation;
    Subscription(std::shared_ptr<Cancellation> owner, std::uint64_t id) : owner_(std::move(owner)), id_(id) {}
    std::shared_ptr<Cancellation> owner_;
    std::uint64_t id_ = 0;
  };

  static std::shared_ptr<Cancellation> make() { return std::make_shared<Cancellation>(); }

  // Idempotent. Runs every subscribed callback once, on this thread, outside
  // any lock of this object.
  void cancel();
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_acquire); }
  // What an engine's poll reads; valid as long as this object lives.
  const std::atomic<bool>& flag() const noexcept { return cancelled_; }

  // Calls `fn` on cancel(); at once, on this thread, when already cancelled.
  static Subscription subscribe(const std::shared_ptr<Cancellation>& self, std::function<void()> fn);

 private:
  void unsubscribe(std::uint64_t id) noexcept;

  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::uint64_t next_id_ = 1;
  std::vector<std::pair<std::uint64_t, std::function<void()>>> callbacks_;
};

}  // namespace qg::permits
