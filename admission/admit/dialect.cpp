// Dialect gaps: places where an engine would run a statement and answer
// something other than what PostgreSQL answers on the same data. Each is either
// translated exactly (reported as a `dialect:` rewrite) or refused with a FIX
// whose statement gives PostgreSQL's answer.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/rewrite/time_literals.hpp"
#include "common/number_text.hpp"

namespace qg::admit::detail {

bool is_aggregate_call(const ast::FuncCall& f) {
  if (f.over) return false;
  // SQLite's max(a, b) / min(a, b) with two or more arguments are scalar (the
  // SQLite renderer prints them, e.g. for substr's PostgreSQL start rule).
  if ((f.name == "max" || f.name == "min") && f.args.size() >= 2) return false;
  const auto* row = capability::find_function(f.name);
  return row && row->kind == capability::FunctionKind::Aggregate;
}

namespace {

// A text that reads as a number (integer_text / numeric_text), written as a
// number literal both grammars read alike: no '+', no leading zeros ('01' is
// 1), a digit on each side of a point ('.5' is 0.5). Empty when it does not
// read as one, or an integer does not fit 64 bits.
std::optional<std::string> number_literal_text(std::string_view text, bool integer) {
  if (!(integer ? integer_text(text) : numeric_text(text))) return std::nullopt;
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') negative = text.front() == '-', text.remove_prefix(1);
  std::string digits(text);
  if (integer) {
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    std::int64_t v = 0;
    const std::string with_sign = negative ? "-" + digits : digits;
    if (std::from_chars(with_sign.data(), with_sign.data() + with_sign.size(), v).ec != std::errc())
      return std::nullopt;
  } else {
    if (digits.front() == '.') digits.insert(digits.begin(), '0');
    if (const auto point = digits.find('.'); point != std::string::npos && point + 1 == digits.size()) digits += '0';
  }
  if (negative && digits.find_first_not_of("0.") != std::string::npos) digits.insert(digits.begin(), '-');
  return digits;
}

// PostgreSQL's text of a numeric literal: its digits at the literal's scale
// (1.50 is '1.50', 1e3 is '1000', 1.5e-7 is '0.00000015'). Empty when the
// literal is not plain digits with a point and exponent.
std::optional<std::string> numeric_literal_text(std::string_view s) {
  if (!numeric_text(s)) return std::nullopt;
  bool negative = false;
  if (s.front() == '+' || s.front() == '-') negative = s.front() == '-', s.remove_prefix(1);
  const std::size_t e = s.find_first_of("eE");
  const std::string_view mantissa = s.substr(0, e);
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view x = s.substr(e + 1);
    if (!x.empty() && x.front() == '+') x.remove_prefix(1);
    if (std::from_chars(x.data(), x.data() + x.size(), exponent).ec != std::errc() || exponent > 1000 ||
        exponent < -1000)
      return std::nullopt;
  }
  const std::size_t point = mantissa.find('.');
  std::string digits(mantissa.substr(0, point));
  const std::string fraction(point == std::string_view::npos ? "" : mantissa.substr(point + 1));
  digits += fraction;
  long long scale = static_cast<long long>(fraction.size()) - exponent;
  if (scale < 0) digits.append(static_cast<std::size_t>(-scale), '0'), scale = 0;
  if (static_cast<long long>(digits.size()) <= scale)
    digits.insert(0, static_cast<std::size_t>(scale) - digits.size() + 1, '0');
  std::string out = digits.substr(0, digits.size() - static_cast<std::size_t>(scale));
  out.erase(0, std::min(out.find_first_not_of('0'), out.size() - 1));
  if (scale > 0) out += "." + digits.substr(digits.size() - static_cast<std::size_t>(scale));
  if (negative && out.find_first_not_of("0.") != std::string::npos) out.insert(out.begin(), '-');
  return out;
}

bool contains_word(std::string upper, std::string_view word) {
  return upper.find(word) != std::string::npos;
}

// SQLite's column affinity from the declared type (https://sqlite.org/datatype3.html, 3.1).
enum class Affinity : std::uint8_t { Integer, Text, Blob, Real, Numeric };

Affinity affinity(std::string_view declared) {
  std::string u(declared);
  for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (contains_word(u, "INT")) return Affinity::Integer;
  if (contains_word(u, "CHAR") || contains_word(u, "CLOB") || contains_word(u, "TEXT")) return Affinity::Text;
  if (u.empty() || contains_word(u, "BLOB")) return Affinity::Blob;
  if (contains_word(u, "REAL") || contains_word(u, "FLOA") || contains_word(u, "DOUB")) return Affinity::Real;
  return Affinity::Numeric;
}

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

const ast::Literal* literal(const ast::Expr& e, ast::LiteralKind kind) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == kind ? l : nullptr;
}

// The keys of a SQLite JSON path made of keys only ($, $.a, $.a.b, $."a.b"), as
// SQLite 3.40 reads it: an unquoted key runs to the next '.' or '['; a quoted
// key to the next '"' (no escapes). Empty when it has another form; `why` says which.
std::optional<std::vector<std::string>> path_keys(std::string_view path, std::string& why) {
  std::vector<std::string> keys;
  std::size_t i = 1;  // after '$'
  while (i < path.size()) {
    if (path[i] == '[') {
      why = "an array subscript [...]";
      return std::nullopt;
    }
    if (path[i] != '.') {
      why = "a step that is neither .key nor [n]";
      return std::nullopt;
    }
    ++i;
    std::string key;
    if (i < path.size() && path[i] == '"') {
      const std::size_t close = path.find('"', i + 1);
      if (close == std::string_view::npos) {
        why = "an unclosed quoted key";
        return std::nullopt;
      }
      key = std::string(path.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      const std::size_t end = std::min(path.find('.', i), path.find('[', i));
      key = std::string(path.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
      i = end == std::string_view::npos ? path.size() : end;
      if (key.empty()) {
        why = "an empty key";
        return std::nullopt;
      }
    }
    // PostgreSQL's #> reads a whole-number step as an array index; SQLite's .0 is the key "0".
    if (integer_text(key)) {
      why = "a key made of digits (" + key + ")";
      return std::nullopt;
    }
    // SQLite compares a path key with the key as written in the JSON text (escapes undecoded).
    if (key.find('\\') != std::string::npos) {
      why = "a key with a backslash";
      return std::nullopt;
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

// PostgreSQL's text[] literal for a #> path: every element quoted, `"` and `\` escaped.
std::string pg_path_array(const std::vector<std::string>& keys) {
  std::string out = "{";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i) out += ",";
    out += '"';
    for (char c : keys[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace

bool has_aggregate(const ast::Expr& e) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && is_aggregate_call(*f)) return true;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || has_aggregate(child); });
  return found;
}

const catalog::Column* Admitter::base_column(const ast::Expr& e, const ExprContext& ctx) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (!ref || ref->star) return nullptr;
  auto relation = resolve_column(*ref, e.location, ctx);
  if (!relation || !*relation || !(*relation)->table) return nullptr;
  return (*relation)->table->find_column(ref->column, dialect_);
}

void Admitter::nulls_order_on_sqlite(ast::SortItem& item, const ast::Expr& sorted, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite || item.nulls != ast::NullsOrder::Default) return;
  // Values that are never NULL sort alike on both engines: leave them (an index can then serve the order).
  // (A literal is not one of them: ORDER BY 1 names an output column by position.)
  if (const auto* f = std::get_if<ast::FuncCall>(&sorted.node);
      f && (f->name == "count" || f->name == "row_number" || f->name == "rank" || f->name == "dense_rank"))
    return;
  if (const auto* col = base_column(sorted, ctx)) {
    // SQLite lets a PRIMARY KEY other than INTEGER PRIMARY KEY hold NULL.
    const bool rowid = col->primary_key && catalog::Catalog::same_name(col->type, "INTEGER", Dialect::Sqlite);
    if (col->not_null || rowid) return;
  }
  item.nulls = item.direction == ast::SortDirection::Desc ? ast::NullsOrder::First : ast::NullsOrder::Last;
  note_rewrite("dialect:nulls-order");
}

// `j -> 'k'` / `j ->> 'k'` mean the KEY k on every backend; `j ->> '$.a.b'` (a
// text starting with $) means the PATH; `j -> 2` the array element (negative:
// from the end). SQLite reads a bare text as the path '$.k' ('llm.model_name'
// would be two steps), so keys are rendered as '$."k"'; PostgreSQL reads every
// text as a key, so paths become #> / #>> '{a,b}'.
Status Admitter::json_arrow(ast::Operator& op, const ast::Expr& node, int location) {
  const bool text = op.op == "->>";
  // SQLite's -> returns JSON text minified ({"a":1}); PostgreSQL's jsonb prints {"a": 1}.
  if (dialect_ == Dialect::Sqlite && !text && &node != json_text_allowed_)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "the JSON value of x -> ... is printed differently by SQLite ({\"a\":1}) and PostgreSQL "
                      "({\"a\": 1})",
                      "FIX: read a scalar with ->> (x ->> 'key' gives the text), or keep -> only to step further in "
                      "(x -> 'a' ->> 'b').",
                      pos(location));
  ast::Expr& right = *op.right;
  if (const auto* n = literal(right, ast::LiteralKind::Integer)) {
    // SQLite reads a negative integer as nothing; PostgreSQL counts from the end, as SQLite's $[#-n] does.
    // (-0 is the first element on both.)
    if (dialect_ == Dialect::Sqlite && n->text.starts_with('-') &&
        n->text.find_first_not_of("-0") != std::string::npos) {
      right = ast::make_expr(ast::Literal{ast::LiteralKind::String, "$[#" + n->text + "]"}, right.location);
      note_rewrite("dialect:json-index-from-end");
    }
    return {};
  }
  auto* s = std::get_if<ast::Literal>(&right.node);
  if (!s || s->kind != ast::LiteralKind::String)
    return make_error(ErrorCode::ValidationUnsupported,
                      "the right side of " + op.op + " must be a literal key ('key'), path ('$.a.b') or array index",
                      "FIX: write the key as a literal, e.g. attributes " + op.op +
                          " 'llm.model_name'; for an array element write an integer, e.g. x -> 0.",
                      pos(right.location));
  if (!s->text.starts_with('$')) {
    if (dialect_ == Dialect::Postgres) return {};
    // SQLite 3.40 reads "..." in a path without escapes: a key with " cannot be named.
    if (s->text.find('"') != std::string::npos || s->text.find('\\') != std::string::npos)
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "the JSON key '" + s->text + "' has a \" or \\, which SQLite's JSON paths cannot name",
                        "FIX: none on SQLite (3.40 reads a quoted path key without escapes); on PostgreSQL, x ->> "
                        "'key' reads it. querygate will not guess a path.",
                        pos(right.location));
    s->text = "$.\"" + s->text + "\"";
    note_rewrite("dialect:json-key");
    return {};
  }
  if (dialect_ == Dialect::Sqlite) return {};
  std::string why;
  auto keys = path_keys(s->text, why);
  if (!keys)
    return make_error(ErrorCode::CapabilityNotOnPostgres,
                      "the JSON path '" + s->text + "' has " + why + ", which has no exact PostgreSQL spelling here",
                      "FIX: step with one arrow per key and an integer per array element, e.g. x -> 'a' -> 0 ->> "
                      "'b'.",
                      pos(right.location));
  op.op = text ? "#>>" : "#>";
  s->text = pg_path_array(*keys);
  note_rewrite("dialect:json-path");
  return {};
}

// `'1' = 1`: PostgreSQL types an untyped literal from the other side (integer
// or numeric) and compares numbers; SQLite compares the text '1' with the
// number 1 as unequal unless a column's affinity converts it. The literal is
// rewritten to the number when the other side is one and the text reads as it;
// a text PostgreSQL would refuse to read ('2.5' or 'abc' for an integer) is
// refused. Sides whose type admission does not know are left as written.
Status Admitter::boolean_text_on_sqlite(const ast::Expr& condition, const ast::Expr& other, const ExprContext& ctx,
                                        int location) {
  if (dialect_ != Dialect::Sqlite || value_type(condition, ctx).type != SqlType::Boolean) return {};
  const auto* lit = std::get_if<ast::Literal>(&other.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "a condition compared with the text '" + lit->text.substr(0, 40) +
                        "': PostgreSQL reads the text as a boolean, SQLite has no boolean type and compares 1/0 "
                        "with the text",
                    "FIX: compare with TRUE or FALSE (e.g. (condition) = true, or (condition) IS NOT TRUE), or "
                    "write the condition itself.",
                    pos(location));
}

Status Admitter::text_literal_as_number(ast::Expr& literal_side, const ast::Expr& other, const ExprContext& ctx,
                                        int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto* lit = std::get_if<ast::Literal>(&literal_side.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  enum class Kind : std::uint8_t { None, Integer, Decimal };
  std::function<Kind(const ast::Expr&)> kind = [&](const ast::Expr& e) -> Kind {
    if (const auto* l = std::get_if<ast::Literal>(&e.node)) {
      if (l->kind == ast::LiteralKind::Integer) return Kind::Integer;
      return l->kind == ast::LiteralKind::Numeric ? Kind::Decimal : Kind::None;
    }
    if (std::holds_alternative<ast::ColumnRef>(e.node)) {
      const auto* c = base_column(e, ctx);
      if (!c || c->timestamp) return Kind::None;
      const Affinity a = affinity(c->type);
      return a == Affinity::Integer ? Kind::Integer : a == Affinity::Real ? Kind::Decimal : Kind::None;
    }
    if (const auto* c = std::get_if<ast::Cast>(&e.node)) {
      const auto& t = c->type.name;
      if (t == "int2" || t == "int4" || t == "int8") return Kind::Integer;
      return t == "float4" || t == "float8" || t == "numeric" ? Kind::Decimal : Kind::None;
    }
    if (const auto* o = std::get_if<ast::Operator>(&e.node)) {
      if (o->op != "+" && o->op != "-" && o->op != "*" && o->op != "/" && o->op != "%") return Kind::None;
      const Kind r = kind(*o->right);
      const Kind l = o->left ? kind(**o->left) : r;
      if (l == Kind::None || r == Kind::None) return Kind::None;
      return l == Kind::Decimal || r == Kind::Decimal ? Kind::Decimal : Kind::Integer;
    }
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
      static constexpr std::string_view kCounts[] = {"count", "row_number", "rank", "dense_rank", "ntile"};
      if (std::find(std::begin(kCounts), std::end(kCounts), f->name) != std::end(kCounts)) return Kind::Integer;
      if (f->name == "avg" && f->args.size() == 1 && kind(f->args[0]) != Kind::None) return Kind::Decimal;
      static constexpr std::string_view kSame[] = {"sum", "min", "max", "abs"};
      if (f->args.size() == 1 && std::find(std::begin(kSame), std::end(kSame), f->name) != std::end(kSame))
        return kind(f->args[0]);
    }
    return Kind::None;
  };
  Kind want = kind(other);
  // A number whose exact type admission does not follow (a subquery's column, a CTE's): lineage says it
  // is a number; a literal that reads as one becomes one, anything else is left as written. So for a
  // table's column: SQLite's column affinity converts what reads as a number alike, and a column
  // declared a number can hold text there (Spider's imdb: cast.role is int), which = 'Alan Turing' finds.
  const bool typed = want != Kind::None && base_column(other, ctx) == nullptr;
  if (!typed && lineage(other, ctx).kind == ValueKind::Number) want = Kind::Decimal;
  if (want == Kind::None) return {};
  auto digits = number_literal_text(lit->text, want == Kind::Integer);
  const bool fits = digits.has_value();
  if (!fits && !typed) return {};
  if (!fits)
    return make_error(
        ErrorCode::ValidationUnsupported,
        "the text '" + lit->text + "' is compared with " + (want == Kind::Integer ? "an integer" : "a number") +
            ": PostgreSQL reads it as one and refuses a text that is not (\"invalid input syntax\"); "
            "SQLite would compare text with a number as unequal",
        want == Kind::Integer
            ? "FIX: write the integer bare (e.g. = 2), or compare with a number: CAST(x AS double precision) = 2.5."
            : "FIX: write the number bare, e.g. = 2.5.",
        pos(location));
  lit->kind = want == Kind::Integer ? ast::LiteralKind::Integer : ast::LiteralKind::Numeric;
  lit->text = std::move(*digits);
  note_rewrite("dialect:text-literal-as-number");
  return {};
}

namespace {

ast::Expr call(std::string name, std::vector<ast::Expr> args) {
  return ast::make_call(std::move(name), std::move(args));
}

ast::Expr text(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}
ast::Expr integer(int i) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(i)});
}

ast::Expr concat(ast::Expr a, ast::Expr b) {
  return ast::make_expr(ast::Operator{"||", ast::Box<ast::Expr>(std::move(a)), ast::Box<ast::Expr>(std::move(b))});
}

}  // namespace

Status Admitter::time_as_text_on_sqlite(ast::Expr& e, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const catalog::Column* c = timestamp_column(e, ctx);
  if (!c || c->timestamp_sample.empty()) return {};
  const auto format = rewrite::detect_text_format(c->timestamp_sample);
  if (format && format->date_only) return {};  // a date's text is the stored text on both
  const auto kind = time_kind(e, ctx);
  if (!format || !kind || (*kind != pgtime::Kind::Timestamptz && *kind != pgtime::Kind::Timestamp))
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "the timestamp column " + c->name + " used as text: SQLite stores it as '" + c->timestamp_sample +
                          "', which querygate cannot print as PostgreSQL's text of a time",
                      "FIX: format it explicitly, e.g. to_char(" + c->name + ", 'YYYY-MM-DD HH24:MI:SS').",
                      pos(location));
  // PostgreSQL's text of each stored value, its own fraction digits (up to 6) and offset read: the text of the
  // first row's format (strftime's %f, 3 digits) cut 2024-01-01 00:00:00.123456 to .123 on every row when the
  // first row had no fraction (outside tester s17b).
  ast::Expr out = call("pg_cast", {e, text(std::string(pgtime::kind_name(*kind))), text("text")});
  out.location = e.location;
  e = std::move(out);
  note_rewrite("dialect:time-as-text");
  return {};
}

bool Admitter::numeric_literal_as_text(ast::Expr& e) {
  if (dialect_ != Dialect::Sqlite) return false;
  const auto* lit = literal(e, ast::LiteralKind::Numeric);
  if (!lit) return false;
  auto text = numeric_literal_text(lit->text);
  if (!text) return false;
  const int location = e.location;
  e = ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(*text)}, location);
  note_rewrite("dialect:numeric-as-text");
  return true;
}

void Admitter::date_literal_on_sqlite(ast::FuncCall& f) {
  if (dialect_ != Dialect::Sqlite || f.name != "date" || f.args.size() != 1 || f.over) return;
  auto* lit = std::get_if<ast::Literal>(&f.args.front().node);
  if (!lit || lit->kind != ast::LiteralKind::String) return;
  const auto t = rewrite::parse_iso_time(lit->text);
  if (!t || !t->has_time || !t->offset_minutes) return;
  lit->text = lit->text.substr(0, 10);
  note_rewrite("dialect:date-literal");
}

std::vector<bool> Admitter::literal_texts(const std::vector<std::vector<ast::Expr>>& rows, std::size_t width) {
  std::vector<bool> out(width, !rows.empty());
  for (const auto& row : rows)
    for (std::size_t i = 0; i < width; ++i)
      out[i] = out[i] && i < row.size() && literal(row[i], ast::LiteralKind::String) != nullptr;
  return out;
}

std::vector<bool> Admitter::literal_texts(const ast::Query& q) {
  return std::visit(
      [&](const auto& body) -> std::vector<bool> {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, ast::Select>) {
          // SELECT pg_single(scalar_subquery.x) FROM (subquery) AS scalar_subquery (scalar_subquery.cpp): the
          // subquery's one column, passed on.
          if (body.items.size() == 1 && body.from.size() == 1)
            if (const auto* f = std::get_if<ast::FuncCall>(&body.items.front().expr.node); f && f->name == "pg_single")
              if (const auto* d = std::get_if<ast::DerivedTable>(&body.from.front().node))
                return literal_texts(*d->query);
          std::vector<bool> out;
          for (const auto& item : body.items) out.push_back(literal(item.expr, ast::LiteralKind::String) != nullptr);
          return out;
        } else if constexpr (std::is_same_v<T, ast::SetOp>) {
          auto left = literal_texts(*body.left);
          const auto right = literal_texts(*body.right);
          for (std::size_t i = 0; i < left.size(); ++i) left[i] = left[i] && i < right.size() && right[i];
          return left;
        } else if constexpr (std::is_same_v<T, ast::Values>) {
          return literal_texts(body.rows, body.rows.empty() ? 0 : body.rows.front().size());
        } else {
          static_assert(sizeof(T) == 0, "every query body kind says which columns are text literals");
        }
      },
      q.body);
}

std::vector<ast::Query*> Admitter::set_leaves(ast::SetOp& set) {
  std::vector<ast::Query*> leaves;
  std::function<void(ast::Query&)> collect = [&](ast::Query& q) {
    if (auto* s = std::get_if<ast::SetOp>(&q.body)) {
      collect(*s->left);
      collect(*s->right);
    } else if (ast::Query* inner = set_member_inner(q)) {
      collect(*inner);  // a member written as a subquery on SQLite (wrap_set_member)
    } else {
      leaves.push_back(&q);
    }
  };
  collect(*set.left);
  collect(*set.right);
  return leaves;
}

Status Admitter::set_literals_on_sqlite(ast::SetOp& set, const std::vector<ValueType>& types, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const std::size_t width = types.size();
  const std::vector<ast::Query*> leaves = set_leaves(set);
  const char* what = set.kind == ast::SetOpKind::Union       ? "UNION"
                     : set.kind == ast::SetOpKind::Intersect ? "INTERSECT"
                                                             : "EXCEPT";
  for (std::size_t i = 0; i < width; ++i) {
    // PostgreSQL reads a text literal in a number or boolean column as that type, or fails (branch_types.cpp).
    const SqlType common = types[i].type;
    if (common == SqlType::Integer || common == SqlType::Numeric || common == SqlType::Float ||
        common == SqlType::Boolean) {
      for (ast::Query* q : leaves) {
        auto* s = std::get_if<ast::Select>(&q->body);
        if (!s || i >= s->items.size()) continue;
        if (common == SqlType::Boolean) {
          if (auto st = untyped_as_boolean(s->items[i].expr, what, location); !st) return st;
        } else if (auto st = untyped_as_number(s->items[i].expr, types[i], what, location); !st) {
          return st;
        }
      }
      continue;
    }
    // The column is a number when a branch gives a number there that is not a text literal.
    bool number = false;
    std::vector<ast::Literal*> texts;
    for (ast::Query* q : leaves) {
      auto* s = std::get_if<ast::Select>(&q->body);
      ast::Literal* lit = nullptr;
      if (s && i < s->items.size())
        if (auto* l = std::get_if<ast::Literal>(&s->items[i].expr.node); l && l->kind == ast::LiteralKind::String)
          lit = l;
      if (lit) {
        texts.push_back(lit);
        continue;
      }
      const auto kinds = output_lineages(*q, width);
      number = number || (i < kinds.size() && kinds[i].kind == ValueKind::Number);
    }
    if (!number) continue;
    for (ast::Literal* lit : texts) {
      // A text that is no number: PostgreSQL's error, or a boolean's text; left to the engine.
      const bool whole = integer_text(lit->text);
      auto digits = number_literal_text(lit->text, whole);
      if (!digits) continue;
      lit->kind = whole ? ast::LiteralKind::Integer : ast::LiteralKind::Numeric;
      lit->text = std::move(*digits);
      note_rewrite("dialect:text-literal-as-number");
    }
  }
  return {};
}

Status Admitter::time_text_comparison(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const catalog::Column* c = timestamp_column(a, ctx);
  if (!c || std::holds_alternative<ast::Literal>(b.node) || timestamp_column(b, ctx)) return {};
  bool text_literal = false;
  if (const auto* sub = std::get_if<ast::SubLink>(&b.node); sub && sub->kind == ast::SubLinkKind::Scalar) {
    const auto texts = literal_texts(*sub->query);
    text_literal = !texts.empty() && texts.front();
  } else if (const auto* ref = std::get_if<ast::ColumnRef>(&b.node); ref && !ref->star) {
    auto relation = resolve_column(*ref, b.location, ctx);
    if (relation && *relation && !(*relation)->table) {
      const Relation& r = **relation;
      for (std::size_t i = 0; i < r.columns.size(); ++i)
        if (same(r.columns[i], ref->column)) text_literal = i < r.literal_text.size() && r.literal_text[i];
    }
  }
  // A text computed in a subquery or CTE (strftime(...), max(name), datetime(...) there): PostgreSQL's error too
  // (start_time > (SELECT max(name) FROM projects) compared texts; outside tester s19f).
  const bool passed_on = std::holds_alternative<ast::SubLink>(b.node) || std::holds_alternative<ast::ColumnRef>(b.node);
  if (!text_literal && !(passed_on && value_type(b, ctx).type == SqlType::Text && !time_kind(b, ctx))) return {};
  return make_error(ErrorCode::ValidationUnsupported,
                    "the timestamp column " + c->name +
                        " is compared with a text value from a subquery, CTE or VALUES list: PostgreSQL refuses "
                        "that (\"operator does not exist: timestamp with time zone > text\"), SQLite would compare "
                        "the texts",
                    "FIX: compare with the literal itself, e.g. " + c->name +
                        " > '2026-10-05T12:00:00Z', where it is read as a time.",
                    pos(location));
}

Status Admitter::time_as_number_on_sqlite(const ast::Expr& e, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const ast::Expr* arg = nullptr;
  std::string what;
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node);
      f && (f->name == "sum" || f->name == "avg" || f->name == "total") && f->args.size() == 1) {
    arg = &f->args.front();
    what = f->name + "()";
  } else if (const auto* c = std::get_if<ast::Cast>(&e.node)) {
    static constexpr std::string_view kNumbers[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
    if (std::find(std::begin(kNumbers), std::end(kNumbers), c->type.name) != std::end(kNumbers)) {
      arg = &*c->arg;
      what = "a cast to " + c->type.name;
    }
  }
  if (!arg) return {};
  const catalog::Column* c = timestamp_column(*arg, ctx);
  if (!c) return {};
  return make_error(ErrorCode::ValidationUnsupported,
                    what + " of the timestamp column " + c->name +
                        ": PostgreSQL has no number for a time (its error); SQLite would read the year at the "
                        "start of the stored text",
                    "FIX: for seconds since 1970 write EXTRACT(EPOCH FROM " + c->name +
                        ") on PostgreSQL, or (julianday(" + c->name + ") - 2440587.5) * 86400 on SQLite.",
                    pos(location));
}

Status Admitter::arithmetic_on_sqlite(const ast::Operator& op, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  // -'5': PostgreSQL cannot tell which - is meant ("operator is not unique"); SQLite reads -5.
  if (!op.left && (op.op == "-" || op.op == "+") && literal(*op.right, ast::LiteralKind::String))
    return make_error(ErrorCode::ValidationUnsupported,
                      "'" + op.op + "' before a text literal is PostgreSQL's error (\"operator is not unique\")",
                      "FIX: write the number bare, e.g. -5.", pos(location));
  if (!op.left || (op.op != "/" && op.op != "%")) return {};
  const ast::Expr* divisor = &*op.right;
  if (const auto* neg = std::get_if<ast::Operator>(&divisor->node); neg && !neg->left && neg->op == "-")
    divisor = &*neg->right;
  if (const auto* l = std::get_if<ast::Literal>(&divisor->node);
      l && (l->kind == ast::LiteralKind::Integer || l->kind == ast::LiteralKind::Numeric) &&
      std::strtod(l->text.c_str(), nullptr) == 0)
    return make_error(
        ErrorCode::ValidationUnsupported,
        "x " + op.op + " 0 is PostgreSQL's error \"division by zero\"; SQLite would answer NULL",
        "FIX: divide by a number other than 0; to get NULL for a zero divisor write x " + op.op + " NULLIF(y, 0).",
        pos(location));
  if (op.op != "%") return {};
  // x % y is printed for SQLite as pg_mod(x, y), PostgreSQL's exact numeric remainder (render.hpp). A double
  // precision operand has no % in PostgreSQL (its error); SQLite would answer.
  // (A translation's own call, pg_extract(...), is typed when first admitted: admitted again, its type is not
  // known as well, and the statement was judged then.)
  std::function<bool(const ast::Expr&)> translated = [&](const ast::Expr& x) {
    const auto* f = std::get_if<ast::FuncCall>(&x.node);
    bool found = f && f->name.starts_with("pg_");
    ast::for_each_child(x, [&](const ast::Expr& child) { found = found || translated(child); });
    return found;
  };
  const auto floating = [&](const ast::Expr& x) { return value_type(x, ctx).type == SqlType::Float && !translated(x); };
  if (!floating(**op.left) && !floating(*op.right)) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "x % y with a double precision value: PostgreSQL has no % for double precision (\"operator does "
                    "not exist\"), SQLite would answer",
                    "FIX: cast the value to numeric, e.g. CAST(x AS numeric) % y, or write x - y * trunc(x / y).",
                    pos(location));
}

void Admitter::float_round_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return;
  auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f || f->name != "round" || f->args.size() != 1 || f->over || f->star || f->distinct || f->filter) return;
  // PostgreSQL's float8 (or float4) values: a REAL column, a cast to a float, and what keeps that type.
  std::function<bool(const ast::Expr&)> floating = [&](const ast::Expr& x) -> bool {
    if (const auto* c = std::get_if<ast::Cast>(&x.node)) return c->type.name == "float4" || c->type.name == "float8";
    if (const auto* o = std::get_if<ast::Operator>(&x.node)) {
      static constexpr std::string_view kArithmetic[] = {"+", "-", "*", "/"};
      if (std::find(std::begin(kArithmetic), std::end(kArithmetic), o->op) == std::end(kArithmetic)) return false;
      return (o->left && floating(**o->left)) || floating(*o->right);
    }
    if (const auto* g = std::get_if<ast::FuncCall>(&x.node)) {
      static constexpr std::string_view kSame[] = {"avg", "sum", "min", "max", "abs", "pg_float8"};
      return g->args.size() == 1 && std::find(std::begin(kSame), std::end(kSame), g->name) != std::end(kSame) &&
             floating(g->args.front());
    }
    const auto* c = std::holds_alternative<ast::ColumnRef>(x.node) ? base_column(x, ctx) : nullptr;
    return c && !c->timestamp && affinity(c->type) == Affinity::Real;
  };
  // (Or typed so through a derived table, CTE or VALUES column: value_types.cpp.)
  if (!floating(f->args.front()) && value_type(f->args.front(), ctx).type != SqlType::Float) return;
  // f = floor(x), d = x - f (exact): below .5 down, above up, at .5 to the even one of f and f + 1.
  const ast::Expr x = f->args.front();
  const ast::Expr fl = call("floor", {x});
  auto op = [](std::string o, ast::Expr a, ast::Expr b) {
    const bool arithmetic = o == "+" || o == "-";
    ast::Expr out = ast::make_expr(
        ast::Operator{std::move(o), ast::Box<ast::Expr>(std::move(a)), ast::Box<ast::Expr>(std::move(b))});
    // Float + - is checked for overflow (pg_float8, admit_expr.cpp) as admission wraps what a caller writes, so
    // admitting the translation again changes nothing.
    return arithmetic ? call("pg_float8", {std::move(out)}) : out;
  };
  const ast::Expr d = op("-", x, fl);
  const ast::Expr half = ast::make_expr(ast::Literal{ast::LiteralKind::Numeric, "0.5"});
  ast::Case c;
  c.whens.push_back(ast::CaseWhen{ast::Box<ast::Expr>(op("<", d, half)), ast::Box<ast::Expr>(fl)});
  c.whens.push_back(ast::CaseWhen{ast::Box<ast::Expr>(op(">", d, half)), ast::Box<ast::Expr>(op("+", fl, integer(1)))});
  // floor(x) % 2 as the call % is printed as on SQLite: PostgreSQL has no % for the double floor(x) is.
  c.otherwise = ast::Box<ast::Expr>(op("+", fl, call("abs", {call("pg_mod", {fl, integer(2)})})));
  const int location = e.location;
  e = ast::make_expr(std::move(c), location);
  note_rewrite("dialect:round-half-even");
}

// SQLite computes `end_time - start_time` on ISO-8601 text as numbers read from
// the text's prefix (2026 - 2026 = 0); PostgreSQL subtracts times or refuses.
Status Admitter::text_arithmetic(const ast::Operator& op, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite || !op.left) return {};
  static constexpr std::string_view kArithmetic[] = {"+", "-", "*", "/", "%"};
  if (std::find(std::begin(kArithmetic), std::end(kArithmetic), op.op) == std::end(kArithmetic)) return {};
  for (const ast::Expr* side : {&**op.left, &*op.right}) {
    std::string what;
    bool time = false;
    if (const auto* l = literal(*side, ast::LiteralKind::String)) {
      if (!numeric_text(l->text)) what = "the text '" + l->text + "'";
    } else if (const auto* c = base_column(*side, ctx)) {
      if (c->timestamp)
        what = "the timestamp column " + c->name + " (ISO-8601 text on SQLite)", time = true;
      else if (affinity(c->type) == Affinity::Text)
        what = "the text column " + c->name;
    } else if (const auto* t = timestamp_column(*side, ctx)) {
      // A timestamp passed on by a derived table or CTE, or min/max of one (defog's
      // max(payment_date) - sale_date answered 0 on SQLite, 2.05 days on PostgreSQL).
      what = "a value of the timestamp column " + t->name + " (ISO-8601 text on SQLite)", time = true;
    } else if (const auto* f = std::get_if<ast::FuncCall>(&side->node)) {
      if (f->name == "date" || f->name == "datetime" || f->name == "time")
        what = f->name + "(...) (ISO-8601 text)", time = true;
    } else if (std::holds_alternative<ast::SqlValue>(side->node)) {
      what = "the current time (ISO-8601 text on SQLite)", time = true;
    }
    if (what.empty()) continue;
    const std::string fix =
        time ? "FIX: on SQLite, for the seconds between two times write (julianday(end_time) - julianday(start_time)) "
               "* 86400 (within 0.1 ms of PostgreSQL's EXTRACT(EPOCH FROM end_time - start_time)); to shift a "
               "time write datetime(t, '+1 hour')."
             : "FIX: convert the text to a number first, e.g. CAST(x AS numeric); to join texts write ||.";
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "arithmetic (" + op.op + ") on " + what +
                          ": SQLite would compute with the number at the start of the text, PostgreSQL does not",
                      fix, pos(location));
  }
  return {};
}

bool Admitter::integer_valued(const ast::Expr& e, const ExprContext& ctx) {
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::Literal>) {
          if (n.kind == ast::LiteralKind::String) return integer_text(n.text);
          return n.kind != ast::LiteralKind::Numeric;
        } else if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          const auto* c = base_column(e, ctx);
          return c && !c->timestamp && affinity(c->type) == Affinity::Integer;
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          return n.type.name == "int2" || n.type.name == "int4" || n.type.name == "int8";
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          static constexpr std::string_view kInteger[] = {"count", "length",     "row_number",
                                                          "rank",  "dense_rank", "ntile"};
          static constexpr std::string_view kWhole[] = {"round", "trunc", "floor", "ceil", "ceiling"};
          static constexpr std::string_view kSame[] = {"sum", "min", "max", "abs", "pg_int8", "pg_int4", "pg_int2"};
          if (std::find(std::begin(kInteger), std::end(kInteger), n.name) != std::end(kInteger)) return true;
          if (n.args.size() == 1 && std::find(std::begin(kWhole), std::end(kWhole), n.name) != std::end(kWhole))
            return true;
          if (n.args.size() == 1 && std::find(std::begin(kSame), std::end(kSame), n.name) != std::end(kSame))
            return integer_valued(n.args[0], ctx);
          // EXTRACT / date_part of a whole-number field (admit/time_types.cpp's translation).
          if (n.name == "pg_extract" && !n.args.empty()) {
            const auto* field = literal(n.args[0], ast::LiteralKind::String);
            return field && pgtime::extract_field_whole(field->text);
          }
          // pg_number(x, 'int4'): a checked cast's argument, once admitted (virtual columns are admitted again).
          if (n.name == "pg_number" && n.args.size() >= 2) {
            const auto* type = literal(n.args[1], ast::LiteralKind::String);
            return type && (type->text == "int2" || type->text == "int4" || type->text == "int8");
          }
          // strftime's fields are whole numbers, except %f (fractional seconds) and %J (Julian day).
          if (n.name == "strftime" && !n.args.empty()) {
            const auto* format = literal(n.args[0], ast::LiteralKind::String);
            return format && format->text.find("%f") == std::string::npos &&
                   format->text.find("%J") == std::string::npos;
          }
          return false;
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          if (n.op != "+" && n.op != "-" && n.op != "*" && n.op != "/" && n.op != "%") return false;
          return (!n.left || integer_valued(**n.left, ctx)) && integer_valued(*n.right, ctx);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          for (const auto& w : n.whens)
            if (!integer_valued(*w.result, ctx)) return false;
          return !n.otherwise || integer_valued(**n.otherwise, ctx);
        } else if constexpr (std::is_same_v<T, ast::Coalesce>) {
          return std::all_of(n.args.begin(), n.args.end(), [&](const ast::Expr& a) { return integer_valued(a, ctx); });
        } else {
          return false;
        }
      },
      e.node);
}

// Text (PostgreSQL refuses a fractional text such as '2.5' as an integer: no rounding to differ on), or a
// column of a subquery or CTE, whose type admission does not know yet.
bool Admitter::text_or_unknown(const ast::Expr& e, const ExprContext& ctx) {
  if (literal(e, ast::LiteralKind::String)) return true;
  if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
    auto relation = resolve_column(*ref, e.location, ctx);
    if (!relation || !*relation) return true;
    if (!(*relation)->table) {  // a derived table's or CTE's column: a number when admission typed it one
      const SqlType t = value_type(e, ctx).type;  // (SELECT 1.0 / 3 AS v): v::int rounds; it failed in SQLite
      return t != SqlType::Integer && t != SqlType::Numeric && t != SqlType::Float;
    }
    const auto* c = (*relation)->table->find_column(ref->column, dialect_);
    return c == nullptr || c->timestamp || affinity(c->type) == Affinity::Text;
  }
  // Text by its type (split_part(...), regexp_substr(...), a text CASE: PostgreSQL reads the text as the number).
  if (value_type(e, ctx).type == SqlType::Text) return true;
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    static constexpr std::string_view kText[] = {"substr", "substring", "lower",       "upper", "trim",
                                                 "ltrim",  "rtrim",     "replace",     "date",  "datetime",
                                                 "time",   "printf",    "group_concat"};
    return std::find(std::begin(kText), std::end(kText), f->name) != std::end(kText);
  }
  if (const auto* o = std::get_if<ast::Operator>(&e.node)) return o->op == "||" || o->op == "->>";
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) return c->type.name == "text" || c->type.name == "varchar";
  // nullif(x, '') and coalesce(x, ...) of a text are texts (nullif(qty, '')::int was refused as a number PostgreSQL
  // rounds; outside tester s21a).
  if (const auto* n = std::get_if<ast::NullIf>(&e.node)) return text_or_unknown(*n->left, ctx);
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node))
    return !c->args.empty() && text_or_unknown(c->args.front(), ctx);
  return false;
}

// A number whatever the row: a number literal, a column declared as a number, a cast to a number type,
// a whole-number expression, or a condition (PostgreSQL casts a boolean to an integer as 1 or 0).
bool Admitter::number_valued(const ast::Expr& e, const ExprContext& ctx) {
  if (const auto* l = std::get_if<ast::Literal>(&e.node)) return l->kind != ast::LiteralKind::String;
  if (const auto* c = base_column(e, ctx)) {
    const auto a = affinity(c->type);
    return !c->timestamp && (a == Affinity::Integer || a == Affinity::Real || a == Affinity::Numeric);
  }
  if (const auto* c = std::get_if<ast::Cast>(&e.node)) {
    static constexpr std::string_view kNumbers[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
    return std::find(std::begin(kNumbers), std::end(kNumbers), c->type.name) != std::end(kNumbers);
  }
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && f->name == "pg_number") return true;
  return integer_valued(e, ctx) || boolean_valued(e);
}

Status Admitter::cast_on_sqlite(ast::Cast& cast, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  if (cast.type.name == "numeric" && !cast.type.modifiers.empty()) {
    const std::int64_t scale = cast.type.modifiers.size() > 1 ? cast.type.modifiers[1] : 0;
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "numeric with a precision rounds to " + std::to_string(scale) +
                          " decimal places on PostgreSQL; SQLite ignores the precision and scale",
                      "FIX: on SQLite, write round(x, " + std::to_string(scale) +
                          ") (halves away from zero, as PostgreSQL's numeric rounds).",
                      pos(location));
  }
  const auto& to = cast.type.name;
  // A numeric of a known scale as text: PostgreSQL prints the scale's digits ('2.50', '7'), SQLite its double
  // ('2.5', '7.0'; outside tester, s7). Literals are printed by numeric_literal_as_text.
  if ((to == "text" || to == "varchar") && cast.type.modifiers.empty() &&
      !std::holds_alternative<ast::Literal>(cast.arg->node)) {
    const ValueType from = value_type(*cast.arg, ctx);
    const auto* f = std::get_if<ast::FuncCall>(&cast.arg->node);
    if (from.type == SqlType::Numeric && from.scale >= 0 && !(f && f->name == "pg_numeric_text")) {
      const int at = cast.arg->location;
      ast::FuncCall printed;
      printed.name = "pg_numeric_text";
      printed.args.push_back(std::move(*cast.arg));
      printed.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(from.scale)}));
      *cast.arg = ast::make_expr(std::move(printed), at);
      note_rewrite("dialect:numeric-as-text");
      return {};
    }
  }
  // A boolean, float8 or jsonb as text: PostgreSQL's true/false, float8out and jsonb's output form
  // (text_of_values.cpp).
  if ((to == "text" || to == "varchar") && cast.type.modifiers.empty()) {
    const SqlType from = value_type(*cast.arg, ctx).type;
    const ValueType typed = value_type(*cast.arg, ctx);
    // A numeric whose scale admission cannot tell (avg, a division): PostgreSQL prints 16 to 20 decimals of its
    // exact value, SQLite its double's 15 digits: refused with the rounding that makes it exact (outside tester
    // s8, H4: avg(total)::text). A stored column is printed as it is held.
    const bool unknown_scale = from == SqlType::Numeric && typed.scale < 0 && !base_column(*cast.arg, ctx);
    if (from == SqlType::Boolean || from == SqlType::Float || from == SqlType::Json || unknown_scale)
      return value_as_text_on_sqlite(*cast.arg, ctx, location);
    // A stored NUMERIC column of no declared scale: its REAL values in the shortest decimal without an exponent, as
    // the numeric the data wrote prints (SQLite's CAST printed 1.0e-06 for 0.000001; outside tester s20c).
    if (from == SqlType::Numeric && typed.scale < 0) {
      const int at = cast.arg->location;
      *cast.arg = ast::make_call(
          "pg_numeric_text", {std::move(*cast.arg), ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "-1"})}, at);
      note_rewrite("dialect:numeric-as-text");
      return {};
    }
  }
  if ((to == "text" || to == "varchar" || to == "bpchar") && value_type(*cast.arg, ctx).type == SqlType::Boolean)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a condition cast to text: PostgreSQL prints true/false, SQLite (no boolean type) prints 1/0",
                      "FIX: write CASE WHEN condition THEN 'true' WHEN NOT (condition) THEN 'false' END, which "
                      "gives PostgreSQL's text on both backends (NULL stays NULL).",
                      pos(location));
  const bool integer_type = cast.type.name == "int2" || cast.type.name == "int4" || cast.type.name == "int8";
  // A condition as an integer ((status = 'ERROR')::int, the avg(...::int) idiom): PostgreSQL's 1 / 0, which is
  // what SQLite holds for it (NULL stays NULL). PostgreSQL casts a boolean to integer only (its own error else).
  if (cast.type.name == "int4" && value_type(*cast.arg, ctx).type == SqlType::Boolean) return {};
  if (auto s = narrowing_integer_cast_on_sqlite(cast, ctx, location); !s) return s;
  if (integer_type && !integer_valued(*cast.arg, ctx) && !text_or_unknown(*cast.arg, ctx) &&
      !integer_cast_rounds_on_sqlite(cast, ctx))
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a cast to an integer type of a value that may have a fraction: PostgreSQL rounds it to the "
                      "nearest integer, SQLite's CAST truncates it",
                      "FIX: on SQLite, write CAST(round(x) AS INTEGER) to round as PostgreSQL does (halves away "
                      "from zero for a numeric, to even for a float), or CAST(trunc(x) AS INTEGER) to drop the "
                      "fraction.",
                      pos(location));
  // A value that may be text (a text column, ->>, a derived table's column of unknown type): SQLite's CAST
  // reads the number at the start of the text ('31b6…' → 31, 'Alpha' → 0) where PostgreSQL raises "invalid
  // input syntax". pg_number (executors/sqlite/sqlite_numbers.cpp) passes what PostgreSQL accepts and fails
  // the statement on the rest. Literals were checked already (numeric_text_cast).
  // A float8 to numeric: PostgreSQL keeps 15 significant digits ((0.1::float8 + 0.2::float8)::numeric is 0.3),
  // SQLite's double all of its own (0.30000000000000004): pg_number(x, 'numeric', 'float8') rounds it so.
  if (to == "numeric" && cast.type.modifiers.empty() && value_type(*cast.arg, ctx).type == SqlType::Float) {
    const int at = cast.arg->location;
    ast::FuncCall checked;
    checked.name = "pg_number";
    checked.args.push_back(std::move(*cast.arg));
    checked.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "numeric"}));
    checked.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "float8"}));
    *cast.arg = ast::make_expr(std::move(checked), at);
    note_rewrite("dialect:float8-to-numeric");
    return {};
  }
  // A bigint to numeric: past 2^53 SQLite's double loses the units digit PostgreSQL's numeric keeps
  // (b::numeric - 9223372036854775000 answered 1024 for 807; outside tester s19d): pg_number refuses such a value.
  if (to == "numeric" && cast.type.modifiers.empty() && !std::holds_alternative<ast::Literal>(cast.arg->node) &&
      value_type(*cast.arg, ctx).type == SqlType::Integer && int_width(*cast.arg, ctx) == 0) {
    const int at = cast.arg->location;
    ast::FuncCall checked;
    checked.name = "pg_number";
    checked.args.push_back(std::move(*cast.arg));
    checked.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "numeric"}));
    *cast.arg = ast::make_expr(std::move(checked), at);
    return {};
  }
  static constexpr std::string_view kNumbers[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
  if (std::find(std::begin(kNumbers), std::end(kNumbers), to) != std::end(kNumbers) &&
      !std::holds_alternative<ast::Literal>(cast.arg->node) && !number_valued(*cast.arg, ctx) &&
      !timestamp_column(*cast.arg, ctx)) {  // a time as a number: refused by time_as_number_on_sqlite
    ast::FuncCall checked;
    checked.name = "pg_number";
    checked.args.push_back(std::move(*cast.arg));
    checked.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, to}));
    const int at = checked.args.front().location;
    *cast.arg = ast::make_expr(std::move(checked), at);
  }
  return {};
}

// A literal pattern that ends with its escape character: PostgreSQL refuses it
// ("LIKE pattern must not end with escape character"), SQLite matches nothing.
Status Admitter::like_pattern_on_sqlite(const ast::Like& like, int location) {
  if (dialect_ != Dialect::Sqlite || like.kind == ast::LikeKind::Similar) return {};
  const auto* pattern = literal(*like.pattern, ast::LiteralKind::String);
  const auto* escape = like.escape ? literal(**like.escape, ast::LiteralKind::String) : nullptr;
  if (!pattern || (like.escape && (!escape || escape->text.size() != 1))) return {};
  const char e = escape ? escape->text[0] : '\\';
  std::size_t trailing = 0;
  while (trailing < pattern->text.size() && pattern->text[pattern->text.size() - 1 - trailing] == e) ++trailing;
  if (trailing % 2 == 0) return {};
  return make_error(ErrorCode::ValidationUnsupported,
                    std::string("the LIKE pattern ends with its escape character ") + e +
                        " (PostgreSQL refuses it; SQLite would match nothing)",
                    std::string("FIX: double it to match the character itself: '") + pattern->text + e + "'.",
                    pos(location));
}

// PostgreSQL's LIKE is case-sensitive (so is SQLite's once the connection sets
// case_sensitive_like); ILIKE compares lower-case forms. SQLite's lower() folds
// ASCII only, so lower(x) LIKE '<lower-case pattern>' is ILIKE exactly when the
// pattern is ASCII: a non-ASCII letter matches only itself or a wildcard.
Status Admitter::ilike_on_sqlite(ast::Like& like, int location) {
  auto* pattern = std::get_if<ast::Literal>(&like.pattern->node);
  const bool ascii_pattern = pattern && pattern->kind == ast::LiteralKind::String && is_ascii(pattern->text);
  const auto* escape = like.escape ? literal(**like.escape, ast::LiteralKind::String) : nullptr;
  if (!ascii_pattern || (like.escape && (!escape || !is_ascii(escape->text))))
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "ILIKE on SQLite is exact only with a literal ASCII pattern (SQLite's lower() folds ASCII only)",
                      "FIX: write the pattern as an ASCII literal, e.g. x ILIKE '%error%', or write both letter "
                      "cases out: x LIKE '%É%' OR x LIKE '%é%'.",
                      pos(location));
  for (auto& c : pattern->text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  ast::FuncCall lower;
  lower.name = "lower";
  const int arg_location = like.arg->location;
  lower.args.push_back(std::move(*like.arg));
  *like.arg = ast::make_expr(std::move(lower), arg_location);
  like.kind = ast::LikeKind::Like;
  return {};
}

// PostgreSQL's rule for grouped queries: every column of this level used
// outside an aggregate is grouped, is inside a grouped expression, or belongs
// to a table whose primary key is grouped (functional dependency). SQLite would
// return an arbitrary row's value instead.
Status Admitter::check_grouping(const ast::Select& s, const Scope& level, const std::vector<ast::SortItem>& order_by,
                                const std::vector<std::string>& names, int location) {
  bool grouped = !s.group_by.empty() || s.having.has_value();
  for (const auto& item : s.items) grouped = grouped || has_aggregate(item.expr);
  for (const auto& o : order_by) grouped = grouped || has_aggregate(*o.expr);
  if (!grouped) return {};

  // Where a column of this level resolves: its relation's index, written as the qualifier "#i".
  auto locate = [&](const ast::ColumnRef& ref) -> std::optional<std::pair<std::size_t, std::string>> {
    for (std::size_t i = 0; i < level.relations.size(); ++i) {
      const auto& r = level.relations[i];
      if (!ref.table.empty() && !same(r.name, ref.table)) continue;
      for (const auto& c : r.columns)
        if (same(c, ref.column)) return std::make_pair(i, c);
    }
    return std::nullopt;
  };
  std::function<void(ast::Expr&)> qualify = [&](ast::Expr& e) {
    if (auto* ref = std::get_if<ast::ColumnRef>(&e.node); ref && !ref->star) {
      if (auto where = locate(*ref)) {
        ref->table = "#" + std::to_string(where->first);
        ref->column = where->second;
      }
      return;
    }
    ast::for_each_child(e, qualify);
  };
  auto canonical = [&](const ast::Expr& e) {
    ast::Expr copy = e;
    qualify(copy);
    return copy;
  };
  auto output_item = [&](const ast::Expr& e) -> const ast::Expr* {
    if (const auto* l = literal(e, ast::LiteralKind::Integer)) {
      const long long k = std::atoll(l->text.c_str());
      return k >= 1 && static_cast<std::size_t>(k) <= s.items.size() ? &s.items[k - 1].expr : nullptr;
    }
    const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
    if (!ref || !ref->table.empty() || locate(*ref)) return nullptr;
    for (std::size_t i = 0; i < names.size() && i < s.items.size(); ++i)
      if (same(names[i], ref->column)) return &s.items[i].expr;
    return nullptr;
  };

  std::vector<ast::Expr> keys;
  std::function<void(const std::vector<ast::GroupItem>&)> collect = [&](const std::vector<ast::GroupItem>& items) {
    for (const auto& g : items) {
      if (const auto* e = std::get_if<ast::Expr>(&g.node)) {
        const ast::Expr* item = output_item(*e);
        keys.push_back(canonical(item ? *item : *e));
        // GROUP BY (x) COLLATE pg_interval (time_types.cpp, collate_interval): x is grouped too
        if (const auto* f = std::get_if<ast::FuncCall>(&keys.back().node);
            f && f->name == "pg_interval_collate" && f->args.size() == 1)
          keys.push_back(f->args.front());
        // GROUP BY pg_from_key(pg_time_key(x, k), k) (a column of mixed forms read as a time): its key
        // pg_time_key(x, k), which ORDER BY sorts by, is grouped too (outside tester s19e).
        if (const auto* f = std::get_if<ast::FuncCall>(&keys.back().node);
            f && f->name == "pg_from_key" && f->args.size() == 2)
          if (const auto* k = std::get_if<ast::FuncCall>(&f->args.front().node); k && k->name == "pg_time_key")
            keys.push_back(f->args.front());
      } else {
        collect(std::get<ast::GroupingSet>(g.node).items);
      }
    }
  };
  collect(s.group_by);

  // Column equalities that hold on every row of this level: the AND-ed `a = b` of WHERE and of the ON of
  // joins whose rows all satisfy it (inner joins, and the preserved side of outer joins).
  std::vector<std::pair<ast::Expr, ast::Expr>> equal;
  std::function<void(const ast::Expr&)> conjuncts = [&](const ast::Expr& e) {
    if (const auto* b = std::get_if<ast::BoolOp>(&e.node); b && b->kind == ast::BoolOpKind::And) {
      for (const auto& a : b->args) conjuncts(a);
      return;
    }
    const auto* o = std::get_if<ast::Operator>(&e.node);
    if (!o || !o->left || o->op != "=") return;
    ast::Expr l = canonical(**o->left), r = canonical(*o->right);
    const auto* lc = std::get_if<ast::ColumnRef>(&l.node);
    const auto* rc = std::get_if<ast::ColumnRef>(&r.node);
    if (lc && rc && lc->table.starts_with('#') && rc->table.starts_with('#')) equal.emplace_back(l, r);
  };
  if (s.where) conjuncts(*s.where);
  std::function<void(const ast::FromItem&)> joins = [&](const ast::FromItem& f) {
    const auto* j = std::get_if<ast::Join>(&f.node);
    if (!j) return;
    const bool inner = j->kind == ast::JoinKind::Inner || j->kind == ast::JoinKind::Cross;
    if (inner && j->on) conjuncts(**j->on);
    if (inner || j->kind == ast::JoinKind::Left) joins(*j->left);
    if (inner || j->kind == ast::JoinKind::Right) joins(*j->right);
  };
  for (const auto& f : s.from) joins(f);
  // Columns equal on every row to a grouped one (closure over the equalities): grouping by them keeps the groups.
  std::vector<ast::Expr> same_as_key = keys;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [a, b] : equal) {
      const bool has_a = std::find(same_as_key.begin(), same_as_key.end(), a) != same_as_key.end();
      const bool has_b = std::find(same_as_key.begin(), same_as_key.end(), b) != same_as_key.end();
      if (has_a != has_b) same_as_key.push_back(has_a ? b : a), grew = true;
    }
  }

  // Relations whose every primary-key column is grouped: each of their columns is determined by the group.
  // When the key columns are only equal to grouped ones, adding them to GROUP BY is the exact FIX.
  std::vector<bool> determined(level.relations.size(), false);
  std::vector<std::vector<std::string>> key_to_add(level.relations.size());
  for (std::size_t i = 0; i < level.relations.size(); ++i) {
    const auto* table = level.relations[i].table;
    if (!table || level.relations[i].name.empty()) continue;
    bool any = false, all = true, all_equal = true;
    std::vector<std::string> missing;
    for (const auto& c : table->columns) {
      if (!c.primary_key) continue;
      // A key the caller may not see can be neither grouped by nor named in a FIX.
      if (!catalog::visible(*table, c, hidden_, dialect_)) {
        any = false;
        break;
      }
      any = true;
      ast::ColumnRef ref{"#" + std::to_string(i), c.name, false};
      const ast::Expr key = ast::make_expr(ref);
      const bool grouped = std::find(keys.begin(), keys.end(), key) != keys.end();
      all = all && grouped;
      all_equal = all_equal && std::find(same_as_key.begin(), same_as_key.end(), key) != same_as_key.end();
      if (!grouped)
        missing.push_back(render::quote_identifier(level.relations[i].name, dialect_) + "." +
                          render::quote_identifier(c.name, dialect_));
    }
    determined[i] = any && all;
    if (any && !all && all_equal) key_to_add[i] = std::move(missing);
  }

  std::optional<Error> error;
  std::function<void(const ast::Expr&)> check;
  // A subquery's references to this level's columns are checked like this level's own: one value per
  // group, or PostgreSQL refuses. Qualified: by a relation name the subquery does not reuse. Unqualified:
  // when every relation the subquery reads is an allowlisted table without that column (a CTE's or derived
  // table's columns are not known here, so such a name is left to the engine).
  struct Inner {
    std::vector<std::string> names;              // relation and CTE names the subquery chain introduces
    std::vector<const catalog::Table*> sources;  // its FROM relations; nullptr: columns not known here
    std::vector<std::string> ctes;
  };
  std::function<void(const ast::Query&, Inner)> outer_refs;
  std::function<void(const ast::Expr&, const Inner&, bool)> expr_refs = [&](const ast::Expr& e, const Inner& inner,
                                                                            bool unqualified) {
    if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
      if (ref->star) return;
      if (ref->table.empty()) {
        const bool elsewhere = std::any_of(inner.sources.begin(), inner.sources.end(), [&](const catalog::Table* t) {
          return t == nullptr || t->find_column(ref->column, dialect_) || t->find_virtual(ref->column, dialect_);
        });
        if (!unqualified || elsewhere) return;
      } else if (std::any_of(inner.names.begin(), inner.names.end(),
                             [&](const std::string& n) { return same(n, ref->table); })) {
        return;
      }
      ast::Expr copy = e;
      qualify(copy);
      if (std::get<ast::ColumnRef>(copy.node).table.starts_with('#')) check(copy);
      return;
    }
    if (const auto* sub = std::get_if<ast::SubLink>(&e.node)) outer_refs(*sub->query, inner);
    ast::for_each_child(e, [&](const ast::Expr& child) { expr_refs(child, inner, unqualified); });
  };
  outer_refs = [&](const ast::Query& q, Inner inner) {
    for (const auto& cte : q.with) inner.names.push_back(cte.name), inner.ctes.push_back(cte.name);
    for (const auto& cte : q.with) outer_refs(*cte.query, inner);
    auto each = [&](const std::vector<ast::Expr>& list) {
      for (const auto& x : list) expr_refs(x, inner, true);
    };
    std::visit(
        [&](const auto& body) {
          using T = std::decay_t<decltype(body)>;
          if constexpr (std::is_same_v<T, ast::Select>) {
            std::vector<const ast::FromItem*> items;
            for (const auto& f : body.from) items.push_back(&f);
            for (std::size_t k = 0; k < items.size(); ++k)  // names first: every FROM name shadows
              std::visit(
                  [&](const auto& n) {
                    using F = std::decay_t<decltype(n)>;
                    if constexpr (std::is_same_v<F, ast::TableRef>) {
                      inner.names.push_back(n.alias ? n.alias->name : n.name);
                      const bool cte =
                          n.schema.empty() && std::any_of(inner.ctes.begin(), inner.ctes.end(),
                                                          [&](const std::string& c) { return same(c, n.name); });
                      inner.sources.push_back(
                          cte || (n.alias && !n.alias->columns.empty()) ? nullptr : catalog_.find_table(n.name));
                    } else if constexpr (std::is_same_v<F, ast::DerivedTable> || std::is_same_v<F, ast::ValuesTable> ||
                                         std::is_same_v<F, ast::SeriesTable>) {
                      if (n.alias) inner.names.push_back(n.alias->name);
                      inner.sources.push_back(nullptr);
                    } else if constexpr (std::is_same_v<F, ast::JsonRows>) {
                      inner.names.push_back(n.alias ? n.alias->name : n.function);
                      inner.sources.push_back(nullptr);
                    } else if constexpr (std::is_same_v<F, ast::Join>) {
                      items.push_back(&*n.left);
                      items.push_back(&*n.right);
                    } else {
                      static_assert(sizeof(F) == 0, "every FROM item kind names its relations");
                    }
                  },
                  items[k]->node);
            for (const auto* f : items)
              std::visit(
                  [&](const auto& n) {
                    using F = std::decay_t<decltype(n)>;
                    if constexpr (std::is_same_v<F, ast::TableRef>) {
                    } else if constexpr (std::is_same_v<F, ast::DerivedTable>) {
                      outer_refs(*n.query, inner);
                    } else if constexpr (std::is_same_v<F, ast::ValuesTable>) {
                      for (const auto& row : n.rows) each(row);
                    } else if constexpr (std::is_same_v<F, ast::SeriesTable> || std::is_same_v<F, ast::JsonRows>) {
                      each(n.args);
                    } else if constexpr (std::is_same_v<F, ast::Join>) {
                      if (n.on) expr_refs(**n.on, inner, true);
                    } else {
                      static_assert(sizeof(F) == 0, "every FROM item kind is scanned");
                    }
                  },
                  f->node);
            for (const auto& item : body.items) expr_refs(item.expr, inner, true);
            each(body.distinct_on);
            if (body.where) expr_refs(*body.where, inner, true);
            // GROUP BY and ORDER BY may name the subquery's own output columns: only qualified names there.
            std::function<void(const std::vector<ast::GroupItem>&)> groups = [&](const std::vector<ast::GroupItem>& g) {
              for (const auto& gi : g) {
                if (const auto* x = std::get_if<ast::Expr>(&gi.node))
                  expr_refs(*x, inner, false);
                else
                  groups(std::get<ast::GroupingSet>(gi.node).items);
              }
            };
            groups(body.group_by);
            if (body.having) expr_refs(*body.having, inner, true);
          } else if constexpr (std::is_same_v<T, ast::SetOp>) {
            outer_refs(*body.left, inner);
            outer_refs(*body.right, inner);
          } else if constexpr (std::is_same_v<T, ast::Values>) {
            for (const auto& row : body.rows) each(row);
          } else {
            static_assert(sizeof(T) == 0, "every query body kind is scanned");
          }
        },
        q.body);
    for (const auto& o : q.order_by) expr_refs(*o.expr, inner, false);
  };
  check = [&](const ast::Expr& e) {
    if (error || std::find(keys.begin(), keys.end(), e) != keys.end()) return;
    // An exact call a GROUP BY key computes, printed as its text (GROUP BY x / 3.0 with the item x / 3.0 on
    // SQLite: numeric_scale_on_sqlite.cpp): the key's value, every digit of it.
    if (exact_call(e)) {
      ast::Expr as_double = e;
      if (exact_double(as_double) && std::find(keys.begin(), keys.end(), as_double) != keys.end()) return;
    }
    // e grouped by value under SQLite's pg_numeric collation (GROUP BY x of a derived table's exact column x), or a
    // derived table's exact column read as its text where the key reads its double (HAVING x > 1 beside GROUP BY x:
    // numeric_scale_on_sqlite.cpp)
    if (ast::Expr as_key = e; collated_numeric(as_key, -1) && std::find(keys.begin(), keys.end(), as_key) != keys.end())
      return;
    if (std::holds_alternative<ast::ColumnRef>(e.node)) {
      ast::FuncCall value;
      value.name = "pg_numeric_value";
      value.args.push_back(e);
      if (std::find(keys.begin(), keys.end(), ast::make_expr(std::move(value))) != keys.end()) return;
    }
    if (const auto* ref = std::get_if<ast::ColumnRef>(&e.node)) {
      if (!ref->table.starts_with('#')) return;  // an outer query's column: one value per group
      const std::size_t i = std::stoul(ref->table.substr(1));
      if (i < determined.size() && determined[i]) return;
      const auto& r = level.relations[i];
      const std::string written = r.name.empty() ? ref->column : r.name + "." + ref->column;
      std::string fix = "FIX: add " + written + " to GROUP BY, or aggregate it, e.g. max(" + written +
                        ") when it is the same on every row of a group.";
      if (!key_to_add[i].empty()) {
        std::string cols;
        for (const auto& k : key_to_add[i]) cols += (cols.empty() ? "" : ", ") + k;
        fix = "FIX: add " + cols + " to GROUP BY: the groups stay the same (a join or WHERE condition makes " +
              (key_to_add[i].size() == 1 ? "it" : "them") + " equal to grouped columns on every row), and " + r.name +
              "'s primary key is then grouped, so PostgreSQL admits every column of " + r.name + ".";
      }
      error = make_error(ErrorCode::ValidationUnsupported,
                         "column " + written +
                             " must appear in GROUP BY or be used in an aggregate function (SQLite would return the "
                             "value of an arbitrary row of each group; PostgreSQL refuses)",
                         fix, pos(e.location >= 0 ? e.location : location));
      return;
    }
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && is_aggregate_call(*f)) return;
    if (const auto* sub = std::get_if<ast::SubLink>(&e.node)) outer_refs(*sub->query, Inner{});
    ast::for_each_child(e, check);
  };
  for (const auto& item : s.items) check(canonical(item.expr));
  if (s.having) check(canonical(*s.having));
  // ORDER BY reads a bare name as an output column first (GROUP BY reads it as an input column first).
  auto names_output = [&](const ast::Expr& e) {
    const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
    return ref && ref->table.empty() &&
           std::any_of(names.begin(), names.end(), [&](const std::string& n) { return same(n, ref->column); });
  };
  for (const auto& o : order_by)
    if (!output_item(*o.expr) && !names_output(*o.expr)) check(canonical(*o.expr));
  if (error) return *std::move(error);
  return {};
}

}  // namespace qg::admit::detail
