// Admission alone (parse → convert → admit → limit → re-check → render, i.e.
// qg::admit_statement, the gateway's own library) over distinct real
// statements: the runnable Spider dev gold queries (each on its own SQLite
// database's catalog) and, when QG_TEST_PG_HOST/QG_TEST_PG_PORT name a cluster
// with the defog databases, the Defog gold queries on PostgreSQL catalogs.
// The datasets are read by tests/fidelity's loaders (the same code the
// fidelity run uses). "Runnable" is the fidelity run's word: the statement runs
// directly on its SQLite file (Spider dev: 972 of 1034).
//
//   admission_bench --spider DIR [--defog DIR] [google benchmark flags]
//     Google Benchmark runs, one per corpus and statement size (tokens, as
//     tests/fidelity's lexer counts them): each iteration admits the next
//     statement of the bucket; counters p50_us / p99_us (wall clock) and
//     p50_cpu_us / p99_cpu_us (the thread's CPU time) over all iterations,
//     statements = distinct statements in the bucket.
//   admission_bench --spider DIR [--defog DIR] --workload OUTDIR
//     Writes, for bench/distinct.sh, OUTDIR/spider-dev.yaml (one gateway
//     config serving every Spider database under DIR/database, all their
//     tables allowlisted) and OUTDIR/spider-dev.bodies (one /v1/query JSON body
//     per line, every runnable statement once, the ones admission refuses
//     included: they are real traffic too, answered 422 with a FIX); with
//     --defog also defog.yaml and defog.bodies (PostgreSQL, role qg_reader).
//     Prints the counts; no timing.
//
// The timed runs admit only the statements admission admits (a refusal stops
// early and is not the admitted path's cost); the counts go to stderr.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "admission/pipeline.hpp"
#include "tests/fidelity/dataset.hpp"
#include "tests/fidelity/defog_dataset.hpp"
#include "tests/fidelity/direct_postgres.hpp"
#include "tests/fidelity/direct_sqlite.hpp"
#include "tests/fidelity/gateway_side.hpp"
#include "tests/fidelity/sql_tokens.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Statement {
  const qg::catalog::Catalog* catalog = nullptr;
  std::string db_id;
  std::string sql;
  std::size_t tokens = 0;
  bool admitted = false;  // refused ones are only in the --workload bodies
};

struct Corpus {
  std::string name;
  std::vector<Statement> statements;
  // For --workload: db_id → its SQLite path or DSN, schema (PostgreSQL) and allowlisted tables.
  struct Database {
    std::string where, schema;
    std::vector<std::string> tables;
  };
  std::map<std::string, Database> databases;
  int refused = 0, not_runnable = 0, db_missing = 0;
};

// The gateway's default limits: what a /v1/query without "limit" is admitted under.
const qg::config::Limits kLimits{};

// --sample N: each corpus keeps only its first N statements, and the Spider
// gateway serves only their databases (the CI smoke's short run). 0: all.
std::size_t g_sample = 0;

fidelity::GatewaySide& gateway_side() {
  static fidelity::GatewaySide side;
  return side;
}

Corpus load_spider_corpus(const fs::path& dir) {
  Corpus c;
  c.name = "spider-dev";
  auto dataset = fidelity::load_spider(dir, "dev");
  if (!dataset) {
    std::cerr << "admission_bench: " << dataset.error().message << "\n";
    std::exit(1);
  }
  std::map<fs::path, std::unique_ptr<fidelity::DirectSqlite>> direct;
  for (const auto& q : dataset->queries) {
    if (g_sample > 0 && c.statements.size() >= g_sample) break;
    if (!fs::exists(q.db_path)) {
      ++c.db_missing;
      continue;
    }
    auto& d = direct[q.db_path];
    if (!d) {
      auto opened = fidelity::DirectSqlite::open(q.db_path);
      if (!opened) {
        ++c.db_missing;
        continue;
      }
      d = std::make_unique<fidelity::DirectSqlite>(std::move(opened).value());
    }
    if (!d->run(q.sql)) {
      ++c.not_runnable;
      continue;
    }
    auto executor = gateway_side().executor(q.db_id, q.db_path);
    if (!executor) {
      ++c.db_missing;
      continue;
    }
    const auto& catalog = (*executor)->catalog();
    const bool admitted = static_cast<bool>(qg::admit_statement(q.sql, catalog, kLimits, std::nullopt));
    if (!admitted) ++c.refused;
    c.statements.push_back({&catalog, q.db_id, q.sql, fidelity::tokenize(q.sql).size(), admitted});
    if (!c.databases.contains(q.db_id)) {
      auto tables = d->tables();
      c.databases[q.db_id] = {fs::absolute(q.db_path).string(), "", tables ? *tables : std::vector<std::string>{}};
    }
  }
  // The gateway serves every database of the Spider folder (163), as the
  // issue's workload has it, not only the dev split's.
  if (std::error_code ec; g_sample == 0 && fs::is_directory(dir / "database", ec))
    for (const auto& entry : fs::directory_iterator(dir / "database")) {
      const auto db_id = entry.path().filename().string();
      const auto file = entry.path() / (db_id + ".sqlite");
      if (c.databases.contains(db_id) || !fs::exists(file)) continue;
      auto opened = fidelity::DirectSqlite::open(file);
      if (!opened) continue;
      auto tables = opened->tables();
      if (tables && !tables->empty()) c.databases[db_id] = {fs::absolute(file).string(), "", *tables};
    }
  return c;
}

std::string pg_conninfo() {
  const char* host = std::getenv("QG_TEST_PG_HOST");
  const char* port = std::getenv("QG_TEST_PG_PORT");
  if (!host || !port || !*host || !*port) return "";
  return std::string("host=") + host + " port=" + port + " user=qg_reader connect_timeout=5";
}

Corpus load_defog_corpus(const fs::path& dir) {
  Corpus c;
  c.name = "defog";
  const std::string conninfo = pg_conninfo();
  if (conninfo.empty()) {
    std::cerr << "admission_bench: --defog needs QG_TEST_PG_HOST and QG_TEST_PG_PORT (the test cluster)\n";
    std::exit(1);
  }
  auto dataset = fidelity::load_defog(dir, conninfo);
  if (!dataset) {
    std::cerr << "admission_bench: " << dataset.error().message << "\n";
    std::exit(1);
  }
  for (const auto& q : dataset->queries) {
    if (g_sample > 0 && c.statements.size() >= g_sample) break;
    auto executor = gateway_side().postgres_executor(q.db_id, q.pg_dsn);
    if (!executor) {
      ++c.db_missing;
      continue;
    }
    const auto& catalog = (*executor)->catalog();
    const bool admitted = static_cast<bool>(qg::admit_statement(q.sql, catalog, kLimits, std::nullopt));
    if (!admitted) ++c.refused;
    c.statements.push_back({&catalog, q.db_id, q.sql, fidelity::tokenize(q.sql).size(), admitted});
    if (!c.databases.contains(q.db_id)) {
      auto direct = fidelity::DirectPostgres::open(q.pg_dsn);
      Corpus::Database db{q.pg_dsn, "", {}};
      if (direct)
        if (auto found = (*direct)->tables()) {
          db.schema = found->schema;
          db.tables = found->tables;
        }
      c.databases[q.db_id] = db;
    }
  }
  return c;
}

// One gateway config (JSON, which YAML reads) and one body per line.
void write_workload(const Corpus& c, const fs::path& out, bool postgres) {
  boost::json::object databases;
  for (const auto& [db_id, entry] : c.databases) {
    boost::json::object tables;
    for (const auto& t : entry.tables) tables[t] = boost::json::object{};
    boost::json::object db{{"backend", postgres ? "postgres" : "sqlite"}, {"queue_depth", 256}, {"tables", tables}};
    db[postgres ? "dsn" : "path"] = entry.where;
    if (!entry.schema.empty()) db["schema"] = entry.schema;
    databases[db_id] = db;
  }
  std::ofstream(out / (c.name + ".yaml"))
      << boost::json::serialize(boost::json::object{{"databases", databases}}) << "\n";
  std::ofstream bodies(out / (c.name + ".bodies"));
  for (const auto& s : c.statements)
    bodies << boost::json::serialize(boost::json::object{{"sql", s.sql}, {"database", s.db_id}}) << "\n";
}

struct Bucket {
  const char* name;
  std::size_t lo, hi;  // tokens, inclusive
};
constexpr Bucket kBuckets[] = {
    {"all", 0, SIZE_MAX},     {"tokens_1-15", 1, 15},       {"tokens_16-30", 16, 30},
    {"tokens_31-60", 31, 60}, {"tokens_61+", 61, SIZE_MAX},
};

double thread_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

void register_corpus(const Corpus& c) {
  for (const auto& b : kBuckets) {
    std::vector<const Statement*> picked;
    for (const auto& s : c.statements)
      if (s.admitted && s.tokens >= b.lo && s.tokens <= b.hi) picked.push_back(&s);
    if (picked.empty()) continue;
    benchmark::RegisterBenchmark(("admit/" + c.name + "/" + b.name).c_str(), [picked](benchmark::State& state) {
      std::vector<double> us, cpu_us;
      std::size_t i = 0;
      for (auto _ : state) {
        const Statement& s = *picked[i++ % picked.size()];
        const double c0 = thread_cpu_us();
        const auto t0 = Clock::now();
        auto admitted = qg::admit_statement(s.sql, *s.catalog, kLimits, std::nullopt);
        benchmark::DoNotOptimize(admitted);
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        cpu_us.push_back(thread_cpu_us() - c0);
      }
      state.counters["statements"] = static_cast<double>(picked.size());
      state.counters["p50_us"] = percentile(us, 0.50);
      state.counters["p99_us"] = percentile(us, 0.99);
      // The thread's own CPU time: robust to neighbours taking the core (on a
      // shared machine the wall-clock p99 is mostly preemption).
      state.counters["p50_cpu_us"] = percentile(cpu_us, 0.50);
      state.counters["p99_cpu_us"] = percentile(cpu_us, 0.99);
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path spider, defog, workload;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--spider" && i + 1 < argc)
      spider = argv[++i];
    else if (a == "--defog" && i + 1 < argc)
      defog = argv[++i];
    else if (a == "--workload" && i + 1 < argc)
      workload = argv[++i];
    else if (a == "--sample" && i + 1 < argc)
      g_sample = std::stoul(argv[++i]);
    else
      rest.push_back(argv[i]);
  }
  if (spider.empty() && defog.empty()) {
    std::cerr
        << "usage: admission_bench [--spider DIR] [--defog DIR] [--workload OUTDIR] [--sample N] [benchmark flags]\n";
    return 2;
  }
  std::vector<Corpus> corpora;
  if (!spider.empty()) corpora.push_back(load_spider_corpus(spider));
  if (!defog.empty()) corpora.push_back(load_defog_corpus(defog));
  for (const auto& c : corpora)
    std::cerr << "corpus " << c.name << ": statements=" << c.statements.size()
              << " admitted=" << c.statements.size() - static_cast<std::size_t>(c.refused)
              << " databases=" << c.databases.size() << " refused=" << c.refused << " not_runnable=" << c.not_runnable
              << " db_missing=" << c.db_missing << "\n";

  if (!workload.empty()) {
    fs::create_directories(workload);
    for (const auto& c : corpora) write_workload(c, workload, c.name == "defog");
    return 0;
  }
  for (const auto& c : corpora) register_corpus(c);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
