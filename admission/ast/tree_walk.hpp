#pragma once
// A whole-statement walk: every expression (into subqueries of every kind:
// CTEs, derived tables, LATERAL, SubLinks, set-operation members) and every
// FROM item, in tree order. Used where a stage must see all of a statement
// (parameter numbering, the row-filter check). One branch per node kind, no
// permissive default: a new node kind does not compile until it is walked.
#include <type_traits>

#include "admission/ast/ast.hpp"
#include "admission/ast/walk.hpp"

namespace qg::ast {

struct NoQueryVisit {
  void operator()(const Query&) const {}
};

template <bool Const, typename OnExpr, typename OnFrom, typename OnQuery = NoQueryVisit>
class TreeWalk {
  template <typename T>
  using Ref = std::conditional_t<Const, const T&, T&>;

 public:
  TreeWalk(OnExpr& on_expr, OnFrom& on_from, OnQuery on_query = {})
      : on_expr_(on_expr), on_from_(on_from), on_query_(on_query) {}

  void query(Ref<Query> q) {
    on_query_(q);
    for (auto& c : q.with) query(*c.query);
    std::visit(
        [&](auto& b) {
          using T = std::decay_t<decltype(b)>;
          if constexpr (std::is_same_v<T, Select>) {
            select(b);
          } else if constexpr (std::is_same_v<T, SetOp>) {
            query(*b.left);
            query(*b.right);
          } else if constexpr (std::is_same_v<T, Values>) {
            for (auto& row : b.rows)
              for (auto& e : row) expr(e);
          } else {
            static_assert(detail::kNoChildWalk<T>, "TreeWalk: every query body kind needs its own branch");
          }
        },
        q.body);
    sorts(q.order_by);
  }

  void expr(Ref<Expr> e) {
    on_expr_(e);
    if (auto* sub = std::get_if<SubLink>(&e.node)) query(*sub->query);
    for_each_child(e, [&](auto& child) { expr(child); });
  }

 private:
  void sorts(auto& items) {
    for (auto& s : items) expr(*s.expr);
  }
  void window(auto& w) {
    for (auto& e : w.partition_by) expr(e);
    sorts(w.order_by);
    if (w.frame.start.offset) expr(**w.frame.start.offset);
    if (w.frame.end && w.frame.end->offset) expr(**w.frame.end->offset);
  }
  void group(auto& item) {
    std::visit(
        [&](auto& g) {
          using T = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<T, Expr>) {
            expr(g);
          } else if constexpr (std::is_same_v<T, GroupingSet>) {
            for (auto& i : g.items) group(i);
          } else {
            static_assert(detail::kNoChildWalk<T>, "TreeWalk: every grouping kind needs its own branch");
          }
        },
        item.node);
  }
  void select(auto& s) {
    for (auto& e : s.distinct_on) expr(e);
    for (auto& f : s.from) from(f);
    for (auto& i : s.items) expr(i.expr);
    if (s.where) expr(*s.where);
    for (auto& g : s.group_by) group(g);
    if (s.having) expr(*s.having);
    for (auto& w : s.windows) window(w.spec);
  }
  void from(Ref<FromItem> item) {
    on_from_(item);
    std::visit(
        [&](auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, TableRef>) {
            if (n.row_filter) expr(**n.row_filter);  // a filtered table: its filter (and the tables it reads)
          } else if constexpr (std::is_same_v<T, DerivedTable>) {
            query(*n.query);
          } else if constexpr (std::is_same_v<T, ValuesTable>) {
            for (auto& row : n.rows)
              for (auto& e : row) expr(e);
          } else if constexpr (std::is_same_v<T, SeriesTable>) {
            for (auto& e : n.args) expr(e);
          } else if constexpr (std::is_same_v<T, JsonRows>) {
            for (auto& e : n.args) expr(e);
          } else if constexpr (std::is_same_v<T, Join>) {
            from(*n.left);
            from(*n.right);
            if (n.on) expr(**n.on);
          } else {
            static_assert(detail::kNoChildWalk<T>, "TreeWalk: every FROM item kind needs its own branch");
          }
        },
        item.node);
  }

  OnExpr& on_expr_;
  OnFrom& on_from_;
  OnQuery on_query_;
};

// Calls on_expr(Expr&) for every expression and on_from(FromItem&) for every
// FROM item of `q`, its CTEs and all its subqueries.
template <typename Q, typename OnExpr, typename OnFrom>
requires std::is_same_v<std::remove_const_t<Q>, Query>
void walk_tree(Q& q, OnExpr&& on_expr, OnFrom&& on_from) {
  TreeWalk<std::is_const_v<Q>, std::remove_reference_t<OnExpr>, std::remove_reference_t<OnFrom>> w(on_expr, on_from);
  w.query(q);
}

// The same, also calling on_query(const Query&) for the statement and every query inside it.
template <typename OnExpr, typename OnFrom, typename OnQuery>
void walk_tree(const Query& q, OnExpr&& on_expr, OnFrom&& on_from, OnQuery on_query) {
  TreeWalk<true, std::remove_reference_t<OnExpr>, std::remove_reference_t<OnFrom>, OnQuery> w(on_expr, on_from,
                                                                                              on_query);
  w.query(q);
}

}  // namespace qg::ast
