#include "executors/sqlite/sqlite_statements.hpp"

namespace qg::exec::sqlite {

StmtHandle StatementCache::take(const std::string& sql) {
  const auto found = index_.find(sql);
  if (found == index_.end()) return nullptr;
  const auto at = found->second;
  index_.erase(found);
  StmtHandle stmt = std::move(at->second);
  lru_.erase(at);
  return stmt;
}

std::size_t StatementCache::give_back(std::string sql, StmtHandle stmt) {
  if (!stmt) return 0;
  sqlite3_reset(stmt.get());  // ends its read; the code is the last step's, already handled
  sqlite3_clear_bindings(stmt.get());
  if (const auto found = index_.find(sql); found != index_.end()) {  // kept meanwhile: keep one
    return 0;
  }
  lru_.emplace_front(std::move(sql), std::move(stmt));
  index_.emplace(lru_.front().first, lru_.begin());
  std::size_t evicted = 0;
  while (lru_.size() > kCapacity) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
    ++evicted;
  }
  return evicted;
}

std::size_t StatementCache::clear() {
  const std::size_t n = lru_.size();
  index_.clear();
  lru_.clear();
  return n;
}

}  // namespace qg::exec::sqlite
