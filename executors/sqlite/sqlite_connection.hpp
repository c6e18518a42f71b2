#pragma once
// One hardened, read-only SQLite connection and the backstop state its callbacks use.
#include <memory>

#include "common/result.hpp"
#include "executors/sqlite/sqlite_backstop.hpp"
#include "executors/sqlite/sqlite_executor.hpp"
#include "executors/sqlite/sqlite_handle.hpp"
#include "executors/sqlite/sqlite_statements.hpp"

namespace qg::exec::sqlite {

// The most parameters one statement may bind (SQLITE_LIMIT_VARIABLE_NUMBER after seal).
inline constexpr int kMaxStatementParams = 100;

struct Connection {
  DbHandle db;
  Backstop backstop;          // the callbacks hold its address: Connection lives behind a unique_ptr and never moves
  StatementCache statements;  // declared after db: finalized before the connection closes
};

// Opens `options.path` read-only with query_only, defensive mode, untrusted
// schema, no extension loading, tight sqlite3_limits and the progress handler.
// The authorizer is installed later (seal), after introspection.
Result<std::unique_ptr<Connection>> open_connection(const SqliteOptions& options);

// Whether a statement on `conn` may wait on a lock another process (a
// writer) holds: yes, up to the connection's busy timeout, except in a first
// slice on the I/O thread, which must not wait at all (SQLITE_BUSY at once).
void allow_lock_waits(Connection& conn, bool allowed);

// Ends the start-up phase: installs the authorizer for `policy` (which must
// outlive the connection) and caps bound parameters at kMaxStatementParams.
void seal(Connection& conn, const Policy& policy);

}  // namespace qg::exec::sqlite
