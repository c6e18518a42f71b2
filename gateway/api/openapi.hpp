#pragma once
// The OpenAPI 3.1 document served at GET /openapi.json, which agent frameworks
// import as tools. Paths and operations come from the route list (routes.hpp),
// the error `code` enum and the documented statuses from the error-code list
// (common/error_code.hpp), so the document cannot describe a route or code the
// server does not have. The configuration adds what a caller must respect on
// this instance: database names, row and time limits, whether a key is needed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "config/config.hpp"
#include "gateway/api/routes.hpp"

namespace qg::gateway {

// Who a document is for. Agent (the default, /openapi.json): the agent tools
// only, so every importer turns exactly those into tools. Operator
// (/openapi.json?audience=operator): health, readiness, metrics and the
// document itself, which no importer should offer a model.
enum class Audience : std::uint8_t { Agent, Operator };

// "agent" / "operator" (the `audience` query parameter); nullopt otherwise.
std::optional<Audience> parse_audience(std::string_view text);

// The absolute base URL callers reach this gateway at, for `servers`: the
// `public_url` setting when set; else http:// and the request's Host header
// (with its port) when it is a plain host[:port]; else the listen address.
std::string server_url(const config::Config& config, std::string_view host_header);

// The names a per_tool route row serves, one operation and MCP tool each:
// the curated tools for POST /v1/tools/{name}, the write tools for
// POST /v1/write/{name}; empty for any other row.
std::vector<std::string> per_tool_names(const Route& route, const config::Config& config);

boost::json::object openapi_document(const config::Config& config, Audience audience, std::string_view server_url);

// The document as served: compact JSON and a newline.
std::string openapi_json(const config::Config& config, Audience audience, std::string_view server_url);

}  // namespace qg::gateway
