// PostgreSQL's function signatures at admission (issue #12, "Types at
// admission"): a call of a function capability/signatures.hpp declares is
// checked against its signatures with PostgreSQL's implicit casts (int4 → int8
// → numeric → float8; an untyped literal is read as the parameter's type; text
// is not a number, a boolean is not a number, an interval is not a point in
// time). A call no signature takes is PostgreSQL's "function ... does not
// exist": refused here on both backends, where SQLite would answer it by its
// own rules. An argument whose type admission cannot tell matches anything:
// only KNOWN types are refused.
//
// An untyped literal ('2') where every signature the other arguments leave
// takes an integer is read as that integer, as PostgreSQL's int4in does
// (spaces around it and a sign allowed); what does not read as one is its
// error ("invalid input syntax for type integer"), refused. Where they take
// several number types PostgreSQL reads it as double precision: written as that
// cast. Where one takes text, the literal stays text (substring(x, 'a.') is a
// regular expression).
#include <algorithm>
#include <cctype>
#include <limits>

#include "admission/admit/admitter.hpp"
#include "admission/capability/signatures.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {
namespace {

using capability::ArgType;

// The PostgreSQL types a value of type `v` (time kind `kind` when known) may have: none for a type admission
// cannot tell (it matches every parameter).
std::vector<ArgType> possible_types(const ValueType& v, std::optional<pgtime::Kind> kind) {
  switch (v.type) {
    case SqlType::Unknown:
    case SqlType::Untyped:
    case SqlType::Null:
      return {};
    case SqlType::Boolean:
      return {ArgType::Bool};
    case SqlType::Integer:
      return {v.int8 ? ArgType::Int8 : ArgType::Int4};  // an integer of unknown width: as int4 (the lenient reading)
    case SqlType::Numeric:
      return {ArgType::Numeric};
    case SqlType::Float:
      return {ArgType::Float8};
    case SqlType::Text:
      return {ArgType::Text};
    case SqlType::Json:
      return {ArgType::Jsonb, ArgType::Json};  // admission does not tell json from jsonb
    case SqlType::Time:
      if (!kind) return {ArgType::Date, ArgType::Timestamp, ArgType::Timestamptz, ArgType::Interval};
      switch (*kind) {
        case pgtime::Kind::Date:
          return {ArgType::Date};
        case pgtime::Kind::Timestamp:
          return {ArgType::Timestamp};
        case pgtime::Kind::Timestamptz:
          return {ArgType::Timestamptz};
        case pgtime::Kind::Interval:
        case pgtime::Kind::Time:  // time of day: its implicit cast is to interval
          return {ArgType::Interval};
      }
      return {};
  }
  return {};
}

// Does an argument of type `v` reach parameter `p` by PostgreSQL's implicit casts (capability::implicit_cast)?
bool reaches(const ValueType& v, std::optional<pgtime::Kind> kind, ArgType p) {
  if (v.type == SqlType::Unknown || v.type == SqlType::Untyped || v.type == SqlType::Null) return true;
  const auto from = possible_types(v, kind);
  return std::any_of(from.begin(), from.end(), [&](ArgType t) { return capability::implicit_cast(t, p); });
}

// The argument's type is the parameter's itself (no cast needed).
bool exact(const ValueType& v, ArgType p) {
  switch (v.type) {
    case SqlType::Boolean:
      return p == ArgType::Bool;
    case SqlType::Integer:
      return p == (v.int8 ? ArgType::Int8 : ArgType::Int4);
    case SqlType::Numeric:
      return p == ArgType::Numeric;
    case SqlType::Float:
      return p == ArgType::Float8;
    case SqlType::Text:
      return p == ArgType::Text;
    case SqlType::Json:
      return p == ArgType::Json || p == ArgType::Jsonb;
    default:
      return false;
  }
}

bool integer_type(ArgType p) {
  return p == ArgType::Int4 || p == ArgType::Int8;
}
bool number_type(ArgType p) {
  return integer_type(p) || p == ArgType::Numeric || p == ArgType::Float8;
}

}  // namespace

std::string sql_type_words(const ValueType& v, std::optional<pgtime::Kind> kind) {
  if (v.array) {
    ValueType element = v;
    element.array = false;
    return sql_type_words(element, kind) + "[]";
  }
  switch (v.type) {
    case SqlType::Unknown:
    case SqlType::Untyped:
    case SqlType::Null:
      return "unknown";
    case SqlType::Boolean:
      return "boolean";
    case SqlType::Integer:
      return v.int8 ? "bigint" : v.width == 2 ? "smallint" : "integer";
    case SqlType::Numeric:
      return "numeric";
    case SqlType::Float:
      return v.width == 4 ? "real" : "double precision";
    case SqlType::Text:
      return "text";
    case SqlType::Json:
      return "jsonb";
    case SqlType::Time:
      return kind ? std::string(pgtime::type_words(*kind)) : "timestamp";
  }
  return "unknown";
}

// PostgreSQL's int4in / int8in (15): optional spaces, an optional sign, decimal digits, optional spaces, within
// the type's range. The value's digits, without sign or spaces, or nullopt; `range` is set when only the range fails.
std::optional<std::int64_t> read_pg_integer(std::string_view s, bool int8, bool& range) {
  range = false;
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  // Magnitudes up to 2^63 (INT64_MIN's), in unsigned arithmetic.
  unsigned long long v = 0;
  constexpr unsigned long long kLimit = 9223372036854775808ULL;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    if (v > (kLimit - static_cast<unsigned long long>(c - '0')) / 10) {
      range = true;
      v = kLimit + 1;
      continue;
    }
    v = v * 10 + static_cast<unsigned long long>(c - '0');
  }
  const unsigned long long max = int8 ? kLimit - 1 : 2147483647ULL;
  if (v > max + (negative ? 1 : 0)) {
    range = true;
    return std::nullopt;
  }
  if (negative) return v == kLimit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
  return static_cast<std::int64_t>(v);
}

Status Admitter::signature_types(ast::FuncCall& f, const ExprContext& ctx, int location, bool arguments_admitted) {
  if (f.star || f.distinct || f.over || !f.within_group.empty() || !f.order_by.empty() || f.filter) return {};
  const auto all = capability::signatures_of(f.name);
  if (all.empty()) return {};
  // round / trunc(double precision, n): PostgreSQL's error, admitted on both backends as the numeric it
  // prints as (issue #12's kindness rule; value_types.cpp, function_types; tests/parity/numbers.sql).
  std::vector<ValueType> types;
  std::vector<std::optional<pgtime::Kind>> kinds;
  for (const auto& a : f.args) {
    types.push_back(value_type(a, ctx));
    kinds.push_back(types.back().type == SqlType::Time ? time_kind(a, ctx) : std::nullopt);
  }
  if ((f.name == "round" || f.name == "trunc") && f.args.size() == 2 && types.front().type == SqlType::Float)
    types.front() = {SqlType::Numeric};  // its digits argument is still checked

  std::vector<const std::vector<ArgType>*> fitting;
  bool arity = false;
  for (const auto& s : all) {
    if (s.size() != f.args.size()) continue;
    arity = true;
    bool ok = true;
    for (std::size_t i = 0; ok && i < s.size(); ++i) ok = reaches(types[i], kinds[i], s[i]);
    if (ok) fitting.push_back(&s);
  }

  auto call_words = [&] {
    std::string out = f.name + "(";
    for (std::size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + sql_type_words(types[i], kinds[i]);
    return out + ")";
  };
  auto signature_words = [&](const std::vector<ArgType>& s) {
    std::string out = f.name + "(";
    for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::string(capability::arg_type_words(s[i]));
    return out + ")";
  };
  // The call as written with argument i replaced by the number 1 (for FIXes).
  auto with_number = [&](std::size_t i) {
    std::string out = f.name + "(";
    for (std::size_t k = 0; k < f.args.size(); ++k)
      out += (k ? ", " : "") + (k == i ? "1" : shown(f.args[k], dialect_));
    return out + ")";
  };
  auto known_list = [&] {
    std::string out;
    for (std::size_t i = 0; i < all.size() && i < 6; ++i) out += (i ? ", " : "") + signature_words(all[i]);
    return out + (all.size() > 6 ? ", ..." : "");
  };

  if (fitting.empty()) {
    std::string fix;
    if (!arity) {
      fix = "FIX: PostgreSQL's " + f.name + "() takes: " + known_list() + ".";
    } else {
      // The first signature of this arity, and its first argument the call's type does not reach: cast that one.
      const std::vector<ArgType>* first = nullptr;
      for (const auto& s : all)
        if (s.size() == f.args.size()) {
          first = &s;
          break;
        }
      std::size_t bad = 0;
      while (bad < first->size() && reaches(types[bad], kinds[bad], (*first)[bad])) ++bad;
      fix = "FIX: call it with the types PostgreSQL has (" + known_list() + ")";
      if (bad < first->size()) {
        const ValueType& t = types[bad];
        const ArgType want = (*first)[bad];
        const std::string what = shown(f.args[bad], dialect_);
        if (t.type == SqlType::Json && want == ArgType::Text)
          fix += ": read the JSON value as text with " + what + " ->> 'key', or write CAST(" + what + " AS text)";
        else if (t.type == SqlType::Boolean && number_type(want))
          fix += ": turn the condition into a number with CASE WHEN " + what + " THEN 1 ELSE 0 END";
        else if (t.type == SqlType::Time && number_type(want))
          // A time has no cast to a number (CAST(d AS double precision) is an error too): its parts or its epoch.
          fix += ": for a time, round with date_trunc('day', " + what + ") or take a number from it with extract(" +
                 "epoch FROM " + what + ")";
        else
          fix += ", e.g. CAST(" + what + " AS " + std::string(capability::arg_type_words(want)) + ")";
      }
      fix += ".";
    }
    return make_error(ErrorCode::ValidationUnsupported,
                      "function " + call_words() + " does not exist in PostgreSQL (\"function " + call_words() +
                          " does not exist\"); SQLite would answer it by its own rules",
                      fix, pos(location));
  }

  // Untyped literals: read as the type every fitting signature takes there (PostgreSQL's rule for unknown),
  // among those that take the most typed arguments exactly as they are (PostgreSQL's first preference:
  // mod(5, '2') is mod(integer, integer)).
  {
    std::vector<int> exact_counts;
    for (const auto* s : fitting) {
      int n = 0;
      for (std::size_t i = 0; i < s->size(); ++i) n += exact(types[i], (*s)[i]) ? 1 : 0;
      exact_counts.push_back(n);
    }
    const int best = *std::max_element(exact_counts.begin(), exact_counts.end());
    std::vector<const std::vector<ArgType>*> kept;
    for (std::size_t k = 0; k < fitting.size(); ++k)
      if (exact_counts[k] == best) kept.push_back(fitting[k]);
    fitting = std::move(kept);
  }
  // (Once, before the arguments are admitted: what replaces a literal is admitted with them.)
  for (std::size_t i = 0; i < f.args.size() && !arguments_admitted; ++i) {
    if (types[i].type != SqlType::Untyped) continue;
    auto* lit = std::get_if<ast::Literal>(&f.args[i].node);
    if (!lit || lit->kind != ast::LiteralKind::String) continue;
    bool text = false, integers = true, numbers = true, float8 = false, int8 = false;
    for (const auto* s : fitting) {
      const ArgType p = (*s)[i];
      text = text || p == ArgType::Text;
      integers = integers && integer_type(p);
      numbers = numbers && number_type(p);
      float8 = float8 || p == ArgType::Float8;
      int8 = int8 || p == ArgType::Int8;
    }
    if (text || !numbers) continue;  // text, or a time or JSON value: the function's own rules read it
    const int at = f.args[i].location;
    const std::string written = lit->text;
    if (integers) {
      // to_hex('255'): integer and bigint alike, PostgreSQL's "function to_hex(unknown) is not unique".
      const bool int4 =
          std::any_of(fitting.begin(), fitting.end(), [&](const auto* s) { return (*s)[i] == ArgType::Int4; });
      if (int4 && int8)
        return make_error(ErrorCode::ValidationUnsupported,
                          "function " + call_words() + " is not unique in PostgreSQL: it takes '" +
                              written.substr(0, 40) + "' as an integer or as a bigint",
                          "FIX: write the number without quotes, e.g. " + with_number(i) + ".", pos(at));
      const bool wide = int8;
      bool range = false;
      const auto v = read_pg_integer(written, wide, range);
      if (!v)
        return make_error(ErrorCode::ValidationUnsupported,
                          f.name + "(): the text '" + written.substr(0, 40) + "' is passed where PostgreSQL takes " +
                              (wide ? "a bigint" : "an integer") + ", and it is not one (\"" +
                              (range ? "value \"" + written.substr(0, 40) + "\" is out of range for type " +
                                           (wide ? "bigint" : "integer")
                                     : "invalid input syntax for type " + std::string(wide ? "bigint" : "integer") +
                                           ": \"" + written.substr(0, 40) + "\"") +
                              "\")",
                          "FIX: pass a whole number without quotes" +
                              (wide ? "" : std::string(" (-2147483648 to 2147483647)")) + ", e.g. " + with_number(i) +
                              ".",
                          pos(at));
      f.args[i] = ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(*v)}, at);
      note_rewrite("types:untyped-literal");
      continue;
    }
    if (float8 && f.name == "trunc")  // trunc also takes macaddr and macaddr8: PostgreSQL cannot choose
      return make_error(ErrorCode::ValidationUnsupported,
                        "function " + call_words() + " is not unique in PostgreSQL: it reads '" +
                            written.substr(0, 40) + "' as a number or a MAC address",
                        "FIX: write the number without quotes, e.g. " + with_number(i) + ".", pos(at));
    if (float8) {
      // abs('2'), round('2.5'): PostgreSQL reads the text as double precision (its preferred number type).
      ast::Expr value = std::move(f.args[i]);
      f.args[i] = ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(value)), ast::TypeName{"float8", {}}}, at);
      note_rewrite("types:untyped-literal");
      continue;
    }
    return make_error(ErrorCode::ValidationUnsupported,
                      f.name + "(): the text '" + written.substr(0, 40) +
                          "' is passed where PostgreSQL takes a number of a type it cannot choose from the text",
                      "FIX: write the number without quotes, e.g. " + written.substr(0, 20) + " instead of '" +
                          written.substr(0, 20) + "'.",
                      pos(at));
  }
  // substring(x, 'pattern'[, escape]) is PostgreSQL's regular-expression substring; SQLite's substr would read
  // the text as a position.
  if (dialect_ == Dialect::Sqlite && f.name == "substring" && f.args.size() >= 2) {
    const ValueType second = value_type(f.args[1], ctx);
    if (second.type == SqlType::Untyped || second.type == SqlType::Text)
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        f.name + "(" + shown(f.args[0], dialect_) + ", " + shown(f.args[1], dialect_) +
                            ") takes a regular expression in PostgreSQL; it is not translated on SQLite",
                        "FIX: on SQLite, write regexp_substr(" + shown(f.args[0], dialect_) + ", " +
                            shown(f.args[1], dialect_) +
                            ") for the whole match (PostgreSQL's substring returns the first parenthesized group "
                            "when the pattern has one).",
                        pos(location));
  }
  return {};
}

}  // namespace qg::admit::detail
