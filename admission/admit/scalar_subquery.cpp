// A scalar subquery on SQLite (issue #12). PostgreSQL fails a scalar subquery
// that returns more than one row ("more than one row returned by a subquery
// used as an expression"); SQLite answers its first row, a silent wrong answer.
// So on SQLite one that may give more than one row is read through pg_single
// (executors/sqlite/sqlite_functions.cpp), an aggregate that gives NULL for no
// row, the value of one row, and PostgreSQL's error on a second:
//
//   (SELECT x FROM t WHERE ...)
//   → (SELECT pg_single(scalar_subquery.x) FROM (SELECT x FROM t WHERE ...) AS scalar_subquery)
//
// The subquery keeps its text, row filters and correlation (a subquery in FROM
// sees the enclosing query, as the scalar subquery did); its output's lineage,
// type and size bound pass through pg_single. The rewritten form is an
// aggregate without GROUP BY, one of the shapes left as written, so admitting
// the printed statement again changes nothing (the rendering is a fixed point).
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

namespace qg::admit::detail {
namespace {

constexpr std::string_view kAlias = "scalar_subquery";

// An aggregate of this query level (one in a nested subquery counts there).
bool own_aggregate(const ast::Expr& e) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && is_aggregate_call(*f)) return true;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || own_aggregate(child); });
  return found;
}

bool calls_series(const ast::Expr& e) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && f->name == "generate_series") return true;
  if (std::holds_alternative<ast::SubLink>(e.node)) return false;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || calls_series(child); });
  return found;
}

// Shapes that give at most one row: LIMIT 0 or 1; one VALUES row; a SELECT
// without FROM (querygate admits no set-returning function in a select list);
// an aggregate (or HAVING) without GROUP BY; none with a generate_series in its select list. Everything else
// may give more.
bool at_most_one_row(const ast::Query& q) {
  if (q.limit && *q.limit <= 1) return true;
  if (const auto* v = std::get_if<ast::Values>(&q.body)) return v->rows.size() <= 1;
  const auto* s = std::get_if<ast::Select>(&q.body);
  if (!s || !s->group_by.empty()) return false;
  // A generate_series calendar in the select list (series_on_sqlite.cpp) makes many rows of one.
  for (const auto& item : s->items)
    if (calls_series(item.expr)) return false;
  if (s->from.empty() || s->having) return true;
  for (const auto& item : s->items)
    if (own_aggregate(item.expr)) return true;
  return false;
}

// The name the subquery's one output column gets (as select() and name_outputs give it): its alias, else
// the name PostgreSQL figures for what was written (the first member's, for a set operation). Empty for a
// star, whose columns are known only once admitted.
std::string output_name(const ast::Query& q) {
  const ast::Query* first = &q;
  while (const auto* set = std::get_if<ast::SetOp>(&first->body)) first = &*set->left;
  if (std::holds_alternative<ast::Values>(first->body)) return "column1";
  const auto& s = std::get<ast::Select>(first->body);
  if (s.items.empty()) return {};
  const auto& item = s.items.front();
  if (!item.alias.empty()) return item.alias;
  if (const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node); ref && ref->star) return {};
  return figure_name(item.expr);
}

std::size_t output_width(const ast::Query& q) {
  const ast::Query* first = &q;
  while (const auto* set = std::get_if<ast::SetOp>(&first->body)) first = &*set->left;
  if (const auto* v = std::get_if<ast::Values>(&first->body)) return v->rows.empty() ? 0 : v->rows.front().size();
  return std::get<ast::Select>(first->body).items.size();
}

}  // namespace

// Before the subquery is admitted, so that it is admitted once, inside the wrapper (admitting it first and
// then again inside the wrapper would double the work at every level of nesting).
Status Admitter::scalar_subquery_on_sqlite(ast::SubLink& link, int location) {
  if (dialect_ != Dialect::Sqlite || link.kind != ast::SubLinkKind::Scalar || link.test) return {};
  // More than one column is PostgreSQL's error either way (and SQLite's).
  if (output_width(*link.query) != 1 || at_most_one_row(*link.query)) return {};
  const std::string name = output_name(*link.query);
  if (name.empty())
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a scalar subquery that selects * may return more than one row: PostgreSQL fails then, and "
                      "querygate checks it on SQLite through the subquery's named column",
                      "FIX: name the one column it returns, e.g. (SELECT name FROM projects WHERE id = 1).",
                      pos(location));
  ast::FuncCall single;
  single.name = "pg_single";
  single.args.push_back(ast::make_expr(ast::ColumnRef{std::string(kAlias), name}));
  ast::Select wrapper;
  wrapper.items.push_back(ast::SelectItem{ast::make_expr(std::move(single)), ""});
  wrapper.from.push_back(
      ast::FromItem{ast::DerivedTable{std::move(link.query), ast::Alias{std::string(kAlias), {}}, false}});
  ast::Query q;
  q.body = std::move(wrapper);
  link.query = std::move(q);
  note_rewrite("dialect:scalar-subquery");
  return {};
}

}  // namespace qg::admit::detail
