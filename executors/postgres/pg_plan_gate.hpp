#pragma once
// The plan gate: before a statement runs, PostgreSQL's own plan for it
// (EXPLAIN (FORMAT JSON, VERBOSE)) is read back, and every relation it scans
// (views already expanded by the server) must be an allowlisted table of the
// configured schema, and every function it calls must be one the capability
// table admits on PostgreSQL. Admission should make a violation impossible;
// when one happens anyway it is refused and reported as an admission defect.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.hpp"

namespace qg::exec::pg {

// An Aggregate or WindowAgg node: the functions its output calls, and the
// planner's estimate of its input (the rows and average width of its child).
struct AggregateInput {
  std::vector<std::string> functions;
  double rows = 0;
  double width = 0;
};

// One scan of a stored relation, with every condition that decides which of
// its rows go on: its own (Filter, Index Cond, Recheck Cond) and those of the
// joins above it (Hash Cond, Merge Cond, Join Filter; for a Nested Loop also
// the conditions inside it, where a parameterized inner scan joins it).
struct ScanFacts {
  std::string relation;  // "schema.name"
  std::string alias;     // as the plan's expressions name it (unique within one plan)
  std::vector<std::string> conditions;
  std::vector<std::string> own_conditions;  // its own only
};

struct PlanFacts {
  std::vector<std::string> relations;  // "schema.name" of every scanned relation
  std::vector<std::string> functions;  // lower-case names of called functions, schema-qualified unless pg_catalog
  // The planner's row estimate below a top-level Limit (or of the whole plan without one).
  std::optional<double> estimated_rows;
  // Citus: relations in the worker plans of a "Distributed Query" are shards,
  // named <table>_<shard id>; each must be a shard of an allowlisted table.
  std::vector<std::string> shard_relations;
  std::vector<AggregateInput> aggregates;
  std::vector<ScanFacts> scans;
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
  // Aggregates whose one value holds every input row (string_agg, array_agg,
  // json_agg ...): their input may be at most max_aggregate_bytes by the
  // planner's estimate (0: not checked). A statement's final aggregate call is
  // one call that statement_timeout cannot interrupt, and no static bound sees
  // how many rows a join makes (array_agg over a cross join: 3.3 GB, 8 s past
  // the deadline).
  std::set<std::string> text_aggregates;
  double max_aggregate_bytes = 0;
  // Tables whose row filter binds a value from the calling key (config `bind`):
  // the filter's conditions on the table's own columns. Every scan of such a
  // table must carry a condition on one of them (row_filter_violation).
  struct BoundFilter {
    std::vector<std::string> columns;
    bool subquery = false;  // the filter has IN (SELECT ...): a hashed SubPlan may carry it
  };
  std::map<std::string, BoundFilter> bound_filters;
};

// Columns a deparsed expression names as qualifier.column ("(t.project_id = 1)"),
// outside literals; each as {qualifier, column}.
std::vector<std::pair<std::string, std::string>> qualified_columns(const std::string& expression);

// The first scan of a table with a bound row filter that carries no condition
// on the filter's columns (its own or an enclosing join's), as a sentence, or
// nothing. Admission attaches the filter to every reference, so a plan without
// it is a gateway defect: the statement must not run.
std::optional<std::string> row_filter_violation(const PlanFacts& facts, const PlanPolicy& policy);

// The first text aggregate over more than policy.max_aggregate_bytes, as a
// refusal (limit:memory) with a FIX, or nothing.
std::optional<Error> aggregate_violation(const PlanFacts& facts, const PlanPolicy& policy);
// Whether the plan runs a text aggregate: its verdict depends on the estimate,
// which changes with the literals a statement shape leaves out, so it is not cached.
bool has_text_aggregate(const PlanFacts& facts, const PlanPolicy& policy);

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
