#include "executors/executor_errors.hpp"

#include "admission/catalog/catalog.hpp"

namespace qg::exec {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

}  // namespace

Error deadline_error() {
  return make_error(ErrorCode::LimitDeadline, "the statement ran past its deadline",
                    "FIX: narrow the time range with WHERE on a time column, aggregate with GROUP BY, "
                    "or ask for fewer rows with LIMIT");
}

Error cancelled_error() {
  return make_error(ErrorCode::RequestCancelled, "the statement was cancelled: nobody is waiting for its answer",
                    "FIX: keep the connection open until the answer arrives");
}

std::string name_suggestion(const std::string& wanted, const std::vector<std::string>& existing) {
  const auto close = catalog::closest_names(wanted, existing);
  if (!close.empty()) return "; did you mean " + quoted_list(close) + "?";
  if (existing.empty()) return "; it has none";
  if (existing.size() <= 12) return "; it has " + quoted_list(existing);
  return "";
}

}  // namespace qg::exec
