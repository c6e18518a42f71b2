#pragma once
// A fixed set of connections shared by concurrent statements. Sized to the
// backend's permits, so a statement that holds a permit rarely waits here; the
// wait is still bounded by the statement's deadline.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "common/result.hpp"
#include "executors/sqlite/sqlite_connection.hpp"

namespace qg::exec::sqlite {

class Pool {
 public:
  // Gives a connection back on every path, with its backstop state cleared.
  class Lease {
   public:
    Lease(Pool* pool, std::unique_ptr<Connection> conn) : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();

    Connection& operator*() const { return *conn_; }
    Connection* operator->() const { return conn_.get(); }

   private:
    Pool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  explicit Pool(std::vector<std::unique_ptr<Connection>> connections);
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // Waits for a free connection until `deadline`; LimitDeadline when none frees up.
  Result<Lease> borrow(Deadline deadline);
  // A free connection now, or nullopt: never waits (a first slice on the I/O thread).
  std::optional<Lease> try_borrow();

 private:
  void give_back(std::unique_ptr<Connection> conn) noexcept;

  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace qg::exec::sqlite
