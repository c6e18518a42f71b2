#pragma once
// The application behind the HTTP transport: routes each request and answers
// it exactly once. Deciding what to answer is plain code over values
// (HttpRequest → HttpResponse); blocking work runs on a worker pool.
//
// A query is admitted before any of its SQL is read: the caller is
// authenticated (API keys), the body's JSON names the database, and the
// request joins that database's permit queue. Only a request holding a permit
// reaches a worker, where its SQL is parsed, admitted and run. So parsing and
// engine work are bounded by the permits, and a full queue is answered at once.
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "admission/cache/admission_cache.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"
#include "gateway/api/curated_tools.hpp"
#include "gateway/api/first_slice.hpp"
#include "gateway/api/query_request.hpp"
#include "gateway/api/request_checks.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/api/time_window_notes.hpp"
#include "gateway/api/worker_pool.hpp"
#include "gateway/auth/keys.hpp"
#include "gateway/http/http_types.hpp"
#include "load_control/clock.hpp"
#include "load_control/expiry_timer.hpp"
#include "load_control/gate.hpp"
#include "load_control/permit_queue.hpp"
#include "load_control/refusal.hpp"
#include "observability/metrics.hpp"
#include "observability/request_log.hpp"

namespace qg::gateway {

namespace mcp {
class Endpoint;
}
}  // namespace qg::gateway
namespace qg::writes {
class WriteService;
}
namespace qg::gateway {

// One configured database: its engine and the catalog admission uses (the
// engine's introspected allowlist plus curation and virtual columns).
struct ServedDatabase {
  std::unique_ptr<exec::Executor> executor;
  catalog::Catalog catalog;
  bool spotlight = false;  // wrap untrusted text in a per-response marker
};
using ServedDatabases = std::map<std::string, ServedDatabase>;

// What is known about a request once it is admitted: for logs, metrics and fairness.
struct RequestContext {
  std::string key_name;        // the API key's name; empty when no keys are configured (never the token)
  std::string remote_address;  // the client's IP
  std::string database;        // the database it runs on
  permits::TimePoint received{};
  permits::TimePoint deadline{};  // queue wait and execution together
  std::shared_ptr<permits::Cancellation> cancellation;
};

// Who makes a call, as any transport (HTTP /v1, MCP tools/call) hands it to
// the core: the key it authenticated, the client, its cancellation and the
// one record that becomes its log line and metrics.
struct Caller {
  const auth::Key* key = nullptr;  // nullptr: anonymous (no keys configured)
  std::string remote_address;
  std::shared_ptr<permits::Cancellation> cancellation;
  std::shared_ptr<observability::RequestRecord> record;
};

// A call of a curated tool (POST /v1/tools/{name}, MCP tools/call of a configured tool), as sent.
struct ToolCall {
  std::string name;
  boost::json::object arguments;
};

// What describe_schema / GET /v1/schema asks for, as sent (checked by the core).
struct SchemaCall {
  std::optional<std::string> database;
  std::string detail;
  std::string tables;
  std::string search;
};

// A call of a write tool (POST /v1/write/{name}) or of its after-checks
// (POST /v1/checks/{name}), as sent.
struct WriteCall {
  std::string tool;
  std::string body;  // the JSON object of arguments (write only)
  bool after_checks = false;
};

class Api {
 public:
  // `clock` decides deadlines and queue waits; it must outlive the Api.
  Api(config::Config config, ServedDatabases databases, int workers, const permits::Clock& clock = default_clock());
  ~Api();  // refuses what is still queued, finishes running work, joins the workers

  // The transport's Handler: answers on the worker pool (or inline when cheap).
  void handle(HttpRequest request, Reply reply);

  // Graceful shutdown. From now on new requests get 503 limit:shutting-down.
  // Requests already accepted (queued or running) may finish until `deadline`;
  // then queued ones are refused (limit:shutting-down) and running ones
  // cancelled. Returns when none is left, or a little after `deadline`.
  void drain(permits::TimePoint deadline);

  static const permits::Clock& default_clock();

  // The transport-neutral core. HTTP /v1 and MCP tools/call both come here
  // after authenticating, so database scope, permits, queue, deadline,
  // cancellation and the record are the same whichever way a call arrives.
  // The answer is the /v1 route's: its status, JSON body (or schema text) and
  // the error code as `outcome`.
  Result<const auth::Key*> authenticate(std::string_view authorization) const;
  void execute_query(QueryRequest request, Caller caller, Reply reply);
  void describe(SchemaCall call, Caller caller, Reply reply);
  // A curated tool: the key's tool scope, then the tool's database queue; on a
  // worker the arguments are validated (nothing runs when one is bad), the
  // tool's statement admitted and run with them bound, and answered with the
  // /v1/query envelope.
  void call_tool(ToolCall call, Caller caller, Reply reply);
  // Write tools: the key's scope (databases and `writes:`), the database's
  // write permits (write_permits, the same queue and deadline mechanism),
  // then writes::WriteService on a worker.
  void execute_write(WriteCall call, Caller caller, Reply reply);
  // Installs the write tools (start-up, before serving). Without it, every
  // write route answers write:unknown-tool.
  void set_writes(std::unique_ptr<writes::WriteService> writes);
  // A refusal as HTTP answers it (with WWW-Authenticate for 401, Retry-After).
  static HttpResponse refusal(const Error& error);
  const config::Config& config() const { return config_; }
  bool draining() const { return draining_; }

 private:
  struct QueryJob;

  void submit_query(HttpRequest request, Reply reply, std::shared_ptr<observability::RequestRecord> record);
  void submit_schema(const HttpRequest& request, Reply reply, std::shared_ptr<observability::RequestRecord> record);
  void submit_tool_call(HttpRequest request, std::string name, Reply reply,
                        std::shared_ptr<observability::RequestRecord> record);
  void enqueue(QueryRequest request, Caller caller, Reply reply, const config::Tool* tool,
               boost::json::object arguments);
  // `at_once`: decided inside submit, on the thread that read the request.
  void on_decision(const std::shared_ptr<QueryJob>& job, permits::Decision decision, bool at_once);
  // Answers on this thread when it can (first_slice.hpp); else why the job goes to a worker.
  std::optional<Handoff> try_first_slice(const std::shared_ptr<QueryJob>& job);
  // Nothing (the permit back in `job`) only when `first_slice` and the slice ended first.
  std::optional<HttpResponse> run_query(QueryJob& job, bool first_slice);
  HttpResponse schema(const SchemaCall& call, const config::HiddenColumns* hidden);
  HttpResponse ready();
  void submit_write(HttpRequest request, Reply reply, std::shared_ptr<observability::RequestRecord> record,
                    std::string tool, bool after_checks);
  Status may_write(const auth::Key* key, const std::string& tool) const;
  HttpResponse metrics();
  HttpResponse openapi(const HttpRequest& request, const std::string& query, const Route& route) const;
  std::optional<HttpResponse> check_schema_access(const HttpRequest& request);
  Result<ServedDatabase*> pick_database(const std::optional<std::string>& name, std::string* resolved);
  permits::RefusalContext refusal_context(const QueryJob& job) const;
  Error deadline_refusal(const QueryJob& job, const Error& engine_error);

  config::Config config_;
  ServedDatabases databases_;
  auth::KeyRing keys_;
  HostPolicy host_policy_;  // Host/Origin on a loopback listener (DNS rebinding)
  const permits::Clock& clock_;
  // Admitted caller statements (limits.admission_cache_entries); its entries
  // depend on config_ and the catalogs in databases_, which live as long as it.
  std::unique_ptr<AdmissionCache> admission_cache_;
  std::atomic<bool> draining_{false};
  // Destroyed in reverse order: workers first (their jobs hold permits and
  // tickets), then the timer, the queues and the gate those point into.
  permits::Gate gate_;
  observability::RequestLog log_;
  std::unique_ptr<observability::Metrics> metrics_;  // observed next to log_, by the same replies
  std::map<std::string, std::unique_ptr<permits::PermitQueue>, std::less<>> queues_;
  // Write tools: their service and, per database they write, the write permits.
  std::unique_ptr<writes::WriteService> writes_;
  std::map<std::string, std::unique_ptr<permits::PermitQueue>, std::less<>> write_queues_;
  std::unique_ptr<permits::ExpiryTimer> expiry_;
  LiveValueLists live_values_;          // values_from lists of the curated tools
  DataRanges data_ranges_;              // the times each table holds, for notes on time windows
  std::unique_ptr<mcp::Endpoint> mcp_;  // POST/DELETE /mcp: sessions and JSON-RPC, calling the core above
  WorkerPool workers_;
};

}  // namespace qg::gateway
