#include "executors/sqlite/sqlite_backstop.hpp"

#include <cctype>
#include <string>

namespace qg::exec::sqlite {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view or_empty(const char* s) {
  return s ? std::string_view(s) : std::string_view();
}

// Words for a refused action, for the error the caller sees. Only the actions a
// rendered SELECT could conceivably trigger get their own wording.
std::string describe(int action, std::string_view a1, std::string_view a2) {
  const auto quoted = [](std::string_view s) { return "'" + std::string(s) + "'"; };
  switch (action) {
    case SQLITE_READ:
      return "reading table " + quoted(a1);
    case SQLITE_FUNCTION:
      return "calling function " + quoted(a2);
    case SQLITE_RECURSIVE:
      return "a recursive common table expression (WITH RECURSIVE)";
    case SQLITE_PRAGMA:
      return "PRAGMA " + std::string(a1);
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
      return "writing to table " + quoted(a1);
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return "attaching or detaching a database";
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
      return "transaction control";
    case SQLITE_ANALYZE:
      return "ANALYZE";
    case SQLITE_REINDEX:
      return "REINDEX";
    default:
      return "changing the schema or connection (authorizer action " + std::to_string(action) + ")";
  }
}

bool internal_name(std::string_view name) {
  return lower(name.substr(0, 7)) == "sqlite_";
}

// Action codes: https://sqlite.org/c3ref/c_alter_table.html. For SQLITE_READ,
// a1 = table, a2 = column, a3 = database. The fourth argument (innermost view
// or trigger) is ignored on purpose: SQLite reports a CTE's name there too, so
// a CTE named like an allowlisted table would otherwise launder reads of any
// other table.
int decide(Backstop& state, int action, std::string_view a1, std::string_view a2, std::string_view a3) {
  const Policy& policy = *state.policy;
  switch (action) {
    case SQLITE_SELECT:
      state.saw_select = true;
      return SQLITE_OK;
    case SQLITE_READ:
      // Columns are read from "main" only (temp is where nothing of ours lives).
      // (A count-only read passes the schema as written, so "MAIN" happens.)
      if (!a3.empty() && lower(a3) != "main") return SQLITE_DENY;
      // A hidden column reads as NULL: SQLite itself reads every column of a table
      // in a parenthesised join it flattens (a DENY would refuse statements that
      // never name it), and admission refuses every statement that does; so its
      // value never leaves the engine.
      if (policy.allows_table(a1)) return policy.allows_column(a1, a2) ? SQLITE_OK : SQLITE_IGNORE;
      // pg_series, querygate's generate_series (sqlite_series.cpp): it reads no table, only its arguments.
      if (lower(a1) == "pg_series" && policy.allows_function("pg_series")) return SQLITE_OK;
      // json_each, the jsonb row sources' engine (sqlite_json_rows.cpp): it reads only its argument.
      // Not json_tree, not pragma_* (their schema was never declared, so they cannot be built either).
      // (Also a count-only read, a2 = "": never left to confirm_reads, which does not see virtual tables.)
      if (lower(a1) == "json_each") return policy.allows_function("pg_json_rows") ? SQLITE_OK : SQLITE_DENY;
      // A FROM item none of whose columns is used: a1 = its name, a2 = "",
      // a3 = the schema written (null when unqualified). A table or a
      // materialized CTE; confirm_reads() tells them apart after the prepare.
      if (a2.empty() && a3.empty() && !internal_name(a1)) {
        state.unverified.emplace_back(a1);
        return SQLITE_OK;
      }
      return SQLITE_DENY;
    case SQLITE_FUNCTION:
      return policy.allows_function(a2) ? SQLITE_OK : SQLITE_DENY;
    default:
      // PRAGMA, ATTACH, writes, DDL, transactions, ANALYZE, WITH RECURSIVE, ...
      return SQLITE_DENY;
  }
}

int authorize(void* user, int action, const char* a1, const char* a2, const char* a3, const char* /*view*/) noexcept {
  auto* state = static_cast<Backstop*>(user);
  if (state->policy == nullptr) return SQLITE_DENY;  // never installed before the policy exists
  // Nothing may unwind through SQLite's C frames; an allocation failure here denies.
  try {
    const int verdict = decide(*state, action, or_empty(a1), or_empty(a2), or_empty(a3));
    // Only a DENY refuses the statement; an IGNORE (a hidden column SQLite reads while flattening a join or a
    // row filter's subquery) reads as NULL and must not be blamed for an engine error that follows.
    if (verdict == SQLITE_DENY && state->denial.empty()) state->denial = describe(action, or_empty(a1), or_empty(a2));
    return verdict;
  } catch (...) {
    return SQLITE_DENY;
  }
}

int on_progress(void* user) noexcept {
  auto* state = static_cast<Backstop*>(user);
  if (state->cancelled != nullptr && state->cancelled->load(std::memory_order_relaxed)) {
    state->cancel_hit = true;
    return 1;
  }
  if (state->deadline != Deadline::max() && Clock::now() >= state->deadline) {
    state->deadline_hit = true;
    return 1;  // non-zero interrupts the statement with SQLITE_INTERRUPT
  }
  // A first slice: after its budget of steps the statement stops (and runs again elsewhere).
  if (state->slice_calls_left > 0 && --state->slice_calls_left == 0) {
    state->slice_hit = true;
    return 1;
  }
  return 0;
}

}  // namespace

bool Policy::allows_table(std::string_view name) const {
  return tables.contains(lower(name));
}
bool Policy::allows_column(std::string_view table, std::string_view column) const {
  return hidden_columns.empty() || !hidden_columns.contains({lower(table), lower(column)});
}
bool Policy::allows_function(std::string_view name) const {
  return functions.contains(lower(name));
}

void install_progress_handler(sqlite3* db, Backstop& state) {
  sqlite3_progress_handler(db, kProgressInterval, on_progress, &state);
}

void install_authorizer(sqlite3* db, Backstop& state) {
  sqlite3_set_authorizer(db, authorize, &state);
}

bool confirm_reads(sqlite3* db, Backstop& state) {
  for (const auto& name : state.unverified) {
    // With a null column this only asks whether a table or view of that name
    // exists (in main or temp); a CTE is not in the schema, so it does not.
    if (sqlite3_table_column_metadata(db, nullptr, name.c_str(), nullptr, nullptr, nullptr, nullptr, nullptr,
                                      nullptr) == SQLITE_OK) {
      if (state.denial.empty()) state.denial = describe(SQLITE_READ, name, "");
      return false;
    }
  }
  return true;
}

}  // namespace qg::exec::sqlite
