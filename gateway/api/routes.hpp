#pragma once
// The one list of HTTP routes. Api::handle dispatches on it (and builds the
// 404 FIX text and the 405 Allow header from it); the OpenAPI document is
// generated from it. A route added here is served and documented, or neither.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error_code.hpp"

namespace qg::gateway {

enum class RouteId : std::uint8_t {
  Query,
  Schema,
  Healthz,
  Readyz,
  Metrics,
  OpenApi,
  Mcp,
  Tools,
  ToolCall,
  Write,
  Checks,
  Writes
};

// Who may call a route: anyone, or (when keys are configured) a Bearer API key.
enum class Access : std::uint8_t { Open, ApiKey };

struct Route {
  RouteId id;
  std::string_view method;  // exactly one per path
  std::string_view path;
  // The name of the agent tool this route is, for tool protocols that name it
  // themselves (the MCP tool at POST /mcp, snake_case as MCP servers name
  // tools); empty for an operator route. tools/list, /openapi.json and the /v1
  // routes come from the same row. Operator routes are listed
  // in /openapi.json?audience=operator, agent tools in /openapi.json.
  std::string_view tool_name;
  // Stable: OpenAPI importers name their tools after it. Chosen to survive their
  // renaming (e.g. @ivotoby/openapi-mcp-server drops the word "execute").
  std::string_view operation_id;
  std::string_view summary;      // one line
  std::string_view description;  // for a model deciding whether and how to call it; with the
                                 // summary at most kMaxToolDescription characters (an agent tool's)
  Access access;
  std::string_view content_type;  // of the success answer
  bool served_while_draining;     // false: 503 limit:shutting-down once shutdown began
  bool logged;                    // false: a probe or scrape, answered without a log line, metrics or X-Request-Id
  // Every code this route can answer with, including those every route shares
  // (malformed HTTP, wrong method, connection limit, internal error).
  std::vector<ErrorCode> errors;
  // false: not an operation of /openapi.json (the MCP endpoint speaks
  // JSON-RPC, described by the MCP specification, not by OpenAPI).
  bool in_openapi = true;
  // true: `path` ends in "{name}", one configured tool per name (config `tools`
  // for ToolCall, config `writes` for Write): each is its own OpenAPI operation
  // (operationId = the tool's name) and its own MCP tool, all served by this one row.
  bool per_tool = false;
};

// Tool importers drop an operation whose summary and description, joined,
// exceed this (@samchon/openapi joins them as "summary.\n\ndescription").
inline constexpr std::size_t kMaxToolDescription = 1024;

inline bool is_agent_tool(const Route& r) {
  return !r.tool_name.empty();
}

std::span<const Route> all_routes();
// The route whose operation the MCP tool `name` calls, or nullptr.
const Route* find_tool(std::string_view name);
const Route& route(RouteId id);
// The route serving `path` (any method), or nullptr. A row whose path ends in
// "/{name}" (a per_tool row, a write route) serves that prefix followed by one
// non-empty segment ("/v1/tools/x").
const Route* find_route(std::string_view path);
// For a "/{name}" row: the segment `path` gives it ("" for other rows).
std::string_view path_name(const Route& route, std::string_view path);
// "/v1/tools/cost_by_model": the path of one tool of a per_tool row.
std::string tool_path(const Route& route, std::string_view name);

// "POST /v1/query, GET /v1/schema, ... or GET /openapi.json": for the 404 FIX.
std::string route_list_text();

}  // namespace qg::gateway
