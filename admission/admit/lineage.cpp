// Lineage of untrusted content: which output values can carry text written by
// end users. A value is untrusted when it can derive from an untrusted column
// through expressions that pass text on (string functions, CASE/COALESCE
// branches, casts, JSON extraction, string aggregates, min/max/lag over text,
// scalar subqueries, CTEs, any set-operation branch). Values that only measure
// or compare such text (count, length, =, LIKE, IS NULL) are not untrusted.
#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

namespace qg::admit::detail {
namespace {

bool any_of_children(const ast::Expr& e, const auto& pred) {
  bool any = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { any = any || pred(child); });
  return any;
}

}  // namespace

const std::vector<bool>& Admitter::query_taint(const ast::Query& q) const {
  static const std::vector<bool> kNone;
  auto it = query_taint_.find(&q);
  return it == query_taint_.end() ? kNone : it->second;
}

std::vector<bool> Admitter::table_taint(const catalog::Table& table) const {
  std::vector<bool> out;
  for (const auto& c : table.columns) out.push_back(c.untrusted);
  // attach_virtual_columns already folded the expression's lineage into the flag.
  for (const auto& v : table.virtual_columns) out.push_back(v.untrusted);
  return out;
}

bool Admitter::column_untrusted(const ast::ColumnRef& ref, const ExprContext& ctx) {
  auto relation = column(ref, -1, ctx);
  if (!relation || !*relation) {
    // A select-list alias (ORDER BY / GROUP BY): not an output value here.
    return false;
  }
  const Relation& r = **relation;
  for (std::size_t i = 0; i < r.columns.size(); ++i)
    if (same(r.columns[i], ref.column)) return i < r.untrusted.size() && r.untrusted[i];
  return false;
}

bool Admitter::carries_untrusted(const ast::Expr& e, const ExprContext& ctx) {
  auto recurse = [&](const ast::Expr& child) { return carries_untrusted(child, ctx); };
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          return !n.star && column_untrusted(n, ctx);
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          const auto* row = capability::find_function(n.name);
          if (!row || row->carries != capability::Carries::ArgumentText) return false;
          for (const auto& a : n.args)
            if (recurse(a)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          const auto* row = capability::find_operator(n.op);
          if (!row || row->carries != capability::Carries::ArgumentText) return false;
          return (n.left && recurse(**n.left)) || recurse(*n.right);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          // The conditions only decide; the results are what comes out.
          for (const auto& w : n.whens)
            if (recurse(*w.result)) return true;
          return n.otherwise && recurse(**n.otherwise);
        } else if constexpr (std::is_same_v<T, ast::Coalesce> || std::is_same_v<T, ast::MinMax>) {
          for (const auto& a : n.args)
            if (recurse(a)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          return recurse(*n.left);
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          return recurse(*n.arg);
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind != ast::SubLinkKind::Scalar) return false;
          const auto& taint = query_taint(*n.query);
          return !taint.empty() && taint.front();
        } else {
          // Literals, clock values, and predicates (comparisons, LIKE, IN, BETWEEN,
          // IS NULL, boolean logic) produce values no end user wrote.
          return false;
        }
      },
      e.node);
}

}  // namespace qg::admit::detail
