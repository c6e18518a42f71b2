// POST /mcp against the real binary over loopback: the protocol's edges
// (malformed JSON, wrong jsonrpc, unknown method, batches per revision,
// sessions, Origin, keys) and the tools calling the same core as /v1 (the
// envelope, refusals, key scopes, cancellation, the request log and metrics).
// The official TypeScript SDK client runs against it in tests/clients/mcp.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "config/config.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/auth/sha256.hpp"
#include "gateway/mcp/mcp.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "mcp-agent-token-0123456789abcdef0123456789";
constexpr const char* kOtherToken = "mcp-other-token-0123456789abcdef0123456789";
const std::string kAuth = std::string("Authorization: Bearer ") + kToken + "\r\n";
const std::string kOtherAuth = std::string("Authorization: Bearer ") + kOtherToken + "\r\n";
constexpr const char* kSlow = "SELECT count(*) AS n FROM spans AS a, spans AS b, spans AS c";

std::string header(const HttpResult& r, std::string_view lower_name) {
  std::istringstream in(r.headers);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == lower_name) return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return {};
}

std::string rpc(int id, std::string_view method, std::string_view params = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) + R"(","params":)" +
         std::string(params) + "}";
}

class McpHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-mcp"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml",
               "limits: { deadline_ms: 30000 }\n"
               "databases:\n"
               "  demo:\n    backend: sqlite\n    path: demo.db\n    spotlight: true\n"
               "    tables:\n      spans: {}\n      traces: {}\n"
               "      span_annotations:\n        columns:\n          explanation: { untrusted: true }\n"
               "  other: { backend: sqlite, path: demo.db, tables: { traces: {} } }\n"
               "keys:\n  - name: agent\n    sha256: " +
                   auth::to_hex(auth::sha256(kToken)) + "\n    databases: [demo]\n" + "  - name: other\n    sha256: " +
                   auth::to_hex(auth::sha256(kOtherToken)) + "\n    databases: [other]\n");
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static int port() { return gateway_->port(); }

  static HttpResult post(const std::string& body, const std::string& headers) {
    return http(port(), "POST", "/mcp", body, headers);
  }
  // A new session for `auth` with `version`; its id.
  static std::string open(const std::string& auth = kAuth, const std::string& version = "2025-11-25") {
    auto r = post(
        rpc(0, "initialize",
            R"({"protocolVersion":")" + version + R"(","capabilities":{},"clientInfo":{"name":"test","version":"1"}})"),
        auth);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body).at("result").at("protocolVersion").as_string(), version);
    return header(r, "mcp-session-id");
  }
  static std::string session(const std::string& id) { return "Mcp-Session-Id: " + id + "\r\n"; }
  static json::object call(const std::string& sid, const std::string& tool, const std::string& arguments,
                           const std::string& auth = kAuth) {
    auto r =
        post(rpc(7, "tools/call", R"({"name":")" + tool + R"(","arguments":)" + arguments + "}"), auth + session(sid));
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).as_object();
  }
  static int error_code(const HttpResult& r) {
    return static_cast<int>(json::parse(r.body).at("error").at("code").as_int64());
  }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* McpHttpTest::dir_ = nullptr;
GatewayProcess* McpHttpTest::gateway_ = nullptr;

TEST_F(McpHttpTest, InitializeNegotiatesTheRevisionAndIssuesASession) {
  const std::string sid = open();
  EXPECT_EQ(sid.size(), 32u) << "128 random bits";
  EXPECT_NE(open(), sid) << "one session per initialize";
  for (auto v : gateway::mcp::kProtocolVersions) EXPECT_FALSE(open(kAuth, std::string(v)).empty()) << v;
  // A revision this server does not speak: it answers with its newest.
  auto r = post(rpc(1, "initialize", R"({"protocolVersion":"1999-01-01","capabilities":{}})"), kAuth);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("result").at("protocolVersion").as_string(), gateway::mcp::kProtocolVersions[0]);
  const auto result = json::parse(r.body).at("result");
  EXPECT_FALSE(result.at("capabilities").at("tools").as_object().empty());
  EXPECT_EQ(result.at("serverInfo").at("name").as_string(), "querygate");
}

TEST_F(McpHttpTest, ToolsAreTheRouteTablesAgentOperations) {
  const std::string sid = open();
  auto r = post(rpc(2, "tools/list"), kAuth + session(sid));
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value listed = json::parse(r.body);
  const auto& tools = listed.at("result").at("tools").as_array();
  std::vector<std::string> names;
  for (const auto& t : tools) {
    names.emplace_back(t.at("name").as_string());
    EXPECT_EQ(t.at("inputSchema").at("type").as_string(), "object");
    EXPECT_EQ(t.at("outputSchema").at("type").as_string(), "object");
    EXPECT_EQ(json::serialize(t).find("$ref"), std::string::npos) << "schemas are self-contained";
    EXPECT_EQ(json::serialize(t.at("description")).find("`executeSql`"), std::string::npos)
        << "tools are named by their MCP names";
  }
  std::vector<std::string> expected;
  for (const auto& route : gateway::all_routes())
    if (!route.tool_name.empty()) expected.emplace_back(route.tool_name);
  EXPECT_EQ(names, expected);
  EXPECT_EQ(names, (std::vector<std::string>{"execute_sql", "describe_schema"}));
  const auto& sql = tools[0].at("inputSchema").at("properties").as_object();
  for (auto field : {"sql", "database", "limit", "timeout_ms", "validate_only"})
    EXPECT_TRUE(sql.contains(field)) << field;
  const auto& schema = tools[1].at("inputSchema").at("properties").as_object();
  for (auto field : {"database", "detail", "tables", "search"}) EXPECT_TRUE(schema.contains(field)) << field;
}

TEST_F(McpHttpTest, ExecuteSqlAnswersTheV1EnvelopeAsStructuredContent) {
  const std::string sid = open();
  const std::string args = R"({"sql":"SELECT trace_id FROM traces ORDER BY trace_id","limit":3,"database":"demo"})";
  const auto result = call(sid, "execute_sql", args).at("result").as_object();
  EXPECT_FALSE(result.at("isError").as_bool());
  auto v1 = http(port(), "POST", "/v1/query", args, kAuth);
  ASSERT_EQ(v1.status, 200) << v1.body;
  EXPECT_EQ(result.at("structuredContent"), json::parse(v1.body)) << "the same envelope as /v1/query";
  const std::string text(result.at("content").at(0).at("text").as_string());
  EXPECT_EQ(json::parse(text), json::parse(v1.body)) << "the text rendering holds the same answer";
}

TEST_F(McpHttpTest, RefusalsAreToolErrorsWithTheWholeError) {
  const std::string sid = open();
  const auto result =
      call(sid, "execute_sql", R"({"sql":"SELECT cost_ust FROM spans","database":"demo"})").at("result").as_object();
  EXPECT_TRUE(result.at("isError").as_bool());
  auto v1 = http(port(), "POST", "/v1/query", R"({"sql":"SELECT cost_ust FROM spans","database":"demo"})", kAuth);
  ASSERT_EQ(v1.status, 422) << v1.body;
  const auto& error = result.at("structuredContent").at("error").as_object();
  EXPECT_EQ(result.at("structuredContent"), json::parse(v1.body)) << "the /v1 error envelope, whole";
  ASSERT_TRUE(error.contains("fix"));
  ASSERT_TRUE(error.contains("position"));
  const std::string text(result.at("content").at(0).at("text").as_string());
  EXPECT_NE(text.find(std::string(error.at("code").as_string())), std::string::npos) << text;
  EXPECT_NE(text.find(std::string(error.at("fix").as_string())), std::string::npos) << text;
  EXPECT_NE(text.find("position: byte " + std::to_string(error.at("position").as_int64())), std::string::npos) << text;
  // Arguments are read as strictly as the /v1 body.
  const auto unknown = call(sid, "execute_sql", R"({"query":"SELECT 1"})").at("result");
  EXPECT_TRUE(unknown.at("isError").as_bool());
  EXPECT_EQ(unknown.at("structuredContent").at("error").at("code").as_string(), "request:unknown-field");
  const auto bad = call(sid, "describe_schema", R"({"detail":"everything","database":"demo"})").at("result");
  EXPECT_TRUE(bad.at("isError").as_bool());
  EXPECT_EQ(bad.at("structuredContent").at("error").at("code").as_string(), "request:bad-field");
}

TEST_F(McpHttpTest, KeyScopesApplyToTools) {
  const std::string sid = open(kOtherAuth);
  const auto forbidden = call(sid, "execute_sql", R"({"sql":"SELECT 1 AS one","database":"demo"})", kOtherAuth);
  EXPECT_TRUE(forbidden.at("result").at("isError").as_bool());
  EXPECT_EQ(forbidden.at("result").at("structuredContent").at("error").at("code").as_string(), "auth:forbidden");
  const auto schema = call(sid, "describe_schema", R"({"database":"demo"})", kOtherAuth);
  EXPECT_EQ(schema.at("result").at("structuredContent").at("error").at("code").as_string(), "auth:forbidden");
  const auto own = call(sid, "describe_schema", R"({"database":"other","detail":"brief"})", kOtherAuth);
  EXPECT_FALSE(own.at("result").at("isError").as_bool());
  auto v1 = http(port(), "GET", "/v1/schema?database=other&detail=brief", "", kOtherAuth);
  EXPECT_EQ(own.at("result").at("structuredContent").at("schema").as_string(), v1.body);
  // A session belongs to the key that opened it.
  auto stolen = post(rpc(3, "tools/list"), kAuth + session(sid));
  EXPECT_EQ(stolen.status, 404) << stolen.body;
}

TEST_F(McpHttpTest, UntrustedTextIsFlaggedAndFencedInTheText) {
  const std::string sid = open();
  const auto result =
      call(
          sid, "execute_sql",
          R"({"sql":"SELECT id, explanation FROM span_annotations WHERE explanation IS NOT NULL ORDER BY id","limit":2,"database":"demo"})")
          .at("result")
          .as_object();
  ASSERT_FALSE(result.at("isError").as_bool()) << json::serialize(result);
  const auto& content = result.at("structuredContent").as_object();
  EXPECT_TRUE(content.at("columns").at(1).as_object().contains("untrusted"));
  EXPECT_FALSE(content.at("untrusted_rows").as_array().empty());
  const std::string cell(content.at("rows").at(0).at(1).as_string());
  EXPECT_TRUE(cell.starts_with("<<untrusted:")) << cell;
  const std::string text(result.at("content").at(0).at("text").as_string());
  EXPECT_NE(text.find(cell), std::string::npos) << "the text rendering carries the fenced value";
}

TEST_F(McpHttpTest, MalformedInputGetsJsonRpcErrorsNeverACrash) {
  const std::string sid = open();
  const std::string s = kAuth + session(sid);
  auto parse = post("{\"jsonrpc\":", s);
  EXPECT_EQ(parse.status, 400);
  EXPECT_EQ(error_code(parse), -32700);
  auto version = post(R"({"jsonrpc":"1.0","id":1,"method":"tools/list"})", s);
  EXPECT_EQ(version.status, 400);
  EXPECT_EQ(error_code(version), -32600);
  EXPECT_EQ(post(R"({"jsonrpc":"2.0","id":null,"method":"tools/list"})", s).status, 400);
  EXPECT_EQ(error_code(post(R"({"jsonrpc":"2.0","id":{},"method":"ping"})", s)), -32600);
  EXPECT_EQ(error_code(post(R"({"jsonrpc":"2.0","id":1,"method":5})", s)), -32600);
  EXPECT_EQ(error_code(post(R"("just a string")", s)), -32600);
  auto unknown = post(rpc(4, "resources/list"), s);
  EXPECT_EQ(unknown.status, 200);
  EXPECT_EQ(error_code(unknown), -32601);
  EXPECT_EQ(json::parse(unknown.body).at("id").as_int64(), 4);
  EXPECT_EQ(error_code(post(rpc(5, "tools/call", R"({"name":"drop_table"})"), s)), -32602);
  EXPECT_EQ(error_code(post(rpc(5, "tools/call", R"({"arguments":{}})"), s)), -32602);
  EXPECT_EQ(error_code(post(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":[1]})", s)), -32602);
  EXPECT_EQ(post(std::string(5000, '['), s).status, 400) << "deep nesting is a parse error";
  auto twice = post(
      rpc(9, "tools/call", R"({"name":"execute_sql","arguments":{"sql":"SELECT 1 AS a","sql":"SELECT 2 AS b"}})"), s);
  EXPECT_EQ(twice.status, 400) << twice.body;
  EXPECT_EQ(error_code(twice), -32600);
  EXPECT_EQ(json::parse(twice.body).at("error").at("data").at("code").as_string(), "request:duplicate-field");
  EXPECT_NE(twice.body.find("params.arguments.sql"), std::string::npos) << twice.body;
  auto ping = post(rpc(8, "ping"), s);
  EXPECT_EQ(ping.status, 200);
  EXPECT_TRUE(json::parse(ping.body).at("result").as_object().empty());
  // Not JSON by its Content-Type: refused before reading (no CSRF by a simple form POST).
  auto plain = http(port(), "POST", "/mcp", "", kAuth + session(sid) + "Content-Type: text/plain\r\n");
  EXPECT_NE(plain.status, 200);
  EXPECT_TRUE(gateway_->alive());
}

TEST_F(McpHttpTest, NotificationsAndResponsesGet202) {
  const std::string sid = open();
  auto n = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", kAuth + session(sid));
  EXPECT_EQ(n.status, 202) << n.body;
  EXPECT_TRUE(n.body.empty());
  auto r = post(R"({"jsonrpc":"2.0","id":9,"result":{}})", kAuth + session(sid));
  EXPECT_EQ(r.status, 202) << r.body;
}

TEST_F(McpHttpTest, SessionsAreRequiredAndEndWithDelete) {
  auto missing = post(rpc(1, "tools/list"), kAuth);
  EXPECT_EQ(missing.status, 400) << missing.body;
  EXPECT_EQ(error_code(missing), -32000);
  auto unknown = post(rpc(1, "tools/list"), kAuth + session("00000000000000000000000000000000"));
  EXPECT_EQ(unknown.status, 404) << unknown.body;
  const std::string sid = open();
  EXPECT_EQ(post(rpc(1, "tools/list"), kAuth + session(sid)).status, 200);
  EXPECT_EQ(http(port(), "DELETE", "/mcp", "", kAuth + session(sid)).status, 200);
  EXPECT_EQ(post(rpc(1, "tools/list"), kAuth + session(sid)).status, 404) << "ended";
  EXPECT_EQ(http(port(), "DELETE", "/mcp", "", kAuth + session(sid)).status, 404);
  auto get = http(port(), "GET", "/mcp", "", kAuth);
  EXPECT_EQ(get.status, 405) << "no server-sent stream; the spec allows 405";
  EXPECT_EQ(header(get, "allow"), "POST, DELETE");
  auto version = post(rpc(1, "tools/list"), kAuth + session(open()) + "MCP-Protocol-Version: 1999-01-01\r\n");
  EXPECT_EQ(version.status, 400) << version.body;
}

TEST_F(McpHttpTest, BatchesFollowTheNegotiatedRevision) {
  const std::string batch =
      "[" + rpc(1, "ping") + "," + R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "," +
      rpc(2, "tools/call", R"({"name":"execute_sql","arguments":{"sql":"SELECT 1 AS one","database":"demo"}})") + "," +
      R"({"jsonrpc":"1.0","id":3,"method":"ping"})" + "]";
  // 2025-06-18 and later: no batches.
  auto refused = post(batch, kAuth + session(open(kAuth, "2025-06-18")));
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_EQ(error_code(refused), -32600);
  EXPECT_EQ(post(batch, kAuth + session(open(kAuth, "2025-11-25"))).status, 400);
  // 2025-03-26: one response per request, in order; none for the notification.
  const std::string sid = open(kAuth, "2025-03-26");
  auto r = post(batch, kAuth + session(sid));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto answers = json::parse(r.body).as_array();
  ASSERT_EQ(answers.size(), 3u) << r.body;
  EXPECT_EQ(answers[0].at("id").as_int64(), 1);
  EXPECT_EQ(answers[1].at("id").as_int64(), 2);
  EXPECT_EQ(answers[1].at("result").at("structuredContent").at("rows").at(0).at(0).as_int64(), 1);
  EXPECT_EQ(answers[2].at("error").at("code").as_int64(), -32600);
  EXPECT_EQ(post("[]", kAuth + session(sid)).status, 400);
  auto only_notes = post(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])", kAuth + session(sid));
  EXPECT_EQ(only_notes.status, 202);
  auto init = post("[" + rpc(1, "initialize", R"({"protocolVersion":"2025-03-26"})") + "]", kAuth + session(sid));
  ASSERT_EQ(init.status, 200) << init.body;
  EXPECT_EQ(json::parse(init.body).at(0).at("error").at("code").as_int64(), -32600) << "initialize comes alone";
}

TEST_F(McpHttpTest, KeysAndOriginAreCheckedAsForV1) {
  auto anonymous = post(rpc(1, "initialize", R"({"protocolVersion":"2025-11-25"})"), "");
  EXPECT_EQ(anonymous.status, 401) << anonymous.body;
  EXPECT_FALSE(header(anonymous, "www-authenticate").empty());
  auto wrong = post(rpc(1, "initialize", R"({"protocolVersion":"2025-11-25"})"),
                    "Authorization: Bearer not-a-configured-token\r\n");
  EXPECT_EQ(wrong.status, 401);
  auto foreign =
      post(rpc(1, "initialize", R"({"protocolVersion":"2025-11-25"})"), kAuth + "Origin: http://evil.example\r\n");
  EXPECT_EQ(foreign.status, 403) << foreign.body;
  auto local =
      post(rpc(1, "initialize", R"({"protocolVersion":"2025-11-25"})"), kAuth + "Origin: http://localhost:6274\r\n");
  EXPECT_EQ(local.status, 200) << local.body;
}

// A request the test holds open on its own connection, to send notifications/cancelled meanwhile.
class OpenPost {
 public:
  OpenPost(int port, const std::string& body, const std::string& headers) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string bytes =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
    EXPECT_EQ(send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  ~OpenPost() { close(fd_); }
  std::string read_all() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = recv(fd_, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    return out;
  }

 private:
  int fd_ = -1;
};

TEST_F(McpHttpTest, CancelledNotificationCancelsTheRunningStatement) {
  const std::string sid = open();
  const auto start = std::chrono::steady_clock::now();
  OpenPost slow(port(),
                rpc(42, "tools/call",
                    R"({"name":"execute_sql","arguments":{"sql":")" + std::string(kSlow) + R"(","database":"demo"}})"),
                kAuth + session(sid));
  std::this_thread::sleep_for(300ms);  // let it reach the engine (not synchronisation: either way it is cancelled)
  auto cancelled =
      post(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42,"reason":"test"}})",
           kAuth + session(sid));
  EXPECT_EQ(cancelled.status, 202);
  const HttpResult answer = parse_response(slow.read_all());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "long before the statement's 30 s deadline";
  ASSERT_EQ(answer.status, 200) << answer.body;
  const auto result = json::parse(answer.body).at("result");
  EXPECT_TRUE(result.at("isError").as_bool());
  EXPECT_EQ(result.at("structuredContent").at("error").at("code").as_string(), "request:cancelled");
}

// The value of one series in a /metrics scrape (0 when absent).
double metric(const std::string& scrape, const std::string& series) {
  const auto at = scrape.find("\n" + series + " ");
  return at == std::string::npos ? 0 : std::stod(scrape.substr(at + series.size() + 2));
}

// The request-log lines of /mcp calls with this outcome.
std::vector<std::string> mcp_log_lines(const std::string& log, const std::string& outcome) {
  std::istringstream in(log);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (line.find("\"route\":\"/mcp\"") != std::string::npos &&
        line.find("\"outcome\":\"" + outcome + "\"") != std::string::npos)
      out.push_back(line);
  return out;
}

TEST_F(McpHttpTest, ToolCallsAreLoggedAndCountedLikeV1) {
  const std::string sid = open();
  const std::string series = "querygate_statements_total{database=\"demo\",outcome=\"validation:unknown-column\"}";
  const double before = metric(http(port(), "GET", "/metrics").body, series);
  const auto lines_before = mcp_log_lines(gateway_->log(), "validation:unknown-column").size();
  call(sid, "execute_sql", R"({"sql":"SELECT no_such FROM spans","database":"demo"})");
  const std::string scrape = http(port(), "GET", "/metrics").body;
  EXPECT_NE(scrape.find("route=\"/mcp\""), std::string::npos);
  EXPECT_EQ(metric(scrape, series), before + 1) << "counted as a statement, like /v1/query";
  // One log line for the call, with what /v1/query's line has: key, database, outcome, fingerprint.
  const auto lines = mcp_log_lines(gateway_->log(), "validation:unknown-column");
  ASSERT_EQ(lines.size(), lines_before + 1);
  const std::string& line = lines.back();
  EXPECT_NE(line.find("\"key\":\"agent\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"database\":\"demo\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"fingerprint\":\""), std::string::npos) << line;
}

// Without keys (loopback only), MCP needs none either: anonymous sessions, one database by default.
TEST(McpAnonymousTest, WithoutKeysNoAuthorizationIsNeeded) {
  const auto dir = make_temp_dir("qg-mcp-anon");
  ASSERT_EQ(run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()}).exit_code, 0);
  write_file(dir / "q.yaml", "databases:\n  demo: { backend: sqlite, path: demo.db, tables: { traces: {} } }\n");
  GatewayProcess gateway(dir / "q.yaml");
  auto init = http(gateway.port(), "POST", "/mcp", rpc(1, "initialize", R"({"protocolVersion":"2025-06-18"})"));
  ASSERT_EQ(init.status, 200) << init.body;
  const std::string sid = "Mcp-Session-Id: " + header(init, "mcp-session-id") + "\r\n";
  auto r = http(
      gateway.port(), "POST", "/mcp",
      rpc(2, "tools/call", R"({"name":"execute_sql","arguments":{"sql":"SELECT count(*) AS n FROM traces"}})"), sid);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto result = json::parse(r.body).at("result");
  EXPECT_FALSE(result.at("isError").as_bool()) << r.body;
  auto v1 = http(gateway.port(), "POST", "/v1/query", R"({"sql":"SELECT count(*) AS n FROM traces"})");
  EXPECT_EQ(result.at("structuredContent"), json::parse(v1.body));
  EXPECT_EQ(gateway.stop(), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
