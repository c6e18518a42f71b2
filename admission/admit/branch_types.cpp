// PostgreSQL's type resolution for values that meet in one column (issue #12, "Types at admission"):
// CASE results, COALESCE arguments, the columns of UNION / INTERSECT / EXCEPT and of VALUES rows
// (PostgreSQL's select_common_type). Values of different type categories cannot be matched
// (text with integer, boolean with a number, jsonb with text, a time with a number): PostgreSQL's
// error "CASE types text and integer cannot be matched", refused here on both backends where SQLite
// would answer. An untyped literal or NULL joins any type; types admission cannot tell are skipped.
//
// A date meeting a timestamp or timestamptz becomes that type in PostgreSQL (the date's midnight); on
// SQLite each branch would keep its own text, so the answer's text would differ (differential open-9):
// refused there with the cast that makes them one type.
#include <cctype>
#include <map>

#include "admission/admit/admitter.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

enum class Category : std::uint8_t { None, Boolean, Number, Text, Json, Point, TimeOfDay, Interval };

Category category(const ValueType& t, std::optional<pgtime::Kind> kind) {
  // A computed time not typed one (end_time - start_time as translated): its kind tells (a UNION of a timestamp and
  // a duration was typed timestamptz on SQLite; outside tester s21b).
  const SqlType type = t.type == SqlType::Unknown && kind ? SqlType::Time : t.type;
  switch (type) {
    case SqlType::Unknown:
    case SqlType::Untyped:
    case SqlType::Null:
      return Category::None;
    case SqlType::Boolean:
      return Category::Boolean;
    case SqlType::Integer:
    case SqlType::Numeric:
    case SqlType::Float:
      return Category::Number;
    case SqlType::Text:
      return Category::Text;
    case SqlType::Json:
      return Category::Json;
    case SqlType::Time:
      if (!kind) return Category::None;  // a point in time or an interval: not told apart here
      switch (*kind) {
        case pgtime::Kind::Date:
        case pgtime::Kind::Timestamp:
        case pgtime::Kind::Timestamptz:
          return Category::Point;
        case pgtime::Kind::Time:
          return Category::TimeOfDay;
        case pgtime::Kind::Interval:
          return Category::Interval;
      }
      return Category::None;
  }
  return Category::None;
}

}  // namespace

Status Admitter::branch_types(std::string_view construct, const std::vector<Branch>& branches, int location) {
  const Branch* first = nullptr;
  Category first_category = Category::None;
  for (const auto& b : branches) {
    const Category c = category(b.type, b.kind);
    if (c == Category::None) continue;
    if (!first) {
      first = &b;
      first_category = c;
      continue;
    }
    if (c == first_category) continue;
    auto words = [](const Branch& x) {
      return sql_type_words(x.type.type == SqlType::Unknown && x.kind ? ValueType{SqlType::Time} : x.type, x.kind);
    };
    const std::string a = words(*first), z = words(b);
    std::string fix = "FIX: give every branch one type: CAST the " + z + " one, e.g. CAST(" +
                      (b.expr ? shown_value(*b.expr) : std::string("x")) + " AS " + a + ")";
    if (c == Category::Text || first_category == Category::Text) {
      const Branch& other = c == Category::Text ? *first : b;
      fix = "FIX: give every branch one type: CAST(" + (other.expr ? shown_value(*other.expr) : std::string("x")) +
            " AS text)";
    }
    if ((c == Category::Interval && first_category == Category::Number) ||
        (c == Category::Number && first_category == Category::Interval))  // no cast from a number to an interval
      fix =
          "FIX: write the number as an interval, e.g. interval '0 seconds' for 0, or use the interval's seconds: "
          "extract(epoch FROM x)";
    if (c == Category::Json || first_category == Category::Json)
      fix = "FIX: read the JSON value as text with x ->> 'key' (or CAST(x AS text)) so every branch is text";
    return make_error(ErrorCode::ValidationUnsupported,
                      std::string(construct) + " types " + a + " and " + z +
                          " cannot be matched in PostgreSQL; SQLite would answer each value by its own type",
                      fix + ".", pos(b.expr && b.expr->location >= 0 ? b.expr->location : location));
  }
  if (dialect_ != Dialect::Sqlite || first_category != Category::Point) return {};
  // Points in time of different kinds: PostgreSQL answers the common type (timestamptz over timestamp over
  // date); SQLite would print each branch's own text.
  std::optional<pgtime::Kind> common;
  bool mixed = false;
  for (const auto& b : branches) {
    if (category(b.type, b.kind) != Category::Point) continue;
    if (common && *common != *b.kind) mixed = true;
    if (!common || *b.kind == pgtime::Kind::Timestamptz ||
        (*b.kind == pgtime::Kind::Timestamp && *common == pgtime::Kind::Date))
      common = b.kind;
  }
  if (!mixed) return {};
  const Branch* narrow = nullptr;
  for (const auto& b : branches)
    if (category(b.type, b.kind) == Category::Point && *b.kind != *common) {
      narrow = &b;
      break;
    }
  const std::string to(pgtime::kind_name(*common));
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    std::string(construct) + " of a " + sql_type_words(narrow->type, narrow->kind) + " and a " +
                        sql_type_words(ValueType{SqlType::Time}, common) + ": PostgreSQL answers every value as a " +
                        sql_type_words(ValueType{SqlType::Time}, common) + "; on SQLite each would keep its own text",
                    "FIX: cast the " + sql_type_words(narrow->type, narrow->kind) + " to the common type, e.g. CAST(" +
                        (narrow->expr ? shown_value(*narrow->expr) : std::string("x")) + " AS " + to + ").",
                    pos(narrow->expr && narrow->expr->location >= 0 ? narrow->expr->location : location));
}

namespace {

// PostgreSQL's numeric_in / float8in for a plain decimal number: spaces, a sign, digits with at most one
// point (at least one digit), an optional exponent, spaces. The number as a literal's text ("-1.5e3"), or
// nullopt (NaN, Infinity and anything else: SQLite has no such values, or PostgreSQL's error).
std::optional<std::string> read_pg_decimal(std::string_view s) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  std::string out;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    if (s[i] == '-') out += '-';
    ++i;
  }
  std::size_t digits = 0;
  bool point = false;
  for (; i < s.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++digits;
    } else if (s[i] == '.' && !point) {
      point = true;
    } else {
      break;
    }
    out += s[i];
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    out += 'e';
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) out += s[i++];
    std::size_t exponent = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, ++exponent) out += s[i];
    if (exponent == 0 || exponent > 3) return std::nullopt;  // beyond 1e999: not a plain number either engine holds
  }
  if (i != s.size()) return std::nullopt;
  if (out.front() == '.' || (out.front() == '-' && out.size() > 1 && out[1] == '.'))
    out.insert(out.front() == '-' ? 1 : 0, "0");  // .5 → 0.5 (as the grammar writes it)
  return out;
}

}  // namespace

Status Admitter::untyped_as_number(ast::Expr& e, const ValueType& number, std::string_view where, int location,
                                   bool refuse) {
  auto* lit = std::get_if<ast::Literal>(&e.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  if (number.type != SqlType::Integer && number.type != SqlType::Numeric && number.type != SqlType::Float) return {};
  const std::string written = lit->text;
  const std::string type = number.type == SqlType::Integer   ? sql_type_words(number, std::nullopt)
                           : number.type == SqlType::Numeric ? "numeric"
                                                             : "double precision";
  const int at = e.location >= 0 ? e.location : location;
  std::optional<ast::Literal> read;
  std::string why;
  if (number.type == SqlType::Integer) {
    bool range = false;
    // An integer of unknown width reads as far as a bigint does; a certain integer / smallint as far as it does.
    const auto v = read_pg_integer(written, number.int8 || number.width == 0, range);
    if (v && number.width == 2 && (*v < -32768 || *v > 32767)) range = true;
    if (v && !range)
      read = ast::Literal{ast::LiteralKind::Integer, std::to_string(*v)};
    else
      why = range ? "value \"" + written.substr(0, 40) + "\" is out of range for type " + type
                  : "invalid input syntax for type " + type + ": \"" + written.substr(0, 40) + "\"";
  } else if (const auto d = read_pg_decimal(written)) {
    read = ast::Literal{ast::LiteralKind::Numeric, *d};
    if (const auto v = ast::integer_value(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, *d})))
      // A whole number stays a float where it meets one (SQLite's REAL 0.0, not the integer 0).
      read = number.type == SqlType::Float ? ast::Literal{ast::LiteralKind::Numeric, std::to_string(*v) + ".0"}
                                           : ast::Literal{ast::LiteralKind::Integer, std::to_string(*v)};
  } else {
    std::string word;
    for (char c : written)
      if (!std::isspace(static_cast<unsigned char>(c)) && c != '+' && c != '-')
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (word == "nan" || word == "infinity" || (word == "inf" && number.type == SqlType::Float)) {
      if (dialect_ == Dialect::Postgres) return {};  // PostgreSQL's own value
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "the text '" + written.substr(0, 40) + "' is " + type +
                            "'s NaN or Infinity in PostgreSQL; SQLite has no such value",
                        "FIX: on SQLite, compare with a finite bound such as 1e308 instead of Infinity, and test IS "
                        "NULL instead of NaN.",
                        pos(at));
    }
    why = "invalid input syntax for type " + type + ": \"" + written.substr(0, 40) + "\"";
  }
  if (!read && !refuse && !read_pg_decimal(written)) return {};  // no number at all: the caller's own refusal
  if (!read)
    return make_error(ErrorCode::ValidationUnsupported,
                      "the text '" + written.substr(0, 40) + "' meets a value of type " + type + " in " +
                          std::string(where) + ": PostgreSQL reads it as " + type + " and fails (\"" + why +
                          "\"); SQLite would compare or compute with the text",
                      "FIX: write the number bare, without quotes (e.g. 42), or compare texts: CAST(x AS text) = '" +
                          written.substr(0, 40) + "'.",
                      pos(at));
  // The number it reads as must be one SQLite holds, as if written bare (1::numeric = '1.0000000000000001' was
  // refused only when the rewrite was admitted again, a 500; outside tester s17d).
  if (auto s = big_number_literal(*read, at); !s) return s;
  e = ast::make_expr(std::move(*read), e.location);
  note_rewrite("types:untyped-literal");
  return {};
}

Status Admitter::untyped_operand(ast::Operator& op, const ExprContext& ctx, int location) {
  if (!op.left) return {};
  static const std::set<std::string> kNumberOperators = {
      "=", "<>", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%"};
  if (!kNumberOperators.count(op.op)) return {};
  ast::Expr& l = **op.left;
  ast::Expr& r = *op.right;
  const ValueType lt = column_value_type(l, ctx), rt = column_value_type(r, ctx);  // with an integer's width
  const std::string where = "x " + op.op + " '...'";
  // Arithmetic with a text that is no number at all: text_arithmetic's refusal (SQLite), PostgreSQL's own error.
  const bool comparison = op.op != "+" && op.op != "-" && op.op != "*" && op.op != "/" && op.op != "%";
  if (lt.type == SqlType::Untyped && rt.type != SqlType::Untyped)
    return untyped_as_number(l, rt, where, location, comparison);
  if (rt.type == SqlType::Untyped && lt.type != SqlType::Untyped)
    return untyped_as_number(r, lt, where, location, comparison);
  return {};
}

void Admitter::quoted_number_cast(ast::Cast& cast) {
  if (dialect_ != Dialect::Sqlite || cast.type.name != "numeric") return;
  auto* lit = std::get_if<ast::Literal>(&cast.arg->node);
  if (!lit || lit->kind != ast::LiteralKind::String) return;
  const auto read = read_pg_decimal(lit->text);
  if (!read) return;
  const bool whole = ast::integer_value(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, *read})).has_value();
  *lit = ast::Literal{whole ? ast::LiteralKind::Integer : ast::LiteralKind::Numeric, *read};
  note_rewrite("types:untyped-literal");
}

Status Admitter::compared_types(ast::Expr& x, ast::Expr& y, const std::string& op, const ExprContext& ctx,
                                int location) {
  ast::Operator pair{op, ast::Box<ast::Expr>(std::move(x)), ast::Box<ast::Expr>(std::move(y))};
  Status s = untyped_operand(pair, ctx, location);
  if (s) s = operator_types(pair, ctx, location);
  x = std::move(**pair.left);
  y = std::move(*pair.right);
  return s;
}

Status Admitter::untyped_as_time(ast::Expr& literal, pgtime::Kind kind, const ExprContext& ctx) {
  const int at = literal.location;
  ast::Expr written = std::move(literal);
  literal = ast::make_expr(
      ast::Cast{ast::Box<ast::Expr>(std::move(written)), ast::TypeName{std::string(pgtime::kind_name(kind)), {}}}, at);
  note_rewrite("types:untyped-literal");
  return expr(literal, ctx);
}

Status Admitter::untyped_branches(const std::vector<ast::Expr*>& results, const ExprContext& ctx,
                                  std::string_view construct, int location) {
  // The branches' common type when it is a number (every typed branch a number: branch_types passed).
  // A computed interval not typed one (end_time - start_time as translated) is a time here (its quoted partner was
  // left text: CASE ... THEN end_time - start_time ELSE '30 seconds' END sorted as text; outside tester s21e).
  const auto typed = [&](const ast::Expr& r) {
    const ValueType t = column_value_type(r, ctx);
    return t.type == SqlType::Unknown && time_kind(r, ctx) ? ValueType{SqlType::Time} : t;
  };
  ValueType common{SqlType::Null};
  for (const ast::Expr* r : results) {
    const ValueType t = typed(*r);
    if (t.type != SqlType::Untyped) common = common_type(common, t);
  }
  if (common.type == SqlType::Boolean) {
    for (ast::Expr* r : results)
      if (auto s = untyped_as_boolean(*r, construct, location); !s) return s;
    return {};
  }
  // A quoted literal meeting a time: PostgreSQL reads it as that time (its error when it is none). Written as the
  // cast PostgreSQL applies, and admitted as one: COALESCE(start_time, '2026-01-01') answered SQLite's stored
  // text as text, and COALESCE(start_time, 'never') the text 'never' (outside tester s17c).
  if (common.type == SqlType::Time) {
    // The branches' common kind, as PostgreSQL resolves the literal (COALESCE(d, ts, '2026-01-01 10:00') is a
    // timestamptz); an interval or time only with its own kind.
    std::optional<pgtime::Kind> kind;
    for (const ast::Expr* r : results) {
      const auto k = typed(*r).type == SqlType::Time ? time_kind(*r, ctx) : std::nullopt;
      if (!k) continue;
      if (kind && *kind != *k && !(timestamp_like(kind) && timestamp_like(k))) return {};  // branch_types' refusal
      kind = kind ? common_kind(*kind, *k) : *k;
    }
    if (!kind) return {};
    for (ast::Expr* r : results) {
      const auto* lit = std::get_if<ast::Literal>(&r->node);
      if (!lit || lit->kind != ast::LiteralKind::String) continue;
      if (auto s = untyped_as_time(*r, *kind, ctx); !s) return s;
    }
    return {};
  }
  if (common.type != SqlType::Integer && common.type != SqlType::Numeric && common.type != SqlType::Float) return {};
  for (ast::Expr* r : results)
    if (auto s = untyped_as_number(*r, common, construct, location); !s) return s;
  return {};
}

namespace {

// PostgreSQL's boolin: spaces around one of true / yes / on / 1 or false / no / off / 0, any case, or a prefix
// that names only one of them ("t", "ye", "of"; "o" names both on and off).
std::optional<bool> read_pg_boolean(std::string_view s) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  std::string w;
  for (char c : s) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (w.empty()) return std::nullopt;
  auto prefix = [&](std::string_view word, std::size_t least) {
    return w.size() >= least && w.size() <= word.size() && word.substr(0, w.size()) == w;
  };
  if (prefix("true", 1) || prefix("yes", 1) || prefix("on", 2) || w == "1") return true;
  if (prefix("false", 1) || prefix("no", 1) || prefix("off", 2) || w == "0") return false;
  return std::nullopt;
}

}  // namespace

Status Admitter::untyped_as_boolean(ast::Expr& e, std::string_view where, int location) {
  auto* lit = std::get_if<ast::Literal>(&e.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  const auto b = read_pg_boolean(lit->text);
  if (!b)
    return make_error(ErrorCode::ValidationUnsupported,
                      "the text '" + lit->text.substr(0, 40) + "' meets a boolean in " + std::string(where) +
                          ": PostgreSQL reads it as boolean and fails (\"invalid input syntax for type boolean: \"" +
                          lit->text.substr(0, 40) + "\"\"); SQLite would answer the text",
                      "FIX: write TRUE or FALSE, or give every value one type: CAST(x AS text).",
                      pos(e.location >= 0 ? e.location : location));
  e = ast::make_expr(ast::Literal{ast::LiteralKind::Boolean, *b ? "true" : "false"}, e.location);
  note_rewrite("types:untyped-literal");
  return {};
}

Status Admitter::values_types(std::vector<std::vector<ast::Expr>>& rows, const ExprContext& ctx, int location) {
  // PostgreSQL resolves a VALUES list column by column (select_common_type, then each value coerced to it).
  const std::size_t width = rows.empty() ? 0 : rows.front().size();
  for (std::size_t i = 0; i < width; ++i) {
    std::vector<ast::Expr*> column;
    for (auto& row : rows)
      if (i < row.size()) column.push_back(&row[i]);
    if (auto s = branch_results(column, ctx, "VALUES", location); !s) return s;
  }
  return {};
}

// VALUES ('2026-01-02'::date), ('2026-01-03'): PostgreSQL types the column date and reads the quoted literal as
// one (select_common_type). The literal is written as that cast before admission, so every row of the column
// is the same kind of time on SQLite too (the column is then typed date, not text).
void Admitter::values_time_literals(std::vector<std::vector<ast::Expr>>& rows) {
  static const std::set<std::string> kTimes = {"date", "timestamptz", "timestamp", "time", "timetz", "interval"};
  const std::size_t width = rows.empty() ? 0 : rows.front().size();
  for (std::size_t i = 0; i < width; ++i) {
    std::optional<ast::TypeName> type;
    for (const auto& row : rows)
      if (const auto* c = i < row.size() ? std::get_if<ast::Cast>(&row[i].node) : nullptr;
          c && kTimes.count(c->type.name)) {
        type = c->type;
        break;
      }
    if (!type) continue;
    for (auto& row : rows) {
      const auto* lit = i < row.size() ? std::get_if<ast::Literal>(&row[i].node) : nullptr;
      if (!lit || lit->kind != ast::LiteralKind::String) continue;
      const int at = row[i].location;
      ast::Cast cast;
      cast.arg = ast::Box<ast::Expr>(std::move(row[i]));
      cast.type = *type;
      row[i] = ast::make_expr(std::move(cast), at);
    }
  }
}

// The kind of time each VALUES column holds when every row that is not NULL holds that one kind.
std::vector<std::optional<pgtime::Kind>> Admitter::values_time_kinds(const std::vector<std::vector<ast::Expr>>& rows,
                                                                     const ExprContext& ctx) {
  const std::size_t width = rows.empty() ? 0 : rows.front().size();
  std::vector<std::optional<pgtime::Kind>> kinds(width);
  for (std::size_t i = 0; i < width; ++i) {
    bool mixed = false;
    for (const auto& row : rows) {
      if (i >= row.size()) continue;
      const auto* lit = std::get_if<ast::Literal>(&row[i].node);
      if (lit && lit->kind == ast::LiteralKind::Null) continue;
      const auto k = time_kind(row[i], ctx);
      if (!k || (kinds[i] && *kinds[i] != *k)) mixed = true;
      if (k && !kinds[i]) kinds[i] = k;
    }
    if (mixed) kinds[i].reset();
  }
  return kinds;
}

std::vector<ValueType> resolved_unknowns(std::vector<ValueType> types) {
  for (auto& t : types)
    if (t.type == SqlType::Untyped) t = {SqlType::Text};
  return types;
}

Status Admitter::cast_types(const ast::Cast& cast, const ExprContext& ctx, int location) {
  // PostgreSQL casts a boolean to integer (int4) and text only: "cannot cast type boolean to numeric".
  static const std::map<std::string, std::string> kNotFromBoolean = {{"int2", "smallint"},
                                                                     {"int8", "bigint"},
                                                                     {"float4", "real"},
                                                                     {"float8", "double precision"},
                                                                     {"numeric", "numeric"}};
  const auto to = kNotFromBoolean.find(cast.type.name);
  if (to == kNotFromBoolean.end() || value_type(*cast.arg, ctx).type != SqlType::Boolean) return {};
  const std::string what = shown_value(*cast.arg);
  return make_error(ErrorCode::ValidationUnsupported,
                    "CAST(" + what + " AS " + to->second + "): PostgreSQL has no cast from boolean to " + to->second +
                        " (\"cannot cast type boolean to " + to->second + "\"); SQLite would answer 1 or 0",
                    "FIX: turn the condition into a number first: CAST(CASE WHEN " + what + " THEN 1 ELSE 0 END AS " +
                        to->second + ").",
                    pos(location));
}

std::string Admitter::shown_value(const ast::Expr& e) {
  const std::string text = shown(e, Dialect::Postgres);
  return text.find("pg_") != std::string::npos ? "x" : text;  // a SQLite translation: not what was written
}

}  // namespace qg::admit::detail
