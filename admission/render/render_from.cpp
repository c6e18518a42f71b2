// FROM items: tables, derived tables, VALUES lists and joins.
#include <string>
#include <string_view>
#include <variant>

#include "admission/render/printer.hpp"

namespace qg::render::detail {
namespace {

// " AS a" or " AS a(x, y)". SQLite has no column-alias list on a FROM item.
void alias(Printer& p, const std::optional<ast::Alias>& a) {
  if (!a) return;
  p.word(" AS ");
  p.identifier(a->name);
  if (a->columns.empty()) return;
  p.require(Construct::TableColumnAliases);
  p.word("(");
  p.identifiers(a->columns);
  p.word(")");
}

std::string_view join_words(ast::JoinKind kind) {
  switch (kind) {
    case ast::JoinKind::Inner:
      return " JOIN ";
    case ast::JoinKind::Left:
      return " LEFT JOIN ";
    case ast::JoinKind::Right:
      return " RIGHT JOIN ";
    case ast::JoinKind::Full:
      return " FULL JOIN ";
    case ast::JoinKind::Cross:
      return " CROSS JOIN ";
  }
  return " JOIN ";
}

struct FromPrinter {
  Printer& p;

  void operator()(const ast::TableRef& t) const {
    if (t.row_filter) {
      // The table as the view of the rows its row filter keeps, under the name the statement uses.
      p.word("(SELECT * FROM ");
      if (!t.schema.empty()) {
        p.identifier(t.schema);
        p.word(".");
      }
      p.identifier(t.name);
      p.word(" WHERE ");
      // A fence (rewrite::fence_row_filters): no condition of the statement
      // may run on a row before the filter has kept it (an error it raises,
      // e.g. a division by zero, would tell about a row the caller may not
      // see). Neither engine pulls up a subquery with OFFSET or pushes
      // conditions down into it. SQLite materializes it and plans the join
      // with the rows the filter's index search promises (a span_id IN
      // (SELECT ...) a few dozen), so it skipped the automatic index a join
      // of two fenced tables needs (30 s instead of 0.2 s on the demo);
      // likely() keeps it from promising fewer rows than the table holds.
      const bool fence_sqlite = t.row_filter_fence && p.sqlite();
      if (fence_sqlite) p.word("likely(");
      p.expr(**t.row_filter);
      if (fence_sqlite) p.word(")");
      if (t.row_filter_fence) p.word(p.sqlite() ? " LIMIT -1 OFFSET 0" : " OFFSET 0");
      p.word(")");
      if (t.alias) return alias(p, t.alias);
      p.word(" AS ");
      p.identifier(t.name);
      return;
    }
    if (!t.schema.empty()) {
      p.identifier(t.schema);
      p.word(".");
    }
    p.identifier(t.name);
    alias(p, t.alias);
  }

  void operator()(const ast::DerivedTable& d) const {
    if (!d.alias && !p.sqlite()) return p.fail("a subquery in FROM without an alias");  // before PostgreSQL 16
    if (d.lateral) {
      p.require(Construct::Lateral);
      p.word("LATERAL ");
    }
    p.word("(");
    p.query(*d.query);
    p.word(")");
    alias(p, d.alias);
  }

  void operator()(const ast::ValuesTable& v) const {
    if (v.rows.empty()) return p.fail("VALUES without rows");
    if (!v.alias && !p.sqlite()) return p.fail("VALUES in FROM without an alias");  // before PostgreSQL 16
    if (p.sqlite() && v.alias && !v.alias->columns.empty()) return sqlite_named_values(v);
    p.word("(");
    p.values(v.rows);
    p.word(")");
    alias(p, v.alias);
  }

  void operator()(const ast::SeriesTable& t) const {
    if (!p.sqlite() || t.kind.empty() || t.args.size() != 3 || !t.alias)
      return p.fail("a generate_series calendar outside SQLite's translation");
    p.word("pg_series(");
    for (const auto& a : t.args) {
      p.expr(a);
      p.word(", ");
    }
    p.word("'" + t.kind + "')");
    alias(p, t.alias);
  }

  // jsonb_each(x) AS e and its kin (admission/admit/json_rows.cpp). PostgreSQL:
  // as written (a function in FROM is implicitly LATERAL). SQLite: json_each
  // over pg_json_rows(x, 'function') (executors/sqlite/sqlite_json_rows.cpp),
  // which fails where PostgreSQL's function does and hands json_each the
  // elements with PostgreSQL's text; references read its key / value columns.
  void operator()(const ast::JsonRows& t) const {
    if (t.args.size() != 1 || t.function.empty()) return p.fail("a JSON row source without its one argument");
    if (p.sqlite()) {
      if (!t.on_sqlite) return p.fail("a JSON row source admission did not translate for SQLite");
      p.word("json_each(pg_json_rows(");
      p.expr(t.args.front());
      p.word(", ");
      p.string_literal(t.function);
      p.word(")) AS ");
      p.identifier(t.alias ? t.alias->name : t.function);
      return;
    }
    p.identifier(t.function);
    p.word("(");
    p.expr(t.args.front());
    p.word(")");
    alias(p, t.alias);
  }

  // SQLite names the columns of VALUES column1..N and cannot rename them in
  // the alias, so the renaming moves into a SELECT around the VALUES; the
  // FROM item has the same columns, names and rows as `(VALUES ...) AS v(id, name)`.
  void sqlite_named_values(const ast::ValuesTable& v) const {
    const auto& names = v.alias->columns;
    const std::size_t width = v.rows.front().size();
    if (names.size() > width) return p.fail("a VALUES alias with more column names than the rows have values");
    p.word("(SELECT ");
    for (std::size_t i = 0; i < width; ++i) {
      if (i > 0) p.word(", ");
      p.word("column" + std::to_string(i + 1));
      if (i < names.size()) {
        p.word(" AS ");
        p.identifier(names[i]);
      }
    }
    // The inner VALUES gets the same alias so that the text also parses with
    // PostgreSQL's grammar (which needs one) and goes through the gateway again unchanged.
    p.word(" FROM (");
    p.values(v.rows);
    p.word(") AS ");
    p.identifier(v.alias->name);
    p.word(") AS ");
    p.identifier(v.alias->name);
  }

  void operator()(const ast::Join& j) const {
    const bool cross = j.kind == ast::JoinKind::Cross;
    const bool qualified = j.on.has_value() || !j.using_columns.empty();
    if (cross && qualified) return p.fail("CROSS JOIN with ON or USING");
    if (!cross && !qualified) return p.fail("JOIN without ON or USING");
    if (j.on && !j.using_columns.empty()) return p.fail("JOIN with both ON and USING");
    // Joins group to the left in both grammars, so a join on the left needs no
    // parentheses; one on the right does.
    p.from_item(*j.left);
    p.word(join_words(j.kind));
    const bool nested = std::holds_alternative<ast::Join>(j.right->node);
    if (nested) p.word("(");
    p.from_item(*j.right);
    if (nested) p.word(")");
    if (j.on) {
      p.word(" ON ");
      p.expr(**j.on);
    } else if (!j.using_columns.empty()) {
      p.word(" USING (");
      p.identifiers(j.using_columns);
      p.word(")");
    }
  }
};

}  // namespace

void Printer::from_item(const ast::FromItem& item) {
  Nest nest(*this);
  if (!nest.ok()) return;
  std::visit(FromPrinter{*this}, item.node);
}

}  // namespace qg::render::detail
