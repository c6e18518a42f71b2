// PostgreSQL's jsonb path spellings on SQLite (issue #12), each a `dialect:`
// rewrite into what SQLite already runs exactly:
//
//   x #>> '{a,b}'  /  jsonb_extract_path_text(x, 'a', 'b')  → x -> 'a' ->> 'b'
//   x #>  '{a,b}'  /  jsonb_extract_path(x, 'a', 'b')       → x -> 'a' -> 'b'
//   x ? 'key'                                               → pg_jsonb_exists(x, 'key')
//
// The arrow chain is then admitted as written (admit/dialect.cpp json_arrow: a
// key is a key on every backend, lineage as for any arrow). A path element that
// reads as an integer is an array index or an object key depending on the
// value (PostgreSQL decides per row), so it is refused with the arrow spelling
// that says which. pg_jsonb_exists (executors/sqlite/sqlite_json.cpp) is
// PostgreSQL's jsonb_exists: a top-level key of an object, a string element of
// an array, or the string itself.
#include <cctype>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

bool integer_like(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The elements of a text[] literal such as '{a,"llm.model_name"}': unquoted elements (blanks around them
// dropped) and double-quoted ones without backslashes. Anything else: nullopt.
std::optional<std::vector<std::string>> path_elements(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') return std::nullopt;
  s = s.substr(1, s.size() - 2);
  std::vector<std::string> out;
  while (true) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    std::string element;
    if (!s.empty() && s.front() == '"') {
      const auto close = s.find('"', 1);
      if (close == std::string_view::npos) return std::nullopt;
      element = std::string(s.substr(1, close - 1));
      if (element.find('\\') != std::string::npos) return std::nullopt;
      s.remove_prefix(close + 1);
      while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    } else {
      const auto end = s.find(',');
      std::string_view raw = s.substr(0, end);
      while (!raw.empty() && blank(raw.back())) raw.remove_suffix(1);
      if (raw.empty() || raw.find_first_of("{}\"\\") != std::string_view::npos) return std::nullopt;
      // An unquoted NULL is a NULL element in PostgreSQL's array input.
      if (raw.size() == 4 && std::toupper(static_cast<unsigned char>(raw[0])) == 'N' &&
          std::toupper(static_cast<unsigned char>(raw[1])) == 'U' &&
          std::toupper(static_cast<unsigned char>(raw[2])) == 'L' &&
          std::toupper(static_cast<unsigned char>(raw[3])) == 'L')
        return std::nullopt;
      element = std::string(raw);
      s.remove_prefix(end == std::string_view::npos ? s.size() : end);
    }
    out.push_back(std::move(element));
    if (s.empty()) break;
    if (s.front() != ',') return std::nullopt;
    s.remove_prefix(1);
  }
  return out;
}

ast::Expr arrow(std::string op, ast::Expr left, std::string key) {
  return ast::make_expr(
      ast::Operator{std::move(op), ast::Box<ast::Expr>(std::move(left)),
                    ast::Box<ast::Expr>(ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(key)}))});
}

}  // namespace

Status Admitter::json_path_on_sqlite(ast::Expr& e, bool& replaced) {
  replaced = false;
  if (dialect_ != Dialect::Sqlite) return {};
  const int location = e.location;
  // The document is taken out of `e` only once the path is known to translate: a refusal leaves `e` whole (taken
  // before, '[1, 2]'::jsonb #>> '{1}' left a hollow operand that the refusal's printing followed: the gateway
  // crashed; outside tester s20b).
  ast::Expr* document = nullptr;
  std::vector<std::string> keys;
  bool as_text = false;
  std::string written;
  if (auto* op = std::get_if<ast::Operator>(&e.node); op && op->left && (op->op == "#>>" || op->op == "#>")) {
    const auto* path = std::get_if<ast::Literal>(&op->right->node);
    written = "x " + op->op + " '{...}'";
    auto elements = path && path->kind == ast::LiteralKind::String ? path_elements(path->text) : std::nullopt;
    if (!elements || elements->empty())
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        written + " is translated on SQLite for a literal path of one or more keys only",
                        "FIX: write the keys as a literal path, e.g. attributes #>> '{llm,model_name}', or chain "
                        "the arrows: attributes -> 'llm' ->> 'model_name'.",
                        pos(location));
    keys = std::move(*elements);
    as_text = op->op == "#>>";
    document = &**op->left;
  } else if (auto* f = std::get_if<ast::FuncCall>(&e.node);
             f && (f->name == "jsonb_extract_path_text" || f->name == "jsonb_extract_path")) {
    written = f->name + "(...)";
    if (f->args.size() < 2 || f->over || f->star || f->distinct || f->filter) return {};
    for (std::size_t i = 1; i < f->args.size(); ++i) {
      const auto* key = std::get_if<ast::Literal>(&f->args[i].node);
      if (!key || key->kind != ast::LiteralKind::String)
        return make_error(
            ErrorCode::CapabilityNotOnSqlite, f->name + "() is translated on SQLite for literal keys only",
            "FIX: write the keys as text literals, e.g. " + f->name + "(attributes, 'llm', 'model_name').",
            pos(f->args[i].location >= 0 ? f->args[i].location : location));
      keys.push_back(key->text);
    }
    as_text = f->name.ends_with("_text");
    document = &f->args.front();
  } else {
    return {};
  }
  for (const auto& k : keys)
    if (integer_like(k))
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        written + " with the path element '" + k +
                            "': PostgreSQL reads it as an array index or an object key depending on each row's value",
                        "FIX: if it is an object key, chain the arrows with the key as text: x -> '" + k +
                            "' (an array index on SQLite is exact only where the value is an array).",
                        pos(location));
  ast::Expr chain = std::move(*document);
  for (std::size_t i = 0; i < keys.size(); ++i)
    chain = arrow(as_text && i + 1 == keys.size() ? "->>" : "->", std::move(chain), keys[i]);
  chain.location = location;
  e = std::move(chain);
  note_rewrite("dialect:json-path-chain");
  replaced = true;
  return {};
}

// CAST(x AS jsonb) on SQLite (agents write attributes::jsonb ->> 'key' out of habit; refused before, outside tester
// s14): of a jsonb value nothing (it is one already); of text pg_jsonb_in(x) (executors/sqlite/sqlite_json.cpp),
// jsonb's output form of the JSON text, PostgreSQL's error for text that is not JSON. PostgreSQL has no cast to jsonb
// from a number or a boolean: its error, with to_jsonb's FIX.
Status Admitter::jsonb_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool json_read, bool& replaced) {
  auto& cast = std::get<ast::Cast>(e.node);
  if (dialect_ != Dialect::Sqlite || cast.type.name != "jsonb") return {};
  const SqlType from = value_type(*cast.arg, ctx).type;
  const int at = e.location;
  if (from == SqlType::Json) {
    ast::Expr value = std::move(*cast.arg);
    value.location = at;
    e = std::move(value);
  } else if ((from == SqlType::Text || from == SqlType::Untyped || from == SqlType::Null) && !json_read) {
    // Compared, grouped, sorted or shown, SQLite would use the text ('1.0'::jsonb = '1'::jsonb false, true in
    // PostgreSQL; a cast of attributes::text equal to attributes in 37 347 rows of 63 176; outside tester s14c).
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a jsonb value cast from text is read on SQLite only by ->, ->>, #>, #>> and the jsonb "
                      "functions: SQLite would compare, group and sort its text, not the jsonb value",
                      "FIX: read what you need from it, e.g. CAST(x AS jsonb) ->> 'key', or compare the text: x = "
                      "'{\"a\": 1}'.",
                      pos(at));
  } else if (from == SqlType::Text || from == SqlType::Untyped || from == SqlType::Null) {
    ast::FuncCall in;
    in.name = "pg_jsonb_in";
    in.args.push_back(std::move(*cast.arg));
    e = ast::make_expr(std::move(in), at);
    // Its growth is checked as the re-check will (a text aggregate cast to jsonb: a 500 there; s20d).
    if (auto s = check_size(e, ctx); !s) return s;
  } else {
    return make_error(ErrorCode::ValidationUnsupported,
                      "cannot cast type " + sql_type_words(value_type(*cast.arg, ctx), std::nullopt) +
                          " to jsonb (PostgreSQL has no such cast)",
                      "FIX: write to_jsonb(x) for the JSON value of a number or boolean, or cast JSON text: "
                      "CAST('{\"a\": 1}' AS jsonb).",
                      pos(at));
  }
  replaced = true;
  note_rewrite("dialect:jsonb-cast");
  return {};
}

Status Admitter::json_exists_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  auto* op = std::get_if<ast::Operator>(&e.node);
  if (dialect_ != Dialect::Sqlite || !op || op->op != "?" || !op->left) return {};
  const auto* key = std::get_if<ast::Literal>(&op->right->node);
  if (value_type(**op->left, ctx).type != SqlType::Json || !key || key->kind != ast::LiteralKind::String)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "x ? 'key' is translated on SQLite for a JSON column (or an arrow into one) and a literal key",
                      "FIX: test a key of a JSON column with a literal, e.g. attributes ? 'exception.message', or "
                      "attributes ->> 'exception.message' IS NOT NULL.",
                      pos(e.location));
  ast::FuncCall f;
  f.name = "pg_jsonb_exists";
  f.args.push_back(std::move(**op->left));
  f.args.push_back(std::move(*op->right));
  const int location = e.location;
  e = ast::make_expr(std::move(f), location);
  note_rewrite("dialect:jsonb-exists");
  replaced = true;
  return {};
}

// jsonb_typeof(x) / jsonb_array_length(x) of a jsonb value (a JSON column, an arrow into one) on SQLite:
// pg_jsonb_typeof / pg_jsonb_array_length (executors/sqlite/sqlite_json.cpp), PostgreSQL's words and errors
// (SQLite's json_type says integer/real/text/true, and json_array_length answers 0 for a scalar).
Status Admitter::json_function_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (dialect_ != Dialect::Sqlite || !f || (f->name != "jsonb_typeof" && f->name != "jsonb_array_length")) return {};
  const std::string name = f->name;
  if (f->args.size() != 1 || f->over || f->distinct || f->star || f->filter || !f->order_by.empty())
    return make_error(
        ErrorCode::CapabilityNotOnSqlite, name + "() takes one jsonb value",
        "FIX: write " + name + "(x) with x a JSON column or an arrow into one, e.g. " + name + "(attributes -> 'key').",
        pos(e.location));
  if (value_type(f->args.front(), ctx).type != SqlType::Json)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      name + "() takes a jsonb value (PostgreSQL has no " + name + "(text))",
                      "FIX: pass a JSON column or an arrow into one that keeps the JSON: " + name +
                          "(attributes -> 'key'), not ->> (which gives text).",
                      pos(f->args.front().location));
  f->name = "pg_" + name;
  note_rewrite("dialect:" + name);
  return {};
}

// Found by the differential property (tests/parity/differential_found.sql, diff-001): ORDER BY a jsonb
// column on SQLite sorted the stored text ('"str"' before '1' before '{...}'); PostgreSQL sorts by jsonb's
// order (null < strings < numbers < booleans < arrays < objects, objects by their number of pairs first).
Status Admitter::json_sort_on_sqlite(const ast::Expr& sorted, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return {};
  if (value_type(sorted, ctx).type != SqlType::Json) return {};
  auto text = render::render_expr(sorted, Dialect::Postgres);
  const std::string what = !text ? "the value" : text->size() > 60 ? text->substr(0, 57) + "..." : *text;
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "ORDER BY a jsonb value (" + what +
                        ") on SQLite: PostgreSQL sorts by jsonb's own order (strings before numbers before "
                        "booleans before arrays before objects), SQLite would sort the JSON text",
                    "FIX: order by a key read as text or a number: ORDER BY " + what + " ->> 'key', or CAST(" + what +
                        " ->> 'key' AS numeric).",
                    pos(sorted.location));
}

// Found by the differential property (open-11): ORDER BY 1 of a UNION whose first column is jsonb sorted
// the JSON text on SQLite. A set operation's ORDER BY names an output column by position or name only.
std::optional<std::size_t> sorted_output_column(const ast::SortItem& item, const std::vector<std::string>& names) {
  std::optional<std::size_t> column;
  if (const auto k = ast::integer_value(*item.expr); k && std::holds_alternative<ast::Literal>(item.expr->node) &&
                                                     *k >= 1 && static_cast<std::size_t>(*k) <= names.size())
    column = static_cast<std::size_t>(*k - 1);
  if (const auto* ref = std::get_if<ast::ColumnRef>(&item.expr->node); ref && !ref->star && ref->table.empty())
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == ref->column) column = i;
  return column;
}

Status Admitter::json_set_sort_on_sqlite(const std::vector<ast::SortItem>& order_by,
                                         const std::vector<std::string>& names, const std::vector<ValueType>& types) {
  if (dialect_ != Dialect::Sqlite) return {};
  for (const auto& item : order_by) {
    const auto column = sorted_output_column(item, names);
    if (!column || *column >= types.size() || types[*column].type != SqlType::Json) continue;
    const std::string name = names[*column];
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "ORDER BY the jsonb column " + name +
                          " of a UNION / INTERSECT / EXCEPT on SQLite: PostgreSQL sorts by jsonb's own order "
                          "(strings before numbers before booleans before arrays before objects), SQLite would "
                          "sort the JSON text",
                      "FIX: select a key read as text or a number in each part and order by that column: SELECT " +
                          name + " ->> 'key' AS k ... UNION ... ORDER BY k (or CAST(" + name +
                          " ->> 'key' AS numeric)).",
                      pos(item.expr->location >= 0 ? item.expr->location : 0));
  }
  return {};
}

}  // namespace qg::admit::detail
