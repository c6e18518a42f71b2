// PostgreSQL's aggregates SQLite lacks, translated at admission (issue #12) into
// calls of the aggregates querygate registers on SQLite connections
// (executors/sqlite/sqlite_aggregates.cpp), each reported as dialect:<name>:
//   stddev / stddev_samp / stddev_pop / variance / var_samp / var_pop: of floats
//     pg_stddev_samp ... (PostgreSQL's float8 algorithm); of integers
//     and of numerics pg_stddev_samp_exact ... (PostgreSQL's numeric answer, its digits exactly);
//   covar_pop / covar_samp / corr / regr_*: pg_<name>(y, x) (float8);
//   string_agg(x, d [ORDER BY ...]) / string_agg(DISTINCT x, d [ORDER BY x]):
//     pg_string_agg(x, d, spec, key...), which sorts and deduplicates itself;
//   percentile_cont(p) / percentile_disc(p) WITHIN GROUP (ORDER BY x [DESC]),
//     mode() WITHIN GROUP (ORDER BY x [DESC]): pg_percentile_cont(p, x, desc) ...
// FILTER (WHERE ...) stays on the call (SQLite has it). With OVER (...) they are
// refused: the registered aggregates are not window functions.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "admission/admit/admitter.hpp"
#include "admission/capability/capability.hpp"

namespace qg::admit::detail {
namespace {

bool among(const std::string& name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool numeric_type(SqlType t) {
  return t == SqlType::Integer || t == SqlType::Float || t == SqlType::Numeric;
}

ast::Expr text_literal(std::string s) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(s)});
}

ast::Expr int_literal(long long v) {
  return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(v)});
}

}  // namespace

// The two letters of a sort key in pg_string_agg's and pg_array_agg's specification
// (executors/sqlite/sqlite_aggregates.cpp): a|d, then f|l (NULLS FIRST / LAST, PostgreSQL's default by direction).
std::string sort_letters(const ast::SortItem& item) {
  const bool desc = item.direction == ast::SortDirection::Desc;
  const bool nulls_first = item.nulls == ast::NullsOrder::Default ? desc : item.nulls == ast::NullsOrder::First;
  return {desc ? 'd' : 'a', nulls_first ? 'f' : 'l'};
}

Status Admitter::aggregate_on_sqlite(ast::FuncCall& f, int location, const ExprContext& ctx, bool& replaced) {
  replaced = false;
  if (dialect_ != Dialect::Sqlite) return {};
  if (f.name == "array_agg") {
    replaced = true;
    return array_agg_on_sqlite(f, location, ctx);
  }
  const bool stat1 = among(f.name, {"stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop"});
  const bool stat2 = among(f.name, {"covar_pop", "covar_samp", "corr", "regr_slope", "regr_intercept", "regr_r2",
                                    "regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy"});
  const bool ordered_set = among(f.name, {"percentile_cont", "percentile_disc", "mode"});
  if (!stat1 && !stat2 && !ordered_set && f.name != "string_agg") return {};
  replaced = true;
  const std::string name = f.name;
  const auto* row = capability::find_function(name);
  const std::string rewrite = row ? std::string(row->sqlite.note) : "dialect:" + name;
  auto refuse = [&](const std::string& why, const std::string& fix, int at = -1) {
    return make_error(ErrorCode::CapabilityNotOnSqlite, why, fix, pos(at >= 0 ? at : location));
  };
  if (f.over)
    return refuse(name + "() OVER (...) is not translated on SQLite (only as an aggregate over a GROUP BY)",
                  "FIX: compute " + name + "() per group in a subquery (SELECT key, " + name +
                      "(...) AS v FROM t GROUP BY key) and join it back on the key.");
  if (f.star) return refuse(name + "(*) is not a PostgreSQL aggregate call", "FIX: pass the value: " + name + "(x).");
  if (f.distinct && name != "string_agg")
    return refuse(name + "(DISTINCT ...) is not translated on SQLite",
                  "FIX: aggregate the distinct values from a subquery: SELECT " + name +
                      "(x) FROM (SELECT DISTINCT x FROM t) AS d.");
  if (!f.order_by.empty() && name != "string_agg")
    return refuse("ORDER BY inside " + name + "() is not translated on SQLite",
                  "FIX: drop the ORDER BY: " + name + "() does not depend on the order of its input.");
  // DISTINCT's ORDER BY must be the argument (PostgreSQL's rule): checked as written, before admission.
  if (f.distinct)
    for (const auto& item : f.order_by)
      if (f.args.empty() || !(*item.expr == f.args.front()))
        return make_error(ErrorCode::ValidationUnsupported,
                          "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
                          "FIX: order by the aggregated value itself: string_agg(DISTINCT x, ',' ORDER BY x).",
                          pos(item.expr->location >= 0 ? item.expr->location : location));
  for (auto& a : f.args)
    if (auto s = expr(a, ctx); !s) return s;
  if (f.filter) {
    if (auto s = construct(capability::Construct::AggregateFilter, location); !s) return s;
    if (auto s = condition_type(**f.filter, ctx, "FILTER"); !s) return s;
    if (auto s = expr(**f.filter, ctx); !s) return s;
  }

  if (stat1 || stat2) {
    const std::size_t want = stat1 ? 1 : 2;
    if (f.args.size() != want || !f.within_group.empty())
      return make_error(ErrorCode::ValidationUnsupported,
                        name + "() takes " + std::to_string(want) + " argument" + (want == 1 ? "" : "s"),
                        stat1 ? "FIX: write " + name + "(x)." : "FIX: write " + name + "(y, x).", pos(location));
    for (const auto& a : f.args) {
      const SqlType t = value_type(a, ctx).type;
      if (numeric_type(t) || t == SqlType::Null) continue;
      return make_error(
          ErrorCode::ValidationUnsupported, name + "() takes numbers; PostgreSQL has no " + name + "() of this type",
          "FIX: pass a number, e.g. " + name + "(CAST(x AS double precision)" + (stat2 ? ", ...)." : ")."),
          pos(a.location >= 0 ? a.location : location));
    }
    std::string helper = name == "stddev" ? "stddev_samp" : name == "variance" ? "var_samp" : name;
    if (stat1) {
      const SqlType t = value_type(f.args.front(), ctx).type;
      // Numeric in PostgreSQL: its exact digits (numeric_stddev_internal), of integers or of numerics, each read
      // as PostgreSQL's numeric holds it: a float8 cast to numeric at 15 significant digits, an exact call's
      // decimal text, a numeric of a known scale at that scale.
      if (t == SqlType::Numeric) {
        const ValueType v = value_type(f.args.front(), ctx);
        std::string from = numeric_of_float(f.args.front(), ctx) ? "float8" : "numeric";
        if (v.scale >= 0 && v.scale <= 1000) from += ":" + std::to_string(v.scale);
        exact_text(f.args.front());
        f.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, std::move(from)}));
      }
      if (t == SqlType::Integer) f.args.push_back(ast::make_expr(ast::Literal{ast::LiteralKind::String, "int"}));
      if (t == SqlType::Integer || t == SqlType::Numeric) helper += "_exact";
    }
    f.name = "pg_" + helper;
    note_rewrite(rewrite);
    return {};
  }

  if (name == "string_agg") {
    if (f.args.size() != 2 || !f.within_group.empty())
      return make_error(ErrorCode::ValidationUnsupported, "string_agg() takes a value and a delimiter",
                        "FIX: write string_agg(x, ', ').", pos(location));
    for (std::size_t i = 0; i < 2; ++i) {
      // Text, or a column whose declared type does not say (NVARCHAR): PostgreSQL's string_agg takes text.
      const SqlType t = value_type(f.args[i], ctx).type;
      if (!numeric_type(t) && t != SqlType::Boolean && t != SqlType::Json && t != SqlType::Time &&
          !time_kind(f.args[i], ctx))
        continue;
      return make_error(ErrorCode::ValidationUnsupported,
                        std::string("string_agg() takes text (the ") + (i == 0 ? "value" : "delimiter") +
                            " here is not): PostgreSQL has no such string_agg()",
                        "FIX: cast it to text: string_agg(CAST(x AS text), ', ').",
                        pos(f.args[i].location >= 0 ? f.args[i].location : location));
    }
    std::string spec = f.distinct ? "D" : "-";
    std::vector<ast::Expr> keys;
    for (auto& item : f.order_by) {
      if (auto s = expr(*item.expr, ctx); !s) return s;
      const SqlType t = value_type(*item.expr, ctx).type;
      if (t == SqlType::Json)
        return refuse("string_agg(... ORDER BY a jsonb value) is not translated on SQLite",
                      "FIX: order by a key read as text or a number: ORDER BY x ->> 'key'.", item.expr->location);
      time_sort_on_sqlite(item, *item.expr, ctx);
      spec += exact_sort_key(item, ctx);
      keys.push_back(std::move(*item.expr));
    }
    f.order_by.clear();
    f.distinct = false;
    f.args.push_back(text_literal(spec));
    for (auto& k : keys) f.args.push_back(std::move(k));
    f.name = "pg_string_agg";
    note_rewrite(rewrite);
    return {};
  }

  // percentile_cont(p) / percentile_disc(p) / mode() WITHIN GROUP (ORDER BY x)
  const bool mode = name == "mode";
  if (f.within_group.size() != 1 || f.args.size() != (mode ? 0u : 1u))
    return make_error(ErrorCode::ValidationUnsupported,
                      name + "() is an ordered-set aggregate: " +
                          (mode ? "mode() WITHIN GROUP (ORDER BY x)" : name + "(fraction) WITHIN GROUP (ORDER BY x)"),
                      mode ? "FIX: write mode() WITHIN GROUP (ORDER BY x)."
                           : "FIX: write " + name + "(0.5) WITHIN GROUP (ORDER BY x).",
                      pos(location));
  std::optional<ast::Expr> fraction;
  if (!mode) {
    const auto* lit = std::get_if<ast::Literal>(&f.args.front().node);
    if (!lit || (lit->kind != ast::LiteralKind::Integer && lit->kind != ast::LiteralKind::Numeric))
      return refuse(name + "() on SQLite takes its fraction as one number literal",
                    "FIX: write one fraction per call, e.g. " + name + "(0.5) WITHIN GROUP (ORDER BY x), " + name +
                        "(0.9) WITHIN GROUP (ORDER BY x).",
                    f.args.front().location);
    const double p = std::strtod(lit->text.c_str(), nullptr);
    if (!(p >= 0 && p <= 1))
      return make_error(ErrorCode::ValidationUnsupported,
                        "percentile value " + lit->text + " is not between 0 and 1 (PostgreSQL's error)",
                        "FIX: give the fraction from 0 to 1, e.g. " + name + "(0.9) for the 90th percentile.",
                        pos(f.args.front().location >= 0 ? f.args.front().location : location));
    fraction = f.args.front();
  }
  auto& item = f.within_group.front();
  if (auto s = expr(*item.expr, ctx); !s) return s;
  const SqlType t = value_type(*item.expr, ctx).type;
  if (name == "percentile_cont" && !numeric_type(t))
    return refuse("percentile_cont() is translated on SQLite for numbers (it interpolates double precision values)",
                  "FIX: order by a number, e.g. percentile_cont(0.5) WITHIN GROUP (ORDER BY "
                  "date_part('epoch', end_time - start_time)); percentile_disc returns a stored value of any type.",
                  item.expr->location);
  // percentile_disc / mode of a point in time: of its sort key (pg_time_key, the integer PostgreSQL orders it by); the
  // value is rebuilt from the key chosen (pg_from_key, admit_expr.cpp), as min / max of a computed time are.
  const auto kind = time_kind(*item.expr, ctx);
  if (kind && *kind != pgtime::Kind::Interval) {
    const int at = item.expr->location;
    ast::FuncCall key;
    key.name = "pg_time_key";
    key.args.push_back(std::move(*item.expr));
    key.args.push_back(text_literal(std::string(pgtime::kind_name(*kind))));
    *item.expr = ast::make_expr(std::move(key), at);
  } else if (t == SqlType::Json || t == SqlType::Time || kind) {
    return refuse(name + "() of an interval or jsonb value is not translated on SQLite",
                  mode ? "FIX: GROUP BY the value and ORDER BY count(*) DESC, value LIMIT 1."
                       : "FIX: order by a number or text, e.g. an interval's seconds: WITHIN GROUP (ORDER BY "
                         "extract(epoch FROM end_time - start_time)).",
                  item.expr->location);
  }
  const bool desc = item.direction == ast::SortDirection::Desc;
  std::vector<ast::Expr> args;
  if (fraction) args.push_back(std::move(*fraction));
  args.push_back(std::move(*item.expr));
  args.push_back(int_literal(desc ? 1 : 0));
  f.args = std::move(args);
  f.within_group.clear();
  f.name = "pg_" + name;
  note_rewrite(rewrite);
  return {};
}

}  // namespace qg::admit::detail
