// Time windows of the outermost WHERE (issue #12: "when a time filter reaches
// outside the table's data range, notes says so"). Read before the WHERE is
// admitted, so the bounds are the caller's own text (printed as PostgreSQL
// SQL) rather than their translation; kept only when the compared column is
// a table's timestamp column. Nothing here changes the statement.
#include <algorithm>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

// A bound that reads nothing of a row: literals, casts, operators, functions, the clock.
bool constant(const ast::Expr& e, bool& clock) {
  if (std::holds_alternative<ast::ColumnRef>(e.node) || std::holds_alternative<ast::SubLink>(e.node) ||
      std::holds_alternative<ast::Param>(e.node))
    return false;
  if (std::holds_alternative<ast::SqlValue>(e.node)) clock = true;
  // SQLite's spelling of the clock: date('now', '-30 days'), datetime('now'), julianday('now').
  if (const auto* l = std::get_if<ast::Literal>(&e.node);
      l && l->kind == ast::LiteralKind::String && (l->text == "now" || l->text == "NOW"))
    clock = true;
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    if (f->over || f->star) return false;
    if (f->name == "now") clock = true;
  }
  bool ok = true;
  ast::for_each_child(e, [&](const ast::Expr& child) { ok = ok && constant(child, clock); });
  return ok;
}

bool plain_column(const ast::Expr& e) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  return ref != nullptr && !ref->star;
}

}  // namespace

std::vector<Admitter::WindowCandidate> Admitter::window_candidates(const ast::Expr& where) const {
  std::vector<WindowCandidate> out;
  auto add = [&](const ast::Expr& column, const ast::Expr& bound, bool lower) {
    bool clock = false;
    if (!plain_column(column) || !constant(bound, clock)) return;
    auto text = render::render_expr(bound, Dialect::Postgres);
    if (!text) return;
    out.push_back(WindowCandidate{column, std::move(text).value(), lower, clock});
  };
  auto term = [&](const ast::Expr& t) {
    if (const auto* op = std::get_if<ast::Operator>(&t.node); op && op->left) {
      const bool greater = op->op == ">" || op->op == ">=";
      const bool less = op->op == "<" || op->op == "<=";
      if (!greater && !less) return;
      add(**op->left, *op->right, greater);  // c >= b: a lower bound
      add(*op->right, **op->left, less);     // b <= c: a lower bound too
    } else if (const auto* between = std::get_if<ast::Between>(&t.node); between && !between->negated) {
      add(*between->arg, *between->low, true);
      add(*between->arg, *between->high, false);
    }
  };
  if (const auto* all = std::get_if<ast::BoolOp>(&where.node); all && all->kind == ast::BoolOpKind::And) {
    for (const auto& t : all->args) term(t);
  } else {
    term(where);
  }
  return out;
}

void Admitter::keep_windows(std::vector<WindowCandidate> candidates, const ExprContext& ctx) {
  for (auto& c : candidates) {
    const catalog::Column* column = timestamp_column(c.column, ctx);
    if (column == nullptr) continue;
    const catalog::Table* owner = nullptr;
    for (const auto& t : catalog_.tables)
      for (const auto& col : t.columns)
        if (&col == column) owner = &t;
    if (owner == nullptr) continue;
    auto it = std::find_if(windows.begin(), windows.end(),
                           [&](const TimeWindow& w) { return w.table == owner->name && w.column == column->name; });
    if (it == windows.end()) it = windows.insert(windows.end(), TimeWindow{owner->name, column->name, {}, {}, false});
    // Two bounds on one side (a >= x AND a >= y): the window is not one range to state; drop it.
    std::string& side = c.lower ? it->lower : it->upper;
    side = side.empty() ? std::move(c.bound) : std::string("-");
    it->reads_clock = it->reads_clock || c.clock;
  }
  std::erase_if(windows, [](const TimeWindow& w) { return w.lower == "-" || w.upper == "-"; });
}

}  // namespace qg::admit::detail
