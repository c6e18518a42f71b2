#pragma once
// The plan gate: before a statement runs, PostgreSQL's own plan for it
// (EXPLAIN (FORMAT JSON, VERBOSE)) is read back, and every relation it scans
// (views already expanded by the server) must be an allowlisted table of the
// configured schema, and every function it calls must be one the capability
// table admits on PostgreSQL. Admission should make a violation impossible;
// when one happens anyway it is refused and reported as an admission defect.
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/result.hpp"

namespace qg::exec::pg {

struct PlanFacts {
  std::vector<std::string> relations;  // "schema.name" of every scanned relation
  std::vector<std::string> functions;  // lower-case names of called functions, schema-qualified unless pg_catalog
  // The planner's row estimate below a top-level Limit (or of the whole plan without one).
  std::optional<double> estimated_rows;
  // Citus: relations in the worker plans of a "Distributed Query" are shards,
  // named <table>_<shard id>; each must be a shard of an allowlisted table.
  std::vector<std::string> shard_relations;
};

// Reads EXPLAIN (FORMAT JSON[, VERBOSE]) output. InternalError when it is not a plan.
Result<PlanFacts> read_plan(const std::string& explain_json);

// Function names in the text of a deparsed expression ("lower((t.name)::text)",
// "\"substring\"(x, 1, 2)"); casts, keywords and literals are not calls.
std::vector<std::string> called_functions(const std::string& expression);

struct PlanPolicy {
  std::string schema;
  std::set<std::string> tables;     // allowlisted relation names as the engine spells them
  std::set<std::string> functions;  // lower-case names allowed in plans
};

// The first violation as a sentence ("the plan reads pg_catalog.pg_authid"), or nothing.
std::optional<std::string> plan_violation(const PlanFacts& facts, const PlanPolicy& policy);

// Verdicts per statement shape (libpg_query fingerprint of the rendered SQL),
// so a repeated statement costs no EXPLAIN. Entries expire, so a view redefined
// behind the gateway's back is looked at again within `ttl`.
class PlanCache {
 public:
  explicit PlanCache(std::chrono::seconds ttl = std::chrono::seconds(300), std::size_t capacity = 4096)
      : ttl_(ttl), capacity_(capacity) {}
  bool admitted(const std::string& key);
  void remember_admitted(const std::string& key);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> admitted_;
  std::chrono::seconds ttl_;
  std::size_t capacity_;
};

}  // namespace qg::exec::pg
