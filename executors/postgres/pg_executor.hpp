#pragma once
// PostgreSQL backend: every statement in its own READ ONLY transaction with
// the deadline as statement_timeout, behind a plan gate, on a self-healing pool.
#include <memory>
#include <set>
#include <string>

#include "config/config.hpp"
#include "executors/executor.hpp"

namespace qg::exec {

struct PostgresOptions {
  std::string dsn;                  // resolved from dsn / dsn_env by the caller; never logged
  int connections = 4;              // one per permit
  std::set<std::string> functions;  // lower-case names the plan gate allows (from the capability table)
  std::string work_mem = "32MB";    // per sort/hash node, per statement
  // The plan gate's ceiling on a text aggregate's estimated input (limits.max_aggregate_bytes; 0: none).
  std::set<std::string> text_aggregates;
  long long max_aggregate_bytes = 0;
};

// Connects, checks the role's posture (failing closed unless
// db.allow_privileged_role), introspects the allowlisted tables and overlays
// curation. Warnings and the posture report go to stderr.
Result<std::unique_ptr<Executor>> open_postgres(const config::Database& db, PostgresOptions options);

}  // namespace qg::exec
