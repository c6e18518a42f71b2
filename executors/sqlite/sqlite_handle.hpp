#pragma once
// Owning handles for SQLite objects, so every path (early return, error) closes
// what it opened. Move-only; a null handle is valid and does nothing.
#include <sqlite3.h>

#include <memory>

namespace qg::exec::sqlite {

struct DbCloser {
  // sqlite3_close_v2 defers the close until the last statement is finalized,
  // so destruction order between statements and the connection cannot leak.
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};

using DbHandle = std::unique_ptr<sqlite3, DbCloser>;
using StmtHandle = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

}  // namespace qg::exec::sqlite
