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

enum class RouteId : std::uint8_t { Query, Schema, Healthz, Readyz, Metrics, OpenApi, Mcp };

// Who may call a route: anyone, or (when keys are configured) a Bearer API key.
enum class Access : std::uint8_t { Open, ApiKey };

struct Route {
  RouteId id;
  std::string_view method;  // exactly one per path
  std::string_view path;
  std::string_view operation_id;  // stable: agent frameworks name their tools after it
  std::string_view summary;       // one line
  std::string_view description;   // for a model deciding whether and how to call it
  Access access;
  std::string_view content_type;  // of the success answer
  bool served_while_draining;     // false: 503 limit:shutting-down once shutdown began
  bool logged;                    // false: a probe or scrape, answered without a log line, metrics or X-Request-Id
  // Every code this route can answer with, including those every route shares
  // (malformed HTTP, wrong method, connection limit, internal error).
  std::vector<ErrorCode> errors;
  // The MCP tool serving this route's operation at POST /mcp (snake_case, as
  // MCP servers name tools), or empty: not a tool. tools/list, /openapi.json
  // and the /v1 routes come from the same row.
  std::string_view mcp_tool = {};
  // false: not an operation of /openapi.json (the MCP endpoint speaks
  // JSON-RPC, described by the MCP specification, not by OpenAPI).
  bool in_openapi = true;
};

std::span<const Route> all_routes();
// The route whose operation the MCP tool `name` calls, or nullptr.
const Route* find_tool(std::string_view name);
const Route& route(RouteId id);
// The route serving `path` (any method), or nullptr.
const Route* find_route(std::string_view path);

// "POST /v1/query, GET /v1/schema, ... or GET /openapi.json": for the 404 FIX.
std::string route_list_text();

}  // namespace qg::gateway
