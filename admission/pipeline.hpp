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

// Where the SQL text comes from. Only configuration may write named
// parameters (`:name`, admission/params/params.hpp); the caller's SQL with a
// placeholder is refused (validation:placeholder).
enum class Origin : std::uint8_t { Caller, Configuration };

struct AdmitOptions {
  Origin origin = Origin::Caller;
  // Configuration only: the parameters the SQL may use (each `:name` must be
  // declared here; see admit::ParamSpec for lineage and size bounds).
  std::vector<admit::ParamSpec> params;
  // The calling key's hidden columns (nullptr: none), see admit::admit.
  const config::HiddenColumns* hidden = nullptr;
};

struct AdmittedStatement {
  std::string sql;  // rendered for the backend
  // What `applied.sql` shows the caller: `sql`, except that a filtered
  // table is printed as the caller named it, without its row filter (whose
  // text may name columns hidden from the caller, or values such as an
  // excluded project: the schema shows the filter's note instead).
  std::string shown_sql;
  // The names of the statement's parameters in `$` order: `$n` / `?n` is
  // param_names[n - 1]. Bind their values in this order
  // (exec::RunOptions::params). Empty for caller SQL.
  std::vector<std::string> param_names;
  admit::Admission admission;  // output columns, rewrites that fired
  rewrite::LimitDecision limit;
  std::vector<std::string> rewrites;  // every rewrite that fired, admission's and the limit's
};

// `requested_limit` is the request's "limit" field (absent: limits.default_rows).
Result<AdmittedStatement> admit_statement(std::string_view sql, const catalog::Catalog& catalog,
                                          const config::Limits& limits, std::optional<std::int64_t> requested_limit,
                                          const AdmitOptions& options = {});
// The same for caller SQL with a key's hidden columns.
inline Result<AdmittedStatement> admit_statement(std::string_view sql, const catalog::Catalog& catalog,
                                                 const config::Limits& limits,
                                                 std::optional<std::int64_t> requested_limit,
                                                 const config::HiddenColumns* hidden) {
  AdmitOptions options;
  options.hidden = hidden;
  return admit_statement(sql, catalog, limits, requested_limit, options);
}

// Numbers the tree's parameters 1, 2, ... by first appearance (one name, one
// number) and returns the names in that order.
std::vector<std::string> number_params(ast::Query& query);

}  // namespace qg
