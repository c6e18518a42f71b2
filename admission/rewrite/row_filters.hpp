#pragma once
// Row filters (config: databases.<db>.tables.<table>.row_filter): a predicate
// over the table's own columns that every reference to the table in a
// statement goes through, as if the table were the view
// (SELECT * FROM table WHERE filter). Admission attaches the admitted predicate
// to each ast::TableRef naming the table (admit_query.cpp, the rewrite
// `row-filter:<table>`); the renderer prints that subquery with the table's
// own name or alias, so column references, stars, virtual columns, lineage and
// size bounds see the base table's columns and only the filtered rows.
//
// At start-up each filter is parsed with the same grammar, its `:name`
// parameters become ast::Param nodes named "bind:<name>" (bound from the
// calling key's `bind`, never from the caller), and it is admitted through the
// same walk as a statement's FROM item, in dependency order: a filter may read
// other tables, whose own filters then apply inside it; a cycle is refused.
#include <string>
#include <string_view>
#include <vector>

#include "admission/ast/ast.hpp"
#include "admission/catalog/catalog.hpp"
#include "common/result.hpp"
#include "config/config.hpp"

namespace qg::rewrite {

// The prefix of a parameter bound from the calling key's `bind`
// (AdmittedStatement::param_names): "bind:project_id". Configured parameter
// names cannot contain ':', so the two kinds never meet.
inline constexpr std::string_view kBindPrefix = "bind:";

// Attaches the database's row filters to `catalog` (after its virtual
// columns). Errors name the config key: a filter that does not parse, is not a
// condition, does not admit (unknown column, unknown table, refused construct),
// or forms a cycle of filters reading each other.
Status attach_row_filters(catalog::Catalog& catalog, const config::Database& database);

// Fail-closed check of a statement about to be printed: every reference to a
// filtered table (inside filters too) carries exactly that table's admitted
// filter. A violation is a gateway defect (ErrorCode::Internal, "ADMISSION DEFECT").
Status verify_row_filters(const ast::Query& query, const catalog::Catalog& catalog);

// A condition of the statement that can raise an error (a division, a cast of
// a stored value, a function call ...) could, if the engine ran it on a row
// before the row filter removed that row, tell the caller about the row by
// failing (one bit per request: enough to read any column of hidden rows).
// Both engines merge a filtered table's subquery into the statement and order
// its conditions by cost, so when any WHERE, JOIN ... ON or HAVING condition
// (at any level) is not made only of comparisons, AND/OR/NOT, IS [NOT] NULL,
// IN lists, BETWEEN, LIKE, CASE/COALESCE of such over columns, literals and
// parameters, every filtered reference is printed behind a fence (the engine
// then evaluates the filter first; correlated lookups into it lose their
// index, so such statements can be slower). Returns whether it fenced.
bool fence_row_filters(ast::Query& query);

// The tables whose row filter applies anywhere in the statement (inside other filters too), sorted.
std::vector<std::string> filtered_tables(const ast::Query& query);

}  // namespace qg::rewrite
