// PostgreSQL's text functions and regular expressions on SQLite (issue #12),
// typed at admission: each call is replaced by a function querygate registers
// on SQLite connections (executors/sqlite/sqlite_text.cpp), or by SQLite's own
// where it means the same (char_length -> length, btrim -> trim), and reported
// as a `dialect:` rewrite. What cannot be made exact is refused with a FIX:
// concat() of a float, numeric or boolean (printed differently by the two
// engines), a non-literal regular expression, a pattern outside the subset
// common/pg_regex.hpp translates. PostgreSQL runs all of this natively.
#include <cctype>

#include "admission/admit/admitter.hpp"
#include "common/pg_regex.hpp"

namespace qg::admit::detail {
namespace {

const ast::Literal* string_literal(const ast::Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::String ? l : nullptr;
}

ast::Expr text(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool texty(SqlType t) {
  return t == SqlType::Text || t == SqlType::Untyped || t == SqlType::Null;
}

}  // namespace

Status Admitter::text_argument_on_sqlite(ast::Expr& arg, const ExprContext& ctx, const std::string& function,
                                         bool printed) {
  const int loc = arg.location;
  if (printed) {
    // A time as PostgreSQL prints it (as || does): a stored column's text, a computed time through pg_cast.
    if (timestamp_column(arg, ctx)) return time_as_text_on_sqlite(arg, ctx, loc);
    if (computed_time(arg, ctx)) {
      const auto k = time_kind(arg, ctx);
      ast::FuncCall f;
      f.name = "pg_cast";
      f.args = {std::move(arg), text(std::string(pgtime::kind_name(*k))), text("text")};
      arg = ast::make_expr(std::move(f), loc);
      note_rewrite("dialect:time-as-text");
      return {};
    }
    if (numeric_literal_as_text(arg)) return {};
  }
  const SqlType t = value_type(arg, ctx).type;
  if (texty(t) || (printed && t == SqlType::Integer)) return {};
  // concat() prints each value with its type's output function (as || and CAST(x AS text) do, but a boolean's
  // is 't' / 'f' there).
  if (printed && (t == SqlType::Float || t == SqlType::Numeric || t == SqlType::Json || t == SqlType::Boolean)) {
    if (auto s = value_as_text_on_sqlite(arg, ctx, loc); !s) return s;
    if (t == SqlType::Boolean) {  // 'true' / 'false' → 't' / 'f'
      ast::FuncCall first;
      first.name = "substr";
      first.args.push_back(std::move(arg));
      first.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1"}));
      first.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "1"}));
      arg = ast::make_expr(std::move(first), loc);
    }
    return {};
  }
  // A column SQLite stores with TEXT affinity holds text (numbers written into it are stored as their text),
  // which is what these functions read, even where querygate does not type it as text for comparisons.
  if (const auto* c = t == SqlType::Unknown ? base_column(arg, ctx) : nullptr) {
    const std::string declared = lower(c->type);
    if (declared.find("int") == std::string::npos &&
        (declared.find("char") != std::string::npos || declared.find("clob") != std::string::npos ||
         declared.find("text") != std::string::npos))
      return {};
  }
  const std::string what = t == SqlType::Float     ? "a floating-point number"
                           : t == SqlType::Numeric ? "a numeric"
                           : t == SqlType::Boolean ? "a boolean"
                           : t == SqlType::Json    ? "a JSON value"
                           : t == SqlType::Time    ? "a time"
                           : t == SqlType::Integer ? "an integer"
                                                   : "a value of a type querygate cannot tell";
  const bool op = function.starts_with("the operator");
  std::string fix;
  if (t == SqlType::Json)
    fix = "FIX: read a key as text with x ->> 'key' and pass that to " + function + "().";
  else if (t == SqlType::Boolean)
    fix = "FIX: spell the value as text: CASE WHEN <condition> THEN 'true' ELSE 'false' END.";
  else if (t == SqlType::Float || t == SqlType::Numeric)
    fix =
        "FIX: round it to an integer first: CAST(round(x) AS bigint), or to a fixed number of decimals and cast "
        "that to text: CAST(round(CAST(x AS numeric), 2) AS text) || ...";
  else if (op)
    fix = "FIX: match text: CAST(x AS text) " + function.substr(13) + " 'pattern'.";
  else
    fix = "FIX: pass text: " + function + "(CAST(x AS text), ...).";
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    function + (op ? "" : "()") + " on SQLite takes text" + (printed ? " or integers" : "") + ", not " +
                        what + (printed ? " (SQLite prints it differently from PostgreSQL)" : ""),
                    fix, pos(loc));
}

Status Admitter::text_function_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto& f = std::get<ast::FuncCall>(e.node);
  const std::string name = f.name;
  static constexpr std::string_view kTranslated[] = {
      "concat",  "concat_ws",      "left",        "right",        "split_part",       "strpos",      "position",
      "initcap", "reverse",        "starts_with", "char_length",  "character_length", "ascii",       "octet_length",
      "btrim",   "regexp_replace", "regexp_like", "regexp_count", "regexp_substr",    "regexp_match"};
  if (std::find(std::begin(kTranslated), std::end(kTranslated), name) == std::end(kTranslated)) return {};
  const int loc = e.location;
  auto refuse = [&](const std::string& why, const std::string& fix) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, why, fix, pos(loc));
  };
  if (f.over || f.distinct || f.star || f.filter || !f.order_by.empty())
    return refuse(name + "() is a scalar function", "FIX: call " + name + "(...) without OVER, DISTINCT or FILTER.");
  auto arity = [&](std::size_t low, std::size_t high, const std::string& form) -> Status {
    if (f.args.size() < low || f.args.size() > high)
      return refuse("this form of " + name + "() is not translated on SQLite", "FIX: write " + form + ".");
    return {};
  };
  auto integer_arg = [&](std::size_t i) -> Status {
    const SqlType t = value_type(f.args[i], ctx).type;
    if (t == SqlType::Integer || t == SqlType::Null) return {};
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      name + "(): argument " + std::to_string(i + 1) + " must be an integer",
                      "FIX: pass an integer, e.g. CAST(x AS integer).", pos(f.args[i].location));
  };
  auto done = [&](std::string to, std::string_view rewrite) {
    f.name = std::move(to);
    f.sql_syntax = false;  // POSITION(a IN b) is printed as the plain call it became
    note_rewrite(rewrite);
    return Status{};
  };

  if (name == "concat" || name == "concat_ws") {
    if (auto s = arity(name == "concat" ? 1 : 2, 100, name + "(a, b, ...)"); !s) return s;
    for (std::size_t i = 0; i < f.args.size(); ++i)
      if (auto s = text_argument_on_sqlite(f.args[i], ctx, name, !(name == "concat_ws" && i == 0)); !s) return s;
    return done("pg_" + name, "dialect:" + name);
  }
  if (name == "left" || name == "right") {
    if (auto s = arity(2, 2, name + "(x, n)"); !s) return s;
    if (auto s = text_argument_on_sqlite(f.args[0], ctx, name, false); !s) return s;
    if (auto s = integer_arg(1); !s) return s;
    return done("pg_" + name, "dialect:" + name);
  }
  if (name == "split_part") {
    if (auto s = arity(3, 3, "split_part(x, delimiter, n)"); !s) return s;
    for (std::size_t i : {0, 1})
      if (auto s = text_argument_on_sqlite(f.args[i], ctx, name, false); !s) return s;
    if (auto s = integer_arg(2); !s) return s;
    return done("pg_split_part", "dialect:split_part");
  }
  if (name == "strpos" || name == "position" || name == "starts_with") {
    if (auto s = arity(2, 2, name == "starts_with" ? "starts_with(x, prefix)" : "strpos(x, sub)"); !s) return s;
    for (std::size_t i : {0, 1})
      if (auto s = text_argument_on_sqlite(f.args[i], ctx, name, false); !s) return s;
    return name == "starts_with" ? done("pg_starts_with", "dialect:starts_with") : done("pg_strpos", "dialect:strpos");
  }
  if (name == "initcap" || name == "reverse" || name == "char_length" || name == "character_length" ||
      name == "ascii" || name == "octet_length") {
    if (auto s = arity(1, 1, name + "(x)"); !s) return s;
    if (auto s = text_argument_on_sqlite(f.args[0], ctx, name, false); !s) return s;
    // SQLite's length() of text counts characters, as char_length does.
    if (name == "char_length" || name == "character_length") return done("length", "dialect:char_length");
    return done("pg_" + name, "dialect:" + name);
  }
  if (name == "btrim") {
    if (auto s = arity(1, 2, "btrim(x) or btrim(x, characters)"); !s) return s;
    for (std::size_t i = 0; i < f.args.size(); ++i)
      if (auto s = text_argument_on_sqlite(f.args[i], ctx, name, false); !s) return s;
    return done("trim", "dialect:btrim");  // SQLite's trim(x, chars) removes any of the characters, as btrim
  }

  // Regular expressions: a literal pattern (and flags) that common/pg_regex.hpp translates.
  const bool replace = name == "regexp_replace";
  if (auto s =
          arity(replace ? 3 : 2, replace ? 4 : (name == "regexp_like" || name == "regexp_match" ? 3 : 2),
                replace                  ? "regexp_replace(x, 'pattern', 'replacement'[, 'flags'])"
                : name == "regexp_like"  ? "regexp_like(x, 'pattern'[, 'flags'])"
                : name == "regexp_match" ? "regexp_match(x, 'pattern'[, 'flags'])"
                                         : name + "(x, 'pattern') (the start, N and flags forms are not translated)");
      !s)
    return s;
  if (auto s = text_argument_on_sqlite(f.args[0], ctx, name, false); !s) return s;
  const std::size_t flags_at = replace ? 3 : 2;
  std::string flags;
  if (f.args.size() > flags_at) {
    const auto* l = string_literal(f.args[flags_at]);
    if (!l)
      return refuse(name + "(): on SQLite the flags must be a string literal",
                    replace ? "FIX: write the flags as a literal, e.g. regexp_replace(x, 'a+', 'b', 'g')."
                            : "FIX: write the flags as a literal, e.g. 'i'.");
    flags = l->text;
  }
  const auto parsed = pgregex::parse_flags(flags, replace);
  if (!parsed.ok)
    return refuse(name + "(): " + parsed.error + " is not translated on SQLite",
                  replace ? "FIX: use the flags g (every match) and i (ignore case) only."
                          : "FIX: use the flag i (ignore case) only.");
  if (replace)
    if (auto s = text_argument_on_sqlite(f.args[2], ctx, name, false); !s) return s;
  const auto* pattern = string_literal(f.args[1]);
  if (!pattern)
    return refuse(name + "(): on SQLite the pattern must be a string literal",
                  "FIX: write the regular expression as a literal, e.g. " + name + "(x, '^[a-z]+$').");
  const bool extent = name != "regexp_like";
  const auto t = pgregex::translate(pattern->text, {parsed.icase, extent});
  if (!t.ok) return make_error(ErrorCode::CapabilityNotOnSqlite, t.error, t.fix, pos(f.args[1].location));
  while (f.args.size() <= flags_at) f.args.push_back(text(""));
  f.args[flags_at] = text(flags);
  if (name == "regexp_like") return done("pg_regex", "dialect:regex");
  return done("pg_" + name, "dialect:" + name);
}

Status Admitter::regex_operator_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  if (dialect_ != Dialect::Sqlite) return {};
  auto& n = std::get<ast::Operator>(e.node);
  if (n.op != "~" && n.op != "~*" && n.op != "!~" && n.op != "!~*") return {};
  const int loc = e.location;
  if (!n.left)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "the prefix operator ~ (bitwise NOT) is not available on SQLite",
                      "FIX: write -x - 1 for the bitwise NOT of an integer.", pos(loc));
  if (auto s = text_argument_on_sqlite(**n.left, ctx, "the operator " + n.op, false); !s) return s;
  const auto* pattern = string_literal(*n.right);
  if (!pattern)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "operator " + n.op + ": on SQLite the regular expression must be a string literal",
                      "FIX: write the pattern as a literal, e.g. x " + n.op + " '^[a-z]+$'.", pos(loc));
  const bool icase = n.op == "~*" || n.op == "!~*";
  const auto t = pgregex::translate(pattern->text, {icase, false});
  if (!t.ok) return make_error(ErrorCode::CapabilityNotOnSqlite, t.error, t.fix, pos(n.right->location));
  const bool negated = n.op[0] == '!';
  ast::FuncCall call;
  call.name = "pg_regex";
  call.args.push_back(std::move(**n.left));
  call.args.push_back(std::move(*n.right));
  call.args.push_back(text(icase ? "i" : ""));
  ast::Expr out = ast::make_expr(std::move(call), loc);
  if (negated) {
    ast::BoolOp no;
    no.kind = ast::BoolOpKind::Not;
    no.args.push_back(std::move(out));
    out = ast::make_expr(std::move(no), loc);
  }
  e = std::move(out);
  note_rewrite("dialect:regex");
  replaced = true;
  return {};
}

}  // namespace qg::admit::detail
