#pragma once
// Validated write tools (config `writes:`): the one entry per domain through
// which anything is ever written. querygate builds the INSERT itself from the
// configuration (identifiers from the catalog, every value bound as a
// parameter); the model only supplies arguments. Each call runs, in order:
//
//   0. key bindings: every `:name` in the tool's SQL that is neither a
//      parameter nor a set column is the calling key's `bind:` value (tenant
//      scoping, as in row filters); a key without it → 403 auth:missing-binding
//   1. parameters: the curated tools' parameter system (tools/parameters.hpp):
//      type, range, enum, values_from, pattern, length, required, `after:`
//      order, unknown names → 422 write:invalid-argument
//   2. references: each `references:` query must list the value
//      → 422 write:unknown-reference, FIX with up to 20 candidates
//   3. derived fields: `set:` expressions computed by querygate; a value the
//      model sent for one is ignored and said so in notes
//   4. duplicates: a row with the same duplicate_key exists
//      → 200 {"status":"already_exists","id":...,"affected":0}
//   5. local checks: each `checks:` query must return true
//      → 422 write:check-failed with the configured FIX
//   6. the INSERT → 201 {"status":"written","id":...,"row":{...}} with the row
//      read back from the database.
// Steps 2-6 run in one transaction on the write connection, which serializes
// the writers of a tool (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock
// per tool), so no duplicate can slip in between the check and the insert.
// Every piece of configured SQL is admitted at start-up through the read
// path's pipeline (admission/pipeline.hpp) against the database's catalog.
//
// after_checks (global constraints over what is in the database) run on demand
// (POST /v1/checks/{tool}) and return the offending rows with a FIX per check.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"
#include "writes/write_connection.hpp"

namespace qg::writes {

// What a call ended as, for the request log and querygate_writes_total{outcome}.
// A bounded set: these names and the error codes' names.
inline constexpr std::string_view kWritten = "written";
inline constexpr std::string_view kAlreadyExists = "already_exists";

struct WriteAnswer {
  int status = 201;        // 201 written, 200 already_exists
  std::string outcome;     // kWritten or kAlreadyExists
  std::string body;        // the JSON answer
  bool untrusted = false;  // the row read back holds untrusted text
};

// Who calls: the key's name (for messages) and its `bind:` values, which the
// tool's SQL reads as `:name` (a tenant can only point at its own rows).
struct WriteCaller {
  std::string key;  // empty: anonymous (no keys configured)
  std::map<std::string, exec::Value, std::less<>> bindings;
  // The key's own hidden columns (keys[i].hidden_columns): left out of the row read back, as the read
  // path leaves them out of every answer. Null: none.
  const config::HiddenColumns* hidden = nullptr;
};

struct ChecksAnswer {
  std::string body;  // {"tool":..., "passed": bool, "checks":[{name, passed, fix, columns, rows}]}
  std::int64_t violations = 0;
};

class WriteService {
 public:
  // Admits every write tool's SQL against `catalogs` (by database name), opens
  // the write connections (write_permits per database) and, on PostgreSQL,
  // checks the write role's posture. An error names the tool or database.
  static Result<std::unique_ptr<WriteService>> open(const config::Config& config,
                                                    const std::map<std::string, const catalog::Catalog*>& catalogs);
  ~WriteService();

  const config::WriteTool* find(std::string_view name) const;
  const std::vector<config::WriteTool>& tools() const { return config_.writes; }
  std::vector<std::string> names() const;

  // Steps 0-6 for one call; `body` is the JSON object of arguments.
  Result<WriteAnswer> write(const config::WriteTool& tool, std::string_view body, const WriteCaller& caller,
                            exec::Deadline deadline);
  // The tool's after_checks, judged from the database.
  Result<ChecksAnswer> run_after_checks(const config::WriteTool& tool, const WriteCaller& caller,
                                        exec::Deadline deadline);
  // The key bindings (`:name`) the tool's SQL needs, sorted.
  std::vector<std::string> bindings(const config::WriteTool& tool) const;

  struct Plan;
  struct Pool;

 private:
  WriteService() = default;
  config::Config config_;
  std::vector<std::unique_ptr<Plan>> plans_;
  std::map<std::string, std::unique_ptr<Pool>, std::less<>> pools_;  // by database
};

}  // namespace qg::writes
