#pragma once
// A connection's persistent prepared statements (sqlite3_prepare_v3 with
// SQLITE_PREPARE_PERSISTENT), keyed by the rendered SQL they were compiled
// from: a repeated statement skips SQLite's parse and plan. Bounded (least
// recently used first out). A statement is taken out while it runs and given
// back reset, with its bindings cleared, so no two runs share one and none
// holds a read transaction open between runs. SQLite re-prepares a statement
// whose schema moved inside sqlite3_step (under the authorizer again); the
// executor then empties the cache (see sqlite_executor.cpp).
#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "executors/sqlite/sqlite_handle.hpp"

namespace qg::exec::sqlite {

class StatementCache {
 public:
  static constexpr std::size_t kCapacity = 64;

  StatementCache() = default;
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  // The statement compiled from `sql`, taken out of the cache; null when none.
  StmtHandle take(const std::string& sql);
  // Keeps `stmt` (compiled from `sql`) for the next run, reset and with its
  // bindings cleared. Returns how many statements went out to make room.
  std::size_t give_back(std::string sql, StmtHandle stmt);
  // Finalizes every kept statement (the schema changed). Returns how many.
  std::size_t clear();

  std::size_t size() const { return lru_.size(); }

 private:
  using Entry = std::pair<std::string, StmtHandle>;
  std::list<Entry> lru_;                                                    // front: most recently used
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // views into lru_'s keys
};

}  // namespace qg::exec::sqlite
