#include "summary.hpp"

#include <set>

namespace fidelity {
namespace {

double pct(int part, int whole) {
  return whole == 0 ? 0.0 : 100.0 * part / whole;
}

bool is_internal(const std::optional<qg::Error>& e) {
  return e && e->code == qg::ErrorCode::Internal;
}

}  // namespace

double Summary::admitted_pct() const {
  return pct(admitted, runnable);
}
double Summary::identical_pct_of_admitted() const {
  return pct(identical + fixed_identical, admitted + fixed_admitted);
}
double Summary::fixable_pct_of_refused() const {
  return pct(fixed_admitted, refused);
}
double Summary::admitted_or_fixable_pct() const {
  return pct(admitted + fixed_admitted, runnable);
}

Summary summarise(const std::string& dataset, const std::vector<Record>& records) {
  Summary s;
  s.dataset = dataset;
  for (const auto& r : records) {
    ++s.total;
    if (r.outcome == Outcome::DbMissing) {
      ++s.db_missing;
      continue;
    }
    if (r.outcome == Outcome::NotRunnable) {
      ++s.not_runnable;
      continue;
    }
    ++s.runnable;
    if (admitted_as_sent(r.outcome)) ++s.admitted;
    if (r.outcome == Outcome::Identical) ++s.identical;
    if (r.first_refusal) {
      ++s.refused;
      s.refusals[std::string(qg::name(r.first_refusal->code))].push_back(&r);
    }
    if (admitted_after_fix(r.outcome)) {
      ++s.fixed_admitted;
      for (const auto& f : std::set<std::string>(r.fixes.begin(), r.fixes.end())) ++s.fixes_used[f];
    }
    if (r.outcome == Outcome::FixedIdentical) ++s.fixed_identical;
    if (r.outcome == Outcome::NotFixable) {
      ++s.not_fixable;
      s.not_fixable_by_code[std::string(qg::name(r.final_refusal->code))].push_back(&r);
    }
    if (r.outcome == Outcome::Identical || r.outcome == Outcome::FixedIdentical || r.outcome == Outcome::Different ||
        r.outcome == Outcome::FixedDifferent) {
      s.ordered += r.ordered ? 1 : 0;
      s.empty_answers += r.rows_compared == 0 ? 1 : 0;
      s.rows_compared += static_cast<long long>(r.rows_compared);
      if (r.names == NameMatch::IgnoringCase) s.names_case_only.push_back(&r);
      if (r.names == NameMatch::Different) s.names_different.push_back(&r);
    }
    if (r.outcome == Outcome::Different || r.outcome == Outcome::FixedDifferent) s.differences.push_back(&r);
    if (r.outcome == Outcome::EngineError || r.outcome == Outcome::FixedEngineError) s.engine_errors.push_back(&r);
    if (is_internal(r.first_refusal) || is_internal(r.final_refusal) || is_internal(r.engine_error))
      s.internal_errors.push_back(&r);
  }
  return s;
}

}  // namespace fidelity
