// What the gateway reads from a request before any SQL, against the real binary
// over loopback (issue #11, section 4): a field named twice is refused, not
// "last one wins"; only application/json bodies are read (a browser's simple
// requests are not); a loopback listener answers only requests addressed to it
// (Host, Origin: DNS rebinding); malformed HTTP has its own code.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>

#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

class RequestsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-requests"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml",
               "allowed_hosts: [Querygate.Local]\n"
               "databases:\n  demo: { backend: sqlite, path: demo.db, tables: { spans: {}, traces: {} } }\n");
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static int port() { return gateway_->port(); }

  // A request with exactly these headers (plus Content-Length when there is a body).
  static HttpResult raw(const std::string& method, const std::string& target, const std::string& headers,
                        const std::string& body = {}) {
    std::string bytes = method + " " + target + " HTTP/1.1\r\nConnection: close\r\n" + headers;
    if (!body.empty() || method == "POST") bytes += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return parse_response(raw_exchange(port(), bytes + "\r\n" + body, std::chrono::seconds(30)));
  }
  static HttpResult post(const std::string& headers, const std::string& body) {
    return raw("POST", "/v1/query", headers, body);
  }
  static std::string code_of(const HttpResult& r) {
    try {
      return std::string(json::parse(r.body).at("error").at("code").as_string());
    } catch (...) {
      return "(no error code: " + std::to_string(r.status) + " " + r.body + ")";
    }
  }
  static std::string fix_of(const HttpResult& r) {
    return std::string(json::parse(r.body).at("error").at("fix").as_string());
  }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* RequestsTest::dir_ = nullptr;
GatewayProcess* RequestsTest::gateway_ = nullptr;

const std::string kJson = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n";
const std::string kCount = R"({"sql": "SELECT count(*) AS n FROM spans"})";

TEST_F(RequestsTest, AFieldNamedTwiceIsRefusedNotLastOneWins) {
  // A proxy or log that reads the first "sql" would see a different statement from the one run.
  for (const std::string body : {R"({"sql": "SELECT count(*) FROM users", "sql": "SELECT 1 AS one"})",
                                 R"({"sql": "SELECT 1 AS one", "s\u0071l": "SELECT 2 AS two"})",
                                 R"({"sql": "SELECT 1 AS one", "database": "demo", "limit": 5, "database": "demo"})"}) {
    SCOPED_TRACE(body);
    auto r = post(kJson, body);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(code_of(r), "request:duplicate-field");
    EXPECT_TRUE(fix_of(r).starts_with("FIX: send each field once")) << r.body;
  }
  EXPECT_EQ(post(kJson, R"({"sql": "SELECT 1 AS one", "limit": 5})").status, 200);
}

TEST_F(RequestsTest, OnlyJsonBodiesAreRead) {
  // What a browser may send cross-site without a preflight, and no type at all.
  for (const std::string type :
       {"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x", "application/jsonx", "application/json; charset=latin1", ""}) {
    SCOPED_TRACE(type);
    const std::string headers = "Host: 127.0.0.1\r\n" + (type.empty() ? "" : "Content-Type: " + type + "\r\n");
    auto r = post(headers, kCount);
    EXPECT_EQ(r.status, 415) << r.body;
    EXPECT_EQ(code_of(r), "request:unsupported-media-type");
    EXPECT_NE(fix_of(r).find("Content-Type: application/json"), std::string::npos) << r.body;
  }
  for (const std::string type : {"application/json", "Application/JSON", "application/json; charset=utf-8",
                                 "application/json;charset=\"UTF-8\""}) {
    SCOPED_TRACE(type);
    auto r = post("Host: 127.0.0.1\r\nContent-Type: " + type + "\r\n", kCount);
    EXPECT_EQ(r.status, 200) << r.body;
  }
}

TEST_F(RequestsTest, ALoopbackGatewayAnswersOnlyRequestsAddressedToIt) {
  const std::string p = std::to_string(port());
  for (const std::string host :
       std::initializer_list<std::string>{"127.0.0.1", "127.0.0.1:" + p, "localhost:" + p, "LOCALHOST", "[::1]:" + p,
                                          "127.1.2.3:" + p, "querygate.local:" + p}) {
    SCOPED_TRACE(host);
    EXPECT_EQ(post("Host: " + host + "\r\nContent-Type: application/json\r\n", kCount).status, 200);
  }
  // DNS rebinding: the page's own name arrives in Host, whatever address it resolved to.
  for (const std::string host :
       std::initializer_list<std::string>{"evil.example:" + p, "evil.example", "127.0.0.1.evil.example:" + p,
                                          "localhost.evil.example", "127.0.0.256", "[::2]:" + p, "localhost:http"}) {
    SCOPED_TRACE(host);
    auto r = post("Host: " + host + "\r\nContent-Type: application/json\r\n", kCount);
    EXPECT_EQ(r.status, 421) << r.body;
    EXPECT_EQ(code_of(r), "request:host-not-allowed");
    EXPECT_NE(fix_of(r).find("allowed_hosts"), std::string::npos) << r.body;
    // Every route: the schema, readiness and metrics describe the data too.
    for (const char* target : {"/v1/schema", "/readyz", "/metrics", "/healthz", "/openapi.json"})
      EXPECT_EQ(raw("GET", target, "Host: " + host + "\r\n").status, 421) << target;
  }
  // A browser's Origin, when sent, must be a page of this machine too.
  for (const std::string origin : {"http://localhost:3000", "https://127.0.0.1", "http://querygate.local"})
    EXPECT_EQ(post(kJson + "Origin: " + origin + "\r\n", kCount).status, 200) << origin;
  for (const std::string origin : std::initializer_list<std::string>{"http://evil.example", "null", "file://",
                                                                     "http://localhost.evil.example:" + p}) {
    SCOPED_TRACE(origin);
    auto r = post(kJson + "Origin: " + origin + "\r\n", kCount);
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(code_of(r), "request:origin-not-allowed");
  }
  // The refusals are documented where the route's other answers are.
  const auto doc = json::parse(http(port(), "GET", "/openapi.json").body);
  const auto& responses = doc.at("paths").at("/v1/query").at("post").at("responses").as_object();
  for (const char* status : {"400", "403", "415", "421"}) EXPECT_TRUE(responses.contains(status)) << status;
}

TEST_F(RequestsTest, MalformedHttpHasItsOwnCode) {
  auto r = parse_response(raw_exchange(port(), "NOT HTTP AT ALL\r\n\r\n", std::chrono::seconds(10)));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(code_of(r), "request:malformed-http");
  EXPECT_EQ(post(kJson, kCount).status, 200) << "and the server keeps serving";
}

}  // namespace
}  // namespace qg::testing
