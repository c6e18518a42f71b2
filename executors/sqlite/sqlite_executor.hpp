#pragma once
// SQLite backend: read-only connections with every engine backstop SQLite offers.
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "config/config.hpp"
#include "executors/executor.hpp"

namespace qg::exec {

struct SqliteOptions {
  std::filesystem::path path;
  // Lower-case names of SQL functions the authorizer lets statements call
  // (derived from the capability table by the caller).
  std::set<std::string> allowed_functions;
  int max_sql_bytes = 16384;  // sqlite3_limit(SQLITE_LIMIT_SQL_LENGTH) with headroom added by the executor
  int connections = 2;        // read-only connections kept open (one per permit)
  // sqlite3_limit(SQLITE_LIMIT_LENGTH): the largest string or blob a statement may build or read.
  int max_value_bytes = 10 * 1024 * 1024;
  // sqlite3_hard_heap_limit64: the memory all of the process's SQLite may hold
  // (limits.max_sqlite_heap_bytes; 0 leaves it as it is). A value cap does not
  // bound an aggregate's accumulator: json_group_array over a cross join grew
  // the gateway to 1.15 GB before failing.
  long long max_heap_bytes = 0;
};

// Opens the database read-only, introspects the allowlisted tables and overlays
// curation. Errors name the missing file, table or curated column.
Result<std::unique_ptr<Executor>> open_sqlite(const config::Database& db, SqliteOptions options);

}  // namespace qg::exec
