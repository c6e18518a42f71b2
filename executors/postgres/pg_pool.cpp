#include "executors/postgres/pg_pool.hpp"

#include <pqxx/pqxx>

#include "executors/postgres/pg_values.hpp"

namespace qg::exec::pg {
namespace {

// libpq's connect_timeout (seconds), added unless the DSN sets its own: without
// it a connect to a host that drops packets blocks for minutes.
std::string with_connect_timeout(const std::string& dsn) {
  if (dsn.find("connect_timeout") != std::string::npos) return dsn;
  const bool url = dsn.starts_with("postgresql://") || dsn.starts_with("postgres://");
  if (!url) return dsn + (dsn.empty() ? "" : " ") + "connect_timeout=2";
  return dsn + (dsn.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=2";
}

constexpr auto kWatchInterval = std::chrono::milliseconds(20);

}  // namespace

Error unavailable_error(const std::string& what, const std::string& detail) {
  return make_error(ErrorCode::BackendUnavailable, what + " is unavailable: " + one_line(detail),
                    "FIX: retry in " + std::to_string(Pool::kRetryAfter.count()) +
                        " s; querygate reconnects by itself when the server is back.");
}

const std::string* PreparedStatements::find(const std::string& sql) {
  const auto it = by_sql_.find(sql);
  if (it == by_sql_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.second);
  return &it->second.first;
}

std::string PreparedStatements::add(const std::string& sql) {
  std::string name = next_name();
  ++counter_;
  lru_.push_front(sql);
  by_sql_[sql] = {name, lru_.begin()};
  while (by_sql_.size() > kCapacity) {
    const auto it = by_sql_.find(lru_.back());
    deallocate_.push_back(std::move(it->second.first));
    by_sql_.erase(it);
    lru_.pop_back();
  }
  return name;
}

void PreparedStatements::evict(const std::string& sql, bool deallocate) {
  const auto it = by_sql_.find(sql);
  if (it == by_sql_.end()) return;
  if (deallocate) deallocate_.push_back(std::move(it->second.first));
  lru_.erase(it->second.second);
  by_sql_.erase(it);
}

void PreparedStatements::clear() {
  lru_.clear();
  by_sql_.clear();
  deallocate_.clear();
}

void Slot::watch(const std::atomic<bool>* flag) {
  std::lock_guard lock(guard_);
  watched_ = flag;
  cancel_sent_ = false;
}

void Slot::unwatch() {
  std::lock_guard lock(guard_);
  watched_ = nullptr;
}

Pool::Lease::~Lease() {
  if (slot_ != nullptr) pool_->give_back(slot_);
}

void Pool::Lease::discard() const {
  slot_->conn.reset();
  slot_->prepared.clear();
}

Status Pool::Lease::reconnect() const {
  discard();
  return pool_->connect(*slot_);
}

Pool::Pool(std::string dsn, int size, std::string what, std::string session_setup)
    : dsn_(with_connect_timeout(dsn)), what_(std::move(what)), session_setup_(std::move(session_setup)) {
  for (int i = 0; i < std::max(1, size); ++i) {
    slots_.push_back(std::make_unique<Slot>());
    idle_.push_back(slots_.back().get());
  }
  watcher_ = std::thread([this] { watch_loop(); });
}

Pool::~Pool() {
  stopping_ = true;
  if (watcher_.joinable()) watcher_.join();
}

Status Pool::connect(Slot& slot) {
  {
    std::lock_guard lock(mutex_);
    if (std::chrono::steady_clock::now() < down_until_) return unavailable_error(what_, last_failure_);
  }
  slot.prepared.clear();  // a new connection has nothing prepared
  try {
    slot.conn = std::make_unique<Connection>(dsn_);
    // A broken connection stays broken (the pool reopens it, with the
    // session setup below): libpqxx would otherwise reopen it silently, without.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // libpqxx 6 still reactivates unless told not to
    slot.conn->inhibit_reactivation(true);
#pragma GCC diagnostic pop
    // Errors carry the primary message only: DETAIL and CONTEXT quote the
    // data unquoted ("JSON data, line 1: ..."), where exec::engine_words
    // cannot tell it from the engine's words.
    slot.conn->set_verbosity(pqxx::connection_base::terse);
    if (!session_setup_.empty()) {
      pqxx::nontransaction tx(*slot.conn);
      tx.exec(session_setup_);
    }
    return {};
  } catch (const std::exception& e) {
    slot.conn.reset();
    std::lock_guard lock(mutex_);
    last_failure_ = e.what();
    // Half the retry hint: the caller told to come back in kRetryAfter finds a fresh attempt.
    down_until_ = std::chrono::steady_clock::now() + kRetryAfter / 2;
    return unavailable_error(what_, last_failure_);
  }
}

Result<Pool::Lease> Pool::borrow(Deadline deadline) {
  Slot* slot = nullptr;
  {
    std::unique_lock lock(mutex_);
    if (!freed_.wait_until(lock, deadline, [&] { return !idle_.empty(); }))
      return make_error(ErrorCode::LimitDeadline, "no PostgreSQL connection became free before the deadline",
                        "FIX: retry later, or ask for less work per statement");
    slot = idle_.back();
    idle_.pop_back();
  }
  Lease lease(this, slot);
  if (slot->conn && !slot->conn->is_open()) lease.discard();
  if (!slot->conn)
    if (auto s = connect(*slot); !s) return s.error();
  return lease;
}

void Pool::give_back(Slot* slot) noexcept {
  slot->unwatch();
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(slot);
  }
  freed_.notify_one();
}

void Pool::watch_loop() {
  while (!stopping_) {
    std::this_thread::sleep_for(kWatchInterval);
    for (auto& slot : slots_) {
      std::lock_guard lock(slot->guard_);
      if (slot->watched_ == nullptr || !slot->watched_->load() || slot->cancel_sent_) continue;
      slot->cancel_sent_ = true;
      try {
        if (slot->conn) slot->conn->cancel_query();
      } catch (const std::exception&) {
        // Nothing to do: the statement then ends by its statement_timeout.
      }
    }
  }
}

}  // namespace qg::exec::pg
