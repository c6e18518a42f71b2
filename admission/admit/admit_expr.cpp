// Expressions: every node is visited and checked against the capability table.
#include <algorithm>
#include <cctype>

#include "admission/admit/admitter.hpp"

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

}  // namespace

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
    fix += close.empty() ? " (listed by GET /v1/schema)." : ": did you mean " + join_names(close) + "?";
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
  // max(a, b) / min(a, b) with several arguments are SQLite's scalar forms; PostgreSQL spells them GREATEST/LEAST.
  if (dialect_ == Dialect::Postgres && (f.name == "max" || f.name == "min") && f.args.size() > 1)
    return make_error(ErrorCode::CapabilityNotOnPostgres, f.name + "() with several arguments is SQLite's scalar form",
                      std::string("FIX: on PostgreSQL, write ") + (f.name == "max" ? "greatest" : "least") +
                          "(a, b) (it skips NULLs; SQLite's form returns NULL when any argument is NULL).",
                      pos(location));
  // generate_series is admitted as a calendar (an interval step): a numeric
  // series of any length would only make the engine count until the deadline.
  if (f.name == "generate_series" && !interval_step(f))
    return make_error(ErrorCode::ValidationFunctionNotAllowed,
                      "generate_series() is admitted only as a calendar, with an interval step",
                      "FIX: pass the step as an interval, e.g. generate_series(date_trunc('month', min(t)), "
                      "date_trunc('month', max(t)), INTERVAL '1 month'); to number rows, use row_number() OVER "
                      "(ORDER BY ...).",
                      pos(location));
  // SQLite's json functions read JSON text: x -> 'k' may be their argument there.
  const bool reads_json_text = dialect_ == Dialect::Sqlite && f.name.starts_with("json");
  for (auto& a : f.args) {
    if (reads_json_text) json_text_allowed_ = &a;
    if (auto s = expr(a, ctx); !s) return s;
  }
  if (f.filter) {
    if (auto s = construct(capability::Construct::AggregateFilter, location); !s) return s;
    if (auto s = expr(**f.filter, ctx); !s) return s;
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
  if (auto s = sort_items(w.order_by, ctx); !s) return s;
  if (w.frame.start.offset)
    if (auto s = expr(**w.frame.start.offset, ctx); !s) return s;
  if (w.frame.end && w.frame.end->offset)
    if (auto s = expr(**w.frame.end->offset, ctx); !s) return s;
  return {};
}

Status Admitter::exprs(std::vector<ast::Expr>& list, const ExprContext& ctx) {
  for (auto& e : list)
    if (auto s = expr(e, ctx); !s) return s;
  return {};
}

Status Admitter::sort_items(std::vector<ast::SortItem>& items, const ExprContext& ctx) {
  for (auto& i : items)
    if (auto s = expr(*i.expr, ctx); !s) return s;
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
          if (!*relation) return {};
          const ast::ColumnRef ref = n;  // `n` dies if the node is replaced
          return substitute_virtual(e, **relation, ref, ctx);
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          return {};
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          return function(n, loc, ctx);
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
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
          if (auto s = check_precedence(e); !s) return s;
          if (arrow)
            if (auto s = json_arrow(n, e, loc); !s) return s;
          if (n.left) {
            // The left operand of an arrow is a JSON document: its JSON text is not shown as such.
            if (arrow || n.op == "#>" || n.op == "#>>") json_text_allowed_ = &**n.left;
            if (auto s = expr(**n.left, ctx); !s) return s;
          }
          if (auto s = expr(*n.right, ctx); !s) return s;
          if (auto s = text_arithmetic(n, ctx, loc); !s) return s;
          static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
          if (n.left && std::find(std::begin(kComparisons), std::end(kComparisons), n.op) != std::end(kComparisons)) {
            if (auto s = time_literal(**n.left, *n.right, ctx); !s) return s;
            if (auto s = time_literal(*n.right, **n.left, ctx); !s) return s;
            if (auto s = json_text_comparison(**n.left, *n.right, loc); !s) return s;
            if (auto s = json_text_comparison(*n.right, **n.left, loc); !s) return s;
          }
          return {};
        } else if constexpr (std::is_same_v<T, ast::BoolOp> || std::is_same_v<T, ast::Coalesce>) {
          return exprs(n.args, ctx);
        } else if constexpr (std::is_same_v<T, ast::MinMax>) {
          if (auto s = construct(Construct::GreatestLeast, loc); !s) return s;
          return exprs(n.args, ctx);
        } else if constexpr (std::is_same_v<T, ast::NullTest>) {
          json_text_allowed_ = &*n.arg;  // NULL or not reads the same on both engines
          return expr(*n.arg, ctx);
        } else if constexpr (std::is_same_v<T, ast::BoolTest>) {
          return expr(*n.arg, ctx);
        } else if constexpr (std::is_same_v<T, ast::DistinctFrom>) {
          if (auto s = construct(Construct::IsDistinctFrom, loc); !s) return s;
          if (auto s = check_precedence(e); !s) return s;
          if (auto s = expr(*n.left, ctx); !s) return s;
          return expr(*n.right, ctx);
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          if (auto s = expr(*n.left, ctx); !s) return s;
          return expr(*n.right, ctx);
        } else if constexpr (std::is_same_v<T, ast::InList>) {
          if (auto s = expr(*n.arg, ctx); !s) return s;
          if (auto s = exprs(n.items, ctx); !s) return s;
          for (auto& item : n.items) {
            if (auto s = time_literal(*n.arg, item, ctx); !s) return s;
            if (auto s = json_text_comparison(*n.arg, item, loc); !s) return s;
          }
          return {};
        } else if constexpr (std::is_same_v<T, ast::Between>) {
          if (n.symmetric)
            if (auto s = construct(Construct::BetweenSymmetric, loc); !s) return s;
          if (auto s = expr(*n.arg, ctx); !s) return s;
          if (auto s = expr(*n.low, ctx); !s) return s;
          if (auto s = expr(*n.high, ctx); !s) return s;
          if (auto s = time_literal(*n.arg, *n.low, ctx); !s) return s;
          return time_literal(*n.arg, *n.high, ctx);
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
          if (auto s = expr(*n.arg, ctx); !s) return s;
          return expr(*n.pattern, ctx);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          if (n.operand)
            if (auto s = expr(**n.operand, ctx); !s) return s;
          for (auto& w : n.whens) {
            if (auto s = expr(*w.condition, ctx); !s) return s;
            if (auto s = expr(*w.result, ctx); !s) return s;
          }
          if (n.otherwise) return expr(**n.otherwise, ctx);
          return {};
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
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
          if (auto s = expr(*n.arg, ctx); !s) return s;
          return cast_on_sqlite(n, ctx, loc);
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind == ast::SubLinkKind::Any || n.kind == ast::SubLinkKind::All)
            if (auto s = construct(Construct::QuantifiedSubquery, loc); !s) return s;
          if (n.test)
            if (auto s = expr(**n.test, ctx); !s) return s;
          auto cols = query(*n.query, ctx.scope, ctx.ctes);
          if (!cols) return std::move(cols).error();
          return {};
        } else if constexpr (std::is_same_v<T, ast::SqlValue>) {
          if (n.kind == ast::SqlValueKind::LocalTime || n.kind == ast::SqlValueKind::LocalTimestamp)
            return construct(Construct::LocalTime, loc);
          if (n.kind == ast::SqlValueKind::CurrentTime) return construct(Construct::CurrentTime, loc);
          return {};
        }
      },
      e.node);
}

}  // namespace qg::admit::detail
