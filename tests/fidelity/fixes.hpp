#pragma once
// Applies a refusal's FIX when the FIX names a mechanical spelling, exactly as
// the FIX text says, to the token the refusal's position points at. This is
// what a careful agent would do with the refusal; it measures whether the
// refusals are actionable. Refusals whose FIX needs judgement (which table,
// which function) are not fixed here: they are the gateway's improvement list.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace fidelity {

struct AppliedFix {
  std::string name;  // which transformer fired, e.g. "double-quoted-text"
  std::string sql;   // the SQL with the FIX applied
};

std::optional<AppliedFix> apply_fix(std::string_view sql, const qg::Error& refusal);

// Every transformer's name and the FIX it applies, for the report.
struct FixDescription {
  std::string_view name;
  std::string_view code;
  std::string_view applies;
};
std::vector<FixDescription> fix_descriptions();

}  // namespace fidelity
