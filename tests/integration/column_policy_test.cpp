// Issue #14, columns, end to end over HTTP on both backends (the SQLite demo
// and the test cluster's PostgreSQL demo, each served with its own demo config
// plus two keys): a hidden column (traces.user_id, hidden for all by the demo
// config) and a key's hidden_columns in GET /v1/schema and in queries, a
// virtual column over a hidden column, companion columns (score requires
// annotator_kind) and float_digits (4 on spans.cost_usd) in the envelope.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr const char* kFullToken = "columns-full-token-0123456789abcdef0123456789";
constexpr const char* kRestrictedToken = "columns-restricted-token-0123456789abcdef01234";
const std::string kFull = std::string("Authorization: Bearer ") + kFullToken + "\r\n";
const std::string kRestricted = std::string("Authorization: Bearer ") + kRestrictedToken + "\r\n";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string keys_yaml() {
  return "keys:\n  - name: full\n    sha256: " + auth::to_hex(auth::sha256(kFullToken)) +
         "\n    databases: [demo]\n  - name: restricted\n    sha256: " + auth::to_hex(auth::sha256(kRestrictedToken)) +
         "\n    databases: [demo]\n    hidden_columns: { spans: [attributes, status] }\n";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string query_body(const std::string& sql) {
  return json::serialize(json::object{{"sql", sql}, {"database", "demo"}});
}

struct Answer {
  int status = 0;
  json::object body;
};

Answer query(int port, const std::string& sql, const std::string& auth) {
  auto r = http(port, "POST", "/v1/query", query_body(sql), auth);
  Answer a{r.status, {}};
  auto parsed = json::parse(r.body);
  if (parsed.is_object()) a.body = parsed.as_object();
  return a;
}

std::string code_of(const Answer& a) {
  if (const auto* e = a.body.if_contains("error"); e && e->is_object())
    if (const auto* c = e->as_object().if_contains("code")) return std::string(c->as_string());
  if (const auto* c = a.body.if_contains("code"); c && c->is_string()) return std::string(c->as_string());
  return {};
}

std::vector<std::string> column_names(const Answer& a) {
  std::vector<std::string> out;
  for (const auto& c : a.body.at("columns").as_array()) out.emplace_back(c.at("name").as_string());
  return out;
}

// Significant digits of a number as JSON prints it.
int significant_digits(const json::value& v) {
  std::string text = json::serialize(v);
  if (auto e = text.find_first_of("eE"); e != std::string::npos) text.resize(e);
  std::string digits;
  for (char c : text)
    if (c >= '0' && c <= '9') digits += c;
  digits.erase(0, digits.find_first_not_of('0'));
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return static_cast<int>(digits.size());
}

// MCP: the same core, so the same columns for a key (tools/call describe_schema and execute_sql).
std::string mcp_session(int port, const std::string& auth) {
  auto r = http(port, "POST", "/mcp",
                R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                R"("capabilities":{},"clientInfo":{"name":"test","version":"1"}}})",
                auth);
  EXPECT_EQ(r.status, 200) << r.body;
  std::istringstream in(r.headers);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string lower = line;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.rfind("mcp-session-id:", 0) == 0) return line.substr(line.find_first_not_of(' ', 15));
  }
  return {};
}

json::object mcp_call(int port, const std::string& auth, const std::string& sid, const std::string& tool,
                      const std::string& arguments) {
  auto r = http(port, "POST", "/mcp",
                R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" +
                    arguments + "}}",
                auth + "Mcp-Session-Id: " + sid + "\r\n");
  EXPECT_EQ(r.status, 200) << r.body;
  return json::parse(r.body).as_object();
}

std::string texts_of(const json::object& answer) {
  std::string out;
  for (const auto& part : answer.at("result").at("content").as_array())
    if (const auto* text = part.as_object().if_contains("text")) out += std::string(text->as_string()) + "\n";
  return out;
}

void check_mcp(int port) {
  const std::string sid = mcp_session(port, kRestricted);
  ASSERT_FALSE(sid.empty());
  const std::string schema =
      texts_of(mcp_call(port, kRestricted, sid, "describe_schema", R"({"database":"demo","detail":"full"})"));
  EXPECT_TRUE(contains(schema, "CREATE TABLE")) << schema;
  EXPECT_FALSE(contains(schema, "\n  attributes")) << schema;
  EXPECT_FALSE(contains(schema, "user_id"));
  const auto refused =
      mcp_call(port, kRestricted, sid, "execute_sql", R"({"database":"demo","sql":"SELECT status FROM spans"})");
  EXPECT_TRUE(contains(json::serialize(refused), "validation:unknown-column")) << json::serialize(refused);
  const std::string full_sid = mcp_session(port, kFull);
  const auto allowed =
      mcp_call(port, kFull, full_sid, "execute_sql", R"({"database":"demo","sql":"SELECT status FROM spans LIMIT 1"})");
  EXPECT_FALSE(contains(json::serialize(allowed), "validation:")) << json::serialize(allowed);
}

// What a caller can observe of an answer: status, error (code, message, fix), columns and rows; with one
// name replaced by NAME, so that a hidden column and a name that exists nowhere can be compared.
std::string observable(const Answer& a, const std::string& name) {
  json::object seen;
  seen["status"] = a.status;
  for (const char* key : {"error", "columns", "rows"})
    if (const auto* v = a.body.if_contains(key)) seen[key] = *v;
  return std::regex_replace(json::serialize(seen), std::regex(name), "NAME");
}

// Red team (tests/redteam/s3): a hidden column (traces.user_id) leaves no trace. Each probe, written
// with the hidden name and with a name that exists nowhere (uzer_id: as long, the same did-you-mean),
// gets the same answer apart from the name.
void check_hidden_probes(int port) {
  for (const std::string probe : {
           // the engine would see two candidates for an unqualified name (ambiguity)
           "SELECT NAME FROM traces, (SELECT 1 AS NAME) x LIMIT 1",
           "SELECT x.NAME, NAME FROM traces JOIN (SELECT 1 AS NAME) x ON true ORDER BY traces.id LIMIT 1",
           "SELECT id FROM traces t, (SELECT 1 AS NAME) x WHERE NAME = 1 ORDER BY NAME, id LIMIT 1",
           "SELECT NAME, count(*) AS n FROM traces, (SELECT 1 AS NAME) x GROUP BY NAME",
           // a correlated reference the hidden column would capture
           "SELECT (SELECT NAME FROM traces LIMIT 1) AS v FROM (SELECT 7 AS NAME) q",
           "SELECT q.v FROM (SELECT 7 AS NAME, 1 AS v) q WHERE EXISTS (SELECT 1 FROM traces WHERE NAME = 7)",
           // an output alias the engine would read as the hidden input column (GROUP BY)
           "SELECT project_id AS NAME, count(*) AS n FROM traces GROUP BY NAME ORDER BY 1",
           "SELECT id AS NAME FROM traces ORDER BY NAME LIMIT 1",
           "SELECT id AS NAME FROM traces ORDER BY NAME + 1 LIMIT 1",
           "SELECT project_id AS NAME FROM traces GROUP BY NAME HAVING count(*) > 1 ORDER BY 1",
           // ORDER BY, USING, NATURAL, qualified, star through subqueries and set operations
           "SELECT id FROM traces ORDER BY NAME LIMIT 1",
           "SELECT count(*) FROM traces a JOIN (SELECT 1 AS NAME) b USING (NAME)",
           "SELECT count(*) FROM traces a JOIN traces b USING (NAME)",
           "SELECT count(*) FROM traces NATURAL JOIN (SELECT 1 AS NAME) b",
           "SELECT count(*) FROM traces WHERE traces.NAME IS NULL",
           "SELECT count(*) FROM (SELECT * FROM traces) x WHERE x.NAME IS NULL",
           "SELECT count(*) FROM (SELECT * FROM traces UNION ALL SELECT * FROM traces) u WHERE u.NAME > 0",
           "WITH c AS (SELECT * FROM traces) SELECT count(*) FROM c WHERE NAME > 0",
           "SELECT count(*) FROM traces WHERE NAME IN (SELECT 1 AS NAME)",
           "SELECT NAME FROM traces",
           "SELECT count(NAME) FROM traces",
       }) {
    SCOPED_TRACE(probe);
    const std::string hidden = std::regex_replace(probe, std::regex("NAME"), "user_id");
    const std::string absent = std::regex_replace(probe, std::regex("NAME"), "uzer_id");
    const Answer h = query(port, hidden, kFull);
    const Answer a = query(port, absent, kFull);
    EXPECT_EQ(observable(h, "user_id"), observable(a, "uzer_id")) << hidden;
    EXPECT_NE(h.status, 500) << json::serialize(h.body);
  }
  // Stars through derived tables, CTEs and set operations never show it.
  for (const std::string sql : {"SELECT x.* FROM (SELECT * FROM traces) x ORDER BY id LIMIT 1",
                                "WITH c AS (SELECT * FROM traces) SELECT * FROM c ORDER BY id LIMIT 1",
                                "SELECT * FROM traces UNION ALL SELECT * FROM traces LIMIT 1",
                                "SELECT * FROM (SELECT * FROM traces INTERSECT SELECT * FROM traces) i LIMIT 1",
                                "SELECT * FROM traces a JOIN traces b USING (trace_id) LIMIT 1"}) {
    const Answer r = query(port, sql, kFull);
    ASSERT_EQ(r.status, 200) << sql << ": " << json::serialize(r.body);
    EXPECT_FALSE(contains(json::serialize(r.body.at("columns")), "user_id")) << sql;
  }
  // Suggestions never name it.
  const Answer near = query(port, "SELECT user_idd FROM traces", kFull);
  EXPECT_EQ(code_of(near), "validation:unknown-column");
  EXPECT_FALSE(contains(json::serialize(near.body), "user_id\"")) << json::serialize(near.body);
  EXPECT_FALSE(contains(json::serialize(near.body), "user_id,")) << json::serialize(near.body);
  EXPECT_FALSE(contains(json::serialize(near.body), "user_id?")) << json::serialize(near.body);
}

// Red team: companions satisfied in form only. Strict: the companion is a plain
// reference to the same table instance's companion column, a grouping key when
// the query aggregates, passed on by every outer query.
void check_companion_probes(int port) {
  for (const std::string sql : {
           "SELECT score, CASE WHEN false THEN annotator_kind END AS annotator_kind FROM span_annotations LIMIT 3",
           "SELECT score, NULLIF(annotator_kind, annotator_kind) AS annotator_kind FROM span_annotations LIMIT 3",
           "SELECT score, substr(annotator_kind, 1, 0) AS annotator_kind FROM span_annotations LIMIT 3",
           "SELECT score, annotator_kind || '' AS annotator_kind FROM span_annotations LIMIT 3",
           "SELECT a.score, b.annotator_kind FROM span_annotations a JOIN span_annotations b ON b.id = a.id + 1",
           "SELECT avg(score), max(annotator_kind) FROM span_annotations",
           "SELECT avg(score), min(annotator_kind) AS annotator_kind FROM span_annotations",
           "SELECT avg(score) AS s, count(DISTINCT annotator_kind) FROM span_annotations",
           "SELECT label, avg(score) AS m, max(annotator_kind) AS k FROM span_annotations GROUP BY label",
           "SELECT score, (SELECT annotator_kind FROM span_annotations LIMIT 1) AS k FROM span_annotations LIMIT 3",
           "SELECT (SELECT avg(score) FROM span_annotations) AS s, annotator_kind FROM span_annotations LIMIT 1",
           "SELECT s FROM (SELECT score AS s, annotator_kind FROM span_annotations) x WHERE annotator_kind = 'LLM'",
           "SELECT score FROM (SELECT score, annotator_kind FROM span_annotations WHERE annotator_kind = 'LLM') x",
           "SELECT m FROM (SELECT annotator_kind, avg(score) AS m FROM span_annotations GROUP BY annotator_kind) x",
           "WITH c AS (SELECT id, score, annotator_kind FROM span_annotations) "
           "SELECT c1.score, c2.annotator_kind FROM c c1 JOIN c c2 ON c2.id = c1.id + 1",
           "SELECT u.score, u.annotator_kind FROM (SELECT score, annotator_kind FROM span_annotations UNION ALL "
           "SELECT score, 'LLM' FROM span_annotations) u LIMIT 3",
           "SELECT avg(score) OVER () AS m, annotator_kind FROM span_annotations LIMIT 3",
           "SELECT rank() OVER (ORDER BY score) AS r, annotator_kind FROM span_annotations LIMIT 3",
       }) {
    const Answer r = query(port, sql, kFull);
    EXPECT_EQ(code_of(r), "validation:companion-column") << sql << ": " << json::serialize(r.body);
    EXPECT_TRUE(contains(json::serialize(r.body), "FIX: return annotator_kind")) << json::serialize(r.body);
  }
  // The FIX shows the select list with the companion of the same reference added.
  const Answer self_join = query(
      port, "SELECT a.score, b.annotator_kind FROM span_annotations a JOIN span_annotations b ON b.id = a.id", kFull);
  EXPECT_TRUE(contains(json::serialize(self_join.body), "SELECT a.score, b.annotator_kind, a.annotator_kind FROM"))
      << json::serialize(self_join.body);
  const Answer grouped = query(port, "SELECT avg(score) AS m, max(annotator_kind) AS k FROM span_annotations", kFull);
  EXPECT_TRUE(contains(json::serialize(grouped.body), "GROUP BY ..., annotator_kind")) << json::serialize(grouped.body);
  // The natural forms still pass.
  for (const std::string sql : {
           "SELECT score, annotator_kind FROM span_annotations ORDER BY id LIMIT 3",
           "SELECT * FROM span_annotations ORDER BY id LIMIT 1",
           "SELECT annotator_kind, avg(score) AS m FROM span_annotations GROUP BY annotator_kind ORDER BY 1",
           "SELECT annotator_kind AS k, avg(score) AS m FROM span_annotations GROUP BY k ORDER BY 1",
           "SELECT annotator_kind, avg(score) AS m FROM span_annotations GROUP BY 1 ORDER BY 1",
           "SELECT label, annotator_kind, avg(score) AS m FROM span_annotations GROUP BY label, annotator_kind "
           "ORDER BY 1, 2",
           "SELECT s, k FROM (SELECT score AS s, annotator_kind AS k FROM span_annotations) x ORDER BY s, k LIMIT 3",
           "WITH c AS (SELECT score, annotator_kind FROM span_annotations) SELECT w.score, w.annotator_kind FROM c w "
           "ORDER BY 1, 2 LIMIT 3",
           "SELECT x.k, x.m FROM (SELECT annotator_kind AS k, avg(score) AS m FROM span_annotations GROUP BY "
           "annotator_kind) x ORDER BY 1",
           "SELECT score, annotator_kind FROM span_annotations UNION ALL SELECT score, annotator_kind FROM "
           "span_annotations ORDER BY 1, 2 LIMIT 3",
           "SELECT score, annotator_kind FROM span_annotations UNION ALL SELECT 1, 'x' ORDER BY 1, 2 LIMIT 3",
           "SELECT avg(score) OVER (PARTITION BY annotator_kind) AS m, annotator_kind FROM span_annotations "
           "ORDER BY 1, 2 LIMIT 3",
           "SELECT a.score, a.annotator_kind, b.label FROM span_annotations a JOIN span_annotations b ON b.id = a.id "
           "ORDER BY a.id LIMIT 3",
           "SELECT id, annotator_kind FROM span_annotations WHERE score > 0.5 ORDER BY id LIMIT 3",
       }) {
    const Answer r = query(port, sql, kFull);
    EXPECT_EQ(r.status, 200) << sql << ": " << json::serialize(r.body);
  }
}

void check_gateway(int port, const std::string& backend) {
  SCOPED_TRACE(backend);
  // --- the schema: user_id for nobody, attributes and spans.status not for the restricted key
  for (const std::string detail : {"brief", "detailed", "full"}) {
    auto full = http(port, "GET", "/v1/schema?database=demo&detail=" + detail, "", kFull);
    auto restricted = http(port, "GET", "/v1/schema?database=demo&detail=" + detail, "", kRestricted);
    ASSERT_EQ(full.status, 200) << full.body;
    ASSERT_EQ(restricted.status, 200) << restricted.body;
    EXPECT_FALSE(contains(full.body, "user_id")) << full.body;
    EXPECT_FALSE(contains(restricted.body, "user_id"));
    EXPECT_FALSE(contains(restricted.body, "\n  attributes")) << restricted.body;
    if (detail != "brief") {
      EXPECT_TRUE(contains(full.body, "\n  attributes"));
      EXPECT_TRUE(contains(full.body, "[return with: annotator_kind]")) << "the companion is described";
    }
  }
  auto searched = http(port, "GET", "/v1/schema?database=demo&search=llm.provider", "", kRestricted);
  EXPECT_TRUE(contains(searched.body, "-- No table matches")) << searched.body;

  // --- queries: hidden for all
  auto hidden = query(port, "SELECT user_id FROM traces", kFull);
  EXPECT_EQ(hidden.status, 422);
  EXPECT_EQ(code_of(hidden), "validation:unknown-column") << json::serialize(hidden.body);
  auto unknown = query(port, "SELECT user_xid FROM traces", kFull);
  EXPECT_EQ(code_of(unknown), "validation:unknown-column");
  {
    // The same words as a name that does not exist, apart from the name itself.
    std::string a = json::serialize(hidden.body.at("error")), b = json::serialize(unknown.body.at("error"));
    a = std::regex_replace(a, std::regex("user_id"), "NAME");
    b = std::regex_replace(b, std::regex("user_xid"), "NAME");
    EXPECT_EQ(a, b);
  }
  auto star = query(port, "SELECT * FROM traces ORDER BY id LIMIT 2", kFull);
  ASSERT_EQ(star.status, 200) << json::serialize(star.body);
  const auto names = column_names(star);
  EXPECT_EQ(std::count(names.begin(), names.end(), "user_id"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "session_id"), 1);
  EXPECT_EQ(code_of(query(port, "SELECT id FROM traces ORDER BY user_id", kFull)), "validation:unknown-column");
  EXPECT_EQ(code_of(query(port, "SELECT count(*) FROM traces t JOIN traces u USING (user_id)", kFull)),
            "validation:unknown-column");

  // --- per key
  EXPECT_EQ(query(port, "SELECT status, attributes FROM spans LIMIT 1", kFull).status, 200);
  EXPECT_EQ(code_of(query(port, "SELECT status FROM spans LIMIT 1", kRestricted)), "validation:unknown-column");
  EXPECT_EQ(code_of(query(port, "SELECT id FROM spans WHERE attributes LIKE '%x%'", kRestricted)),
            "validation:unknown-column");
  auto restricted_star = query(port, "SELECT * FROM spans ORDER BY id LIMIT 1", kRestricted);
  ASSERT_EQ(restricted_star.status, 200);
  const auto spans_names = column_names(restricted_star);
  EXPECT_EQ(std::count(spans_names.begin(), spans_names.end(), "attributes"), 0);
  EXPECT_EQ(std::count(spans_names.begin(), spans_names.end(), "status"), 0);
  EXPECT_EQ(std::count(spans_names.begin(), spans_names.end(), "model_name"), 1) << "virtual columns stay";
  // A virtual column over the hidden attributes: usable, and the same values as for the full key.
  const std::string models =
      "SELECT model_name, count(*) AS n FROM spans WHERE model_name IS NOT NULL GROUP BY model_name ORDER BY "
      "model_name";
  auto restricted_models = query(port, models, kRestricted);
  ASSERT_EQ(restricted_models.status, 200) << json::serialize(restricted_models.body);
  EXPECT_EQ(restricted_models.body.at("rows"), query(port, models, kFull).body.at("rows"));
  EXPECT_GT(restricted_models.body.at("rows").as_array().size(), 1u);

  // --- companions
  auto lonely = query(port, "SELECT avg(score) AS mean FROM span_annotations", kFull);
  EXPECT_EQ(lonely.status, 422);
  EXPECT_EQ(code_of(lonely), "validation:companion-column");
  EXPECT_TRUE(contains(json::serialize(lonely.body), "annotator_kind")) << json::serialize(lonely.body);
  EXPECT_EQ(code_of(query(port, "SELECT s FROM (SELECT score AS s, annotator_kind FROM span_annotations) AS x", kFull)),
            "validation:companion-column");
  auto paired =
      query(port, "SELECT annotator_kind, avg(score) AS mean FROM span_annotations GROUP BY annotator_kind ORDER BY 1",
            kFull);
  ASSERT_EQ(paired.status, 200) << json::serialize(paired.body);
  EXPECT_EQ(paired.body.at("rows").as_array().size(), 2u);
  // ROLLUP's grand total averages score over every annotator_kind: refused, and the suggested statement (the
  // companion grouped outside the ROLLUP) runs and answers the ROLLUP's rows that keep annotator_kind.
  auto rolled = query(port,
                      "SELECT annotator_kind, label, count(*) AS n, avg(score) AS mean FROM span_annotations "
                      "GROUP BY ROLLUP (annotator_kind, label)",
                      kFull);
  EXPECT_EQ(code_of(rolled), "validation:companion-column") << json::serialize(rolled.body);
  const auto* suggested =
      rolled.body.contains("error") ? rolled.body.at("error").as_object().if_contains("suggested_sql") : nullptr;
  ASSERT_TRUE(suggested && suggested->is_string()) << json::serialize(rolled.body);
  auto regrouped = query(port, std::string(suggested->as_string()) + " ORDER BY 1, 2 NULLS LAST", kFull);
  ASSERT_EQ(regrouped.status, 200) << json::serialize(regrouped.body);
  auto by_pairs = query(port,
                        "SELECT annotator_kind, label, count(*) AS n, avg(score) AS mean FROM span_annotations "
                        "GROUP BY annotator_kind, label UNION ALL SELECT annotator_kind, NULL, count(*), avg(score) "
                        "FROM span_annotations GROUP BY annotator_kind ORDER BY 1, 2 NULLS LAST",
                        kFull);
  ASSERT_EQ(by_pairs.status, 200) << json::serialize(by_pairs.body);
  EXPECT_EQ(regrouped.body.at("rows"), by_pairs.body.at("rows"));

  // --- float_digits: 4 on cost_usd; the global 6 for a value that also reads id
  auto costs = query(port, "SELECT sum(cost_usd) AS a, sum(cost_usd) + 0 * count(id) AS b FROM spans", kFull);
  ASSERT_EQ(costs.status, 200) << json::serialize(costs.body);
  const auto& row = costs.body.at("rows").as_array().at(0).as_array();
  EXPECT_LE(significant_digits(row.at(0)), 4) << json::serialize(row);
  EXPECT_GT(significant_digits(row.at(1)), 4) << json::serialize(row);
  EXPECT_NEAR(row.at(0).to_number<double>(), row.at(1).to_number<double>(), row.at(1).to_number<double>() * 1e-3);

  check_hidden_probes(port);
  check_companion_probes(port);
  check_mcp(port);
}

// The demo config with its own keys block (the anonymous key and dashboard-agent)
// taken out: this test's keys replace it (a config has one `keys:`).
std::string without_demo_keys(std::string config) {
  const auto at = config.find("\nkeys:\n");
  if (at == std::string::npos) return config;
  return config.erase(at + 1, config.find("\n\n", at) - at);
}

TEST(ColumnPolicyHttp, SqliteDemo) {
  const fs::path dir = make_temp_dir("qg-columns");
  ASSERT_EQ(run_command({QG_BINARY, "demo-db", (dir / "demo.db").string()}).exit_code, 0);
  write_file(dir / "querygate.yaml",
             without_demo_keys(read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo.yaml")) + keys_yaml());
  {
    GatewayProcess gateway(dir / "querygate.yaml");
    check_gateway(gateway.port(), "sqlite");
  }
  fs::remove_all(dir);
}

TEST(ColumnPolicyHttp, PostgresDemo) {
  QG_PG_TEST_SERVER(server);
  const fs::path dir = make_temp_dir("qg-columns-pg");
  std::string config = read_text(fs::path(QG_SOURCE_DIR) / "config" / "demo-postgres.yaml");
  config = std::regex_replace(config, std::regex("dsn_env: QG_DEMO_PG_DSN[^\n]*"),
                              "dsn: \"" + pg_dsn(server, "qg_reader", "demo") + "\"");
  write_file(dir / "querygate.yaml", without_demo_keys(config) + keys_yaml());
  {
    GatewayProcess gateway(dir / "querygate.yaml");
    check_gateway(gateway.port(), "postgres");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qg::testing
