// The same statement straight on PostgreSQL, without the gateway: the baseline
// for querygate's overhead on the PostgreSQL backend. Each thread holds one
// connection and runs the statement in a loop, in one of four modes:
//
//   bare      the statement alone over the extended protocol (exec_params):
//             one round trip, what a plain client pays;
//   gateway   what executors/postgres/pg_executor.cpp does on a cached plan
//             verdict: the preamble (BEGIN READ ONLY and nine SET LOCALs in one
//             simple query), the statement (exec_params), ROLLBACK: three
//             round trips, twelve statements for the server;
//   lean      three round trips as in `gateway`, but a preamble of BEGIN READ
//             ONLY and the two timeouts only (the other settings would be set
//             once per connection): separates the cost of the SET LOCALs from
//             the cost of the round trips;
//   pipeline  the gateway's twelve statements, the statement and ROLLBACK sent
//             at once in libpq pipeline mode (extended protocol, one Sync): one
//             round trip for everything; what batching the wrapper would save.
//
// `bare`, `gateway` and `lean` use libpqxx 6.4 as the executor does (a
// nontransaction per statement, every value copied out); `pipeline` needs
// libpq itself, since libpqxx 6.4 has no pipeline mode. Prints one line:
//   mode=M threads=N requests=R seconds=S rps=X p50_ms=A p99_ms=B
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/pqxx>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string dsn;
  std::string sql;
  std::string mode = "bare";
  int threads = 1;
  double seconds = 5;
};

int usage() {
  std::fprintf(stderr,
               "usage: direct_postgres --dsn DSN --sql SQL [--mode bare|gateway|lean|pipeline] [--threads N] "
               "[--seconds S]\n");
  return 2;
}

// The settings pg_executor.cpp's preamble() sets, one statement each, in its
// order (keep in step with it). The timeouts get the gateway's default 30 s
// deadline: the statement never comes near it, and the server's work for a
// SET does not depend on the number.
std::vector<std::string> gateway_settings() {
  return {
      "SET LOCAL statement_timeout = 30000", "SET LOCAL lock_timeout = 30000",   "SET LOCAL search_path = \"public\"",
      "SET LOCAL TimeZone = 'UTC'",          "SET LOCAL DateStyle = 'ISO, MDY'", "SET LOCAL IntervalStyle = 'postgres'",
      "SET LOCAL bytea_output = 'hex'",      "SET LOCAL extra_float_digits = 1", "SET LOCAL work_mem = '32MB'"};
}

std::string joined(const std::vector<std::string>& statements) {
  std::string out;
  for (const auto& s : statements) out += (out.empty() ? "" : "; ") + s;
  return out;
}

// Copies every value out, as the executor's read_rows() does.
std::size_t read_all(const pqxx::result& r) {
  std::size_t bytes = 0;
  for (const auto& row : r)
    for (const auto& field : row)
      if (!field.is_null()) bytes += std::string(field.c_str(), field.size()).size();
  return bytes;
}

// One worker: runs the statement until `end`, recording each latency in ms.
class Worker {
 public:
  virtual ~Worker() = default;
  virtual std::size_t run_once() = 0;  // throws on any error
};

class PqxxWorker final : public Worker {
 public:
  PqxxWorker(const Options& o, std::string preamble) : conn_(o.dsn), sql_(o.sql), preamble_(std::move(preamble)) {}

  std::size_t run_once() override {
    pqxx::nontransaction tx(conn_);
    if (preamble_.empty()) return read_all(tx.exec_params(sql_));
    tx.exec(preamble_);
    const std::size_t bytes = read_all(tx.exec_params(sql_));
    tx.exec("ROLLBACK");
    return bytes;
  }

 private:
  pqxx::connection conn_;
  std::string sql_;
  std::string preamble_;  // empty: bare
};

class PipelineWorker final : public Worker {
 public:
  explicit PipelineWorker(const Options& o) : conn_(PQconnectdb(o.dsn.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(conn_));
    if (PQenterPipelineMode(conn_) != 1) throw std::runtime_error("cannot enter pipeline mode");
    statements_.push_back("BEGIN READ ONLY");
    for (auto& s : gateway_settings()) statements_.push_back(std::move(s));
    statements_.push_back(o.sql);
    statements_.push_back("ROLLBACK");
  }
  ~PipelineWorker() override { PQfinish(conn_); }

  std::size_t run_once() override {
    for (const auto& s : statements_)
      if (PQsendQueryParams(conn_, s.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
        throw std::runtime_error(PQerrorMessage(conn_));
    if (PQpipelineSync(conn_) != 1) throw std::runtime_error(PQerrorMessage(conn_));
    const std::size_t rows_at = statements_.size() - 2;
    std::size_t bytes = 0;
    // Each statement's results end with a null PGresult; the Sync gives one
    // PGRES_PIPELINE_SYNC result after them.
    for (std::size_t i = 0; i < statements_.size(); ++i) {
      for (PGresult* r; (r = PQgetResult(conn_)) != nullptr; PQclear(r)) {
        const auto status = PQresultStatus(r);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
          const std::string message = PQresultErrorMessage(r);
          PQclear(r);
          throw std::runtime_error(message);
        }
        if (i == rows_at)
          for (int row = 0; row < PQntuples(r); ++row)
            for (int col = 0; col < PQnfields(r); ++col)
              if (!PQgetisnull(r, row, col))
                bytes +=
                    std::string(PQgetvalue(r, row, col), static_cast<std::size_t>(PQgetlength(r, row, col))).size();
      }
    }
    PGresult* sync = PQgetResult(conn_);
    const bool synced = sync != nullptr && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
    PQclear(sync);
    if (!synced) throw std::runtime_error("pipeline: no sync result");
    return bytes;
  }

 private:
  PGconn* conn_;
  std::vector<std::string> statements_;
};

std::unique_ptr<Worker> make_worker(const Options& o) {
  if (o.mode == "bare") return std::make_unique<PqxxWorker>(o, std::string());
  if (o.mode == "gateway") return std::make_unique<PqxxWorker>(o, "BEGIN READ ONLY; " + joined(gateway_settings()));
  if (o.mode == "lean")
    return std::make_unique<PqxxWorker>(
        o, "BEGIN READ ONLY; SET LOCAL statement_timeout = 30000; SET LOCAL lock_timeout = 30000");
  return std::make_unique<PipelineWorker>(o);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--dsn")
      o.dsn = value;
    else if (flag == "--sql")
      o.sql = value;
    else if (flag == "--mode")
      o.mode = value;
    else if (flag == "--threads")
      o.threads = std::atoi(value.c_str());
    else if (flag == "--seconds")
      o.seconds = std::atof(value.c_str());
    else
      return usage();
  }
  if (o.dsn.empty() || o.sql.empty() || o.threads < 1 || o.seconds <= 0) return usage();
  if (o.mode != "bare" && o.mode != "gateway" && o.mode != "lean" && o.mode != "pipeline") return usage();

  // Connect every thread before the clock starts: connection set-up (a fork
  // on the server) is not what is measured.
  std::vector<std::unique_ptr<Worker>> workers;
  try {
    for (int t = 0; t < o.threads; ++t) workers.push_back(make_worker(o));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "direct_postgres: cannot connect: %s\n", e.what());
    return 1;
  }

  std::vector<std::vector<double>> latencies(static_cast<std::size_t>(o.threads));
  std::atomic<bool> failed{false};
  std::atomic<std::size_t> sink{0};
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t)
    threads.emplace_back([&, t] {
      auto& mine = latencies[static_cast<std::size_t>(t)];
      std::size_t bytes = 0;
      try {
        while (Clock::now() < end) {
          const auto begin = Clock::now();
          bytes += workers[static_cast<std::size_t>(t)]->run_once();
          mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "direct_postgres: %s\n", e.what());
        failed = true;
      }
      sink += bytes;
    });
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (failed) return 1;

  std::vector<double> all;
  for (const auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  const auto pct = [&all](double p) {
    return all.empty() ? 0.0
                       : all[std::min(all.size() - 1, static_cast<std::size_t>(p * static_cast<double>(all.size())))];
  };
  std::printf("mode=%s threads=%d requests=%zu seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f\n", o.mode.c_str(),
              o.threads, all.size(), elapsed, static_cast<double>(all.size()) / elapsed, pct(0.50), pct(0.99));
  return 0;
}
