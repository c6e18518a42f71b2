#pragma once
// One statement in one round trip (libpq pipeline mode on the pool's
// connection): BEGIN READ ONLY, the per-statement timeouts (set_config(...,
// is_local => true): what is left of the deadline), the statement's Parse when
// this connection has not prepared it yet (a server-side prepared statement:
// Bind/Execute only after), its Bind/Execute, ROLLBACK, any DEALLOCATE due,
// and Sync, sent together; then the answers read in order. The settings that
// never change are the connection's own, set once at connect (pg_executor.cpp).
// ROLLBACK undoes whatever the statement did to the session, as before. When
// the statement fails, the server skips the rest up to Sync: then one more
// round trip ends the failed transaction.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <libpq-fe.h>

#include <pqxx/except>

#include "executors/executor.hpp"
#include "executors/postgres/pg_pool.hpp"

namespace qg::exec::pg {

struct PGresultDeleter {
  void operator()(PGresult* r) const noexcept { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, PGresultDeleter>;

struct PipelineOutcome {
  ResultPtr rows;                        // the statement's answer (PGRES_TUPLES_OK), when it ran
  std::optional<pqxx::sql_error> error;  // the server refused it (SQLSTATE and terse message)
  std::string broken;                    // non-empty: the connection failed (then discard it)
  bool answered = false;                 // the server answered anything (else nothing ran)
  bool schema_moved = false;             // the prepared plan no longer fits (0A000): evicted, run again
  bool discard = false;                  // answer usable, but the connection's prepared state is unknown
};

// Runs `sql` (querygate's rendering) with `values` (text format, null for
// NULL) under `budget` on `slot`'s connection. `prepare`: as a named prepared
// statement of this connection (Parse once, Bind/Execute after); else unnamed.
PipelineOutcome run_pipelined(Slot& slot, const std::string& sql, const std::vector<const char*>& values,
                              std::chrono::milliseconds budget, bool prepare, RunStats* stats);

}  // namespace qg::exec::pg
