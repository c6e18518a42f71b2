#pragma once
// The differential property (issue #12, tests/fuzz/README.md P5): a statement
// admitted on both gateways gives the same answer on a small generated dataset
// loaded in both. From one seed: a dataset (a few tables with the values agents
// meet: negatives, NULLs, integers near 2^53 and 2^63, halves, UTF-8, LIKE
// wildcards, DST changes, leap days, dates before 1970, nested JSON) loaded
// into a fresh PostgreSQL database on the test cluster and copied into a SQLite
// file (copy_postgres_to_sqlite), and typed random statements. Each statement
// runs on PostgreSQL directly (the truth), through a SQLite gateway and through
// a PostgreSQL gateway (GatewaySide, as the parity run). It holds when every
// gateway answer equals the truth (parity's comparison), and a gateway that
// fails at run time does so only where PostgreSQL itself fails; a refusal is
// always allowed. Anything else prints the statement, the seed and the answers.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace fidelity {

// ---- the dataset

enum class DiffType { Int, Float, Numeric, Text, Bool, Timestamptz, Date, Json };

struct DiffColumn {
  std::string name;
  DiffType type;
  std::string pg_type;  // as created on PostgreSQL
};

struct DiffTable {
  std::string name;
  std::vector<DiffColumn> columns;  // the first is `id` (unique, NOT NULL), the second `k` (a small join key)
  std::vector<std::vector<std::string>> rows;  // SQL literals (NULL, 1, 'text', ...) per column
};

// Deterministic from `seed`: the same tables and rows on every machine.
std::vector<DiffTable> differential_dataset(std::uint64_t seed);

// The PostgreSQL script that creates and fills the tables (run as their owner).
std::string differential_dataset_sql(const std::vector<DiffTable>& tables);

// ---- the statements

// Deterministic from `seed` and the tables: `count` statements, each in
// PostgreSQL's grammar, each with a total outer ORDER BY (by output position)
// where it returns more than one row.
std::vector<std::string> differential_statements(const std::vector<DiffTable>& tables, std::uint64_t seed, int count);

// ---- the run

struct DifferentialOptions {
  std::uint64_t seed = 1;
  int count = 500;
  int seeds = 1;               // seeds seed, seed + 1, ...: a new dataset and new statements for each
  std::string conninfo;        // the test cluster as qg_reader (no dbname)
  std::string admin_conninfo;  // the test cluster as its superuser (creates the database)
  std::filesystem::path out;   // differential.md, differential.tsv
  bool verbose = false;
  bool fail_open = false;  // fail on the open findings too (differential.cpp, kOpenFindings)
};

// Returns the process exit status (0: the property held for every statement).
int run_differential(const DifferentialOptions& options);

}  // namespace fidelity
