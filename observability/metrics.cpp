#include "observability/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

#include "common/error_code.hpp"

namespace qg::observability {
namespace {

using prometheus::Counter;
using prometheus::Family;
using prometheus::Gauge;
using prometheus::Histogram;

// Reasons an answer was cut short (gateway/api/envelope.cpp).
constexpr std::array<std::string_view, 3> kTruncationReasons = {"rows", "bytes", "cell"};

// Statement outcomes the dashboard plots as rates per database (others appear as they happen).
constexpr std::array<std::string_view, 3> kWatchedOutcomes = {"ok", "limit:queue-full", "limit:deadline"};

// Seconds. Statements on the demo answer in about a millisecond; deadlines
// default to 30 s, so the buckets span both.
const Histogram::BucketBoundaries& latency_buckets() {
  static const Histogram::BucketBoundaries b{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                             0.25,   0.5,   1,      2.5,   5,    10,    30,   60};
  return b;
}

double seconds(std::chrono::microseconds d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

// The one place where querygate's metric families are declared.
struct Metrics::Impl {
  prometheus::Registry registry;

  Family<Counter>& requests = prometheus::BuildCounter()
                                  .Name("querygate_http_requests_total")
                                  .Help(
                                      "HTTP requests answered by the API, by route (fixed list, else \"other\") "
                                      "and status. GET /healthz and GET /metrics are not counted.")
                                  .Register(registry);
  Family<Counter>& statements =
      prometheus::BuildCounter()
          .Name("querygate_statements_total")
          .Help(
              "Statements (POST /v1/query, MCP execute_sql) for a configured database, by database and "
              "outcome (\"ok\" or the error code).")
          .Register(registry);
  Family<Counter>& refusals = prometheus::BuildCounter()
                                  .Name("querygate_refusals_total")
                                  .Help("Error answers from the API, by error code (any route).")
                                  .Register(registry);
  Family<Counter>& rewrites = prometheus::BuildCounter()
                                  .Name("querygate_rewrites_total")
                                  .Help("Admitted statements a rewrite fired on, by database and rewrite name.")
                                  .Register(registry);
  Family<Counter>& rows = prometheus::BuildCounter()
                              .Name("querygate_rows_returned_total")
                              .Help("Rows returned in successful query answers, by database.")
                              .Register(registry);
  Family<Counter>& bytes = prometheus::BuildCounter()
                               .Name("querygate_response_bytes_total")
                               .Help("Body bytes of successful query answers, by database.")
                               .Register(registry);
  Family<Counter>& truncations = prometheus::BuildCounter()
                                     .Name("querygate_truncations_total")
                                     .Help(
                                         "Query answers cut short, by database and reason: rows (the row cap), "
                                         "bytes (the response byte cap), cell (a value cut to max_cell_bytes).")
                                     .Register(registry);
  Family<Counter>& untrusted = prometheus::BuildCounter()
                                   .Name("querygate_untrusted_rows_total")
                                   .Help("Returned rows flagged as holding untrusted text, by database.")
                                   .Register(registry);
  Family<Counter>& writes = prometheus::BuildCounter()
                                .Name("querygate_writes_total")
                                .Help(
                                    "Write tool calls, by tool and outcome: written, already_exists, or the "
                                    "refusal's code (write:invalid-argument, write:unknown-reference, ...).")
                                .Register(registry);
  Family<Counter>& backend_errors = prometheus::BuildCounter()
                                        .Name("querygate_backend_errors_total")
                                        .Help(
                                            "Statements the engine failed or refused (backend:* codes), by "
                                            "database and code.")
                                        .Register(registry);
  Family<Counter>& admission_cache_hits =
      prometheus::BuildCounter()
          .Name("querygate_admission_cache_hits_total")
          .Help(
              "Caller statements whose admitted, rendered form came from the admission cache (no parse, admission "
              "or render), by database.")
          .Register(registry);
  Family<Counter>& admission_cache_misses =
      prometheus::BuildCounter()
          .Name("querygate_admission_cache_misses_total")
          .Help("Caller statements admitted afresh because the admission cache did not hold them, by database.")
          .Register(registry);
  Family<Counter>& round_trips =
      prometheus::BuildCounter()
          .Name("querygate_engine_round_trips_total")
          .Help(
              "PostgreSQL: times a statement waited for the server's answer (1 per statement whose plan verdict is "
              "cached; the first of a shape takes 4: preamble, EXPLAIN, statement, ROLLBACK), by database.")
          .Register(registry);
  Family<Counter>& prepared = prometheus::BuildCounter()
                                  .Name("querygate_prepared_statements_total")
                                  .Help(
                                      "Statements run as prepared statements kept by their connection "
                                      "(PostgreSQL: server-side; SQLite: persistent), by database and outcome: "
                                      "parsed (prepared now) or reused.")
                                  .Register(registry);
  Family<Counter>& prepared_evictions =
      prometheus::BuildCounter()
          .Name("querygate_prepared_evictions_total")
          .Help(
              "Prepared statements dropped from a connection (beyond its bound, or because the schema changed under "
              "them), by database.")
          .Register(registry);
  Family<Counter>& statements_run =
      prometheus::BuildCounter()
          .Name("querygate_statements_run_total")
          .Help(
              "Statements that reached the engine, by database and where they ran: io_thread (SQLite, a permit free "
              "at once and the statement cheap last time: no hand-off) or worker.")
          .Register(registry);
  Family<Counter>& handoffs =
      prometheus::BuildCounter()
          .Name("querygate_handoffs_total")
          .Help(
              "SQLite statements handed from the I/O thread to a worker, by database and reason: permit_waited, "
              "tool_call, validate_only, not_admitted (not in the admission cache), not_cheap (its last run was "
              "not), slice_exhausted (its first slice ran out of steps), engine_busy (no idle connection, or a "
              "writer's lock).")
          .Register(registry);
  Family<Histogram>& duration = prometheus::BuildHistogram()
                                    .Name("querygate_statement_duration_seconds")
                                    .Help(
                                        "POST /v1/query time from request to answer (queue wait, admission, "
                                        "execution, shaping), by database.")
                                    .Register(registry);
  Family<Histogram>& queue_wait = prometheus::BuildHistogram()
                                      .Name("querygate_queue_wait_seconds")
                                      .Help("Time statements waited for a permit before running, by database.")
                                      .Register(registry);
  Family<Histogram>& execution = prometheus::BuildHistogram()
                                     .Name("querygate_execution_seconds")
                                     .Help("Time statements spent in the database engine, by database.")
                                     .Register(registry);
  Family<Gauge>& queue_depth = prometheus::BuildGauge()
                                   .Name("querygate_queue_depth")
                                   .Help("Requests waiting for a permit now, by database.")
                                   .Register(registry);
  Family<Gauge>& queue_capacity = prometheus::BuildGauge()
                                      .Name("querygate_queue_capacity")
                                      .Help("Requests that may wait for a permit at once (queue_depth), by database.")
                                      .Register(registry);
  Family<Gauge>& permits_in_use = prometheus::BuildGauge()
                                      .Name("querygate_permits_in_use")
                                      .Help("Permits held by running statements now, by database.")
                                      .Register(registry);
  Family<Gauge>& permits_capacity = prometheus::BuildGauge()
                                        .Name("querygate_permits_capacity")
                                        .Help("Configured permits (statements running at once), by database.")
                                        .Register(registry);
  // Read from the queues at scrape time (PermitQueue::stats, as /readyz shows it); advanced by the difference.
  Family<Counter>& queue_expired = prometheus::BuildCounter()
                                       .Name("querygate_queue_expired_total")
                                       .Help("Requests whose deadline was spent waiting for a permit, by database.")
                                       .Register(registry);
  Family<Gauge>& build_info = prometheus::BuildGauge()
                                  .Name("querygate_build_info")
                                  .Help("Always 1; the labels say which build is running.")
                                  .Register(registry);

  // Per configured database, the series looked up once: Family::Add builds a
  // throwaway histogram on every call, even for labels it already has.
  struct Series {
    Counter* rows;
    Counter* bytes;
    Counter* untrusted;
    Counter* admission_cache_hits;
    Counter* admission_cache_misses;
    Counter* round_trips;
    Counter* prepared_parsed;
    Counter* prepared_reused;
    Counter* prepared_evictions;
    Histogram* duration;
    Histogram* queue_wait;
    Histogram* execution;
    Gauge* queue_depth;
    Gauge* queue_capacity;
    Gauge* permits_in_use;
    Gauge* permits_capacity;
    Counter* queue_expired;
  };
  std::mutex scrape_mu;                                            // concurrent scrapes advance queue_expired once
  std::map<std::string, std::uint64_t, std::less<>> expired_seen;  // what queue_expired has counted so far
  std::map<std::string, Series, std::less<>> per_database;         // its keys: the only database label values

  std::set<std::string, std::less<>> routes;
  std::set<std::string, std::less<>> write_tools;  // the only tool label values (else "other")

  std::string route_label(const std::string& path) const { return routes.contains(path) ? path : "other"; }
  // Error codes are one fixed table; anything else (never expected) is "other".
  static std::string code_label(const std::string& outcome) {
    return error_code_from_name(outcome) ? outcome : "other";
  }
};

Metrics::Metrics(MetricsSetup setup) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.build_info.Add({{"version", setup.version}, {"commit", setup.commit}}).Set(1);
  m.routes.insert(setup.routes.begin(), setup.routes.end());
  m.write_tools.insert(setup.write_tools.begin(), setup.write_tools.end());
  for (const auto& tool : setup.write_tools)
    for (std::string_view outcome : {"written", "already_exists"})
      m.writes.Add({{"tool", tool}, {"outcome", std::string(outcome)}});
  // Series that exist before anything happens, so their rates read 0, not "no data".
  for (const ErrorCodeInfo& c : all_error_codes()) m.refusals.Add({{"code", std::string(c.name)}});
  for (const auto& db : setup.databases) {
    const prometheus::Labels labels{{"database", db}};
    m.per_database.emplace(db, Impl::Series{
                                   .rows = &m.rows.Add(labels),
                                   .bytes = &m.bytes.Add(labels),
                                   .untrusted = &m.untrusted.Add(labels),
                                   .admission_cache_hits = &m.admission_cache_hits.Add(labels),
                                   .admission_cache_misses = &m.admission_cache_misses.Add(labels),
                                   .round_trips = &m.round_trips.Add(labels),
                                   .prepared_parsed = &m.prepared.Add({{"database", db}, {"outcome", "parsed"}}),
                                   .prepared_reused = &m.prepared.Add({{"database", db}, {"outcome", "reused"}}),
                                   .prepared_evictions = &m.prepared_evictions.Add(labels),
                                   .duration = &m.duration.Add(labels, latency_buckets()),
                                   .queue_wait = &m.queue_wait.Add(labels, latency_buckets()),
                                   .execution = &m.execution.Add(labels, latency_buckets()),
                                   .queue_depth = &m.queue_depth.Add(labels),
                                   .queue_capacity = &m.queue_capacity.Add(labels),
                                   .permits_in_use = &m.permits_in_use.Add(labels),
                                   .permits_capacity = &m.permits_capacity.Add(labels),
                                   .queue_expired = &m.queue_expired.Add(labels),
                               });
    for (std::string_view outcome : kWatchedOutcomes)
      m.statements.Add({{"database", db}, {"outcome", std::string(outcome)}});
    for (std::string_view reason : kTruncationReasons)
      m.truncations.Add({{"database", db}, {"reason", std::string(reason)}});
    for (std::string_view place : kStatementPlaces)
      m.statements_run.Add({{"database", db}, {"where", std::string(place)}});
    for (std::string_view reason : kHandoffReasons) m.handoffs.Add({{"database", db}, {"reason", std::string(reason)}});
    for (const ErrorCodeInfo& c : all_error_codes())
      if (c.name.starts_with("backend:")) m.backend_errors.Add({{"database", db}, {"code", std::string(c.name)}});
  }
}

Metrics::~Metrics() = default;

void Metrics::observe(const RequestRecord& r) {
  Impl& m = *impl_;
  const bool ok = r.outcome == "ok";
  const std::string route = m.route_label(r.route);
  m.requests.Add({{"route", route}, {"status", std::to_string(r.status)}}).Increment();
  if (!ok) m.refusals.Add({{"code", Impl::code_label(r.outcome)}}).Increment();
  if (!r.write_tool.empty()) {
    const std::string tool = m.write_tools.contains(r.write_tool) ? r.write_tool : "other";
    const std::string& o = r.write_outcome.empty() ? r.outcome : r.write_outcome;
    const std::string outcome = o == "written" || o == "already_exists" ? o : Impl::code_label(o);
    m.writes.Add({{"tool", tool}, {"outcome", outcome}}).Increment();
  }
  // Statements arrive on /v1/query and as MCP tools/call (execute_sql); only those set `database`.
  // Curated tools' calls (POST /v1/tools/{name}) are statements too.
  if ((route != "/v1/query" && route != "/mcp" && route != "/v1/tools/{name}") || r.database.empty())
    return;  // not a statement for a known database

  const auto found = m.per_database.find(r.database);
  if (found == m.per_database.end()) return;  // not a configured name: never expected, and not a label value
  const std::string& db = found->first;
  const Impl::Series& s = found->second;
  const std::string outcome = ok ? "ok" : Impl::code_label(r.outcome);
  m.statements.Add({{"database", db}, {"outcome", outcome}}).Increment();
  s.duration->Observe(seconds(r.elapsed));
  if (r.queue_wait)
    s.queue_wait->Observe(seconds(std::chrono::duration_cast<std::chrono::microseconds>(*r.queue_wait)));
  if (r.execution) s.execution->Observe(seconds(*r.execution));
  if (r.admission_cache_hit) (*r.admission_cache_hit ? s.admission_cache_hits : s.admission_cache_misses)->Increment();
  if (r.engine_round_trips > 0) s.round_trips->Increment(r.engine_round_trips);
  if (r.prepared == "parsed") s.prepared_parsed->Increment();
  if (r.prepared == "reused") s.prepared_reused->Increment();
  if (r.prepared_evicted > 0) s.prepared_evictions->Increment(r.prepared_evicted);
  if (std::find(kStatementPlaces.begin(), kStatementPlaces.end(), r.ran_on) != kStatementPlaces.end())
    m.statements_run.Add({{"database", db}, {"where", r.ran_on}}).Increment();
  if (std::find(kHandoffReasons.begin(), kHandoffReasons.end(), r.handoff) != kHandoffReasons.end())
    m.handoffs.Add({{"database", db}, {"reason", r.handoff}}).Increment();
  for (const auto& name : r.rewrites) m.rewrites.Add({{"database", db}, {"rewrite", name}}).Increment();
  if (outcome.starts_with("backend:")) m.backend_errors.Add({{"database", db}, {"code", outcome}}).Increment();
  if (!ok) return;
  if (r.rows) s.rows->Increment(static_cast<double>(*r.rows));
  s.bytes->Increment(static_cast<double>(r.bytes));
  if (std::find(kTruncationReasons.begin(), kTruncationReasons.end(), r.truncated_by) != kTruncationReasons.end())
    m.truncations.Add({{"database", db}, {"reason", r.truncated_by}}).Increment();
  if (r.cells_cut) m.truncations.Add({{"database", db}, {"reason", "cell"}}).Increment();
  if (r.untrusted_rows > 0) s.untrusted->Increment(static_cast<double>(r.untrusted_rows));
}

std::string Metrics::scrape(const std::vector<QueueSnapshot>& queues) {
  Impl& m = *impl_;
  std::lock_guard lock(m.scrape_mu);
  for (const auto& q : queues) {
    const auto found = m.per_database.find(q.database);
    if (found == m.per_database.end()) continue;
    const Impl::Series& s = found->second;
    std::uint64_t& seen = m.expired_seen[q.database];
    if (q.expired_in_queue > seen) s.queue_expired->Increment(static_cast<double>(q.expired_in_queue - seen));
    seen = std::max(seen, q.expired_in_queue);
    s.queue_depth->Set(q.queued);
    s.queue_capacity->Set(q.queue_capacity);
    s.permits_in_use->Set(q.in_use);
    s.permits_capacity->Set(q.permits);
  }
  return prometheus::TextSerializer().Serialize(m.registry.Collect());
}

}  // namespace qg::observability
