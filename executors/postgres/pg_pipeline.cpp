#include "executors/postgres/pg_pipeline.hpp"

#include <algorithm>

namespace qg::exec::pg {
namespace {

// The per-statement settings: what is left of the deadline, for the statement
// and for any lock it waits on. Local: they end with the transaction.
constexpr const char* kPerStatement =
    "SELECT pg_catalog.set_config('statement_timeout', $1, true), pg_catalog.set_config('lock_timeout', $1, true)";

// PostgreSQL: "cached plan must not change result type" (a table's columns changed under a prepared statement).
constexpr const char* kCachedPlanChanged = "0A000";
// PostgreSQL: "prepared statement ... does not exist".
constexpr const char* kNoSuchPrepared = "26000";

std::string error_text(PGconn* c) {
  const char* m = PQerrorMessage(c);
  return m != nullptr && *m != '\0' ? m : "the connection to PostgreSQL failed";
}

// pqxx::sql_error cannot be assigned: made in place.
void set_error(std::optional<pqxx::sql_error>& error, const PGresult* r, const std::string& sql) {
  error.emplace(PQresultErrorMessage(r), sql, PQresultErrorField(r, PG_DIAG_SQLSTATE));
}

bool is_state(const PGresult* r, const char* state) {
  const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  return s != nullptr && std::string_view(s) == state;
}

// The server ended the session (57P01 admin shutdown, 57P02 crash, 57P03
// cannot connect now; 08xxx connection exceptions): the connection is gone,
// whatever libpq says yet. A read-only statement may simply run again elsewhere.
bool connection_gone(const PGresult* r) {
  const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  if (s == nullptr) return false;
  const std::string_view state(s);
  return state.starts_with("57P") || state.starts_with("08");
}

}  // namespace

PipelineOutcome run_pipelined(Slot& slot, const std::string& sql, const std::vector<const char*>& values,
                              std::chrono::milliseconds budget, bool prepare, RunStats* stats) {
  PipelineOutcome out;
  PGconn* c = slot.conn ? slot.conn->raw() : nullptr;
  if (c == nullptr || PQstatus(c) != CONNECTION_OK || PQtransactionStatus(c) != PQTRANS_IDLE) {
    out.broken = "the connection to PostgreSQL is closed or not idle";
    return out;
  }
  if (PQenterPipelineMode(c) != 1) {
    out.broken = error_text(c);
    return out;
  }
  // What was sent, in order, so each answer is read against its command.
  enum class Sent { Begin, Settings, Parse, Execute, Rollback, Deallocate };
  std::vector<Sent> sent;
  bool ok = true;
  const auto send = [&](Sent what, const char* text, int n, const char* const* params) {
    ok = ok && PQsendQueryParams(c, text, n, nullptr, params, nullptr, nullptr, 0) == 1;
    sent.push_back(what);
  };
  // BEGIN READ ONLY ... ROLLBACK: whatever the statement did to the session is undone.
  send(Sent::Begin, "BEGIN READ ONLY", 0, nullptr);
  const std::string ms = std::to_string(std::max<long long>(1, budget.count()));
  const char* setting[] = {ms.c_str()};
  send(Sent::Settings, kPerStatement, 1, setting);
  const int n = static_cast<int>(values.size());
  const std::string* known = prepare ? slot.prepared.find(sql) : nullptr;
  const std::string name = known ? *known : (prepare ? slot.prepared.next_name() : std::string());
  if (prepare && !known) {
    ok = ok && PQsendPrepare(c, name.c_str(), sql.c_str(), n, nullptr) == 1;
    sent.push_back(Sent::Parse);
  }
  if (prepare) {
    ok = ok && PQsendQueryPrepared(c, name.c_str(), n, values.data(), nullptr, nullptr, 0) == 1;
    sent.push_back(Sent::Execute);
  } else {
    send(Sent::Execute, sql.c_str(), n, values.data());
  }
  send(Sent::Rollback, "ROLLBACK", 0, nullptr);
  // Prepared statements are the session's, not the transaction's: dropped after it.
  std::vector<std::string> deallocate = prepare ? slot.prepared.take_deallocations() : std::vector<std::string>{};
  std::vector<std::string> texts;
  for (const auto& d : deallocate) texts.push_back("DEALLOCATE " + d);  // names are querygate's own (qg_<n>)
  for (const auto& t : texts) send(Sent::Deallocate, t.c_str(), 0, nullptr);
  ok = ok && PQpipelineSync(c) == 1;  // also flushes: from here the server works while we wait
  if (!ok) {
    out.broken = error_text(c);
    return out;  // the caller discards the connection, pipeline and all
  }
  if (stats != nullptr) stats->round_trips += 1;

  std::size_t next_deallocation = 0;
  for (const Sent what : sent) {
    ResultPtr first;
    for (PGresult* r; (r = PQgetResult(c)) != nullptr;) {
      if (!first)
        first.reset(r);
      else
        PQclear(r);
    }
    if (!first) {
      out.broken = error_text(c);
      return out;
    }
    const ExecStatusType status = PQresultStatus(first.get());
    if (status == PGRES_FATAL_ERROR && (PQstatus(c) == CONNECTION_BAD || connection_gone(first.get()))) {
      out.broken = PQresultErrorMessage(first.get());
      return out;
    }
    out.answered = true;  // the server is there: what was sent may have run
    switch (what) {
      case Sent::Begin:
      case Sent::Settings:
      case Sent::Rollback:
        if (status == PGRES_FATAL_ERROR && !out.error) set_error(out.error, first.get(), sql);
        break;
      case Sent::Parse:
        if (status == PGRES_COMMAND_OK) {
          slot.prepared.add(sql);
          if (stats != nullptr) stats->prepared_parsed = true;
        } else if (status == PGRES_FATAL_ERROR && !out.error) {
          set_error(out.error, first.get(), sql);  // refused at parse analysis: nothing prepared
        }
        break;
      case Sent::Execute:
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
          out.rows = std::move(first);
          if (stats != nullptr && known != nullptr) stats->prepared_reused = true;
        } else if (status == PGRES_FATAL_ERROR && !out.error) {
          // The plan no longer fits the tables (the schema changed), or the
          // statement is gone: forget it and run again, prepared afresh.
          const bool moved = is_state(first.get(), kCachedPlanChanged);
          if (prepare && known != nullptr && (moved || is_state(first.get(), kNoSuchPrepared))) {
            slot.prepared.evict(sql, /*deallocate=*/moved);
            out.schema_moved = true;
            if (stats != nullptr) stats->prepared_evicted += 1;
          }
          set_error(out.error, first.get(), sql);
        }
        break;
      case Sent::Deallocate: {
        std::string& d = deallocate[next_deallocation++];
        if (status == PGRES_COMMAND_OK) {
          if (stats != nullptr) stats->prepared_evicted += 1;
        } else if (status == PGRES_PIPELINE_ABORTED) {
          slot.prepared.deallocate_later(std::move(d));  // skipped after an error: next time
        } else {
          out.discard = true;  // not dropped as recorded: what is prepared on it is no longer known
        }
        break;
      }
    }
  }
  // The Sync's own answer, then out of pipeline mode (possible only when all is read).
  ResultPtr sync(PQgetResult(c));
  if (!sync || PQresultStatus(sync.get()) != PGRES_PIPELINE_SYNC || PQexitPipelineMode(c) != 1) {
    out.broken = error_text(c);
    return out;
  }
  // An error skipped the ROLLBACK: the transaction is still open (failed). End it.
  if (PQtransactionStatus(c) != PQTRANS_IDLE) {
    if (stats != nullptr) stats->round_trips += 1;
    ResultPtr rollback(PQexec(c, "ROLLBACK"));
    if (!rollback || PQresultStatus(rollback.get()) != PGRES_COMMAND_OK || PQtransactionStatus(c) != PQTRANS_IDLE)
      out.broken = "the statement's transaction could not be rolled back";
  }
  return out;
}

}  // namespace qg::exec::pg
