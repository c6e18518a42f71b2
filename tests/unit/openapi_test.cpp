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

json::object parsed(const config::Config& config) {
  // Parse the served text, not the object: what a client reads.
  return json::parse(openapi_json(config)).as_object();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const json::object& operation_of(const json::object& doc, const Route& r) {
  return doc.at("paths").at(r.path).at(lower(r.method)).as_object();
}

// Statuses the route's answers can carry: its refusal codes', 200, and the
// readiness probe's own 503. 499 (client gone) is never read by anyone.
std::set<std::string> producible(const Route& r) {
  std::set<std::string> out{"200"};
  if (r.id == RouteId::Readyz) out.insert("503");
  for (ErrorCode c : r.errors)
    if (http_status(c) != 499) out.insert(std::to_string(http_status(c)));
  return out;
}

TEST(OpenApiTest, IsOpenApi31WithTheTwoToolOperations) {
  const auto doc = parsed(demo());
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.0");
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("operationId").as_string(), "executeSql");
  EXPECT_EQ(operation_of(doc, route(RouteId::Schema)).at("operationId").as_string(), "describeSqlSchema");
  EXPECT_EQ(route(RouteId::Query).path, "/v1/query");
  EXPECT_EQ(route(RouteId::Query).method, "POST");
  EXPECT_EQ(route(RouteId::Schema).path, "/v1/schema");
}

TEST(OpenApiTest, EveryRouteIsAPathWithItsOneMethodAndOperationId) {
  const auto doc = parsed(demo());
  const auto& paths = doc.at("paths").as_object();
  const auto documented =
      std::count_if(all_routes().begin(), all_routes().end(), [](const Route& r) { return r.in_openapi; });
  EXPECT_EQ(paths.size(), static_cast<std::size_t>(documented)) << "a documented path the server does not route";
  std::set<std::string> ids;
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;  // the MCP endpoint: JSON-RPC, not an OpenAPI operation
    ASSERT_TRUE(paths.contains(r.path)) << r.path;
    const auto& item = paths.at(r.path).as_object();
    EXPECT_EQ(item.size(), 1u) << r.path << ": one method per path";
    ASSERT_TRUE(item.contains(lower(r.method))) << r.path;
    EXPECT_EQ(operation_of(doc, r).at("operationId").as_string(), r.operation_id);
    EXPECT_TRUE(ids.insert(std::string(r.operation_id)).second) << "operationId used twice: " << r.operation_id;
    EXPECT_EQ(find_route(r.path), &r);
  }
  for (const std::string path : {"/healthz", "/readyz", "/metrics", "/openapi.json"})
    EXPECT_NE(find_route(path), nullptr) << path;
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
  const auto doc = parsed(demo());
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;
    const auto want = producible(r);
    std::set<std::string> documented;
    for (const auto& [status, response] : operation_of(doc, r).at("responses").as_object()) {
      documented.insert(std::string(status));
      EXPECT_TRUE(want.contains(std::string(status))) << r.path << " documents " << status << " it cannot answer";
      // Each refusal status says what to do and which codes it carries.
      const std::string text(response.at("description").as_string());
      if (status != "200")  // what to do comes first, then the codes
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

TEST(OpenApiTest, ToolDescriptionsTellAModelHowToReact) {
  const auto doc = parsed(demo());
  const std::string query(operation_of(doc, route(RouteId::Query)).at("description").as_string());
  for (const char* must :
       {"describeSqlSchema", "truncated", "untrusted", "fix", "422", "429", "504", "401", "403", "503", "Retry-After"})
    EXPECT_NE(query.find(must), std::string::npos) << "executeSql description lacks " << must;
  const auto& responses = operation_of(doc, route(RouteId::Query)).at("responses").as_object();
  EXPECT_TRUE(responses.at("429").at("headers").as_object().contains("Retry-After"));
  EXPECT_TRUE(responses.at("401").at("headers").as_object().contains("WWW-Authenticate"));
  EXPECT_EQ(responses.at("200").at("content").at("application/json").at("schema").at("$ref").as_string(),
            "#/components/schemas/QueryResult");
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
  EXPECT_EQ(fields.at("database").at("enum").as_array(), json::array{"demo"});
  // Without keys the key is optional (an empty alternative); with keys it is required.
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("security").as_array().size(), 2u);
  EXPECT_EQ(operation_of(doc, route(RouteId::Healthz)).at("security").as_array().size(), 0u);

  config::Config two = one;
  two.databases.push_back(two.databases.front());
  two.databases.back().name = "other";
  two.keys.push_back({"agent", std::string(64, 'a'), {"demo"}});
  doc = parsed(two);
  EXPECT_EQ(doc.at("components").at("schemas").at("QueryRequest").at("required").as_array(),
            (json::array{"sql", "database"}));
  EXPECT_EQ(operation_of(doc, route(RouteId::Query)).at("security").as_array().size(), 1u);
}

TEST(OpenApiTest, NotFoundFixNamesEveryRoute) {
  const std::string text = route_list_text();
  for (const Route& r : all_routes())
    EXPECT_NE(text.find(std::string(r.method) + " " + std::string(r.path)), std::string::npos) << text;
}

}  // namespace
}  // namespace qg::gateway
