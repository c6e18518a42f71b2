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

// One database per run (qg_differential_<pid>): two runs on one cluster must not drop each other's.
const std::string kDatabase = "qg_differential_" + std::to_string(::getpid());

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

// A fresh database `kDatabase` (dropped first if a killed run left it) owned by qg_owner holding the dataset, readable
// by qg_reader (as scripts/pg-test-cluster.sh makes its databases).
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

// Findings of the differential property not fixed yet (issue #12; each listed in docs/FIDELITY.md,
// "The differential property"). A violation that matches one is counted and printed under its id, not
// failed, so the ctest guards against NEW kinds of wrong answers while these wait for their owners;
// `--open fail` fails on them too. Each matcher is as narrow as the evidence allows.
struct OpenFinding {
  const char* id;
  const char* what;
  // kind: "answers" (a gateway answered, PostgreSQL failed with `pg_error`), "fails" (a gateway failed at
  // run time with `gateway_error`, PostgreSQL answered), "different" (`detail` from the comparison).
  bool (*match)(const std::string& kind, const std::string& pg_error, const std::string& gateway_error,
                const std::string& detail, const std::string& sql);
};

bool has(const std::string& s, const char* what) {
  return s.find(what) != std::string::npos;
}

const OpenFinding kOpenFindings[] = {
    {"open-1-analysis",
     "PostgreSQL refuses the statement while analysing it (no such operator or function for "
     "types admission cannot tell: a SQLite TEXT column that is not curated, date(x), json_array_length(jsonb) "
     "(SQLite's own function there); CASE/COALESCE/UNION branches of such types; an aggregate of outer columns "
     "in a subquery, a column missing from GROUP BY), the SQLite gateway answers. Fixed in session 8 (each "
     "fails this run if it comes back): substr/substring/left... with a bigint (PostgreSQL's argument "
     "signatures, admission/capability/signatures.hpp), date +/- bigint, casts from boolean to a number",
     [](const std::string& kind, const std::string& e, const std::string&, const std::string&, const std::string&) {
       if (has(e, "function substr(") || has(e, "function substring(") || has(e, "date + bigint") ||
           has(e, "date - bigint") || has(e, "cannot cast type boolean to"))
         return false;
       return kind == "answers" &&
              (has(e, "does not exist") || has(e, "cannot be matched") || has(e, "is not unique") ||
               has(e, "cannot cast type") || has(e, "could not determine polymorphic type") ||
               has(e, "must appear in the GROUP BY clause") || has(e, "ungrouped column") || has(e, "argument of") ||
               has(e, "is not allowed") || has(e, "cannot be nested"));
     }},
    // (Division by zero is fixed: x / y and x % y run as pg_div / pg_mod on SQLite, s8-runtime; a division by
    // zero answered again is a new finding.)
    {"open-2-runtime-errors",
     "PostgreSQL raises a run-time error on a computed value (float overflow/underflow, smallint "
     "range, log of zero or a constant it folds while planning, text that is not a number, more than "
     "one row from a scalar subquery), the SQLite gateway answers (Inf, 0, a row)",
     [](const std::string& kind, const std::string& e, const std::string&, const std::string&, const std::string&) {
       return kind == "answers" &&
              (has(e, "out of range") || has(e, "cannot take logarithm") || has(e, "invalid input syntax") ||
               has(e, "more than one row returned") || has(e, "cannot take square root") ||
               has(e, "non-integer power") || has(e, "is out of range") || has(e, "raised to a negative power"));
     }},
    {"open-3-evaluation-order",
     "the SQLite gateway raises PostgreSQL's error for a value PostgreSQL never "
     "computes (it skips the rest of AND/OR, CASE branches and BETWEEN bounds once the "
     "answer is known): an error where PostgreSQL answers, never a different answer",
     [](const std::string& kind, const std::string&, const std::string& g, const std::string&, const std::string&) {
       return kind == "fails" && (has(g, "querygate: invalid input syntax") || has(g, "non-integer power") ||
                                  has(g, "out of range") || has(g, "overflow") || has(g, "division by zero"));
     }},
    {"open-4-numeric-digits",
     "a column PostgreSQL answers as numeric (avg of integers, numeric arithmetic) comes "
     "back from the SQLite gateway as a double (or the other way round): equal within "
     "1e-9, printed with other digits",
     [](const std::string& kind, const std::string&, const std::string&, const std::string& d, const std::string&) {
       return kind == "different" && (has(d, "PostgreSQL answers numeric, the gateway a double") ||
                                      has(d, "PostgreSQL answers double precision, the gateway a numeric"));
     }},
    {"open-6-text-of-numbers-and-booleans",
     "a number whose type admission does not infer written into text (|| or a cast): "
     "PostgreSQL writes its type's text (3.1622776601683795, 2.50), the SQLite gateway the double's "
     "(3.16227766016838, 2.5). Booleans, float8 and numerics of a known scale are written as "
     "PostgreSQL writes them since s8 (admit/text_of_values.cpp)",
     [](const std::string& kind, const std::string&, const std::string&, const std::string&, const std::string& sql) {
       return kind == "different" && !has(sql, "amount") &&
              (has(sql, "||") || has(sql, "::text") || has(sql, "AS text"));
     }},
    // open-7 (round(x, -1) on SQLite) is fixed: pg_round / pg_trunc cut before the point (s8-runtime).
    {"open-8-avg-of-big-integers",
     "avg() of integers beyond 2^53: PostgreSQL's numeric is exact, the SQLite "
     "gateway's double is not (avg(9007199254740993)); since s9 a numeric output past 2^53 fails on SQLite "
     "(\"has no exact SQLite value\", with a FIX): an error, never other digits",
     [](const std::string& kind, const std::string&, const std::string& g, const std::string& d, const std::string&) {
       return (kind == "different" && (has(d, "900719925474099") || has(d, "e+18") || has(d, "e+19"))) ||
              (kind == "fails" && has(g, "has no exact SQLite value"));
     }},
    // open-9 (UNION of a date and a timestamptz) and open-12 (a date subquery minus an integer) are fixed: branch
    // types and signatures at admission (s8-types).
    // open-13 (->> of a JSON number beyond 2^63) and open-15 (nested JSON as text) are fixed: pg_jsonb_text
    // (s8-values); open-14 (x % a computed fraction) is fixed: % runs as pg_mod, exact on fractions (s8-runtime).
    {"harness-numeric-copy",
     "not a gateway defect: the SQLite copy holds numeric(12,3) as REAL "
     "(copy_postgres_to_sqlite), so amount written as text loses its scale (-0.500 / -0.5)",
     [](const std::string& kind, const std::string&, const std::string&, const std::string&, const std::string& sql) {
       return kind == "different" && has(sql, "amount") &&
              (has(sql, "::text") || has(sql, "AS text") || has(sql, "||"));
     }},
};

const OpenFinding* open_finding(const std::string& kind, const std::string& pg_error, const std::string& gateway_error,
                                const std::string& detail, const std::string& sql) {
  for (const auto& f : kOpenFindings)
    if (f.match(kind, pg_error, gateway_error, detail, sql)) return &f;
  return nullptr;
}

struct Tally {
  int statements = 0, truth_errors = 0;
  std::map<std::string, int> sqlite, postgres;  // class → count
  int both_admitted_answered = 0;               // answered by both gateways (and so compared)
  std::map<std::string, int> sqlite_refusals;   // reason → count
  std::map<std::string, int> open;              // open finding id → violations it matched
  std::map<std::string, std::vector<std::string>> open_examples;
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
        std::string problem, kind, gateway_error;
        if (!truth) {
          if (run.refusal)
            cls[s] = run.refusal->fix.empty() ? "refused-without-fix" : "refused-with-fix";
          else if (run.engine_error)
            cls[s] = "fails-as-postgres";
          else {
            cls[s] = "ANSWERS-WHERE-POSTGRES-FAILS";
            kind = "answers";
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
            kind = "fails";
            gateway_error = run.engine_error->message;
            problem = "PostgreSQL answers but the " + std::string(side_names[s]) + " fails at run time";
          } else if (v.different) {
            kind = "different";
            problem = "the " + std::string(side_names[s]) + " answers differently: " + one_line(v.detail);
          }
        }
        if (run.refusal && s == 0) ++tally.sqlite_refusals[reason_of(run.refusal->message)];
        (s == 0 ? tally.sqlite : tally.postgres)[cls[s]]++;
        const OpenFinding* open = problem.empty() ? nullptr
                                                  : open_finding(kind, truth ? std::string() : truth.error().message,
                                                                 gateway_error, detail[s], sql);
        if (open) {
          cls[s] = open->id;
          ++tally.open[open->id];
          if (tally.open_examples[open->id].size() < 3)
            tally.open_examples[open->id].push_back("seed " + std::to_string(seed) + " #" + std::to_string(n + 1) +
                                                    ": " + one_line(sql));
          if (!o.fail_open) problem.clear();
        }
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
  md << "\n## Open findings (known, not failed; docs/FIDELITY.md)\n\n";
  for (const auto& f : kOpenFindings) {
    md << "- " << f.id << ": " << tally.open[f.id] << " × " << f.what << "\n";
    for (const auto& e : tally.open_examples[f.id]) md << "  - " << e.substr(0, 300) << "\n";
  }
  md << "\n## Verdict\n\n"
     << (violations.empty() ? "PASS\n" : "FAIL: " + std::to_string(violations.size()) + " violations\n");
  for (const auto& v : violations) md << "\n```\n" << v << "```\n";
  std::cout << md.str().substr(0, md.str().find("\n## Open findings")) << "\n## Verdict\n\n"
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
