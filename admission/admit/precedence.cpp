// SQLite groups some operators differently from PostgreSQL's grammar, which is
// the one that parsed the statement: `2 * 3 || 4` is (2 * 3) || 4 there and
// 2 * (3 || 4) in SQLite; `a = b IN (...)` is a = (b IN (...)) there and
// (a = b) IN (...) in SQLite; `A UNION B INTERSECT C` binds INTERSECT first
// there and reads left to right in SQLite. Printing the tree with explicit
// parentheses would silently pick the grammar's reading for a statement that
// was likely written for SQLite's, so on SQLite these mixes are refused unless
// the caller's own parentheses already say which is meant.
#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

bool is_one_of(std::string_view op, std::initializer_list<std::string_view> set) {
  for (auto s : set)
    if (s == op) return true;
  return false;
}

// Operators SQLite binds tighter than * / % + - and the bitwise ones.
bool text_operator(std::string_view op) {
  return is_one_of(op, {"||", "->", "->>"});
}
bool arithmetic_or_bitwise(std::string_view op) {
  return is_one_of(op, {"*", "/", "%", "+", "-", "&", "|", "<<", ">>"});
}
bool comparison(std::string_view op) {
  return is_one_of(op, {"=", "<>", "!=", "<", ">", "<=", ">="});
}

const ast::Operator* binary(const ast::Expr& e) {
  const auto* o = std::get_if<ast::Operator>(&e.node);
  return o && o->left ? o : nullptr;
}

// Predicates PostgreSQL binds tighter than comparisons and SQLite does not.
bool membership_predicate(const ast::Expr& e) {
  if (std::holds_alternative<ast::InList>(e.node) || std::holds_alternative<ast::Like>(e.node) ||
      std::holds_alternative<ast::Between>(e.node))
    return true;
  const auto* link = std::get_if<ast::SubLink>(&e.node);
  return link && link->kind == ast::SubLinkKind::In;
}

}  // namespace

Status Admitter::check_precedence(const ast::Expr& e) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto refuse = [&](const ast::Expr& inner, const std::string& why) -> Status {
    auto whole = render::render_expr(e, Dialect::Postgres);
    auto part = render::render_expr(inner, Dialect::Postgres);
    std::string fix = "FIX: add parentheses that say which grouping you mean";
    if (whole && part) fix += ": the portable reading is " + *whole + ", with " + *part + " grouped first";
    fix += ". Write the parentheses out, and querygate keeps them.";
    return make_error(ErrorCode::ValidationAmbiguousPrecedence, why, fix, pos(e.location));
  };
  if (const auto* o = binary(e)) {
    if (text_operator(o->op)) {
      for (const ast::Expr* side : {&**o->left, &*o->right}) {
        const auto* inner = binary(*side);
        if (inner && arithmetic_or_bitwise(inner->op) && !side->parenthesized)
          return refuse(*side, "'" + o->op + "' next to '" + inner->op + "' without parentheses: SQLite binds " +
                                   o->op + " tighter, the portable grammar binds " + inner->op + " tighter");
      }
    }
    if (comparison(o->op) && membership_predicate(*o->right) && !o->right->parenthesized)
      return refuse(*o->right, "'" + o->op +
                                   "' followed by IN / LIKE / BETWEEN without parentheses: SQLite compares "
                                   "first, the portable grammar tests membership first");
  }
  if (const auto* d = std::get_if<ast::DistinctFrom>(&e.node)) {
    const auto* inner = binary(*d->right);
    if (inner && comparison(inner->op) && !d->right->parenthesized)
      return refuse(*d->right,
                    "IS DISTINCT FROM followed by a comparison without parentheses: the two grammars "
                    "group it differently");
  }
  return {};
}

Status Admitter::check_set_precedence(const ast::SetOp& set, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  // SQLite reads compound SELECTs left to right; a right branch that is itself a
  // set operation came from the grammar's INTERSECT-first rule or from
  // parentheses SQLite does not accept around compound members.
  const auto* right = std::get_if<ast::SetOp>(&set.right->body);
  if (!right || set.right->parenthesized) return {};
  return make_error(ErrorCode::ValidationAmbiguousPrecedence,
                    "UNION / EXCEPT followed by INTERSECT: SQLite reads compound SELECTs left to right, the portable "
                    "grammar binds INTERSECT first",
                    "FIX: make the grouping explicit with a subquery, e.g. SELECT ... UNION SELECT * FROM (SELECT ... "
                    "INTERSECT SELECT ...), or reorder the branches so they read left to right.",
                    pos(location));
}

}  // namespace qg::admit::detail
