// SELECT DISTINCT ON (...) on SQLite (issue #12), which has no such clause.
// PostgreSQL keeps the first row of each group of equal DISTINCT ON values, in
// the statement's ORDER BY, after window functions, then sorts and limits.
// Translated into the window function SQLite has:
//
//   SELECT DISTINCT ON (k) a, b FROM t WHERE w ORDER BY k, c DESC LIMIT n
//   → SELECT distinct_on.__c1 AS a, distinct_on.__c2 AS b
//     FROM (SELECT a AS __c1, b AS __c2, k AS __o1, c AS __o2,
//                  row_number() OVER (PARTITION BY k ORDER BY k, c DESC) AS __rn
//           FROM t WHERE w) AS distinct_on
//     WHERE distinct_on.__rn = 1 ORDER BY distinct_on.__o1, distinct_on.__o2 DESC LIMIT n
//
// ORDER BY and DISTINCT ON items that name an output column (by name or
// position) stand for its expression, as in PostgreSQL. Refused with a FIX:
// a star in the select list (its columns are named only once expanded), and
// no ORDER BY (PostgreSQL's pick of a row per group is then arbitrary).
// The result is an ordinary query, admitted as written: the printed statement
// is a fixed point.
#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"

namespace qg::admit::detail {
namespace {

constexpr std::string_view kAlias = "distinct_on";

ast::Expr hidden_column(std::string name) {
  ast::ColumnRef ref;
  ref.table = std::string(kAlias);
  ref.column = std::move(name);
  return ast::make_expr(std::move(ref));
}

}  // namespace

Status Admitter::distinct_on_on_sqlite(ast::Query& q) {
  auto* s = std::get_if<ast::Select>(&q.body);
  if (dialect_ != Dialect::Sqlite || !s || s->distinct_on.empty()) return {};
  const int location = q.location;
  for (const auto& item : s->items)
    if (const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node); ref && ref->star)
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "SELECT DISTINCT ON (...) with * is not translated on SQLite (the columns are named only "
                        "once expanded)",
                        "FIX: list the columns you need: SELECT DISTINCT ON (k) k, a, b FROM t ORDER BY k, c.",
                        pos(item.expr.location >= 0 ? item.expr.location : location));
  if (q.order_by.empty())
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "SELECT DISTINCT ON (...) without ORDER BY keeps an arbitrary row of each group",
                      "FIX: add ORDER BY the DISTINCT ON expressions, then what picks the row, e.g. ORDER BY k, "
                      "start_time DESC.",
                      pos(location));
  // An ORDER BY / DISTINCT ON item naming an output column (position or name) stands for its expression.
  auto resolve = [&](const ast::Expr& e) -> ast::Expr {
    if (const auto* lit = std::get_if<ast::Literal>(&e.node); lit && lit->kind == ast::LiteralKind::Integer) {
      const long long k = std::stoll(lit->text);
      if (k >= 1 && static_cast<std::size_t>(k) <= s->items.size())
        return s->items[static_cast<std::size_t>(k) - 1].expr;
    }
    if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node); ref && ref->table.empty() && !ref->star)
      for (const auto& item : s->items)
        if (same(item.alias.empty() ? figure_name(item.expr) : item.alias, ref->column)) return item.expr;
    return e;
  };
  // Resolved while the select list is still in place (it moves into the inner query below).
  std::vector<ast::Expr> partition;
  for (const auto& e : s->distinct_on) partition.push_back(resolve(e));
  std::vector<ast::Expr> keys;
  for (const auto& sort : q.order_by) keys.push_back(resolve(*sort.expr));
  // PostgreSQL's rule: the ORDER BY items that are DISTINCT ON expressions come first (those it does not sort by are
  // added after them); else its error, where SQLite would answer (outside tester s20b: ORDER BY y answered).
  // (transformDistinctOnClause: after an ORDER BY item that is none of them, neither a DISTINCT ON expression in the
  // ORDER BY nor one missing from it).
  const auto mismatch = [&](int at) {
    std::string written;
    for (const auto& e : s->distinct_on) written += (written.empty() ? "" : ", ") + shown(e, Dialect::Postgres);
    return make_error(ErrorCode::ValidationUnsupported,
                      "SELECT DISTINCT ON expressions must match initial ORDER BY expressions (PostgreSQL's error)",
                      "FIX: start the ORDER BY with the DISTINCT ON expressions, then what picks the row: ORDER BY " +
                          written + ", ...",
                      pos(at >= 0 ? at : location));
  };
  const auto among = [](const std::vector<ast::Expr>& list, const ast::Expr& e) {
    return std::any_of(list.begin(), list.end(), [&](const ast::Expr& x) { return x == e; });
  };
  bool skipped = false;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!among(partition, keys[i]))
      skipped = true;
    else if (skipped)
      return mismatch(q.order_by[i].expr->location);
  }
  if (skipped)
    for (const auto& p : partition)
      if (!among(keys, p)) return mismatch(q.order_by.front().expr->location);
  ast::Select inner = std::move(*s);
  inner.distinct_on.clear();
  ast::Select outer;
  std::vector<ast::SelectItem> items;
  for (std::size_t i = 0; i < inner.items.size(); ++i) {
    auto& item = inner.items[i];
    const std::string name = item.alias.empty() ? figure_name(item.expr) : item.alias;
    const std::string hidden = "__c" + std::to_string(i + 1);
    outer.items.push_back(ast::SelectItem{hidden_column(hidden), name});
    items.push_back(ast::SelectItem{std::move(item.expr), hidden});
  }
  ast::WindowSpec window;
  window.partition_by = std::move(partition);
  std::vector<ast::SortItem> outer_order;
  for (std::size_t i = 0; i < q.order_by.size(); ++i) {
    const auto& sort = q.order_by[i];
    const ast::Expr& key = keys[i];
    const std::string hidden = "__o" + std::to_string(i + 1);
    window.order_by.push_back(ast::SortItem{ast::Box<ast::Expr>(key), sort.direction, sort.nulls});
    items.push_back(ast::SelectItem{key, hidden});
    outer_order.push_back(ast::SortItem{ast::Box<ast::Expr>(hidden_column(hidden)), sort.direction, sort.nulls});
  }
  ast::FuncCall rn;
  rn.name = "row_number";
  rn.over = std::move(window);
  items.push_back(ast::SelectItem{ast::make_expr(std::move(rn)), "__rn"});
  inner.items = std::move(items);

  ast::Query sub;
  sub.body = std::move(inner);
  sub.location = location;
  ast::DerivedTable derived;
  derived.query = ast::Box<ast::Query>(std::move(sub));
  derived.alias = ast::Alias{std::string(kAlias), {}};
  ast::FromItem from;
  from.node = std::move(derived);
  from.location = location;
  outer.from.push_back(std::move(from));
  outer.where =
      ast::make_expr(ast::Operator{"=", ast::Box<ast::Expr>(hidden_column("__rn")),
                                   ast::Box<ast::Expr>(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1"}))});
  q.body = std::move(outer);
  q.order_by = std::move(outer_order);
  note_rewrite("dialect:distinct-on");
  return {};
}

}  // namespace qg::admit::detail
