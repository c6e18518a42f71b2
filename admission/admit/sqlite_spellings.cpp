// SQLite spellings on PostgreSQL (issue #12). Agents carry SQLite's functions
// over (ifnull, iif, instr, total, group_concat, json_extract, strftime,
// date()/datetime() with modifiers, julianday, printf, scalar max/min ...).
// On PostgreSQL each call is replaced, at admission, by PostgreSQL SQL that
// answers what the call answers on SQLite, reported as `dialect:<name>`; a
// form whose meaning cannot be kept exactly is refused with a FIX naming the
// PostgreSQL spelling. The replacement is admitted like the caller's own SQL
// (so the re-check finds nothing left to translate). On SQLite these
// functions are the engine's own and run as written.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"

namespace qg::admit::detail {
namespace {

using ast::Box;
using ast::Expr;

Expr fn(std::string name, std::vector<Expr> args, int location = -1) {
  ast::FuncCall f;
  f.name = std::move(name);
  f.args = std::move(args);
  return ast::make_expr(std::move(f), location);
}
Expr str(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}
Expr num(long long i) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(i)});
}
Expr op(std::string o, Expr a, Expr b) {
  return ast::make_expr(ast::Operator{std::move(o), Box<Expr>(std::move(a)), Box<Expr>(std::move(b))});
}
Expr cast(Expr a, std::string type) {
  return ast::make_expr(ast::Cast{Box<Expr>(std::move(a)), ast::TypeName{std::move(type), {}}});
}
Expr null_test(Expr a) {
  return ast::make_expr(ast::NullTest{Box<Expr>(std::move(a)), false});
}
Expr case_when(Expr condition, Expr then, Expr otherwise) {
  ast::Case c;
  c.whens.push_back(ast::CaseWhen{Box<Expr>(std::move(condition)), Box<Expr>(std::move(then))});
  c.otherwise = Box<Expr>(std::move(otherwise));
  return ast::make_expr(std::move(c));
}
Expr null_literal() {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Null, ""});
}

const ast::Literal* string_literal(const Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::String ? l : nullptr;
}

bool whole_number(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// An ISO-8601 date or date-time text as SQLite's time functions read it: YYYY-MM-DD, optionally
// followed by [T ]HH:MM[:SS[.fff]] and Z or ±HH:MM. PostgreSQL reads the same texts alike (UTC session).
bool iso_time_text(std::string_view s) {
  auto digits = [&](std::size_t at, std::size_t n) {
    if (at + n > s.size()) return false;
    for (std::size_t i = at; i < at + n; ++i)
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
  };
  if (!digits(0, 4) || s.size() < 10 || s[4] != '-' || !digits(5, 2) || s[7] != '-' || !digits(8, 2)) return false;
  std::size_t i = 10;
  if (i == s.size()) return true;
  if (s[i] != 'T' && s[i] != ' ') return false;
  ++i;
  if (!digits(i, 2) || i + 2 >= s.size() || s[i + 2] != ':' || !digits(i + 3, 2)) return false;
  i += 5;
  if (i < s.size() && s[i] == ':') {
    if (!digits(i + 1, 2)) return false;
    i += 3;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const std::size_t start = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      if (i == start) return false;
    }
  }
  if (i == s.size()) return true;
  if (s[i] == 'Z' || s[i] == 'z') return i + 1 == s.size();
  if ((s[i] == '+' || s[i] == '-') && digits(i + 1, 2) && i + 3 < s.size() && s[i + 3] == ':' && digits(i + 4, 2))
    return i + 6 == s.size();
  return false;
}

// A time as SQLite computes with it: in whole milliseconds, rounded half up (computeJD: s * 1000 + 0.5).
Expr in_milliseconds(Expr time) {
  return fn("date_trunc", {str("milliseconds"), op("+", std::move(time), cast(str("0.5 milliseconds"), "interval"))});
}

// An ISO text with a UTC offset other than 0: SQLite converts it to UTC in its milliseconds ('+00:00' and 'Z' it
// leaves as read).
bool offset_text(std::string_view s) {
  return s.size() > 6 && (s[s.size() - 6] == '+' || s[s.size() - 6] == '-') && s[s.size() - 3] == ':' &&
         s.substr(s.size() - 5) != "00:00";
}

// A quoted run of to_char text: every character printed as written.
std::string to_char_literal(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// SQLite 3.40's time words (the engine Debian 12 ships): strftime's directives and the modifiers it reads. A later
// directive (%u, %V, %F, %T ...) or modifier ('subsec', 'floor') answered NULL there, silently; 'localtime' and
// 'utc' follow the gateway host's time zone, which no statement names (outside tester s18c).
bool sqlite_directive(char d) {
  return std::string_view("dfHjJmMsSwWY%").find(d) != std::string_view::npos;
}

// `w` in lower case, as written otherwise (SQLite 3.40 takes no stray spaces around a modifier's words).
bool sqlite_modifier(const std::string& w) {
  if (w == "start of month" || w == "start of year" || w == "start of day" || w == "unixepoch" || w == "julianday" ||
      w == "auto")
    return true;
  if (w.starts_with("weekday ")) {
    const std::string n = w.substr(8);
    return n.size() == 1 && n[0] >= '0' && n[0] <= '6';
  }
  // [+-]NNN[.NNN] unit
  std::size_t i = 0;
  if (i < w.size() && (w[i] == '+' || w[i] == '-')) ++i;
  const std::size_t digits_at = i;
  while (i < w.size() && (std::isdigit(static_cast<unsigned char>(w[i])) || w[i] == '.')) ++i;
  if (i == digits_at) return false;
  while (i < w.size() && w[i] == ' ') ++i;
  std::string unit = w.substr(i);
  if (!unit.empty() && unit.back() == 's') unit.pop_back();
  return unit == "day" || unit == "hour" || unit == "minute" || unit == "second" || unit == "month" || unit == "year";
}

constexpr std::string_view kTimeFix =
    "FIX: on PostgreSQL, write the time as a timestamp column or an ISO-8601 literal, e.g. CAST('2026-10-01' AS "
    "timestamptz), and shift it with + CAST('1 day' AS interval) or date_trunc('month', t).";

}  // namespace

bool Admitter::text_alike(const ast::Expr& e, const ExprContext& ctx) {
  if (string_literal(e)) return true;
  if (boolean_valued(e)) return false;
  if (integer_valued(e, ctx)) return true;
  if (const auto* c = base_column(e, ctx)) {
    const std::string t = lower(c->type);
    const bool text_type = t.find("char") != std::string::npos || t.find("text") != std::string::npos ||
                           t.find("clob") != std::string::npos;
    return !c->timestamp && text_type && t.find("json") == std::string::npos;
  }
  if (const auto* o = std::get_if<ast::Operator>(&e.node)) return o->op == "||";
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node)) {
    static constexpr std::string_view kText[] = {"lower", "upper", "substr",  "substring", "trim",
                                                 "ltrim", "rtrim", "replace", "strftime"};
    if (std::find(std::begin(kText), std::end(kText), f->name) != std::end(kText)) return true;
    if ((f->name == "ifnull" || f->name == "coalesce") && !f->args.empty())
      return std::all_of(f->args.begin(), f->args.end(), [&](const ast::Expr& a) { return text_alike(a, ctx); });
  }
  if (const auto* c = std::get_if<ast::Coalesce>(&e.node))
    return std::all_of(c->args.begin(), c->args.end(), [&](const ast::Expr& a) { return text_alike(a, ctx); });
  return false;
}

// On PostgreSQL the use decides the translation; on SQLite, where json_extract runs as it is, it decides the
// value's type (value_types.cpp: a json_extract read as a number is numeric, as its translation is).
void Admitter::spelling_use(const ast::Expr& e, SpellingUse use) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (f && (f->name == "json_extract" || f->name == "datetime")) spelling_uses_[&e] = use;
}

// A value SQLite's time functions read, as a PostgreSQL time: a timestamp or date column (or a
// translated SQLite time call), or an ISO-8601 literal. Empty (with `why`) otherwise.
std::optional<ast::Expr> Admitter::spelled_time(ast::Expr& arg, const ExprContext& ctx, std::string& why) {
  if (timestamp_column(arg, ctx)) return arg;
  if (const auto* l = string_literal(arg)) {
    if (lower(l->text) == "now") return ast::make_expr(ast::SqlValue{ast::SqlValueKind::CurrentTimestamp});
    if (iso_time_text(l->text))
      return offset_text(l->text) ? in_milliseconds(cast(arg, "timestamptz")) : cast(arg, "timestamptz");
    why = "'" + l->text + "' is not an ISO-8601 date or time (YYYY-MM-DD[ HH:MM[:SS]])";
    return std::nullopt;
  }
  if (auto* f = std::get_if<ast::FuncCall>(&arg.node);
      f && (f->name == "datetime" || f->name == "date") && !f->args.empty() && !f->star && !f->over) {
    std::vector<ast::Expr> args = f->args;
    auto t = spelled_time(args[0], ctx, why);
    if (!t) return std::nullopt;
    if (args.size() > 1) t = in_milliseconds(std::move(*t));
    auto shifted = apply_modifiers(std::move(*t), args, ctx, why);
    if (!shifted) return std::nullopt;
    return f->name == "date" ? cast(std::move(*shifted), "date") : fn("date_trunc", {str("second"), *shifted});
  }
  why = "the argument is neither a timestamp column nor an ISO-8601 literal";
  return std::nullopt;
}

// SQLite's modifiers (args[1..]) applied to the PostgreSQL time `t`.
std::optional<ast::Expr> Admitter::apply_modifiers(ast::Expr t, std::vector<ast::Expr>& args, const ExprContext&,
                                                   std::string& why) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    const auto* l = string_literal(args[i]);
    if (!l) {
      why = "a modifier that is not a literal";
      return std::nullopt;
    }
    std::string m = lower(l->text);
    while (!m.empty() && m.back() == ' ') m.pop_back();
    if (m == "start of month" || m == "start of year" || m == "start of day") {
      t = fn("date_trunc", {str(m.substr(9)), std::move(t)});
      continue;
    }
    if (m.starts_with("weekday ") && whole_number(m.substr(8)) && m.size() == 9 && m[8] <= '6') {
      // Forward to the next day whose weekday is N (0 = Sunday), unless it is one already.
      const int n = m[8] - '0';
      Expr dow = cast(fn("date_part", {str("dow"), t}), "int4");
      Expr days = fn("mod", {op("+", op("-", num(n), std::move(dow)), num(7)), num(7)});
      t = op("+", std::move(t), op("*", std::move(days), cast(str("1 day"), "interval")));
      continue;
    }
    const auto space = m.find(' ');
    if (space != std::string::npos && (m[0] == '+' || m[0] == '-' || std::isdigit(static_cast<unsigned char>(m[0]))) &&
        whole_number(m.substr(0, space))) {
      std::string unit = m.substr(space + 1);
      if (unit.ends_with('s')) unit.pop_back();
      const std::string amount = m.substr(0, space);
      static constexpr std::string_view kUnits[] = {"day", "hour", "minute", "second"};
      if (std::find(std::begin(kUnits), std::end(kUnits), unit) != std::end(kUnits)) {
        t = op("+", std::move(t), cast(str(amount + " " + unit + "s"), "interval"));
        continue;
      }
      if (unit == "month" || unit == "year") {
        // SQLite moves the month and lets a day past the month's end run into the next month
        // (date('2026-01-31', '+1 month') is 2026-03-03): the first of the month, moved, plus the
        // days and time the original was past its first.
        const long long months = std::stoll(amount) * (unit == "year" ? 12 : 1);
        Expr first = fn("date_trunc", {str("month"), t});
        Expr offset = op("-", t, first);
        t = op("+", op("+", std::move(first), cast(str(std::to_string(months) + " months"), "interval")),
               std::move(offset));
        continue;
      }
    }
    why = "the modifier '" + l->text + "'";
    return std::nullopt;
  }
  return t;
}

// How a comparison reads a json_extract()/datetime() operand: with a number, as a number; with a text
// that cannot be a JSON number, boolean, object or array, as the text; with a timestamp column, as a time.
void Admitter::spelling_uses_in_comparison(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx) {
  for (const auto* side : {&a, &b}) {
    const ast::Expr& other = side == &a ? b : a;
    if (const auto* l = std::get_if<ast::Literal>(&other.node)) {
      if (l->kind == ast::LiteralKind::Integer || l->kind == ast::LiteralKind::Numeric) {
        spelling_use(*side, SpellingUse::Number);
      } else if (l->kind == ast::LiteralKind::String) {
        // datetime(x) = '2026-10-01 ...': its text, compared with the literal's (to_char on PostgreSQL).
        if (const auto* f = std::get_if<ast::FuncCall>(&side->node); f && f->name == "datetime") {
          spelling_use(*side, SpellingUse::NullOrText);
          continue;
        }
        const std::string t = lower(l->text);
        const bool number_like =
            !t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-' || t[0] == '+' || t[0] == '.');
        if (!number_like && t != "true" && t != "false" && t != "null" && !t.starts_with('{') && !t.starts_with('['))
          spelling_use(*side, SpellingUse::NullOrText);
      }
    } else if (timestamp_column(other, ctx)) {
      spelling_use(*side, SpellingUse::Time);
    }
  }
}

// round(x, n) of a float: PostgreSQL has only round(numeric, int) (its error after a round trip); the
// intent is exact (issue #12: add the numeric cast), so x becomes CAST(x AS numeric) on PostgreSQL.
void Admitter::round_numeric_on_postgres(ast::FuncCall& f, const ExprContext& ctx) {
  if (dialect_ != Dialect::Postgres || f.name != "round" || f.args.size() != 2 || f.over) return;
  ast::Expr& x = f.args[0];
  if (const auto* c = std::get_if<ast::Cast>(&x.node); c && c->type.name == "numeric") return;
  if (const auto* l = std::get_if<ast::Literal>(&x.node); l && l->kind != ast::LiteralKind::String) return;
  if (integer_valued(x, ctx)) return;
  bool float_typed = false;
  if (const auto* c = base_column(x, ctx)) {
    const std::string t = lower(c->type);
    float_typed = t.find("double") != std::string::npos || t.find("real") != std::string::npos ||
                  t.find("float") != std::string::npos;
  } else if (const auto* g = std::get_if<ast::FuncCall>(&x.node); g && (g->name == "total" || g->name == "julianday")) {
    float_typed = true;  // SQLite spellings translated into floats (sqlite_spelling_on_postgres)
  } else if (const auto* g = std::get_if<ast::FuncCall>(&x.node)) {
    // avg/sum/min/max of a float column, and a float cast.
    if (g->args.size() == 1 && (g->name == "avg" || g->name == "sum" || g->name == "min" || g->name == "max"))
      if (const auto* c = base_column(g->args[0], ctx)) {
        const std::string t = lower(c->type);
        float_typed = t.find("double") != std::string::npos || t.find("real") != std::string::npos ||
                      t.find("float") != std::string::npos;
      }
  } else if (const auto* c = std::get_if<ast::Cast>(&x.node)) {
    float_typed = c->type.name == "float8" || c->type.name == "float4";
  }
  if (!float_typed) return;
  const int at = x.location;
  x = ast::make_expr(ast::Cast{Box<Expr>(std::move(x)), ast::TypeName{"numeric", {}}}, at);
  note_rewrite("dialect:round-numeric");
}

Status Admitter::sqlite_time_words(const ast::FuncCall& f, int location) const {
  const std::string& name = f.name;
  if (name != "strftime" && name != "datetime" && name != "date" && name != "time" && name != "julianday" &&
      name != "unixepoch")
    return {};
  const std::size_t first = name == "strftime" ? 1 : 0;
  if (name == "strftime" && !f.args.empty())
    if (const auto* format = string_literal(f.args[0]))
      for (std::size_t i = 0; i + 1 < format->text.size(); ++i) {
        if (format->text[i] != '%') continue;
        const char d = format->text[++i];
        if (!sqlite_directive(d))
          return make_error(ErrorCode::CapabilityNotOnSqlite,
                            std::string("strftime's %") + d + " is not known to this SQLite (3.40), which answers NULL",
                            "FIX: use %Y %m %d %H %M %S %f %j %w %W %s %J, or PostgreSQL's to_char(t, pattern) (e.g. "
                            "to_char(t, 'ID') for the ISO weekday, to_char(t, 'IW') for the ISO week).",
                            pos(location));
      }
  for (std::size_t i = first + 1; i < f.args.size(); ++i) {
    const auto* m = string_literal(f.args[i]);
    if (!m) continue;
    const std::string word = lower(m->text);
    if (sqlite_modifier(word)) continue;
    const bool local = word.find("local") != std::string::npos || word.find("utc") != std::string::npos;
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      name + "() modifier '" + m->text + "' " +
                          (local ? "reads the gateway host's time zone, which the statement does not name"
                                 : "is not known to this SQLite (3.40), which answers NULL"),
                      local ? "FIX: name the zone: t AT TIME ZONE 'Europe/Berlin' (times are UTC)."
                            : "FIX: use 'N days' / hours / minutes / seconds / months / years, 'start of month' / "
                              "year / day or 'weekday N'; or PostgreSQL's t + CAST('1 day' AS interval) and "
                              "date_trunc('month', t).",
                      pos(location));
  }
  return {};
}

Status Admitter::sqlite_spelling_on_postgres(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  auto& f = std::get<ast::FuncCall>(e.node);
  // ifnull / iif are COALESCE / CASE on SQLite too, so that they meet the same type checks (ifnull(cost_usd,
  // 'none') answered the text in a double precision column, iif(c, 1, 'x') 'x' as an integer; outside tester s17c).
  if (dialect_ == Dialect::Sqlite)
    if (auto s = sqlite_time_words(f, e.location); !s) return s;
  // "time"(x) (TIME is a type name in PostgreSQL's grammar, so only the quoted spelling reaches here) is PostgreSQL's
  // cast to time, milliseconds kept, on both backends; SQLite's time() printed HH:MM:SS (outside tester s19c). With
  // modifiers it has no PostgreSQL meaning.
  if (f.name == "time" && !f.over && !f.star && !f.distinct && !f.filter && !f.args.empty() &&
      (dialect_ == Dialect::Sqlite || f.args.size() == 1)) {
    if (f.args.size() > 1)
      return make_error(ErrorCode::CapabilityNotOnSqlite,
                        "\"time\"(x, modifier ...): in PostgreSQL \"time\"(x) is a cast to time, which takes no "
                        "modifiers; SQLite's time() would shift the text",
                        "FIX: shift, then cast: CAST(x + INTERVAL '1 hour' AS time).", pos(e.location));
    const int at = e.location;
    ast::Expr arg = std::move(f.args.front());
    if (const auto* l = string_literal(arg); l && lower(l->text) == "now")  // 'now'::time: the current time of day
      arg = ast::make_expr(ast::SqlValue{ast::SqlValueKind::CurrentTimestamp}, arg.location);
    e = ast::make_expr(ast::Cast{ast::Box<ast::Expr>(std::move(arg)), ast::TypeName{"time", {}}}, at);
    replaced = true;
    return {};
  }
  // group_concat(DISTINCT x) too: string_agg(DISTINCT ...) sorts its values on SQLite as PostgreSQL's does, where
  // SQLite's own kept them in the order first seen (outside tester s18c).
  if (dialect_ != Dialect::Postgres && f.name != "ifnull" && f.name != "iif" &&
      !(f.name == "group_concat" && f.distinct))
    return {};
  const auto* row = capability::find_function(f.name);
  const bool scalar_max_min = (f.name == "max" || f.name == "min") && f.args.size() > 1;
  // date(t) alone is PostgreSQL's date() (a literal's offset is dropped, as PostgreSQL does: the SQLite
  // executor follows that); with modifiers it is SQLite's.
  const bool date_modifiers = f.name == "date" && f.args.size() > 1;
  if (!scalar_max_min && !date_modifiers && (!row || row->postgres.verdict != capability::Verdict::Rewrite)) return {};
  const int loc = e.location;
  const std::string name = f.name;
  const bool aggregate_form = f.star || f.distinct || f.filter || !f.order_by.empty() || !f.within_group.empty();
  auto refuse = [&](std::string why, std::string fix) -> Status {
    return make_error(ErrorCode::CapabilityNotOnPostgres, name + "() " + why + ": no exact PostgreSQL translation",
                      std::move(fix), pos(loc));
  };
  auto arity = [&](std::size_t lo, std::size_t hi) { return f.args.size() >= lo && f.args.size() <= hi; };
  auto done = [&](ast::Expr out, std::string_view rewrite) -> Status {
    out.location = loc;
    e = std::move(out);  // `f` dies here
    replaced = true;
    note_rewrite(rewrite);
    return {};
  };
  if (row && row->kind != capability::FunctionKind::Aggregate && (aggregate_form || f.over))
    return refuse("with DISTINCT, FILTER, ORDER BY or OVER", "FIX: write the call without them.");

  if (scalar_max_min) {
    // SQLite's max(a, b) is NULL when any argument is; GREATEST skips NULLs.
    // Each argument is read twice (the NULL test and the comparison): a volatile one would differ.
    auto volatile_call = [](const ast::Expr& a) {
      bool found = false;
      auto visit = [&](const ast::Expr& x, auto& self) -> void {
        if (const auto* g = std::get_if<ast::FuncCall>(&x.node); g && g->name == "random") found = true;
        ast::for_each_child(x, [&](const ast::Expr& c) { self(c, self); });
      };
      visit(a, visit);
      return found;
    };
    if (std::any_of(f.args.begin(), f.args.end(), volatile_call))
      return refuse("of random()", "FIX: on PostgreSQL, write greatest(a, b) / least(a, b) (they skip NULLs).");
    if (aggregate_form || f.over)
      return refuse("with several arguments and aggregate modifiers",
                    "FIX: write "
                    "greatest(a, b) / least(a, b).");
    // SQLite orders every number before every text ('9' is text there: max('9', 10) is '9'), PostgreSQL's GREATEST
    // reads the quoted literal as the number (10; outside tester s20c): numbers and texts are not mixed.
    bool texts = false, numbers = false;
    for (const auto& a : f.args) {
      const SqlType t = value_type(a, ctx).type;
      texts = texts || t == SqlType::Text || t == SqlType::Untyped;
      numbers = numbers || t == SqlType::Integer || t == SqlType::Numeric || t == SqlType::Float;
    }
    if (texts && numbers)
      return refuse("of a text and a number (SQLite orders every text after every number)",
                    "FIX: give the arguments one type, e.g. greatest(CAST(a AS numeric), b), or compare the texts: "
                    "greatest(a, CAST(b AS text)).");
    ast::MinMax mm{name == "max", f.args};
    std::vector<ast::Expr> tests;
    for (const auto& a : f.args) tests.push_back(null_test(a));
    Expr any_null = ast::make_expr(ast::BoolOp{ast::BoolOpKind::Or, std::move(tests)});
    return done(case_when(std::move(any_null), null_literal(), ast::make_expr(std::move(mm))),
                "dialect:scalar-max-min");
  }
  if (name == "ifnull") {
    if (!arity(2, 2)) return refuse("takes two arguments", "FIX: write coalesce(a, b).");
    return done(ast::make_expr(ast::Coalesce{std::move(f.args)}), "dialect:ifnull");
  }
  if (name == "iif") {
    if (!arity(3, 3)) return refuse("takes three arguments", "FIX: write CASE WHEN c THEN a ELSE b END.");
    // SQLite reads a number as the condition (0 is false); PostgreSQL's CASE needs a boolean.
    Expr condition = std::move(f.args[0]);
    if (!boolean_valued(condition) && integer_valued(condition, ctx))
      condition = op("<>", std::move(condition), num(0));
    return done(case_when(std::move(condition), std::move(f.args[1]), std::move(f.args[2])), "dialect:iif");
  }
  if (name == "instr") {
    if (!arity(2, 2)) return refuse("takes two arguments", "FIX: write strpos(haystack, needle).");
    return done(fn("strpos", std::move(f.args)), "dialect:instr");
  }
  if (name == "total") {
    // total() is sum() as a float that is 0.0 (not NULL) over no rows.
    if (!arity(1, 1) || f.star) return refuse("takes one argument", "FIX: write coalesce(sum(x), 0).");
    ast::FuncCall sum = std::move(f);
    sum.name = "sum";
    return done(cast(ast::make_expr(ast::Coalesce{{ast::make_expr(std::move(sum)), num(0)}}), "float8"),
                "dialect:total");
  }
  if (name == "group_concat") {
    // The order of group_concat is unspecified on SQLite, as string_agg's without ORDER BY is on
    // PostgreSQL: the translation keeps that (and an ORDER BY inside, where written).
    if (!arity(1, 2) || f.star || (f.distinct && f.args.size() == 2))
      return refuse("takes (x) or (x, separator), and DISTINCT only with (x)",
                    "FIX: on PostgreSQL, write string_agg(DISTINCT CAST(x AS text), ',').");
    if (!text_alike(f.args[0], ctx))
      return refuse(
          "of a value that is not text or a whole number (SQLite and PostgreSQL print floats, "
          "booleans, times and JSON differently)",
          "FIX: on PostgreSQL, write string_agg(CAST(x AS text), ',') (PostgreSQL's text of each value).");
    if (f.args.size() == 2 && !string_literal(f.args[1]))
      return refuse("with a separator that is not a literal", "FIX: write string_agg(x, ', ').");
    ast::FuncCall agg = std::move(f);
    agg.name = "string_agg";
    agg.args[0] = cast(std::move(agg.args[0]), "text");
    if (agg.args.size() == 1) agg.args.push_back(str(","));
    return done(ast::make_expr(std::move(agg)), "dialect:group_concat");
  }
  if (name == "json_extract") {
    if (!arity(2, 2) || !string_literal(f.args[1]) || !string_literal(f.args[1])->text.starts_with('$'))
      return refuse("with other than one literal path ('$.a.b')",
                    "FIX: on PostgreSQL, write col ->> 'key' (text) or col #>> '{a,b}'.");
    if (string_literal(f.args[1])->text == "$")
      return refuse("of the whole document", "FIX: on PostgreSQL, write CAST(col AS text).");
    // SQLite returns the JSON value as a SQL value of its type (text, integer, real, 1/0); PostgreSQL
    // has one type per expression. Where the caller reads it as a number (sum, avg, arithmetic, a
    // comparison with a number, a cast to one) it is numeric, and a JSON string there is an error;
    // where it is only tested for NULL or compared with a text, it is the text; elsewhere it is the
    // text of a JSON string, and any other JSON type is an error (never a different value).
    const auto use_it = spelling_uses_.find(&e);
    const SpellingUse use = use_it == spelling_uses_.end() ? SpellingUse::Value : use_it->second;
    Expr doc = std::move(f.args[0]);
    // A quoted document is untyped in PostgreSQL: json or jsonb for -> is ambiguous ("operator is not unique").
    if (string_literal(doc)) doc = cast(std::move(doc), "jsonb");
    Expr path = std::move(f.args[1]);
    Expr as_text = op("->>", doc, path);
    Expr as_json = op("->", doc, path);
    if (use == SpellingUse::NullOrText) return done(std::move(as_text), "dialect:json_extract");
    // The other JSON types are named in the statement, so PostgreSQL's error shows which one it met.
    Expr type = fn("jsonb_typeof", {std::move(as_json)});
    Expr error = cast(cast(type, "int4"), "text");  // a runtime error that names the JSON type
    std::vector<Expr> others;
    for (const char* t : {"string", "number", "boolean", "object", "array"})
      if (use == SpellingUse::Number ? std::string_view(t) != "number" : std::string_view(t) != "string")
        others.push_back(str(t));
    Expr wrong = ast::make_expr(ast::InList{Box<Expr>(std::move(type)), std::move(others)});
    Expr value = case_when(std::move(wrong), std::move(error), std::move(as_text));
    if (use == SpellingUse::Number) value = cast(std::move(value), "numeric");
    return done(std::move(value), "dialect:json_extract");
  }
  if (name == "strftime" || name == "datetime" || name == "date" || name == "julianday" || name == "unixepoch") {
    const std::size_t first = name == "strftime" ? 1 : 0;
    if (f.args.size() <= first) return refuse("without a time argument", std::string(kTimeFix));
    std::string why;
    std::optional<ast::Expr> t;
    if (f.args.size() > first + 1 && string_literal(f.args[first + 1]) &&
        lower(string_literal(f.args[first + 1])->text) == "unixepoch") {
      if (!integer_valued(f.args[first], ctx))
        return refuse("with 'unixepoch' of a value that is not a whole number",
                      "FIX: on PostgreSQL, write to_timestamp(seconds).");
      t = fn("to_timestamp", {f.args[first]});
      f.args.erase(f.args.begin() + static_cast<std::ptrdiff_t>(first + 1));
    } else {
      t = spelled_time(f.args[first], ctx, why);
    }
    if (!t) return refuse("of a value it cannot read exactly (" + why + ")", std::string(kTimeFix));
    std::vector<ast::Expr> rest(f.args.begin() + static_cast<std::ptrdiff_t>(first), f.args.end());
    // SQLite computes in whole milliseconds (in_milliseconds) after a modifier and for %s, julianday and
    // unixepoch; without one it prints the fields it read (datetime of '... 23:59:59.9996' is 23:59:59,
    // strftime('%s', ...) the next second; outside tester s19g).
    const bool modified = rest.size() > 1;
    if (modified) t = in_milliseconds(std::move(*t));
    auto shifted = apply_modifiers(std::move(*t), rest, ctx, why);
    if (!shifted)
      return refuse("with " + why,
                    "FIX: on PostgreSQL, shift with + CAST('N days' AS interval) (also hours, minutes, seconds, "
                    "months) and truncate with date_trunc('month', t).");
    Expr ts = std::move(*shifted);
    // Whole seconds of the milliseconds, as SQLite divides its (positive) Julian milliseconds: floor.
    const auto epoch_seconds = [&](Expr time) {
      return cast(
          fn("floor", {fn("date_part", {str("epoch"), modified ? std::move(time) : in_milliseconds(std::move(time))})}),
          "int8");
    };
    if (name == "date") return done(cast(std::move(ts), "date"), "dialect:date");
    if (name == "julianday")
      return done(op("+",
                     op("/", fn("date_part", {str("epoch"), modified ? std::move(ts) : in_milliseconds(std::move(ts))}),
                        num(86400)),
                     ast::make_expr(ast::Literal{ast::LiteralKind::Numeric, "2440587.5"})),
                  "dialect:julianday");
    if (name == "unixepoch") return done(epoch_seconds(std::move(ts)), "dialect:unixepoch");
    if (name == "datetime") {
      const auto use_it = spelling_uses_.find(&e);
      if (use_it != spelling_uses_.end() && use_it->second == SpellingUse::Time)
        return done(fn("date_trunc", {str("second"), std::move(ts)}), "dialect:datetime");
      return done(fn("to_char", {std::move(ts), str("YYYY-MM-DD HH24:MI:SS")}), "dialect:datetime");
    }
    // strftime: each directive as to_char's pattern (or a number's text), the rest quoted.
    const auto* format = string_literal(f.args[0]);
    if (!format)
      return refuse("with a format that is not a literal", "FIX: on PostgreSQL, write to_char(t, 'YYYY-MM').");
    std::vector<Expr> parts;
    std::string pattern, plain;
    auto flush = [&] {
      if (!plain.empty()) pattern += to_char_literal(plain);
      plain.clear();
      if (!pattern.empty()) parts.push_back(fn("to_char", {ts, str(pattern)}));
      pattern.clear();
    };
    const std::string& fmt = format->text;
    for (std::size_t i = 0; i < fmt.size(); ++i) {
      if (fmt[i] != '%') {
        plain += fmt[i];
        continue;
      }
      if (i + 1 >= fmt.size()) return refuse("with a format ending in %", "FIX: write %% for a percent sign.");
      const char d = fmt[++i];
      std::string_view p;
      switch (d) {
        case 'Y':
          p = "YYYY";
          break;
        case 'm':
          p = "MM";
          break;
        case 'd':
          p = "DD";
          break;
        case 'H':
          p = "HH24";
          break;
        case 'M':
          p = "MI";
          break;
        case 'S':
          p = "SS";
          break;
        case 'j':
          p = "DDD";
          break;
        case '%':
          plain += '%';
          continue;
        default:
          break;
      }
      if (!p.empty()) {
        if (!plain.empty()) pattern += to_char_literal(plain);
        plain.clear();
        pattern += p;
        continue;
      }
      if (d == 'w' || d == 's') {
        flush();
        Expr value = d == 'w' ? cast(fn("date_part", {str("dow"), ts}), "int4") : epoch_seconds(ts);
        parts.push_back(cast(std::move(value), "text"));
        continue;
      }
      return refuse(std::string("with %") + d + " (PostgreSQL's week and fraction numbering differs)",
                    "FIX: on PostgreSQL, write to_char(t, '...') with its own patterns (YYYY MM DD HH24 MI SS, IW "
                    "for the ISO week, MS for milliseconds).");
    }
    flush();
    if (parts.empty()) parts.push_back(fn("to_char", {ts, str("")}));
    Expr out = std::move(parts[0]);
    for (std::size_t i = 1; i < parts.size(); ++i) out = op("||", std::move(out), std::move(parts[i]));
    return done(std::move(out), "dialect:strftime");
  }
  if (name == "printf") {
    // %s of text or a whole number, %d of a whole number, %%: the text joined with ||
    // (SQLite's %s prints NULL as an empty text, as PostgreSQL's format() does, and its %d as 0).
    const auto* format = f.args.empty() ? nullptr : string_literal(f.args[0]);
    if (!format) return refuse("with a format that is not a literal", "FIX: on PostgreSQL, join text with ||.");
    const std::string fmt = format->text;
    std::vector<Expr> parts;
    std::string plain;
    std::size_t next = 1;
    for (std::size_t i = 0; i < fmt.size(); ++i) {
      if (fmt[i] != '%') {
        plain += fmt[i];
        continue;
      }
      const char d = i + 1 < fmt.size() ? fmt[i + 1] : '\0';
      ++i;
      if (d == '%') {
        plain += '%';
        continue;
      }
      if ((d != 's' && d != 'd') || next >= f.args.size())
        return refuse(std::string("with the directive %") + (d ? std::string(1, d) : "") +
                          " (only %s, %d and %% translate exactly)",
                      "FIX: on PostgreSQL, write to_char(x, 'FM999990.00') for numbers, or join text with ||.");
      Expr& a = f.args[next++];
      if (d == 'd' ? !integer_valued(a, ctx) : !text_alike(a, ctx))
        return refuse("of a value that is not text or a whole number",
                      "FIX: on PostgreSQL, join CAST(x AS text) with ||.");
      if (!plain.empty()) parts.push_back(str(plain));
      plain.clear();
      // (SQLite's %d of NULL prints 0; outside tester s18c)
      parts.push_back(ast::make_expr(ast::Coalesce{{cast(std::move(a), "text"), str(d == 'd' ? "0" : "")}}));
    }
    if (next != f.args.size()) return refuse("with more arguments than directives", "FIX: pass one argument per %s.");
    if (!plain.empty() || parts.empty()) parts.push_back(str(plain));
    Expr out = std::move(parts[0]);
    for (std::size_t i = 1; i < parts.size(); ++i) out = op("||", std::move(out), std::move(parts[i]));
    return done(cast(std::move(out), "text"), "dialect:printf");
  }
  return refuse("is not translated", "FIX: write PostgreSQL's spelling (GET /v1/schema?detail=functions).");
}

}  // namespace qg::admit::detail
