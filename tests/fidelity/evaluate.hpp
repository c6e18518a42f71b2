#pragma once
// One gold query, end to end: run it directly (the reference), through the
// gateway, and, when the gateway refuses with a mechanical FIX, again with the
// FIX applied. The outcome is one of a few classes the report counts.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "compare.hpp"
#include "dataset.hpp"
#include "direct_postgres.hpp"
#include "gateway_side.hpp"

namespace fidelity {

enum class Outcome {
  DbMissing,         // the dataset's DB file is not in the snapshot (PostgreSQL: cannot connect): not runnable
  NotRunnable,       // the gold SQL fails on its engine directly: excluded from denominators
  Identical,         // admitted as sent, same result
  Different,         // admitted as sent, different result: a gateway bug
  EngineError,       // admitted as sent, the gateway's executor failed
  FixedIdentical,    // refused, admitted after applying the FIX(es), same result
  FixedDifferent,    // refused, admitted after the FIX, different result
  FixedEngineError,  // refused, admitted after the FIX, executor failed
  NotFixable,        // refused, and no FIX this harness can apply gets it admitted
};

std::string_view outcome_name(Outcome o);
bool admitted_as_sent(Outcome o);
bool admitted_after_fix(Outcome o);

struct Record {
  std::string dataset;
  const GoldQuery* query = nullptr;
  Outcome outcome = Outcome::NotRunnable;
  std::string direct_error;                // NotRunnable / DbMissing: why
  std::optional<qg::Error> first_refusal;  // the refusal of the SQL as sent
  std::optional<qg::Error> final_refusal;  // NotFixable: the refusal that no FIX cleared
  std::vector<std::string> fixes;          // transformers applied, in order
  std::string sent_sql;                    // the SQL admitted (the gold SQL, or the fixed one)
  std::string rendered;                    // what the gateway printed for the engine
  std::vector<std::string> rewrites;       // the rewrites that fired
  std::optional<qg::Error> engine_error;
  bool ordered = false;                     // compared as an ordered list
  std::size_t rows_compared = 0;            // rows in the direct answer (admitted queries)
  NameMatch names = NameMatch::Exact;       // result column names, gateway vs direct
  std::string gateway_names, direct_names;  // when they differ: both, comma-joined
  std::string difference;                   // Different: the first thing that differs
  std::vector<std::string> gateway_rows;    // Different: first rows, formatted
  std::vector<std::string> direct_rows;
};

class Evaluator {
 public:
  Record evaluate(const std::string& dataset, const GoldQuery& query);

 private:
  // The reference answer: SQLite opened per query, PostgreSQL connections kept per DSN.
  qg::Result<qg::exec::Rows> direct(const GoldQuery& query, bool& db_missing);

  GatewaySide gateway_;
  std::map<std::string, std::unique_ptr<DirectPostgres>> direct_pg_;
};

}  // namespace fidelity
