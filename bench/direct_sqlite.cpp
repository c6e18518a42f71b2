// The same statements straight on SQLite, without the gateway: the baseline
// for querygate's overhead. Each thread has its own read-only connection and,
// like the executor, prepares, steps and finalizes every statement and copies
// every value out. Prints one line:
//   threads=N requests=R seconds=S rps=X p50_ms=A p99_ms=B
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string db;
  std::string sql;
  int threads = 1;
  double seconds = 5;
};

int usage() {
  std::fprintf(stderr, "usage: direct_sqlite --db PATH --sql SQL [--threads N] [--seconds S]\n");
  return 2;
}

// One statement, read completely; false on any SQLite error.
bool run_once(sqlite3* db, const std::string& sql, std::size_t& cells) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql.c_str(), static_cast<int>(sql.size()) + 1, 0, &stmt, nullptr) != SQLITE_OK)
    return false;
  const int n = sqlite3_column_count(stmt);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int i = 0; i < n; ++i) {
      switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER:
          cells += static_cast<std::size_t>(sqlite3_column_int64(stmt, i) != 0);
          break;
        case SQLITE_FLOAT:
          cells += static_cast<std::size_t>(sqlite3_column_double(stmt, i) != 0);
          break;
        case SQLITE_TEXT: {
          const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
          std::string copy(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
          cells += copy.size();
          break;
        }
        default:
          break;
      }
    }
  }
  sqlite3_finalize(stmt);
  return rc == SQLITE_DONE;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--db")
      o.db = value;
    else if (flag == "--sql")
      o.sql = value;
    else if (flag == "--threads")
      o.threads = std::atoi(value.c_str());
    else if (flag == "--seconds")
      o.seconds = std::atof(value.c_str());
    else
      return usage();
  }
  if (o.db.empty() || o.sql.empty() || o.threads < 1 || o.seconds <= 0) return usage();

  std::vector<std::vector<double>> latencies(static_cast<std::size_t>(o.threads));
  std::atomic<bool> failed{false};
  std::atomic<std::size_t> sink{0};
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int t = 0; t < o.threads; ++t)
    threads.emplace_back([&, t] {
      sqlite3* db = nullptr;
      if (sqlite3_open_v2(o.db.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE,
                          nullptr) != SQLITE_OK) {
        failed = true;
        sqlite3_close(db);
        return;
      }
      std::size_t cells = 0;
      auto& mine = latencies[static_cast<std::size_t>(t)];
      while (Clock::now() < end) {
        const auto begin = Clock::now();
        if (!run_once(db, o.sql, cells)) {
          failed = true;
          break;
        }
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
      }
      sink += cells;
      sqlite3_close(db);
    });
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (failed) {
    std::fprintf(stderr, "direct_sqlite: a statement failed (check --db and --sql)\n");
    return 1;
  }
  std::vector<double> all;
  for (const auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  const auto pct = [&all](double p) {
    return all.empty() ? 0.0
                       : all[std::min(all.size() - 1, static_cast<std::size_t>(p * static_cast<double>(all.size())))];
  };
  std::printf("threads=%d requests=%zu seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f\n", o.threads, all.size(), elapsed,
              static_cast<double>(all.size()) / elapsed, pct(0.50), pct(0.99));
  return 0;
}
