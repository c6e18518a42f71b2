#include "admission/rewrite/limit.hpp"

namespace qg::rewrite {

LimitDecision inject_limit(ast::Query& q, std::int64_t row_cap) {
  LimitDecision d;
  d.row_cap = row_cap;
  d.caller_limit = q.limit;
  if (q.limit && *q.limit <= row_cap) {
    d.row_cap = *q.limit;
    return d;
  }
  d.injected = !q.limit.has_value();
  d.clamped = q.limit.has_value();
  d.detect_truncation = true;
  q.limit = row_cap + 1;
  return d;
}

}  // namespace qg::rewrite
