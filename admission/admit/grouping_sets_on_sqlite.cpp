// GROUP BY ROLLUP / CUBE / GROUPING SETS on SQLite (issue #12), which has none
// of them. PostgreSQL groups the rows once per grouping set and appends the
// results; an expression grouped in some sets but not in this one reads NULL
// (outside aggregates), and GROUPING(a, b) is the bitmask of the arguments not
// grouped in the row's set (the leftmost argument the highest bit). Translated
// into one GROUP BY per grouping set, appended with UNION ALL, in a derived
// table that the statement's ORDER BY / LIMIT / OFFSET apply to:
//
//   SELECT a, b, count(*), GROUPING(a, b) FROM t GROUP BY ROLLUP (a, b) HAVING h ORDER BY a, 3 LIMIT n
//   → SELECT grouping_sets.__c1 AS a, grouping_sets.__c2 AS b, grouping_sets.__c3 AS count,
//            grouping_sets.__c4 AS grouping
//     FROM (SELECT a AS __c1, b AS __c2, count(*) AS __c3, 0 AS __c4, a AS __o1, count(*) AS __o2
//           FROM t GROUP BY a, b HAVING h
//           UNION ALL SELECT a, NULL, count(*), 1, a, count(*) FROM t GROUP BY a HAVING h'
//           UNION ALL SELECT NULL, NULL, count(*), 3, NULL, count(*) FROM t HAVING h''  -- (count(*) keeps it grouped)
//          ) AS grouping_sets
//     ORDER BY grouping_sets.__o1, grouping_sets.__o2 LIMIT n
//
// The sets are PostgreSQL's: a plain GROUP BY item is one set of one
// expression, ROLLUP (a, b) the sets (a, b), (a), (), CUBE every subset (in
// PostgreSQL's order), GROUPING SETS the sets of its items one after another,
// () the empty set; the items of GROUP BY multiply (GROUP BY a, ROLLUP (b) is
// (a, b), (a)); duplicate sets are kept, as PostgreSQL keeps them.
//
// A grouping expression matches a select-list, HAVING or ORDER BY expression
// when it is written the same (the parser's tree, e.g. date_trunc('month', t)
// in both places). Refused with a FIX, as not exact: one column written two
// ways (t.a in GROUP BY, a in the select list), window functions (PostgreSQL
// computes them over all sets' rows), subqueries in the select list, HAVING or
// ORDER BY, SELECT DISTINCT [ON], a * in the select list, random() anywhere
// in the statement (each branch reads the rows again), and more than
// kMaxSets grouping sets. An ungrouped column left in a branch is refused by
// PostgreSQL's grouping rule when that branch is admitted (check_grouping).
// The result is an ordinary query, admitted as written.
#include <cctype>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

namespace qg::admit::detail {
namespace {

constexpr std::string_view kAlias = "grouping_sets";
constexpr std::size_t kMaxSets = 32;

using Set = std::vector<ast::Expr>;

ast::Expr hidden_column(std::string name) {
  ast::ColumnRef ref;
  ref.table = std::string(kAlias);
  ref.column = std::move(name);
  return ast::make_expr(std::move(ref));
}

bool grouping_call(const ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  return f && f->sql_syntax && f->name == "grouping";
}

bool any_of(const ast::Expr& e, const std::function<bool(const ast::Expr&)>& pred) {
  if (pred(e)) return true;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || any_of(child, pred); });
  return found;
}

// The expression with every column reference's qualifier dropped and its name lower-cased: two spellings of
// one column compare equal.
ast::Expr loose(ast::Expr e) {
  if (auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
    ref->table.clear();
    for (auto& c : ref->column) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return e;
  }
  ast::for_each_child(e, [&](ast::Expr& child) { child = loose(std::move(child)); });
  return e;
}

void column_refs(const ast::Expr& e, std::vector<const ast::ColumnRef*>& out) {
  if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) out.push_back(ref);
  ast::for_each_child(e, [&](const ast::Expr& child) { column_refs(child, out); });
}

std::string folded(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Two spellings that may name one column or expression (t.a and a, A and a), told apart by PostgreSQL by what
// they resolve to, and by this translation only by their text: not the same tree, but equal once qualifiers are
// dropped, and some column is qualified in one and not in the other or differs only in case. (t.a and u.a are
// two relations' columns.)
bool maybe_same(const ast::Expr& a, const ast::Expr& b) {
  if (a == b || !(loose(a) == loose(b))) return false;
  std::vector<const ast::ColumnRef*> ra, rb;
  column_refs(a, ra);
  column_refs(b, rb);
  if (ra.size() != rb.size()) return true;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    if (ra[i]->table.empty() != rb[i]->table.empty()) return true;
    if (*ra[i] == *rb[i]) continue;
    if (folded(ra[i]->table) == folded(rb[i]->table)) return true;  // a case difference only
  }
  return false;
}

bool contains(const Set& set, const ast::Expr& e) {
  return std::find(set.begin(), set.end(), e) != set.end();
}

Set concat(const Set& a, const Set& b) {
  Set out = a;
  for (const auto& e : b)
    if (!contains(out, e)) out.push_back(e);
  return out;
}

}  // namespace

Status Admitter::grouping_sets_on_sqlite(ast::Query& q) {
  auto* s = std::get_if<ast::Select>(&q.body);
  if (dialect_ != Dialect::Sqlite || !s) return {};
  const int location = q.location;
  bool has_sets = false;
  for (const auto& g : s->group_by) has_sets = has_sets || std::holds_alternative<ast::GroupingSet>(g.node);
  bool has_grouping = false;
  for (const auto& item : s->items) has_grouping = has_grouping || any_of(item.expr, grouping_call);
  if (s->having) has_grouping = has_grouping || any_of(*s->having, grouping_call);
  for (const auto& o : q.order_by) has_grouping = has_grouping || any_of(*o.expr, grouping_call);
  if (!has_sets && !has_grouping) return {};
  // PostgreSQL: "aggregate function calls cannot contain grouping operations" (and the branches keep aggregates
  // as written, so the call would stay).
  std::function<bool(const ast::Expr&)> in_aggregate = [&](const ast::Expr& e) {
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && is_aggregate_call(*f)) {
      bool found = false;
      ast::for_each_child(e, [&](const ast::Expr& child) { found = found || any_of(child, grouping_call); });
      if (found) return true;
    }
    bool found = false;
    ast::for_each_child(e, [&](const ast::Expr& child) { found = found || in_aggregate(child); });
    return found;
  };
  {
    std::vector<const ast::Expr*> all;
    for (const auto& item : s->items) all.push_back(&item.expr);
    if (s->having) all.push_back(&*s->having);
    for (const auto& o : q.order_by) all.push_back(&*o.expr);
    for (const ast::Expr* e : all)
      if (in_aggregate(*e))
        return make_error(ErrorCode::ValidationUnsupported, "GROUPING(...) inside an aggregate's arguments",
                          "FIX: use GROUPING(...) outside aggregates, e.g. SELECT a, GROUPING(a), count(*) FROM t "
                          "GROUP BY ROLLUP (a).",
                          pos(e->location >= 0 ? e->location : location));
  }
  if (s->group_by.empty())
    return make_error(ErrorCode::ValidationUnsupported, "GROUPING(...) in a query without GROUP BY",
                      "FIX: GROUPING(a) takes expressions of the query's GROUP BY; add GROUP BY ROLLUP (a) or "
                      "remove GROUPING(...).",
                      pos(location));

  const std::string written = has_sets ? "GROUP BY ROLLUP / CUBE / GROUPING SETS" : "GROUPING(...)";
  auto refuse = [&](const std::string& what, const std::string& fix, int at) -> Status {
    return make_error(ErrorCode::CapabilityNotOnSqlite, written + " " + what + " is not translated on SQLite", fix,
                      pos(at >= 0 ? at : location));
  };
  if (s->distinct || !s->distinct_on.empty())
    return refuse("with SELECT DISTINCT",
                  "FIX: group in a subquery and apply DISTINCT outside it: SELECT DISTINCT * FROM (SELECT ... GROUP "
                  "BY ROLLUP (a)) AS g.",
                  location);
  // Each set's branch reads the rows again: random() would draw other values per set (PostgreSQL draws once).
  {
    std::string text(sql_);
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (text.find("random") != std::string::npos)
      return refuse("with random()",
                    "FIX: on SQLite, remove random() from the statement, or write one GROUP BY query per grouping "
                    "set over a table you sampled before.",
                    location);
  }
  if (!s->windows.empty())
    return refuse("with a WINDOW clause",
                  "FIX: group in a subquery and compute the window function outside it: SELECT g.*, rank() OVER "
                  "(ORDER BY g.n DESC) FROM (SELECT a, count(*) AS n FROM t GROUP BY ROLLUP (a)) AS g.",
                  location);
  const auto windowed = [](const ast::Expr& e) {
    const auto* f = std::get_if<ast::FuncCall>(&e.node);
    return f && f->over.has_value();
  };
  const auto subquery = [](const ast::Expr& e) { return std::holds_alternative<ast::SubLink>(e.node); };
  std::vector<const ast::Expr*> outputs;  // select list, HAVING, ORDER BY
  for (const auto& item : s->items) outputs.push_back(&item.expr);
  if (s->having) outputs.push_back(&*s->having);
  for (const auto& o : q.order_by) outputs.push_back(&*o.expr);
  for (const ast::Expr* e : outputs) {
    if (any_of(*e, windowed))
      return refuse("with a window function",
                    "FIX: group in a subquery and compute the window function outside it: SELECT g.*, rank() OVER "
                    "(ORDER BY g.n DESC) FROM (SELECT a, count(*) AS n FROM t GROUP BY ROLLUP (a)) AS g.",
                    e->location);
    if (any_of(*e, subquery))
      return refuse("with a subquery in the select list, HAVING or ORDER BY",
                    "FIX: compute the subquery's value in a CTE or a joined derived table and group by it, or "
                    "group in a subquery and add the value outside it.",
                    e->location);
  }
  for (const auto& item : s->items)
    if (const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node); ref && ref->star)
      return refuse("with * in the select list",
                    "FIX: list the grouped columns and aggregates: SELECT a, b, count(*) FROM t GROUP BY ROLLUP (a, "
                    "b).",
                    item.expr.location);

  // Output columns by name, for GROUP BY items that name one (PostgreSQL: an input column first).
  std::vector<std::string> names;
  for (const auto& item : s->items) names.push_back(item.alias.empty() ? figure_name(item.expr) : item.alias);
  // Whether a bare name is a column of the FROM clause's tables; nullopt when FROM has other than tables.
  std::function<std::optional<bool>(const ast::FromItem&, const std::string&)> input_column =
      [&](const ast::FromItem& f, const std::string& name) -> std::optional<bool> {
    if (const auto* t = std::get_if<ast::TableRef>(&f.node)) {
      const auto* table = catalog_.find_table(t->name);
      if (!table || !t->schema.empty()) return std::nullopt;
      return table->find_column(name, dialect_) != nullptr;
    }
    if (const auto* j = std::get_if<ast::Join>(&f.node)) {
      const auto l = input_column(*j->left, name), r = input_column(*j->right, name);
      if (!l || !r) return std::nullopt;
      return *l || *r;
    }
    return std::nullopt;
  };
  // A GROUP BY expression: a position or an output name stands for the output's expression.
  auto key = [&](const ast::Expr& e) -> Result<ast::Expr> {
    if (const auto* lit = std::get_if<ast::Literal>(&e.node); lit && lit->kind == ast::LiteralKind::Integer) {
      const long long k = std::atoll(lit->text.c_str());
      if (k < 1 || static_cast<std::size_t>(k) > s->items.size())
        return make_error(
            ErrorCode::ValidationUnsupported, "GROUP BY position " + lit->text + " is not in the select list",
            "FIX: write a position from 1 to " + std::to_string(s->items.size()) + ", or the expression itself.",
            pos(e.location));
      return s->items[static_cast<std::size_t>(k) - 1].expr;
    }
    const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
    if (!ref || ref->star || !ref->table.empty()) return e;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!same(names[i], ref->column) || s->items[i].expr == e) continue;
      std::optional<bool> input = false;
      for (const auto& f : s->from) {
        const auto one = input_column(f, ref->column);
        if (!one) {
          input = std::nullopt;
          break;
        }
        input = *input || *one;
      }
      if (input && *input) return e;
      if (input) return s->items[i].expr;
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "GROUP BY " + ref->column + " names an output column that may also be an input column",
                        "FIX: write the grouped expression itself in GROUP BY, e.g. ROLLUP (" + ref->column +
                            ") as ROLLUP (the select list's expression).",
                        pos(e.location));
    }
    return e;
  };

  // The grouping sets, PostgreSQL's expansion.
  std::function<Result<std::vector<Set>>(const ast::GroupItem&)> expand =
      [&](const ast::GroupItem& g) -> Result<std::vector<Set>> {
    if (const auto* e = std::get_if<ast::Expr>(&g.node)) {
      auto k = key(*e);
      if (!k) return std::move(k).error();
      return std::vector<Set>{Set{std::move(k).value()}};
    }
    const auto& set = std::get<ast::GroupingSet>(g.node);
    using K = ast::GroupingKind;
    if (set.kind == K::Empty) return std::vector<Set>{Set{}};
    // (a, b): one set of its expressions.
    auto composite = [&](const ast::GroupingSet& c) -> Result<Set> {
      Set one;
      for (const auto& item : c.items) {
        const auto* e = std::get_if<ast::Expr>(&item.node);
        if (!e)
          return make_error(ErrorCode::ValidationUnsupported, "a grouping set inside a parenthesised (a, b)",
                            "FIX: list expressions inside (a, b), e.g. GROUPING SETS ((a, b), (a), ()).",
                            pos(c.location >= 0 ? c.location : location));
        auto k = key(*e);
        if (!k) return std::move(k).error();
        one = concat(one, Set{std::move(k).value()});
      }
      return one;
    };
    if (set.kind == K::Composite) {
      auto one = composite(set);
      if (!one) return std::move(one).error();
      return std::vector<Set>{std::move(one).value()};
    }
    if (set.kind == K::Sets) {
      std::vector<Set> out;
      for (const auto& item : set.items) {
        auto inner = expand(item);
        if (!inner) return inner;
        for (auto& one : inner.value()) out.push_back(std::move(one));
        if (out.size() > kMaxSets) break;
      }
      return out;
    }
    // ROLLUP / CUBE: units of expressions and composites (a, b).
    std::vector<Set> units;
    for (const auto& item : set.items) {
      if (const auto* c = std::get_if<ast::GroupingSet>(&item.node); c && c->kind == K::Composite) {
        auto one = composite(*c);
        if (!one) return std::move(one).error();
        units.push_back(std::move(one).value());
        continue;
      }
      const auto* e = std::get_if<ast::Expr>(&item.node);
      if (!e)
        return make_error(ErrorCode::ValidationUnsupported, "a grouping set inside ROLLUP or CUBE",
                          "FIX: write ROLLUP and CUBE of expressions, or list the sets: GROUPING SETS ((a, b), (a), "
                          "()).",
                          pos(set.location));
      auto k = key(*e);
      if (!k) return std::move(k).error();
      units.push_back(Set{std::move(k).value()});
    }
    std::vector<Set> out;
    const std::size_t n = units.size();
    if (set.kind == K::Rollup) {
      for (std::size_t len = n + 1; len-- > 0;) {
        Set one;
        for (std::size_t i = 0; i < len; ++i) one = concat(one, units[i]);
        out.push_back(std::move(one));
      }
      return out;
    }
    if (n > 5) {  // 2^n sets: beyond kMaxSets
      out.resize(kMaxSets + 1);
      return out;
    }
    // CUBE: every subset, the leftmost element the highest bit, from all down to none (PostgreSQL's order).
    for (std::size_t mask = (std::size_t{1} << n); mask-- > 0;) {
      Set one;
      for (std::size_t i = 0; i < n; ++i)
        if (mask & (std::size_t{1} << (n - 1 - i))) one = concat(one, units[i]);
      out.push_back(std::move(one));
    }
    return out;
  };
  std::vector<Set> sets{Set{}};
  for (const auto& g : s->group_by) {
    auto item_sets = expand(g);
    if (!item_sets) return std::move(item_sets).error();
    std::vector<Set> product;
    for (const auto& a : sets)
      for (const auto& b : item_sets.value()) {
        product.push_back(concat(a, b));
        if (product.size() > kMaxSets) break;
      }
    sets = std::move(product);
    if (sets.size() > kMaxSets) break;
  }
  if (sets.size() > kMaxSets)
    return refuse("with more than " + std::to_string(kMaxSets) + " grouping sets",
                  "FIX: group by fewer sets (CUBE of n expressions makes 2^n sets): list the ones you need with "
                  "GROUPING SETS ((a, b), (a), ()).",
                  location);

  // Every grouping expression; two spellings of one are refused (which rows read NULL would differ).
  Set keys;
  for (const auto& one : sets) keys = concat(keys, one);
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j)
      if (maybe_same(keys[i], keys[j]))
        return refuse("with one column written two ways",
                      "FIX: write each grouped column the same way everywhere (qualified or not), in GROUP BY, the "
                      "select list, HAVING and ORDER BY.",
                      keys[j].location);

  // An ORDER BY item naming an output column (position or name) stands for its expression.
  auto resolve = [&](const ast::Expr& e) -> ast::Expr {
    if (const auto* lit = std::get_if<ast::Literal>(&e.node); lit && lit->kind == ast::LiteralKind::Integer) {
      const long long k = std::atoll(lit->text.c_str());
      if (k >= 1 && static_cast<std::size_t>(k) <= s->items.size()) return s->items[k - 1].expr;
    }
    if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node); ref && ref->table.empty() && !ref->star)
      for (std::size_t i = 0; i < names.size(); ++i)
        if (same(names[i], ref->column)) return s->items[i].expr;
    return e;
  };
  std::vector<ast::Expr> order_keys;
  for (const auto& o : q.order_by) order_keys.push_back(resolve(*o.expr));

  // PostgreSQL (15) drops a sort key it knows to be constant, even one a grouping set makes NULL: a constant
  // grouping expression, or one WHERE / ON fixes (a = 5, a IN (5)); its rolled-up rows then come in no order.
  // Such a key is refused when it can be rolled up (a constant key always; a fixed one when ORDER BY reads it).
  auto constant = [](const ast::Expr& e) {
    std::vector<const ast::ColumnRef*> refs;
    column_refs(e, refs);
    return refs.empty() && !any_of(e, [](const ast::Expr& x) { return std::holds_alternative<ast::SubLink>(x.node); });
  };
  std::vector<const ast::Expr*> fixed;  // expressions some conjunct equates with a constant
  std::vector<std::pair<const ast::Expr*, const ast::Expr*>> equal;  // a = b: one sort key stands for both
  std::function<void(const ast::Expr&)> conjuncts = [&](const ast::Expr& e) {
    if (const auto* b = std::get_if<ast::BoolOp>(&e.node); b && b->kind == ast::BoolOpKind::And) {
      for (const auto& a : b->args) conjuncts(a);
      return;
    }
    if (const auto* o = std::get_if<ast::Operator>(&e.node); o && o->left && o->op == "=") {
      if (constant(*o->right)) fixed.push_back(&**o->left);
      if (constant(**o->left)) fixed.push_back(&*o->right);
      if (!constant(*o->right) && !constant(**o->left)) equal.emplace_back(&**o->left, &*o->right);
    }
    if (const auto* in = std::get_if<ast::InList>(&e.node);
        in && !in->negated && in->items.size() == 1 && constant(in->items.front()))
      fixed.push_back(&*in->arg);
  };
  if (s->where) conjuncts(*s->where);
  std::function<void(const ast::FromItem&)> joins = [&](const ast::FromItem& f) {
    if (const auto* j = std::get_if<ast::Join>(&f.node)) {
      if (j->on) conjuncts(**j->on);
      joins(*j->left);
      joins(*j->right);
    }
  };
  for (const auto& f : s->from) joins(f);
  for (const auto& k : keys) {
    const bool rollable = std::any_of(sets.begin(), sets.end(), [&](const Set& one) { return !contains(one, k); });
    if (!rollable) continue;
    if (constant(k))
      return refuse("with a constant grouping expression",
                    "FIX: group by columns or expressions of columns; select the constant without grouping by it.",
                    k.location);
    // A CASE of integer constants (a 0 / 1 bucket flag): its translation did not admit again as it was (a 500;
    // outside tester s21c). Computed in a subquery first, it is a column there, which translates.
    if (const auto* c = std::get_if<ast::Case>(&k.node)) {
      bool integers = false;
      for (const auto& w : c->whens)
        if (const auto* l = std::get_if<ast::Literal>(&w.result->node); l && l->kind == ast::LiteralKind::Integer)
          integers = true;
      if (c->otherwise)
        if (const auto* l = std::get_if<ast::Literal>(&(*c->otherwise)->node);
            l && l->kind == ast::LiteralKind::Integer)
          integers = true;
      if (integers)
        return refuse("with a CASE of integer constants as a grouping expression",
                      "FIX: compute the CASE in a subquery and group by its name there, e.g. SELECT flag, count(*) "
                      "FROM (SELECT CASE WHEN ... THEN 1 ELSE 0 END AS flag, ... FROM t) AS s GROUP BY ROLLUP "
                      "(flag).",
                      k.location);
    }
    const bool is_fixed =
        std::any_of(fixed.begin(), fixed.end(), [&](const ast::Expr* x) { return *x == k || maybe_same(*x, k); });
    const bool ordered = std::any_of(order_keys.begin(), order_keys.end(), [&](const ast::Expr& o) {
      return any_of(o, [&](const ast::Expr& x) { return x == k || maybe_same(x, k); });
    });
    // ORDER BY a, b with WHERE a = b: PostgreSQL sorts by a only (b is the same value, but not in every set).
    // (GROUPING(b) is a sort key of its own.)
    std::function<bool(const ast::Expr&, const ast::Expr&)> reads = [&](const ast::Expr& o, const ast::Expr& x) {
      if (o == x || maybe_same(o, x)) return true;
      if (grouping_call(o)) return false;
      bool found = false;
      ast::for_each_child(o, [&](const ast::Expr& child) { found = found || reads(child, x); });
      return found;
    };
    bool paired = false;
    for (const auto& [l, r] : equal)
      if (*l == k || maybe_same(*l, k) || *r == k || maybe_same(*r, k))
        for (std::size_t i = 0; i < order_keys.size() && !paired; ++i)
          for (std::size_t j = i + 1; j < order_keys.size() && !paired; ++j)
            paired = (reads(order_keys[i], *l) && reads(order_keys[j], *r)) ||
                     (reads(order_keys[i], *r) && reads(order_keys[j], *l));
    if (paired)
      return refuse("ordered by two grouped expressions that WHERE or ON makes equal",
                    "FIX: order by one of the two (they are equal) and GROUPING(...) of the other, e.g. ORDER BY a, "
                    "GROUPING(b).",
                    k.location);
    if (is_fixed && ordered)
      return refuse("ordered by a grouped expression that WHERE or ON fixes to one value",
                    "FIX: take that expression out of ROLLUP / CUBE / GROUPING SETS (it has one value), or do not "
                    "order by it: PostgreSQL leaves the order of its rolled-up rows open.",
                    k.location);
  }

  // The expression as one set's branch reads it: grouping expressions not in the set are NULL, GROUPING(...)
  // its bitmask; aggregates read the input rows and are kept as written.
  std::optional<Error> failed;
  std::function<void(ast::Expr&, const Set&)> branch_expr = [&](ast::Expr& e, const Set& set) {
    if (failed) return;
    if (contains(keys, e)) {
      if (!contains(set, e)) e = ast::make_expr(ast::Literal{ast::LiteralKind::Null, "NULL"}, e.location);
      return;
    }
    if (auto* f = std::get_if<ast::FuncCall>(&e.node)) {
      if (grouping_call(e)) {
        if (f->args.empty() || f->args.size() > 31) {
          failed = make_error(ErrorCode::ValidationUnsupported, "GROUPING() takes 1 to 31 arguments",
                              "FIX: write GROUPING(a, b) with grouped expressions.", pos(e.location));
          return;
        }
        long long mask = 0;
        for (const auto& arg : f->args) {
          if (!contains(keys, arg)) {
            failed = make_error(ErrorCode::ValidationUnsupported,
                                "an argument of GROUPING(...) is not a grouping expression of its query",
                                "FIX: write GROUPING's arguments exactly as the expressions in GROUP BY.",
                                pos(arg.location >= 0 ? arg.location : e.location));
            return;
          }
          mask = (mask << 1) | (contains(set, arg) ? 0 : 1);
        }
        e = ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(mask)}, e.location);
        return;
      }
      if (is_aggregate_call(*f)) return;
    }
    if (std::any_of(keys.begin(), keys.end(), [&](const ast::Expr& k) { return maybe_same(k, e); })) {
      failed = make_error(ErrorCode::CapabilityNotOnSqlite,
                          written +
                              " with a grouped column written another way than in GROUP BY is not translated "
                              "on SQLite",
                          "FIX: write each grouped column the same way everywhere (qualified or not), in GROUP BY, "
                          "the select list, HAVING and ORDER BY.",
                          pos(e.location >= 0 ? e.location : location));
      return;
    }
    ast::for_each_child(e, [&](ast::Expr& child) { branch_expr(child, set); });
  };

  ast::Box<ast::Query> compound;
  bool first = true;
  for (const auto& set : sets) {
    ast::Select branch;
    for (std::size_t i = 0; i < s->items.size(); ++i) {
      ast::Expr e = s->items[i].expr;
      branch_expr(e, set);
      branch.items.push_back(ast::SelectItem{std::move(e), "__c" + std::to_string(i + 1)});
    }
    for (std::size_t i = 0; i < order_keys.size(); ++i) {
      ast::Expr e = order_keys[i];
      branch_expr(e, set);
      branch.items.push_back(ast::SelectItem{std::move(e), "__o" + std::to_string(i + 1)});
    }
    // Grouped also when nothing else is: the empty set is one row, even of no rows.
    ast::FuncCall count;
    count.name = "count";
    count.star = true;
    branch.items.push_back(ast::SelectItem{ast::make_expr(std::move(count)), "__n"});
    branch.from = s->from;
    branch.where = s->where;
    for (const auto& e : set) branch.group_by.push_back(ast::GroupItem{e});
    if (s->having) {
      ast::Expr h = *s->having;
      branch_expr(h, set);
      branch.having = std::move(h);
    }
    if (failed) return std::move(*failed);
    ast::Query one;
    one.body = std::move(branch);
    one.location = location;
    if (first) {
      compound = ast::Box<ast::Query>(std::move(one));
      first = false;
      continue;
    }
    ast::SetOp append;
    append.kind = ast::SetOpKind::Union;
    append.all = true;
    append.left = std::move(compound);
    append.right = ast::Box<ast::Query>(std::move(one));
    ast::Query joined;
    joined.body = std::move(append);
    joined.location = location;
    compound = ast::Box<ast::Query>(std::move(joined));
  }

  ast::Select outer;
  for (std::size_t i = 0; i < s->items.size(); ++i)
    outer.items.push_back(ast::SelectItem{hidden_column("__c" + std::to_string(i + 1)), names[i]});
  ast::DerivedTable derived;
  derived.query = std::move(compound);
  derived.alias = ast::Alias{std::string(kAlias), {}};
  ast::FromItem from;
  from.node = std::move(derived);
  from.location = location;
  outer.from.push_back(std::move(from));
  std::vector<ast::SortItem> outer_order;
  for (std::size_t i = 0; i < q.order_by.size(); ++i)
    outer_order.push_back(ast::SortItem{ast::Box<ast::Expr>(hidden_column("__o" + std::to_string(i + 1))),
                                        q.order_by[i].direction, q.order_by[i].nulls});
  q.body = std::move(outer);
  q.order_by = std::move(outer_order);
  note_rewrite("dialect:grouping-sets");
  return {};
}

}  // namespace qg::admit::detail
