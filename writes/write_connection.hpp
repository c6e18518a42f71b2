#pragma once
// The write tools' own connections, separate from the read path's (which stays
// read-only at every layer). SQLite: a read-write connection to the same file,
// WAL, synchronous=FULL, a busy timeout, BEGIN IMMEDIATE (one writer at a time),
// and an authorizer that lets it read the allowlisted tables and INSERT into
// the write tools' tables, nothing else. PostgreSQL: a connection as the write
// role (write_dsn_env), whose posture is checked at start-up (write_posture.hpp);
// each transaction takes an advisory lock per write tool, so a check and the
// insert that follows it cannot interleave with another call of the same tool.
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace qg::writes {

class WriteConnection {
 public:
  virtual ~WriteConnection() = default;
  // Opens the transaction; `lock` names what concurrent writers serialize on.
  virtual Status begin(const std::string& lock, exec::Deadline deadline) = 0;
  // One statement inside the transaction, with `params` bound by index ($n / ?n).
  virtual Result<exec::Rows> query(const std::string& sql, const std::vector<exec::Value>& params) = 0;
  virtual Status commit() = 0;
  virtual void rollback() = 0;  // safe to call when no transaction is open
  // "$3" on PostgreSQL, "?3" on SQLite.
  virtual std::string placeholder(int index) const = 0;
};

struct SqliteWriteOptions {
  std::filesystem::path path;
  std::set<std::string> readable_tables;  // the allowlist
  std::set<std::string> insert_tables;    // the write tools' tables
  std::set<std::string> functions;        // lower-case names the authorizer lets run
};

// Switches the file to WAL (the read path's read-only connections keep working)
// and opens one writer.
Result<std::unique_ptr<WriteConnection>> open_sqlite_writer(const SqliteWriteOptions& options);

// Opens a connection as the role in `dsn` (search_path = `schema`, TimeZone UTC).
Result<std::unique_ptr<WriteConnection>> open_postgres_writer(const std::string& dsn, const std::string& schema);

}  // namespace qg::writes
