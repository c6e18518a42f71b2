// Static size bounds: how long can the value of an expression get? One call of
// replace(), printf() or string_agg() cannot be interrupted by the deadline
// (SQLite's progress handler runs between virtual-machine steps; PostgreSQL
// checks for cancellation between rows), so a statement of a few hundred bytes
// could make the engine build a gigabyte (issue #11: eight nested replace()
// calls, printf('%.*c', 1000000000, 'x')). Admission bounds it instead.
//
// The bound of an expression is linear: size <= k + g * V, where V is the
// longest stored value it reads (a column, a subquery's value), k the bytes it
// can build from literal text and fixed-size values, and `in` those literal
// and fixed-size bytes themselves. Every function and operator has a growth
// class in the capability table (capability::Growth); this file is the one
// place that turns a class into a bound. An expression is refused with
// limit:expression-size when g exceeds limits.max_expression_growth (stored
// values grow too much) or k exceeds that many times `in` (literal text grows
// too much; a value of at most kHarmlessBytes is always allowed). Bounds are
// conservative: a refusal names the function and a FIX.
//
// A number counts as 64 bytes, except a PostgreSQL numeric: a literal counts as
// its printed length (1e131071 prints 131072 digits), and power() / exp() and
// casts to numeric as the 147 KB a numeric can reach. A text aggregate's value
// grows with the rows it reads (`aggregated`): no call may lengthen it further
// (replace(string_agg(x, ''), '"', '<400 x>') built 350 MB in one call); the
// rows themselves are bounded at run time (the PostgreSQL plan gate, SQLite's
// heap limit).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

namespace qg::admit::detail {
namespace {

using capability::Growth;

// A number, boolean, date or timestamp printed as text is at most this long.
constexpr double kFixedBytes = 64;
// A numeric's text can be far longer: PostgreSQL allows 131072 digits before
// the point and 16383 after.
constexpr double kNumericBytes = 131072 + 16383 + 2;
// A value this long is built in one call in milliseconds: below it, literal
// text may grow more than max_expression_growth times (a numeric's 147 KB, a
// few of them concatenated).
constexpr double kHarmlessBytes = 1 << 20;
// Largest printf width or precision admitted (SQLite): printf('%.*c', 1e9, 'x')
// would run for seconds inside one call.
constexpr long kMaxPrintfWidth = 1000;
// Per printf conversion, beyond its width and precision: the longest number
// SQLite prints (%f of 1e308 has 309 integer digits).
constexpr double kPrintfConversionBytes = 400;

SizeBound fixed() {
  return {kFixedBytes, 0, kFixedBytes};
}

SizeBound plus(SizeBound a, const SizeBound& b) {
  a.k += b.k;
  a.g += b.g;
  a.in += b.in;
  a.aggregated = a.aggregated || b.aggregated;
  return a;
}

SizeBound widest(SizeBound a, const SizeBound& b) {
  a.k = std::max(a.k, b.k);
  a.g = std::max(a.g, b.g);
  a.in += b.in;
  a.aggregated = a.aggregated || b.aggregated;
  return a;
}

// The printed length of a number literal. PostgreSQL reads 1e131071 as a
// numeric and prints all its digits ("1" and 131071 zeros), 1e-16383 as
// "0.000...1"; SQLite reads any non-integer as a REAL, printed in at most 24
// characters.
double number_literal_bytes(const std::string& text, Dialect dialect) {
  const auto spelled = static_cast<double>(text.size());
  if (dialect == Dialect::Sqlite) return std::max(spelled, 24.0);
  double before = 0, after = 0;
  std::size_t i = 0;
  while (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  for (bool point = false; i < text.size(); ++i) {
    if (text[i] == '.') {
      point = true;
    } else if (text[i] >= '0' && text[i] <= '9') {
      (point ? after : before) += 1;
    } else {
      break;
    }
  }
  double exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const std::string digits = text.substr(i + 1);
    const bool negative = !digits.empty() && digits[0] == '-';
    const auto first = digits.find_first_not_of("+-0");
    const std::size_t length = first == std::string::npos ? 0 : digits.size() - first;
    exponent = length > 9 ? kNumericBytes : std::strtod(digits.c_str(), nullptr);
    if (length > 9 && negative) exponent = -kNumericBytes;
  }
  const double printed = std::max(1.0, before + exponent) + std::max(0.0, after - exponent) + 2;  // sign, point
  return std::min(std::max(printed, spelled), kNumericBytes);
}

bool float_cast(const ast::Expr& e) {
  const auto* c = std::get_if<ast::Cast>(&e.node);
  return c && (c->type.name == "float8" || c->type.name == "float4");
}

SizeBound times(SizeBound a, double factor) {
  a.k *= factor;
  a.g *= factor;
  return a;
}

const std::string* string_literal(const ast::Expr& e) {
  const auto* lit = std::get_if<ast::Literal>(&e.node);
  return lit && lit->kind == ast::LiteralKind::String ? &lit->text : nullptr;
}

// An integer literal, or one with a minus sign written before it.
std::optional<long long> integer_literal(const ast::Expr& e) {
  bool negative = false;
  const ast::Expr* x = &e;
  if (const auto* op = std::get_if<ast::Operator>(&e.node); op && !op->left && op->op == "-") {
    negative = true;
    x = &*op->right;
  }
  const auto* lit = std::get_if<ast::Literal>(&x->node);
  if (!lit || lit->kind != ast::LiteralKind::Integer || lit->text.size() > 12) return std::nullopt;
  const long long v = std::stoll(lit->text);
  return negative ? -v : v;
}

std::string figure(double x) {
  if (!std::isfinite(x)) return "unbounded";
  char buf[64];
  if (x < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", std::ceil(x));
  else
    std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

constexpr std::string_view kPrintfFix =
    "FIX: write the format as a string literal, with widths and precisions of at most 1000 written in it or passed "
    "as integer literals (printf('%.*c', 1000, 'x') is the most); to pad further, write the padding as a literal and "
    "cut it: substr('          ' || x, length(x) + 11 - n).";

}  // namespace

std::vector<SizeBound> widest_bounds(const std::vector<SizeBound>& a, const std::vector<SizeBound>& b) {
  std::vector<SizeBound> out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i < a.size()) out[i] = widest(out[i], a[i]);
    if (i < b.size()) out[i] = widest(out[i], b[i]);
  }
  return out;
}

const std::vector<SizeBound>& Admitter::bounds_of(const ast::Query& q) const {
  static const std::vector<SizeBound> kNone;
  auto it = query_bounds_.find(&q);
  return it == query_bounds_.end() ? kNone : it->second;
}

namespace {

bool calls_row_generator(const ast::Expr& e) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node))
    if (const auto* row = capability::find_function(f->name); row && row->growth == Growth::Rows) return true;
  bool found = false;
  ast::for_each_child(e, [&](const ast::Expr& child) { found = found || calls_row_generator(child); });
  return found;
}

}  // namespace

bool Admitter::generates_rows(const ast::Select& s, const Scope& level) const {
  for (const auto& r : level.relations)
    if (r.generated_rows) return true;
  for (const auto& item : s.items)
    if (calls_row_generator(item.expr)) return true;
  return false;
}

SizeBound Admitter::column_bound(const ast::ColumnRef& ref, const ExprContext& ctx) {
  if (ref.star) return {0, 1, 0};
  auto relation = column(ref, -1, ctx);
  // A select-list alias (ORDER BY / GROUP BY): bounded by the largest bound
  // checked so far in this statement.
  if (!relation || !*relation) return largest_bound_;
  const Relation& r = **relation;
  if (r.table) return {0, 1, 0};  // a stored value
  // A derived table's, a CTE's or a VALUES list's column: its expression's bound.
  for (std::size_t i = 0; i < r.columns.size() && i < r.bounds.size(); ++i)
    if (same(r.columns[i], ref.column)) return r.bounds[i];
  return largest_bound_;
}

SizeBound Admitter::bound_of(const ast::Expr& e, const ExprContext& ctx, SizeProblem* problem) {
  auto recurse = [&](const ast::Expr& child) { return bound_of(child, ctx, nullptr); };
  return std::visit(
      [&](const auto& n) -> SizeBound {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          return column_bound(n, ctx);
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          const auto bytes = static_cast<double>(n.text.size());
          if (n.kind == ast::LiteralKind::Numeric) return {number_literal_bytes(n.text, dialect_), 0, bytes};
          return {bytes, 0, bytes};
        } else if constexpr (std::is_same_v<T, ast::Param>) {
          // A literal of the longest value the parameter may be bound to.
          const auto spec = param_spec(n.name);
          const double bytes = spec ? static_cast<double>(spec->max_bytes) : INFINITY;
          return {bytes, 0, bytes};
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          return call_bound(n, ctx, problem);
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          const auto* row = capability::find_operator(n.op);
          SizeBound sum{};
          if (n.left) sum = plus(sum, recurse(**n.left));
          sum = plus(sum, recurse(*n.right));
          if (!row) return fixed();  // refused when admitted
          switch (row->growth) {
            case Growth::Within:
              return sum;
            case Growth::Double:
              return times(sum, 2);
            case Growth::Fixed:
            case Growth::Refused:
              return fixed();
            case Growth::CaseMap:
            case Growth::CodePoint:
            case Growth::Escape:
            case Growth::Format:
            case Growth::Power:
            case Growth::JoinedWith:
            case Growth::Replace:
            case Growth::RegexpReplace:
            case Growth::RegexpMatch:
            case Growth::Printf:
            case Growth::TextAggregate:
            case Growth::Rows:
              // No operator has these classes (capability_test checks it); be safe anyway.
              return {INFINITY, INFINITY, sum.in};
          }
          return {INFINITY, INFINITY, sum.in};
        } else if constexpr (std::is_same_v<T, ast::BoolOp> || std::is_same_v<T, ast::NullTest> ||
                             std::is_same_v<T, ast::BoolTest> || std::is_same_v<T, ast::DistinctFrom> ||
                             std::is_same_v<T, ast::InList> || std::is_same_v<T, ast::Between> ||
                             std::is_same_v<T, ast::Like> || std::is_same_v<T, ast::SqlValue>) {
          return fixed();  // a boolean or a clock value
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          return recurse(*n.left);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          SizeBound b{};
          for (const auto& w : n.whens) b = widest(b, recurse(*w.result));
          if (n.otherwise) b = widest(b, recurse(**n.otherwise));
          return b;
        } else if constexpr (std::is_same_v<T, ast::Coalesce> || std::is_same_v<T, ast::MinMax>) {
          SizeBound b{};
          for (const auto& a : n.args) b = widest(b, recurse(a));
          return b;
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          const std::string& type = n.type.name;
          if (type == "bpchar" && !n.type.modifiers.empty()) {
            // char(n) pads with spaces to n characters: CAST('x' AS char(10485760)) is lpad() spelled as a cast.
            SizeBound b = recurse(*n.arg);
            b.k += static_cast<double>(std::max<std::int64_t>(n.type.modifiers.front(), 0));
            return b;
          }
          if (type == "text" || type == "varchar" || type == "bpchar") return recurse(*n.arg);
          if (type == "json" || type == "jsonb") return times(recurse(*n.arg), 2);  // printed with spaces
          // CAST('1e131071' AS numeric): 131072 digits from a stored value of 8 bytes.
          if (type == "numeric") {
            // A number literal keeps its printed length (10::numeric is "10").
            if (const auto* lit = std::get_if<ast::Literal>(&n.arg->node);
                lit && (lit->kind == ast::LiteralKind::Integer || lit->kind == ast::LiteralKind::Numeric))
              return recurse(*n.arg);
            return {kNumericBytes, 0, recurse(*n.arg).in};
          }
          return fixed();
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind == ast::SubLinkKind::Scalar) {
            const auto& bounds = bounds_of(*n.query);
            return bounds.empty() ? largest_bound_ : bounds.front();
          }
          return fixed();  // EXISTS / IN / ANY / ALL are booleans
        } else {
          static_assert(sizeof(T) == 0, "every expression node needs a size bound");
        }
      },
      e.node);
}

SizeBound Admitter::call_bound(const ast::FuncCall& f, const ExprContext& ctx, SizeProblem* problem) {
  auto arg = [&](std::size_t i) { return bound_of(f.args[i], ctx, nullptr); };
  // The arguments from `first` on, and WITHIN GROUP's values (mode() and
  // percentile_disc() return one of them).
  auto sum_from = [&](std::size_t first) {
    SizeBound b{};
    for (std::size_t i = first; i < f.args.size(); ++i) b = plus(b, arg(i));
    for (const auto& item : f.within_group) b = plus(b, bound_of(*item.expr, ctx, nullptr));
    return b;
  };
  auto unbounded = [&](std::string why, std::string_view fix) {
    if (problem) *problem = SizeProblem{std::move(why), std::string(fix)};
    return SizeBound{INFINITY, INFINITY, sum_from(0).in};
  };
  const auto* row = capability::find_function(f.name);
  if (!row) return fixed();  // refused when admitted
  switch (row->growth) {
    case Growth::Fixed:
    case Growth::Rows:
    case Growth::Refused:
      return fixed();
    case Growth::Within:
      return sum_from(0);
    case Growth::Double:
      return times(sum_from(0), 2);
    case Growth::CaseMap:
      return times(sum_from(0), 3);
    case Growth::CodePoint:
      return times(sum_from(0), 4);
    case Growth::Escape:
      return times(sum_from(0), 6);
    case Growth::Format: {
      // to_char(value, format) (pg_to_char on SQLite) / strftime(format, time, ...): the format decides the length.
      const std::size_t format = f.name == "to_char" || f.name == "pg_to_char" ? 1 : 0;
      if (f.args.size() <= format) return fixed();
      SizeBound b = times(arg(format), 16);
      b.k += kFixedBytes;
      b.in += kFixedBytes;
      return b;
    }
    case Growth::Power: {
      // SQLite: a REAL. PostgreSQL: double precision when an argument is cast
      // to a float type; else possibly numeric: a base of n digits to the power
      // of an integer literal e has at most n * e digits, and 16 more after the
      // point when the base is below 1; any other exponent, and exp(), up to
      // a numeric's 147 KB (power(10::numeric, 131071)).
      if (dialect_ == Dialect::Sqlite) return fixed();
      for (const auto& a : f.args)
        if (float_cast(a)) return fixed();
      if (f.name != "exp" && f.args.size() == 2)
        if (const auto e = integer_literal(f.args[1]); e && *e >= 0 && *e <= 1'000'000) {
          SizeBound b = times(arg(0), std::max(1.0, static_cast<double>(*e)));
          b.k += kFixedBytes;
          b.in += arg(1).in;
          return b;
        }
      return {kNumericBytes, 0, sum_from(0).in};
    }
    case Growth::JoinedWith: {
      if (f.args.empty()) return fixed();
      const double gaps = f.args.size() > 2 ? static_cast<double>(f.args.size() - 2) : 0;
      return plus(sum_from(1), times(arg(0), gaps));
    }
    case Growth::Replace: {
      if (f.args.size() != 3) return sum_from(0);  // the engine refuses other arities
      const SizeBound to = arg(2);
      if (to.g > 0)
        return unbounded("replace() takes its replacement text from stored values, so its result has no bound",
                         "FIX: write the replacement text of replace() as a string literal.");
      const std::string* from = string_literal(f.args[1]);
      // A pattern that is not a literal may be one character long; an empty one replaces nothing.
      const double from_len = from ? static_cast<double>(from->size()) : 1;
      const double factor = from_len == 0 ? 1 : std::max(1.0, std::ceil(to.k / from_len));
      SizeBound b = times(arg(0), factor);
      b.in += arg(1).in + to.in;
      return b;
    }
    case Growth::RegexpReplace: {
      if (f.args.size() < 3) return sum_from(0);
      const std::string* to = string_literal(f.args[2]);
      if (!to)
        return unbounded(
            "regexp_replace() takes a replacement that is not a string literal, so its result has no "
            "bound",
            "FIX: write the replacement text of regexp_replace() as a string literal.");
      double refs = 0;  // \1 .. \9 and \& copy (part of) the match into every replacement
      for (std::size_t i = 0; i + 1 < to->size(); ++i)
        if ((*to)[i] == '\\') {
          const char c = (*to)[i + 1];
          if ((c >= '0' && c <= '9') || c == '&') ++refs;
          ++i;
        }
      // Every match, even an empty one at each position, becomes the replacement.
      const double literal = static_cast<double>(to->size());
      SizeBound b = times(arg(0), 1 + literal + refs);
      b.k += literal;
      for (std::size_t i = 1; i < f.args.size(); ++i) b.in += arg(i).in;
      return b;
    }
    case Growth::RegexpMatch: {
      if (f.args.size() < 2) return sum_from(0);
      const std::string* re = string_literal(f.args[1]);
      if (!re)
        return unbounded("regexp_match() takes a pattern that is not a string literal, so its result has no bound",
                         "FIX: write the pattern of regexp_match() as a string literal.");
      // One copy of (part of) the match per capture group, printed as a quoted array.
      const double groups = static_cast<double>(std::count(re->begin(), re->end(), '('));
      // (On SQLite a JSON array text, whose escapes are up to 6 bytes a byte: sqlite_arrays.hpp.)
      SizeBound b = times(arg(0), (f.name == "pg_regexp_match" ? 6 : 2) * std::max(1.0, groups));
      b.k += kFixedBytes;
      for (std::size_t i = 1; i < f.args.size(); ++i) b.in += arg(i).in;
      return b;
    }
    case Growth::Printf: {
      if (f.args.empty()) return fixed();
      const std::string* format = string_literal(f.args[0]);
      if (!format) return unbounded(f.name + "() takes a format that is not a string literal", kPrintfFix);
      SizeBound b{static_cast<double>(format->size()), 0, static_cast<double>(format->size())};
      std::size_t next = 1;  // the next argument a conversion consumes
      const std::string& s = *format;
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') continue;
        if (++i >= s.size()) break;
        if (s[i] == '%') continue;
        while (i < s.size() && std::string_view("-+ 0#,!").find(s[i]) != std::string_view::npos) ++i;
        // Width, then precision: digits or * (taken from the next argument).
        double sizes = 0;
        for (int part = 0; part < 2; ++part) {
          if (part == 1) {
            if (i >= s.size() || s[i] != '.') break;
            ++i;
          }
          if (i < s.size() && s[i] == '*') {
            ++i;
            const auto v = next < f.args.size() ? integer_literal(f.args[next]) : std::nullopt;
            ++next;
            if (!v || *v > kMaxPrintfWidth || *v < -kMaxPrintfWidth)
              return unbounded(f.name +
                                   "() takes a width or precision (*) that is not an integer literal between "
                                   "-1000 and 1000",
                               kPrintfFix);
            sizes += static_cast<double>(*v < 0 ? -*v : *v);
            continue;
          }
          long long digits = 0;
          while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            digits = digits * 10 + (s[i] - '0');
            ++i;
            if (digits > kMaxPrintfWidth)
              return unbounded(f.name + "() has a width or precision over 1000 in its format", kPrintfFix);
          }
          sizes += static_cast<double>(digits);
        }
        while (i < s.size() && s[i] == 'l') ++i;  // length modifiers
        // %c repeats its character `precision` times (up to 4 bytes each); %q / %Q / %w double quotes.
        b.k += 4 * sizes + kPrintfConversionBytes;
        if (next < f.args.size()) b = plus(b, times(arg(next), 2));
        ++next;
      }
      return b;
    }
    case Growth::TextAggregate: {
      // Rows made by generate_series are not stored data: a text aggregate over
      // them grows until the deadline (75 MB/s on PostgreSQL: gigabytes).
      if (ctx.scope)
        for (const auto& r : ctx.scope->relations)
          if (r.generated_rows)
            return unbounded(f.name +
                                 "() aggregates rows made by generate_series(), whose number no stored data "
                                 "bounds",
                             "FIX: aggregate the stored rows first, in a subquery grouped by the period, and LEFT "
                             "JOIN that to the generate_series calendar; over the calendar itself use count(*) or "
                             "min/max.");
      // One row's share (every argument, the separator included, and the
      // punctuation JSON and arrays add), times however many rows there are:
      // what one row builds from literals is paid again by every row, so the
      // aggregate's bound grows with the rows read, like a stored value.
      const bool json = f.name.find("json") != std::string::npos || f.name == "pg_array_agg";
      const bool array = f.name == "array_agg";
      SizeBound row = times(sum_from(0), json ? 6 : array ? 2 : 1);
      if (f.name == "group_concat" && f.args.size() == 1) row.k += 1;  // the default ',' separator
      row.k += json || array ? 8 : 0;
      return {2, row.g + row.k, row.in, /*aggregated=*/true};
    }
  }
  return {INFINITY, INFINITY, 0};
}

Status Admitter::check_size(const ast::Expr& e, const ExprContext& ctx) {
  SizeProblem problem;
  const SizeBound b = bound_of(e, ctx, &problem);
  std::string name;
  Growth growth = Growth::Within;
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    name = f->name == "pg_jsonb_in" ? "a cast to jsonb" : f->name + "()";  // json_on_sqlite.cpp
    if (const auto* row = capability::find_function(f->name)) growth = row->growth;
  } else if (const auto* op = std::get_if<ast::Operator>(&e.node)) {
    name = "the operator " + op->op;
  } else if (std::holds_alternative<ast::Cast>(e.node)) {
    name = "a cast to char(n)";
  }
  const auto ceiling = static_cast<double>(max_expression_growth_);
  if (!problem.why.empty())
    return make_error(ErrorCode::LimitExpressionSize, problem.why, problem.fix, pos(e.location));
  // A text aggregate's result grows with the rows read: a call may pass it on
  // (||, substr, max) but not lengthen it (replace, upper, json quoting ...).
  if (b.aggregated && growth != Growth::TextAggregate) {
    SizeBound in{};
    auto add = [&](const ast::Expr& child) { in = plus(in, bound_of(child, ctx, nullptr)); };
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
      for (const auto& a : f->args) add(a);
      for (const auto& item : f->within_group) add(*item.expr);
    } else if (const auto* op = std::get_if<ast::Operator>(&e.node)) {
      if (op->left) add(**op->left);
      add(*op->right);
    }
    if (in.aggregated && b.g > in.g * (1 + 1e-9))
      return make_error(
          ErrorCode::LimitExpressionSize,
          name + " can make the result of a text aggregate (string_agg, group_concat, json_agg ..., which " +
              "grows with every row it reads) " + figure(b.g / std::max(in.g, 1e-9)) + " times as long in one call",
          "FIX: apply " + name +
              " to each value inside the aggregate, e.g. string_agg(replace(x, 'a', 'b'), ',') instead "
              "of replace(string_agg(x, ','), 'a', 'b'); an aggregate's result may be measured, "
              "compared or passed on, not lengthened.",
          pos(e.location));
  }
  const bool stored_grows = b.g > ceiling;
  const bool literal_grows = b.k > std::max(ceiling * std::max(b.in, 1.0), kHarmlessBytes);
  if (stored_grows || literal_grows) {
    std::string how =
        name + " can build a value " + figure(b.g) + " times as long as the longest stored value it reads";
    if (growth == Growth::TextAggregate)
      how = name + " can add " + figure(b.g) + " times the longest stored value it reads for every row it aggregates";
    if (!stored_grows)
      how = name + " can build a value of " + figure(b.k) + " bytes from " + figure(b.in) +
            " bytes of literal text and fixed-size values";
    std::string fix;
    switch (growth) {
      case Growth::Replace:
      case Growth::RegexpReplace:
        fix = "FIX: nest fewer " + name + " calls or replace with shorter text, so that the text grows at most " +
              std::to_string(max_expression_growth_) + " times; cut long inputs first with substr(x, 1, n).";
        break;
      case Growth::Printf:
        fix = std::string(kPrintfFix);
        break;
      case Growth::TextAggregate:
        fix =
            "FIX: aggregate shorter values: use a short separator, cut each value with substr(x, 1, n), or count "
            "and group instead of concatenating.";
        break;
      case Growth::Fixed:
      case Growth::Within:
      case Growth::Double:
      case Growth::CaseMap:
      case Growth::CodePoint:
      case Growth::Escape:
      case Growth::Power:
        fix =
            "FIX: compute the power in double precision, power(CAST(x AS double precision), y), or raise to a small "
            "integer literal.";
        break;
      case Growth::Format:
      case Growth::JoinedWith:
      case Growth::RegexpMatch:
      case Growth::Rows:
      case Growth::Refused:
        fix =
            "FIX: build a shorter value: nest fewer functions that lengthen text (replace, printf, lower/upper, "
            "json quoting, ||), or cut long inputs first with substr(x, 1, n).";
        break;
    }
    return make_error(
        ErrorCode::LimitExpressionSize,
        how + "; the ceiling is limits.max_expression_growth = " + std::to_string(max_expression_growth_) + " times",
        fix, pos(e.location));
  }
  // A select-list alias (ORDER BY / GROUP BY) is bounded by the largest bound
  // checked so far, with the steepest literal growth seen.
  largest_bound_.k = std::max(largest_bound_.k, b.k);
  largest_bound_.g = std::max(largest_bound_.g, b.g);
  largest_bound_.aggregated = largest_bound_.aggregated || b.aggregated;
  steepest_literal_growth_ = std::max(steepest_literal_growth_, b.k / std::max(b.in, 1.0));
  largest_bound_.in = largest_bound_.k / std::max(steepest_literal_growth_, 1.0);
  return {};
}

}  // namespace qg::admit::detail
