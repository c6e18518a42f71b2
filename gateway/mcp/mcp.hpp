#pragma once
// POST /mcp: the Model Context Protocol over its streamable HTTP transport
// (JSON-RPC 2.0, application/json answers, no server-sent stream).
//
// The tools are the route table's agent operations (Route::tool_name), with
// their inputSchema and outputSchema taken from the OpenAPI document the same
// routes generate, so a tool, its /v1 route and its OpenAPI operation cannot
// drift. tools/call goes to the same core as /v1 (Api::execute_query,
// Api::describe): keys, database scopes, permits, queue, deadline,
// cancellation, metrics and the request log apply unchanged. Its answer is the
// /v1 envelope as structuredContent, plus a text rendering; a refusal is
// `isError: true` with the whole error.
//
// Sessions: `initialize` opens one (Mcp-Session-Id), every later message must
// carry it, DELETE /mcp ends it. A session belongs to the key that opened it.
#include <array>
#include <memory>
#include <string_view>

#include <boost/json/array.hpp>

#include "config/config.hpp"
#include "gateway/http/http_types.hpp"
#include "observability/request_log.hpp"

namespace qg::gateway {
class Api;
}

namespace qg::gateway::mcp {

// The revisions this endpoint negotiates in `initialize`, newest first: the
// TypeScript SDK 1.32's latest and the ones before it that define streamable
// HTTP (2024-11-05 is accepted too, as the SDK still offers it).
inline constexpr std::array<std::string_view, 4> kProtocolVersions{"2025-11-25", "2025-06-18", "2025-03-26",
                                                                   "2024-11-05"};
// JSON-RPC batches: part of 2025-03-26 (and accepted by 2024-11-05), removed in 2025-06-18.
bool allows_batches(std::string_view version);

// tools/list's `tools`: one per route with an tool_name, schemas from the OpenAPI document for `config`.
// Then one per configured curated tool (config `tools`), named as configured.
boost::json::array tools(const config::Config& config);

class Endpoint {
 public:
  explicit Endpoint(Api& api);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // Any method on /mcp; Host/Origin were checked by the caller (Api::handle).
  void handle(HttpRequest request, std::shared_ptr<observability::RequestRecord> record, Reply reply);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace qg::gateway::mcp
