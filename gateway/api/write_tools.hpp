#pragma once
// Write tools (writes/, config `writes:`) as the gateway presents them: who may
// call one (the key's `writes:` scope), the caller's key bindings the tools'
// SQL reads, and the listings: each write tool's entry in GET /v1/tools (next
// to the curated tools, kind "write") and GET /v1/writes (the same entry plus
// what the tool checks). Its OpenAPI operation and MCP tool are cut from the
// route row of POST /v1/write/{name} (openapi.cpp, mcp.cpp).
#include <boost/json.hpp>
#include <string>

#include "common/result.hpp"
#include "config/config.hpp"
#include "gateway/auth/keys.hpp"
#include "writes/write_service.hpp"

namespace qg::gateway {

// auth:forbidden unless `key` may call write tool `tool` (`writes: [tool]` or
// `writes: all`); anonymous (no keys configured) may.
Status may_write(const config::Config& config, const auth::Key* key, const std::string& tool);

// The key's name and `bind:` values, for the tool's `:name` key bindings.
writes::WriteCaller write_caller(const auth::Key* key);

// One write tool as listed: name, kind "write", description, database, method, path, input_schema.
boost::json::object write_tool_entry(const config::WriteTool& tool);

// GET /v1/writes: every write tool on the key's databases, each its entry plus
// `callable` (for this key), table, derived, duplicate_key, checks, after_checks, bindings.
std::string writes_listing(const config::Config& config, const writes::WriteService* service, const auth::Key* key);

}  // namespace qg::gateway
