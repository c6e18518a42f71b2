#include "executors/sqlite/sqlite_connection.hpp"
#include "admission/capability/capability.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace qg::exec::sqlite {

namespace {

// How long a reader waits on a lock held by a writer before giving up. The busy
// handler sleeps outside the progress handler, so this is kept far below any deadline.
constexpr int kBusyTimeoutMs = 200;

Error unavailable(const SqliteOptions& options, std::string what, sqlite3* db) {
  std::string message = "cannot open SQLite database '" + options.path.string() + "': " + what;
  if (db != nullptr) message += ": " + std::string(sqlite3_errmsg(db));
  return make_error(ErrorCode::BackendUnavailable, std::move(message),
                    "FIX: check that the file is a readable SQLite database and that databases[].path points at it");
}

// Turns a db_config switch and checks SQLite took it; a silently ignored
// backstop is worse than refusing to start.
bool set_flag(sqlite3* db, int op, int value) {
  int now = -1;
  return sqlite3_db_config(db, op, value, &now) == SQLITE_OK && now == value;
}

bool harden(sqlite3* db) {
  bool ok = set_flag(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0);
  // Defensive mode forbids writable_schema and other ways to corrupt the file.
  ok = ok && set_flag(db, SQLITE_DBCONFIG_DEFENSIVE, 1);
  // Triggers never fire on a read-only connection; disabling them keeps it so.
  ok = ok && set_flag(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0);
  // The two-argument fts3_tokenizer() hands out function pointers.
  ok = ok && set_flag(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
  // Views and generated columns in the file may not call functions with side effects.
  ok = ok && set_flag(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0);
#endif
#ifdef SQLITE_DBCONFIG_DQS_DML
  // A misquoted identifier must fail, not silently become a string literal.
  ok = ok && set_flag(db, SQLITE_DBCONFIG_DQS_DML, 0);
#endif
  return ok;
}

void set_limits(sqlite3* db, const SqliteOptions& options) {
  // Star expansion and schema qualification make the rendered text longer than
  // what the caller sent, hence the headroom over max_sql_bytes.
  const long long sql_bytes = std::clamp<long long>(static_cast<long long>(options.max_sql_bytes) * 4, 1024, INT_MAX);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, static_cast<int>(sql_bytes));
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, std::max(1024, options.max_value_bytes));
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 200);  // admission bounds tree depth well below this
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, capability::kSqliteCompoundSelectTerms);  // admission checks first
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  // LIKE/GLOB matching runs inside one function call, where the progress
  // handler cannot interrupt, so long patterns are the one CPU risk left.
  sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 500);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 0);
  sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);  // one statement, one thread: permits stay honest
}

}  // namespace

Result<std::unique_ptr<Connection>> open_connection(const SqliteOptions& options) {
  auto conn = std::make_unique<Connection>();
  sqlite3* raw = nullptr;
  // No SQLITE_OPEN_URI: the path is a file name, never a URI with options in it.
  const int rc = sqlite3_open_v2(options.path.c_str(), &raw,
                                 SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE, nullptr);
  conn->db.reset(raw);  // owned even on failure: a failed open still allocates a handle
  if (rc != SQLITE_OK) return unavailable(options, "open failed", conn->db.get());
  sqlite3* db = conn->db.get();
  sqlite3_extended_result_codes(db, 0);
  if (!harden(db)) return unavailable(options, "SQLite refused a hardening switch", db);
  set_limits(db, options);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // query_only is a second read-only layer on top of SQLITE_OPEN_READONLY; the
  // count proves the file really is a database before anyone relies on it.
  // case_sensitive_like: LIKE compares case as PostgreSQL's does.
  char* err = nullptr;
  const int prc =
      sqlite3_exec(db, "PRAGMA query_only=1; PRAGMA case_sensitive_like=ON; SELECT count(*) FROM sqlite_schema;",
                   nullptr, nullptr, &err);
  if (prc != SQLITE_OK) {
    std::string why = err ? err : sqlite3_errstr(prc);
    sqlite3_free(err);
    return unavailable(options, why, nullptr);
  }
  if (!register_functions(db)) return unavailable(options, "could not register percentile()/median()/printf()", db);
  install_progress_handler(db, conn->backstop);
  return conn;
}

void allow_lock_waits(Connection& conn, bool allowed) {
  sqlite3_busy_timeout(conn.db.get(), allowed ? kBusyTimeoutMs : 0);
}

void seal(Connection& conn, const Policy& policy) {
  conn.backstop.policy = &policy;
  install_authorizer(conn.db.get(), conn.backstop);
  // Rendered SQL has placeholders only for the named parameters of configured
  // SQL (row filters, tools), bound by index; a handful, never thousands.
  sqlite3_limit(conn.db.get(), SQLITE_LIMIT_VARIABLE_NUMBER, kMaxStatementParams);
}

}  // namespace qg::exec::sqlite
