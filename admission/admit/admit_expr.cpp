// Expressions: every node is visited and checked against the capability table.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {

Status Admitter::construct(capability::Construct c, int location) {
  const auto& row = capability::find(c);
  const auto& cell = capability::cell(row, dialect_);
  if (cell.verdict != capability::Verdict::Refuse) return {};
  const auto& other = capability::cell(row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
  const bool elsewhere = other.verdict != capability::Verdict::Refuse;
  const ErrorCode code = !elsewhere                    ? ErrorCode::ValidationUnsupported
                         : dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite
                                                       : ErrorCode::CapabilityNotOnPostgres;
  return make_error(code, std::string(row.sql_words) + " is not available on " + std::string(dialect_name(dialect_)),
                    std::string(cell.note), pos(location));
}

namespace {

// generate_series(start, stop, step) whose step is written as an interval:
// INTERVAL '1 month', '1 month'::interval, or a bare '1 month' (PostgreSQL types
// it from the timestamps). A bare literal must name a unit: '1' would be an
// integer step.
bool interval_step(const ast::FuncCall& f) {
  if (f.args.size() != 3) return false;
  if (const auto* cast = std::get_if<ast::Cast>(&f.args[2].node)) return cast->type.name == "interval";
  const auto* lit = std::get_if<ast::Literal>(&f.args[2].node);
  return lit != nullptr && lit->kind == ast::LiteralKind::String &&
         std::any_of(lit->text.begin(), lit->text.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// Whether PostgreSQL reads `text` as a number: optional blanks and sign,
// digits with at most one point, an optional exponent.
bool plain_number(std::string_view text) {
  std::size_t i = 0;
  auto blanks = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  auto run = [&] {
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  blanks();
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = run();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += run();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (run() == 0) return false;
  }
  blanks();
  return i == text.size();
}

}  // namespace

// A number with more integer digits than SQLite's 64-bit integers and doubles
// hold exactly: PostgreSQL keeps every digit (numeric), SQLite would round it.
Status Admitter::big_number_literal(const ast::Literal& lit, int location) {
  if (dialect_ != Dialect::Sqlite || lit.kind != ast::LiteralKind::Numeric) return {};
  if (lit.text.find_first_of("eE") != std::string::npos) {
    // 1e400 and 1e-400: PostgreSQL's numeric holds them exactly; SQLite's double would make them Infinity or 0.
    double v = 0;
    const std::string_view t = lit.text[0] == '+' ? std::string_view(lit.text).substr(1) : std::string_view(lit.text);
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    const std::string_view mantissa = t.substr(0, t.find_first_of("eE"));
    const bool nonzero = mantissa.find_first_of("123456789") != std::string_view::npos;
    const bool lost = ec == std::errc::result_out_of_range || std::isinf(v) ||
                      (nonzero && std::fabs(v) < std::numeric_limits<double>::min()) || std::fabs(v) >= 9.2e18;
    if (end == t.data() + t.size() && !lost) return {};
    return make_error(
        ErrorCode::CapabilityNotOnSqlite,
        lit.text + " is beyond what SQLite's numbers hold exactly (its double would make it " +
            (t.find_first_of("eE") + 1 < t.size() && t[t.find_first_of("eE") + 1] == '-' ? "0 or round it"
                                                                                         : "Infinity or round it") +
            "); PostgreSQL's numeric keeps it exactly",
        "FIX: on SQLite, use numbers between 1e-307 and 9.2e18 in magnitude, or, where a double is meant (a bound "
        "for a double precision column), write the double itself: CAST('" +
            lit.text + "' AS double precision).",
        pos(location));
  }
  std::size_t i = lit.text.find_first_not_of("+-0");
  std::size_t digits = 0;
  while (i != std::string::npos && i + digits < lit.text.size() &&
         std::isdigit(static_cast<unsigned char>(lit.text[i + digits])))
    ++digits;
  const bool whole = lit.text.find('.') == std::string::npos;
  // Significant digits of a number with a fraction (leading zeros and trailing zeros of the fraction do not
  // count): past 15, SQLite's double rounds it (0.49999999999999999999 would be 0.5; outside tester, s7).
  std::string significant;
  for (char c : lit.text)
    if (c >= '0' && c <= '9') significant += c;
  if (!whole) {
    const auto point = lit.text.find('.');
    std::string fraction = lit.text.substr(point + 1);
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    std::string integer_part;
    for (char c : lit.text.substr(0, point))
      if (c >= '0' && c <= '9') integer_part += c;
    significant = integer_part + fraction;
  }
  const auto first = significant.find_first_not_of('0');
  const std::size_t significant_digits = first == std::string::npos ? 0 : significant.size() - first;
  if (!whole && digits <= 15 && significant_digits > 15)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      lit.text + " has " + std::to_string(significant_digits) +
                          " significant digits: SQLite holds 15 exactly (its double would round it); PostgreSQL's "
                          "numeric keeps them all",
                      "FIX: on SQLite, write the number with at most 15 significant digits.", pos(location));
  if (digits <= 15 || (whole && ast::integer_value(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, lit.text}))))
    return {};  // a whole number within int64 is an exact SQLite INTEGER
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    lit.text + " has more integer digits than SQLite holds exactly (it would round it to a double)",
                    "FIX: on SQLite, use whole numbers within 64 bits (up to 9223372036854775807) or at most 15 "
                    "integer digits with a fraction.",
                    pos(location));
}

// CAST('...' AS a number type) on SQLite: SQLite reads the longest numeric
// prefix ('Infinity', 'NaN', 'abc' all become 0), where PostgreSQL reads
// Infinity/NaN as those values and refuses anything else. Only plain numbers pass.
Status Admitter::numeric_text_cast(const ast::Cast& c, int location) {
  static constexpr std::string_view kNumberTypes[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
  if (dialect_ != Dialect::Sqlite ||
      std::find(std::begin(kNumberTypes), std::end(kNumberTypes), c.type.name) == std::end(kNumberTypes))
    return {};
  const auto* lit = std::get_if<ast::Literal>(&c.arg->node);
  // A whole number past 2^53 as a numeric: SQLite holds numerics as doubles, which lose its units
  // (9007199254740993::numeric is 9007199254740992 there); PostgreSQL's numeric is exact.
  // (The grammar writes a whole number past 32 bits as a Numeric literal.)
  bool past_int8 = false;
  const auto whole = lit && (lit->kind == ast::LiteralKind::Integer || lit->kind == ast::LiteralKind::Numeric)
                         ? read_pg_integer(lit->text, true, past_int8)
                         : std::nullopt;
  if (c.type.name == "numeric" &&
      (past_int8 || (whole && (*whole > (std::int64_t{1} << 53) || *whole < -(std::int64_t{1} << 53)))))
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "CAST(" + lit->text +
                          " AS numeric): SQLite holds a numeric as a double, exact to 2^53 "
                          "(9007199254740992) only",
                      "FIX: on SQLite, keep a whole number past 2^53 a bigint (write " + lit->text +
                          " without the cast); numeric arithmetic there holds 15 significant digits.",
                      pos(location));
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  const bool integer_type = c.type.name == "int2" || c.type.name == "int4" || c.type.name == "int8";
  // PostgreSQL reads an integer type's text as digits only ('2.7' and '1e3' are errors); SQLite reads 2 and 1.
  if (integer_type && plain_number(lit->text) && lit->text.find_first_of(".eE") != std::string::npos)
    return make_error(ErrorCode::ValidationUnsupported,
                      "CAST('" + lit->text + "' AS " + c.type.name +
                          "): PostgreSQL refuses a text that is not a whole number (\"invalid input syntax for type "
                          "integer\"); SQLite would read its leading digits",
                      "FIX: write the number bare and round it explicitly, e.g. CAST(round(2.7) AS integer), or "
                      "write the whole number as text, e.g. CAST('3' AS integer).",
                      pos(location));
  if (plain_number(lit->text)) {
    // PostgreSQL's int2in / int4in / int8in refuse a whole number past the type's range; SQLite's CAST clamps
    // it to 64 bits ('9223372036854775808' → 9223372036854775807) or keeps it (40000 as a smallint).
    bool range = false;
    const auto v = integer_type ? read_pg_integer(lit->text, true, range) : std::nullopt;
    const bool past = range || (v && c.type.name == "int4" && (*v < -2147483648LL || *v > 2147483647LL)) ||
                      (v && c.type.name == "int2" && (*v < -32768 || *v > 32767));
    if (integer_type && past) {
      const std::string type = c.type.name == "int2" ? "smallint" : c.type.name == "int4" ? "integer" : "bigint";
      return make_error(ErrorCode::ValidationUnsupported,
                        "CAST('" + lit->text + "' AS " + type + ") is PostgreSQL's error \"value \"" + lit->text +
                            "\" is out of range for type " + type + "\"",
                        "FIX: cast to a wider type: bigint (to 9223372036854775807) or numeric, e.g. CAST('" +
                            lit->text + "' AS numeric).",
                        pos(location));
    }
    // float8in / float4in refuse a number past the type's range, also one too small ("1e-400"); SQLite's CAST
    // reads Infinity or 0.
    if (c.type.name == "float8" || c.type.name == "float4") {
      std::string_view digits = lit->text;
      if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
      double d = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
      const double magnitude = std::fabs(d);
      const bool float4 = c.type.name == "float4";
      const bool out = ec == std::errc::result_out_of_range || std::isinf(d) ||
                       (float4 && (magnitude > std::numeric_limits<float>::max() ||
                                   (magnitude != 0 && magnitude < std::numeric_limits<float>::denorm_min())));
      if (end == digits.data() + digits.size() && out) {
        const std::string type = float4 ? "real" : "double precision";
        return make_error(ErrorCode::ValidationUnsupported,
                          "CAST('" + lit->text + "' AS " + type + ") is PostgreSQL's error \"\"" + lit->text +
                              "\" is out of range for type " + type + "\"",
                          "FIX: write a number within the range of " + type +
                              " (about 1e-307 to 1e308 for double precision), or CAST('" + lit->text + "' AS numeric).",
                          pos(location));
      }
    }
    return {};
  }
  std::string lower = lit->text;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool special = lower.find("inf") != std::string::npos || lower.find("nan") != std::string::npos;
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "CAST('" + lit->text + "' AS " + c.type.name + ") is not a number: SQLite would read it as 0" +
                        (special ? " (SQLite has no Infinity or NaN values)" : ""),
                    special ? "FIX: on SQLite, compare with a finite bound such as 1e308 instead of Infinity, and "
                              "test IS NULL instead of NaN."
                            : "FIX: write the number bare, e.g. 42 or 3.5.",
                    pos(location));
}

Status Admitter::function(ast::FuncCall& f, int location, const ExprContext& ctx) {
  const auto* row = capability::find_function(f.name);
  if (!row) {
    // Suggest only typos of a function of the same class: a call with OVER or aggregate modifiers names an aggregate
    // or window function; a near spelling of another class would change the meaning.
    const bool aggregate_form = f.star || f.distinct || f.filter || !f.order_by.empty() || !f.within_group.empty();
    std::vector<std::string> candidates;
    for (const auto& r : capability::functions()) {
      if (capability::cell(r, dialect_).verdict != capability::Verdict::Admit) continue;
      if (f.over && r.kind == capability::FunctionKind::Scalar) continue;
      if (aggregate_form && r.kind != capability::FunctionKind::Aggregate) continue;
      candidates.emplace_back(r.name);
    }
    auto close = catalog::closest_spellings(f.name, candidates, 3);
    std::string fix = "FIX: use a function querygate admits on " + std::string(dialect_name(dialect_));
    fix += close.empty() ? " (listed by GET /v1/schema?detail=functions)."
                         : ": did you mean " + join_names(close) + "? (all: GET /v1/schema?detail=functions)";
    return make_error(ErrorCode::ValidationFunctionNotAllowed,
                      "function " + f.name + "() is not in querygate's capability table", fix, pos(location));
  }
  const auto& cell = capability::cell(*row, dialect_);
  if (cell.verdict == capability::Verdict::Refuse) {
    const auto& other = capability::cell(*row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
    const bool elsewhere = other.verdict != capability::Verdict::Refuse;
    const ErrorCode code = !elsewhere                    ? ErrorCode::ValidationFunctionNotAllowed
                           : dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite
                                                         : ErrorCode::CapabilityNotOnPostgres;
    const std::string why = elsewhere ? " is not available on " + std::string(dialect_name(dialect_))
                            : row->kind == capability::FunctionKind::SetReturning
                                ? " returns a set of rows, and querygate admits no set-returning functions"
                                : " is not admitted: a read-only analytics surface has no use for it";
    return make_error(code, "function " + f.name + "()" + why, std::string(cell.note), pos(location));
  }
  // An array value on SQLite: only as a whole output column (arrays_on_sqlite.cpp).
  if (auto s = array_position_on_sqlite(f, location); !s) return s;
  if (cell.verdict == capability::Verdict::Rewrite) {
    bool replaced = false;
    if (auto s = aggregate_on_sqlite(f, location, ctx, replaced); !s || replaced) return s;
  }
  // max(a, b) / min(a, b) with several arguments are SQLite's scalar forms; PostgreSQL spells them GREATEST/LEAST.
  if (dialect_ == Dialect::Postgres && (f.name == "max" || f.name == "min") && f.args.size() > 1)
    return make_error(ErrorCode::CapabilityNotOnPostgres, f.name + "() with several arguments is SQLite's scalar form",
                      std::string("FIX: on PostgreSQL, write ") + (f.name == "max" ? "greatest" : "least") +
                          "(a, b) (it skips NULLs; SQLite's form returns NULL when any argument is NULL).",
                      pos(location));
  // SQLite's scalar max / min of times, booleans or a mix compare what SQLite stores (a time's text:
  // max(start_time, '2026-10-01 12:00:00') kept 50 356 rows for PostgreSQL's 50 005, and printed +00:00; outside
  // tester s17c): refused as GREATEST / LEAST are.
  if (dialect_ == Dialect::Sqlite && (f.name == "max" || f.name == "min") && f.args.size() > 1 && !f.over) {
    bool numbers = false;
    if (auto s =
            numbers_or_texts_on_sqlite(f.args, ctx, f.name + "(a, b)",
                                       std::string("FIX: write CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a ") +
                                           (f.name == "max" ? ">=" : "<=") + " b THEN a ELSE b END.",
                                       location, numbers);
        !s)
      return s;
  }
  // generate_series is admitted as a calendar (an interval step): a numeric
  // series of any length would only make the engine count until the deadline.
  if (f.name == "generate_series" && !interval_step(f))
    return make_error(ErrorCode::ValidationFunctionNotAllowed,
                      "generate_series() is admitted only as a calendar, with an interval step",
                      "FIX: pass the step as an interval, e.g. generate_series(date_trunc('month', min(t)), "
                      "date_trunc('month', max(t)), INTERVAL '1 month'); to number rows, use row_number() OVER "
                      "(ORDER BY ...).",
                      pos(location));
  // PostgreSQL's argument signatures (signatures.cpp): before the range checks below, which read the
  // integer an untyped literal becomes.
  if (auto s = signature_types(f, ctx, location); !s) return s;
  // substr/substring(x, start[, count]): PostgreSQL refuses a negative count and
  // positions beyond its integer type; SQLite would read them its own way.
  if ((f.name == "substr" || f.name == "substring") && (f.args.size() == 2 || f.args.size() == 3)) {
    for (std::size_t i = 1; i < f.args.size(); ++i)
      if (const auto v = ast::integer_value(f.args[i]); v && (*v < INT32_MIN || *v > INT32_MAX))
        return make_error(ErrorCode::ValidationUnsupported,
                          f.name + "(): " + std::to_string(*v) + " is beyond the range of a position or length",
                          "FIX: use a start and a length between 0 and 2147483647.", pos(f.args[i].location));
    if (const auto n = f.args.size() == 3 ? ast::integer_value(f.args[2]) : std::nullopt; n && *n < 0)
      return make_error(ErrorCode::ValidationUnsupported,
                        f.name + "(): a negative length (" + std::to_string(*n) +
                            ") is an error in PostgreSQL (\"negative substring length not allowed\")",
                        "FIX: give the number of characters to take, 0 or more: substr(x, start, n); for the last n "
                        "characters write substr(x, length(x) - n + 1).",
                        pos(f.args[2].location));
  }
  // sum(NULL), avg('1'): PostgreSQL cannot choose among the overloads ("function sum(unknown) is not unique"); SQLite
  // answered NULL and 1 (outside tester s20d).
  if ((f.name == "sum" || f.name == "avg") && f.args.size() == 1 && !f.star) {
    const SqlType t = value_type(f.args.front(), ctx).type;
    if (t == SqlType::Null || t == SqlType::Untyped)
      return make_error(ErrorCode::ValidationUnsupported,
                        "function " + f.name +
                            "(unknown) is not unique: a bare NULL or quoted literal has no type to " + f.name +
                            " (PostgreSQL's error)",
                        "FIX: give the value its type, e.g. " + f.name + "(CAST(" + shown(f.args.front(), dialect_) +
                            " AS numeric)).",
                        pos(f.args.front().location));
  }
  // sum(cond) / avg(cond): SQLite sums its 0/1, PostgreSQL has no sum(boolean)
  // (its error after a round trip). The intent is exact (count the true rows;
  // issue #12 accepts it on both backends), so PostgreSQL gets the condition
  // cast to an integer (true is 1, false 0, NULL stays NULL, as SQLite's).
  if (dialect_ == Dialect::Postgres && (f.name == "sum" || f.name == "avg") && f.args.size() == 1 && !f.star &&
      !f.over && value_type(f.args.front(), ctx).type == SqlType::Boolean) {
    const int at = f.args.front().location;
    ast::Expr condition = std::move(f.args.front());
    f.args.front() =
        ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(condition)), ast::TypeName{"int4", {}}}, at);
    note_rewrite("dialect:sum-of-boolean");
  }
  // How a SQLite spelling in an argument is read (sqlite_spellings.cpp).
  if (f.args.size() == 1 && !f.star) {
    static constexpr std::string_view kNumber[] = {"sum",     "avg",   "max",   "min",  "abs", "round", "ceil",
                                                   "ceiling", "floor", "trunc", "sqrt", "ln",  "exp"};
    if (std::find(std::begin(kNumber), std::end(kNumber), f.name) != std::end(kNumber))
      spelling_use(f.args.front(), SpellingUse::Number);
    else if (f.name == "count" && !f.distinct)
      spelling_use(f.args.front(), SpellingUse::NullOrText);
  }
  if (f.name == "round" && f.args.size() == 2) spelling_use(f.args.front(), SpellingUse::Number);
  round_numeric_on_postgres(f, ctx);
  // SQLite's json functions read JSON text: x -> 'k' may be their argument there.
  const bool reads_json_text =
      dialect_ == Dialect::Sqlite && (f.name.starts_with("json") || f.name.starts_with("pg_jsonb_"));
  for (auto& a : f.args) {
    if (reads_json_text) json_text_allowed_ = &a;
    if (f.name == "pg_int8" || f.name == "pg_float8" || f.name == "pg_int4" || f.name == "pg_int2") int8_checked_ = &a;
    if (f.name == "pg_numeric" && &a == &f.args.front()) numeric_checked_.insert(&a);
    if (auto s = expr(a, ctx); !s) return s;
  }
  // Again with the arguments admitted: their translations can tell more (mod(a, b) is a % b on SQLite), and
  // admitting the rendered statement again must reach the same decision.
  if (auto s = signature_types(f, ctx, location, /*arguments_admitted=*/true); !s) return s;
  if (auto s = function_types(f, ctx, location); !s) return s;
  if (f.filter) {
    if (auto s = construct(capability::Construct::AggregateFilter, location); !s) return s;
    if (auto s = condition_type(**f.filter, ctx, "FILTER"); !s) return s;
    if (auto s = expr(**f.filter, ctx); !s) return s;
    // Typed again once translated, as the re-check will (a computed interval is a time only then: WHERE NOT
    // (end_time - start_time) counted 8 000 rows on SQLite; outside tester s21e). So for every condition below.
    if (auto s = condition_type(**f.filter, ctx, "FILTER"); !s) return s;
  }
  if (!f.order_by.empty()) {
    if (auto s = construct(capability::Construct::AggregateOrderBy, location); !s) return s;
    if (auto s = sort_items(f.order_by, ctx); !s) return s;
  }
  if (!f.within_group.empty()) {
    if (auto s = construct(capability::Construct::WithinGroup, location); !s) return s;
    if (auto s = sort_items(f.within_group, ctx); !s) return s;
  }
  if (f.over) {
    if (auto s = construct(capability::Construct::WindowFunction, location); !s) return s;
    if (auto s = window(*f.over, ctx, location); !s) return s;
  }
  return {};
}

Status Admitter::window(ast::WindowSpec& w, const ExprContext& ctx, int location) {
  if (!w.base_name.empty() && std::none_of(window_names_.begin(), window_names_.end(),
                                           [&](const std::string& n) { return same(n, w.base_name); }))
    return make_error(ErrorCode::ValidationUnknownColumn, "window '" + w.base_name + "' is not defined in this SELECT",
                      "FIX: define it after WHERE/GROUP BY/HAVING: WINDOW " + w.base_name +
                          " AS (PARTITION BY ... ORDER BY ...), or write the window inline: OVER (PARTITION BY ... "
                          "ORDER BY ...).",
                      pos(location));
  if (w.frame.mode == ast::FrameMode::Groups)
    if (auto s = construct(capability::Construct::WindowFrameGroups, location); !s) return s;
  if (w.frame.exclusion != ast::FrameExclusion::None)
    if (auto s = construct(capability::Construct::WindowFrameExclusion, location); !s) return s;
  if (auto s = exprs(w.partition_by, ctx); !s) return s;
  if (dialect_ == Dialect::Sqlite)
    for (auto& p : w.partition_by)
      if (time_kind(p, ctx) == pgtime::Kind::Interval) collate_interval(p);
  if (auto s = sort_items(w.order_by, ctx); !s) return s;
  // RANGE ... interval '1 hour' PRECEDING: SQLite's RANGE offsets are numbers only (its own error, "frame starting
  // offset must be a non-negative number", gave no FIX).
  for (const ast::FrameBound* b : {&w.frame.start, w.frame.end ? &*w.frame.end : nullptr})
    if (dialect_ == Dialect::Sqlite && b && b->offset && w.frame.mode == ast::FrameMode::Range &&
        value_type(**b->offset, ctx).type == SqlType::Time)
      return make_error(
          ErrorCode::CapabilityNotOnSqlite,
          "a RANGE frame offset of an interval is not available on SQLite (its RANGE offsets are numbers)",
          "FIX: order the window by seconds and give the offset in seconds, e.g. OVER (ORDER BY "
          "extract(epoch FROM start_time) RANGE BETWEEN 3600 PRECEDING AND CURRENT ROW).",
          pos((*b->offset)->location >= 0 ? (*b->offset)->location : location));
  // RANGE ... n PRECEDING over an exact numeric key (x / 3.0, avg(x)): PostgreSQL finds the frame's ends by exact
  // numeric arithmetic, SQLite by the doubles' (a frame lost the row at its edge: 7 / 3.0 - 1 against 4 / 3.0;
  // outside tester s16b).
  const bool range_offset =
      w.frame.mode == ast::FrameMode::Range && (w.frame.start.offset || (w.frame.end && w.frame.end->offset));
  if (dialect_ == Dialect::Sqlite && range_offset && w.order_by.size() == 1 && exact_call(*w.order_by.front().expr) &&
      value_type(*w.order_by.front().expr, ctx).type == SqlType::Numeric)
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "a RANGE frame with an offset over the exact numeric " +
                          shown(*w.order_by.front().expr, Dialect::Postgres) +
                          " is not translated on SQLite: it finds the frame's ends with doubles, PostgreSQL with "
                          "every digit",
                      "FIX: order the window by a double precision key and give the offset in it, e.g. OVER (ORDER "
                      "BY CAST(x AS double precision) RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), or use ROWS.",
                      pos(location));
  // RANGE ... 6 PRECEDING over a date, time, text or boolean key: PostgreSQL's error ("RANGE with offset
  // PRECEDING/FOLLOWING is not supported for column type date and offset type integer"); SQLite answered a frame
  // of its own (each day alone for a "trailing week"; outside tester s18a). A time key is pg_time_key(x, kind) here
  // on SQLite (time_sort_on_sqlite).
  if (range_offset && w.order_by.size() == 1) {
    const ast::Expr& key = *w.order_by.front().expr;
    const auto* keyed = std::get_if<ast::FuncCall>(&key.node);
    const bool time_key = keyed && keyed->name == "pg_time_key";
    const SqlType t = time_key ? SqlType::Time : value_type(key, ctx).type;
    bool interval_offset = false;
    for (const ast::FrameBound* b : {&w.frame.start, w.frame.end ? &*w.frame.end : nullptr})
      if (b && b->offset && value_type(**b->offset, ctx).type == SqlType::Time) interval_offset = true;
    if (!interval_offset && (t == SqlType::Time || t == SqlType::Text || t == SqlType::Boolean || t == SqlType::Json))
      return make_error(
          ErrorCode::ValidationUnsupported,
          "RANGE with a number offset PRECEDING / FOLLOWING is not supported for an ORDER BY key of "
          "type " +
              std::string(t == SqlType::Time ? "date / time" : sql_type_words(value_type(key, ctx), std::nullopt)) +
              " (PostgreSQL's error)",
          "FIX: order the window by a number and give the offset in it, e.g. OVER (ORDER BY "
          "extract(epoch FROM t) RANGE BETWEEN 6 * 86400 PRECEDING AND CURRENT ROW) for the 6 days "
          "before, or use ROWS BETWEEN 6 PRECEDING AND CURRENT ROW for the 6 rows before.",
          pos(location));
  }
  if (w.frame.start.offset)
    if (auto s = expr(**w.frame.start.offset, ctx); !s) return s;
  if (w.frame.end && w.frame.end->offset)
    if (auto s = expr(**w.frame.end->offset, ctx); !s) return s;
  return {};
}

// Once per chain of integer arithmetic, at its top: a double stays a double through + - * above it, so
// the top's check sees an overflow anywhere below (one wrapper per node made SQLite's parser overflow its
// stack on an 80-term sum).
void Admitter::wrap_int8(ast::Expr& e, bool floating) {
  const int loc = e.location;
  ast::FuncCall checked;
  checked.name = floating ? "pg_float8" : "pg_int8";
  checked.args.push_back(std::move(e));
  e = ast::make_expr(std::move(checked), loc);
  note_rewrite(floating ? "dialect:float8-overflow" : "dialect:int8-overflow");
}

// A column whose rows hold numbers beside texts (catalog::Column::stored_mixed; executors/sqlite/sqlite_catalog.cpp):
// served as text, read as its texts, CAST(x AS TEXT). Compared as stored, SQLite ordered every number before every
// text and read '5' as a number against it (max(price) answered '' for PostgreSQL's '99999999.99'; outside tester
// s21a).
bool Admitter::mixed_storage_on_sqlite(ast::Expr& e, const Relation& r) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (dialect_ != Dialect::Sqlite || !ref || ref->star || !r.table || &e == text_cast_argument_) return false;
  const auto* c = r.table->find_column(ref->column, dialect_);
  if (!c || !c->stored_mixed) return false;
  const int loc = e.location;
  ast::Expr stored = std::move(e);
  e = ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(stored)), ast::TypeName{"text", {}}}, loc);
  note_rewrite("dialect:mixed-storage");
  return true;
}

namespace {

// name(x, y) of the operands of x op y (moved out of it).
ast::Expr operands_call(ast::Operator& o, std::string name, int location) {
  ast::FuncCall call;
  call.name = std::move(name);
  call.args.push_back(std::move(**o.left));
  call.args.push_back(std::move(*o.right));
  return ast::make_expr(std::move(call), location);
}

}  // namespace

bool read_back_numeric_literal(ast::Expr& e) {
  const auto* call = std::get_if<ast::FuncCall>(&e.node);
  const auto* text = call && call->name == "pg_numeric_literal" && call->args.size() == 1
                         ? std::get_if<ast::Literal>(&call->args.front().node)
                         : nullptr;
  if (!text || text->kind != ast::LiteralKind::String || !render::is_numeric_literal_text(text->text)) return false;
  ast::Literal number{ast::LiteralKind::Numeric, text->text};
  e = ast::make_expr(std::move(number), e.location);
  return true;
}

Status Admitter::exprs(std::vector<ast::Expr>& list, const ExprContext& ctx) {
  for (auto& e : list)
    if (auto s = expr(e, ctx); !s) return s;
  return {};
}

// numbers_on_sqlite.cpp
Status boolean_concat_on_sqlite(const ast::Expr& condition, int location);
bool mod_as_operator_on_sqlite(ast::Expr& e, Dialect dialect);
bool holds_extract(const ast::Expr& e);

Status Admitter::sort_items(std::vector<ast::SortItem>& items, const ExprContext& ctx) {
  for (auto& i : items) {
    if (auto s = expr(*i.expr, ctx); !s) return s;
    if (auto s = json_sort_on_sqlite(*i.expr, ctx); !s) return s;
    nulls_order_on_sqlite(i, *i.expr, ctx);
    time_sort_on_sqlite(i, *i.expr, ctx);
  }
  return {};
}

Status Admitter::expr(ast::Expr& e, const ExprContext& ctx) {
  const int loc = e.location;
  using capability::Construct;
  return std::visit(
      [&](auto& n) -> Status {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          auto relation = column(n, loc, ctx);
          if (!relation) return std::move(relation).error();
          const ShadowFix fix = std::move(shadow_fix_);
          shadow_fix_ = {};
          if (fix.output) {
            e = *fix.output;  // the output column it names, already admitted
            e.location = loc;
            return {};
          }
          if (!*relation) return {};
          if (!fix.qualifier.empty()) n.table = fix.qualifier;
          if (auto s = json_rows_reference(n, **relation, loc); !s) return s;
          if (exact_column_on_sqlite(e, **relation)) return {};   // `n` died: pg_numeric_value(v)
          if (mixed_time_on_sqlite(e, **relation)) return {};     // `n` died: read as the time it is
          if (mixed_storage_on_sqlite(e, **relation)) return {};  // `n` died: read as its texts
          const ast::ColumnRef ref = n;                           // `n` dies if the node is replaced
          return substitute_virtual(e, **relation, ref, ctx);
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          return big_number_literal(n, loc);
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          if (dialect_ == Dialect::Sqlite && read_back_numeric_literal(e)) return expr(e, ctx);  // `n` died
          const bool int4_checked = &e == int8_checked_;  // already the argument of pg_int4 (re-check)
          {
            bool replaced = false;
            if (auto s = sqlite_spelling_on_postgres(e, ctx, replaced); !s) return s;
            if (replaced) return expr(e, ctx);  // `n` died: admit the translation
            if (auto s = json_path_on_sqlite(e, replaced); !s) return s;
            if (replaced) return expr(e, ctx);  // `n` died: admit the translation
            if (mod_as_operator_on_sqlite(e, dialect_)) {
              note_rewrite("dialect:mod-operator");
              return expr(e, ctx);  // `n` died: admit the operator
            }
          }
          // pg_time_key(x, kind) reads each value of x as a time: a column of mixed forms stays itself there (it
          // is what mixed_time_on_sqlite wrote: admitted again, it is not wrapped twice).
          if (n.name == "pg_time_key" && !n.args.empty() && std::holds_alternative<ast::ColumnRef>(n.args.front().node))
            time_key_argument_ = &n.args.front();
          const std::string written = n.name;
          if (auto s = function(n, loc, ctx); !s) return s;
          exact_arguments_on_sqlite(n);
          const std::string called = n.name;
          if (dialect_ == Dialect::Sqlite && (written == "percentile_disc" || written == "mode") &&
              called == "pg_" + written)
            time_from_key(e);  // `n` may die here
          if (auto s = time_function_on_sqlite(e, ctx); !s) return s;
          if (std::holds_alternative<ast::FuncCall>(e.node))
            if (auto s = text_function_on_sqlite(e, ctx); !s) return s;
          if (auto s = json_function_on_sqlite(e, ctx); !s) return s;
          if (dialect_ == Dialect::Sqlite)
            if (const auto* row = capability::find_function(called);
                row && row->sqlite.verdict == capability::Verdict::Rewrite &&
                std::get<ast::FuncCall>(e.node).name == called)
              return make_error(ErrorCode::CapabilityNotOnSqlite,
                                "this form of " + called + "() is not translated on SQLite",
                                "FIX: write " + called +
                                    "() with literal fields and formats and a timestamp, date "
                                    "or interval argument, as PostgreSQL documents it.",
                                pos(loc));
          if (!std::holds_alternative<ast::FuncCall>(e.node)) return check_size(e, ctx);
          if (auto s = time_as_number_on_sqlite(e, ctx, loc); !s) return s;
          date_literal_on_sqlite(n);
          trunc_digits(e, ctx);
          float_round_on_sqlite(e, ctx);                                        // `n` may die here
          numeric_scale_on_sqlite(e, ctx);                                      // `n` may die here
          if (auto s = int4_abs_on_sqlite(e, ctx, int4_checked); !s) return s;  // `n` may die here
          return check_size(e, ctx);
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          // SQLite's == is = (issue #12: a SQLite spelling with an exact meaning, on both backends).
          if (n.op == "==" && n.left) {
            n.op = "=";
            note_rewrite("dialect:double-equals");
          }
          // x ->> 'k' of a value that is no JSON (the text ->> gave, a number, a time): PostgreSQL's "operator does
          // not exist"; SQLite's translation read it as JSON text and answered NULL, as for a key not there (a JSON
          // document kept as a string inside jsonb: attributes ->> 'tool.parameters' ->> 'query'; outside tester s21c).
          if (n.left && (n.op == "->" || n.op == "->>" || n.op == "#>" || n.op == "#>>")) {
            const ValueType lt = value_type(**n.left, ctx);
            if (lt.type == SqlType::Text || lt.type == SqlType::Integer || lt.type == SqlType::Numeric ||
                lt.type == SqlType::Float || lt.type == SqlType::Boolean || lt.type == SqlType::Time)
              return make_error(
                  ErrorCode::ValidationUnsupported,
                  "operator does not exist: " + sql_type_words(lt, time_kind(**n.left, ctx)) + " " + n.op +
                      " unknown (PostgreSQL's error): " + n.op + " reads a jsonb value, and its left side is none",
                  lt.type == SqlType::Text
                      ? "FIX: cast the text to jsonb to read inside it: CAST(" + shown(**n.left, dialect_) +
                            " AS jsonb) " + n.op + " " + shown(*n.right, dialect_) + "."
                      : "FIX: apply " + n.op + " to a jsonb column or value, e.g. attributes " + n.op + " 'key'.",
                  pos(loc));
          }
          if (n.left) {
            static constexpr std::string_view kArith[] = {"+", "-", "*", "/", "%"};
            static constexpr std::string_view kCompare[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
            if (std::find(std::begin(kArith), std::end(kArith), n.op) != std::end(kArith)) {
              spelling_use(**n.left, SpellingUse::Number);
              spelling_use(*n.right, SpellingUse::Number);
            } else if (std::find(std::begin(kCompare), std::end(kCompare), n.op) != std::end(kCompare)) {
              spelling_uses_in_comparison(**n.left, *n.right, ctx);
            }
          }
          {
            bool replaced = false;
            if (auto s = json_path_on_sqlite(e, replaced); !s) return s;
            if (replaced) return expr(e, ctx);  // `n` died: admit the arrow chain
          }
          // x ^ y is PostgreSQL's power(x, y) (the same overloads: double precision, or numeric), admitted as that
          // call on both backends (refused before; outside tester s14).
          if (n.op == "^" && n.left) {
            e = operands_call(n, "power", loc);  // `n` dies here
            note_rewrite("dialect:power-operator");
            return expr(e, ctx);
          }
          const auto* row = capability::find_operator(n.op);
          if (!row)
            return make_error(ErrorCode::ValidationUnsupported, "operator " + n.op + " is not admitted",
                              "FIX: use comparison (= <> < > <= >=), arithmetic (+ - * / %), || for text, or "
                              "LIKE/IN/BETWEEN.",
                              pos(loc));
          if (!n.left && !row->prefix) {
            // The grammar takes any operator as a prefix; `?1` is really a SQLite placeholder.
            if (n.op == "?")
              return make_error(ErrorCode::ValidationPlaceholder,
                                "a bind placeholder (?) has no value: querygate takes "
                                "no parameters",
                                "FIX: write the value into the statement as a literal, e.g. WHERE id = 42.", pos(loc));
            return make_error(ErrorCode::ValidationUnsupported, "'" + n.op + "' written as a prefix operator",
                              "FIX: write it between two values, e.g. a " + n.op + " b.", pos(loc));
          }
          const auto& cell = capability::cell(*row, dialect_);
          if (cell.verdict == capability::Verdict::Refuse) {
            const auto& other =
                capability::cell(*row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
            const ErrorCode code = other.verdict == capability::Verdict::Refuse ? ErrorCode::ValidationUnsupported
                                   : dialect_ == Dialect::Sqlite                ? ErrorCode::CapabilityNotOnSqlite
                                                                                : ErrorCode::CapabilityNotOnPostgres;
            return make_error(code, "operator " + n.op + " is not available on " + std::string(dialect_name(dialect_)),
                              std::string(cell.note), pos(loc));
          }
          const bool arrow = n.left && (n.op == "->" || n.op == "->>");
          const bool int8_checked = &e == int8_checked_;          // already the argument of pg_int8 (re-check)
          const bool int8_operand = int8_operands_.contains(&e);  // the + - * above checks the overflow
          const bool int8_arithmetic =
              dialect_ == Dialect::Sqlite && n.left && (n.op == "+" || n.op == "-" || n.op == "*");
          if (auto s = check_precedence(e); !s) return s;
          if (arrow)
            if (auto s = json_arrow(n, e, loc); !s) return s;
          if (int8_arithmetic) int8_operands_.insert({&**n.left, &*n.right});
          if (n.left) {
            // The left operand of an arrow is a JSON document: its JSON text is not shown as such.
            if (arrow || n.op == "#>" || n.op == "#>>" || n.op == "?") json_text_allowed_ = &**n.left;
            if (auto s = expr(**n.left, ctx); !s) return text_meant(std::move(s), **n.left, *n.right, n.op);
          }
          if (auto s = expr(*n.right, ctx); !s) return n.left ? text_meant(std::move(s), *n.right, **n.left, n.op) : s;
          if (int8_arithmetic) {
            int8_operands_.erase(&**n.left);
            int8_operands_.erase(&*n.right);
          }
          // An untyped literal meeting a number is read as that number, or is PostgreSQL's error (branch_types.cpp).
          if (auto s = untyped_operand(n, ctx, loc); !s) return s;
          // Comparisons are typed before the time translations replace them (a time with a number is an error).
          if (n.op == "=" || n.op == "<>" || n.op == "!=" || n.op == "<" || n.op == ">" || n.op == "<=" || n.op == ">=")
            if (auto s = operator_types(n, ctx, loc); !s) return s;
          // Integer + - * operands of an operator that is not integer (2 + CURRENT_DATE, int * float) are
          // checked one by one, here: before a time translation replaces the node and hides them (admitting
          // the translation again would then wrap them, and the rewrite would not be a fixed point).
          // Float ones too where the node is not float + - (whose top checks the chain): a time translation's
          // ((julianday(a) - julianday(b)) * interval '1 minute' was a 500, s20d) and pg_float8_mul's below.
          const SqlType result_type = value_type(e, ctx).type;
          const bool float_product =
              int8_arithmetic && n.op == "*" && result_type == SqlType::Float && !holds_extract(e);
          if (int8_arithmetic && result_type != SqlType::Integer)
            for (ast::Expr* side : {&**n.left, &*n.right}) {
              const auto* inner = std::get_if<ast::Operator>(&side->node);
              // -x of an integer too (-parent_id * interval '1 second' was a 500; outside tester s21c).
              if (inner && !inner->left && inner->op == "-" && value_type(*side, ctx).type == SqlType::Integer) {
                wrap_int8(*side);
                continue;
              }
              if (!inner || !inner->left || (inner->op != "+" && inner->op != "-" && inner->op != "*")) continue;
              const SqlType t = value_type(*side, ctx).type;
              if (t == SqlType::Integer && int_width(*side, ctx) == 0)
                wrap_int8(*side);
              else if (t == SqlType::Float && !holds_extract(*side) && (result_type != SqlType::Float || float_product))
                wrap_int8(*side, true);
            }
          {
            bool replaced = false;
            if (auto s = time_operator_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return check_size(e, ctx);  // `n` died
            if (auto s = json_exists_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return {};  // `n` died
          }
          {
            bool replaced = false;
            if (auto s = regex_operator_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return {};  // `n` died; a boolean
          }
          if (auto s = text_arithmetic(n, ctx, loc); !s) return s;
          if (auto s = arithmetic_on_sqlite(n, ctx, loc); !s) return s;
          if (auto s = operator_types(n, ctx, loc); !s) return s;
          if (n.op == "||" && n.left && dialect_ == Dialect::Sqlite) {
            if (auto s = concat_types_on_sqlite(**n.left, *n.right, ctx, loc); !s) return s;
            for (ast::Expr* side : {&**n.left, &*n.right})
              if (auto s = value_as_text_on_sqlite(*side, ctx, loc); !s) return s;
          }
          if (n.op == "||" && n.left) {
            // A computed time as text: PostgreSQL's text output (a stored column's: time_as_text_on_sqlite).
            for (ast::Expr* side : {&**n.left, &*n.right})
              if (dialect_ == Dialect::Sqlite && computed_time(*side, ctx)) {
                const auto k = time_kind(*side, ctx);
                const int side_loc = side->location;
                ast::FuncCall printed;
                printed.name = "pg_cast";
                printed.args = {
                    std::move(*side),
                    ast::make_expr(ast::Literal{ast::LiteralKind::String, std::string(pgtime::kind_name(*k))}),
                    ast::make_expr(ast::Literal{ast::LiteralKind::String, "text"})};
                *side = ast::make_expr(std::move(printed), side_loc);
                note_rewrite("dialect:time-as-text");
              }
            numeric_literal_as_text(**n.left);
            numeric_literal_as_text(*n.right);
            if (auto s = time_as_text_on_sqlite(**n.left, ctx, loc); !s) return s;
            if (auto s = time_as_text_on_sqlite(*n.right, ctx, loc); !s) return s;
          }
          if (row->growth != capability::Growth::Fixed)
            if (auto s = check_size(e, ctx); !s) return s;
          static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
          if (n.left && std::find(std::begin(kComparisons), std::end(kComparisons), n.op) != std::end(kComparisons)) {
            if (auto s = time_comparison_on_sqlite({&**n.left, &*n.right}, ctx, loc); !s) return s;
            if (auto s = time_literal(**n.left, *n.right, ctx); !s) return s;
            if (auto s = time_literal(*n.right, **n.left, ctx); !s) return s;
            if (auto s = time_text_comparison(**n.left, *n.right, ctx, loc); !s) return s;
            if (auto s = time_text_comparison(*n.right, **n.left, ctx, loc); !s) return s;
            if (auto s = text_literal_as_number(**n.left, *n.right, ctx, loc); !s) return s;
            if (auto s = text_literal_as_number(*n.right, **n.left, ctx, loc); !s) return s;
            if (auto s = boolean_text_on_sqlite(**n.left, *n.right, ctx, loc); !s) return s;
            if (auto s = boolean_text_on_sqlite(*n.right, **n.left, ctx, loc); !s) return s;
            if (!integer_key_on_sqlite(e, ctx)) float_comparison_on_sqlite({&**n.left, &*n.right}, ctx);
          }
          {
            // Certainly int4 / int2 (2147483647 + 1, length(x) * 1000): PostgreSQL's 32-bit (16-bit) overflow.
            bool handled = false;
            if (auto s = int4_arithmetic_on_sqlite(e, ctx, int8_checked, handled); !s) return s;
            if (handled) return {};  // `n` may have died; an integer
          }
          // Integer + - * on SQLite: an int64 overflow becomes a double there, PostgreSQL's error there
          // ("bigint out of range"): the result passes through pg_int8, which raises it (wrap_int8: once per
          // chain, at its top).
          if (float_product) {
            // Double precision x * y: float8mul's overflow and underflow (1e-200 * 1e-200: 0 on SQLite, PostgreSQL's
            // "value out of range: underflow"; outside tester s20c), each product checked where it is computed: a
            // chain's top sees an overflow below it (an infinity stays one) but not an underflow (0 does not).
            e = operands_call(n, "pg_float8_mul", loc);  // `n` dies here
            note_rewrite("dialect:float8-overflow");
            return {};
          }
          if (int8_arithmetic) {
            // (Not an integer itself: its integer operands were checked above, before the time translations.)
            // Float + - * the same way: SQLite's double overflows to Inf, PostgreSQL's to "value out of range:
            // overflow" (pg_float8).
            const SqlType t = value_type(e, ctx).type;
            if ((t == SqlType::Integer || (t == SqlType::Float && !holds_extract(e))) && !int8_checked && !int8_operand)
              wrap_int8(e, t == SqlType::Float);  // `n` dies here
          } else if (dialect_ == Dialect::Sqlite && !n.left && n.op == "-" && !int8_checked && !int8_operand &&
                     value_type(e, ctx).type == SqlType::Integer) {
            // -x of the bigint -9223372036854775808: SQLite's double 9.2e18, PostgreSQL's "bigint out of range".
            wrap_int8(e);  // `n` dies here
            return {};
          }
          shift_on_sqlite(e, ctx);          // `n` may die here
          numeric_scale_on_sqlite(e, ctx);  // `n` may die here
          return {};
        } else if constexpr (std::is_same_v<T, ast::BoolOp>) {
          const char* clause = n.kind == ast::BoolOpKind::Not ? "NOT" : n.kind == ast::BoolOpKind::And ? "AND" : "OR";
          for (const auto& a : n.args)
            if (auto s = condition_type(a, ctx, clause); !s) return s;
          if (auto s = exprs(n.args, ctx); !s) return s;
          for (const auto& a : n.args)
            if (auto s = condition_type(a, ctx, clause); !s) return s;
          return {};
        } else if constexpr (std::is_same_v<T, ast::Coalesce>) {
          if (auto s = exprs(n.args, ctx); !s) return s;
          std::vector<ast::Expr*> results;  // PostgreSQL's COALESCE type resolution (branch_types.cpp)
          for (auto& a : n.args) results.push_back(&a);
          if (auto s = branch_results(results, ctx, "COALESCE", loc); !s) return s;
          if (dialect_ == Dialect::Sqlite && n.args.size() == 1) {
            // SQLite's COALESCE takes two arguments or more; coalesce(x, NULL) is x, as PostgreSQL's coalesce(x) is
            // (outside tester s20d: "wrong number of arguments").
            n.args.push_back(ast::make_expr(ast::Literal{}, loc));
            note_rewrite("dialect:coalesce-one");
          }
          return {};
        } else if constexpr (std::is_same_v<T, ast::MinMax>) {
          if (auto s = construct(Construct::GreatestLeast, loc); !s) return s;
          if (auto s = exprs(n.args, ctx); !s) return s;
          return greatest_least_on_sqlite(e, ctx);  // `n` may die here
        } else if constexpr (std::is_same_v<T, ast::NullTest>) {
          spelling_use(*n.arg, SpellingUse::NullOrText);
          json_text_allowed_ = &*n.arg;  // NULL or not reads the same on both engines
          return expr(*n.arg, ctx);
        } else if constexpr (std::is_same_v<T, ast::BoolTest>) {
          // x IS [NOT] TRUE / FALSE / UNKNOWN reads a boolean: of a number, a text or a time PostgreSQL's error
          // (cost_usd IS UNKNOWN was answered as IS NULL on SQLite; outside tester s21f).
          static constexpr const char* kClause[] = {"IS TRUE",      "IS NOT TRUE", "IS FALSE",
                                                    "IS NOT FALSE", "IS UNKNOWN",  "IS NOT UNKNOWN"};
          const char* clause = kClause[static_cast<std::size_t>(n.kind)];
          if (auto s = condition_type(*n.arg, ctx, clause); !s) return s;
          if (auto s = expr(*n.arg, ctx); !s) return s;
          return condition_type(*n.arg, ctx, clause);
        } else if constexpr (std::is_same_v<T, ast::DistinctFrom>) {
          if (auto s = construct(Construct::IsDistinctFrom, loc); !s) return s;
          if (auto s = check_precedence(e); !s) return s;
          if (auto s = expr(*n.left, ctx); !s) return s;
          if (auto s = expr(*n.right, ctx); !s) return s;
          // A time literal is read as the column's time, as in a = b (SQLite compared the texts; outside tester s13).
          if (auto s = time_literal(*n.left, *n.right, ctx); !s) return s;
          if (auto s = time_literal(*n.right, *n.left, ctx); !s) return s;
          if (auto s = time_comparison_on_sqlite({&*n.left, &*n.right}, ctx, loc); !s) return s;
          float_comparison_on_sqlite({&*n.left, &*n.right}, ctx);
          exact_distinct_from(n, ctx);
          return {};
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          if (auto s = expr(*n.left, ctx); !s) return s;
          if (auto s = expr(*n.right, ctx); !s) return s;
          // NULLIF(start_time, '...+00'): the literal in the column's stored form.
          if (auto s = time_literal(*n.left, *n.right, ctx); !s) return s;
          if (auto s = time_literal(*n.right, *n.left, ctx); !s) return s;
          // NULLIF(a, b) of times, one computed (SQLite compared their texts; outside tester s13b): CASE WHEN a = b
          // THEN NULL ELSE a END, compared as times (time_comparison_on_sqlite sorts by keys: on copies, so that
          // the answer is a itself).
          if (dialect_ == Dialect::Sqlite && time_kind(*n.left, ctx) && time_kind(*n.right, ctx) &&
              (computed_time(*n.left, ctx) || computed_time(*n.right, ctx))) {
            ast::Expr a = *n.left, b = *n.right;
            if (auto s = time_comparison_on_sqlite({&a, &b}, ctx, loc); !s) return s;
            ast::Case when_equal;
            when_equal.whens.push_back(ast::CaseWhen{
                ast::make_expr(ast::Operator{"=", ast::Box<ast::Expr>(std::move(a)), ast::Box<ast::Expr>(std::move(b))},
                               loc),
                ast::make_expr(ast::Literal{ast::LiteralKind::Null, "NULL"}, loc)});
            when_equal.otherwise = ast::Box<ast::Expr>(std::move(*n.left));
            e = ast::make_expr(std::move(when_equal), loc);  // `n` dies here
            note_rewrite("dialect:time-nullif");
            return {};
          }
          // NULLIF(a, b) compares a = b: a quoted number meets a number as in a comparison (nullif(1, '1') is
          // NULL in PostgreSQL; SQLite compares the integer with the text as unequal; outside tester s8, H6).
          if (auto s = text_literal_as_number(*n.right, *n.left, ctx, loc); !s) return s;
          if (auto s = text_literal_as_number(*n.left, *n.right, ctx, loc); !s) return s;
          // NULLIF(a, b) of numerics with an exact one (a / 3.0): CASE WHEN a = b THEN NULL ELSE a END, the
          // comparison exact and a's digits passed on (SQLite's NULLIF compared and answered the doubles; outside
          // tester s15).
          if (dialect_ == Dialect::Sqlite && (exact_call(*n.left) || exact_call(*n.right))) {
            const SqlType a = value_type(*n.left, ctx).type, b = value_type(*n.right, ctx).type;
            if ((a == SqlType::Numeric || a == SqlType::Integer) && (b == SqlType::Numeric || b == SqlType::Integer)) {
              ast::Expr equal = ast::make_expr(
                  ast::Operator{"=", ast::Box<ast::Expr>(*n.left), ast::Box<ast::Expr>(std::move(*n.right))}, loc);
              exact_comparison(equal, ctx);
              ast::Case when_equal;
              when_equal.whens.push_back(
                  ast::CaseWhen{std::move(equal), ast::make_expr(ast::Literal{ast::LiteralKind::Null, "NULL"}, loc)});
              when_equal.otherwise = ast::Box<ast::Expr>(std::move(*n.left));
              e = ast::make_expr(std::move(when_equal), loc);  // `n` dies here
              note_rewrite("dialect:numeric-nullif");
            }
          }
          return {};
        } else if constexpr (std::is_same_v<T, ast::InList>) {
          for (const auto& item : n.items) spelling_uses_in_comparison(*n.arg, item, ctx);
          if (auto s = expr(*n.arg, ctx); !s) return s;
          for (auto& item : n.items)
            if (auto s = expr(item, ctx); !s) return text_meant(std::move(s), item, *n.arg, "=");
          for (auto& item : n.items)
            if (auto s = compared_types(*n.arg, item, "=", ctx, item.location >= 0 ? item.location : loc); !s) return s;
          {
            std::vector<ast::Expr*> operands{&*n.arg};
            for (auto& item : n.items) operands.push_back(&item);
            if (auto s = time_comparison_on_sqlite(operands, ctx, loc); !s) return s;
          }
          for (auto& item : n.items) {
            if (auto s = time_literal(*n.arg, item, ctx); !s) return s;
            if (auto s = text_literal_as_number(item, *n.arg, ctx, loc); !s) return s;
          }
          {
            std::vector<ast::Expr*> operands{&*n.arg};
            for (auto& item : n.items) operands.push_back(&item);
            float_comparison_on_sqlite(operands, ctx);
          }
          exact_membership(e, ctx);  // `n` may die here
          return {};
        } else if constexpr (std::is_same_v<T, ast::Between>) {
          if (n.symmetric)
            if (auto s = construct(Construct::BetweenSymmetric, loc); !s) return s;
          // datetime(...) between timestamp columns is a time, as in a comparison (sqlite_spellings.cpp).
          spelling_uses_in_comparison(*n.arg, *n.low, ctx);
          spelling_uses_in_comparison(*n.arg, *n.high, ctx);
          if (auto s = expr(*n.arg, ctx); !s) return s;
          if (auto s = expr(*n.low, ctx); !s) return s;
          if (auto s = expr(*n.high, ctx); !s) return s;
          if (auto s = compared_types(*n.arg, *n.low, ">=", ctx, loc); !s) return s;
          if (auto s = compared_types(*n.arg, *n.high, "<=", ctx, loc); !s) return s;
          if (auto s = time_comparison_on_sqlite({&*n.arg, &*n.low, &*n.high}, ctx, loc); !s) return s;
          if (auto s = time_literal(*n.arg, *n.low, ctx); !s) return s;
          if (auto s = time_literal(*n.arg, *n.high, ctx); !s) return s;
          if (auto s = text_literal_as_number(*n.low, *n.arg, ctx, loc); !s) return s;
          if (auto s = text_literal_as_number(*n.high, *n.arg, ctx, loc); !s) return s;
          if (auto s = text_literal_as_number(*n.arg, *n.low, ctx, loc); !s) return s;
          // 'literal' BETWEEN low_column AND high_column: the literal is compared with both.
          if (auto* lit = std::get_if<ast::Literal>(&n.arg->node)) {
            const std::string written = lit->text;
            if (auto s = time_literal(*n.low, *n.arg, ctx); !s) return s;
            const std::string for_low = lit->text;
            lit->text = written;
            if (auto s = time_literal(*n.high, *n.arg, ctx); !s) return s;
            if (timestamp_column(*n.low, ctx) && timestamp_column(*n.high, ctx) && lit->text != for_low)
              return make_error(ErrorCode::ValidationTimestampLiteral,
                                "'" + written + "' is compared with two timestamp columns that store times differently",
                                "FIX: write two comparisons, low_column <= '" + written + "' AND '" + written +
                                    "' <= high_column, so each literal is read in its column's format.",
                                pos(n.arg->location));
            if (lit->text == written) lit->text = for_low;
          }
          float_comparison_on_sqlite({&*n.arg, &*n.low, &*n.high}, ctx);
          exact_membership(e, ctx);  // `n` may die here
          return {};
        } else if constexpr (std::is_same_v<T, ast::Like>) {
          if (auto s = like_pattern_on_sqlite(n, loc); !s) return s;
          if (n.kind == ast::LikeKind::ILike) {
            if (auto s = construct(Construct::ILike, loc); !s) return s;
            const auto& cell = capability::cell(capability::find(Construct::ILike), dialect_);
            if (cell.verdict == capability::Verdict::Rewrite) {
              if (auto s = ilike_on_sqlite(n, loc); !s) return s;
              note_rewrite(cell.note);
            }
          }
          // PostgreSQL's LIKE escapes with a backslash unless told otherwise; SQLite's has no escape character.
          if (dialect_ == Dialect::Sqlite && n.kind == ast::LikeKind::Like && !n.escape) {
            n.escape = ast::make_expr(ast::Literal{ast::LiteralKind::String, "\\"}, -1);
            note_rewrite("dialect:like-escape-backslash");
          }
          if (n.kind == ast::LikeKind::Similar)
            if (auto s = construct(Construct::SimilarTo, loc); !s) return s;
          if (n.escape) {
            if (auto s = construct(Construct::LikeEscape, loc); !s) return s;
            if (auto s = expr(**n.escape, ctx); !s) return s;
          }
          const std::string written = shown(*n.arg, Dialect::Postgres);  // for the refusal: as the caller wrote it
          if (auto s = expr(*n.arg, ctx); !s) return s;
          if (auto s = like_types(n, written, ctx, loc); !s) return s;
          return expr(*n.pattern, ctx);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          if (n.operand)
            if (auto s = expr(**n.operand, ctx); !s) return s;
          for (auto& w : n.whens) {
            if (!n.operand)  // CASE WHEN condition: a boolean, as in WHERE
              if (auto s = condition_type(*w.condition, ctx, "CASE/WHEN"); !s) return s;
            if (auto s = expr(*w.condition, ctx); !s) return s;
            if (!n.operand)
              if (auto s = condition_type(*w.condition, ctx, "CASE/WHEN"); !s) return s;
            if (auto s = expr(*w.result, ctx); !s) return s;
            // CASE x WHEN v: v is compared with x.
            if (n.operand) {
              if (auto s = text_literal_as_number(*w.condition, **n.operand, ctx, loc); !s) return s;
              if (auto s = text_literal_as_number(**n.operand, *w.condition, ctx, loc); !s) return s;
              if (auto s = time_literal(**n.operand, *w.condition, ctx); !s) return s;  // CASE start_time WHEN '...'
              if (auto s = time_comparison_on_sqlite({&**n.operand, &*w.condition}, ctx, loc); !s) return s;
            }
          }
          if (n.otherwise)
            if (auto s = expr(**n.otherwise, ctx); !s) return s;
          std::vector<ast::Expr*> results;  // PostgreSQL's CASE type resolution (branch_types.cpp)
          for (auto& w : n.whens) results.push_back(&*w.result);
          if (n.otherwise) results.push_back(&**n.otherwise);
          if (auto s = branch_results(results, ctx, "CASE", loc); !s) return s;
          exact_case_operand(e, ctx);  // `n` may die here
          return {};
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          const bool json_read = &e == json_text_allowed_;  // read by an arrow or a json function (as written)
          const auto* row = capability::find_cast(n.type.name);
          if (!row)
            return make_error(ErrorCode::ValidationCastNotAllowed,
                              "a cast to " + n.type.name + " is not admitted (only plain data types are)",
                              "FIX: cast to a data type such as text, bigint, integer, double precision or numeric.",
                              pos(loc));
          const auto& cell = capability::cell(*row, dialect_);
          if (cell.verdict == capability::Verdict::Refuse)
            return make_error(
                dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite : ErrorCode::CapabilityNotOnPostgres,
                "a cast to " + n.type.name + " is not available on " + std::string(dialect_name(dialect_)),
                std::string(cell.note), pos(loc));
          quoted_number_cast(n);
          if (auto s = numeric_text_cast(n, loc); !s) return s;
          {
            static constexpr std::string_view kNumberTypes[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
            if (std::find(std::begin(kNumberTypes), std::end(kNumberTypes), n.type.name) != std::end(kNumberTypes))
              spelling_use(*n.arg, SpellingUse::Number);
          }
          if (n.type.name == "text" && std::holds_alternative<ast::ColumnRef>(n.arg->node))
            text_cast_argument_ = &*n.arg;
          if (auto s = expr(*n.arg, ctx); !s) return s;
          // Again when admitting the argument made it a quoted literal ((1.5)::text::numeric: the re-check read
          // '1.5'::numeric and found a rewrite the first pass had not made, a 500; outside tester s20d).
          if (std::holds_alternative<ast::Literal>(n.arg->node)) {
            quoted_number_cast(n);
            if (auto s = numeric_text_cast(n, loc); !s) return s;
          }
          if (auto s = cast_types(n, ctx, loc); !s) return s;
          {
            bool replaced = false;
            if (auto s = time_cast_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return {};  // `n` died
            if (auto s = numeric_typmod_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return {};  // `n` died
            if (auto s = jsonb_cast_on_sqlite(e, ctx, json_read, replaced); !s) return s;
            if (replaced) return {};  // `n` died
            if (auto s = bool_cast_on_sqlite(e, ctx, replaced); !s) return s;
            if (replaced) return {};  // `n` died
          }
          // CAST(x / 3.0 AS numeric) of an exact numeric on SQLite: the value itself (PostgreSQL's cast of a
          // numeric to numeric changes nothing; SQLite's cast made the double: 8.666666666666666 for
          // 8.6666666666666667; outside tester s15).
          if (dialect_ == Dialect::Sqlite && n.type.name == "numeric" && n.type.modifiers.empty() &&
              exact_call(*n.arg)) {
            ast::Expr arg = std::move(*n.arg);
            arg.location = loc;
            e = std::move(arg);  // `n` dies here
            note_rewrite("dialect:numeric-cast");
            return {};
          }
          if (auto s = cast_on_sqlite(n, ctx, loc); !s) return s;
          if (auto s = time_as_number_on_sqlite(e, ctx, loc); !s) return s;
          if (dialect_ == Dialect::Sqlite && n.type.name == "text" && n.type.modifiers.empty()) {
            ast::Expr arg = *n.arg;
            if (numeric_literal_as_text(arg)) {
              arg.location = loc;
              e = std::move(arg);  // `n` dies here
              return {};
            }
          }
          // CAST(start_time AS text) on SQLite: PostgreSQL's text of the time, not the stored text.
          if (dialect_ == Dialect::Sqlite && (n.type.name == "text" || n.type.name == "varchar") &&
              n.type.modifiers.empty() && timestamp_column(*n.arg, ctx)) {
            ast::Expr arg = std::move(*n.arg);
            arg.location = loc;
            if (auto s = time_as_text_on_sqlite(arg, ctx, loc); !s) return s;
            // A column of dates is its text already, but a text: day::text >= '2023-03-12 00:00:00' compares texts
            // in PostgreSQL (the bare column was compared as a date; outside tester s21d).
            if (std::holds_alternative<ast::ColumnRef>(arg.node))
              if (const auto kind = time_kind(arg, ctx)) {
                arg = ast::make_call(
                    "pg_cast",
                    {std::move(arg),
                     ast::make_expr(ast::Literal{ast::LiteralKind::String, std::string(pgtime::kind_name(*kind))}),
                     ast::make_expr(ast::Literal{ast::LiteralKind::String, "text"})},
                    loc);
                note_rewrite("dialect:time-as-text");
              }
            e = std::move(arg);  // `n` dies here
            return {};
          }
          if (n.type.name == "bpchar" && !n.type.modifiers.empty()) return check_size(e, ctx);  // pads
          return {};
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind == ast::SubLinkKind::Any || n.kind == ast::SubLinkKind::All)
            if (auto s = construct(Construct::QuantifiedSubquery, loc); !s) return s;
          if (n.test)
            if (auto s = expr(**n.test, ctx); !s) return s;
          if (auto s = scalar_subquery_on_sqlite(n, loc); !s) return s;
          auto cols = query(*n.query, ctx.scope, ctx.ctes);
          if (!cols) return std::move(cols).error();
          if (auto s = quantified_types(n, ctx, loc); !s) return s;
          if (n.test)
            if (auto s = time_subquery_on_sqlite(**n.test, *n.query, ctx, loc); !s) return s;
          // x IN (SELECT a double ...): x compared as a double, as in x = y (outside tester s19f).
          if (const auto inner = query_types(*n.query);
              n.test && !inner.empty() && inner.front().type == SqlType::Float) {
            ast::Expr a_double = ast::make_expr(
                ast::Cast{ast::Box<ast::Expr>(ast::make_expr(ast::Literal{ast::LiteralKind::Integer, "0"})),
                          ast::TypeName{"float8", {}}});
            float_comparison_on_sqlite({&**n.test, &a_double}, ctx);
          } else if (dialect_ == Dialect::Sqlite && n.test && value_type(**n.test, ctx).type == SqlType::Float) {
            // dbl IN (SELECT a bigint ...): the bigints compared as doubles (outside tester s19g).
            if (auto s = float_output_on_sqlite(*n.query, 0, false, loc); !s) return s;
          }
          if (auto replaced = exact_subquery_on_sqlite(e, ctx); !replaced) return std::move(replaced).error();
          return {};  // `n` may have died
        } else if constexpr (std::is_same_v<T, ast::SqlValue>) {
          if (n.kind == ast::SqlValueKind::LocalTime || n.kind == ast::SqlValueKind::LocalTimestamp)
            return construct(Construct::LocalTime, loc);
          if (n.kind == ast::SqlValueKind::CurrentTime) return construct(Construct::CurrentTime, loc);
          if (n.kind == ast::SqlValueKind::CurrentTimestamp && dialect_ == Dialect::Sqlite) return now_on_sqlite(e);
          return {};
        } else if constexpr (std::is_same_v<T, ast::Param>) {
          // Only configured SQL converts to a Param, and only with its parameters declared.
          if (param_spec(n.name)) return {};
          return make_error(params_ ? ErrorCode::ConfigInvalid : ErrorCode::ValidationPlaceholder,
                            "parameter :" + n.name + " has no declared value here",
                            params_ ? "FIX: declare :" + n.name + " where this SQL is configured, or remove it."
                                    : "FIX: write the value into the statement as a literal, e.g. WHERE id = 42.",
                            pos(loc));
        } else {
          static_assert(ast::detail::kNoChildWalk<T>, "admit: every expression node kind needs its own branch");
        }
      },
      e.node);
}

}  // namespace qg::admit::detail
