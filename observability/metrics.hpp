#pragma once
// Prometheus metrics for GET /metrics (text format 0.0.4, prometheus-cpp core).
//
// Every family is declared in one place (metrics.cpp, Metrics::Impl) with its
// help text. Counters and histograms move in exactly one spot: observe(),
// called with each request's RequestRecord as its reply leaves the gateway,
// next to the request log. Admission gauges (permits, queue depth) are read
// from the queues at scrape time, so the queues carry no metrics code; so is the
// count of deadlines spent in the queue (a counter advanced by what is new).
//
// Labels are bounded by construction: routes are the served paths (anything
// else is "other"), databases are the configured ones, codes come from the error
// code table, rewrites are names fixed in code. Never SQL text, tokens, key
// names or row values.
//
// prometheus-cpp stays behind a pimpl so the gateway's headers do not pull it in.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "observability/request_log.hpp"

namespace qg::observability {

// Where a statement ran (RequestRecord::ran_on; querygate_statements_run_total{where}).
inline constexpr std::array<std::string_view, 2> kStatementPlaces = {"io_thread", "worker"};
// Why a SQLite statement went from the I/O thread to a worker (RequestRecord::handoff;
// querygate_handoffs_total{reason}), in the order of gateway::Handoff (gateway/api/first_slice.hpp).
inline constexpr std::array<std::string_view, 7> kHandoffReasons = {
    "permit_waited", "tool_call", "validate_only", "not_admitted", "not_cheap", "slice_exhausted", "engine_busy"};

// One database's admission state at scrape time.
struct QueueSnapshot {
  std::string database;
  int permits = 0;                     // configured permits
  int in_use = 0;                      // permits held right now
  int queue_capacity = 0;              // configured queue_depth
  int queued = 0;                      // requests waiting right now
  std::uint64_t expired_in_queue = 0;  // total: requests whose deadline was spent waiting for a permit
};

// What the label values may be, and which build this is.
struct MetricsSetup {
  std::vector<std::string> databases{};    // configured names; their series exist from the start, at zero
  std::vector<std::string> routes{};       // served paths; any other path is counted as route="other"
  std::vector<std::string> write_tools{};  // configured write tool names (querygate_writes_total's tool label)
  std::string version{};
  std::string commit{};
};

class Metrics {
 public:
  explicit Metrics(MetricsSetup setup);
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Counts one answered request. Thread-safe.
  void observe(const RequestRecord& record);

  // The exposition text, with the admission gauges set from `queues`. Thread-safe.
  std::string scrape(const std::vector<QueueSnapshot>& queues);

  // The Content-Type of scrape()'s text.
  static constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qg::observability
