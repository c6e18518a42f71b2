#include "gateway/api/api.hpp"

#include <boost/json.hpp>

#include <map>
#include <tuple>

#include "admission/params/params.hpp"
#include "admission/parse/parser.hpp"
#include "admission/pipeline.hpp"
#include "gateway/api/bindings.hpp"
#include "gateway/api/cached_admission.hpp"
#include "gateway/api/envelope.hpp"
#include "gateway/api/json_writer.hpp"
#include "gateway/api/openapi.hpp"
#include "gateway/api/query_request.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/api/schema_text.hpp"
#include "gateway/api/write_tools.hpp"
#include "gateway/mcp/mcp.hpp"
#include "observability/build_info.hpp"
#include "writes/write_service.hpp"

namespace qg::gateway {
namespace {

struct Target {
  std::string path;
  std::string query;
};

Target split_target(const std::string& target) {
  const auto q = target.find('?');
  if (q == std::string::npos) return {target, {}};
  return {target.substr(0, q), target.substr(q + 1)};
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

using QueryParams = std::map<std::string, std::string, std::less<>>;

// The query string's parameters, decoded. A parameter given twice is refused,
// as a JSON field named twice is: taking the first (or the last) would let two
// readers of one URL (a proxy, a log, the access check) see different values.
Result<QueryParams> query_params(const std::string& query) {
  QueryParams params;
  std::size_t start = 0;
  while (start <= query.size()) {
    const auto end = std::min(query.find('&', start), query.size());
    const std::string_view pair(query.data() + start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    std::string key = url_decode(pair.substr(0, eq));
    if (params.contains(key))
      return make_error(ErrorCode::RequestDuplicateField, "query parameter '" + key + "' appears more than once",
                        "FIX: send each query parameter once, e.g. ?" + key + "=...");
    params.emplace(std::move(key), eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1)));
  }
  return params;
}

std::optional<std::string> param(const QueryParams& params, std::string_view key) {
  const auto it = params.find(key);
  if (it == params.end()) return std::nullopt;
  return it->second;
}

HttpResponse json_response(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// Headers that go with some refusals: Retry-After with 429 and 503 (seconds),
// WWW-Authenticate with 401 (RFC 6750).
HttpResponse refusal_response(const Error& error, std::chrono::seconds retry_after = std::chrono::seconds(0)) {
  HttpResponse r = error_response(error);
  if (retry_after.count() > 0) r.headers.emplace_back("Retry-After", std::to_string(retry_after.count()));
  if (error.code == ErrorCode::AuthMissing) r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"querygate\"");
  if (error.code == ErrorCode::AuthInvalid)
    r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"querygate\", error=\"invalid_token\"");
  return r;
}

HttpResponse shutting_down() {
  return refusal_response(
      make_error(ErrorCode::LimitShuttingDown, "querygate is shutting down and takes no new requests",
                 "FIX: send the request again after the Retry-After delay, to a running instance"),
      std::chrono::seconds(1));
}

std::optional<HttpResponse> wrong_method(const HttpRequest& request, const std::string& path, std::string_view method) {
  if (request.method == method) return std::nullopt;
  HttpResponse r =
      error_response(make_error(ErrorCode::RequestMethodNotAllowed, request.method + " " + path + " is not supported",
                                "FIX: use " + std::string(method) + " " + path + "."));
  r.headers.emplace_back("Allow", std::string(method));
  return r;
}

std::chrono::milliseconds ms_between(permits::TimePoint from, permits::TimePoint to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from);
}

// After a drain's deadline, running statements are cancelled; the SQLite
// progress handler notices within milliseconds. This bounds the wait for them.
constexpr std::chrono::seconds kCancelledWorkBound{2};

// Retry-After for backend:unavailable; matches the executors' "retry in 2 s".
constexpr std::chrono::seconds kBackendRetryAfter{2};

// limits.refuse_blobs: the first column holding a binary value, named, with
// what to select instead.
std::optional<Error> binary_value_refusal(const exec::Rows& rows, Dialect dialect) {
  for (const auto& row : rows.rows)
    for (std::size_t c = 0; c < row.size() && c < rows.columns.size(); ++c)
      if (std::holds_alternative<exec::Blob>(row[c])) {
        const std::string& name = rows.columns[c].name;
        return make_error(ErrorCode::LimitBinaryValue,
                          "column '" + name +
                              "' holds binary data, and this gateway is configured to refuse binary "
                              "values (limits.refuse_blobs)",
                          "FIX: leave " + name + " out of the select list, or select length(" + name +
                              ") for its size" +
                              (dialect == Dialect::Sqlite ? " or hex(" + name + ") for its bytes as text" : "") + ".");
      }
  return std::nullopt;
}

}  // namespace

// One query from acceptance to answer. Shared by the queue's callback and the
// worker that runs it; the reply closure holds the request's Gate ticket.
struct Api::QueryJob {
  std::shared_ptr<observability::RequestRecord> record;  // filled as the query goes, written with the reply
  QueryRequest request;
  const config::Tool* tool = nullptr;  // a curated tool's call: request.sql is its statement
  boost::json::object arguments;       // the tool's arguments as sent, validated on the worker
  RequestContext context;
  ServedDatabase* served = nullptr;
  const auth::Key* key = nullptr;  // the caller's (KeyRing outlives every job); nullptr: anonymous
  permits::PermitQueue* queue = nullptr;
  Reply reply;
  permits::Permit permit;  // set when granted; moved into the worker's scope
  // Found in the admission cache on the I/O thread (first_slice.hpp); else admitted on the worker.
  std::shared_ptr<const CachedAdmission> admitted;
  exec::RunStats::SliceEnd slice_end = exec::RunStats::SliceEnd::None;  // how a first slice ended without an answer
};

const permits::Clock& Api::default_clock() {
  static const permits::SteadyClock clock;  // stateless: reads std::chrono::steady_clock
  return clock;
}

Api::Api(config::Config config, ServedDatabases databases, int workers, const permits::Clock& clock)
    : config_(std::move(config)),
      databases_(std::move(databases)),
      keys_(config_.keys),
      host_policy_(host_policy(config_.listen_host, config_.allowed_hosts)),
      clock_(clock),
      admission_cache_(
          std::make_unique<AdmissionCache>(static_cast<std::size_t>(config_.limits.admission_cache_entries))),
      workers_(workers) {
  std::vector<permits::PermitQueue*> all;
  for (const auto& [name, served] : databases_) {
    const config::Database* db = config_.find_database(name);
    permits::QueueOptions options;
    if (db != nullptr) options = {.permits = db->permits, .queue_depth = db->queue_depth};
    auto queue = std::make_unique<permits::PermitQueue>(options, clock_);
    all.push_back(queue.get());
    queues_.emplace(name, std::move(queue));
  }
  // The write tools' permits: their own, per database they write (write_permits, default 1).
  for (const auto& tool : config_.writes) {
    if (write_queues_.contains(tool.database)) continue;
    const config::Database* db = config_.find_database(tool.database);
    if (db == nullptr) continue;
    auto queue = std::make_unique<permits::PermitQueue>(
        permits::QueueOptions{.permits = db->write_permits, .queue_depth = db->write_queue_depth}, clock_);
    all.push_back(queue.get());
    write_queues_.emplace(tool.database, std::move(queue));
  }
  expiry_ = std::make_unique<permits::ExpiryTimer>(std::move(all));
  observability::MetricsSetup metrics{.version = std::string(observability::build_version()),
                                      .commit = std::string(observability::build_commit())};
  for (const auto& [name, served] : databases_) metrics.databases.push_back(name);
  for (const Route& r : all_routes()) metrics.routes.emplace_back(r.path);
  for (const auto& tool : config_.writes) metrics.write_tools.push_back(tool.name);
  metrics_ = std::make_unique<observability::Metrics>(std::move(metrics));
  mcp_ = std::make_unique<mcp::Endpoint>(*this);
}

Api::~Api() {
  // Waiters are answered (to connections that are gone by now); granted
  // permits come back as the workers finish, before the queues are destroyed.
  for (auto& [name, queue] : queues_) queue->close();
  for (auto& [name, queue] : write_queues_) queue->close();
}

void Api::set_writes(std::unique_ptr<writes::WriteService> writes) {
  writes_ = std::move(writes);
}

// Dispatch goes by the route list (routes.hpp), which the OpenAPI document is
// generated from: a path, its one method and whether it is logged live there.
void Api::handle(HttpRequest request, Reply reply) {
  const Target t = split_target(request.target);
  const Route* route = find_route(t.path);
  // On a loopback listener, first of all: is this request addressed to us (DNS rebinding)?
  const Status addressed = check_host_and_origin(host_policy_, request.header("host"), request.header("origin"));
  // /healthz and /metrics: a probe's or a scraper's polling is neither logged nor counted.
  if (route && !route->logged) {
    if (!addressed) return reply(error_response(addressed.error()));
    if (auto r = wrong_method(request, t.path, route->method)) return reply(*r);
    return reply(route->id == RouteId::Metrics ? metrics() : json_response(200, "{\"status\":\"ok\"}\n"));
  }
  // From here on the request counts as in flight until its reply closure is gone.
  if (!request.cancellation) request.cancellation = permits::Cancellation::make();
  auto ticket = std::make_shared<permits::Gate::Ticket>(gate_.enter(request.cancellation));
  // Every answer from here on is logged as one line and carries the request id.
  auto record = std::make_shared<observability::RequestRecord>();
  record->request_id = observability::request_id_from(request.header("x-request-id"));
  record->method = request.method;
  // A call of a named tool is counted under its route's template: label values stay a fixed set.
  record->route = route && route->path.ends_with("/{name}") ? std::string(route->path) : t.path;
  const auto started = std::chrono::steady_clock::now();
  reply = [this, ticket, record, started, reply = std::move(reply)](HttpResponse r) {
    r.headers.emplace_back("X-Request-Id", record->request_id);
    record->status = r.status;
    record->outcome = r.outcome;
    record->bytes = r.body.size();
    record->elapsed = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    record->duration = std::chrono::duration_cast<std::chrono::milliseconds>(record->elapsed);
    log_.write(*record);
    metrics_->observe(*record);
    reply(std::move(r));
  };

  if (!addressed) return reply(error_response(addressed.error()));
  if (!route)
    return reply(error_response(
        make_error(ErrorCode::RequestNotFound, "no route " + t.path, "FIX: use " + route_list_text() + ".")));
  // The MCP endpoint answers its own methods (POST, DELETE; GET is 405 there).
  if (route->id != RouteId::Mcp)
    if (auto r = wrong_method(request, t.path, route->method)) return reply(*r);
  if (draining_ && !route->served_while_draining) return reply(shutting_down());
  switch (route->id) {
    case RouteId::Readyz:
      return workers_.post([this, reply] { reply(ready()); });
    case RouteId::OpenApi:
      return reply(openapi(request, t.query, *route));
    case RouteId::Query:
      return submit_query(std::move(request), std::move(reply), std::move(record));
    case RouteId::Schema:
      return submit_schema(request, std::move(reply), std::move(record));
    case RouteId::Mcp:
      return mcp_->handle(std::move(request), std::move(record), std::move(reply));
    case RouteId::Tools: {
      auto key = authenticate(request.header("authorization"));
      if (!key) return reply(refusal_response(key.error()));
      if (*key) record->key = (*key)->name;
      return reply(json_response(200, tools_listing(config_, *key)));
    }
    case RouteId::ToolCall: {
      std::string name(path_name(*route, t.path));
      return submit_tool_call(std::move(request), std::move(name), std::move(reply), std::move(record));
    }
    case RouteId::Write:
    case RouteId::Checks: {
      std::string name(path_name(*route, t.path));
      return submit_write(std::move(request), std::move(reply), std::move(record), std::move(name),
                          route->id == RouteId::Checks);
    }
    case RouteId::Writes: {
      auto key = authenticate(request.header("authorization"));
      if (!key) return reply(refusal_response(key.error()));
      if (*key) record->key = (*key)->name;
      return reply(json_response(200, writes_listing(config_, writes_.get(), *key)));
    }
    case RouteId::Healthz:
    case RouteId::Metrics:
      break;  // answered above, unlogged
  }
}

// GET /openapi.json[?audience=operator]: generated from the route and
// error-code lists, with this request's absolute server URL.
HttpResponse Api::openapi(const HttpRequest& request, const std::string& query, const Route& route) const {
  const auto params = query_params(query);
  if (!params) return error_response(params.error());
  const auto wanted = param(*params, "audience");
  const auto audience = parse_audience(wanted.value_or("agent"));
  if (!audience)
    return error_response(make_error(ErrorCode::RequestBadField, "unknown audience '" + wanted->substr(0, 64) + "'",
                                     "FIX: use GET /openapi.json for the agent tools, or GET "
                                     "/openapi.json?audience=operator for the operator routes."));
  HttpResponse r = json_response(200, openapi_json(config_, *audience, server_url(config_, request.header("host"))));
  r.content_type = std::string(route.content_type);
  return r;
}

// On the I/O thread, and cheap: authentication, the JSON envelope (bounded by
// the body limit) and the queue's decision. The SQL is not looked at here.
void Api::submit_query(HttpRequest request, Reply reply, std::shared_ptr<observability::RequestRecord> record) {
  // A browser can send text/plain or a form without a CORS preflight; application/json it cannot.
  if (auto json = check_json_content_type(request.header("content-type")); !json)
    return reply(error_response(json.error()));
  auto key = authenticate(request.header("authorization"));
  if (!key) return reply(refusal_response(key.error()));
  if (*key) record->key = (*key)->name;
  auto parsed = parse_query_request(request.body, config_.limits.deadline_ms);
  if (!parsed) return reply(error_response(parsed.error()));
  execute_query(std::move(parsed).value(),
                Caller{.key = *key,
                       .remote_address = request.remote_address,
                       .cancellation = request.cancellation,
                       .record = std::move(record)},
                std::move(reply));
}

// POST /v1/tools/{name}: the body is the JSON object of the tool's arguments.
void Api::submit_tool_call(HttpRequest request, std::string name, Reply reply,
                           std::shared_ptr<observability::RequestRecord> record) {
  if (auto json = check_json_content_type(request.header("content-type")); !json)
    return reply(error_response(json.error()));
  auto key = authenticate(request.header("authorization"));
  if (!key) return reply(refusal_response(key.error()));
  if (*key) record->key = (*key)->name;
  const std::string shape =
      "FIX: send the tool's arguments as one JSON object, e.g. {\"days\": 7}; {} when it "
      "takes none. GET /v1/tools lists each tool's parameters.";
  boost::system::error_code ec;
  const boost::json::value body = boost::json::parse(request.body.empty() ? "{}" : request.body, ec);
  if (ec)
    return reply(error_response(make_error(ErrorCode::RequestBadJson, "the request body is not valid JSON", shape)));
  if (!body.is_object())
    return reply(
        error_response(make_error(ErrorCode::RequestBadJson, "the request body must be a JSON object", shape)));
  if (auto twice = duplicated_json_key(request.body))
    return reply(
        error_response(make_error(ErrorCode::RequestDuplicateField, "argument '" + *twice + "' appears more than once",
                                  "FIX: send each argument once.")));
  call_tool(ToolCall{.name = std::move(name), .arguments = body.as_object()},
            Caller{.key = *key,
                   .remote_address = request.remote_address,
                   .cancellation = request.cancellation,
                   .record = std::move(record)},
            std::move(reply));
}

void Api::call_tool(ToolCall call, Caller caller, Reply reply) {
  if (caller.key) caller.record->key = caller.key->name;
  const config::Tool* tool = config_.find_tool(call.name);
  // A tool that exists but is not this key's is refused as such (403), naming the tools it may call.
  if (tool != nullptr) {
    caller.record->database = tool->database;
    if (auto allowed = keys_.authorize_tool(caller.key, tool->name, tool->database); !allowed)
      return reply(refusal_response(allowed.error()));
    QueryRequest request;
    // For the log and the fingerprint: the statement as the engine gets it ($n where :name was).
    auto positional = params::to_positional(tool->sql);
    request.sql = positional ? std::move(positional->text) : tool->sql;
    request.database = tool->database;
    return enqueue(std::move(request), std::move(caller), std::move(reply), tool, std::move(call.arguments));
  }
  std::vector<std::string> names;
  for (const config::Tool& t : config_.tools)
    if (auth::KeyRing::may_call(caller.key, t.name, t.database)) names.push_back(t.name);
  const auto close = catalog::closest_names(call.name, names, 1);
  const std::string listed = callable_tools(config_, caller.key);
  reply(error_response(make_error(
      ErrorCode::RequestNotFound, "no tool named '" + call.name.substr(0, 64) + "'",
      "FIX: " + (close.empty() ? std::string() : "did you mean '" + close.front() + "'? ") +
          (listed.empty() ? "this key may call no tool." : "call one of: " + listed + " (GET /v1/tools)."))));
}

Result<const auth::Key*> Api::authenticate(std::string_view authorization) const {
  return keys_.authenticate(authorization);
}

HttpResponse Api::refusal(const Error& error) {
  return refusal_response(error);
}

// From any transport, on the I/O thread: the database and the key's scope,
// then the database's queue. The SQL is not looked at here.
void Api::execute_query(QueryRequest request, Caller caller, Reply reply) {
  if (caller.key) caller.record->key = caller.key->name;
  if (auto sql = auth::KeyRing::authorize_sql(caller.key, callable_tools(config_, caller.key)); !sql)
    return reply(refusal_response(sql.error()));
  enqueue(std::move(request), std::move(caller), std::move(reply), nullptr, {});
}

// The database, the key's scope and the database's queue: the same for SQL and tool calls.
void Api::enqueue(QueryRequest request, Caller caller, Reply reply, const config::Tool* tool,
                  boost::json::object arguments) {
  const auto& record = caller.record;
  std::string db_name;
  auto database = pick_database(request.database, &db_name);
  if (!database) return reply(error_response(database.error()));
  record->database = db_name;
  if (auto allowed = keys_.authorize(caller.key, db_name); !allowed) return reply(refusal_response(allowed.error()));

  auto job = std::make_shared<QueryJob>();
  job->record = std::move(caller.record);
  job->context.key_name = caller.key ? caller.key->name : std::string();
  job->context.remote_address = caller.remote_address;
  job->context.database = db_name;
  job->context.received = clock_.now();
  job->context.deadline =
      job->context.received + std::chrono::milliseconds(request.timeout_ms.value_or(config_.limits.deadline_ms));
  job->context.cancellation = caller.cancellation ? caller.cancellation : permits::Cancellation::make();
  job->request = std::move(request);
  job->tool = tool;
  job->arguments = std::move(arguments);
  job->served = *database;
  job->key = caller.key;
  job->queue = queues_.find(db_name)->second.get();
  job->reply = std::move(reply);

  // Waiters take turns by API key; without keys (or as the anonymous key), by client address.
  const std::string fairness = job->context.key_name.empty() || job->key->anonymous
                                   ? "addr:" + job->context.remote_address
                                   : "key:" + job->context.key_name;
  auto decided = job->queue->submit(fairness, job->context.deadline, job->context.cancellation,
                                    [this, job](permits::Decision d) { on_decision(job, std::move(d), false); });
  if (decided)
    on_decision(job, std::move(*decided), true);
  else
    expiry_->wake();  // its deadline may be the earliest now
}

// Called once per query: at submit, or later by whoever decided its turn.
void Api::on_decision(const std::shared_ptr<QueryJob>& job, permits::Decision decision, bool at_once) {
  if (auto* denied = std::get_if<permits::Denied>(&decision)) {
    const Error error = permits::refusal_error(*denied, refusal_context(*job));
    const bool retry = denied->reason == permits::Refusal::QueueFull || denied->reason == permits::Refusal::Closed;
    return job->reply(refusal_response(error, retry ? denied->retry_after : std::chrono::seconds(0)));
  }
  job->permit = std::move(std::get<permits::Permit>(decision));
  if (job->served->executor->runs_in_slices()) {
    const std::optional<Handoff> why = at_once ? try_first_slice(job) : Handoff::PermitWaited;
    if (!why) return;  // answered on this thread
    job->record->handoff = std::string(handoff_reason(*why));
  }
  workers_.post([this, job] {
    auto answer = run_query(*job, false);  // a worker's run always answers
    job->reply(answer ? std::move(*answer)
                      : error_response(make_error(ErrorCode::Internal, "the statement ended without an answer")));
  });
}

// On the thread that read the request, holding a permit granted at once
// (first_slice.hpp): a caller's SQL statement whose admission is cached and
// whose last run was cheap runs here, as a first slice.
std::optional<Handoff> Api::try_first_slice(const std::shared_ptr<QueryJob>& job) {
  if (job->tool != nullptr) return Handoff::ToolCall;
  if (job->request.validate_only) return Handoff::ValidateOnly;
  job->admitted = find_admitted(admission_cache_.get(), job->request, job->key, job->context.database);
  if (!job->admitted) return Handoff::NotAdmitted;
  // A time window's note reads the table's range (time_window_notes.hpp): more than a slice's work.
  if (!expected_cheap(*job->admitted) || !job->admitted->statement.admission.windows.empty()) return Handoff::NotCheap;
  std::optional<HttpResponse> answer;
  try {
    answer = run_query(*job, true);
  } catch (...) {  // e.g. allocation failure; the permit went back as the stack unwound
    answer = error_response(make_error(ErrorCode::Internal, "the statement failed on the I/O thread",
                                       "FIX: retry the request; if it keeps failing, report it to the operator"));
  }
  if (!answer)
    return job->slice_end == exec::RunStats::SliceEnd::Exhausted ? Handoff::SliceExhausted : Handoff::EngineBusy;
  job->reply(std::move(*answer));
  return std::nullopt;
}

permits::RefusalContext Api::refusal_context(const QueryJob& job) const {
  const permits::QueueStats stats = job.queue->stats();
  return permits::RefusalContext{
      .database = job.context.database,
      .permits = stats.permits,
      .queue_depth = stats.queue_depth,
      .waited = ms_between(job.context.received, clock_.now()),
      .budget = ms_between(job.context.received, job.context.deadline),
      .max_budget = std::chrono::milliseconds(config_.limits.deadline_ms),
  };
}

// The deadline covers the wait for a permit. When the wait took more of it
// than the run, the statement is not what to change: say the database was
// busy, and count it with the requests whose deadline passed in the queue.
Error Api::deadline_refusal(const QueryJob& job, const Error& engine_error) {
  const auto waited = job.record->queue_wait.value_or(std::chrono::milliseconds(0));
  const auto ran = std::chrono::duration_cast<std::chrono::milliseconds>(
      job.record->execution.value_or(std::chrono::microseconds(0)));
  if (waited <= ran) return engine_error;
  job.queue->note_expired_after_grant();
  permits::RefusalContext context = refusal_context(job);
  context.waited = waited;
  return permits::deadline_spent_waiting(context, ran);
}

// Holding a permit, on a worker (or on the I/O thread as a first slice): the
// whole pipeline for one statement.
std::optional<HttpResponse> Api::run_query(QueryJob& job, bool first_slice) {
  permits::Permit permit = std::move(job.permit);  // given back on every path out of here (but a slice's end)
  const RequestContext& ctx = job.context;
  if (ctx.cancellation->cancelled())
    return error_response(draining_ ? make_error(ErrorCode::LimitShuttingDown, "querygate is shutting down")
                                    : make_error(ErrorCode::RequestCancelled, "the client disconnected"));
  if (clock_.now() >= ctx.deadline) {
    job.queue->note_expired_after_grant();
    return error_response(permits::expired_before_start(refusal_context(job)));
  }

  job.record->queue_wait = ms_between(ctx.received, clock_.now());
  if (config_.log_sql) job.record->sql = job.request.sql;
  exec::Executor& engine = *job.served->executor;
  // The request's one fingerprint (log, plan gate, prepared statements) comes
  // with its admission: computed on a cache miss, kept with the cached entry.
  std::shared_ptr<const CachedAdmission> admitted;
  if (job.tool != nullptr) {
    // A tool's statement is the operator's, admitted like a caller's (it was at start-up too).
    job.record->fingerprint = parse::fingerprint(job.request.sql);
    auto configured = admit_configured(job.tool->sql, job.tool->parameters, job.served->catalog, config_.limits);
    if (!configured) return error_response(configured.error());
    admitted = std::make_shared<const CachedAdmission>(CachedAdmission{
        .statement = std::move(configured).value(), .fingerprint = job.record->fingerprint, .last_run = {}});
  } else if (job.admitted) {  // found in the admission cache on the I/O thread
    job.record->fingerprint = job.admitted->fingerprint;
    job.record->admission_cache_hit = true;
    admitted = job.admitted;
  } else {
    CacheOutcome cache;
    auto found = admit_cached(admission_cache_.get(), job.request, job.key, ctx.database, job.served->catalog,
                              config_.limits, cache);
    job.record->fingerprint = std::move(cache.fingerprint);
    if (cache.looked_up) job.record->admission_cache_hit = cache.hit;
    if (!found) return error_response(found.error());
    admitted = std::move(found).value();
  }
  const AdmittedStatement* statement = &admitted->statement;
  job.record->rewrites = statement->rewrites;
  // The statement's parameters in `$` order: row filters' from the key's
  // `bind` (never from the request), a tool's from its checked arguments.
  Result<std::vector<exec::Value>> bound = std::vector<exec::Value>{};
  if (job.tool != nullptr) {
    // Before anything of the tool runs: every argument checked. A values_from
    // list is read (under this permit and deadline) only when a parameter has one.
    exec::RunOptions lookup;
    lookup.deadline = ctx.deadline;
    lookup.cancelled = &ctx.cancellation->flag();
    const config::Tool& tool = *job.tool;
    const tools::LiveValues live = [&](const tools::ParameterSpec& spec, bool refresh) {
      return live_values_.values(tool.name, spec, refresh, *job.served, config_.limits, lookup, job.key);
    };
    auto arguments = tools::validate_arguments(tool.parameters, job.arguments, "tool '" + tool.name + "'", live);
    if (!arguments) {
      if (arguments.error().code == ErrorCode::LimitDeadline)
        return error_response(deadline_refusal(job, arguments.error()));
      return error_response(arguments.error());
    }
    bound = bind_arguments(*statement, *arguments, tool.parameters, config_.limits, job.key, job.served->catalog);
  } else {
    bound = key_bindings(statement->param_names, job.key, job.served->catalog);
  }
  if (!bound) return refusal_response(bound.error());

  exec::Rows rows;
  const auto engine_started = std::chrono::steady_clock::now();
  const auto engine_done = [&] {
    job.record->execution =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - engine_started);
    job.record->ran_on = first_slice ? "io_thread" : "worker";
  };
  if (job.request.validate_only) {
    auto columns = engine.prepare(statement->sql, ctx.deadline, *bound);
    engine_done();
    if (!columns)
      return error_response(columns.error().code == ErrorCode::LimitDeadline ? deadline_refusal(job, columns.error())
                                                                             : columns.error());
    rows.columns = std::move(columns).value();
    // PostgreSQL's names and, where admission knows them, types, as a run answers them (RunOptions::columns):
    // SQLite names an expression by its text and types a column by its declaration.
    const auto& named = statement->admission.columns;
    if (job.served->catalog.dialect == Dialect::Sqlite && named.size() == rows.columns.size())
      for (std::size_t i = 0; i < named.size(); ++i) {
        rows.columns[i].name = named[i].name;
        if (!named[i].type.empty() && !named[i].timestamp) rows.columns[i].type = named[i].type;
      }
  } else {
    exec::RunOptions options;
    options.deadline = ctx.deadline;  // what is left of the request's one deadline
    options.cancelled = &ctx.cancellation->flag();
    options.shape = job.record->fingerprint;    // computed above for the log: no second parse
    options.params = std::move(bound).value();  // bound by index, as data
    options.max_rows = statement->limit.detect_truncation ? statement->limit.row_cap + 1 : statement->limit.row_cap;
    options.columns = &statement->admission.columns;
    exec::RunStats stats;
    options.stats = &stats;
    if (first_slice) options.slice_steps = kSliceSteps;
    auto result = engine.run(statement->sql, options);
    engine_done();
    if (engine.runs_in_slices() && job.tool == nullptr)
      remember_run(*admitted, stats, *job.record->execution, result.has_value());
    if (stats.slice_end != exec::RunStats::SliceEnd::None) {  // nothing was answered: a worker runs it again
      job.slice_end = stats.slice_end;
      job.record->queue_wait.reset();  // the record tells of the worker's run only
      job.record->execution.reset();
      job.record->ran_on.clear();
      job.permit = std::move(permit);
      return std::nullopt;
    }
    job.record->engine_round_trips = stats.round_trips;
    job.record->prepared = stats.prepared_reused ? "reused" : stats.prepared_parsed ? "parsed" : "";
    job.record->prepared_evicted = stats.prepared_evicted;
    if (!result) {
      if (result.error().code == ErrorCode::RequestCancelled && draining_)
        return refusal_response(make_error(ErrorCode::LimitShuttingDown,
                                           "querygate is shutting down; the statement was cancelled after the "
                                           "grace period",
                                           "FIX: send it again after the Retry-After delay, to a running instance"),
                                std::chrono::seconds(1));
      // An unreachable database says when to come back, as the FIX does.
      if (result.error().code == ErrorCode::BackendUnavailable)
        return refusal_response(result.error(), kBackendRetryAfter);
      if (result.error().code == ErrorCode::LimitDeadline) return error_response(deadline_refusal(job, result.error()));
      return error_response(result.error());
    }
    rows = std::move(result).value();
  }
  std::vector<std::string> run_notes;
  if (!job.request.validate_only && !statement->admission.windows.empty())
    run_notes = data_ranges_.notes(*statement, rows.rows.size(),
                                   DataRanges::Context{.database = ctx.database,
                                                       .engine = engine,
                                                       .catalog = job.served->catalog,
                                                       .limits = config_.limits,
                                                       .key = job.key,
                                                       .deadline = ctx.deadline,
                                                       .cancelled = &ctx.cancellation->flag()});
  permit.reset();  // the engine is done; shaping the answer needs no permit
  if (config_.limits.refuse_blobs)
    if (auto refused = binary_value_refusal(rows, job.served->catalog.dialect)) return error_response(*refused);
  EnvelopeInput in{job.request.sql, statement, &rows, &config_.limits, &job.served->catalog};
  in.hidden = job.key ? &job.key->hidden_columns : nullptr;
  in.validated = job.request.validate_only;
  in.run_notes = std::move(run_notes);
  if (job.served->spotlight) in.spotlight_marker = new_spotlight_marker();
  EnvelopeFacts facts;
  in.facts = &facts;
  std::string body = build_envelope(in);
  job.record->rows = static_cast<std::int64_t>(facts.rows_written);  // the byte cap may have stopped earlier
  job.record->truncated_by = facts.truncated_by;
  job.record->cells_cut = facts.cells_cut;
  job.record->untrusted_rows = static_cast<std::int64_t>(facts.untrusted_rows);
  return json_response(200, std::move(body));
}

void Api::submit_schema(const HttpRequest& request, Reply reply, std::shared_ptr<observability::RequestRecord> record) {
  auto key = authenticate(request.header("authorization"));
  if (!key) return reply(refusal_response(key.error()));
  const auto params = query_params(split_target(request.target).query);
  if (!params) return reply(error_response(params.error()));
  describe(SchemaCall{.database = param(*params, "database"),
                      .detail = param(*params, "detail").value_or(""),
                      .tables = param(*params, "tables").value_or(""),
                      .search = param(*params, "search").value_or("")},
           Caller{.key = *key,
                  .remote_address = request.remote_address,
                  .cancellation = request.cancellation,
                  .record = std::move(record)},
           std::move(reply));
}

// With keys configured, the schema is served only to a key that may use the
// database it describes. The description is built on a worker.
void Api::describe(SchemaCall call, Caller caller, Reply reply) {
  if (caller.key) caller.record->key = caller.key->name;
  std::string db_name;
  if (keys_.enabled() && pick_database(call.database, &db_name))  // else schema() names the problem
    if (auto allowed = keys_.authorize(caller.key, db_name); !allowed) return reply(refusal_response(allowed.error()));
  const config::HiddenColumns* hidden = caller.key ? &caller.key->hidden_columns : nullptr;
  workers_.post([this, call = std::move(call), hidden, reply = std::move(reply)] { reply(schema(call, hidden)); });
}

void Api::submit_write(HttpRequest request, Reply reply, std::shared_ptr<observability::RequestRecord> record,
                       std::string tool, bool after_checks) {
  if (!after_checks)
    if (auto json = check_json_content_type(request.header("content-type")); !json)
      return reply(error_response(json.error()));
  auto key = authenticate(request.header("authorization"));
  if (!key) return reply(refusal_response(key.error()));
  execute_write(WriteCall{.tool = std::move(tool), .body = std::move(request.body), .after_checks = after_checks},
                Caller{.key = *key,
                       .remote_address = request.remote_address,
                       .cancellation = request.cancellation,
                       .record = std::move(record)},
                std::move(reply));
}

Status Api::may_write(const auth::Key* key, const std::string& tool) const {
  return gateway::may_write(config_, key, tool);
}

// From any transport, on the I/O thread: the tool, the key's scope, then the
// database's write queue. The arguments are read on the worker.
void Api::execute_write(WriteCall call, Caller caller, Reply reply) {
  const auto& record = caller.record;
  if (caller.key) record->key = caller.key->name;
  const config::WriteTool* tool = writes_ ? writes_->find(call.tool) : nullptr;
  if (tool == nullptr) {
    std::string names;
    if (writes_)
      for (const auto& n : writes_->names()) names += (names.empty() ? "" : ", ") + n;
    std::string shown = call.tool.substr(0, 60);
    return reply(error_response(make_error(
        ErrorCode::WriteUnknownTool, "no write tool named '" + shown + "'",
        names.empty() ? "FIX: no write tools are configured on this gateway; nothing can be written through it."
                      : "FIX: use one of: " + names + " (GET /v1/writes lists their parameters).")));
  }
  record->write_tool = tool->name;
  record->database = tool->database;
  const auto refuse = [&record, &reply](HttpResponse r) {
    record->write_outcome = r.outcome;
    reply(std::move(r));
  };
  if (auto allowed = keys_.authorize(caller.key, tool->database); !allowed)
    return refuse(refusal_response(allowed.error()));
  if (auto allowed = may_write(caller.key, tool->name); !allowed) return refuse(refusal_response(allowed.error()));
  if (!call.after_checks)
    if (auto duplicated = duplicated_json_key(call.body))
      return refuse(error_response(make_error(ErrorCode::RequestDuplicateField,
                                              "argument '" + *duplicated + "' appears more than once",
                                              "FIX: send each argument once.")));

  auto* queue = write_queues_.find(tool->database)->second.get();
  const auto received = clock_.now();
  const auto deadline = received + std::chrono::milliseconds(config_.limits.deadline_ms);
  auto cancellation = caller.cancellation ? caller.cancellation : permits::Cancellation::make();
  const std::string fairness =
      caller.key && !caller.key->anonymous ? "key:" + caller.key->name : "addr:" + caller.remote_address;
  auto job = std::make_shared<
      std::tuple<WriteCall, Reply, std::shared_ptr<observability::RequestRecord>, writes::WriteCaller>>(
      std::move(call), std::move(reply), std::move(caller.record), write_caller(caller.key));
  auto decide = [this, job, tool, queue, received, deadline](permits::Decision d) {
    auto& [call, reply, rec, bound] = *job;
    if (auto* denied = std::get_if<permits::Denied>(&d)) {
      const permits::QueueStats stats = queue->stats();
      const Error error = permits::refusal_error(
          *denied, permits::RefusalContext{.database = tool->database,
                                           .permits = stats.permits,
                                           .queue_depth = stats.queue_depth,
                                           .waited = ms_between(received, clock_.now()),
                                           .budget = ms_between(received, deadline),
                                           .max_budget = std::chrono::milliseconds(config_.limits.deadline_ms)});
      const bool retry = denied->reason == permits::Refusal::QueueFull || denied->reason == permits::Refusal::Closed;
      HttpResponse r = refusal_response(error, retry ? denied->retry_after : std::chrono::seconds(0));
      rec->write_outcome = r.outcome;
      return reply(std::move(r));
    }
    auto permit = std::make_shared<permits::Permit>(std::move(std::get<permits::Permit>(d)));
    workers_.post([this, job, tool, permit, received, deadline] {
      auto& [call, reply, rec, bound] = *job;
      rec->queue_wait = ms_between(received, clock_.now());
      HttpResponse r;
      if (call.after_checks) {
        auto checked = writes_->run_after_checks(*tool, bound, deadline);
        permit->reset();
        if (!checked) {
          r = error_response(checked.error());
        } else {
          r = json_response(200, std::move(checked->body));
          rec->rows = checked->violations;
        }
      } else {
        auto written = writes_->write(*tool, call.body, bound, deadline);
        permit->reset();
        if (!written) {
          r = error_response(written.error());
          rec->write_outcome = r.outcome;
        } else {
          r = json_response(written->status, std::move(written->body));
          rec->write_outcome = written->outcome;
          rec->rows = written->status == 201 ? 1 : 0;
          rec->untrusted_rows = written->untrusted ? 1 : 0;
        }
      }
      reply(std::move(r));
    });
  };
  auto decided = queue->submit(fairness, deadline, cancellation, decide);
  if (decided)
    decide(std::move(*decided));
  else
    expiry_->wake();
}

void Api::drain(permits::TimePoint deadline) {
  draining_ = true;
  if (gate_.wait_until_empty(deadline)) return;
  for (auto& [name, queue] : queues_) queue->close();
  for (auto& [name, queue] : write_queues_) queue->close();
  gate_.cancel_all();
  gate_.wait_until_empty(std::chrono::steady_clock::now() + kCancelledWorkBound);
}

Result<ServedDatabase*> Api::pick_database(const std::optional<std::string>& name, std::string* resolved) {
  std::string names;
  for (const auto& [n, e] : databases_) names += (names.empty() ? "" : ", ") + n;
  if (!name || name->empty()) {
    if (databases_.size() == 1) {
      *resolved = databases_.begin()->first;
      return &databases_.begin()->second;
    }
    return make_error(ErrorCode::RequestDatabaseRequired, "several databases are configured; the request names none",
                      "FIX: add \"database\": one of " + names + ".");
  }
  auto it = databases_.find(*name);
  if (it == databases_.end())
    return make_error(ErrorCode::RequestUnknownDatabase, "no database named '" + *name + "'",
                      "FIX: use one of: " + names + ".");
  *resolved = it->first;
  return &it->second;
}

HttpResponse Api::schema(const SchemaCall& call, const config::HiddenColumns* hidden) {
  std::string db_name;
  auto database = pick_database(call.database, &db_name);
  if (!database) return error_response(database.error());
  auto wanted = parse_schema_request(call.detail, call.tables, call.search);
  if (!wanted) return error_response(wanted.error());
  wanted->spotlight = (*database)->spotlight;
  wanted->hidden = hidden;
  HttpResponse r;
  r.content_type = std::string(route(RouteId::Schema).content_type);
  r.body = describe_schema(db_name, (*database)->catalog, config_.limits, *wanted);
  return r;
}

// Admission gauges are read from the queues now; everything else was counted as replies left.
HttpResponse Api::metrics() {
  std::vector<observability::QueueSnapshot> queues;
  for (const auto& [name, queue] : queues_) {
    const permits::QueueStats s = queue->stats();
    queues.push_back({.database = name,
                      .permits = s.permits,
                      .in_use = s.in_use,
                      .queue_capacity = s.queue_depth,
                      .queued = s.queued,
                      .expired_in_queue = s.expired});
  }
  HttpResponse r;
  r.content_type = std::string(observability::Metrics::kContentType);
  r.body = metrics_->scrape(queues);
  return r;
}

HttpResponse Api::ready() {
  JsonWriter w;
  w.begin_object().key("databases").begin_object();
  bool all_ok = true;
  for (const auto& [name, database] : databases_) {
    // With every permit busy the engine is evidently answering, and a ping
    // would only queue behind those statements for a connection.
    const permits::QueueStats stats = queues_.find(name)->second->stats();
    if (stats.in_use >= stats.permits) {
      w.key(name).string("ok");
      continue;
    }
    auto s = database.executor->ping();
    w.key(name).string(s ? "ok" : s.error().message);
    all_ok = all_ok && s.has_value();
  }
  w.end_object();
  // Permits and queues per database, so an operator (or a test) can see that
  // every permit came back.
  w.key("admission").begin_object();
  for (const auto& [name, queue] : queues_) {
    const permits::QueueStats s = queue->stats();
    w.key(name).begin_object();
    w.key("permits").integer(s.permits).key("in_use").integer(s.in_use);
    w.key("queue_depth").integer(s.queue_depth).key("queued").integer(s.queued);
    w.key("service_ms").number(s.service_ms, 3);
    w.key("granted").integer(static_cast<std::int64_t>(s.granted));
    w.key("queue_full").integer(static_cast<std::int64_t>(s.queue_full));
    w.key("expired_in_queue").integer(static_cast<std::int64_t>(s.expired));
    w.key("cancelled_in_queue").integer(static_cast<std::int64_t>(s.cancelled));
    w.end_object();
  }
  w.end_object();
  w.key("in_flight").integer(gate_.in_flight() - 1);  // not counting this /readyz
  const char* status = draining_ ? "draining" : all_ok ? "ready" : "unavailable";
  w.key("status").string(status).end_object();
  return json_response(all_ok && !draining_ ? 200 : 503, w.take() + "\n");
}

}  // namespace qg::gateway
