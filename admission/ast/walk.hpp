#pragma once
// Visits the direct child expressions of an expression (not into subqueries,
// whose scopes differ). Stages that need a whole-tree walk recurse with it.
#include <type_traits>

#include "admission/ast/ast.hpp"

namespace qg::ast {

namespace detail {
template <typename>
inline constexpr bool kNoChildWalk = false;
}  // namespace detail

template <typename E, typename F>
requires std::is_same_v<std::remove_const_t<E>, Expr>
void for_each_child(E& e, F&& f) {
  auto each = [&](auto& list) {
    for (auto& x : list) f(x);
  };
  auto sorts = [&](auto& items) {
    for (auto& s : items) f(*s.expr);
  };
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, FuncCall>) {
          each(n.args);
          if (n.filter) f(**n.filter);
          sorts(n.order_by);
          sorts(n.within_group);
          if (n.over) {
            each(n.over->partition_by);
            sorts(n.over->order_by);
            if (n.over->frame.start.offset) f(**n.over->frame.start.offset);
            if (n.over->frame.end && n.over->frame.end->offset) f(**n.over->frame.end->offset);
          }
        } else if constexpr (std::is_same_v<T, Operator>) {
          if (n.left) f(**n.left);
          f(*n.right);
        } else if constexpr (std::is_same_v<T, BoolOp> || std::is_same_v<T, Coalesce> || std::is_same_v<T, MinMax>) {
          each(n.args);
        } else if constexpr (std::is_same_v<T, NullTest> || std::is_same_v<T, BoolTest> || std::is_same_v<T, Cast>) {
          f(*n.arg);
        } else if constexpr (std::is_same_v<T, DistinctFrom> || std::is_same_v<T, NullIf>) {
          f(*n.left);
          f(*n.right);
        } else if constexpr (std::is_same_v<T, InList>) {
          f(*n.arg);
          each(n.items);
        } else if constexpr (std::is_same_v<T, Between>) {
          f(*n.arg);
          f(*n.low);
          f(*n.high);
        } else if constexpr (std::is_same_v<T, Like>) {
          f(*n.arg);
          f(*n.pattern);
          if (n.escape) f(**n.escape);
        } else if constexpr (std::is_same_v<T, Case>) {
          if (n.operand) f(**n.operand);
          for (auto& w : n.whens) {
            f(*w.condition);
            f(*w.result);
          }
          if (n.otherwise) f(**n.otherwise);
        } else if constexpr (std::is_same_v<T, SubLink>) {
          if (n.test) f(**n.test);
        } else if constexpr (std::is_same_v<T, ColumnRef> || std::is_same_v<T, Literal> ||
                             std::is_same_v<T, SqlValue> || std::is_same_v<T, Param>) {
          // leaves
        } else {
          static_assert(detail::kNoChildWalk<T>, "for_each_child: every expression node kind needs its own branch");
        }
      },
      e.node);
}

// Whether the expression holds a subquery anywhere (its own operands, not inside the subquery).
inline bool has_subquery(const Expr& e) {
  if (std::holds_alternative<SubLink>(e.node)) return true;
  bool found = false;
  for_each_child(e, [&](const Expr& child) { found = found || has_subquery(child); });
  return found;
}

}  // namespace qg::ast
