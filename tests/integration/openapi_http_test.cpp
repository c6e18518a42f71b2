// GET /openapi.json against the real binary: it serves the generated document,
// and every route the document lists answers as documented (its one method,
// 405 with Allow for another, 401 without a key where a key is needed).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <sstream>

#include "config/config.hpp"
#include "gateway/api/openapi.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
using gateway::Access;
using gateway::all_routes;
using gateway::Route;
using gateway::RouteId;

constexpr const char* kToken = "openapi-token-0123456789abcdef0123456789";
const std::string kAuth = std::string("Authorization: Bearer ") + kToken + "\r\n";

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value of a response header (first one, name in any case), or empty.
std::string header(const HttpResult& r, std::string_view lower_name) {
  std::istringstream in(r.headers);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos || lower(line.substr(0, colon)) != lower_name) continue;
    return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return {};
}

class OpenApiHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-openapi"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml",
               "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n"
               "    tables: { spans: {}, traces: {} }\n"
               "keys:\n  - name: agent\n    sha256: " +
                   auth::to_hex(auth::sha256(kToken)) + "\n    databases: [demo]\n");
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static int port() { return gateway_->port(); }
  static json::object document(const std::string& query = "") {
    return json::parse(http(port(), "GET", "/openapi.json" + query).body).as_object();
  }
  // The document that lists this route: the agent tools, or the operator routes.
  static json::object document_of(const Route& r) {
    return document(gateway::is_agent_tool(r) ? "" : "?audience=operator");
  }
  static const json::object& responses(const json::object& doc, const Route& r) {
    return doc.at("paths").at(r.path).at(lower(r.method)).at("responses").as_object();
  }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* OpenApiHttpTest::dir_ = nullptr;
GatewayProcess* OpenApiHttpTest::gateway_ = nullptr;

TEST_F(OpenApiHttpTest, ServesTheGeneratedDocumentAsJsonWithoutAKey) {
  auto r = http(port(), "GET", "/openapi.json");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(header(r, "content-type"), "application/json");
  auto config = config::load_config(*dir_ / "querygate.yaml");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  // The test client sends "Host: 127.0.0.1": the servers URL is what the client addressed.
  EXPECT_EQ(r.body, gateway::openapi_json(*config, gateway::Audience::Agent, "http://127.0.0.1"))
      << "the served document is the generator's, for this config";
  const auto doc = json::parse(r.body).as_object();
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.1");
  // Keys are configured here, so the SQL operations require one (no anonymous alternative).
  const auto& query = doc.at("paths").at("/v1/query").at("post").as_object();
  EXPECT_EQ(query.at("security").as_array().size(), 1u);
}

TEST_F(OpenApiHttpTest, EveryRouteAnswersItsMethodAsDocumented) {
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;  // /mcp: tests/integration/mcp_http_test.cpp
    if (r.per_tool) continue;     // the curated tools: tests/integration/tools_http_test.cpp
    SCOPED_TRACE(std::string(r.method) + " " + std::string(r.path));
    const auto doc = document_of(r);
    const auto& documented = responses(doc, r);
    const std::string body = r.id == RouteId::Query ? R"({"sql": "SELECT count(*) AS n FROM spans"})" : "";
    auto ok = http(port(), std::string(r.method), std::string(r.path), body, kAuth);
    ASSERT_EQ(ok.status, 200) << ok.body;
    const auto& content = documented.at("200").at("content").as_object();
    ASSERT_EQ(content.size(), 1u);
    EXPECT_EQ(header(ok, "content-type"), std::string(content.begin()->key()));

    auto wrong = http(port(), r.method == "GET" ? "POST" : "GET", std::string(r.path), "", kAuth);
    EXPECT_EQ(wrong.status, 405) << wrong.body;
    EXPECT_EQ(header(wrong, "allow"), r.method);
    EXPECT_TRUE(documented.contains("405"));

    if (r.access == Access::ApiKey) {
      auto anonymous = http(port(), std::string(r.method), std::string(r.path), body);
      EXPECT_EQ(anonymous.status, 401) << anonymous.body;
      EXPECT_TRUE(documented.contains("401"));
      EXPECT_FALSE(header(anonymous, "www-authenticate").empty());
    } else {
      EXPECT_EQ(http(port(), std::string(r.method), std::string(r.path)).status, 200) << "needs no key";
    }
  }
}

TEST_F(OpenApiHttpTest, ServersUrlIsTheHostHeaderWithItsPort) {
  for (const std::string host : {"127.0.0.1:" + std::to_string(port()), "localhost:" + std::to_string(port())}) {
    const std::string raw =
        raw_exchange(port(), "GET /openapi.json HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n",
                     std::chrono::seconds(10));
    const auto r = parse_response(raw);
    ASSERT_EQ(r.status, 200) << raw.substr(0, 200);
    EXPECT_EQ(json::parse(r.body).at("servers").at(0).at("url").as_string(), "http://" + host);
  }
}

TEST_F(OpenApiHttpTest, OperatorRoutesAreInTheirOwnDocumentOnly) {
  const auto agent = document();
  const auto operator_doc = document("?audience=operator");
  EXPECT_EQ(document("?audience=agent"), agent);
  std::size_t listed = 0;
  std::size_t documented = 0;
  for (const Route& r : all_routes()) {
    if (!r.in_openapi) continue;  // the MCP endpoint: JSON-RPC, described by the MCP specification
    if (r.per_tool) continue;     // one operation per configured tool (none here): tools_http_test.cpp
    ++documented;
    const bool in_agent = agent.at("paths").as_object().contains(r.path);
    const bool in_operator = operator_doc.at("paths").as_object().contains(r.path);
    EXPECT_NE(in_agent, in_operator) << r.path << ": in exactly one document";
    EXPECT_EQ(in_agent, gateway::is_agent_tool(r)) << r.path;
    listed += in_agent + in_operator;
  }
  EXPECT_EQ(listed, documented);
  EXPECT_EQ(agent.at("paths").as_object().size(), 2u);
  auto bad = http(port(), "GET", "/openapi.json?audience=model");
  ASSERT_EQ(bad.status, 400) << bad.body;
  const auto error = json::parse(bad.body).at("error");
  EXPECT_EQ(error.at("code").as_string(), "request:bad-field");
  EXPECT_NE(error.at("fix").as_string().find("/openapi.json?audience=operator"), std::string::npos);
  const auto& self = operator_doc.at("paths").at("/openapi.json").at("get").as_object();
  EXPECT_TRUE(self.at("responses").as_object().contains("400"));
  EXPECT_EQ(self.at("parameters").at(0).at("name"), "audience");
}

// LangChain JS hands a model "status: reason" of a refusal and drops the body,
// so the reason phrase carries the error's code, message and fix.
TEST_F(OpenApiHttpTest, ARefusalsReasonPhraseCarriesItsCodeMessageAndFix) {
  const std::string body = R"({"sql": "SELECT cost_ust FROM spans"})";
  const std::string raw = raw_exchange(
      port(),
      "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + kAuth +
          "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body,
      std::chrono::seconds(10));
  const std::string status_line = raw.substr(0, raw.find("\r\n"));
  const auto r = parse_response(raw);
  ASSERT_EQ(r.status, 422) << status_line;
  const auto error = json::parse(r.body).at("error");
  EXPECT_EQ(status_line, "HTTP/1.1 422 " + std::string(error.at("code").as_string()) + ": " +
                             std::string(error.at("message").as_string()) + " " +
                             std::string(error.at("fix").as_string()));
}

TEST_F(OpenApiHttpTest, TheRequestExampleRunsOnThisInstance) {
  const auto doc = document();
  const auto& examples = doc.at("components").at("schemas").at("QueryRequest").at("examples").as_array();
  ASSERT_FALSE(examples.empty());
  auto r = http(port(), "POST", "/v1/query", json::serialize(examples.front()), kAuth);
  EXPECT_EQ(r.status, 200) << json::serialize(examples.front()) << " -> " << r.body;
}

TEST_F(OpenApiHttpTest, RefusalsCarryACodeFromTheDocumentedEnum) {
  const auto doc = document();
  const auto& codes = doc.at("components").at("schemas").at("ErrorCode").at("enum").as_array();
  auto refused = http(port(), "POST", "/v1/query", R"({"sql": "SELECT cost_ust FROM spans"})", kAuth);
  ASSERT_EQ(refused.status, 422) << refused.body;
  const auto code = json::parse(refused.body).at("error").at("code");
  EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << code;
  EXPECT_TRUE(responses(doc, gateway::route(RouteId::Query)).contains("422"));

  auto missing = http(port(), "GET", "/nope");
  ASSERT_EQ(missing.status, 404);
  const std::string fix(json::parse(missing.body).at("error").at("fix").as_string());
  for (const Route& r : all_routes())
    EXPECT_NE(fix.find(std::string(r.method) + " " + std::string(r.path)), std::string::npos) << fix;
}

// Behind a proxy the Host header is the proxy's business: `public_url` wins.
TEST(OpenApiPublicUrlTest, ServersUrlIsThePublicUrlSetting) {
  const auto dir = std::filesystem::path(make_temp_dir("qg-openapi-public"));
  auto made = run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  write_file(dir / "querygate.yaml",
             "public_url: https://sql.example.com/querygate/\n"
             "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n    tables: { spans: {} }\n");
  GatewayProcess gateway(dir / "querygate.yaml");
  for (const std::string query : {"", "?audience=operator"}) {
    auto r = http(gateway.port(), "GET", "/openapi.json" + query);
    ASSERT_EQ(r.status, 200) << r.body;
    const auto servers = json::parse(r.body).at("servers").as_array();
    ASSERT_EQ(servers.size(), 1u);
    EXPECT_EQ(servers.at(0).at("url").as_string(), "https://sql.example.com/querygate");
  }
  EXPECT_EQ(gateway.stop(), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
