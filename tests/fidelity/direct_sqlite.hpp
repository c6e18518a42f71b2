#pragma once
// The reference side: a plain read-only sqlite3 connection with SQLite's
// defaults (no authorizer, double-quoted strings allowed), as the dataset's
// authors ran their gold SQL.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace fidelity {

class DirectSqlite {
 public:
  static qg::Result<DirectSqlite> open(const std::filesystem::path& path);

  // Ordinary tables as written in sqlite_master, internal sqlite_* ones left out.
  qg::Result<std::vector<std::string>> tables();
  // Runs `sql` and reads every row, with values typed as the gateway's executor types them.
  qg::Result<qg::exec::Rows> run(const std::string& sql);

 private:
  struct Close {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
  };
  std::unique_ptr<sqlite3, Close> db_;
};

}  // namespace fidelity
