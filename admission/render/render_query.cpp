// Queries: WITH, SELECT, VALUES, set operations, ORDER BY / LIMIT / OFFSET.
#include <string>
#include <variant>

#include "admission/render/printer.hpp"

namespace qg::render::detail {
namespace {

bool has_trailing_clauses(const ast::Query& q) {
  return !q.order_by.empty() || q.limit || q.offset;
}

// A set-operation member that can stand bare: a single SELECT or VALUES
// without WITH, ORDER BY, LIMIT or OFFSET of its own.
bool is_plain_member(const ast::Query& q) {
  return q.with.empty() && !has_trailing_clauses(q) && !std::holds_alternative<ast::SetOp>(q.body);
}

void with_clause(Printer& p, const std::vector<ast::Cte>& ctes) {
  if (ctes.empty()) return;
  p.word("WITH ");
  p.list(ctes, [&](const ast::Cte& c) {
    p.identifier(c.name);
    if (!c.columns.empty()) {
      p.word("(");
      p.identifiers(c.columns);
      p.word(")");
    }
    p.word(" AS (");
    p.query(*c.query);
    p.word(")");
  });
  p.word(" ");
}

void grouping_set(Printer& p, const ast::GroupingSet& g);

void group_item(Printer& p, const ast::GroupItem& g) {
  std::visit(Overloaded{
                 [&](const ast::Expr& e) { p.expr(e); },
                 [&](const ast::GroupingSet& s) { grouping_set(p, s); },
             },
             g.node);
}

// Nested GROUPING SETS / ROLLUP / CUBE / () are allowed inside GROUPING SETS;
// ROLLUP and CUBE take expressions and composite elements (`(a, b)`) only.
void grouping_set(Printer& p, const ast::GroupingSet& g) {
  Printer::Nest nest(p);
  if (!nest.ok()) return;
  using K = ast::GroupingKind;
  if (g.kind == K::Empty) {
    p.require(Construct::EmptyGroupingSet);
    if (!g.items.empty()) return p.fail("an empty grouping set () with items");
    return p.word("()");
  }
  if (g.items.empty()) return p.fail("ROLLUP, CUBE or GROUPING SETS without items");
  if (g.kind == K::Composite) {  // (a, b): expressions only
    p.require(Construct::GroupingSets);
    p.word("(");
    p.list(g.items, [&](const ast::GroupItem& item) {
      const auto* e = std::get_if<ast::Expr>(&item.node);
      if (e == nullptr) return p.fail("a grouping set inside a composite (a, b)");
      p.expr(*e);
    });
    return p.word(")");
  }
  if (g.kind == K::Sets) {
    p.require(Construct::GroupingSets);
    p.word("GROUPING SETS (");
    p.list(g.items, [&](const ast::GroupItem& item) { group_item(p, item); });
    return p.word(")");
  }
  p.require(g.kind == K::Rollup ? Construct::Rollup : Construct::Cube);
  p.word(g.kind == K::Rollup ? "ROLLUP (" : "CUBE (");
  p.list(g.items, [&](const ast::GroupItem& item) {
    if (const auto* c = std::get_if<ast::GroupingSet>(&item.node); c && c->kind == K::Composite)
      return grouping_set(p, *c);
    const auto* e = std::get_if<ast::Expr>(&item.node);
    if (e == nullptr) return p.fail("a grouping set inside ROLLUP or CUBE");
    p.expr(*e);
  });
  p.word(")");
}

void select(Printer& p, const ast::Select& s) {
  p.word("SELECT");
  if (!s.distinct_on.empty()) {
    p.require(Construct::DistinctOn);
    p.word(" DISTINCT ON (");
    p.expr_list(s.distinct_on);
    p.word(")");
  } else if (s.distinct) {
    p.word(" DISTINCT");
  }
  if (s.items.empty()) {
    p.require(Construct::EmptySelectList);
  } else {
    p.word(" ");
    p.list(s.items, [&](const ast::SelectItem& item) {
      p.expr(item.expr);
      // A jsonb_* FROM item's column read from json_each on SQLite keeps the name PostgreSQL gives it.
      if (const auto* c = std::get_if<ast::ColumnRef>(&item.expr.node);
          item.alias.empty() && c && p.sqlite() && !c->engine_column.empty() && c->engine_column != c->column) {
        p.word(" AS ");
        p.identifier(c->column);
      }
      if (item.alias.empty()) return;
      p.word(" AS ");
      p.identifier(item.alias);
    });
  }
  if (!s.from.empty()) {
    p.word(" FROM ");
    p.list(s.from, [&](const ast::FromItem& f) { p.from_item(f); });
  }
  if (s.where) {
    p.word(" WHERE ");
    p.expr(*s.where);
  }
  if (!s.group_by.empty()) {
    p.word(" GROUP BY ");
    p.list(s.group_by, [&](const ast::GroupItem& g) { group_item(p, g); });
  }
  if (s.having) {
    p.word(" HAVING ");
    p.expr(*s.having);
  }
  if (!s.windows.empty()) {
    p.word(" WINDOW ");
    p.list(s.windows, [&](const ast::NamedWindow& w) {
      p.identifier(w.name);
      p.word(" AS ");
      p.window_spec(w.spec);
    });
  }
}

std::string_view set_op_words(const ast::SetOp& op) {
  switch (op.kind) {
    case ast::SetOpKind::Union:
      return op.all ? " UNION ALL " : " UNION ";
    case ast::SetOpKind::Intersect:
      return op.all ? " INTERSECT ALL " : " INTERSECT ";
    case ast::SetOpKind::Except:
      return op.all ? " EXCEPT ALL " : " EXCEPT ";
  }
  return " UNION ";
}

void body(Printer& p, const decltype(ast::Query::body)& b, bool last_member_is_select);

// One side of a set operation. `last_member_is_select` is set when the
// statement's ORDER BY / LIMIT follow this member (see `values` below).
void member(Printer& p, const ast::Query& q, bool right, bool last_member_is_select) {
  if (is_plain_member(q)) return body(p, q.body, right && last_member_is_select);
  if (!p.sqlite()) {
    // PostgreSQL ranks INTERSECT above UNION and EXCEPT; parentheses keep the tree's shape whatever the kinds.
    p.word("(");
    p.query(q);
    return p.word(")");
  }
  // SQLite groups compound members left to right at one precedence, so a bare
  // set operation on the left reads back as the same tree.
  if (!right && q.with.empty() && !has_trailing_clauses(q)) return body(p, q.body, false);
  // Anything else would need parentheses, and SQLite's grammar has no
  // parenthesised compound member. A subquery in FROM has the same rows and
  // column names, and there the member may carry its own WITH, ORDER BY and LIMIT.
  p.word("SELECT * FROM (");
  p.query(q);
  p.word(")");
}

void set_op(Printer& p, const ast::SetOp& op, bool last_member_is_select) {
  if (op.all && p.sqlite()) {
    if (op.kind == ast::SetOpKind::Intersect) p.require(Construct::IntersectAll);
    if (op.kind == ast::SetOpKind::Except) p.require(Construct::ExceptAll);
  }
  member(p, *op.left, false, last_member_is_select);
  p.word(set_op_words(op));
  member(p, *op.right, true, last_member_is_select);
}

// SQLite attaches a statement's ORDER BY / LIMIT / OFFSET to its last SELECT
// only: after a VALUES they are a syntax error. There the VALUES is read
// through `SELECT * FROM (VALUES ...)`, which has the same rows and names.
void values(Printer& p, const ast::Values& v, bool last_member_is_select) {
  if (v.rows.empty()) return p.fail("VALUES without rows");
  const bool wrap = p.sqlite() && last_member_is_select;
  if (!wrap) return p.values(v.rows);
  // Spelled as admission expands it, with the alias PostgreSQL's grammar needs, so that the printed statement,
  // admitted again, prints back unchanged (the fuzzer's P4).
  p.word("SELECT ");
  for (std::size_t i = 0; i < v.rows.front().size(); ++i)
    p.word(std::string(i ? ", " : "") + "v.column" + std::to_string(i + 1));
  p.word(" FROM (");
  p.values(v.rows);
  p.word(") AS v");
}

void body(Printer& p, const decltype(ast::Query::body)& b, bool last_member_is_select) {
  std::visit(Overloaded{
                 [&](const ast::Select& s) { select(p, s); },
                 [&](const ast::SetOp& op) { set_op(p, op, last_member_is_select); },
                 [&](const ast::Values& v) { values(p, v, last_member_is_select); },
             },
             b);
}

void limit_offset(Printer& p, const ast::Query& q) {
  if ((q.limit && *q.limit < 0) || (q.offset && *q.offset < 0)) return p.fail("a negative LIMIT or OFFSET");
  if (q.limit) {
    p.word(" LIMIT " + std::to_string(*q.limit));
  } else if (q.offset && p.sqlite()) {
    p.word(" LIMIT -1");  // SQLite has no OFFSET without LIMIT; a negative LIMIT is its "no limit"
  }
  if (q.offset) p.word(" OFFSET " + std::to_string(*q.offset));
}

}  // namespace

void Printer::values(const std::vector<std::vector<ast::Expr>>& rows) {
  word("VALUES ");
  list(rows, [&](const std::vector<ast::Expr>& row) {
    if (row.empty()) return fail("an empty VALUES row");
    word("(");
    expr_list(row);
    word(")");
  });
}

void Printer::query(const ast::Query& q) {
  Nest nest(*this);
  if (!nest.ok()) return;
  with_clause(*this, q.with);
  body(*this, q.body, has_trailing_clauses(q));
  if (!q.order_by.empty()) {
    word(" ORDER BY ");
    sort_items(q.order_by);
  }
  limit_offset(*this, q);
}

}  // namespace qg::render::detail
