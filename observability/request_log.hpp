#pragma once
// One JSON line per request on stdout, for operators and log pipelines. It
// carries the key's name (never its token), the outcome code and a statement
// fingerprint; the SQL text only when the config says log_sql: true.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace qg::observability {

struct RequestRecord {
  std::string request_id;
  std::string method;
  std::string route;           // the path, without the query string
  std::string key;             // API key name; empty without keys
  std::string database;        // empty when the request named none that exists
  std::string outcome = "ok";  // "ok" or the refusal's code
  int status = 0;
  std::optional<std::chrono::milliseconds> queue_wait;
  std::chrono::milliseconds duration{0};
  std::optional<std::int64_t> rows;
  std::size_t bytes = 0;      // response body bytes
  std::string fingerprint;    // libpg_query's fingerprint of the statement
  std::string sql;            // only when log_sql is on
  std::string write_tool;     // write tools: the configured tool called (empty otherwise)
  std::string write_outcome;  // written, already_exists, or the refusal's code

  // For metrics (observability/metrics.hpp), not in the line.
  std::chrono::microseconds elapsed{0};                // `duration`, finer: most statements take under 1 ms
  std::optional<std::chrono::microseconds> execution;  // time in the engine, when the statement reached it
  std::vector<std::string> rewrites;                   // rewrites that fired (names fixed in code)
  std::string truncated_by;                            // "rows" or "bytes" when the answer was cut short
  bool cells_cut = false;                              // some value was cut to max_cell_bytes
  std::int64_t untrusted_rows = 0;                     // returned rows flagged as holding untrusted text
  std::optional<bool> admission_cache_hit;             // the admission cache was asked: hit or miss
  int engine_round_trips = 0;                          // PostgreSQL: waits for the server (exec::RunStats)
  std::string prepared;                                // PostgreSQL: "reused", "parsed" or empty (not prepared)
  int prepared_evicted = 0;                            // PostgreSQL: prepared statements dropped by this run
  std::string ran_on;   // where the statement reached the engine: "io_thread" or "worker"; empty: it did not
  std::string handoff;  // SQLite: why it went from the I/O thread to a worker (kHandoffReasons); empty: it did not
};

// The line (without newline): {"time":"2026-11-30T07:00:00.123Z","request_id":...}
std::string format_request_line(const RequestRecord& record, std::chrono::system_clock::time_point now);

// A request id as sent in X-Request-Id when it is short and printable, else a fresh random one.
std::string request_id_from(const std::string& header);

class RequestLog {
 public:
  void write(const RequestRecord& record);

 private:
  std::mutex mu_;  // one line at a time, whole
};

}  // namespace qg::observability
