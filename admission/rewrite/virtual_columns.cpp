#include "admission/rewrite/virtual_columns.hpp"

#include <functional>

#include "admission/admit/admit.hpp"
#include "admission/ast/walk.hpp"
#include "admission/convert/convert.hpp"
#include "admission/parse/parser.hpp"
#include "admission/render/render.hpp"

namespace qg::rewrite {
namespace {

Error invalid(const std::string& key, const std::string& why, const std::string& fix) {
  return make_error(ErrorCode::ConfigInvalid, "'" + key + "': " + why, fix);
}

}  // namespace

void qualify_columns(ast::Expr& e, const std::string& relation) {
  if (auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
    ref->table = relation;
    ref->configured = true;  // the operator's expression: it may read columns hidden from callers
    return;
  }
  ast::for_each_child(e, [&](ast::Expr& child) { qualify_columns(child, relation); });
}

Status attach_virtual_columns(catalog::Catalog& catalog, const config::Database& database) {
  const Dialect d = catalog.dialect;
  for (const auto& curation : database.tables) {
    if (curation.virtual_columns.empty()) continue;
    catalog::Table* table = nullptr;
    for (auto& t : catalog.tables)
      if (catalog::Catalog::same_name(t.name, curation.name, d)) table = &t;
    if (!table) continue;  // the executor already refused an allowlisted table that does not exist
    for (const auto& [name, column] : curation.virtual_columns) {
      const std::string key = "databases." + database.name + ".tables." + curation.name + ".virtual_columns." + name +
                              "." + std::string(dialect_name(d));
      const std::string& text = d == Dialect::Sqlite ? column.sqlite : column.postgres;
      if (table->find_column(name, d))
        return invalid(key, "'" + name + "' is already a physical column of " + table->name,
                       "Give the virtual column another name.");
      // Admit it as a caller's statement would be: same grammar, same capability table, physical columns only.
      const std::string statement = "SELECT " + text + " FROM " + render::quote_identifier(table->name, d);
      auto json = parse::parse_to_json(statement);
      if (!json) return invalid(key, "does not parse: " + json.error().message, "Write one SQL expression.");
      auto tree = convert::convert_statement(*json, statement);
      if (!tree) return invalid(key, tree.error().message, tree.error().fix);
      auto* select = std::get_if<ast::Select>(&tree->body);
      if (!select || select->items.size() != 1 || !tree->with.empty() || select->where || !select->group_by.empty())
        return invalid(key, "must be exactly one expression", "Write one SQL expression, without commas or clauses.");
      if (ast::has_subquery(select->items.front().expr))
        return invalid(key, "must not contain a subquery", "Compute the value from this table's own columns.");
      // The operator wrote it: it may read hidden columns (marked before admission sees them).
      qualify_columns(select->items.front().expr, table->name);
      catalog::Catalog physical_only = catalog;
      for (auto& t : physical_only.tables) t.virtual_columns.clear();
      auto admitted = admit::admit(*tree, physical_only, statement);  // may apply dialect rewrites in place
      if (!admitted) return invalid(key, admitted.error().message, admitted.error().fix);
      ast::Expr expr = std::get<ast::Select>(tree->body).items.front().expr;
      qualify_columns(expr, table->name);
      catalog::VirtualColumn v;
      v.name = name;
      v.expression_text = text;
      v.expression = std::make_shared<const ast::Expr>(std::move(expr));
      v.comment = column.comment;
      v.unit = column.unit;
      // Computed from end-user text is end-user text: the schema and lineage both say so.
      std::function<bool(const ast::Expr&)> reads_untrusted = [&](const ast::Expr& e) {
        if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
          const auto* c = table->find_column(ref->column, d);
          return c && c->untrusted;
        }
        bool any = false;
        ast::for_each_child(e, [&](const ast::Expr& child) { any = any || reads_untrusted(child); });
        return any;
      };
      v.untrusted = column.untrusted || reads_untrusted(*v.expression);
      table->virtual_columns.push_back(std::move(v));
    }
  }
  return {};
}

}  // namespace qg::rewrite
