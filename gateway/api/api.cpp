#include "gateway/api/api.hpp"

#include "admission/pipeline.hpp"
#include "gateway/api/envelope.hpp"
#include "gateway/api/json_writer.hpp"
#include "gateway/api/query_request.hpp"
#include "gateway/api/schema_text.hpp"

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

std::optional<std::string> query_param(const std::string& query, std::string_view key) {
  std::size_t start = 0;
  while (start <= query.size()) {
    const auto end = std::min(query.find('&', start), query.size());
    const std::string_view pair(query.data() + start, end - start);
    const auto eq = pair.find('=');
    if (url_decode(pair.substr(0, eq)) == key) return eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1));
    start = end + 1;
  }
  return std::nullopt;
}

HttpResponse json_response(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

}  // namespace

Api::Api(config::Config config, ServedDatabases databases, int workers)
    : config_(std::move(config)), databases_(std::move(databases)), workers_(workers) {}

void Api::handle(HttpRequest request, Reply reply) {
  if (request.target == "/healthz") {
    reply(respond(request));
    return;
  }
  workers_.post([this, request = std::move(request), reply = std::move(reply)]() mutable { reply(respond(request)); });
}

HttpResponse Api::respond(const HttpRequest& request) {
  const auto deadline = exec::Clock::now() + std::chrono::milliseconds(config_.limits.deadline_ms);
  const Target t = split_target(request.target);
  auto route = [&](std::string_view method) -> std::optional<HttpResponse> {
    if (request.method == method) return std::nullopt;
    HttpResponse r = error_response(make_error(ErrorCode::RequestMethodNotAllowed,
                                               request.method + " " + t.path + " is not supported",
                                               "FIX: use " + std::string(method) + " " + t.path + "."));
    r.headers.emplace_back("Allow", std::string(method));
    return r;
  };
  if (t.path == "/healthz") {
    if (auto r = route("GET")) return *r;
    return json_response(200, "{\"status\":\"ok\"}\n");
  }
  if (t.path == "/readyz") {
    if (auto r = route("GET")) return *r;
    return ready();
  }
  if (t.path == "/v1/query") {
    if (auto r = route("POST")) return *r;
    return query(request, deadline);
  }
  if (t.path == "/v1/schema") {
    if (auto r = route("GET")) return *r;
    return schema(request);
  }
  return error_response(make_error(ErrorCode::RequestNotFound, "no route " + t.path,
                                   "FIX: use POST /v1/query, GET /v1/schema, GET /healthz or GET /readyz."));
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

HttpResponse Api::query(const HttpRequest& request, exec::Deadline deadline) {
  auto req = parse_query_request(request.body);
  if (!req) return error_response(req.error());
  std::string db_name;
  auto database = pick_database(req->database, &db_name);
  if (!database) return error_response(database.error());
  exec::Executor& engine = *(*database)->executor;

  auto statement = admit_statement(req->sql, (*database)->catalog, config_.limits, req->limit);
  if (!statement) return error_response(statement.error());

  exec::Rows rows;
  if (req->validate_only) {
    auto columns = engine.prepare(statement->sql, deadline);
    if (!columns) return error_response(columns.error());
    rows.columns = std::move(columns).value();
  } else {
    exec::RunOptions options;
    options.deadline = deadline;
    options.max_rows = statement->limit.detect_truncation ? statement->limit.row_cap + 1 : statement->limit.row_cap;
    auto result = engine.run(statement->sql, options);
    if (!result) return error_response(result.error());
    rows = std::move(result).value();
  }
  EnvelopeInput in{req->sql, &statement.value(), &rows, &config_.limits, &(*database)->catalog};
  return json_response(200, build_envelope(in));
}

HttpResponse Api::schema(const HttpRequest& request) {
  const Target t = split_target(request.target);
  std::string db_name;
  auto database = pick_database(query_param(t.query, "database"), &db_name);
  if (!database) return error_response(database.error());
  auto wanted = parse_schema_request(query_param(t.query, "detail").value_or(""),
                                     query_param(t.query, "tables").value_or(""),
                                     query_param(t.query, "search").value_or(""));
  if (!wanted) return error_response(wanted.error());
  HttpResponse r;
  r.content_type = "text/plain; charset=utf-8";
  r.body = describe_schema(db_name, (*database)->catalog, config_.limits, *wanted);
  return r;
}

HttpResponse Api::ready() {
  JsonWriter w;
  w.begin_object().key("databases").begin_object();
  bool all_ok = true;
  std::optional<Error> first_error;
  for (const auto& [name, database] : databases_) {
    auto s = database.executor->ping();
    w.key(name).string(s ? "ok" : s.error().message);
    if (!s && !first_error) first_error = s.error();
    all_ok = all_ok && s.has_value();
  }
  w.end_object().key("status").string(all_ok ? "ready" : "unavailable").end_object();
  return json_response(all_ok ? 200 : 503, w.take() + "\n");
}

}  // namespace qg::gateway
