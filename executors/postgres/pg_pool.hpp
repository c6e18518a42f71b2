#pragma once
// A fixed set of PostgreSQL connections sized to the database's permits, that
// heals itself: a connection found broken is dropped and opened again on next
// use, and while the server is unreachable callers get BackendUnavailable at
// once (with a retry hint) instead of each waiting out a connect timeout.
// A watcher thread cancels the statement of a connection whose caller stopped
// waiting (client gone, shutdown), since libpq blocks the caller's thread.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <pqxx/connection>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace qg::exec::pg {

struct Slot {
  std::unique_ptr<pqxx::connection> conn;  // null: not connected (yet, or any more)

  // While a statement runs, the watcher may cancel it when `flag` turns true.
  // unwatch() returns only when no cancel is in progress, so the owner may then
  // close or reuse the connection.
  void watch(const std::atomic<bool>* flag);
  void unwatch();

 private:
  friend class Pool;
  std::mutex guard_;  // watched_ and the watcher's use of conn
  const std::atomic<bool>* watched_ = nullptr;
  bool cancel_sent_ = false;
};

class Pool {
 public:
  class Lease {
   public:
    Lease(Pool* pool, Slot* slot) : pool_(pool), slot_(slot) {}
    Lease(Lease&& other) noexcept : pool_(other.pool_), slot_(std::exchange(other.slot_, nullptr)) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();

    pqxx::connection& conn() const { return *slot_->conn; }
    Slot& slot() const { return *slot_; }
    // The connection can no longer be trusted (broken, or left in an unknown
    // transaction state): it is closed now and reopened on next use.
    void discard() const;
    // Opens the connection again at once (after the server restarted, say).
    Status reconnect() const;

   private:
    Pool* pool_;
    Slot* slot_;
  };

  // `dsn` is the libpq connection string; it may hold a password, so it is never
  // logged or put in an error message. `size` connections, opened lazily.
  Pool(std::string dsn, int size, std::string what);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // A connected slot, waiting for a free one until `deadline`.
  Result<Lease> borrow(Deadline deadline);

  // The hint given with BackendUnavailable ("retry in N s").
  static constexpr std::chrono::seconds kRetryAfter{2};

 private:
  Status connect(Slot& slot);
  void give_back(Slot* slot) noexcept;
  void watch_loop();

  const std::string dsn_;
  const std::string what_;  // "PostgreSQL database 'app'" for messages
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<Slot*> idle_;
  // After a failed connect, callers fail fast until this time.
  std::chrono::steady_clock::time_point down_until_{};
  std::string last_failure_;

  std::atomic<bool> stopping_{false};
  std::thread watcher_;
};

// An error for "the server cannot be reached", without the DSN.
Error unavailable_error(const std::string& what, const std::string& detail);

}  // namespace qg::exec::pg
