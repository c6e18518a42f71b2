#pragma once
// Curated tools as the gateway serves them (config `tools`, served at
// POST /v1/tools/{name}, as OpenAPI operations and MCP tools): the start-up
// check that admits every tool's statement and values_from query through the
// caller's pipeline, the live value lists of values_from parameters, and the
// GET /v1/tools listing. The call itself runs in Api's core (Api::call_tool),
// the same path as /v1/query.
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "admission/pipeline.hpp"
#include "common/result.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"
#include "gateway/auth/keys.hpp"
#include "tools/parameters.hpp"

namespace qg::gateway {

struct ServedDatabase;

// A configured statement through the caller's pipeline: the same allowlist,
// capability table, rewrites and limits. `:name` parameters are its own.
Result<AdmittedStatement> admit_configured(const std::string& sql, const tools::Parameters& parameters,
                                           const catalog::Catalog& catalog, const config::Limits& limits);

// The arguments as the engine binds them: one value per parameter of the
// admitted statement, in its order (its `$n` / `?n`); an argument not sent is NULL.
// A string longer than its parameter's byte bound (what admission's size bounds assumed) is refused.
// A row filter's `bind:<name>` parameter takes the calling key's value (gateway/api/bindings.hpp),
// never an argument: a tool's parameter names are identifiers and cannot collide with it.
Result<std::vector<exec::Value>> bind_arguments(const AdmittedStatement& statement, const tools::Arguments& arguments,
                                                const tools::Parameters& parameters, const config::Limits& limits,
                                                const auth::Key* key, const catalog::Catalog& catalog);

// Start-up: every tool's SQL and every values_from query admits on its
// database, and no tool takes the name of a built-in tool. The error names the tool.
Status check_tools(const config::Config& config, const std::map<std::string, ServedDatabase>& databases);

// The tools `key` may call, by name: "cost_by_model, error_rate" (for FIX texts).
std::string callable_tools(const config::Config& config, const auth::Key* key);

// GET /v1/tools: {"tools": [{name, kind, description, database, method, path, input_schema}]} for the tools
// `key` may call: the curated tools (kind "tool") and the write tools (kind "write", gateway/api/write_tools.hpp).
std::string tools_listing(const config::Config& config, const auth::Key* key);

// The current values of values_from parameters, cached per tool and parameter
// (and per API key when the list reads through a row filter bound from the
// key's `bind`: each tenant sees its own list, and a key without the binding
// gets 403 auth:missing-binding, as its SQL would).
// A cached list older than kTtl, or one asked for with `refresh`, is read again
// (validation refreshes once on a miss, so a value added to the data is accepted
// at once; the TTL bounds how long a removed one stays accepted).
class LiveValueLists {
 public:
  static constexpr std::chrono::seconds kTtl{30};

  // Runs spec.values_from (admitted like any statement) on `engine` when needed.
  Result<std::vector<tools::Value>> values(const std::string& tool, const tools::ParameterSpec& spec, bool refresh,
                                           const ServedDatabase& served, const config::Limits& limits,
                                           const exec::RunOptions& run, const auth::Key* key);

 private:
  struct Entry {
    std::chrono::steady_clock::time_point read;
    std::vector<tools::Value> values;
  };
  std::mutex mu_;
  std::map<std::string, Entry> lists_;  // "tool.parameter", or "tool.parameter|key" when bound
};

}  // namespace qg::gateway
