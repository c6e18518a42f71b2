#pragma once
// Limit injection: the outermost query never returns more than the row cap.
// LIMIT is a typed field of the tree that is clamped, never text appended to SQL.
#include <cstdint>
#include <optional>

#include "admission/ast/ast.hpp"

namespace qg::rewrite {

struct LimitDecision {
  std::int64_t row_cap = 0;        // rows the caller can get back
  bool detect_truncation = false;  // the query asks for row_cap + 1 rows; a last extra row means "more existed"
  bool injected = false;           // the caller wrote no LIMIT
  bool clamped = false;            // the caller's LIMIT was larger than the cap
  std::optional<std::int64_t> caller_limit;
};

// `row_cap` is already the request's limit clamped to limits.max_rows. A
// caller LIMIT at or under the cap is kept as written (no truncation is
// possible then); otherwise LIMIT becomes row_cap + 1.
LimitDecision inject_limit(ast::Query& query, std::int64_t row_cap);

}  // namespace qg::rewrite
