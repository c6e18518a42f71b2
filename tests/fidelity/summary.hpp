#pragma once
// The figures of one dataset's run, computed once from the per-query records
// so the Markdown report, the JSON summary and the pass/fail verdict agree.
#include <map>
#include <string>
#include <vector>

#include "evaluate.hpp"

namespace fidelity {

struct Summary {
  std::string dataset;
  int total = 0;
  int db_missing = 0;
  int not_runnable = 0;
  int runnable = 0;
  int admitted = 0;   // as sent
  int identical = 0;  // admitted as sent, same result
  int refused = 0;
  int fixed_admitted = 0;  // refused, admitted after the FIX
  int fixed_identical = 0;
  int not_fixable = 0;
  int ordered = 0;        // admitted answers compared as ordered lists
  int empty_answers = 0;  // admitted answers with no rows (compared, but weak evidence)
  long long rows_compared = 0;
  std::vector<const Record*> names_case_only;                             // admitted; column names differ only in case
  std::vector<const Record*> names_different;                             // admitted; column names differ otherwise
  std::map<std::string, std::vector<const Record*>> refusals;             // first refusal code → records
  std::map<std::string, std::vector<const Record*>> not_fixable_by_code;  // blocking refusal code → records
  std::map<std::string, int> fixes_used;                                  // transformer → statements it helped fix
  std::vector<const Record*> differences;                                 // admitted (either way), result differs
  std::vector<const Record*> engine_errors;                               // admitted (either way), executor failed
  std::vector<const Record*> internal_errors;                             // internal:error anywhere on the gateway side

  double admitted_pct() const;
  double identical_pct_of_admitted() const;
  double fixable_pct_of_refused() const;
  double admitted_or_fixable_pct() const;
};

Summary summarise(const std::string& dataset, const std::vector<Record>& records);

}  // namespace fidelity
