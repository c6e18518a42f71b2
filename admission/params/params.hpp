#pragma once
// Named parameters in configured SQL (row filters, curated tools, write tools).
//
// Configured SQL writes `:name` where a value goes; the value is never spliced
// into the text. The one mechanism, for every feature that takes configured SQL:
//
//   1. to_positional(text) turns each `:name` into `$n` (PostgreSQL's own
//      placeholder, which libpg_query parses) and returns the names in `$`
//      order. It reads the text with libpg_query's scanner, so a `::` cast, a
//      string literal (':x'), a quoted identifier ("a:b"), a comment and a
//      dollar-quoted string ($$:x$$) are never touched. The same name twice is
//      the same `$n`.
//   2. admit_statement(..., AdmitOptions{.origin = Origin::Configuration,
//      .params = {...}}) (admission/pipeline.hpp) parses the result; each `$n`
//      becomes an ast::Param node carrying its name. Only SQL whose origin is
//      configuration may hold parameters: caller SQL with `$1` or `:x` stays
//      refused (validation:placeholder) with a FIX.
//   3. AdmittedStatement::param_names lists the names in `$` order of the
//      printed SQL (`$n` on PostgreSQL, `?n` on SQLite; row filters a statement
//      reads add theirs). The caller resolves each name to a value and passes
//      them, in that order, as exec::RunOptions::params (int64, double, text,
//      bool or null), bound by index: data, never SQL.
//
// Each parameter is declared with a ParamSpec (admission/admit/admit.hpp):
// whether its value is untrusted (lineage: the value is end-user text, e.g. a
// write tool's `untrusted: true` argument; otherwise it is trusted like a
// literal the operator wrote) and the longest value it may take in bytes (size
// bounds count it as a literal of that length).
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace qg::params {

struct PositionalSql {
  std::string text;                // `:name` replaced by `$n`
  std::vector<std::string> names;  // names[n - 1] is the name of `$n`; each name once
};

// A name is an unquoted identifier written right after the colon: a letter or
// `_`, then letters, digits, `_` (case kept: `:projectId` is "projectId").
// Refused: `$n` placeholders (configured SQL names its parameters), and text
// the scanner cannot read (an unterminated string or comment).
Result<PositionalSql> to_positional(std::string_view sql);

// True for a name to_positional can produce (config keys that name parameters are checked with it).
bool valid_name(std::string_view name);

}  // namespace qg::params
