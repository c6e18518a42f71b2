// The differential property's run (differential.hpp): per seed, a fresh
// database on the test cluster, its SQLite copy, both gateways and PostgreSQL
// directly; every generated statement on all three.
#include "differential.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <pqxx/pqxx>
#include <sstream>

#include "compare.hpp"
#include "direct_postgres.hpp"
#include "gateway_side.hpp"
#include "parity.hpp"

namespace fidelity {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDatabase = "qg_differential";

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return s;
}

std::string rows_text(const qg::exec::Rows& rows) {
  std::string out = std::to_string(rows.rows.size()) + " rows";
  for (std::size_t i = 0; i < rows.rows.size() && i < 6; ++i) out += "\n        " + format_row(rows.rows[i]);
  if (rows.rows.size() > 6) out += "\n        ...";
  return out;
}

std::string answer_text(const GatewayRun& run) {
  if (run.refusal)
    return std::string("refused ") + std::string(qg::name(run.refusal->code)) + ": " + run.refusal->message;
  if (run.engine_error)
    return std::string("engine error ") + std::string(qg::name(run.engine_error->code)) + ": " +
           run.engine_error->message;
  return rows_text(run.rows) + "\n        ran: " + run.rendered;
}

// A fresh database `kDatabase` owned by qg_owner holding the dataset, readable by qg_reader (as
// scripts/pg-test-cluster.sh makes its databases).
qg::Status load_database(const DifferentialOptions& o, const std::vector<DiffTable>& tables) {
  try {
    {
      pqxx::connection admin(o.admin_conninfo + " dbname=postgres");
      pqxx::nontransaction tx(admin);
      tx.exec(std::string("DROP DATABASE IF EXISTS ") + kDatabase + " WITH (FORCE)");
      tx.exec(std::string("CREATE DATABASE ") + kDatabase + " OWNER qg_owner");
    }
    pqxx::connection owner(o.admin_conninfo + " dbname=" + kDatabase + " user=qg_owner");
    pqxx::work tx(owner);
    tx.exec(differential_dataset_sql(tables));
    tx.exec(std::string("REVOKE ALL ON DATABASE ") + kDatabase + " FROM PUBLIC; GRANT CONNECT ON DATABASE " +
            kDatabase +
            " TO qg_reader; GRANT USAGE ON SCHEMA public TO qg_reader; GRANT SELECT ON ALL TABLES IN SCHEMA public "
            "TO qg_reader");
    tx.commit();
  } catch (const std::exception& e) {
    return qg::make_error(qg::ErrorCode::BackendError, std::string("creating ") + kDatabase + ": " + e.what());
  }
  return {};
}

struct Tally {
  int statements = 0, truth_errors = 0;
  std::map<std::string, int> sqlite, postgres;  // class → count
  int both_admitted_answered = 0;               // answered by both gateways (and so compared)
  std::map<std::string, int> sqlite_refusals;   // reason → count
};

std::string reason_of(const std::string& message) {
  auto cut = message.find_first_of("'\"`");
  std::string r = message.substr(0, cut == std::string::npos ? message.size() : cut);
  return r.size() > 100 ? r.substr(0, 100) : r;
}

}  // namespace

int run_differential(const DifferentialOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path work = fs::temp_directory_path() / ("qg-differential-" + std::to_string(::getpid()));
  fs::create_directories(work);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(p, ignored);
    }
  } cleanup{work};

  Tally tally;
  std::vector<std::string> violations;
  std::ostringstream tsv;
  tsv << "seed\tn\tpostgres_direct\tsqlite\tpostgres\tsqlite_detail\tpostgres_detail\tsql\n";
  for (std::uint64_t seed = o.seed; seed < o.seed + static_cast<std::uint64_t>(o.seeds); ++seed) {
    const auto tables = differential_dataset(seed);
    if (auto loaded = load_database(o, tables); !loaded) {
      std::cerr << "differential: " << loaded.error().message << "\n";
      return 2;
    }
    const std::string dsn = o.conninfo + " dbname=" + kDatabase;
    const fs::path file = work / ("seed-" + std::to_string(seed) + ".sqlite");
    if (auto copied = copy_postgres_to_sqlite(dsn, file); !copied) {
      std::cerr << "differential: " << copied.error().message << "\n";
      return 2;
    }
    auto direct = DirectPostgres::open(dsn);
    if (!direct) {
      std::cerr << "differential: " << direct.error().message << "\n";
      return 2;
    }
    GatewaySide gateway;  // fresh per seed: its executors are keyed by the (reused) DSN
    auto pg = gateway.postgres_executor(kDatabase, dsn);
    auto lite = gateway.executor(kDatabase, file, "public");
    if (!pg || !lite) {
      std::cerr << "differential: " << (!pg ? pg.error().message : lite.error().message) << "\n";
      return 2;
    }
    const auto statements = differential_statements(tables, seed, o.count);
    for (std::size_t n = 0; n < statements.size(); ++n) {
      const std::string& sql = statements[n];
      ++tally.statements;
      auto truth = (*direct)->run(sql);
      const GatewayRun runs[2] = {gateway.run(**lite, sql), gateway.run(**pg, sql)};
      const char* side_names[2] = {"SQLite gateway", "PostgreSQL gateway"};
      std::string cls[2], detail[2];
      if (!truth) ++tally.truth_errors;
      // The numeric column is REAL in the SQLite copy (copy_postgres_to_sqlite): no exact digits to expect there.
      const bool strict = sql.find("amount") == std::string::npos;
      for (int s = 0; s < 2; ++s) {
        const GatewayRun& run = runs[s];
        std::string problem;
        if (!truth) {
          if (run.refusal)
            cls[s] = run.refusal->fix.empty() ? "refused-without-fix" : "refused-with-fix";
          else if (run.engine_error)
            cls[s] = "fails-as-postgres";
          else {
            cls[s] = "ANSWERS-WHERE-POSTGRES-FAILS";
            problem =
                "PostgreSQL fails (" + one_line(truth.error().message) + ") but the " + side_names[s] + " answered";
          }
          detail[s] = run.refusal ? run.refusal->message : run.engine_error ? run.engine_error->message : "";
        } else {
          const auto v = judge_gateway_answer(run, *truth, sql, strict && s == 0);
          cls[s] = v.cls;
          detail[s] = v.detail;
          if (v.engine_error) {
            cls[s] = "FAILS-WHERE-POSTGRES-ANSWERS";
            problem = "PostgreSQL answers but the " + std::string(side_names[s]) + " fails at run time";
          } else if (v.different) {
            problem = "the " + std::string(side_names[s]) + " answers differently: " + one_line(v.detail);
          }
        }
        if (run.refusal && s == 0) ++tally.sqlite_refusals[reason_of(run.refusal->message)];
        (s == 0 ? tally.sqlite : tally.postgres)[cls[s]]++;
        if (!problem.empty()) {
          std::ostringstream v;
          v << "seed " << seed << " #" << n + 1 << ": " << problem << "\n    SQL: " << one_line(sql)
            << "\n    PostgreSQL directly: "
            << (truth ? rows_text(*truth) : "error: " + one_line(truth.error().message))
            << "\n    SQLite gateway: " << answer_text(runs[0]) << "\n    PostgreSQL gateway: " << answer_text(runs[1])
            << "\n";
          violations.push_back(v.str());
          std::cerr << v.str();
        }
      }
      if (!runs[0].refusal && !runs[0].engine_error && !runs[1].refusal && !runs[1].engine_error)
        ++tally.both_admitted_answered;
      tsv << seed << "\t" << n + 1 << "\t" << (truth ? "answers" : "fails") << "\t" << cls[0] << "\t" << cls[1] << "\t"
          << one_line(detail[0]).substr(0, 300) << "\t" << one_line(detail[1]).substr(0, 300) << "\t" << one_line(sql)
          << "\n";
      if (o.verbose) std::cerr << seed << " #" << n + 1 << " " << cls[0] << " / " << cls[1] << ": " << sql << "\n";
    }
  }
  try {  // leave the cluster as it was
    pqxx::connection admin(o.admin_conninfo + " dbname=postgres");
    pqxx::nontransaction(admin).exec(std::string("DROP DATABASE IF EXISTS ") + kDatabase + " WITH (FORCE)");
  } catch (const std::exception&) {
  }
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();

  std::ostringstream md;
  md << "# Differential property (issue #12, P5)\n\n"
     << tally.statements << " statements (seeds " << o.seed << ".." << o.seed + o.seeds - 1 << ", " << o.count
     << " each) in " << elapsed / 1000.0 << " s; " << tally.truth_errors << " fail on PostgreSQL directly; "
     << tally.both_admitted_answered
     << " answered by both gateways.\n\n| class | SQLite gateway | PostgreSQL gateway |\n"
     << "|---|---:|---:|\n";
  std::map<std::string, int> all = tally.sqlite;
  for (const auto& [k, v] : tally.postgres) all[k] += 0;
  for (const auto& [k, v] : all) md << "| " << k << " | " << tally.sqlite[k] << " | " << tally.postgres[k] << " |\n";
  std::vector<std::pair<int, std::string>> top;
  for (const auto& [reason, n] : tally.sqlite_refusals) top.emplace_back(n, reason);
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  md << "\n## Top refusals, SQLite gateway\n\n";
  for (std::size_t i = 0; i < top.size() && i < 20; ++i) md << "- " << top[i].first << " × " << top[i].second << "\n";
  md << "\n## Verdict\n\n"
     << (violations.empty() ? "PASS\n" : "FAIL: " + std::to_string(violations.size()) + " violations\n");
  for (const auto& v : violations) md << "\n```\n" << v << "```\n";
  std::cout << md.str().substr(0, md.str().find("\n## Verdict")) << "\n## Verdict\n\n"
            << (violations.empty() ? "PASS" : "FAIL: " + std::to_string(violations.size()) + " violations (above)")
            << "\n";
  if (!o.out.empty()) {
    fs::create_directories(o.out);
    std::ofstream(o.out / "differential.md") << md.str();
    std::ofstream(o.out / "differential.tsv") << tsv.str();
  }
  return violations.empty() ? 0 : 1;
}

}  // namespace fidelity
