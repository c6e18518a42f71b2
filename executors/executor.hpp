#pragma once
// The contract between the gateway and an engine. An executor only ever runs SQL
// that querygate printed from a checked tree; it adds the engine backstop
// (read-only connection, authorizer / plan gate, deadline) and reads rows.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"

namespace qg::exec {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

struct Blob {
  std::string bytes;
  bool operator==(const Blob&) const = default;
};

// A PostgreSQL numeric with a fraction: its digits exactly as PostgreSQL printed
// them (numeric is exact; a double would round them). Sent as a JSON number.
struct Decimal {
  std::string digits;
  bool operator==(const Decimal&) const = default;
};

struct Array;

// One cell. Integers stay exact; text stays as the engine returned it; a
// boolean (PostgreSQL's bool) stays a boolean rather than becoming 0/1; a
// PostgreSQL array (array_agg, regexp_match, an array column) is an Array of
// its elements, each in this same format (sent as a JSON array).
using Value = std::variant<std::monostate, std::int64_t, double, std::string, Blob, bool, Decimal, Array>;

// A one-dimensional PostgreSQL array (a multi-dimensional one: Arrays of Arrays). Its elements are
// cells: NULL is std::monostate.
struct Array {
  std::vector<Value> items;
  bool operator==(const Array&) const = default;
};

struct ColumnMeta {
  std::string name;
  std::string type;  // declared type when the engine knows it, else the first value's storage class
};

struct Rows {
  std::vector<ColumnMeta> columns;
  std::vector<std::vector<Value>> rows;
  // The planner's estimate of the rows the statement would return without the
  // injected limit (PostgreSQL), for the truncation notice. Absent: unknown.
  std::optional<double> estimated_rows;
  // What the executor says about how values were read (shown in `notes`).
  std::vector<std::string> notes;
};

// What running one statement cost, as the executor saw it (for /metrics).
struct RunStats {
  int round_trips = 0;           // PostgreSQL: waits for the server's answer (1 on the fast path)
  bool prepared_reused = false;  // PostgreSQL: ran a statement prepared on this connection before
  bool prepared_parsed = false;  // PostgreSQL: prepared it on this connection now (Parse)
  int prepared_evicted = 0;      // PostgreSQL: prepared statements this run dropped (bound, or the schema moved)
  // SQLite: virtual-machine steps the statement took (SQLITE_STMTSTATUS_VM_STEP), however it ended. 0: not counted.
  std::int64_t vm_steps = 0;
  // How a first slice (RunOptions::slice_steps) ended when it did not answer.
  enum class SliceEnd : std::uint8_t {
    None,       // it answered (rows or a refusal): nothing more to do
    Exhausted,  // the step budget ran out; whatever it read was discarded
    Busy,       // no idle connection, or the file was locked: it would have had to wait
  };
  SliceEnd slice_end = SliceEnd::None;
};

struct RunOptions {
  std::int64_t max_rows = 0;  // stop reading after this many rows (0 = no cap); the SQL already carries LIMIT n+1
  Deadline deadline = Deadline::max();
  // Set (by another thread) when nobody wants the answer any more: the client
  // disconnected, or shutdown's grace period ran out. Polled while the statement
  // runs; the statement then fails with ErrorCode::RequestCancelled. Null: never.
  const std::atomic<bool>* cancelled = nullptr;
  // The libpg_query fingerprint of the statement the caller sent (the api has
  // it for the log). It fixes the shape of the printed SQL for this database,
  // so PostgreSQL's plan gate caches its verdicts by it. Empty: computed here.
  std::string shape;
  // Admission's output columns of the statement, in order (names PostgreSQL gives them and the types it gives
  // their values: admit::OutputColumn). An engine that names and types its answer its own way (SQLite) answers
  // as PostgreSQL would (issue #12, one answer format): PostgreSQL's column names ("?column?", "lower", "case"
  // for SQLite's "1 + 1", "lower(name)", "CASE WHEN ..."), booleans for 0/1, timestamps as PostgreSQL prints
  // them, numerics as PostgreSQL prints the numeric (never rounded to float_digits), jsonb in its output form.
  // Null: none (the engine's own names and types). Must outlive the run.
  const std::vector<admit::OutputColumn>* columns = nullptr;
  // Values of the statement's parameters (AdmittedStatement::param_names, in
  // that order): params[n - 1] is bound to `$n` (PostgreSQL) / `?n` (SQLite).
  // Bound as data, never printed into the SQL. int64, double, text, bool or
  // null (std::monostate); a Blob, Decimal or Array is refused. PostgreSQL receives
  // each in text format with no declared type, so it infers the type from
  // where the parameter stands (project_id = $1 reads $1 as project_id's
  // type; make_interval(days => $1) as an integer); where nothing gives a
  // type (SELECT $1) it is text: configured SQL casts there (:x::int8).
  // SQLite binds the storage class of the value (bool as 0/1).
  std::vector<Value> params;
  // Filled when set (never read): what the run cost.
  RunStats* stats = nullptr;
  // > 0: a first slice, on a thread that must not wait (the gateway's I/O
  // thread, gateway/api/first_slice.hpp). The run never waits, neither for a
  // connection nor on a file lock, and is interrupted after about this many
  // virtual-machine steps. Either way it fails with stats->slice_end set, and
  // nothing it read is returned: the statement is read-only, so it can run
  // again from the start elsewhere. Only for an engine whose
  // runs_in_slices() is true (others do not count steps). 0: no slice.
  std::int64_t slice_steps = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // The allowlisted tables as the engine has them, overlaid with curation.
  virtual const catalog::Catalog& catalog() const = 0;
  // Prepares under the backstop without stepping: the column names, or the engine's refusal.
  // `params`: as RunOptions::params (PostgreSQL plans with them; SQLite only compiles).
  virtual Result<std::vector<ColumnMeta>> prepare(const std::string& sql, Deadline deadline,
                                                  const std::vector<Value>& params = {}) = 0;
  // Runs one statement (already rendered by querygate) and reads its rows.
  virtual Result<Rows> run(const std::string& sql, const RunOptions& options) = 0;
  // True when the database can be opened and answers.
  virtual Status ping() = 0;
  // True when run() honours RunOptions::slice_steps (SQLite: an in-process
  // engine whose statements can be stopped after a number of steps).
  virtual bool runs_in_slices() const { return false; }
  // Tables whose row filter binds a value from the calling key (config `bind`),
  // with the filter's conditions on the table's own columns, set once at
  // start-up: an engine that can see its plan (PostgreSQL's plan gate) refuses
  // a plan that reads such a table without them. Others ignore it.
  struct BoundRowFilter {
    std::string table;
    std::vector<std::string> columns;
    bool subquery = false;  // the filter has IN (SELECT ...)
  };
  virtual void set_bound_row_filters(const std::vector<BoundRowFilter>& filters) { (void)filters; }
};

}  // namespace qg::exec
