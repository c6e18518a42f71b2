// A value written into text on SQLite as PostgreSQL writes it (issue #12, "one
// answer format"): the operand of || and of CAST(x AS text), by the type
// admission infers for it (value_types.cpp):
//
//   a boolean            → pg_bool_text(x)        'true' / 'false'   (SQLite: 1 / 0)
//   a float8             → pg_float8_text(x)      float8out: 1e-300, 0.30000000000000004, 3   (SQLite: 1.0e-300, 3.0)
//   a numeric, scale s   → pg_numeric_text(x, s)  '2.50', '-3'        (SQLite: 2.5, -3.0)
//   a jsonb value        → pg_jsonb_out(x)        jsonb's output form: keys shorter first, {"a": 1}
//
// (the functions: executors/sqlite/sqlite_values.cpp, sqlite_numbers.cpp). A numeric
// whose scale admission cannot tell is its exact decimal text where it is an exact
// computation (avg of integers, 1 / 3.0: PostgreSQL prints 16 or 20 decimals;
// numeric_scale_on_sqlite.cpp), else refused with the rounding that makes it exact. Literals are printed by
// numeric_literal_as_text.
#include <string>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {

// CAST(x AS boolean) on SQLite (which has no boolean type): pg_bool(x, 'text') reads PostgreSQL's boolean words
// ('t', 'yes', 'on', '1', ...; its error for the rest), pg_bool(x, 'int') an integer (0 false, else true); a boolean
// stays itself. PostgreSQL has no cast to boolean from bigint, numeric, float8, times or jsonb: its error, before the
// round trip. (Refused before: (attributes ->> 'stream')::boolean was among the refusals agents met most; outside
// testers s19b, s19d.)
Status Admitter::bool_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  auto* cast = std::get_if<ast::Cast>(&e.node);
  if (dialect_ != Dialect::Sqlite || !cast || cast->type.name != "bool") return {};
  const ValueType t = value_type(*cast->arg, ctx);
  // PostgreSQL casts integer (int4) to boolean, not smallint or bigint (count(*), sum(x), a bigint column).
  const bool integer = t.type == SqlType::Integer && !t.int8 && int_width(*cast->arg, ctx) != 2;
  const int at = e.location;
  ast::Expr arg = std::move(*cast->arg);
  if (t.type == SqlType::Boolean || null_literal(arg)) {
    if (null_literal(arg)) {  // NULL::boolean: a NULL typed boolean (value_types reads pg_bool's type)
      e = ast::make_call("pg_bool", {std::move(arg), ast::make_expr(ast::Literal{ast::LiteralKind::String, "text"})},
                         at);
    } else {
      e = std::move(arg);
      e.location = at;
    }
    replaced = true;
    note_rewrite("dialect:bool-cast");
    return {};
  }
  if (!integer && t.type != SqlType::Text && t.type != SqlType::Unknown && t.type != SqlType::Untyped) {
    *cast->arg = std::move(arg);
    return make_error(ErrorCode::ValidationUnsupported,
                      "CAST(" + shown(*cast->arg, dialect_) + " AS boolean) of " + sql_type_words(t, std::nullopt) +
                          " is PostgreSQL's error (\"cannot cast type ... to boolean\")",
                      "FIX: write the condition instead, e.g. " + shown(*cast->arg, dialect_) +
                          " <> 0, or cast an integer (CAST(x AS integer)) or a text ('true', 'false').",
                      pos(at));
  }
  e = ast::make_call("pg_bool",
                     {std::move(arg), ast::make_expr(ast::Literal{ast::LiteralKind::String, integer ? "int" : "text"})},
                     at);
  replaced = true;
  note_rewrite("dialect:bool-cast");
  return {};
}

Status Admitter::value_as_text_on_sqlite(ast::Expr& value, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  if (auto* l = std::get_if<ast::Literal>(&value.node)) {
    if (l->kind == ast::LiteralKind::Boolean) {  // true || 'a' → 'true' || 'a'
      const bool yes = l->text == "true" || l->text == "t";
      *l = ast::Literal{ast::LiteralKind::String, yes ? "true" : "false"};
      note_rewrite("dialect:boolean-as-text");
    }
    return {};
  }
  const ValueType t = value_type(value, ctx);
  std::string function;
  if (t.type == SqlType::Boolean)
    function = "pg_bool_text";
  else if (t.type == SqlType::Float)
    function = "pg_float8_text";
  else if (t.type == SqlType::Numeric && t.scale >= 0)
    function = "pg_numeric_text";
  else if (t.type == SqlType::Json)
    function = "pg_jsonb_out";
  else if (t.type == SqlType::Numeric) {
    // An exact computation (x / 3.0, avg(id), sum(x::numeric)): its decimal text has PostgreSQL's digits.
    if (exact_call(value)) {
      ast::Expr before = value;
      if (exact_text(value) && !double_of_exact(value)) {
        // A column of a derived table holding collated text (numeric_scale_on_sqlite.cpp): through a call, whose
        // text has no collation (CAST(x AS text) kept pg_numeric's, and ORDER BY the text sorted numerically).
        if (std::holds_alternative<ast::ColumnRef>(value.node)) {
          ast::FuncCall plain;
          plain.name = "pg_numeric_decimal";
          plain.args.push_back(std::move(value));
          plain.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "n"}));
          value = ast::make_expr(std::move(plain), before.location);
        }
        ast::Expr after = value;  // not when printed so already (admitted again, a reference is pg_numeric_value(v))
        without_values(after);
        without_values(before);
        if (!(after == before)) note_rewrite("dialect:numeric-as-text");
        return {};
      }
      value = std::move(before);
    }
    return make_error(
        ErrorCode::CapabilityNotOnSqlite,
        "the numeric " + shown(value, Dialect::Postgres) +
            " written as text on SQLite: PostgreSQL prints every decimal of its exact numeric (e.g. "
            "1.5000000000000000 for an avg), SQLite holds a double with other digits",
        "FIX: round it to the decimals you need first: CAST(round(" + written_whole(value) + ", 2) AS text).",
        pos(value.location >= 0 ? value.location : location));
  } else {
    return {};
  }
  const int at = value.location;
  ast::FuncCall printed;
  printed.name = function;
  printed.args.push_back(std::move(value));
  if (function == "pg_numeric_text")
    printed.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(t.scale)}));
  value = ast::make_expr(std::move(printed), at);
  note_rewrite(function == "pg_bool_text"     ? "dialect:boolean-as-text"
               : function == "pg_float8_text" ? "dialect:float-as-text"
               : function == "pg_jsonb_out"   ? "dialect:jsonb-as-text"
                                              : "dialect:numeric-as-text");
  return {};
}

Status Admitter::concat_types_on_sqlite(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const SqlType ta = value_type(a, ctx).type, tb = value_type(b, ctx).type;
  // jsonb || jsonb (or a quoted literal, read as jsonb) merges objects and arrays in PostgreSQL; SQLite would
  // join the two texts (attributes || '{"x": 1}' answered text that is not JSON).
  if (ta == SqlType::Json || tb == SqlType::Json)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "jsonb || ... merges JSON values in PostgreSQL; SQLite would join the two texts",
                      "FIX: on SQLite, join text read from the JSON: (" + shown(ta == SqlType::Json ? a : b, dialect_) +
                          " ->> 'key') || ' ...'; merging jsonb values is PostgreSQL's only.",
                      pos(location));
  auto printed = [](SqlType t) {
    return t == SqlType::Boolean || t == SqlType::Float || t == SqlType::Numeric || t == SqlType::Integer;
  };
  auto other = [](SqlType t) { return t == SqlType::Time; };
  // One side printed (a boolean, a number), the other not text either: PostgreSQL's `anynonarray || text`
  // needs a text (or an untyped literal or NULL) on one side.
  if (!((printed(ta) && (printed(tb) || other(tb))) || (printed(tb) && other(ta)))) return {};
  auto name = [](SqlType t) {
    return t == SqlType::Boolean   ? "boolean"
           : t == SqlType::Float   ? "double precision"
           : t == SqlType::Numeric ? "numeric"
           : t == SqlType::Integer ? "integer"
                                   : "a time";
  };
  return make_error(ErrorCode::ValidationUnsupported,
                    std::string("operator does not exist: ") + name(ta) + " || " + name(tb) +
                        " (PostgreSQL joins text with a value, not two values that are not text)",
                    "FIX: cast one side to text: CAST(a AS text) || b.", pos(location));
}

}  // namespace qg::admit::detail
