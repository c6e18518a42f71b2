#pragma once
// The gateway side: each gold query goes through querygate's own admission
// (qg::admit_statement) and its SQLite or PostgreSQL executor with every backstop on, the
// way the HTTP API runs a request, with limits wide enough never to truncate.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"

namespace fidelity {

struct GatewayRun {
  std::optional<qg::Error> refusal;       // admission said no
  std::string rendered;                   // the SQL the gateway printed (when admitted)
  std::vector<std::string> rewrites;      // the rewrites that fired (when admitted)
  std::optional<qg::Error> engine_error;  // admitted, but the executor failed
  qg::exec::Rows rows;                    // admitted and run
  bool truncated = false;                 // more rows than the (huge) cap: never expected
};

class GatewaySide {
 public:
  GatewaySide();

  // Opens (once per file) an executor whose allowlist is every table of the database.
  // `schema`: the PostgreSQL schema the file's tables answer to (config `schema`), as for a copy of a
  // PostgreSQL database; the config's default (public) when empty.
  qg::Result<qg::exec::Executor*> executor(const std::string& db_id, const std::filesystem::path& db_path,
                                           const std::string& schema = {});
  // PostgreSQL: opens (once per DSN) the real executor as gateway/startup.cpp
  // does, with the allowlist = every table of the one schema the role reads,
  // and that schema as the configured `schema:` (ewallet: consumer_div).
  qg::Result<qg::exec::Executor*> postgres_executor(const std::string& db_id, const std::string& dsn);

  GatewayRun run(qg::exec::Executor& executor, const std::string& sql) const;

 private:
  qg::config::Limits limits_;
  std::map<std::filesystem::path, std::unique_ptr<qg::exec::Executor>> executors_;
  std::map<std::string, std::unique_ptr<qg::exec::Executor>> pg_executors_;  // by DSN
};

}  // namespace fidelity
