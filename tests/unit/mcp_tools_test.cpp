// tools/list is derived, not written: one tool per route with an tool_name, its
// schemas taken from the OpenAPI document of the same routes. The document is
// the oracle here.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <boost/json.hpp>

#include "config/demo_config.hpp"
#include "gateway/api/openapi.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/mcp/mcp.hpp"

namespace qg::gateway {
namespace {

namespace json = boost::json;

config::Config demo() {
  auto config = config::parse_config(std::string(config::demo_config_yaml()), "/nonexistent");
  EXPECT_TRUE(config.has_value()) << config.error().message;
  return std::move(config).value();
}

// Every value under any "properties" is a schema object; no "$ref" is left.
void expect_self_contained(const json::value& v, const std::string& where) {
  if (const auto* o = v.if_object()) {
    EXPECT_FALSE(o->contains("$ref")) << where;
    for (const auto& [k, x] : *o) {
      if (k == "properties" && x.is_object())
        for (const auto& [name, schema] : x.as_object())
          EXPECT_TRUE(schema.is_object()) << where << ".properties." << name << " is " << json::serialize(schema);
      expect_self_contained(x, where + "." + std::string(k));
    }
  } else if (const auto* a = v.if_array()) {
    for (std::size_t i = 0; i < a->size(); ++i) expect_self_contained((*a)[i], where + "[" + std::to_string(i) + "]");
  }
}

TEST(McpToolsTest, OneToolPerAgentRouteNamedInTheRouteTable) {
  const auto tools = mcp::tools(demo());
  std::vector<std::string> names;
  for (const auto& t : tools) names.emplace_back(t.at("name").as_string());
  std::vector<std::string> expected;
  for (const Route& r : all_routes())
    if (!r.tool_name.empty()) {
      expected.emplace_back(r.tool_name);
      EXPECT_EQ(find_tool(r.tool_name), &r);
      EXPECT_EQ(r.access, Access::ApiKey) << "only agent operations are tools";
    }
  // Then each curated tool and each write tool of the configuration, under its own name.
  for (const auto& tool : demo().tools) expected.push_back(tool.name);
  for (const auto& tool : demo().writes) expected.push_back(tool.name);
  EXPECT_EQ(names, expected);
  EXPECT_EQ(find_tool("executeSql"), nullptr);
  EXPECT_EQ(find_tool(""), nullptr);
  EXPECT_EQ(route(RouteId::Query).tool_name, "execute_sql");
  EXPECT_EQ(route(RouteId::Schema).tool_name, "describe_schema");
}

TEST(McpToolsTest, SchemasAreTheOpenApiDocumentsResolved) {
  const auto config = demo();
  const json::value doc = openapi_document(config, Audience::Agent, {});
  const auto tools = mcp::tools(config);
  for (const auto& t : tools) {
    const std::string name(t.at("name").as_string());
    expect_self_contained(t, name);
    EXPECT_EQ(t.at("inputSchema").at("type").as_string(), "object") << name;
    EXPECT_EQ(t.at("outputSchema").at("type").as_string(), "object") << name;
    const auto& any = t.at("outputSchema").at("anyOf").as_array();
    ASSERT_EQ(any.size(), 2u) << name;
    // The refusal branch is the document's error envelope (with ErrorCode inlined).
    EXPECT_EQ(any[1].at("properties").at("error").at("properties").at("code").at("enum"),
              doc.at_pointer("/components/schemas/ErrorCode/enum"))
        << name;
    for (const Route& r : all_routes()) {
      if (r.tool_name.empty()) continue;
      const std::string text(t.at("description").as_string());
      EXPECT_EQ(text.find("`" + std::string(r.operation_id) + "`"), std::string::npos)
          << name << " names a tool by its operationId";
    }
  }
  // execute_sql: the request body's schema, property for property.
  const auto& sql_in = tools[0].at("inputSchema").at("properties").as_object();
  const auto& body = doc.at_pointer("/components/schemas/QueryRequest/properties").as_object();
  EXPECT_EQ(sql_in, body);
  EXPECT_EQ(tools[0].at("inputSchema").at("required"), doc.at_pointer("/components/schemas/QueryRequest/required"));
  EXPECT_EQ(tools[0].at("outputSchema").at("anyOf").at(0).at("properties"),
            doc.at_pointer("/components/schemas/QueryResult/properties"));
  // describe_schema: the query parameters, each with its schema and description.
  const auto& schema_in = tools[1].at("inputSchema").at("properties").as_object();
  const auto& params = doc.at_pointer("/paths/~1v1~1schema/get/parameters").as_array();
  ASSERT_EQ(schema_in.size(), params.size());
  for (const auto& p : params) {
    const std::string name(p.at("name").as_string());
    ASSERT_TRUE(schema_in.contains(name)) << name;
    EXPECT_EQ(schema_in.at(name).at("description"), p.at("description")) << name;
  }
  EXPECT_EQ(tools[1].at("outputSchema").at("anyOf").at(0).at("required"), (json::array{"schema"}));
  // A write tool: its input schema is its operation's request body (its parameters), it may write, and its
  // description names no other tool.
  std::size_t writes_seen = 0;
  for (const auto& t : tools) {
    const std::string name(t.at("name").as_string());
    if (config.find_tool(name) != nullptr || find_tool(name) != nullptr) continue;
    ++writes_seen;
    const auto& op = doc.at("paths").at(tool_path(route(RouteId::Write), name)).at("post");
    EXPECT_EQ(t.at("inputSchema"), op.at("requestBody").at("content").at("application/json").at("schema")) << name;
    EXPECT_EQ(t.at("outputSchema").at("anyOf").at(0).at("properties").at("status").at("pattern").as_string(),
              "^(written|already_exists)$");
    EXPECT_FALSE(t.at("annotations").at("readOnlyHint").as_bool()) << name;
    EXPECT_LE(t.at("description").as_string().size() + t.at("title").as_string().size() + 3, kMaxToolDescription);
    for (const auto& other : tools)
      if (other.at("name") != t.at("name"))
        EXPECT_EQ(t.at("description").as_string().find(other.at("name").as_string()), std::string::npos)
            << name << " names " << other.at("name");
  }
  EXPECT_EQ(writes_seen, config.writes.size());
  // A curated tool: its input schema is its operation's request body, its output the SQL route's envelope.
  for (std::size_t i = 2; i < tools.size(); ++i) {
    const std::string name(tools[i].at("name").as_string());
    if (config.find_tool(name) == nullptr) continue;  // a write tool (above)
    const auto& op = doc.at("paths").at(tool_path(route(RouteId::ToolCall), name)).at("post");
    EXPECT_EQ(tools[i].at("inputSchema"), op.at("requestBody").at("content").at("application/json").at("schema"))
        << name;
    EXPECT_EQ(tools[i].at("outputSchema").at("anyOf").at(0).at("properties"),
              doc.at_pointer("/components/schemas/QueryResult/properties"))
        << name;
  }
}

TEST(McpToolsTest, BatchesBelongToTheOlderRevisionsOnly) {
  EXPECT_EQ(mcp::kProtocolVersions.front(), "2025-11-25");
  EXPECT_FALSE(mcp::allows_batches("2025-11-25"));
  EXPECT_FALSE(mcp::allows_batches("2025-06-18"));
  EXPECT_TRUE(mcp::allows_batches("2025-03-26"));
  EXPECT_TRUE(mcp::allows_batches("2024-11-05"));
}

}  // namespace
}  // namespace qg::gateway
