#include "direct_sqlite.hpp"

namespace fidelity {
namespace {

struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, Finalize>;

qg::Error engine_error(sqlite3* db) {
  return qg::make_error(qg::ErrorCode::BackendError, std::string("SQLite: ") + sqlite3_errmsg(db));
}

// Same mapping as the SQLite executor's, so the two sides compare like with like.
qg::exec::Value read_value(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return static_cast<std::int64_t>(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt, col);
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      const auto n = static_cast<std::size_t>(sqlite3_column_bytes(stmt, col));
      return qg::exec::Blob{p ? std::string(p, n) : std::string()};
    }
    default:
      return std::monostate{};
  }
}

}  // namespace

qg::Result<DirectSqlite> DirectSqlite::open(const std::filesystem::path& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  DirectSqlite out;
  out.db_.reset(raw);
  if (rc != SQLITE_OK)
    return qg::make_error(qg::ErrorCode::BackendUnavailable,
                          "cannot open " + path.string() + ": " + (raw ? sqlite3_errmsg(raw) : "out of memory"));
  // querygate's LIKE is PostgreSQL's (case-sensitive, issue #12): the reference compares case too. Gold
  // statements whose answer this changes are counted in docs/FIDELITY.md ("LIKE compares case").
  if (sqlite3_exec(raw, "PRAGMA case_sensitive_like=ON", nullptr, nullptr, nullptr) != SQLITE_OK)
    return qg::make_error(qg::ErrorCode::BackendUnavailable, "cannot set case_sensitive_like on " + path.string());
  return out;
}

qg::Result<std::vector<std::string>> DirectSqlite::tables() {
  sqlite3_stmt* raw = nullptr;
  const char* sql =
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
      "ORDER BY name";
  if (sqlite3_prepare_v2(db_.get(), sql, -1, &raw, nullptr) != SQLITE_OK) return engine_error(db_.get());
  Stmt stmt(raw);
  std::vector<std::string> out;
  int rc;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
  if (rc != SQLITE_DONE) return engine_error(db_.get());
  return out;
}

qg::Result<qg::exec::Rows> DirectSqlite::run(const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db_.get(), sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK)
    return engine_error(db_.get());
  Stmt stmt(raw);
  if (!raw) return qg::make_error(qg::ErrorCode::BackendError, "no statement in the text");
  qg::exec::Rows out;
  const int n = sqlite3_column_count(raw);
  for (int i = 0; i < n; ++i) {
    const char* name = sqlite3_column_name(raw, i);
    out.columns.push_back({name ? name : "", ""});
  }
  int rc;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
    std::vector<qg::exec::Value> row;
    row.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) row.push_back(read_value(raw, i));
    out.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return engine_error(db_.get());
  return out;
}

}  // namespace fidelity
