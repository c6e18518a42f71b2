// FROM items: tables, derived tables, VALUES, joins. Functions in FROM are
// refused here (they are where a past allowlist let pg_read_file through),
// except the jsonb row sources (jsonb_each, ...: ast::JsonRows).
#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>

#include "admission/capability/capability.hpp"
#include "admission/convert/convert_internal.hpp"

namespace qg::convert::detail {
namespace {
std::optional<int> pos(int location) {
  return location >= 0 ? std::optional<int>(location) : std::nullopt;
}
}  // namespace

// jsonb_each(x) AS e, jsonb_object_keys(x) AS k, ... (admission/admit/json_rows.cpp admits them): one plain
// call of one of these functions, without WITH ORDINALITY, ROWS FROM or a column definition list. nullopt:
// not such a call (refused as any function in FROM).
std::optional<Result<ast::FromItem>> Converter::json_rows(object o, int loc) {
  auto functions = list_field(o, "functions");
  if (!functions || functions->size() != 1) return std::nullopt;
  auto pair = as_node((*functions).at(0));
  if (!pair || pair->kind != "List") return std::nullopt;
  auto items = list_field(pair->fields, "items");
  if (!items || items->size() != 2) return std::nullopt;
  auto call_node = as_node(items->at(0));
  if (!call_node || call_node->kind != "FuncCall") return std::nullopt;
  if (auto coldefs = as_node(items->at(1)); coldefs) return std::nullopt;  // a column definition list
  auto funcname = list_field(call_node->fields, "funcname");
  if (!funcname || funcname->size() != 1) return std::nullopt;  // schema-qualified: another function
  auto name_node = as_node(funcname->at(0));
  if (!name_node || name_node->kind != "String") return std::nullopt;
  std::string name(string_field(name_node->fields, "sval"));
  const bool jsonb = capability::row_source_in_from(name);
  const bool json = !jsonb && name.starts_with("json_") && capability::row_source_in_from("jsonb" + name.substr(4));
  if (!jsonb && !json) return std::nullopt;
  auto call = expr(items->at(0));
  if (!call) return Result<ast::FromItem>(std::move(call).error());
  auto* f = std::get_if<ast::FuncCall>(&call->node);
  if (!f) return std::nullopt;
  // Only what PostgreSQL's jsonb functions mean the same on both backends: a plain call, a plain alias.
  if (bool_field(o, "ordinality") || bool_field(o, "is_rowsfrom") || list_field(o, "coldeflist"))
    return Result<ast::FromItem>(make_error(
        ErrorCode::ValidationUnsupported, name + "(...) WITH ORDINALITY, ROWS FROM or a column list",
        "FIX: write " + name + "(x) AS alias, and number the rows with row_number() OVER () if needed.", pos(loc)));
  if (f->star || f->distinct || f->over || f->filter || !f->order_by.empty() || !f->within_group.empty())
    return std::nullopt;
  if (json)
    return Result<ast::FromItem>(make_error(
        ErrorCode::ValidationFunctionNotAllowed,
        name +
            "() in FROM is not admitted: querygate admits the jsonb_* row sources (the JSON columns here are "
            "jsonb, and PostgreSQL has no " +
            name + "(jsonb))",
        "FIX: write jsonb" + name.substr(4) + "(x), e.g. SELECT k FROM spans, jsonb" + name.substr(4) +
            "(attributes) AS k.",
        pos(loc)));
  auto a = alias(o);
  if (!a) return Result<ast::FromItem>(std::move(a).error());
  return Result<ast::FromItem>(
      ast::FromItem{ast::JsonRows{std::move(name), std::move(f->args), std::move(a).value()}, loc});
}

Result<ast::FromItem> Converter::from_item(element e) {
  DepthGuard guard(*this);
  auto n = as_node(e);
  if (!n) return make_error(ErrorCode::Internal, "parse tree: expected a FROM item");
  const object o = n->fields;
  // Of the FROM item kinds only RangeVar has a location field; the others take their first part's.
  int loc = n->kind == "RangeVar" ? location_of(o) : first_location(e);
  if (auto s = check_depth(loc); !s) return s.error();

  if (n->kind == "RangeVar") {
    if (auto s = only_fields(o, {"catalogname", "schemaname", "relname", "inh", "relpersistence", "alias", "location"},
                             "a table reference", loc);
        !s)
      return s.error();
    const std::string rel(string_field(o, "relname"));
    const auto schema = string_field(o, "schemaname");
    const auto catalog = string_field(o, "catalogname");
    if (!catalog.empty()) {
      std::string written = catalog.empty() ? "" : std::string(catalog) + ".";
      written += std::string(schema) + "." + rel;
      return make_error(ErrorCode::ValidationQualifiedName,
                        "'" + written +
                            "' names a schema or database: only the allowlisted tables of this database "
                            "are visible",
                        "FIX: write the bare table name " + rel + ".", pos(loc));
    }
    if (!bool_field(o, "inh")) return unsupported("FROM ONLY", loc, "FIX: write FROM " + rel + " without ONLY.");
    auto a = alias(o);
    if (!a) return std::move(a).error();
    // A schema prefix is kept for admission, which knows the schema the
    // database serves (PostgreSQL's schema:, SQLite's main).
    return ast::FromItem{ast::TableRef{rel, std::move(a).value(), loc, std::string(schema)}, loc};
  }

  if (n->kind == "RangeSubselect") {
    if (auto s = only_fields(o, {"lateral", "subquery", "alias"}, "a subquery in FROM", loc); !s) return s.error();
    auto a = alias(o);
    if (!a) return std::move(a).error();
    auto sub = field(o, "subquery");
    if (!sub) return make_error(ErrorCode::Internal, "parse tree: RangeSubselect without subquery");
    const bool lateral = bool_field(o, "lateral");
    // (VALUES ...) AS v(a, b) is its own FROM item: it reads no table.
    if (auto sn = as_node(*sub); sn && sn->kind == "SelectStmt" && list_field(sn->fields, "valuesLists") &&
                                 !field(sn->fields, "sortClause") && !field(sn->fields, "limitCount") &&
                                 !field(sn->fields, "limitOffset") && !field(sn->fields, "withClause") && !lateral) {
      auto q = query(sn->fields, loc);
      if (!q) return std::move(q).error();
      ast::ValuesTable v;
      v.rows = std::move(std::get<ast::Values>(q->body).rows);
      v.alias = std::move(a).value();
      return ast::FromItem{std::move(v), loc};
    }
    auto q = query_node(*sub, loc);
    if (!q) return std::move(q).error();
    if (loc < 0) loc = q->location;
    return ast::FromItem{ast::DerivedTable{std::move(q).value(), std::move(a).value(), lateral}, loc};
  }

  if (n->kind == "JoinExpr") {
    if (auto s = only_fields(
            o,
            {"jointype", "isNatural", "larg", "rarg", "usingClause", "quals", "alias", "rtindex", "join_using_alias"},
            "a join", loc);
        !s)
      return s.error();
    if (auto l = field(o, "larg")) loc = first_location(*l);
    if (bool_field(o, "isNatural")) {
      if (auto r = field(o, "rarg")) loc = first_location(*r);  // right after the NATURAL JOIN keywords
    }
    if (bool_field(o, "isNatural"))
      return make_error(ErrorCode::ValidationNaturalJoin,
                        "NATURAL JOIN joins on every column that happens to share a name",
                        "FIX: name the join columns with ON a.x = b.x or USING (x).", pos(loc));
    if (field(o, "alias") || field(o, "join_using_alias"))
      return unsupported("an alias on a join", loc, "FIX: alias the tables inside the join instead.");
    ast::Join j;
    const auto type = string_field(o, "jointype");
    if (type == "JOIN_LEFT")
      j.kind = ast::JoinKind::Left;
    else if (type == "JOIN_RIGHT")
      j.kind = ast::JoinKind::Right;
    else if (type == "JOIN_FULL")
      j.kind = ast::JoinKind::Full;
    else if (type == "JOIN_INNER" || type.empty())
      j.kind = ast::JoinKind::Inner;
    else
      return unsupported("this join type", loc);
    auto l = field(o, "larg");
    auto r = field(o, "rarg");
    if (!l || !r) return make_error(ErrorCode::Internal, "parse tree: join without both sides");
    auto left = from_item(*l);
    if (!left) return std::move(left).error();
    auto right = from_item(*r);
    if (!right) return std::move(right).error();
    if (loc < 0) loc = left->location;
    j.left = std::move(left).value();
    j.right = std::move(right).value();
    if (auto using_cols = list_field(o, "usingClause"))
      for (element c : *using_cols)
        if (auto s = string_node(c)) j.using_columns.emplace_back(*s);
    if (auto quals = field(o, "quals")) {
      auto x = expr(*quals);
      if (!x) return std::move(x).error();
      j.on = ast::Box<ast::Expr>(std::move(x).value());
    }
    if (j.kind == ast::JoinKind::Inner && !j.on && j.using_columns.empty()) j.kind = ast::JoinKind::Cross;
    return ast::FromItem{std::move(j), loc};
  }

  if (n->kind == "RangeFunction") {
    // FROM user / FROM current_user: a keyword the grammar reads as a session function.
    std::string keyword;
    std::function<void(element)> find_keyword = [&](element x) {
      if (auto node = as_node(x); node && node->kind == "SQLValueFunction")
        keyword = std::string(string_field(node->fields, "op"));
      object xo;
      array xa;
      if (!x.get_object().get(xo))
        for (auto [k, v] : xo) find_keyword(v);
      else if (!x.get_array().get(xa))
        for (element v : xa) find_keyword(v);
    };
    find_keyword(e);
    if (!keyword.empty()) {
      std::string word = keyword.substr(keyword.find('_') + 1);  // "SVFOP_USER" → "USER"
      for (auto& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return make_error(
          ErrorCode::ParseSqliteSpelling, "FROM " + word + " reads as the session keyword " + word + ", not a table",
          "FIX: if " + word + " is a table, double-quote its name: FROM \"" + word + "\".", pos(first_location(e)));
    }
    if (auto rows = json_rows(o, loc)) return std::move(*rows);
    // `loc` already points at the first function it calls (the node has no location of its own).
    return make_error(ErrorCode::ValidationFunctionNotAllowed, "a function call in FROM is not admitted",
                      "FIX: read from an allowlisted table (see GET /v1/schema) and call functions in the select list "
                      "or WHERE clause.",
                      pos(loc));
  }
  return unsupported(sql_words(n->kind) + " in FROM", loc);
}

}  // namespace qg::convert::detail
