// The OpenAPI document against the lists it is generated from: the route list
// the server dispatches on and the error-code list it answers with. If a route
// or code is added, renamed or dropped on one side only, these fail.
#include "gateway/api/openapi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include <boost/json.hpp>

#include "config/demo_config.hpp"
#include "gateway/api/routes.hpp"

namespace qg::gateway {
namespace {

namespace json = boost::json;

config::Config demo() {
  auto config = config::parse_config(std::string(config::demo_config_yaml()), "/nonexistent");
  EXPECT_TRUE(config.has_value()) << config.error().message;
  return std::move(config).value();
}

constexpr std::string_view kServer = "http://127.0.0.1:8080";

json::object parsed(const config::Config& config, Audience audience = Audience::Agent) {
  // Parse the served text, not the object: what a client reads.
  return json::parse(openapi_json(config, audience, kServer)).as_object();
}

// The document a route is listed in.
json::object document_of(const config::Config& config, const Route& r) {
  return parsed(config, is_agent_tool(r) ? Audience::Agent : Audience::Operator);
}

std::size_t occurrences(std::string_view text, std::string_view word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const json::object& operation_of(const json::object& doc, const Route& r) {
  return doc.at("paths").at(r.path).at(lower(r.method)).as_object();
}

// The operations a route has in its document: one, or one per configured tool (per_tool).
std::vector<const json::object*> operations_of(const json::object& doc, const Route& r, const config::Config& config) {
  std::vector<const json::object*> out;
  if (!r.per_tool) {
    out.push_back(&operation_of(doc, r));
    return out;
  }
  for (const auto& name : per_tool_names(r, config))
    out.push_back(&doc.at("paths").at(tool_path(r, name)).at(lower(r.method)).as_object());
  return out;
}

// Statuses the route's answers can carry: its refusal codes', 200, and the
// readiness probe's own 503. 499 (client gone) is never read by anyone.
std::set<std::string> producible(const Route& r) {
  std::set<std::string> out{"200"};
  if (r.id == RouteId::Readyz) out.insert("503");
  if (r.id == RouteId::Write) out.insert("201");  // written (200: already_exists)
  for (ErrorCode c : r.errors)
    if (http_status(c) != 499) out.insert(std::to_string(http_status(c)));
  return out;
}

TEST(OpenApiTest, IsOpenApi31WithTheTwoToolOperations) {
  const auto doc = parsed(demo());
  // 3.1.x but not 3.1.0, which LangChain JS refuses to load.
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.1");
  // Tool names as MCP servers spell them; operationIds that survive importers'
  // renaming (@ivotoby/openapi-mcp-server drops "execute": execute_sql -> sql).
  EXPECT_EQ(route(RouteId::Query).tool_name, "execute_sql");
  EXPECT_EQ(route(RouteId::Schema).tool_name, "describe_schema");
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("operationId").as_string(), "run_sql");
  EXPECT_EQ(operation_of(doc, route(RouteId::Schema)).at("operationId").as_string(), "describe_schema");
  EXPECT_EQ(doc.at("paths").as_object().size(), 2u + demo().tools.size() + demo().writes.size())
      << "the agent document lists the agent tools only: SQL, schema, each curated tool and each write tool";
  EXPECT_EQ(route(RouteId::Query).path, "/v1/query");
  EXPECT_EQ(route(RouteId::Query).method, "POST");
  EXPECT_EQ(route(RouteId::Schema).path, "/v1/schema");
}

TEST(OpenApiTest, EveryRouteIsAPathOfExactlyOneDocumentWithItsOneMethodAndOperationId) {
  const auto agent = parsed(demo(), Audience::Agent);
  const auto operator_doc = parsed(demo(), Audience::Operator);
  const auto documented = std::count_if(all_routes().begin(), all_routes().end(),
                                        [](const Route& r) { return r.in_openapi && !r.per_tool; }) +
                          static_cast<std::ptrdiff_t>(demo().tools.size() + demo().writes.size());
  EXPECT_EQ(agent.at("paths").as_object().size() + operator_doc.at("paths").as_object().size(),
            static_cast<std::size_t>(documented))
      << "a documented path the server does not route";
  std::set<std::string> ids;
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;  // the MCP endpoint: JSON-RPC, not an OpenAPI operation
    if (r.per_tool) {             // one agent operation per curated or write tool, named as the tool
      EXPECT_FALSE(per_tool_names(r, demo()).empty()) << r.path << ": the demo configures one at least";
      for (const auto& tool : per_tool_names(r, demo())) {
        const std::string path = tool_path(r, tool);
        ASSERT_TRUE(agent.at("paths").as_object().contains(path)) << path;
        EXPECT_EQ(agent.at("paths").at(path).as_object().size(), 1u) << path;
        EXPECT_EQ(agent.at("paths").at(path).at(lower(r.method)).at("operationId").as_string(), tool);
        EXPECT_TRUE(ids.insert(tool).second) << "operationId used twice: " << tool;
        EXPECT_EQ(find_route(path), &r);
        EXPECT_EQ(path_name(r, path), tool);
      }
      EXPECT_FALSE(agent.at("paths").as_object().contains(r.path));
      EXPECT_FALSE(operator_doc.at("paths").as_object().contains(r.path));
      continue;
    }
    const auto& mine = is_agent_tool(r) ? agent : operator_doc;
    const auto& other = is_agent_tool(r) ? operator_doc : agent;
    ASSERT_TRUE(mine.at("paths").as_object().contains(r.path)) << r.path;
    EXPECT_FALSE(other.at("paths").as_object().contains(r.path)) << r.path << " is in both documents";
    const auto& item = mine.at("paths").at(r.path).as_object();
    EXPECT_EQ(item.size(), 1u) << r.path << ": one method per path";
    ASSERT_TRUE(item.contains(lower(r.method))) << r.path;
    EXPECT_EQ(operation_of(mine, r).at("operationId").as_string(), r.operation_id);
    EXPECT_TRUE(ids.insert(std::string(r.operation_id)).second) << "operationId used twice: " << r.operation_id;
    EXPECT_EQ(find_route(r.path), &r);
  }
  for (const std::string path : {"/healthz", "/readyz", "/metrics", "/openapi.json"}) {
    ASSERT_NE(find_route(path), nullptr) << path;
    EXPECT_FALSE(is_agent_tool(*find_route(path))) << path << " is an operator route";
  }
  EXPECT_EQ(parse_audience("agent"), Audience::Agent);
  EXPECT_EQ(parse_audience("operator"), Audience::Operator);
  EXPECT_EQ(parse_audience("Operator"), std::nullopt);
  EXPECT_EQ(parse_audience(""), std::nullopt);
}

// Importers check these; the lint suite (scripts/check-openapi.sh) runs the real linters.
TEST(OpenApiTest, InfoAndServersAreWhatImportersAndLintersNeed) {
  for (Audience audience : {Audience::Agent, Audience::Operator}) {
    const auto doc = parsed(demo(), audience);
    EXPECT_EQ(doc.at("servers").as_array().size(), 1u);
    EXPECT_EQ(doc.at("servers").at(0).at("url").as_string(), kServer);
    EXPECT_FALSE(doc.at("info").at("license").at("name").as_string().empty());
    EXPECT_FALSE(doc.at("info").at("license").at("url").as_string().empty());
    EXPECT_FALSE(doc.at("info").at("contact").at("name").as_string().empty());
    // Only the components the document's operations use.
    for (const auto& [name, _] : doc.at("components").at("schemas").as_object()) {
      const std::string ref = "#/components/schemas/" + std::string(name);
      EXPECT_NE(json::serialize(doc).find("\"" + ref + "\""), std::string::npos) << name << " is unused";
    }
  }
  EXPECT_TRUE(parsed(demo(), Audience::Agent).at("components").as_object().contains("securitySchemes"));
  // GET /v1/tools (the listing of curated tools) is the one operator route that needs a key.
  EXPECT_TRUE(parsed(demo(), Audience::Operator).at("components").as_object().contains("securitySchemes"));
  EXPECT_EQ(route(RouteId::Tools).access, Access::ApiKey);
}

TEST(OpenApiTest, ServerUrlIsPublicUrlElseTheHostHeaderElseTheListenAddress) {
  config::Config c = demo();
  c.listen_host = "127.0.0.1";
  c.listen_port = 8123;
  EXPECT_EQ(server_url(c, "127.0.0.1:45678"), "http://127.0.0.1:45678");
  EXPECT_EQ(server_url(c, "localhost:45678"), "http://localhost:45678");
  EXPECT_EQ(server_url(c, "[::1]:45678"), "http://[::1]:45678");
  EXPECT_EQ(server_url(c, "sql.example.com"), "http://sql.example.com");
  // Missing, or not a plain host[:port]: the listen address.
  EXPECT_EQ(server_url(c, ""), "http://127.0.0.1:8123");
  EXPECT_EQ(server_url(c, "evil.example/\"x"), "http://127.0.0.1:8123");
  EXPECT_EQ(server_url(c, "a b"), "http://127.0.0.1:8123");
  c.listen_host = "::1";
  EXPECT_EQ(server_url(c, ""), "http://[::1]:8123");
  c.public_url = "https://sql.example.com/gw";
  EXPECT_EQ(server_url(c, "127.0.0.1:45678"), "https://sql.example.com/gw");
}

TEST(OpenApiTest, PublicUrlSettingIsAnAbsoluteHttpUrlWithoutTrailingSlash) {
  const std::string base(config::demo_config_yaml());
  auto ok = config::parse_config(base + "public_url: https://sql.example.com:8443/\n", "/nonexistent");
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->public_url, "https://sql.example.com:8443");
  EXPECT_EQ(parsed(*ok).at("servers").at(0).at("url").as_string(), kServer) << "the caller passes server_url";
  EXPECT_EQ(server_url(*ok, "127.0.0.1:1"), "https://sql.example.com:8443");
  for (const char* bad : {"sql.example.com", "ftp://sql.example.com", "http://", "http:///x", "http://a b"}) {
    auto refused = config::parse_config(base + "public_url: \"" + bad + "\"\n", "/nonexistent");
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_NE(refused.error().fix.find("public_url: https://"), std::string::npos) << refused.error().fix;
  }
  EXPECT_TRUE(config::parse_config(base, "/nonexistent")->public_url.empty());
}

TEST(OpenApiTest, ErrorCodeEnumIsTheErrorCodeList) {
  const auto doc = parsed(demo());
  const auto& schemas = doc.at("components").at("schemas").as_object();
  const auto& envelope = schemas.at("ErrorEnvelope").as_object();
  EXPECT_EQ(envelope.at("properties").at("error").at("properties").at("code").at("$ref").as_string(),
            "#/components/schemas/ErrorCode");
  const auto& codes = schemas.at("ErrorCode").at("enum").as_array();
  ASSERT_EQ(codes.size(), all_error_codes().size());
  for (std::size_t i = 0; i < codes.size(); ++i) EXPECT_EQ(codes[i].as_string(), all_error_codes()[i].name);
}

TEST(OpenApiTest, DocumentedStatusesAreExactlyTheOnesTheRouteCanProduce) {
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;
    const auto doc = r.per_tool ? parsed(demo()) : document_of(demo(), r);
    const auto want = producible(r);
    for (const json::object* op : operations_of(doc, r, demo())) {
      std::set<std::string> documented;
      for (const auto& [status, response] : op->at("responses").as_object()) {
        documented.insert(std::string(status));
        EXPECT_TRUE(want.contains(std::string(status))) << r.path << " documents " << status << " it cannot answer";
        // Each refusal status says what to do and which codes it carries.
        const std::string text(response.at("description").as_string());
        if (status != "200" && status != "201")  // what to do comes first, then the codes
          EXPECT_GT(text.find("Codes: `"), 20u) << r.path << " " << status << ": " << text;
        for (ErrorCode c : r.errors) {
          if (std::to_string(http_status(c)) != std::string(status)) continue;
          const std::string quoted = std::string(1, '`').append(name(c)).append(1, '`');
          EXPECT_NE(text.find(quoted), std::string::npos) << r.path << " " << status << " does not list " << name(c);
        }
      }
      EXPECT_EQ(documented, want) << r.path;
    }
  }
}

TEST(OpenApiTest, ToolDescriptionsTellAModelHowToReact) {
  const auto doc = parsed(demo());
  const std::string query(operation_of(doc, route(RouteId::Query)).at("description").as_string());
  for (const char* must :
       {"schema first", "truncated", "untrusted", "fix", "401", "403", "429", "503", "504", "Retry-After"})
    EXPECT_NE(query.find(must), std::string::npos) << "the query tool's description lacks " << must;
  const auto& responses = operation_of(doc, route(RouteId::Query)).at("responses").as_object();
  EXPECT_TRUE(responses.at("429").at("headers").as_object().contains("Retry-After"));
  EXPECT_TRUE(responses.at("401").at("headers").as_object().contains("WWW-Authenticate"));
  EXPECT_EQ(responses.at("200").at("content").at("application/json").at("schema").at("$ref").as_string(),
            "#/components/schemas/QueryResult");
}

// Importers drop a tool whose text is longer: @samchon/openapi joins them as
// "summary.\n\ndescription" (the summary's own final '.' dropped).
TEST(OpenApiTest, EveryAgentToolsSummaryAndDescriptionFitTheImportersLimit) {
  const auto doc = parsed(demo());
  int tools = 0;
  for (const Route& r : all_routes()) {
    if (!is_agent_tool(r)) continue;
    ++tools;
    const auto& op = operation_of(doc, r);
    std::string summary(op.at("summary").as_string());
    if (summary.ends_with('.')) summary.pop_back();
    const std::string joined = summary + ".\n\n" + std::string(op.at("description").as_string());
    EXPECT_LE(joined.size(), kMaxToolDescription) << r.tool_name;
    EXPECT_GT(op.at("description").as_string().size(), 200u) << r.tool_name << ": still says how to use it";
  }
  EXPECT_EQ(tools, 2);
  // The curated tools' operations too: their summary and description from the configuration, cut to fit.
  for (const json::object* op : operations_of(doc, route(RouteId::ToolCall), demo())) {
    std::string summary(op->at("summary").as_string());
    if (summary.ends_with('.')) summary.pop_back();
    EXPECT_LE((summary + ".\n\n" + std::string(op->at("description").as_string())).size(), kMaxToolDescription);
    EXPECT_NE(op->at("description").as_string().find("tool:invalid-argument"), std::string::npos);
  }
}

// Importers rename operations (run_sql becomes run-sql, v1_query_post, ...):
// no text may send a model to a tool by a name it may not have.
TEST(OpenApiTest, NoTextNamesAToolByItsOperationIdOrToolName) {
  for (Audience audience : {Audience::Agent, Audience::Operator}) {
    const std::string text = json::serialize(parsed(demo(), audience));
    for (const Route& r : all_routes()) {
      if (r.per_tool) continue;  // its operations are named after the configured tools
      const bool listed = r.in_openapi && is_agent_tool(r) == (audience == Audience::Agent);
      EXPECT_EQ(occurrences(text, "\"" + std::string(r.operation_id) + "\""), listed ? 1u : 0u)
          << r.operation_id << ": only as its own operationId";
      EXPECT_EQ(occurrences(text, r.operation_id), listed ? 1u : 0u) << r.operation_id << " named in a text";
      if (is_agent_tool(r) && r.tool_name != r.operation_id)
        EXPECT_EQ(occurrences(text, r.tool_name), 0u) << r.tool_name << " named in a text";
    }
  }
}

// Gemini's function-calling schema has no union types; an importer for Gemini
// drops the whole operation over one (checked with the real importer in
// tests/clients/openapi/samchon.test.mjs).
TEST(OpenApiTest, NoUnionTypesAndNoEnumsOnTheToolsInputsOrCells) {
  const auto doc = parsed(demo());
  const auto& schemas = doc.at("components").at("schemas").as_object();
  const auto& cell = schemas.at("QueryResult").at("properties").at("rows").at("items").at("items").as_object();
  EXPECT_FALSE(cell.contains("type")) << json::serialize(cell);
  EXPECT_FALSE(cell.contains("anyOf") || cell.contains("oneOf")) << json::serialize(cell);
  EXPECT_FALSE(cell.at("description").as_string().empty());
  // Inputs: one plain type each, no enum (it becomes a union of constants), no
  // default (openapi-typescript makes such fields required).
  std::vector<const json::object*> inputs;
  for (const auto& [name, field] : schemas.at("QueryRequest").at("properties").as_object())
    inputs.push_back(&field.as_object());
  for (const auto& p : operation_of(doc, route(RouteId::Schema)).at("parameters").as_array())
    inputs.push_back(&p.at("schema").as_object());
  EXPECT_EQ(inputs.size(), 9u);
  // The curated tools' arguments (tools/parameters.cpp json_schema).
  for (const json::object* op : operations_of(doc, route(RouteId::ToolCall), demo()))
    for (const auto& [name, field] :
         op->at("requestBody").at("content").at("application/json").at("schema").at("properties").as_object())
      inputs.push_back(&field.as_object());
  for (const json::object* schema : inputs) {
    ASSERT_TRUE(schema->contains("type")) << json::serialize(*schema);
    EXPECT_TRUE(schema->at("type").is_string()) << json::serialize(*schema);
    EXPECT_FALSE(schema->contains("enum")) << json::serialize(*schema);
    EXPECT_FALSE(schema->contains("default")) << json::serialize(*schema);
  }
}

TEST(OpenApiTest, RequestSchemaFollowsTheConfiguration) {
  config::Config one = demo();
  one.limits.deadline_ms = 1234;
  auto doc = parsed(one);
  const auto& request = doc.at("components").at("schemas").at("QueryRequest").as_object();
  const auto& fields = request.at("properties").as_object();
  for (const char* f : {"sql", "database", "limit", "timeout_ms", "validate_only"})
    EXPECT_TRUE(fields.contains(f)) << f;
  EXPECT_EQ(fields.size(), 5u);
  EXPECT_FALSE(request.at("additionalProperties").as_bool());
  EXPECT_EQ(fields.at("timeout_ms").at("maximum").as_int64(), 1234);
  EXPECT_EQ(request.at("required").as_array(), json::array{"sql"});
  EXPECT_EQ(fields.at("database").at("pattern").as_string(), "^(demo)$");
  // Without keys the key is optional (an empty alternative); with keys it is required.
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("security").as_array().size(), 2u);
  EXPECT_EQ(operation_of(parsed(one, Audience::Operator), route(RouteId::Healthz)).at("security").as_array().size(),
            0u);

  config::Config two = one;
  two.databases.push_back(two.databases.front());
  two.databases.back().name = "other.db";
  two.keys.clear();  // the demo's anonymous key would keep the empty alternative
  two.keys.push_back({"agent", std::string(64, 'a'), {"demo"}});
  doc = parsed(two);
  EXPECT_EQ(doc.at("components").at("schemas").at("QueryRequest").at("required").as_array(),
            (json::array{"sql", "database"}));
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("security").as_array().size(), 1u);
  // The example has every required field.
  const auto& example = doc.at("components").at("schemas").at("QueryRequest").at("examples").at(0).as_object();
  for (const auto& field : doc.at("components").at("schemas").at("QueryRequest").at("required").as_array())
    EXPECT_TRUE(example.contains(field.as_string())) << field;
  // Allowed values as an anchored pattern, regex characters escaped.
  EXPECT_EQ(doc.at("components").at("schemas").at("QueryRequest").at("properties").at("database").at("pattern"),
            "^(demo|other\\.db)$");
  const auto& database = operation_of(doc, route(RouteId::Schema)).at("parameters").at(0).as_object();
  EXPECT_EQ(database.at("name"), "database");
  EXPECT_EQ(database.at("schema").at("pattern"), "^(demo|other\\.db)$");
  EXPECT_EQ(database.at("required"), true) << "several databases: the schema route needs one named";
}

TEST(OpenApiTest, NotFoundFixNamesEveryRoute) {
  const std::string text = route_list_text();
  for (const Route& r : all_routes())
    EXPECT_NE(text.find(std::string(r.method) + " " + std::string(r.path)), std::string::npos) << text;
}

}  // namespace
}  // namespace qg::gateway
