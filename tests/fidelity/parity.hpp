#pragma once
// The parity run (issue #12): one SQL on every backend. Each statement runs on
// PostgreSQL directly (the truth), through a SQLite gateway and through a
// PostgreSQL gateway (querygate's own admission and executors, in process, as
// GatewaySide runs them). Each gateway answer is classified identical,
// refused (with or without a FIX), engine error or DIFFERENT, by the one
// comparison rule of compare.hpp. Any "different" fails the run.
//
// Corpora (tests/parity/*.sql, the format of tests/parity/chinook.sql): an
// entry starts with "-- id: <id>", "-- key: value" metadata lines follow, then
// the SQL up to the first line ending in ";". Keys read here:
//   database: the database it runs on (demo, chinook, defog_<name>); a
//             "-- database:" line before the first entry sets the file's
//             default; without one the file's stem names it;
//   parity_skip: the SQLite file and the PostgreSQL database hold different
//             data for this statement: there is no truth to judge by (counted, listed);
//   truth:    (SQLite spellings) the PostgreSQL spelling of the same question,
//             on one line, run directly on PostgreSQL as the truth; without it
//             the statement itself is the truth.
// defog's 487 gold statements join as corpus "defog", each on a SQLite copy of
// its database made at run time (copy_postgres_to_sqlite).
#include <filesystem>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "executors/executor.hpp"

namespace fidelity {

struct ParityEntry {
  std::string corpus;  // file stem, or "defog"
  std::string id;
  int line = 0;
  std::string database;
  std::string sql;    // sent to both gateways
  std::string truth;  // run on PostgreSQL directly
  std::string skip;   // parity_skip: why it is not judged
};

qg::Result<std::vector<ParityEntry>> load_parity_file(const std::filesystem::path& file);

// Copies every table the role reads from PostgreSQL into a new SQLite file:
// integers as INTEGER, numeric and floats as REAL (compared within 1e-9, the
// rule of compare.hpp), booleans as BOOLEAN 0/1, dates as DATE text
// (YYYY-MM-DD), timestamps as TIMESTAMP/TIMESTAMPTZ ISO-8601 text exactly as
// the gateway prints PostgreSQL's (2024-01-02T03:04:05Z), so the SQLite
// catalog knows them as timestamp columns; anything else as text. A float4
// (`real`) is stored as the float4's own value, the one PostgreSQL computes
// with; `float4_data` (optional) is set when the database has such a column.
qg::Status copy_postgres_to_sqlite(const std::string& dsn, const std::filesystem::path& file,
                                   bool* float4_data = nullptr);

struct ParityOptions {
  std::vector<std::filesystem::path> files;  // tests/parity/*.sql
  std::filesystem::path shared_data;         // ../shared/data (chinook/, defog/)
  bool defog = true;                         // add defog's gold statements
  std::filesystem::path config_dir;          // config/ (demo.yaml, demo-postgres.yaml)
  std::string conninfo;                      // the PostgreSQL test cluster as qg_reader
  std::filesystem::path out;                 // parity.md, parity.tsv
};

struct GatewayRun;

// The parity run's verdict on one gateway answer against PostgreSQL's rows
// (refused, engine error, or compared by compare.hpp's rules as far as the
// statement's top-level ORDER BY goes), for runs that reuse it (the
// differential property, differential.hpp). `numeric_strict`: a column
// PostgreSQL answers as numeric and the gateway as a double (or the other way
// round) differs, as the agent would read other digits.
struct GatewayVerdict {
  std::string cls;  // identical, refused-with-fix, refused-without-fix, engine-error, same-rows-order-open, DIFFERENT
  bool refused = false;
  bool engine_error = false;
  bool different = false;  // DIFFERENT or same-rows-order-open: not the truth's answer
  std::string detail;
};
GatewayVerdict judge_gateway_answer(const GatewayRun& run, const qg::exec::Rows& truth, const std::string& truth_sql,
                                    bool numeric_strict);

// Runs everything; returns the process exit status (0: no different answer).
int run_parity(const ParityOptions& options);

}  // namespace fidelity
