#pragma once
// One statement through admission: size cap → parse → convert → admit (with
// star expansion and dialect rewrites) → limit injection → re-check → render.
// The result is SQL printed from the checked tree; the caller's text never
// reaches an engine.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/catalog/catalog.hpp"
#include "admission/rewrite/limit.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg {

struct AdmittedStatement {
  std::string sql;             // rendered for the backend
  admit::Admission admission;  // output columns, rewrites that fired
  rewrite::LimitDecision limit;
  std::vector<std::string> rewrites;  // every rewrite that fired, admission's and the limit's
};

// `requested_limit` is the request's "limit" field (absent: limits.default_rows).
// `hidden`: the calling key's hidden columns (nullptr: none), see admit::admit.
Result<AdmittedStatement> admit_statement(std::string_view sql, const catalog::Catalog& catalog,
                                          const config::Limits& limits, std::optional<std::int64_t> requested_limit,
                                          const config::HiddenColumns* hidden = nullptr);

}  // namespace qg
