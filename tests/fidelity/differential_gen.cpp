// The differential property's statement generator (differential.hpp): typed
// random expressions over the generated tables, mostly of the right types and
// sometimes of the wrong ones (which must be refused or fail on every side),
// inside a few query shapes. Functions come from the capability table: those
// admitted (or translated) on both backends that have a spelling here.
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "admission/capability/capability.hpp"
#include "differential.hpp"

namespace fidelity {
namespace {

using T = DiffType;
constexpr std::array kTypes{T::Int, T::Float, T::Numeric, T::Text, T::Bool, T::Timestamptz, T::Date, T::Json};

struct ColRef {
  std::string sql;
  T type;
};

class Gen;
struct Fn {
  std::string name;  // the capability row it exercises
  T result;
  std::function<std::string(Gen&, int)> make;
};

class Gen {
 public:
  Gen(const std::vector<DiffTable>& tables, std::uint64_t seed);
  std::string statement();

  // ---- pieces the function spellings use
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
  template <typename V>
  const auto& pick(const V& v) {
    return v[below(v.size())];
  }
  // An argument of type t, or (rarely) of another type: a type error both sides must refuse or fail on.
  std::string arg(T t, int depth) { return expr(chance(4) ? pick(kTypes) : t, depth); }
  std::string expr(T t, int depth);
  std::string literal(T t);

 private:
  std::string leaf(T t);
  std::string compound(T t, int depth);
  std::string boolean(int depth);
  std::string aggregate(T t, int depth);
  std::string window(T t);
  std::string subquery_scalar(T t);
  std::string from_one(const DiffTable& t, const std::string& alias, std::vector<ColRef>& scope);

  std::string select_plain();
  std::string select_grouped();
  std::string select_aggregate_only();
  std::string select_window();
  std::string select_union();
  std::string select_cte();

  std::mt19937_64 rng_;
  const std::vector<DiffTable>& tables_;
  std::vector<ColRef> scope_;  // columns visible here (outer columns included: correlation)
  bool aggregates_ = false;    // aggregate calls may appear here
  int subquery_depth_ = 0;
  int alias_seq_ = 0;
  std::vector<Fn> functions_;
};

std::string order_by_all(std::size_t n) {
  std::string s = " ORDER BY ";
  for (std::size_t i = 1; i <= n; ++i) s += (i > 1 ? ", " : "") + std::to_string(i);
  return s;
}

std::vector<Fn> all_functions() {
  std::vector<Fn> f;
  auto unary = [&](const char* name, T in, T out) {
    f.push_back({name, out, [name, in](Gen& g, int d) { return std::string(name) + "(" + g.arg(in, d) + ")"; }});
  };
  auto binary = [&](const char* name, T a, T b, T out) {
    f.push_back({name, out, [name, a, b](Gen& g, int d) {
                   return std::string(name) + "(" + g.arg(a, d) + ", " + g.arg(b, d) + ")";
                 }});
  };
  for (T t : {T::Int, T::Float, T::Numeric}) unary("abs", t, t);
  unary("round", T::Float, T::Float);
  binary("round", T::Numeric, T::Int, T::Numeric);
  f.push_back({"round", T::Numeric, [](Gen& g, int d) {
                 return "round(" + g.arg(T::Numeric, d) + ", " + std::to_string(static_cast<int>(g.below(5)) - 1) + ")";
               }});
  for (const char* n : {"ceil", "ceiling", "floor", "trunc"}) {
    unary(n, T::Float, T::Float);
    unary(n, T::Numeric, T::Numeric);
  }
  f.push_back({"trunc", T::Numeric, [](Gen& g, int d) {
                 return "trunc(" + g.arg(T::Numeric, d) + ", " + std::to_string(g.below(3)) + ")";
               }});
  for (const char* n :
       {"sign", "sqrt", "exp", "ln", "log", "log10", "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan"})
    unary(n, T::Float, T::Float);
  unary("sqrt", T::Numeric, T::Numeric);
  unary("ln", T::Numeric, T::Numeric);
  binary("log", T::Numeric, T::Numeric, T::Numeric);
  binary("power", T::Float, T::Float, T::Float);
  binary("pow", T::Numeric, T::Numeric, T::Numeric);
  f.push_back(
      {"power", T::Float, [](Gen& g, int d) {
         return "power(" + g.arg(T::Float, d) + ", " + g.pick(std::vector<std::string>{"2", "0.5", "-1", "3"}) + ")";
       }});
  binary("atan2", T::Float, T::Float, T::Float);
  binary("mod", T::Int, T::Int, T::Int);
  binary("mod", T::Numeric, T::Numeric, T::Numeric);
  f.push_back({"pi", T::Float, [](Gen&, int) { return std::string("pi()"); }});
  unary("length", T::Text, T::Int);
  unary("lower", T::Text, T::Text);
  unary("upper", T::Text, T::Text);
  for (const char* n : {"substr", "substring"}) {
    binary(n, T::Text, T::Int, T::Text);
    f.push_back({n, T::Text, [n](Gen& g, int d) {
                   return std::string(n) + "(" + g.arg(T::Text, d) + ", " + g.arg(T::Int, d) + ", " +
                          g.pick(std::vector<std::string>{"0", "1", "2", "-1", "3"}) + ")";
                 }});
  }
  f.push_back({"substring", T::Text, [](Gen& g, int d) {
                 return "substring(" + g.arg(T::Text, d) + " FROM " + g.arg(T::Int, d) + " FOR " +
                        g.pick(std::vector<std::string>{"0", "1", "2", "3"}) + ")";
               }});
  f.push_back({"replace", T::Text, [](Gen& g, int d) {
                 return "replace(" + g.arg(T::Text, d) + ", " + g.literal(T::Text) + ", " + g.literal(T::Text) + ")";
               }});
  for (const char* n : {"trim", "ltrim", "rtrim"}) {
    unary(n, T::Text, T::Text);
    binary(n, T::Text, T::Text, T::Text);
  }
  f.push_back({"trim", T::Text, [](Gen& g, int d) {
                 return "trim(" + g.pick(std::vector<std::string>{"BOTH", "LEADING", "TRAILING"}) + " " +
                        g.literal(T::Text) + " FROM " + g.arg(T::Text, d) + ")";
               }});
  f.push_back({"to_char", T::Text, [](Gen& g, int d) {
                 return "to_char(" + g.arg(T::Timestamptz, d) + ", " +
                        g.pick(std::vector<std::string>{"'YYYY-MM-DD'", "'YYYY-MM'", "'HH24:MI:SS'", "'Dy DD Mon YYYY'",
                                                        "'YYYY-\"W\"IW'", "'Q'", "'DDD'", "'FMMonth'", "'J'",
                                                        "'YYYY-MM-DD\"T\"HH24:MI:SS.MS'", "'day'", "'D'"}) +
                        ")";
               }});
  static const std::vector<std::string> kFields = {"'year'", "'month'",   "'day'",    "'hour'",    "'minute'",
                                                   "'week'", "'quarter'", "'decade'", "'second'",  "'dow'",
                                                   "'doy'",  "'epoch'",   "'isodow'", "'century'", "'millennium'"};
  f.push_back({"date_trunc", T::Timestamptz, [](Gen& g, int d) {
                 return "date_trunc(" + g.pick(std::vector<std::string>(kFields.begin(), kFields.begin() + 9)) + ", " +
                        g.arg(T::Timestamptz, d) + ")";
               }});
  f.push_back({"date_part", T::Float, [](Gen& g, int d) {
                 return "date_part(" + g.pick(kFields) + ", " + g.arg(g.chance(70) ? T::Timestamptz : T::Date, d) + ")";
               }});
  f.push_back({"extract", T::Numeric, [](Gen& g, int d) {
                 std::string field = g.pick(kFields);
                 field = field.substr(1, field.size() - 2);
                 return "extract(" + field + " FROM " + g.arg(g.chance(70) ? T::Timestamptz : T::Date, d) + ")";
               }});
  f.push_back({"date", T::Date, [](Gen& g, int d) { return "date(" + g.arg(T::Timestamptz, d) + ")"; }});
  f.push_back({"age", T::Text, [](Gen& g, int d) {
                 return "CAST(age(" + g.arg(T::Timestamptz, d) + ", " + g.arg(T::Timestamptz, d) + ") AS text)";
               }});
  f.push_back(
      {"timezone", T::Text, [](Gen& g, int d) {
         return "CAST(timezone(" +
                g.pick(std::vector<std::string>{"'UTC'", "'America/New_York'", "'Europe/Berlin'", "'Asia/Kolkata'"}) +
                ", " + g.arg(T::Timestamptz, d) + ") AS text)";
       }});
  unary("json_array_length", T::Json, T::Int);
  return f;
}

Gen::Gen(const std::vector<DiffTable>& tables, std::uint64_t seed)
    : rng_(seed * 0xD1B54A32D192ED03ULL + 777), tables_(tables) {
  // Only what the capability table admits or translates on both backends.
  for (auto& fn : all_functions()) {
    const auto* row = qg::capability::find_function(fn.name);
    if (row == nullptr) continue;
    if (qg::capability::cell(*row, qg::Dialect::Sqlite).verdict == qg::capability::Verdict::Refuse) continue;
    if (qg::capability::cell(*row, qg::Dialect::Postgres).verdict == qg::capability::Verdict::Refuse) continue;
    functions_.push_back(std::move(fn));
  }
}

std::string Gen::literal(T t) {
  switch (t) {
    case T::Int:
      return pick(std::vector<std::string>{"0", "1", "-1", "2", "3", "42", "-7", "100", "9007199254740993",
                                           "2147483648", "(-3)"});
    case T::Float:
      return "CAST(" +
             pick(std::vector<std::string>{"2.5", "-0.5", "0.5", "1.5", "-2.5", "0", "1e300", "1e-300", "0.1", "3"}) +
             " AS double precision)";
    case T::Numeric:
      return pick(std::vector<std::string>{"2.5", "-0.5", "0.125", "1.005", "10", "0.0", "-2.675", "3.14159"});
    case T::Text:
      return pick(std::vector<std::string>{"''", "'é'", "'😀'", "'42'", "'a%b'", "'a_b'", "'MiXeD'", "'abc'", "'ABC'",
                                           "'3.5'", "' '", "'a'", "'x y z'", "'%'", "'_'", "'-1'", "'2024-02-29'"});
    case T::Bool:
      return pick(std::vector<std::string>{"true", "false"});
    case T::Timestamptz:
      return pick(std::vector<std::string>{"TIMESTAMPTZ '2024-02-29 12:00:00+00'",
                                           "CAST('2024-03-10 07:00:00+00' AS timestamptz)",
                                           "TIMESTAMPTZ '1969-12-31 23:59:59Z'", "TIMESTAMPTZ '2024-01-31 00:00:00+00'",
                                           "CAST('2024-11-03 01:30:00-04' AS timestamptz)"});
    case T::Date:
      return pick(std::vector<std::string>{"DATE '2024-02-29'", "DATE '2024-01-31'", "CAST('1969-12-31' AS date)",
                                           "DATE '2023-12-31'"});
    case T::Json:
      return pick(std::vector<std::string>{"CAST('{\"a\": 1}' AS jsonb)", "CAST('[1, 2]' AS jsonb)",
                                           "CAST('{\"b\": {\"c\": \"x\"}}' AS jsonb)"});
  }
  return "NULL";
}

std::string Gen::leaf(T t) {
  std::vector<const ColRef*> cols;
  for (const auto& c : scope_)
    if (c.type == t) cols.push_back(&c);
  if (!cols.empty() && chance(75)) return pick(cols)->sql;
  if (chance(3)) return "NULL";
  return literal(t);
}

std::string Gen::expr(T t, int depth) {
  if (depth <= 0 || chance(30)) return leaf(t);
  if (t == T::Bool) return boolean(depth - 1);
  if (aggregates_ && chance(25)) return aggregate(t, depth - 1);
  return compound(t, depth - 1);
}

std::string Gen::compound(T t, int d) {
  std::vector<const Fn*> fns;
  for (const auto& f : functions_)
    if (f.result == t) fns.push_back(&f);
  switch (below(10)) {
    case 0:
      return "CASE WHEN " + boolean(d) + " THEN " + arg(t, d) + " ELSE " + arg(t, d) + " END";
    case 1:
      return chance(50) ? "COALESCE(" + arg(t, d) + ", " + arg(t, d) + ")"
                        : "NULLIF(" + arg(t, d) + ", " + arg(t, d) + ")";
    case 2: {
      // A cast into t from some type (text and numbers mostly).
      static const std::map<T, std::string> names = {
          {T::Int, "bigint"},   {T::Float, "double precision"},  {T::Numeric, "numeric"}, {T::Text, "text"},
          {T::Bool, "boolean"}, {T::Timestamptz, "timestamptz"}, {T::Date, "date"},       {T::Json, "jsonb"}};
      std::string into = names.at(t);
      if (t == T::Int && chance(30)) into = pick(std::vector<std::string>{"integer", "smallint"});
      const T from = chance(50) ? pick(kTypes) : T::Text;
      return chance(50) ? "CAST(" + expr(from, d) + " AS " + into + ")" : "(" + expr(from, d) + ")::" + into;
    }
    case 3:
      if (subquery_depth_ < 2 && !tables_.empty()) return subquery_scalar(t);
      break;
    default:
      break;
  }
  if (t == T::Int || t == T::Float || t == T::Numeric) {
    if (chance(45)) {
      const std::string op = pick(std::vector<std::string>{"+", "-", "*", "/", "%"});
      const T other = chance(70) ? t : pick(std::vector<T>{T::Int, T::Float, T::Numeric});
      if (chance(10)) return "-" + arg(t, d);
      return "(" + arg(t, d) + " " + op + " " + arg(other, d) + ")";
    }
    if (t == T::Int && chance(10)) {
      return chance(50) ? "(" + arg(T::Date, d) + " - " + arg(T::Date, d) + ")"
                        : "(" + arg(T::Int, d) + " " + pick(std::vector<std::string>{"&", "|", "<<", ">>"}) + " " +
                              pick(std::vector<std::string>{"1", "2", "3"}) + ")";
    }
  }
  if (t == T::Text && chance(25)) {
    if (chance(50)) return "(" + arg(T::Text, d) + " || " + arg(pick(kTypes), d) + ")";
    return "(" + arg(T::Json, d) + " ->> " +
           pick(std::vector<std::string>{"'a'", "'b'", "'d.e'", "'arr'", "0", "-1", "'A'", "'n'"}) + ")";
  }
  if (t == T::Json && chance(60))
    return "(" + arg(T::Json, d) + " -> " + pick(std::vector<std::string>{"'a'", "'b'", "'arr'", "0", "1", "'c'"}) +
           ")";
  if (t == T::Timestamptz && chance(40))
    return "(" + arg(T::Timestamptz, d) + " " + pick(std::vector<std::string>{"+", "-"}) + " " +
           pick(std::vector<std::string>{"INTERVAL '1 day'", "INTERVAL '1 month'", "INTERVAL '1 hour'",
                                         "CAST('2 years 3 days' AS interval)", "INTERVAL '-30 minutes'"}) +
           ")";
  if (t == T::Date && chance(40))
    return "(" + arg(T::Date, d) + " " + pick(std::vector<std::string>{"+", "-"}) + " " + arg(T::Int, 0) + ")";
  if (!fns.empty()) return pick(fns)->make(*this, d);
  return leaf(t);
}

std::string Gen::boolean(int d) {
  switch (below(13)) {
    case 0:
    case 1: {
      const T t = pick(kTypes);
      return "(" + arg(t, d) + " " + pick(std::vector<std::string>{"=", "<>", "<", "<=", ">", ">=", "!="}) + " " +
             arg(t, d) + ")";
    }
    case 2:
      return "(" + expr(T::Bool, d) + (chance(50) ? " AND " : " OR ") + expr(T::Bool, d) + ")";
    case 3:
      return "NOT " + expr(T::Bool, d);
    case 4:
      return "(" + expr(pick(kTypes), d) + (chance(50) ? " IS NULL" : " IS NOT NULL") + ")";
    case 5:
      return "(" + arg(T::Text, d) + " " + pick(std::vector<std::string>{"LIKE", "ILIKE", "NOT LIKE", "NOT ILIKE"}) +
             " " +
             pick(std::vector<std::string>{"'a%'", "'%b'", "'%\\%%'", "'a\\_b'", "'_'", "'%é%'", "'%'", "''", "'M%'",
                                           "'%x%'", "'É%'", "'%😀'"}) +
             ")";
    case 6: {
      const T t = pick(kTypes);
      return "(" + arg(t, d) + (chance(30) ? " NOT IN (" : " IN (") + literal(t) + ", " + literal(t) +
             (chance(20) ? ", NULL" : "") + "))";
    }
    case 7: {
      const T t = pick(std::vector<T>{T::Int, T::Float, T::Numeric, T::Text, T::Date, T::Timestamptz});
      return "(" + arg(t, d) + (chance(20) ? " NOT BETWEEN " : " BETWEEN ") + arg(t, d) + " AND " + arg(t, d) + ")";
    }
    case 8: {
      const T t = pick(kTypes);
      return "(" + arg(t, d) + (chance(50) ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ") + arg(t, d) + ")";
    }
    case 9:
      if (subquery_depth_ < 2) {
        const auto& tab = pick(tables_);
        const std::string alias = "q" + std::to_string(++alias_seq_);
        const auto saved = scope_;
        const bool saved_agg = aggregates_;
        aggregates_ = false;
        ++subquery_depth_;
        std::string from = from_one(tab, alias, scope_);
        std::string where = boolean(1);
        --subquery_depth_;
        scope_ = saved;
        aggregates_ = saved_agg;
        return std::string(chance(25) ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + from + " WHERE " + where + ")";
      }
      break;
    case 10:
      if (subquery_depth_ < 2) {
        const T t = pick(std::vector<T>{T::Int, T::Text, T::Float, T::Numeric, T::Date});
        const auto& tab = pick(tables_);
        const std::string alias = "q" + std::to_string(++alias_seq_);
        const auto saved = scope_;
        const bool saved_agg = aggregates_;
        const std::string lhs = arg(t, d);
        aggregates_ = false;
        ++subquery_depth_;
        std::string from = from_one(tab, alias, scope_);
        std::string item = expr(t, 1);
        std::string where = chance(50) ? " WHERE " + boolean(0) : "";
        --subquery_depth_;
        scope_ = saved;
        aggregates_ = saved_agg;
        return "(" + lhs + (chance(30) ? " NOT IN " : " IN ") + "(SELECT " + item + " FROM " + from + where + "))";
      }
      break;
    default:
      break;
  }
  return leaf(T::Bool);
}

std::string Gen::aggregate(T t, int d) {
  const bool saved = aggregates_;
  aggregates_ = false;  // no aggregate inside an aggregate
  std::string out;
  const std::string filter = chance(15) ? " FILTER (WHERE " + boolean(1) + ")" : "";
  switch (t) {
    case T::Int:
      out =
          chance(50) ? "count(*)" : "count(" + std::string(chance(25) ? "DISTINCT " : "") + expr(pick(kTypes), d) + ")";
      if (chance(30)) out = pick(std::vector<std::string>{"sum", "min", "max"}) + "(" + arg(T::Int, d) + ")";
      break;
    case T::Float:
    case T::Numeric:
      out = pick(std::vector<std::string>{"sum", "avg", "min", "max"}) + "(" + (chance(10) ? "DISTINCT " : "") +
            arg(pick(std::vector<T>{T::Int, T::Float, T::Numeric}), d) + ")";
      break;
    case T::Bool:
      out = pick(std::vector<std::string>{"bool_and", "bool_or", "every"}) + "(" + arg(T::Bool, d) + ")";
      break;
    default:
      out = pick(std::vector<std::string>{"min", "max"}) + "(" + arg(t, d) + ")";
      break;
  }
  aggregates_ = saved;
  return out + filter;
}

std::string Gen::window(T t) {
  // Ordered by the row's id last, so every window function's answer is determined.
  std::string id;
  std::string part;
  for (const auto& c : scope_) {
    if (c.sql.size() > 3 && c.sql.substr(c.sql.size() - 3) == ".id" && id.empty()) id = c.sql;
    if (c.sql.size() > 2 && c.sql.substr(c.sql.size() - 2) == ".k" && part.empty()) part = c.sql;
  }
  std::string order = chance(50) ? expr(pick(std::vector<T>{T::Int, T::Float, T::Text, T::Date}), 1) +
                                       pick(std::vector<std::string>{"", " DESC", " NULLS FIRST", " DESC NULLS LAST"}) +
                                       ", " + id
                                 : id;
  const std::string over =
      " OVER (" + (chance(60) ? "PARTITION BY " + part + " " : std::string()) + "ORDER BY " + order + ")";
  switch (t) {
    case T::Int:
      return pick(std::vector<std::string>{"row_number()", "rank()", "dense_rank()", "ntile(3)", "count(*)"}) + over;
    case T::Float:
      return pick(std::vector<std::string>{"percent_rank()", "cume_dist()"}) + over;
    default:
      return pick(std::vector<std::string>{"lag", "lead", "first_value", "last_value", "min", "max"}) + "(" +
             expr(t, 1) + ")" + over;
  }
}

std::string Gen::subquery_scalar(T t) {
  const auto& tab = pick(tables_);
  const std::string alias = "q" + std::to_string(++alias_seq_);
  const auto saved = scope_;
  const bool saved_agg = aggregates_;
  // Correlated on k when there is an outer k.
  std::string outer_k;
  for (const auto& c : scope_)
    if (c.sql.size() > 2 && c.sql.substr(c.sql.size() - 2) == ".k") outer_k = c.sql;
  ++subquery_depth_;
  std::string from = from_one(tab, alias, scope_);
  aggregates_ = true;
  std::string item = aggregate(t, 1);
  aggregates_ = false;
  std::string where = !outer_k.empty() && chance(70) ? " WHERE " + alias + ".k = " + outer_k
                                                     : (chance(50) ? " WHERE " + boolean(0) : "");
  --subquery_depth_;
  scope_ = saved;
  aggregates_ = saved_agg;
  return "(SELECT " + item + " FROM " + from + where + ")";
}

std::string Gen::from_one(const DiffTable& t, const std::string& alias, std::vector<ColRef>& scope) {
  for (const auto& c : t.columns) scope.push_back({alias + "." + c.name, c.type});
  return t.name + " AS " + alias;
}

std::string Gen::select_plain() {
  scope_.clear();
  aggregates_ = false;
  std::string from = from_one(pick(tables_), "a", scope_);
  if (chance(35)) {
    const std::string kind = pick(std::vector<std::string>{"JOIN", "LEFT JOIN", "JOIN", "CROSS JOIN"});
    const auto& t = pick(tables_);
    from += " " + kind + " " + from_one(t, "b", scope_);
    if (kind != "CROSS JOIN") from += " ON " + (chance(80) ? std::string("a.k = b.k") : boolean(1));
  }
  const std::size_t n = 1 + below(3);
  std::string items;
  for (std::size_t i = 0; i < n; ++i)
    items += (i ? ", " : "") + expr(pick(kTypes), 3) + " AS c" + std::to_string(i + 1);
  std::string sql = std::string("SELECT ") + (chance(10) ? "DISTINCT " : "") + items + " FROM " + from;
  if (chance(60)) sql += " WHERE " + boolean(2);
  sql += order_by_all(n);
  if (chance(25)) sql += " LIMIT " + std::to_string(1 + below(5));
  if (chance(5)) sql += " OFFSET " + std::to_string(below(3));
  return sql;
}

std::string Gen::select_grouped() {
  scope_.clear();
  aggregates_ = false;
  std::string from = from_one(pick(tables_), "a", scope_);
  if (chance(25)) from += " JOIN " + from_one(pick(tables_), "b", scope_) + " ON a.k = b.k";
  std::string where = chance(50) ? " WHERE " + boolean(2) : "";
  const std::size_t keys = 1 + below(2);
  std::string items, group;
  for (std::size_t i = 0; i < keys; ++i) {
    const std::string key = chance(60) ? leaf(pick(kTypes)) : expr(pick(kTypes), 1);
    items += (i ? ", " : "") + key + " AS c" + std::to_string(i + 1);
    group += (i ? ", " : "") + std::to_string(i + 1);
  }
  aggregates_ = true;
  const std::size_t aggs = 1 + below(2);
  for (std::size_t i = 0; i < aggs; ++i)
    items += ", " + aggregate(pick(kTypes), 2) + " AS c" + std::to_string(keys + i + 1);
  std::string having = chance(30) ? " HAVING " + std::string(chance(50) ? "count(*) > 1" : aggregate(T::Bool, 1)) : "";
  aggregates_ = false;
  // Grouping sets now and then (issue #12: one GROUP BY per set on SQLite, admit/grouping_sets_on_sqlite.cpp),
  // drawn from the statement's own text, not from the generator's stream: every other statement stays as it was.
  const std::size_t draw = std::hash<std::string>{}(items + from + where + having);
  if (draw % 100 < 20) {
    const int shape = static_cast<int>((draw / 100) % (keys == 2 ? 4 : 2));
    if (shape == 0)
      group = "ROLLUP (" + group + ")";
    else if (shape == 1)
      group = "CUBE (" + group + ")";
    else if (shape == 2)
      group = "GROUPING SETS ((1, 2), (2), ())";
    else
      group = "1, ROLLUP (2)";
  }
  std::string sql =
      "SELECT " + items + " FROM " + from + where + " GROUP BY " + group + having + order_by_all(keys + aggs);
  if (chance(20)) sql += " LIMIT " + std::to_string(1 + below(4));
  return sql;
}

std::string Gen::select_aggregate_only() {
  scope_.clear();
  std::string from = from_one(pick(tables_), "a", scope_);
  std::string where = chance(50) ? " WHERE " + boolean(2) : "";
  aggregates_ = true;
  const std::size_t n = 1 + below(3);
  std::string items;
  for (std::size_t i = 0; i < n; ++i)
    items += (i ? ", " : "") + aggregate(pick(kTypes), 2) + " AS c" + std::to_string(i + 1);
  if (chance(30)) items += ", " + expr(pick(kTypes), 2) + " AS c" + std::to_string(n + 1);  // may be refused
  aggregates_ = false;
  return "SELECT " + items + " FROM " + from + where;
}

std::string Gen::select_window() {
  scope_.clear();
  aggregates_ = false;
  std::string from = from_one(pick(tables_), "a", scope_);
  std::string items = "a.id AS c1, " + expr(pick(kTypes), 1) + " AS c2, " + window(pick(kTypes)) + " AS c3";
  std::string sql = "SELECT " + items + " FROM " + from;
  if (chance(40)) sql += " WHERE " + boolean(1);
  return sql + order_by_all(3);
}

std::string Gen::select_union() {
  const T t = pick(kTypes);
  std::string parts[2];
  for (auto& p : parts) {
    scope_.clear();
    std::string from = from_one(pick(tables_), "a", scope_);
    p = "SELECT " + arg(t, 2) + " AS c1 FROM " + from + (chance(50) ? " WHERE " + boolean(1) : "");
  }
  return parts[0] + pick(std::vector<std::string>{" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT "}) + parts[1] +
         order_by_all(1);
}

std::string Gen::select_cte() {
  scope_.clear();
  aggregates_ = false;
  const auto& tab = pick(tables_);
  std::string from = from_one(tab, "a", scope_);
  const T t1 = pick(kTypes), t2 = pick(kTypes);
  std::string cte = "WITH c AS (SELECT a.id, a.k, " + expr(t1, 2) + " AS v, " + expr(t2, 2) + " AS w FROM " + from +
                    (chance(50) ? " WHERE " + boolean(1) : "") + ") ";
  scope_ = {{"c.id", T::Int}, {"c.k", T::Int}, {"c.v", t1}, {"c.w", t2}};
  if (chance(50)) {
    aggregates_ = true;
    std::string sql =
        cte + "SELECT c.k AS c1, " + aggregate(pick(kTypes), 1) + " AS c2 FROM c GROUP BY c.k" + order_by_all(2);
    aggregates_ = false;
    return sql;
  }
  return cte + "SELECT c.id AS c1, " + expr(pick(kTypes), 2) + " AS c2 FROM c" +
         (chance(50) ? " WHERE " + boolean(1) : "") + order_by_all(2);
}

std::string Gen::statement() {
  alias_seq_ = 0;
  subquery_depth_ = 0;
  switch (below(12)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return select_plain();
    case 4:
    case 5:
      return select_grouped();
    case 6:
    case 7:
      return select_aggregate_only();
    case 8:
    case 9:
      return select_window();
    case 10:
      return select_union();
    default:
      return select_cte();
  }
}

}  // namespace

std::vector<std::string> differential_statements(const std::vector<DiffTable>& tables, std::uint64_t seed, int count) {
  Gen g(tables, seed);
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out.push_back(g.statement());
  return out;
}

}  // namespace fidelity
