#pragma once
// Result equality as a person checking the answer would judge it: same number
// of columns, same rows (in order only when the SQL orders them), values equal
// exactly except floats, which may differ in the last bits (relative 1e-9) and
// may equal an integer of the same value.
#include <string>

#include "executors/executor.hpp"

namespace fidelity {

struct Comparison {
  bool same = false;
  std::string why;  // when not the same: the first thing that differs
};

Comparison compare_rows(const qg::exec::Rows& gateway, const qg::exec::Rows& direct, bool ordered);

// An ordered answer judged as SQL defines its order: `keys` are the output
// columns the outermost ORDER BY sorts by (all of its items). The rows must come
// in the same sequence of key values; rows whose keys tie may come in any order
// (PostgreSQL itself promises none), and when the statement ends in a LIMIT the
// last group of tied rows may hold any of its candidates. Everything else is
// compare_rows' rule.
Comparison compare_rows_by_keys(const qg::exec::Rows& gateway, const qg::exec::Rows& direct,
                                const std::vector<std::size_t>& keys, bool limited);

// Result column names as the two sides report them. Not part of "identical"
// (the gold answers are judged by values), but shown to agents by the envelope.
enum class NameMatch { Exact, IgnoringCase, Different };
NameMatch compare_column_names(const qg::exec::Rows& gateway, const qg::exec::Rows& direct);

bool values_equal(const qg::exec::Value& a, const qg::exec::Value& b);

// One row as text ("1 | 'Paris' | NULL"), for reports.
std::string format_row(const std::vector<qg::exec::Value>& row);

}  // namespace fidelity
