// Curated tools against the real binary over loopback, on SQLite and on the
// test cluster's PostgreSQL demo: POST /v1/tools/{name} gives the /v1/query
// envelope (oracle: the same statement with the argument written as a literal,
// sent to /v1/query), bad arguments are 422 with a FIX and run nothing,
// arguments are data (quotes and SQL included), values_from follows the data,
// a `sql: false` key gets tools only, GET /v1/tools, /openapi.json and MCP
// list each tool, and a tool that does not admit stops the start.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

constexpr const char* kFullToken = "tools-full-token-0123456789abcdef0123456789";
constexpr const char* kToolsOnlyToken = "tools-only-token-0123456789abcdef0123456789";
constexpr const char* kOneToolToken = "tools-one-token-0123456789abcdef01234567890";

std::string auth(const char* token) {
  return std::string("Authorization: Bearer ") + token + "\r\n";
}

// The tools, the same on both backends (their SQL admits on both).
std::string tools_yaml(const std::string& db) {
  const std::string suffix = db == "demo" ? "" : "_pg";
  return "  errors_by_project" + suffix + ":\n    database: " + db +
         "\n"
         "    description: Traces and failed traces of one project since a day. Counts, not rates.\n"
         "    parameters:\n"
         "      project: { type: string, values_from: 'SELECT name FROM projects', description: project name }\n"
         "      since: { type: date, min: '2026-01-01', max: '2027-12-31', default: '2026-09-16' }\n"
         "    sql: >-\n"
         "      SELECT p.name, count(*) AS traces, sum(CASE WHEN t.status = 'ERROR' THEN 1 ELSE 0 END) AS failed\n"
         "      FROM traces t JOIN projects p ON p.id = t.project_id\n"
         "      WHERE p.name = :project AND t.start_time >= :since GROUP BY p.name\n"
         "  spans_named" +
         suffix + ":\n    database: " + db +
         "\n"
         "    description: How many spans have this exact name, and their total cost.\n"
         "    parameters:\n"
         "      name: { type: string, max_length: 200 }\n"
         "      min_cost: { type: number, min: 0, required: false }\n"
         "    sql: >-\n"
         "      SELECT count(*) AS n, sum(cost_usd) AS cost_usd FROM spans\n"
         "      WHERE name = :name AND (cost_usd >= :min_cost OR :min_cost IS NULL)\n";
}

class ToolsHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-tools"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml",
               "databases:\n"
               "  demo:\n    backend: sqlite\n    path: demo.db\n"
               "    tables: { projects: {}, traces: {}, spans: {} }\n"
               "keys:\n"
               "  - { name: full, databases: [demo], sha256: " +
                   auth::to_hex(auth::sha256(kFullToken)) +
                   " }\n"
                   "  - { name: tools-only, databases: [demo], sql: false, sha256: " +
                   auth::to_hex(auth::sha256(kToolsOnlyToken)) +
                   " }\n"
                   "  - { name: one-tool, databases: [demo], tools: [spans_named], sha256: " +
                   auth::to_hex(auth::sha256(kOneToolToken)) + " }\n" + "tools:\n" + tools_yaml("demo"));
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static int port() { return gateway_->port(); }
  static HttpResult tool(const std::string& name, const std::string& body, const char* token = kFullToken) {
    return http(port(), "POST", "/v1/tools/" + name, body, auth(token));
  }
  static HttpResult query(const std::string& sql, const char* token = kFullToken) {
    return http(port(), "POST", "/v1/query", json::serialize(json::object{{"sql", sql}}), auth(token));
  }
  static json::object body(const HttpResult& r) { return json::parse(r.body).as_object(); }
  static std::string code(const HttpResult& r) { return std::string(body(r).at("error").at("code").as_string()); }
  static std::string fix(const HttpResult& r) { return std::string(body(r).at("error").at("fix").as_string()); }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* ToolsHttpTest::dir_ = nullptr;
GatewayProcess* ToolsHttpTest::gateway_ = nullptr;

TEST_F(ToolsHttpTest, AToolAnswersWhatItsStatementWithTheLiteralsAnswers) {
  auto r = tool("errors_by_project", R"({"project": "support-bot", "since": "2026-10-01"})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto oracle = query(
      "SELECT p.name, count(*) AS traces, sum(CASE WHEN t.status = 'ERROR' THEN 1 ELSE 0 END) AS failed "
      "FROM traces t JOIN projects p ON p.id = t.project_id "
      "WHERE p.name = 'support-bot' AND t.start_time >= '2026-10-01' GROUP BY p.name");
  ASSERT_EQ(oracle.status, 200) << oracle.body;
  EXPECT_EQ(body(r).at("rows"), body(oracle).at("rows"));
  EXPECT_EQ(body(r).at("columns"), body(oracle).at("columns"));
  EXPECT_GT(body(r).at("rows").at(0).at(1).as_int64(), 0);
  // The default of `since` applies when it is left out.
  auto all = tool("errors_by_project", R"({"project": "support-bot"})");
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_GT(body(all).at("rows").at(0).at(1).as_int64(), body(r).at("rows").at(0).at(1).as_int64());
}

TEST_F(ToolsHttpTest, ArgumentsAreDataNeverSql) {
  auto real = tool("spans_named", R"({"name": "ChatCompletion"})");
  ASSERT_EQ(real.status, 200) << real.body;
  EXPECT_GT(body(real).at("rows").at(0).at(0).as_int64(), 0);
  for (const char* hostile : {R"({"name": "ChatCompletion' OR '1'='1"})", R"({"name": "x'; DROP TABLE spans; --"})",
                              R"({"name": "ChatCompletion\" OR 1=1 --"})", R"({"name": "Ünïcödé ☃ ' \\ %_"})"}) {
    auto r = tool("spans_named", hostile);
    ASSERT_EQ(r.status, 200) << hostile << " " << r.body;
    EXPECT_EQ(body(r).at("rows").at(0).at(0).as_int64(), 0) << hostile;
  }
  // Still there, and the optional number filters when given.
  auto costly = tool("spans_named", R"({"name": "ChatCompletion", "min_cost": 0.01})");
  ASSERT_EQ(costly.status, 200) << costly.body;
  EXPECT_LT(body(costly).at("rows").at(0).at(0).as_int64(), body(real).at("rows").at(0).at(0).as_int64());
}

TEST_F(ToolsHttpTest, BadArgumentsAre422WithTheAllowedValuesAndNothingRuns) {
  struct Case {
    const char* tool;
    const char* args;
    const char* in_message;
    const char* in_fix;
  };
  const Case cases[] = {
      {"errors_by_project", R"({"project": "support-bot", "since": "2025-12-31"})", "out of range",
       R"(from "2026-01-01" to "2027-12-31")"},
      {"errors_by_project", R"({"project": "support-bot", "since": "10/01/2026"})", "must be a date", "YYYY-MM-DD"},
      {"errors_by_project", R"({"project": "no-such-project"})", "not one of the current values", "\"support-bot\""},
      {"errors_by_project", R"({"projct": "support-bot"})", "unknown argument 'projct'", "did you mean \"project\"?"},
      {"errors_by_project", R"({})", "'project' of tool 'errors_by_project' is missing", "project (string, required)"},
      {"spans_named", R"({"name": 7})", "must be a string", "at most 200 characters"},
      {"spans_named", R"({"name": "a", "min_cost": -1})", "out of range", "at least 0"},
      {"spans_named", R"({"name": "a", "min_cost": "1"})", "must be a number", "a number"},
  };
  for (const Case& c : cases) {
    auto r = tool(c.tool, c.args);
    ASSERT_EQ(r.status, 422) << c.args << " " << r.body;
    EXPECT_EQ(code(r), "tool:invalid-argument");
    EXPECT_NE(r.body.find(c.in_message), std::string::npos) << r.body;
    EXPECT_NE(fix(r).find(c.in_fix), std::string::npos) << fix(r);
    EXPECT_TRUE(fix(r).starts_with("FIX: ")) << fix(r);
  }
  // Not an object; a field twice; an unknown tool.
  EXPECT_EQ(code(tool("spans_named", R"(["a"])")), "request:bad-json");
  EXPECT_EQ(code(tool("spans_named", R"({"name": "a", "name": "b"})")), "request:duplicate-field");
  // Only one path segment names a tool.
  for (const char* path : {"/v1/tools/", "/v1/tools/spans_named/x"}) {
    auto r = http(port(), "POST", path, "{}", auth(kFullToken));
    EXPECT_EQ(r.status, 404) << path << " " << r.body;
  }
  auto unknown = tool("spans_name", R"({"name": "a"})");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_NE(fix(unknown).find("did you mean 'spans_named'?"), std::string::npos) << unknown.body;
}

TEST_F(ToolsHttpTest, ValuesFromFollowsTheData) {
  auto before = tool("errors_by_project", R"({"project": "new-project"})");
  ASSERT_EQ(before.status, 422) << before.body;
  EXPECT_EQ(fix(before).find("new-project"), std::string::npos) << fix(before);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((*dir_ / "demo.db").string().c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char* error = nullptr;
    const int rc = sqlite3_exec(
        db, "INSERT INTO projects (id, name, created_at) VALUES (99, 'new-project', '2026-11-30T00:00:00.000+00:00')",
        nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
  }
  // Accepted at once (a miss reads the list again), with no traces yet.
  auto after = tool("errors_by_project", R"({"project": "new-project"})");
  ASSERT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(body(after).at("row_count").as_int64(), 0);
  // And the FIX of a miss lists the current values, the new one among them.
  auto miss = tool("errors_by_project", R"({"project": "newer-project"})");
  ASSERT_EQ(miss.status, 422) << miss.body;
  EXPECT_NE(fix(miss).find("\"new-project\""), std::string::npos) << fix(miss);
}

TEST_F(ToolsHttpTest, AToolsOnlyKeyGetsToolsNotSql) {
  auto refused = query("SELECT count(*) FROM spans", kToolsOnlyToken);
  ASSERT_EQ(refused.status, 403) << refused.body;
  EXPECT_EQ(code(refused), "auth:sql-not-allowed");
  EXPECT_NE(fix(refused).find("errors_by_project, spans_named"), std::string::npos) << refused.body;
  auto allowed = tool("spans_named", R"({"name": "embed"})", kToolsOnlyToken);
  EXPECT_EQ(allowed.status, 200) << allowed.body;
  // A key limited to one tool: the other is 403 naming the one it may call.
  auto other = tool("errors_by_project", R"({"project": "support-bot"})", kOneToolToken);
  ASSERT_EQ(other.status, 403) << other.body;
  EXPECT_EQ(code(other), "auth:forbidden");
  EXPECT_NE(fix(other).find("spans_named"), std::string::npos);
  EXPECT_EQ(query("SELECT 1 AS one", kOneToolToken).status, 200);
  // Counted as statements of their database, under the route's template (a bounded label).
  const std::string metrics = http(port(), "GET", "/metrics").body;
  EXPECT_NE(metrics.find(R"(route="/v1/tools/{name}",status="200")"), std::string::npos) << metrics.substr(0, 2000);
  EXPECT_EQ(metrics.find("/v1/tools/spans_named"), std::string::npos);
  // No key at all: 401 before anything else.
  EXPECT_EQ(http(port(), "POST", "/v1/tools/spans_named", "{}").status, 401);
}

TEST_F(ToolsHttpTest, ToolsAreListedAsOperationsAndMcpTools) {
  auto listed = http(port(), "GET", "/v1/tools", {}, auth(kOneToolToken));
  ASSERT_EQ(listed.status, 200) << listed.body;
  const json::object listing = body(listed);
  const auto& only = listing.at("tools").as_array();
  ASSERT_EQ(only.size(), 1u) << listed.body;
  EXPECT_EQ(only[0].at("name"), "spans_named");
  EXPECT_EQ(only[0].at("path"), "/v1/tools/spans_named");
  EXPECT_EQ(only[0].at("input_schema").at("properties").at("name").at("maxLength"), 200);
  auto all = http(port(), "GET", "/v1/tools", {}, auth(kFullToken));
  EXPECT_EQ(body(all).at("tools").as_array().size(), 2u);

  auto doc = http(port(), "GET", "/openapi.json");
  ASSERT_EQ(doc.status, 200);
  const json::object paths = body(doc).at("paths").as_object();
  for (const char* name : {"errors_by_project", "spans_named"}) {
    const auto& op = paths.at(std::string("/v1/tools/") + name).at("post");
    EXPECT_EQ(op.at("operationId"), name);
    const auto& schema = op.at("requestBody").at("content").at("application/json").at("schema");
    EXPECT_EQ(schema.at("additionalProperties"), false);
    EXPECT_TRUE(op.at("responses").as_object().contains("422"));
  }
  EXPECT_EQ(paths.at("/v1/tools/errors_by_project")
                .at("post")
                .at("requestBody")
                .at("content")
                .at("application/json")
                .at("schema")
                .at("required"),
            json::array{"project"});
  EXPECT_FALSE(paths.contains("/v1/tools/{name}"));

  // MCP: the same tools, by name; a tools-only key does not see execute_sql.
  const std::string init =
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}})";
  const auto names = [&](const char* token) {
    auto opened = http(port(), "POST", "/mcp", init, auth(token) + "Accept: application/json, text/event-stream\r\n");
    EXPECT_EQ(opened.status, 200) << opened.body;
    // A tools-only key is told to use the curated tools, not SQL.
    EXPECT_EQ(json::parse(opened.body).at("result").at("instructions").as_string().starts_with("Curated"),
              token == kToolsOnlyToken)
        << opened.body;
    const auto at = opened.headers.find("Mcp-Session-Id: ");
    const std::string sid = opened.headers.substr(at + 16, 32);
    auto list = http(port(), "POST", "/mcp", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
                     auth(token) +
                         "Accept: application/json, "
                         "text/event-stream\r\nMcp-Session-Id: " +
                         sid + "\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    std::string out;
    const json::value listed_tools = json::parse(list.body);
    for (const auto& t : listed_tools.at("result").at("tools").as_array())
      out += std::string(t.at("name").as_string()) + " ";
    auto call = http(port(), "POST", "/mcp",
                     R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"spans_named",)"
                     R"("arguments":{"name":"embed"}}})",
                     auth(token) +
                         "Accept: application/json, "
                         "text/event-stream\r\nMcp-Session-Id: " +
                         sid + "\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    EXPECT_EQ(json::parse(call.body).at("result").at("isError"), false) << call.body;
    auto sql = http(port(), "POST", "/mcp",
                    R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"execute_sql",)"
                    R"("arguments":{"sql":"SELECT 1 AS one"}}})",
                    auth(token) +
                        "Accept: application/json, "
                        "text/event-stream\r\nMcp-Session-Id: " +
                        sid + "\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    out += json::parse(sql.body).at("result").at("isError").as_bool() ? "sql-refused" : "sql-ran";
    return out;
  };
  EXPECT_EQ(names(kFullToken), "execute_sql describe_schema errors_by_project spans_named sql-ran");
  EXPECT_EQ(names(kToolsOnlyToken), "describe_schema errors_by_project spans_named sql-refused");
}

// The same tools on the test cluster's PostgreSQL demo: the oracle, a bad argument, hostile text.
TEST(ToolsPostgresTest, ToolsAnswerAsTheirStatementsOnPostgres) {
  QG_PG_TEST_SERVER(server);
  const auto dir = make_temp_dir("qg-tools-pg");
  write_file(dir / "querygate.yaml",
             "databases:\n  demo_pg:\n    backend: postgres\n    dsn: '" + pg_dsn(server, "qg_reader", "demo") +
                 "'\n    tables: { projects: {}, traces: {}, spans: {} }\ntools:\n" + tools_yaml("demo_pg"));
  GatewayProcess gateway(dir / "querygate.yaml");
  const auto post = [&](const std::string& target, const std::string& body) {
    return http(gateway.port(), "POST", target, body);
  };
  auto r = post("/v1/tools/errors_by_project_pg", R"({"project": "support-bot", "since": "2026-10-01"})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto oracle =
      post("/v1/query",
           json::serialize(json::object{{"sql",
                                         "SELECT p.name, count(*) AS traces, sum(CASE WHEN t.status = 'ERROR' THEN 1 "
                                         "ELSE 0 END) AS failed FROM traces t JOIN projects p ON p.id = t.project_id "
                                         "WHERE p.name = 'support-bot' AND t.start_time >= '2026-10-01T00:00:00Z' "
                                         "GROUP BY p.name"}}));
  ASSERT_EQ(oracle.status, 200) << oracle.body;
  EXPECT_EQ(json::parse(r.body).at("rows"), json::parse(oracle.body).at("rows"));
  EXPECT_GT(json::parse(r.body).at("rows").at(0).at(1).as_int64(), 0);

  auto bad = post("/v1/tools/errors_by_project_pg", R"({"project": "support-bot", "since": 20261001})");
  EXPECT_EQ(bad.status, 422) << bad.body;
  auto missing = post("/v1/tools/errors_by_project_pg", R"({"project": "nope"})");
  EXPECT_EQ(missing.status, 422) << missing.body;
  EXPECT_NE(missing.body.find("support-bot"), std::string::npos) << missing.body;

  auto real = post("/v1/tools/spans_named_pg", R"({"name": "ChatCompletion"})");
  ASSERT_EQ(real.status, 200) << real.body;
  EXPECT_GT(json::parse(real.body).at("rows").at(0).at(0).as_int64(), 0);
  for (const char* hostile : {R"({"name": "ChatCompletion' OR '1'='1"})", R"({"name": "x'); SELECT pg_sleep(5); --"})",
                              R"({"name": "$1 $$ \\ Ünïcödé"})"}) {
    auto h = post("/v1/tools/spans_named_pg", hostile);
    ASSERT_EQ(h.status, 200) << hostile << " " << h.body;
    EXPECT_EQ(json::parse(h.body).at("rows").at(0).at(0).as_int64(), 0) << hostile;
  }
  EXPECT_EQ(gateway.stop(), 0);

  // A parameter PostgreSQL cannot type where it first stands stops the start (the check runs the statement).
  write_file(dir / "untyped.yaml", "databases:\n  demo_pg:\n    backend: postgres\n    dsn: '" +
                                       pg_dsn(server, "qg_reader", "demo") +
                                       "'\n    tables: { spans: {} }\ntools:\n  t:\n    database: demo_pg\n"
                                       "    sql: SELECT count(*) AS n FROM spans WHERE :c IS NULL OR cost_usd >= :c\n"
                                       "    parameters: { c: { type: number, required: false } }\n");
  auto untyped = run_command({QG_BINARY, "--check-config", (dir / "untyped.yaml").string()});
  EXPECT_NE(untyped.exit_code, 0);
  EXPECT_NE(untyped.output.find("does not run on database 'demo_pg'"), std::string::npos) << untyped.output;
  std::filesystem::remove_all(dir);
}

// Tenant scoping under a tool: a row filter's :project_id comes from the calling
// key's `bind`, never from the tool's arguments, even when a tool parameter has
// the same name; a key without the binding is refused, never served unfiltered.
TEST(ToolsTenantTest, ARowFiltersBindingIsTheKeysEvenUnderAToolArgumentOfTheSameName) {
  const auto dir = make_temp_dir("qg-tools-tenant");
  auto made = run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const char* one = "tenant-one-token-0123456789abcdef0123456789";
  const char* two = "tenant-two-token-0123456789abcdef0123456789";
  const char* none = "tenant-none-token-0123456789abcdef012345678";
  write_file(dir / "querygate.yaml",
             "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n    tables:\n"
             "      traces: { row_filter: \"project_id = :project_id\" }\n"
             "keys:\n"
             "  - { name: one, databases: [demo], bind: { project_id: 1 }, sha256: " +
                 auth::to_hex(auth::sha256(one)) +
                 " }\n"
                 "  - { name: two, databases: [demo], bind: { project_id: 2 }, sha256: " +
                 auth::to_hex(auth::sha256(two)) +
                 " }\n"
                 "  - { name: none, databases: [demo], sha256: " +
                 auth::to_hex(auth::sha256(none)) +
                 " }\n"
                 "tools:\n"
                 "  traces_of:\n    database: demo\n"
                 "    parameters: { project_id: { type: integer, min: 1, max: 1000 } }\n"
                 "    sql: SELECT project_id, count(*) AS n FROM traces WHERE project_id = :project_id OR "
                 ":project_id > 0 GROUP BY project_id ORDER BY project_id\n");
  GatewayProcess gateway(dir / "querygate.yaml");
  const auto call = [&](const char* token, int project) {
    return http(gateway.port(), "POST", "/v1/tools/traces_of", "{\"project_id\": " + std::to_string(project) + "}",
                auth(token));
  };
  for (const auto& [token, project] : {std::pair{one, 1}, std::pair{two, 2}})
    for (int asked : {1, 2, 3}) {
      auto r = call(token, asked);
      ASSERT_EQ(r.status, 200) << r.body;
      const auto rows = json::parse(r.body).at("rows").as_array();
      ASSERT_EQ(rows.size(), 1u) << r.body;  // only the key's own project, whatever the argument says
      EXPECT_EQ(rows.at(0).at(0).as_int64(), project) << r.body;
      EXPECT_GT(rows.at(0).at(1).as_int64(), 0);
    }
  auto unbound = call(none, 1);
  EXPECT_EQ(unbound.status, 403) << unbound.body;
  EXPECT_EQ(json::parse(unbound.body).at("error").at("code"), "auth:missing-binding") << unbound.body;
  EXPECT_EQ(gateway.stop(), 0);
  std::filesystem::remove_all(dir);
}

TEST(ToolsStartupTest, AToolThatDoesNotAdmitStopsTheStartNamingIt) {
  const auto dir = make_temp_dir("qg-tools-bad");
  auto made = run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const std::string base =
      "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n"
      "    tables: { projects: {}, traces: {} }\ntools:\n";
  // Reads a table that is not allowlisted (users holds emails): what raw SQL could not reach, a tool cannot.
  write_file(dir / "users.yaml", base + "  leak:\n    database: demo\n    sql: SELECT email FROM users\n");
  auto r = run_command({QG_BINARY, "--check-config", (dir / "users.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("tools.leak"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("users"), std::string::npos) << r.output;
  // A values_from query is admitted too.
  write_file(dir / "values.yaml",
             base +
                 "  t:\n    database: demo\n    sql: SELECT count(*) AS n FROM traces WHERE status = :p\n"
                 "    parameters: { p: { type: string, values_from: 'SELECT email FROM users' } }\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "values.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("values_from query of parameter 'p' of tools.t"), std::string::npos) << r.output;
  // A name the built-in tools use.
  write_file(dir / "clash.yaml", base + "  execute_sql:\n    database: demo\n    sql: SELECT 1 AS one\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "clash.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("taken by the built-in tool"), std::string::npos) << r.output;
  // A parameter the statement does not declare.
  write_file(dir / "undeclared.yaml",
             base + "  t:\n    database: demo\n    sql: SELECT count(*) AS n FROM traces WHERE project_id = :pid\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "undeclared.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("tools.t"), std::string::npos) << r.output;
  // A declared parameter the statement never uses (it would be accepted and ignored).
  write_file(dir / "unused.yaml", base +
                                      "  t:\n    database: demo\n    sql: SELECT count(*) AS n FROM traces\n"
                                      "    parameters: { project: { type: string } }\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "unused.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("never uses :project"), std::string::npos) << r.output;
  // A timestamp parameter on SQLite would compare as text in a format that need not be the column's.
  write_file(dir / "timestamp.yaml",
             base +
                 "  t:\n    database: demo\n    sql: SELECT count(*) AS n FROM traces WHERE start_time >= :at\n"
                 "    parameters: { at: { type: timestamp } }\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "timestamp.yaml").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("use type: date"), std::string::npos) << r.output;
  // And a good one passes.
  write_file(dir / "good.yaml",
             base +
                 "  t:\n    database: demo\n    sql: SELECT count(*) AS n FROM traces WHERE start_time >= :day\n"
                 "    parameters: { day: { type: date } }\n");
  r = run_command({QG_BINARY, "--check-config", (dir / "good.yaml").string()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
