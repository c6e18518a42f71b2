// PostgreSQL's time family on SQLite, typed at admission (issue #12). The one
// place that knows which expressions are timestamps, dates, times or
// intervals (time_kind) and that translates what PostgreSQL computes with them
// into calls of the functions querygate registers on SQLite connections
// (executors/sqlite/sqlite_time.cpp, semantics in common/pg_time.cpp):
//   timestamp - timestamp, timestamp ± interval, date ± integer, interval
//   arithmetic, CAST to date/timestamp/timestamptz/time/interval, EXTRACT and
//   date_part, date_trunc, to_char, now() / CURRENT_TIMESTAMP, AT TIME ZONE /
//   timezone(), comparisons, ORDER BY, min/max.
// Each translation is reported as a `dialect:` rewrite; what cannot be made
// exact is refused with a FIX. PostgreSQL runs all of this natively: nothing
// here changes a PostgreSQL statement.
//
// On SQLite a stored timestamp column keeps its stored text (its kind is
// timestamptz, or date when it stores dates); a computed value is text in
// querygate's JSON form, which the registered functions read back.
#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "admission/admit/admitter.hpp"
#include "admission/rewrite/time_literals.hpp"
#include "common/pg_time.hpp"

namespace qg::admit::detail {
namespace {

using pgtime::Kind;

const ast::Literal* string_literal(const ast::Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::String ? l : nullptr;
}

ast::Expr text(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

ast::Expr integer(long long v) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(v)});
}

ast::Expr kind_literal(Kind k) {
  return text(std::string(pgtime::kind_name(k)));
}

// A date_trunc field as PostgreSQL reads it: without case.
std::string folded_field(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ast::Expr call(std::string name, std::vector<ast::Expr> args, int location = -1) {
  return ast::make_call(std::move(name), std::move(args), location);
}

std::string words(std::optional<Kind> k) {
  return k ? std::string(pgtime::type_words(*k)) : std::string("a value that is not a time");
}

// The literal text of a translated call's kind argument.
std::optional<Kind> kind_arg(const ast::FuncCall& f, std::size_t i) {
  if (i >= f.args.size()) return std::nullopt;
  const auto* l = string_literal(f.args[i]);
  return l ? pgtime::kind_from_name(l->text) : std::nullopt;
}

// Whether stored time columns keep their times in different text forms ('...Z' and '...+00:00'; a date and a
// timestamp), whose texts do not compare, sort or dedupe as the times (only ISO-8601 texts count: others are text).
bool stored_apart(const std::vector<const catalog::Column*>& columns) {
  const catalog::Column* first = nullptr;
  for (const auto* c : columns) {
    if (!c || !rewrite::parse_iso_time(c->timestamp_sample)) continue;
    if (first && !rewrite::same_text_format(first->timestamp_sample, c->timestamp_sample)) return true;
    first = first ? first : c;
  }
  return false;
}

// pg_time_key(x, k), the key PostgreSQL compares x by; the key itself when x is pg_from_key(key, k) (a column of
// mixed forms read as a time: mixed_time_on_sqlite).
ast::Expr time_key(ast::Expr x, Kind k, int location) {
  if (auto* f = std::get_if<ast::FuncCall>(&x.node);
      f && f->name == "pg_from_key" && f->args.size() == 2 && !f->over && kind_arg(*f, 1) == k) {
    ast::Expr key = std::move(f->args[0]);
    return key;
  }
  return call("pg_time_key", {std::move(x), kind_literal(k)}, location);
}

// A zone AT TIME ZONE reads exactly here: UTC/GMT, a POSIX offset (+02, -05:30), or an Area/Location name.
bool zone_form(std::string_view z) {
  std::string u(z);
  for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == "UTC" || u == "GMT" || u == "Z" || u == "ETC/UTC") return true;
  if (!z.empty() && (z[0] == '+' || z[0] == '-')) {
    const std::string_view rest = z.substr(1);
    if (rest.size() == 2) return std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(c); });
    return rest.size() == 5 && std::isdigit(rest[0]) && std::isdigit(rest[1]) && rest[2] == ':' &&
           std::isdigit(rest[3]) && std::isdigit(rest[4]);
  }
  return z.find('/') != std::string_view::npos && std::all_of(z.begin(), z.end(), [](char c) {
           return std::isalnum(c) || c == '/' || c == '_' || c == '-' || c == '+';
         });
}

}  // namespace

bool timestamp_like(std::optional<Kind> k) {
  return k && (*k == Kind::Timestamptz || *k == Kind::Timestamp || *k == Kind::Date);
}

// The kind two timestamp-like operands meet in (PostgreSQL's implicit casts: date → timestamp → timestamptz).
Kind common_kind(Kind a, Kind b) {
  if (a == Kind::Timestamptz || b == Kind::Timestamptz) return Kind::Timestamptz;
  if (a == Kind::Timestamp || b == Kind::Timestamp) return Kind::Timestamp;
  return Kind::Date;
}

// What a stored timestamp column holds, from one stored value: dates, times with a UTC offset
// (timestamptz), or wall-clock times without one (timestamp: Chinook's, Defog's).
Kind stored_kind(const catalog::Column& c) {
  const auto t = rewrite::parse_iso_time(c.timestamp_sample);
  if (t && !t->has_time) return Kind::Date;
  return t && !t->offset_minutes ? Kind::Timestamp : Kind::Timestamptz;
}

std::optional<Kind> Admitter::time_kind(const ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return std::nullopt;
  if (const auto* c = timestamp_column(e, ctx)) return stored_kind(*c);
  return std::visit(
      [&](const auto& n) -> std::optional<Kind> {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          if (n.star) return std::nullopt;
          auto relation = resolve_column(n, e.location, ctx);
          if (!relation || !*relation) return std::nullopt;
          if ((*relation)->table) {  // a column of mixed forms, not yet read as times (mixed_time_on_sqlite)
            const auto* c = (*relation)->table->find_column(n.column, dialect_);
            return c && c->timestamp && c->timestamp_mixed ? std::optional<Kind>(stored_kind(*c)) : std::nullopt;
          }
          const Relation& r = **relation;
          for (std::size_t i = 0; i < r.columns.size() && i < r.time_kinds.size(); ++i)
            if (same(r.columns[i], n.column)) return r.time_kinds[i];
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          const std::string& f = n.name;
          if (f == "pg_cast") return kind_arg(n, 2);
          if (f == "pg_to_timestamp") return Kind::Timestamptz;
          if (f == "pg_to_time") return kind_arg(n, 2);
          if (f == "pg_make_date") return Kind::Date;
          if (f == "pg_iv_sum" || f == "pg_iv_avg") return Kind::Interval;
          if (f == "pg_ts_diff" || f == "pg_age" || f == "pg_iv_add" || f == "pg_iv_mul" || f == "pg_iv_div")
            return Kind::Interval;
          if (f == "pg_ts_add") {
            const auto k = kind_arg(n, 3);
            return k == Kind::Date ? std::optional<Kind>(Kind::Timestamp) : k;
          }
          if (f == "pg_date_add") return Kind::Date;
          if (f == "pg_date_trunc" || f == "pg_from_key") return kind_arg(n, f == "pg_from_key" ? 1 : 2);
          if (f == "pg_timezone") {
            const auto k = kind_arg(n, 2);
            if (!k) return std::nullopt;
            return *k == Kind::Timestamp ? Kind::Timestamptz : Kind::Timestamp;
          }
          if (f == "date" && !n.args.empty()) return Kind::Date;  // with modifiers too: 'YYYY-MM-DD' (or NULL)
          // datetime() is a time, except where it is compared with a quoted literal or computed with as a number:
          // text there ('YYYY-MM-DD HH:MM:SS', as its PostgreSQL translation to_char is; typed as a time,
          // datetime(x) >= '2026-10-01T00:00:00Z' answered 6 388 rows where the PostgreSQL gateway and SQLite itself
          // answer 6 258; outside tester s19a). strftime() is text.
          // Anywhere else (a CASE or COALESCE result, a function's argument, + interval) it is text, as its
          // translation on PostgreSQL is (typed a timestamp there, a CASE of datetime() printed 'T...' and was
          // answered + interval '1 hour'; outside tester s21e).
          if (f == "datetime" && !n.args.empty()) {
            const auto use = spelling_uses_.find(&e);
            if (use != spelling_uses_.end() && use->second == SpellingUse::Time) return Kind::Timestamp;
          }
          static constexpr std::string_view kPassOn[] = {"min",       "max",         "lag",
                                                         "lead",      "first_value", "last_value",
                                                         "nth_value", "pg_single",   "pg_interval_collate"};
          if (!n.star && !n.args.empty() && std::find(std::begin(kPassOn), std::end(kPassOn), f) != std::end(kPassOn))
            return time_kind(n.args.front(), ctx);
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, ast::SqlValue>) {
          if (n.kind == ast::SqlValueKind::CurrentDate) return Kind::Date;
          if (n.kind == ast::SqlValueKind::CurrentTimestamp) return Kind::Timestamptz;
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, ast::Coalesce>) {
          std::optional<Kind> k;
          for (const auto& a : n.args) {
            if (null_literal(a)) continue;
            const auto ak = time_kind(a, ctx);
            if (!ak || (k && *k != *ak)) return std::nullopt;
            k = ak;
          }
          return k;
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          std::optional<Kind> k;
          auto branch = [&](const ast::Expr& r) {
            if (null_literal(r)) return true;
            const auto rk = time_kind(r, ctx);
            if (!rk || (k && *k != *rk)) return false;
            k = rk;
            return true;
          };
          for (const auto& w : n.whens)
            if (!branch(*w.result)) return std::nullopt;
          if (n.otherwise && !branch(**n.otherwise)) return std::nullopt;
          return k;
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          return time_kind(*n.left, ctx);
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          // A scalar subquery's one computed time (a stored column's is timestamp_column's, above).
          if (n.kind != ast::SubLinkKind::Scalar) return std::nullopt;
          const auto kinds = query_kinds(*n.query);
          return kinds.size() == 1 ? kinds.front() : std::nullopt;
        } else {
          return std::nullopt;
        }
      },
      e.node);
}

// A column whose rows store times in more than one text form (catalog::Column::timestamp_mixed): each value read as
// the time it is, pg_from_key(pg_time_key(x, kind), kind), so that comparisons, order, grouping and min / max follow
// time, as PostgreSQL's typed column does (its texts do only within one form: '...:00Z' sorted after '...:00.5Z').
bool Admitter::mixed_time_on_sqlite(ast::Expr& e, const Relation& r) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (dialect_ != Dialect::Sqlite || !ref || ref->star || !r.table || &e == time_key_argument_) return false;
  const auto* c = r.table->find_column(ref->column, dialect_);
  if (!c || !c->timestamp || !c->timestamp_mixed) return false;
  in_computed_form(e, stored_kind(*c));
  note_rewrite("dialect:mixed-time-forms");
  return true;
}

void Admitter::in_computed_form(ast::Expr& stored, Kind kind) {
  const int at = stored.location;
  ast::Expr value = std::move(stored);
  stored =
      call("pg_from_key", {call("pg_time_key", {std::move(value), kind_literal(kind)}, at), kind_literal(kind)}, at);
}

void Admitter::stored_times_in_branches_on_sqlite(const std::vector<ast::Expr*>& results, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return;
  std::optional<Kind> kind;
  bool computed = false, stored = false;
  std::vector<const catalog::Column*> columns;
  for (const ast::Expr* r : results) {
    const auto k = time_kind(*r, ctx);
    if (!k) continue;
    if (kind && *kind != *k) return;  // kinds that meet are branch_types' (a date meeting a timestamptz)
    kind = k;
    columns.push_back(timestamp_column(*r, ctx));
    (columns.back() ? stored : computed) = true;
  }
  // Stored columns of two text forms too: COALESCE(a, b) printed b's '...12:00:00.500+00:00' (outside tester s19b).
  if (!kind || *kind == Kind::Interval || !stored || (!computed && !stored_apart(columns))) return;
  for (ast::Expr* r : results)
    if (timestamp_column(*r, ctx)) in_computed_form(*r, *kind);
  note_rewrite("dialect:time-branches");
}

Status Admitter::times_in_set_on_sqlite(ast::SetOp& set, std::vector<std::optional<Kind>>& kinds) {
  if (dialect_ != Dialect::Sqlite) return {};
  const std::vector<ast::Query*> leaves = set_leaves(set);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    std::optional<Kind> kind;
    bool stored = false, computed = false, other = false, literals = false;
    std::vector<const catalog::Column*> columns;
    for (const ast::Query* leaf : leaves) {
      const auto* s = std::get_if<ast::Select>(&leaf->body);
      if (!s || i >= s->items.size()) {
        other = true;
        continue;
      }
      if (null_literal(s->items[i].expr)) continue;
      if (string_literal(s->items[i].expr)) {
        literals = true;
        continue;
      }
      const auto times = query_times(*leaf);
      const auto leaf_kinds = query_kinds(*leaf);
      std::optional<Kind> k;
      if (i < times.size() && times[i]) {
        k = stored_kind(*times[i]);
        stored = true;
        columns.push_back(times[i]);
      } else if (i < leaf_kinds.size() && leaf_kinds[i]) {
        k = leaf_kinds[i];
        computed = true;
      }
      if (!k || (kind && *kind != *k)) other = true;
      kind = k;
    }
    if (other || !kind) continue;
    // A quoted literal here is PostgreSQL's unknown, read as the column's time (its error when it is none):
    // SELECT start_time ... UNION SELECT '2026-09-16 00:19:23.561Z' compared the texts.
    for (ast::Query* leaf : leaves) {
      auto& item = std::get<ast::Select>(leaf->body).items[i];
      if (!string_literal(item.expr)) continue;
      if (auto s = untyped_as_time(item.expr, *kind, ExprContext{nullptr, nullptr, nullptr}); !s) return s;
      computed = true;
    }
    if (literals) kinds[i] = kind;
    if (*kind == Kind::Interval) {
      for (ast::Query* leaf : leaves) {
        auto& item = std::get<ast::Select>(leaf->body).items[i];
        if (!null_literal(item.expr)) collate_interval_item(item);
      }
      continue;
    }
    // Stored columns of two text forms too: a UNION b kept both texts of one instant (outside tester s19a).
    if (!stored || (!computed && !stored_apart(columns))) continue;
    for (ast::Query* leaf : leaves) {
      auto& item = std::get<ast::Select>(leaf->body).items[i];
      const auto times = query_times(*leaf);
      if (null_literal(item.expr) || i >= times.size() || !times[i]) continue;
      if (item.alias.empty()) item.alias = figure_name(item.expr);
      in_computed_form(item.expr, *kind);
    }
    kinds[i] = kind;
    note_rewrite("dialect:time-branches");
  }
  return {};
}

// JOIN ... USING (u) on SQLite compares the two sides' values as the engine holds them: times only where both are
// stored columns of one text form (a stored time against a computed one, or two forms, compared texts: 0 rows for
// 1; outside tester s19a); intervals never ('1 day' against '24:00:00').
Status Admitter::time_using_on_sqlite(const std::string& u, const std::vector<const StarColumn*>& sides,
                                      const Scope& level, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const ExprContext ctx{&level, nullptr, nullptr};
  bool times = false, plain = true;
  std::vector<const catalog::Column*> columns;
  for (const StarColumn* side : sides)
    for (const auto& [index, column] : side->sources) {
      if (index >= level.relations.size() || level.relations[index].name.empty()) continue;
      ast::Expr ref = ast::make_expr(ast::ColumnRef{level.relations[index].name, column, false, false, {}});
      const auto k = time_kind(ref, ctx);
      if (!k) continue;
      times = true;
      columns.push_back(timestamp_column(ref, ctx));
      plain = plain && *k != Kind::Interval && columns.back() != nullptr;
    }
  if (!times || (plain && !stored_apart(columns))) return {};
  std::vector<std::string> names;  // the first relation of each side naming u
  for (const StarColumn* side : sides)
    for (const auto& source : side->sources)
      if (source.first < level.relations.size() && !level.relations[source.first].name.empty()) {
        names.push_back(level.relations[source.first].name);
        break;
      }
  const std::string a = !names.empty() ? names.front() : "a", b = names.size() > 1 ? names[1] : "b";
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "USING (" + u +
                        ") joins times that SQLite holds in different forms (or intervals): it would "
                        "compare their texts, not the times",
                    "FIX: join with ON " + a + "." + u + " = " + b + "." + u + " instead of USING (" + u +
                        "), and name the side's column you want (" + a + "." + u + ").",
                    pos(location));
}

// ORDER BY a column of a set operation or VALUES list on SQLite sorts the engine's text (a compound SELECT's ORDER BY
// takes no expression, so no sort key): right for dates and naive timestamps, not for a computed timestamptz
// ('...10:00:00.5Z' sorted before '...10:00:00Z') or an interval ('1 day' against '23:00:00'; outside tester s19e).
Status Admitter::time_set_sort_on_sqlite(const std::vector<ast::SortItem>& order_by,
                                         const std::vector<std::string>& names,
                                         const std::vector<std::optional<Kind>>& kinds, std::string_view what) {
  if (dialect_ != Dialect::Sqlite) return {};
  for (const auto& item : order_by) {
    const auto column = sorted_output_column(item, names);
    if (!column || *column >= kinds.size() || !kinds[*column]) continue;
    if (*kinds[*column] != Kind::Timestamptz && *kinds[*column] != Kind::Interval) continue;
    const std::string name = names[*column];
    return make_error(ErrorCode::CapabilityNotOnSqlite,
                      "ORDER BY " + name + ", " + words(kinds[*column]) + ", of " + std::string(what) +
                          " on SQLite: the engine would sort its text, not the times",
                      "FIX: sort outside it: SELECT * FROM (...) AS u ORDER BY u." + name + ".",
                      pos(item.expr->location >= 0 ? item.expr->location : 0));
  }
  return {};
}

bool Admitter::computed_time(const ast::Expr& e, const ExprContext& ctx) {
  return time_kind(e, ctx).has_value() && timestamp_column(e, ctx) == nullptr;
}

Status Admitter::time_operator_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  if (dialect_ != Dialect::Sqlite) return {};
  auto& op = std::get<ast::Operator>(e.node);
  static constexpr std::string_view kArithmetic[] = {"+", "-", "*", "/", "%"};
  if (std::find(std::begin(kArithmetic), std::end(kArithmetic), op.op) == std::end(kArithmetic)) return {};
  const int loc = e.location;
  const auto kr = time_kind(*op.right, ctx);
  if (!op.left) {
    if (!kr) return {};
    if (op.op == "-" && *kr == Kind::Interval) {
      e = call("pg_iv_mul", {std::move(*op.right), integer(-1)}, loc);
      replaced = true;
      note_rewrite("dialect:interval-arithmetic");
      return {};
    }
    return make_error(ErrorCode::ValidationUnsupported,
                      "prefix " + op.op + " on " + words(kr) + " is PostgreSQL's error (\"operator does not exist\")",
                      "FIX: negate an interval with -x or x * -1; a time has no sign.", pos(loc));
  }
  const auto kl = time_kind(**op.left, ctx);
  if (!kl && !kr) return {};
  ast::Expr& L = **op.left;
  ast::Expr& R = *op.right;
  auto number = [&](const ast::Expr& x) { return lineage(x, ctx).kind == ValueKind::Number; };
  auto done = [&](ast::Expr out, std::string_view rewrite) {
    out.location = loc;
    e = std::move(out);
    replaced = true;
    note_rewrite(rewrite);
    return Status{};
  };
  auto refuse = [&](const std::string& why, const std::string& fix) {
    return make_error(ErrorCode::ValidationUnsupported, why, fix, pos(loc));
  };
  const std::string what = words(kl) + " " + op.op + " " + words(kr);
  const bool untyped_left = !kl && string_literal(L), untyped_right = !kr && string_literal(R);
  if (untyped_left || untyped_right)
    return refuse(what +
                      " with an untyped text literal: PostgreSQL picks the literal's type from the operator, "
                      "which querygate does not guess",
                  "FIX: write the literal's type: INTERVAL '1 day' for a duration, TIMESTAMPTZ "
                  "'2026-01-01T00:00:00Z' for an instant, DATE '2026-01-01' for a day.");
  if (op.op == "-" && timestamp_like(kl) && timestamp_like(kr)) {
    if (*kl == Kind::Date && *kr == Kind::Date) return done(call("pg_date_diff", {L, R}), "dialect:date-minus-date");
    return done(call("pg_ts_diff", {L, R, kind_literal(common_kind(*kl, *kr))}), "dialect:timestamp-minus-timestamp");
  }
  if ((op.op == "+" || op.op == "-") && timestamp_like(kl) && kr == Kind::Interval)
    return done(call("pg_ts_add", {L, R, integer(op.op == "+" ? 1 : -1), kind_literal(*kl)}),
                "dialect:timestamp-plus-interval");
  if (op.op == "+" && kl == Kind::Interval && timestamp_like(kr))
    return done(call("pg_ts_add", {R, L, integer(1), kind_literal(*kr)}), "dialect:timestamp-plus-interval");
  // date ± bigint: PostgreSQL has date ± integer only ("operator does not exist: date + bigint").
  if ((op.op == "+" || op.op == "-") && ((kl == Kind::Date && !kr && value_type(R, ctx).int8) ||
                                         (op.op == "+" && kr == Kind::Date && !kl && value_type(L, ctx).int8)))
    return refuse("date " + op.op +
                      " bigint: PostgreSQL has no such operator (\"operator does not exist\"); it adds "
                      "days as an integer",
                  "FIX: cast the number of days to integer, e.g. d " + op.op + " CAST(n AS integer).");
  if ((op.op == "+" || op.op == "-") && kl == Kind::Date && !kr && integer_valued(R, ctx) && number(R))
    return done(call("pg_date_add", {L, R, integer(op.op == "+" ? 1 : -1)}), "dialect:date-plus-integer");
  if (op.op == "+" && kr == Kind::Date && !kl && integer_valued(L, ctx) && number(L))
    return done(call("pg_date_add", {R, L, integer(1)}), "dialect:date-plus-integer");
  if ((op.op == "+" || op.op == "-") && kl == Kind::Interval && kr == Kind::Interval)
    return done(call("pg_iv_add", {L, R, integer(op.op == "+" ? 1 : -1)}), "dialect:interval-arithmetic");
  if (op.op == "*" && kl == Kind::Interval && !kr && number(R))
    return done(call("pg_iv_mul", {L, R}), "dialect:interval-arithmetic");
  if (op.op == "*" && kr == Kind::Interval && !kl && number(L))
    return done(call("pg_iv_mul", {R, L}), "dialect:interval-arithmetic");
  if (op.op == "/" && kl == Kind::Interval && !kr && number(R))
    return done(call("pg_iv_div", {L, R}), "dialect:interval-arithmetic");
  return refuse(what +
                    " is not translated on SQLite (PostgreSQL's types: timestamp - timestamp is an interval, "
                    "timestamp ± interval a timestamp, date ± integer a date, interval * number an interval)",
                "FIX: write one of those forms, e.g. end_time - start_time, start_time + INTERVAL '1 hour', "
                "date_part('epoch', end_time - start_time) for seconds.");
}

Status Admitter::time_comparison_on_sqlite(std::vector<ast::Expr*> operands, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  bool computed = false;
  std::optional<Kind> kind;
  std::vector<std::optional<Kind>> kinds;
  // Stored columns of two text forms ('...Z' and '...+00:00'; a date and a timestamp) compare as times too: their
  // texts do not (d = ts never held for '2024-03-19' and '2024-03-19 00:00:00'; outside testers s19a, s19b).
  std::vector<const catalog::Column*> stored;
  for (ast::Expr* x : operands) {
    kinds.push_back(time_kind(*x, ctx));
    computed = computed || computed_time(*x, ctx);
    stored.push_back(timestamp_column(*x, ctx));
  }
  if (!computed && !stored_apart(stored)) return {};  // stored columns alike and literals: time_literal() rewrites
  std::optional<Kind> some;
  for (const auto& k : kinds) some = some ? some : k;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const auto k = kinds[i];
    if (!k) {
      if (string_literal(*operands[i]) || null_literal(*operands[i])) continue;
      return make_error(ErrorCode::ValidationUnsupported,
                        "a " + words(some) +
                            " is compared with a value that is not a time: PostgreSQL refuses that (\"operator does "
                            "not exist\"), SQLite would compare texts",
                        some == Kind::Interval
                            ? "FIX: compare with an interval, e.g. x > INTERVAL '1 second', or compare the seconds: "
                              "date_part('epoch', x) > 1."
                            : "FIX: compare with a time, e.g. x > TIMESTAMPTZ '2026-01-01T00:00:00Z', or cast the "
                              "other side: CAST(y AS timestamptz).",
                        pos(location));
    }
    const bool compatible = !kind || (timestamp_like(kind) && timestamp_like(k)) || (*kind == *k);
    if (!compatible)
      return make_error(
          ErrorCode::ValidationUnsupported,
          words(kind) + " compared with " + words(k) + " is PostgreSQL's error (\"operator does not exist\")",
          "FIX: compare values of one type, e.g. two timestamps, or date_part('epoch', x) with a number of "
          "seconds.",
          pos(location));
    kind = timestamp_like(k) && timestamp_like(kind) && kind ? common_kind(*kind, *k) : *k;
  }
  for (std::size_t i = 0; i < operands.size(); ++i) {
    ast::Expr& x = *operands[i];
    if (null_literal(x)) continue;
    const Kind k = kinds[i] ? *kinds[i] : *kind;
    if (const auto* lit = string_literal(x)) {
      pgtime::Value v;
      std::string error;
      if (!pgtime::parse(lit->text, k, v, error))
        return make_error(ErrorCode::ValidationTimestampLiteral, "'" + lit->text + "': " + error,
                          "FIX: write an ISO-8601 " + std::string(pgtime::type_words(k)) +
                              (k == Kind::Interval ? ", e.g. '1 day 02:00:00'." : ", e.g. '2026-12-08T14:30:00Z'."),
                          pos(x.location));
    }
    const int loc = x.location;
    x = time_key(std::move(x), k, loc);
  }
  note_rewrite("dialect:time-compare");
  return {};
}

void Admitter::collate_interval(ast::Expr& e) {
  if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && f->name == "pg_interval_collate") return;
  const int at = e.location;
  ast::Expr value = std::move(e);
  e = call("pg_interval_collate", {std::move(value)}, at);
  std::get<ast::FuncCall>(e.node).sql_syntax = true;
  note_rewrite("dialect:interval-collation");
}

void Admitter::collate_interval_item(ast::SelectItem& item) {
  if (item.alias.empty()) item.alias = figure_name(item.expr);  // its name as written (else aliased already)
  collate_interval(item.expr);
}

void Admitter::interval_keys_on_sqlite(ast::Select& s, const ExprContext& ctx, const std::vector<std::string>& names,
                                       const std::vector<std::optional<Kind>>& kinds) {
  if (dialect_ != Dialect::Sqlite) return;
  auto interval_item = [&](std::size_t i) { return i < kinds.size() && kinds[i] == Kind::Interval; };
  if (s.distinct && s.distinct_on.empty())
    for (std::size_t i = 0; i < s.items.size() && i < names.size(); ++i)
      if (interval_item(i)) collate_interval_item(s.items[i]);
  for (auto& g : s.group_by) {
    auto* key = std::get_if<ast::Expr>(&g.node);
    if (!key) continue;  // grouping sets: grouping_sets_on_sqlite's members
    // GROUP BY 2, or an output name no input column has: the item
    if (const auto k = ast::integer_value(*key); k && std::holds_alternative<ast::Literal>(key->node)) {
      const auto i = static_cast<std::size_t>(*k - 1);
      if (*k >= 1 && i < names.size() && interval_item(i)) collate_interval_item(s.items[i]);
      continue;
    }
    if (time_kind(*key, ctx) == Kind::Interval) {
      collate_interval(*key);
      continue;
    }
    const auto* ref = std::get_if<ast::ColumnRef>(&key->node);
    if (!ref || ref->star || !ref->table.empty()) continue;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (same(names[i], ref->column) && interval_item(i)) collate_interval_item(s.items[i]);
  }
}

Status Admitter::time_subquery_on_sqlite(ast::Expr& test, const ast::Query& q, const ExprContext& ctx, int location) {
  if (dialect_ != Dialect::Sqlite) return {};
  const auto inner = query_kinds(q);
  const std::optional<Kind> inner_kind = inner.empty() ? std::nullopt : inner.front();
  const bool outer_computed = computed_time(test, ctx);
  // Two stored columns of different forms (a '...Z' timestamptz and a date): their texts differ for one time
  // (z IN (SELECT d ...) found no row; outside tester s19g).
  const auto inner_times = query_times(q);
  const bool apart = !inner_times.empty() && stored_apart({timestamp_column(test, ctx), inner_times.front()});
  if (!inner_kind && !outer_computed && !apart) return {};
  if (inner_kind && outer_computed && time_kind(test, ctx) == inner_kind) {  // one text per value on both
    if (*inner_kind == Kind::Interval) collate_interval(test);               // but an interval's
    return {};
  }
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    std::string(apart ? "times stored in two text forms" : "a computed time") +
                        " compared with a subquery's values: SQLite would compare their texts, which differ for the "
                        "same time",
                    "FIX: compare inside the subquery, e.g. EXISTS (SELECT 1 FROM t2 WHERE t2.y = x), where = "
                    "compares the times.",
                    pos(location));
}

Status Admitter::time_function_on_sqlite(ast::Expr& e, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return {};
  auto& f = std::get<ast::FuncCall>(e.node);
  const int loc = e.location;
  auto done = [&](ast::Expr out, std::string_view rewrite) {
    out.location = loc;
    e = std::move(out);
    note_rewrite(rewrite);
    return Status{};
  };
  auto refuse = [&](const std::string& why, const std::string& fix) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, why, fix, pos(loc));
  };
  // The time argument's kind; a date where a timestamp is wanted is its midnight UTC (PostgreSQL's cast to
  // timestamptz in a UTC session).
  auto stamp_kind = [&](const ast::Expr& x) -> std::optional<Kind> {
    const auto k = time_kind(x, ctx);
    if (k == Kind::Date) return Kind::Timestamptz;
    return k;
  };
  if (auto s = time_constructor_on_sqlite(e, ctx);
      !s || !std::holds_alternative<ast::FuncCall>(e.node) || std::get<ast::FuncCall>(e.node).name.starts_with("pg_"))
    return s;
  const std::string& name = f.name;
  if (name == "now" && f.args.empty() && !f.over) return now_on_sqlite(e);
  if ((name == "extract" || name == "date_part") && f.args.size() == 2) {
    const auto* field = string_literal(f.args[0]);
    const auto k = time_kind(f.args[1], ctx);
    if (!field || !k)
      return refuse(name +
                        "(): on SQLite the field must be a literal and the value a timestamp, date, time or "
                        "interval querygate can type",
                    "FIX: write date_part('year', t) with t a timestamp column, a CAST(x AS timestamptz), or an "
                    "interval such as end_time - start_time.");
    if (!pgtime::extract_field_known(field->text, *k))
      return make_error(ErrorCode::ValidationUnsupported,
                        "unit \"" + field->text + "\" not supported for type " + std::string(pgtime::type_words(*k)),
                        "FIX: use a field of that type: year, quarter, month, week, day, dow, isodow, doy, hour, "
                        "minute, second, milliseconds, microseconds, epoch (hours and smaller for times and "
                        "intervals).",
                        pos(f.args[0].location));
    // EXTRACT is numeric in PostgreSQL, date_part float8: the fourth argument 'numeric' says so in the SQL that
    // runs, so the statement admitted again types it the same (value_types.cpp; it typed a float before, and
    // round(EXTRACT(...)) was rounded half to even on the second pass only: outside tester s10).
    if (name == "extract")
      return done(call("pg_extract", {f.args[0], f.args[1], kind_literal(*k), text("numeric")}), "dialect:extract");
    return done(call("pg_extract", {f.args[0], f.args[1], kind_literal(*k)}), "dialect:extract");
  }
  if (name == "age") {
    // age(t): PostgreSQL's age(CURRENT_DATE, t), from today's midnight (UTC, the session's zone).
    if (f.args.size() == 1 && timestamp_like(time_kind(f.args[0], ctx)))
      f.args.insert(f.args.begin(), ast::make_expr(ast::SqlValue{ast::SqlValueKind::CurrentDate}, f.args[0].location));
    const auto ka = f.args.size() == 2 ? time_kind(f.args[0], ctx) : std::nullopt;
    const auto kb = f.args.size() == 2 ? time_kind(f.args[1], ctx) : std::nullopt;
    if (!timestamp_like(ka) || !timestamp_like(kb))
      return refuse("age() on SQLite is translated for two timestamps or dates",
                    "FIX: write age(end_time, start_time) with two timestamp columns or casts; for age(t), the age "
                    "at today's midnight, write age(CURRENT_DATE, t).");
    Kind k = common_kind(*ka, *kb);
    if (k == Kind::Date) k = Kind::Timestamp;  // age(date, date) reads them as timestamps
    return done(call("pg_age", {f.args[0], f.args[1], kind_literal(k)}), "dialect:age");
  }
  static constexpr std::string_view kDayOrLonger[] = {"day",  "week",   "month",   "quarter",
                                                      "year", "decade", "century", "millennium"};
  if (name == "date_trunc" && f.args.size() == 3 && string_literal(f.args[0]) && string_literal(f.args[2]) &&
      stamp_kind(f.args[1]) == Kind::Timestamptz &&
      std::find(std::begin(kDayOrLonger), std::end(kDayOrLonger), folded_field(string_literal(f.args[0])->text)) !=
          std::end(kDayOrLonger)) {
    // date_trunc(field, t, zone) to a day or longer: the local time in the zone truncated and read in that zone
    // again (PostgreSQL's timestamptz_trunc_internal redetermines the offset from a day on), that is
    // date_trunc(field, t AT TIME ZONE zone) AT TIME ZONE zone, each translated. (To an hour or less PostgreSQL keeps
    // the instant's own offset, which differs in the hour a clock turns back: refused below.)
    ast::Expr local = call("timezone", {f.args[2], f.args[1]}, loc);
    if (auto s = time_function_on_sqlite(local, ctx); !s) return s;
    ast::Expr cut = call("date_trunc", {f.args[0], std::move(local)}, loc);
    if (auto s = time_function_on_sqlite(cut, ctx); !s) return s;
    ast::Expr back = call("timezone", {f.args[2], std::move(cut)}, loc);
    if (auto s = time_function_on_sqlite(back, ctx); !s) return s;
    return done(std::move(back), "dialect:date_trunc-zone");
  }
  if (name == "date_trunc") {
    const auto* field = f.args.empty() ? nullptr : string_literal(f.args[0]);
    const auto k = f.args.size() == 2 ? stamp_kind(f.args[1]) : std::nullopt;
    if (f.args.size() != 2 || !field || !timestamp_like(k))
      return refuse("date_trunc() on SQLite is translated for date_trunc('<literal field>', <timestamp or date>)",
                    f.args.size() == 3 ? "FIX: write date_trunc('day', t, 'Europe/Berlin') with a literal field of a "
                                         "day or longer and t a timestamptz column or CAST(x AS timestamptz); for "
                                         "hours, date_trunc('hour', t AT TIME ZONE 'Europe/Berlin') is the local "
                                         "time (a timestamp without time zone)."
                                       : "FIX: write date_trunc('day', t) with t a timestamp column or "
                                         "CAST(x AS timestamptz).");
    if (!pgtime::trunc_field_known(field->text))
      return make_error(ErrorCode::ValidationUnsupported,
                        "unit \"" + field->text + "\" not recognized for type " + std::string(pgtime::type_words(*k)),
                        "FIX: truncate to microseconds, milliseconds, second, minute, hour, day, week, month, "
                        "quarter, year, decade, century or millennium.",
                        pos(f.args[0].location));
    return done(call("pg_date_trunc", {f.args[0], f.args[1], kind_literal(*k)}), "dialect:date_trunc");
  }
  if (name == "to_char" && f.args.size() == 2) {
    const auto* format = string_literal(f.args[1]);
    const auto k = stamp_kind(f.args[0]);
    if (!timestamp_like(k))
      return refuse("to_char() on SQLite is translated for timestamps and dates",
                    "FIX: on SQLite, format a number with printf('%.2f', x); cast text times first: "
                    "to_char(CAST(x AS timestamptz), 'YYYY-MM').");
    if (!format)
      return refuse("to_char() on SQLite needs its format as a literal",
                    "FIX: write the format as a literal, e.g. to_char(t, 'YYYY-MM-DD').");
    if (const std::string bad = pgtime::unsupported_pattern(format->text); !bad.empty())
      return refuse("the to_char pattern " + bad + " is not translated on SQLite",
                    "FIX: use YYYY, MM, DD, HH24, HH12, MI, SS, MS, US, AM, Mon, Month, Dy, Day, Q, WW, IW, IYYY, "
                    "DDD, D, ID, J (FM to drop padding) and put literal words in double quotes, e.g. to_char(t, "
                    "'YYYY-MM-DD\"T\"HH24:MI').");
    return done(call("pg_to_char", {f.args[0], f.args[1], kind_literal(*k)}), "dialect:to_char");
  }
  if (name == "timezone" && f.args.size() == 2) {
    const auto* zone = string_literal(f.args[0]);
    auto k = time_kind(f.args[1], ctx);
    if (!k && string_literal(f.args[1])) k = Kind::Timestamptz;  // PostgreSQL's pick for an untyped literal
    if (k == Kind::Date) k = Kind::Timestamptz;
    if (!zone || !zone_form(zone->text) || (k != Kind::Timestamptz && k != Kind::Timestamp)) {
      // A time zone abbreviation is a fixed offset in PostgreSQL (EST is UTC-5 all year): its POSIX form, which
      // reads the hours WEST of UTC. A FIX naming a tz database zone moved summer times (outside tester s21c).
      static constexpr std::pair<std::string_view, std::string_view> kAbbreviations[] = {
          {"EST", "+05"},  {"EDT", "+04"},  {"CST", "+06"},  {"CDT", "+05"},  {"MST", "+07"},
          {"MDT", "+06"},  {"PST", "+08"},  {"PDT", "+07"},  {"AKST", "+09"}, {"AKDT", "+08"},
          {"HST", "+10"},  {"WET", "+00"},  {"WEST", "-01"}, {"BST", "-01"},  {"CET", "-01"},
          {"CEST", "-02"}, {"EET", "-02"},  {"EEST", "-03"}, {"MSK", "-03"},  {"JST", "-09"},
          {"KST", "-09"},  {"AEST", "-10"}, {"AEDT", "-11"}, {"NZST", "-12"}, {"NZDT", "-13"}};
      std::string example = "'America/Los_Angeles'";
      if (zone && k != Kind::Date)
        for (const auto& [abbreviation, posix] : kAbbreviations)
          if (folded_field(zone->text) == folded_field(std::string(abbreviation)))
            example = "'" + std::string(posix) + "' (" + std::string(abbreviation) + ", a fixed offset: " +
                      std::string(posix.front() == '+' ? "that many hours west of UTC" : "east of UTC, written -") +
                      ")";
      return refuse(
          "AT TIME ZONE on SQLite is translated for a timestamp and a literal zone: 'UTC', a POSIX "
          "offset such as '+02' (PostgreSQL reads it as 2 hours WEST of UTC) or a tz database name such "
          "as 'Europe/Berlin'",
          "FIX: write t AT TIME ZONE " + example + " with t a timestamp column or CAST(x AS timestamptz).");
    }
    if (string_literal(f.args[1])) {
      pgtime::Value v;
      std::string error;
      if (!pgtime::parse(string_literal(f.args[1])->text, *k, v, error))
        return make_error(ErrorCode::ValidationTimestampLiteral, error,
                          "FIX: write an ISO-8601 time, e.g. '2026-12-08T14:30:00Z'.", pos(f.args[1].location));
    }
    return done(call("pg_timezone", {f.args[0], f.args[1], kind_literal(*k)}), "dialect:at-time-zone");
  }
  // Aggregates and window functions over computed times.
  if (f.args.size() == 1 && !f.star) {
    const auto k = time_kind(f.args[0], ctx);
    if (!k) return {};
    if ((name == "sum" || name == "avg" || name == "total") && computed_time(f.args[0], ctx))
      return refuse(name + "() of " + words(k) + " is not translated on SQLite",
                    "FIX: aggregate the seconds instead: " + name + "(date_part('epoch', x)).");
    // SQLite's datetime() / strftime() write text, as their PostgreSQL translation (to_char) does: min / max of it
    // is of the text ('YYYY-MM-DD HH:MM:SS' sorts as the time), answered as text on both.
    const auto* spelled = std::get_if<ast::FuncCall>(&f.args[0].node);
    const bool text_time = spelled && (spelled->name == "datetime" || spelled->name == "strftime");
    // min / max and DISTINCT aggregates of an interval compare under its collation (collate_interval).
    if (*k == Kind::Interval && (f.distinct || name == "min" || name == "max")) {
      collate_interval(f.args[0]);
      return {};
    }
    if ((name == "min" || name == "max") && computed_time(f.args[0], ctx) && !text_time) {
      ast::Expr arg = std::move(f.args[0]);
      const int arg_loc = arg.location;
      f.args[0] = time_key(std::move(arg), *k, arg_loc);
      ast::Expr inner = std::move(e);
      inner.location = loc;
      return done(call("pg_from_key", {std::move(inner), kind_literal(*k)}), "dialect:time-min-max");
    }
  }
  return {};
}

void Admitter::time_from_key(ast::Expr& e) {
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f) return;
  for (const auto& a : f->args)
    if (const auto* key = std::get_if<ast::FuncCall>(&a.node);
        key && key->name == "pg_time_key" && key->args.size() == 2)
      if (const auto k = kind_arg(*key, 1)) {
        const int loc = e.location;
        ast::Expr aggregate = std::move(e);
        e = call("pg_from_key", {std::move(aggregate), kind_literal(*k)}, loc);
        note_rewrite("dialect:time-min-max");
        return;
      }
}

Status Admitter::now_on_sqlite(ast::Expr& e) {
  // One instant per statement, UTC: SQLite reads 'now' once per statement.
  const int loc = e.location;
  e = call("pg_cast",
           {call("strftime", {text("%Y-%m-%dT%H:%M:%fZ"), text("now")}), text("text"), kind_literal(Kind::Timestamptz)},
           loc);
  note_rewrite("dialect:now");
  return {};
}

Status Admitter::time_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  if (dialect_ != Dialect::Sqlite) return {};
  auto& c = std::get<ast::Cast>(e.node);
  const int loc = e.location;
  const auto to = pgtime::kind_from_name(c.type.name);
  const auto from = time_kind(*c.arg, ctx);
  if (!to) {
    static constexpr std::string_view kNumbers[] = {"int2", "int4", "int8", "float4", "float8", "numeric"};
    if (std::find(std::begin(kNumbers), std::end(kNumbers), c.type.name) != std::end(kNumbers) &&
        computed_time(*c.arg, ctx))
      return make_error(ErrorCode::ValidationUnsupported,
                        "a cast of " + words(from) + " to " + c.type.name + " is PostgreSQL's error (\"cannot cast\")",
                        "FIX: for a number of seconds write date_part('epoch', x).", pos(loc));
    // CAST(<computed time> AS text): PostgreSQL's text output (stored columns: time_as_text_on_sqlite).
    if ((c.type.name == "text" || c.type.name == "varchar") && c.type.modifiers.empty() && computed_time(*c.arg, ctx)) {
      e = call("pg_cast", {std::move(*c.arg), kind_literal(*from), text("text")}, loc);
      replaced = true;
      note_rewrite("dialect:time-as-text");
    }
    return {};
  }
  if (!c.type.modifiers.empty() && *to != Kind::Interval)
    return make_error(
        ErrorCode::CapabilityNotOnSqlite, "a cast to " + c.type.name + " with a precision is not translated on SQLite",
        "FIX: drop the precision, e.g. CAST(x AS timestamptz), and truncate with date_trunc('second', x).", pos(loc));
  if (*to == Kind::Interval && !c.type.modifiers.empty() &&
      !(c.type.modifiers.size() == 1 && c.type.modifiers[0] == 0x7FFF))
    if (auto s = interval_fields_on_sqlite(c, loc); !s) return s;
  std::string from_name;
  if (from) {
    from_name = std::string(pgtime::kind_name(*from));
  } else if (const auto* lit = string_literal(*c.arg)) {
    pgtime::Value v;
    std::string error;
    if (!pgtime::parse(lit->text, *to, v, error))
      return make_error(ErrorCode::ValidationTimestampLiteral, "'" + lit->text + "': " + error,
                        *to == Kind::Interval ? "FIX: write the interval as '<number> <unit>' pairs or HH:MM:SS, e.g. "
                                                "INTERVAL '1 day 02:30:00' or INTERVAL '90 minutes'."
                                              : "FIX: write an ISO-8601 value, e.g. '2026-12-08' or "
                                                "'2026-12-08T14:30:00Z'.",
                        pos(c.arg->location));
    from_name = "text";
  } else if (lineage(*c.arg, ctx).kind == ValueKind::Number) {
    return make_error(ErrorCode::ValidationUnsupported,
                      "a number cannot be cast to " + std::string(pgtime::type_words(*to)) + " (PostgreSQL's error)",
                      *to == Kind::Interval ? "FIX: multiply an interval: x * INTERVAL '1 second'."
                                            : "FIX: for seconds since 1970 write to_timestamp(x) on PostgreSQL, or "
                                              "TIMESTAMPTZ '1970-01-01T00:00:00Z' + x * INTERVAL '1 second'.",
                      pos(loc));
  } else {
    from_name = "text";  // text read with PostgreSQL's input rules; an unreadable value is the engine's error
  }
  e = call("pg_cast", {std::move(*c.arg), text(from_name), kind_literal(*to)}, loc);
  replaced = true;
  note_rewrite("dialect:time-cast");
  return {};
}

void Admitter::time_sort_on_sqlite(ast::SortItem& item, const ast::Expr& sorted, const ExprContext& ctx) {
  if (dialect_ != Dialect::Sqlite) return;
  // pg_cast(stored column, k, k) — the column printed in its own kind — sorts by the stored text, as the
  // column itself does (and its index can serve): written qualified, so that SQLite does not read the name
  // as the output column. Not in a grouped select, where the column itself is not grouped (d::date ... GROUP BY 1
  // ORDER BY 1 was refused; outside tester s19g).
  if (const auto* f = std::get_if<ast::FuncCall>(&sorted.node); f && f->name == "pg_cast" && f->args.size() == 3) {
    const auto* ref = std::get_if<ast::ColumnRef>(&f->args[0].node);
    auto relation = ref && !ref->star ? resolve_column(*ref, sorted.location, ctx) : Result<const Relation*>(nullptr);
    if (!sort_grouped_ && ref && relation && *relation && (*relation)->table && !(*relation)->name.empty() &&
        timestamp_column(f->args[0], ctx) && kind_arg(*f, 1) == kind_arg(*f, 2)) {
      const int loc = item.expr->location;
      *item.expr = ast::make_expr(ast::ColumnRef{(*relation)->name, ref->column, false}, loc);
      return;
    }
  }
  if (!computed_time(sorted, ctx)) return;
  const auto k = time_kind(sorted, ctx);
  // Dates, times and timestamps without zone sort as their text; an interval does not, nor a timestamptz
  // whose fraction is absent ('…:01Z' sorts after '…:01.5Z').
  if (k != Kind::Interval && k != Kind::Timestamptz) return;
  const int loc = item.expr->location;
  *item.expr = time_key(sorted, *k, loc);
  note_rewrite("dialect:time-order");
}

std::vector<std::optional<pgtime::Kind>> Admitter::select_kinds(const ast::Select& s, const ExprContext& ctx) {
  std::vector<std::optional<Kind>> out;
  for (const auto& item : s.items)
    out.push_back(computed_time(item.expr, ctx) ? time_kind(item.expr, ctx) : std::nullopt);
  return out;
}

}  // namespace qg::admit::detail
