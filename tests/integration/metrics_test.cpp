// GET /metrics against the real binary: a mixed workload (answers, refusals,
// a 404, auth failures, truncated and flagged answers), then one scrape whose
// counters must have moved by exactly what was sent. Also: labels stay
// bounded and carry no SQL text or tokens.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "gateway/auth/sha256.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

namespace json = boost::json;

constexpr const char* kToken = "metrics-token-0123456789abcdef0123456789";

// Sample lines of a scrape, keyed by name plus labels exactly as written
// (prometheus-cpp writes labels sorted by name).
using Samples = std::map<std::string, double>;

Samples parse_samples(const std::string& text) {
  Samples out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    if (space == std::string::npos) continue;
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

// `labels` in label-name order, e.g. series("x_total", {{"code", "a"}}).
std::string series(const std::string& name, const std::vector<std::pair<std::string, std::string>>& labels = {}) {
  if (labels.empty()) return name;
  std::string out = name + "{";
  for (std::size_t i = 0; i < labels.size(); ++i)
    out += (i ? "," : "") + labels[i].first + "=\"" + labels[i].second + "\"";
  return out + "}";
}

double value(const Samples& s, const std::string& key) {
  const auto it = s.find(key);
  return it == s.end() ? 0.0 : it->second;
}

class MetricsHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(make_temp_dir("qg-metrics"));
    auto made = run_command({QG_BINARY, "demo-db", (*dir_ / "demo.db").string()});
    ASSERT_EQ(made.exit_code, 0) << made.output;
    write_file(*dir_ / "querygate.yaml",
               "limits: { default_rows: 100, max_rows: 5000, deadline_ms: 20000, "
               "max_cell_bytes: 64 }\n"
               "keys:\n"
               "  - { name: agent, sha256: " +
                   auth::to_hex(auth::sha256(kToken)) +
                   ", databases: [demo] }\n"
                   "databases:\n"
                   "  demo:\n"
                   "    backend: sqlite\n"
                   "    path: demo.db\n"
                   "    permits: 3\n"
                   "    queue_depth: 5\n"
                   "    tables:\n"
                   "      traces: {}\n"
                   "      spans:\n"
                   "        columns:\n"
                   "          attributes: { untrusted: true }\n");
    gateway_ = new GatewayProcess(*dir_ / "querygate.yaml");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(gateway_->stop(), 0);
    delete gateway_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }

  static HttpResult query(const std::string& sql, const std::string& extra = {}, bool with_key = true) {
    json::object body{{"sql", sql}};
    std::string text = json::serialize(body);
    if (!extra.empty()) text = text.substr(0, text.size() - 1) + "," + extra + "}";
    return http(gateway_->port(), "POST", "/v1/query", text,
                with_key ? std::string("Authorization: Bearer ") + kToken + "\r\n" : std::string());
  }
  static HttpResult scrape() { return http(gateway_->port(), "GET", "/metrics"); }

  static std::filesystem::path* dir_;
  static GatewayProcess* gateway_;
};

std::filesystem::path* MetricsHttpTest::dir_ = nullptr;
GatewayProcess* MetricsHttpTest::gateway_ = nullptr;

TEST_F(MetricsHttpTest, CountersMoveByExactlyTheWorkloadSent) {
  const auto before_scrape = scrape();
  ASSERT_EQ(before_scrape.status, 200) << before_scrape.body;
  const Samples before = parse_samples(before_scrape.body);
  const auto delta = [&before](const Samples& after, const std::string& key) {
    return value(after, key) - value(before, key);
  };

  // 2 answers, one cut by the row cap (10 of more rows), one with cells cut and untrusted rows flagged.
  ASSERT_EQ(query("SELECT count(*) AS n FROM spans").status, 200);
  const auto truncated = query("SELECT id FROM spans ORDER BY id", "\"limit\": 10");
  ASSERT_EQ(truncated.status, 200) << truncated.body;
  ASSERT_TRUE(json::parse(truncated.body).at("truncated").as_bool());
  const auto flagged = query("SELECT attributes FROM spans WHERE attributes <> '' ORDER BY id LIMIT 3");
  ASSERT_EQ(flagged.status, 200) << flagged.body;
  ASSERT_EQ(json::parse(flagged.body).at("untrusted_rows").as_array().size(), 3u) << flagged.body;
  // A star: the star-expansion rewrite.
  ASSERT_EQ(query("SELECT * FROM traces ORDER BY id LIMIT 2").status, 200);
  // 3 refusals by admission; 2 without a key; 2 unknown paths.
  for (int i = 0; i < 3; ++i) ASSERT_EQ(query("SELECT email FROM users").status, 422);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(query("SELECT 1", {}, false).status, 401);
  for (const char* path : {"/nope", "/v1/query/../../etc/passwd"})
    ASSERT_EQ(http(gateway_->port(), "GET", path).status, 404);

  const auto after_scrape = scrape();
  ASSERT_EQ(after_scrape.status, 200);
  EXPECT_NE(after_scrape.headers.find("text/plain; version=0.0.4"), std::string::npos) << after_scrape.headers;
  const Samples after = parse_samples(after_scrape.body);
  const std::string db = "demo";

  EXPECT_EQ(delta(after, series("querygate_refusals_total", {{"code", "validation:table-not-allowed"}})), 3);
  EXPECT_EQ(delta(after, series("querygate_refusals_total", {{"code", "auth:missing"}})), 2);
  EXPECT_EQ(delta(after, series("querygate_refusals_total", {{"code", "request:not-found"}})), 2);
  EXPECT_EQ(delta(after, series("querygate_http_requests_total", {{"route", "/v1/query"}, {"status", "200"}})), 4);
  EXPECT_EQ(delta(after, series("querygate_http_requests_total", {{"route", "/v1/query"}, {"status", "422"}})), 3);
  EXPECT_EQ(delta(after, series("querygate_http_requests_total", {{"route", "/v1/query"}, {"status", "401"}})), 2);
  EXPECT_EQ(delta(after, series("querygate_http_requests_total", {{"route", "other"}, {"status", "404"}})), 2);
  EXPECT_EQ(delta(after, series("querygate_statements_total", {{"database", db}, {"outcome", "ok"}})), 4);
  EXPECT_EQ(delta(after, series("querygate_statements_total",
                                {{"database", db}, {"outcome", "validation:table-not-allowed"}})),
            3);
  // The 401s never named a database that was checked, so they are requests, not statements.
  EXPECT_EQ(delta(after, series("querygate_statements_total", {{"database", db}, {"outcome", "auth:missing"}})), 0);
  EXPECT_EQ(delta(after, series("querygate_truncations_total", {{"database", db}, {"reason", "rows"}})), 1);
  EXPECT_EQ(delta(after, series("querygate_truncations_total", {{"database", db}, {"reason", "cell"}})), 1);
  EXPECT_EQ(delta(after, series("querygate_truncations_total", {{"database", db}, {"reason", "bytes"}})), 0);
  EXPECT_EQ(delta(after, series("querygate_untrusted_rows_total", {{"database", db}})), 3);
  EXPECT_EQ(delta(after, series("querygate_rows_returned_total", {{"database", db}})), 1 + 10 + 3 + 2);
  EXPECT_GT(delta(after, series("querygate_response_bytes_total", {{"database", db}})), 0);
  EXPECT_EQ(delta(after, series("querygate_rewrites_total", {{"database", db}, {"rewrite", "star-expansion"}})), 1);
  EXPECT_GE(delta(after, series("querygate_rewrites_total", {{"database", db}, {"rewrite", "limit-injection"}})), 1);
  // Every statement is in the latency histogram; all 7 got a permit (admission runs under it); 4 reached the engine.
  EXPECT_EQ(delta(after, series("querygate_statement_duration_seconds_count", {{"database", db}})), 7);
  EXPECT_EQ(delta(after, series("querygate_execution_seconds_count", {{"database", db}})), 4);
  EXPECT_EQ(delta(after, series("querygate_queue_wait_seconds_count", {{"database", db}})), 7);
  // Each text was new to the admission cache: all 7 went to a worker for that reason, none ran on the I/O thread.
  EXPECT_EQ(delta(after, series("querygate_statements_run_total", {{"database", db}, {"where", "worker"}})), 4);
  EXPECT_EQ(delta(after, series("querygate_statements_run_total", {{"database", db}, {"where", "io_thread"}})), 0);
  EXPECT_EQ(delta(after, series("querygate_handoffs_total", {{"database", db}, {"reason", "not_admitted"}})), 7);
  EXPECT_EQ(value(after, series("querygate_statement_duration_seconds_bucket", {{"database", db}, {"le", "+Inf"}})),
            value(after, series("querygate_statement_duration_seconds_count", {{"database", db}})));
  EXPECT_EQ(delta(after, series("querygate_backend_errors_total", {{"database", db}, {"code", "backend:error"}})), 0);

  // Admission gauges, read at scrape time: nothing runs between requests here.
  EXPECT_EQ(value(after, series("querygate_permits_capacity", {{"database", db}})), 3);
  EXPECT_EQ(value(after, series("querygate_permits_in_use", {{"database", db}})), 0);
  EXPECT_EQ(value(after, series("querygate_queue_capacity", {{"database", db}})), 5);
  EXPECT_EQ(value(after, series("querygate_queue_depth", {{"database", db}})), 0);

  // Build info names the version.
  bool build_info = false;
  for (const auto& [key, v] : after)
    if (key.starts_with("querygate_build_info{") && key.find("version=\"0.") != std::string::npos && v == 1)
      build_info = true;
  EXPECT_TRUE(build_info) << after_scrape.body;

  // Bounded labels: no SQL text, token, path or row value made it into the scrape.
  for (const char* leak : {"users", "email", kToken, "passwd", "/nope", "agent", "SELECT"})
    EXPECT_EQ(after_scrape.body.find(leak), std::string::npos) << leak;
  for (const auto& [key, v] : after) EXPECT_TRUE(key.starts_with("querygate_")) << key;
}

TEST_F(MetricsHttpTest, MetricsNeedsNoKeyAndOnlyAnswersGet) {
  EXPECT_EQ(scrape().status, 200);
  const auto post = http(gateway_->port(), "POST", "/metrics", "{}");
  EXPECT_EQ(post.status, 405) << post.body;
  EXPECT_NE(post.headers.find("Allow: GET"), std::string::npos) << post.headers;
}

}  // namespace
}  // namespace qg::testing
