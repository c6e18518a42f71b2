#pragma once
// The engine backstop that runs inside SQLite itself: an authorizer that lets a
// statement read only allowlisted tables and call only allowlisted functions, and
// a progress handler that stops the virtual machine at the deadline. Admission
// should never let anything through that this refuses; if it does, the refusal
// here is the last line, and it says in words what it refused.
#include <sqlite3.h>

#include <atomic>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "executors/executor.hpp"

namespace qg::exec::sqlite {

// What statements may touch. Immutable once built; shared by all connections.
struct Policy {
  std::set<std::string> tables;     // lower-case, as the engine spells them
  std::set<std::string> functions;  // lower-case
  // Columns hidden for everybody (config `hidden: true`) that no virtual column
  // reads: the authorizer makes them read as NULL (SQLITE_IGNORE; see decide()).
  // (table, column), lower-case. Columns a key hides, or a virtual column
  // reads, are left to admission.
  std::set<std::pair<std::string, std::string>> hidden_columns;

  bool allows_table(std::string_view name) const;
  bool allows_column(std::string_view table, std::string_view column) const;
  bool allows_function(std::string_view name) const;
};

// Per-connection state the callbacks read and write. Only the thread holding the
// connection (see Pool) touches it, so it needs no lock.
struct Backstop {
  const Policy* policy = nullptr;  // set once introspection is done
  Deadline deadline = Deadline::max();
  const std::atomic<bool>* cancelled = nullptr;  // RunOptions::cancelled, polled with the deadline
  bool deadline_hit = false;                     // the progress handler interrupted the statement
  bool cancel_hit = false;                       // ... because the request was cancelled
  // A first slice (RunOptions::slice_steps): progress-handler calls left
  // before the statement is interrupted; 0: no slice.
  long long slice_calls_left = 0;
  bool slice_hit = false;   // the progress handler interrupted the statement: the slice ran out
  bool saw_select = false;  // SQLITE_SELECT fired: the statement is a query (REINDEX, say, is not)
  std::string denial;       // the first thing the authorizer refused, in words ("reading table 'users'")
  // Names read without any column (count(*) FROM x) that are not allowlisted.
  // SQLite reports a materialized CTE this way too, indistinguishable from a
  // table, so these pass provisionally and confirm_reads() settles them.
  std::vector<std::string> unverified;

  // Clears what one statement left behind before the next one starts.
  void arm(Deadline d, const std::atomic<bool>* cancel = nullptr) noexcept {
    deadline = d;
    cancelled = cancel;
    deadline_hit = false;
    cancel_hit = false;
    slice_calls_left = 0;
    slice_hit = false;
    saw_select = false;
    denial.clear();
    unverified.clear();
  }
};

// VM instructions between deadline checks: often enough to stop within
// milliseconds, rare enough that reading the clock costs nothing measurable.
inline constexpr int kProgressInterval = 1000;

// The progress handler can go in at open time; with no deadline it never fires.
void install_progress_handler(sqlite3* db, Backstop& state);
// The authorizer goes in only after introspection, which needs PRAGMAs and
// sqlite_schema reads that no statement from an agent may make.
void install_authorizer(sqlite3* db, Backstop& state);

// After a prepare (and after stepping, since a schema change re-prepares inside
// sqlite3_step): false, with `denial` set, when a provisionally passed name is
// a real table or view rather than a CTE. Cannot run inside the authorizer,
// which may not use its own connection.
bool confirm_reads(sqlite3* db, Backstop& state);

}  // namespace qg::exec::sqlite
