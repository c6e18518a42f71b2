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
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <libpq-fe.h>

#include <pqxx/connection>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace qg::exec::pg {

// libpqxx 6 has no handle accessor and no pipeline mode: its connection
// policies (the documented way to decide how a connection is made) see libpq's
// handle, so this one keeps it, for the executor's one-round-trip pipeline.
class HandlePolicy final : public pqxx::connect_direct {
 public:
  using pqxx::connect_direct::connect_direct;
  handle do_startconnect(handle orig) override { return handle_ = connect_direct::do_startconnect(orig); }
  handle do_completeconnect(handle orig) override { return handle_ = connect_direct::do_completeconnect(orig); }
  handle do_dropconnect(handle orig) noexcept override { return handle_ = connect_direct::do_dropconnect(orig); }
  handle do_disconnect(handle orig) noexcept override { return handle_ = connect_direct::do_disconnect(orig); }
  handle raw() const noexcept { return handle_; }

 private:
  handle handle_ = nullptr;
};

// pqxx::connection (basic_connection_base<connect_direct>) with the handle:
// the same construction, with HandlePolicy as its policy.
class Connection final : public pqxx::connection_base {
 public:
  explicit Connection(const std::string& options)
      : pqxx::connection_base(policy_), options_(options), policy_(options_) {
    init();
  }
  ~Connection() noexcept { close(); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  // libpq's connection; null once closed. Use it only while no pqxx transaction is open on it.
  PGconn* raw() const noexcept { return policy_.raw(); }

 private:
  std::string options_;  // before policy_, which keeps a reference to it
  HandlePolicy policy_;
};

// Server-side prepared statements of one connection, by the exact SQL text
// querygate rendered (two statements that differ only in a literal are two
// entries: the text is the statement). At most kCapacity; the least recently
// used is deallocated first. Cleared whenever the connection is (re)opened.
class PreparedStatements {
 public:
  static constexpr std::size_t kCapacity = 256;
  // The name `sql` is prepared under on this connection, or null.
  const std::string* find(const std::string& sql);
  // Records that `sql` is now prepared as the returned name; beyond capacity
  // the least recently used entry's name joins deallocations().
  std::string add(const std::string& sql);
  // A fresh name for `sql` (not yet recorded: call add() once Parse succeeded).
  std::string next_name() const { return "qg_" + std::to_string(counter_ + 1); }
  // Forgets `sql`; with `deallocate`, queues its name for DEALLOCATE (its plan
  // no longer fits: the schema moved), else it is gone from the server already.
  void evict(const std::string& sql, bool deallocate);
  void deallocate_later(std::string name) { deallocate_.push_back(std::move(name)); }
  // Names to deallocate with the next statement; taken (and cleared) by the caller.
  std::vector<std::string> take_deallocations() { return std::exchange(deallocate_, {}); }
  void clear();  // the connection is new: nothing is prepared on it
  std::size_t size() const { return by_sql_.size(); }

 private:
  std::list<std::string> lru_;  // SQL texts, front: most recently used
  std::unordered_map<std::string, std::pair<std::string, std::list<std::string>::iterator>> by_sql_;
  std::vector<std::string> deallocate_;
  std::uint64_t counter_ = 0;
};

struct Slot {
  std::unique_ptr<Connection> conn;  // null: not connected (yet, or any more)
  PreparedStatements prepared;       // on `conn`; cleared with it

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

    Connection& conn() const { return *slot_->conn; }
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
  // `session_setup` (SQL of querygate's own, may be empty) runs once on every
  // new connection: the settings every statement shares.
  Pool(std::string dsn, int size, std::string what, std::string session_setup = {});
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
  const std::string what_;
  const std::string session_setup_;  // "PostgreSQL database 'app'" for messages
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
