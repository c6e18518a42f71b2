// observability::Metrics on its own: what one RequestRecord moves, and that
// label values stay within their bounded sets whatever the record holds.
#include "observability/metrics.hpp"

#include <gtest/gtest.h>

namespace qg::observability {
namespace {

MetricsSetup setup() {
  return MetricsSetup{
      .databases = {"demo"}, .routes = {"/v1/query", "/v1/schema"}, .version = "9.9.9", .commit = "abc123"};
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(MetricsTest, SeriesExistAtZeroBeforeAnyRequest) {
  Metrics m(setup());
  const std::string text = m.scrape({});
  EXPECT_TRUE(has_line(text, "querygate_build_info{commit=\"abc123\",version=\"9.9.9\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_refusals_total{code=\"limit:queue-full\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statements_total{database=\"demo\",outcome=\"ok\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statements_total{database=\"demo\",outcome=\"limit:deadline\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "querygate_truncations_total{database=\"demo\",reason=\"bytes\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statement_duration_seconds_count{database=\"demo\"} 0")) << text;
}

TEST(MetricsTest, OneStatementMovesItsSeries) {
  Metrics m(setup());
  RequestRecord r;
  r.route = "/v1/query";
  r.database = "demo";
  r.status = 200;
  r.rows = 10;
  r.bytes = 500;
  r.elapsed = std::chrono::microseconds(1500);
  r.queue_wait = std::chrono::milliseconds(0);
  r.execution = std::chrono::microseconds(700);
  r.rewrites = {"star-expansion", "limit-injection"};
  r.truncated_by = "rows";
  r.untrusted_rows = 4;
  m.observe(r);
  const std::string text =
      m.scrape({{.database = "demo", .permits = 2, .in_use = 1, .queue_capacity = 8, .queued = 3}});
  EXPECT_TRUE(has_line(text, "querygate_http_requests_total{route=\"/v1/query\",status=\"200\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statements_total{database=\"demo\",outcome=\"ok\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_rows_returned_total{database=\"demo\"} 10")) << text;
  EXPECT_TRUE(has_line(text, "querygate_response_bytes_total{database=\"demo\"} 500")) << text;
  EXPECT_TRUE(has_line(text, "querygate_truncations_total{database=\"demo\",reason=\"rows\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_untrusted_rows_total{database=\"demo\"} 4")) << text;
  EXPECT_TRUE(has_line(text, "querygate_rewrites_total{database=\"demo\",rewrite=\"star-expansion\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_execution_seconds_bucket{database=\"demo\",le=\"0.001\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statement_duration_seconds_bucket{database=\"demo\",le=\"0.001\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "querygate_permits_in_use{database=\"demo\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_queue_depth{database=\"demo\"} 3")) << text;
}

TEST(MetricsTest, LabelsStayBounded) {
  Metrics m(setup());
  RequestRecord r;
  r.route = "/v1/query?sql=SELECT+secret";  // never expected here, but the label must not take it
  r.status = 404;
  r.outcome = "not-a-code";
  m.observe(r);
  r.route = "/v1/query";
  r.database = "unconfigured";
  r.outcome = "backend:error";
  r.status = 422;
  m.observe(r);
  const std::string text = m.scrape({{.database = "unconfigured", .permits = 9}});
  EXPECT_TRUE(has_line(text, "querygate_http_requests_total{route=\"other\",status=\"404\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_refusals_total{code=\"other\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_refusals_total{code=\"backend:error\"} 1")) << text;
  for (const char* leak : {"secret", "unconfigured", "not-a-code"})
    EXPECT_EQ(text.find(leak), std::string::npos) << leak << "\n" << text;
}

TEST(MetricsTest, BackendErrorsAreCountedByCode) {
  Metrics m(setup());
  RequestRecord r;
  r.route = "/v1/query";
  r.database = "demo";
  r.outcome = "backend:error";
  r.status = 422;
  m.observe(r);
  const std::string text = m.scrape({});
  EXPECT_TRUE(has_line(text, "querygate_backend_errors_total{code=\"backend:error\",database=\"demo\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statements_total{database=\"demo\",outcome=\"backend:error\"} 1")) << text;
}

TEST(MetricsTest, WhereStatementsRanAndWhyTheyWereHandedOff) {
  Metrics m(setup());
  const std::string zero = m.scrape({});
  for (std::string_view place : kStatementPlaces)
    EXPECT_TRUE(
        has_line(zero, "querygate_statements_run_total{database=\"demo\",where=\"" + std::string(place) + "\"} 0"))
        << zero;
  for (std::string_view reason : kHandoffReasons)
    EXPECT_TRUE(has_line(zero, "querygate_handoffs_total{database=\"demo\",reason=\"" + std::string(reason) + "\"} 0"))
        << zero;
  RequestRecord r;
  r.route = "/v1/query";
  r.database = "demo";
  r.status = 200;
  r.ran_on = "io_thread";
  m.observe(r);
  m.observe(r);
  r.ran_on = "worker";
  r.handoff = "slice_exhausted";
  m.observe(r);
  r.ran_on = "";  // refused on the worker before the engine: handed off, never run
  r.handoff = "not_admitted";
  r.status = 422;
  r.outcome = "validation:table-not-allowed";
  m.observe(r);
  r.ran_on = "SELECT 1";  // not a place, not a reason: no label takes it
  r.handoff = "SELECT 2";
  m.observe(r);
  const std::string text = m.scrape({});
  EXPECT_TRUE(has_line(text, "querygate_statements_run_total{database=\"demo\",where=\"io_thread\"} 2")) << text;
  EXPECT_TRUE(has_line(text, "querygate_statements_run_total{database=\"demo\",where=\"worker\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_handoffs_total{database=\"demo\",reason=\"slice_exhausted\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "querygate_handoffs_total{database=\"demo\",reason=\"not_admitted\"} 1")) << text;
  EXPECT_EQ(text.find("SELECT"), std::string::npos) << text;
}

}  // namespace
}  // namespace qg::observability
