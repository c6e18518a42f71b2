#include "admission/admit/admit.hpp"

#include <algorithm>
#include <array>

#include "admission/admit/scope.hpp"
#include "admission/capability/capability.hpp"
#include "admission/convert/convert.hpp"
#include "admission/rewrite/time_literals.hpp"
#include "admission/rewrite/virtual_columns.hpp"

namespace qg::admit {
namespace {

using detail::CteBinding;
using detail::CteEnv;
using detail::Relation;
using detail::Scope;

std::optional<int> pos(int location) { return location >= 0 ? std::optional<int>(location) : std::nullopt; }

std::string join_names(const std::vector<std::string>& names, std::size_t max = 40) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max) out += ", ...";
  return out;
}

// Engine columns that exist on every row but are not data: refused by name so
// the refusal says why rather than "unknown column".
constexpr std::array<std::string_view, 10> kSystemColumns{"rowid", "_rowid_", "oid", "ctid", "xmin",
                                                          "xmax", "cmin", "cmax", "tableoid", "gp_segment_id"};

bool is_system_column(std::string_view name) {
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::find(kSystemColumns.begin(), kSystemColumns.end(), lower) != kSystemColumns.end();
}

// What the engine will call an unaliased select item (PostgreSQL's rules; they
// also hold on SQLite for plain column references, which is what matters when
// an outer query refers to a derived table's columns).
std::string figure_name(const ast::Expr& e) {
  return std::visit(
      [&](const auto& n) -> std::string {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) return n.column;
        else if constexpr (std::is_same_v<T, ast::FuncCall>) return n.name;
        else if constexpr (std::is_same_v<T, ast::Cast>) {
          std::string inner = figure_name(*n.arg);
          return inner == "?column?" ? n.type.name : inner;
        } else if constexpr (std::is_same_v<T, ast::Case>) return "case";
        else if constexpr (std::is_same_v<T, ast::Coalesce>) return "coalesce";
        else if constexpr (std::is_same_v<T, ast::NullIf>) return "nullif";
        else if constexpr (std::is_same_v<T, ast::MinMax>) return n.greatest ? "greatest" : "least";
        else if constexpr (std::is_same_v<T, ast::SubLink>) return n.kind == ast::SubLinkKind::Exists ? "exists" : "?column?";
        else return "?column?";
      },
      e.node);
}

struct ExprContext {
  const Scope* scope = nullptr;
  const CteEnv* ctes = nullptr;
  const std::vector<std::string>* output_names = nullptr;  // ORDER BY / GROUP BY may name select-list aliases
};

class Admitter {
 public:
  Admitter(const catalog::Catalog& catalog, std::string_view sql)
      : catalog_(catalog), dialect_(catalog.dialect), sql_(sql) {}

  Result<std::vector<std::string>> query(ast::Query& q, const Scope* outer, const CteEnv* ctes);

  std::vector<std::string> rewrites;
  std::vector<std::string> notes;

 private:
  const catalog::Column* timestamp_column(const ast::Expr& e, const ExprContext& ctx);
  Status time_literal(const ast::Expr& column_side, ast::Expr& literal_side, const ExprContext& ctx);
  Status construct(capability::Construct c, int location);
  Status expr(ast::Expr& e, const ExprContext& ctx);
  Status exprs(std::vector<ast::Expr>& list, const ExprContext& ctx);
  Status sort_items(std::vector<ast::SortItem>& items, const ExprContext& ctx);
  Status window(ast::WindowSpec& w, const ExprContext& ctx, int location);
  // The relation a column reference resolves to (nullptr: a select-list alias).
  Result<const Relation*> column(const ast::ColumnRef& ref, int location, const ExprContext& ctx);
  Status substitute_virtual(ast::Expr& e, const Relation& relation, const ast::ColumnRef& ref, const ExprContext& ctx);
  Status function(ast::FuncCall& f, int location, const ExprContext& ctx);
  Status from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes);
  Status expand_stars(ast::Select& s, const Scope& level, int location);
  Status group_items(std::vector<ast::GroupItem>& items, const ExprContext& ctx);
  Result<std::vector<std::string>> select(ast::Select& s, Scope& level, const CteEnv* ctes,
                                          std::vector<ast::SortItem>& order_by, int location);
  void note_rewrite(std::string_view name) {
    if (std::find(rewrites.begin(), rewrites.end(), name) == rewrites.end()) rewrites.emplace_back(name);
  }
  bool same(std::string_view a, std::string_view b) const { return catalog::Catalog::same_name(a, b, dialect_); }
  Error unknown_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) const;

  const catalog::Catalog& catalog_;
  Dialect dialect_;
  std::string_view sql_;
};

Status Admitter::construct(capability::Construct c, int location) {
  const auto& row = capability::find(c);
  const auto& cell = capability::cell(row, dialect_);
  if (cell.verdict != capability::Verdict::Refuse) return {};
  const auto& other = capability::cell(row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
  const bool elsewhere = other.verdict != capability::Verdict::Refuse;
  const ErrorCode code = !elsewhere ? ErrorCode::ValidationUnsupported
                         : dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite
                                                       : ErrorCode::CapabilityNotOnPostgres;
  return make_error(code, std::string(row.sql_words) + " is not available on " + std::string(dialect_name(dialect_)),
                    std::string(cell.note), pos(location));
}

Error Admitter::unknown_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) const {
  const std::string written = ref.table.empty() ? ref.column : ref.table + "." + ref.column;
  if (is_system_column(ref.column))
    return make_error(ErrorCode::ValidationSystemColumn,
                      "'" + written + "' is an engine system column, not table data",
                      "FIX: use the table's own key column (see GET /v1/schema), e.g. id.", pos(location));
  // Candidate names for "did you mean", qualified by relation when there are several.
  std::vector<std::string> candidates;
  std::vector<std::string> bare;
  const Relation* only = nullptr;
  std::size_t relation_count = 0;
  for (const Scope* s = ctx.scope; s; s = s->parent)
    for (const auto& r : s->relations) {
      if (!ref.table.empty() && !same(r.name, ref.table)) continue;
      ++relation_count;
      only = &r;
      for (const auto& c : r.columns) {
        bare.push_back(c);
        candidates.push_back(r.name.empty() ? c : r.name + "." + c);
      }
    }
  if (ctx.output_names)
    for (const auto& n : *ctx.output_names) bare.push_back(n), candidates.push_back(n);
  std::string fix;
  if (!ref.table.empty() && relation_count == 0) {
    std::vector<std::string> names;
    for (const Scope* s = ctx.scope; s; s = s->parent)
      for (const auto& r : s->relations)
        if (!r.name.empty()) names.push_back(r.name);
    auto close = catalog::closest_names(ref.table, names, 1);
    fix = "FIX: qualify with a table or alias named in FROM";
    if (!close.empty()) fix += " — did you mean " + close[0] + "." + ref.column + "?";
    else if (!names.empty()) fix += ": " + join_names(names) + ".";
    else fix += "; this query level has no FROM clause.";
    return make_error(ErrorCode::ValidationUnknownColumn,
                      "'" + written + "': no table or alias named '" + ref.table + "' is in scope here", fix,
                      pos(location));
  }
  auto close = catalog::closest_names(ref.column, bare, 3);
  if (!close.empty()) {
    // Show qualified spellings of the suggestions when that disambiguates.
    std::vector<std::string> shown;
    for (const auto& c : close) {
      std::string best = c;
      for (std::size_t i = 0; i < bare.size(); ++i)
        if (bare[i] == c) {
          best = ref.table.empty() && relation_count > 1 ? candidates[i] : c;
          break;
        }
      if (std::find(shown.begin(), shown.end(), best) == shown.end()) shown.push_back(best);
    }
    fix = "FIX: did you mean " + join_names(shown, 3) + "?";
  } else {
    fix = "FIX: use one of the columns in scope";
  }
  if (only && relation_count == 1 && !only->name.empty())
    fix += " Columns of " + only->name + ": " + join_names(only->columns) + ".";
  else if (!candidates.empty())
    fix += " Columns in scope: " + join_names(candidates) + ".";
  const bool double_quoted = location >= 0 && static_cast<std::size_t>(location) < sql_.size() && sql_[location] == '"';
  if (double_quoted && ref.table.empty())
    fix = "FIX: if you meant the text, write '" + ref.column + "' in single quotes (double quotes name columns). " + fix;
  return make_error(ErrorCode::ValidationUnknownColumn, "column '" + written + "' does not exist in this scope", fix,
                    pos(location));
}

Result<const Relation*> Admitter::column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) {
  if (ref.star)
    return make_error(ErrorCode::ValidationUnsupported,
                      "a whole-row reference (" + (ref.table.empty() ? std::string("*") : ref.table + ".*") +
                          ") inside an expression",
                      "FIX: name the columns you need, e.g. " + (ref.table.empty() ? std::string("t") : ref.table) +
                          ".id.",
                      pos(location));
  for (const Scope* s = ctx.scope; s; s = s->parent) {
    if (!ref.table.empty()) {
      for (const auto& r : s->relations) {
        if (!same(r.name, ref.table)) continue;
        for (const auto& c : r.columns)
          if (same(c, ref.column)) return &r;
        return unknown_column(ref, location, ctx);
      }
      continue;
    }
    std::vector<const Relation*> matches;
    for (const auto& r : s->relations)
      for (const auto& c : r.columns)
        if (same(c, ref.column)) {
          matches.push_back(&r);
          break;
        }
    if (matches.size() == 1) return matches.front();
    if (matches.size() > 1) {
      // USING (x) merges x into one column; an unqualified x then means the merged one.
      bool merged = false;
      for (const auto* r : matches)
        for (const auto& u : r->using_columns) merged = merged || same(u, ref.column);
      if (merged) return matches.front();
      std::vector<std::string> options;
      for (const auto* r : matches) options.push_back(r->name.empty() ? ref.column : r->name + "." + ref.column);
      return make_error(ErrorCode::ValidationAmbiguousColumn,
                        "column '" + ref.column + "' is ambiguous: " + join_names(options) + " all match",
                        "FIX: qualify it, e.g. " + options.front() + ".", pos(location));
    }
    // Not at this level: ORDER BY / GROUP BY may name an output column of this level.
    if (s == ctx.scope && ctx.output_names)
      for (const auto& n : *ctx.output_names)
        if (same(n, ref.column)) return static_cast<const Relation*>(nullptr);
  }
  if (ctx.scope == nullptr && ctx.output_names)
    for (const auto& n : *ctx.output_names)
      if (same(n, ref.column)) return static_cast<const Relation*>(nullptr);
  return unknown_column(ref, location, ctx);
}

Status Admitter::substitute_virtual(ast::Expr& e, const Relation& relation, const ast::ColumnRef& ref,
                                    const ExprContext& ctx) {
  const auto* v = relation.table ? relation.table->find_virtual(ref.column, dialect_) : nullptr;
  if (!v) return {};
  // A physical column of the same name wins (attach_virtual_columns refuses such names anyway).
  if (relation.table->find_column(ref.column, dialect_)) return {};
  ast::Expr replacement = *v->expression;
  rewrite::qualify_columns(replacement, relation.name);
  const int location = e.location;
  e = std::move(replacement);
  e.location = location;
  note_rewrite("virtual-columns");
  return expr(e, ctx);
}

const catalog::Column* Admitter::timestamp_column(const ast::Expr& e, const ExprContext& ctx) {
  const auto* ref = std::get_if<ast::ColumnRef>(&e.node);
  if (!ref || ref->star) return nullptr;
  auto relation = column(*ref, e.location, ctx);
  if (!relation || !*relation || !(*relation)->table) return nullptr;
  const auto* c = (*relation)->table->find_column(ref->column, dialect_);
  return c && c->timestamp ? c : nullptr;
}

Status Admitter::time_literal(const ast::Expr& column_side, ast::Expr& literal_side, const ExprContext& ctx) {
  auto* lit = std::get_if<ast::Literal>(&literal_side.node);
  if (!lit || lit->kind != ast::LiteralKind::String) return {};
  const catalog::Column* c = timestamp_column(column_side, ctx);
  if (!c) return {};
  auto decision = rewrite::check_time_literal(lit->text, c->name, c->timestamp_sample, literal_side.location);
  if (!decision) return std::move(decision).error();
  if (decision->note && std::find(notes.begin(), notes.end(), *decision->note) == notes.end())
    notes.push_back(*decision->note);
  if (decision->replacement) {
    lit->text = *decision->replacement;
    note_rewrite("time-literal");
  }
  return {};
}

Status Admitter::function(ast::FuncCall& f, int location, const ExprContext& ctx) {
  const auto* row = capability::find_function(f.name);
  if (!row) {
    auto close = catalog::closest_names(f.name, capability::admitted_function_names(dialect_), 3);
    std::string fix = "FIX: use a function querygate admits on " + std::string(dialect_name(dialect_));
    fix += close.empty() ? " (listed by GET /v1/schema)." : ": did you mean " + join_names(close) + "?";
    return make_error(ErrorCode::ValidationFunctionNotAllowed,
                      "function " + f.name + "() is not in querygate's capability table", fix, pos(location));
  }
  const auto& cell = capability::cell(*row, dialect_);
  if (cell.verdict == capability::Verdict::Refuse) {
    const auto& other = capability::cell(*row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
    const bool elsewhere = other.verdict != capability::Verdict::Refuse;
    const ErrorCode code = !elsewhere ? ErrorCode::ValidationFunctionNotAllowed
                           : dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite
                                                         : ErrorCode::CapabilityNotOnPostgres;
    const std::string why = elsewhere ? " is not available on " + std::string(dialect_name(dialect_))
                                      : " is not admitted: a read-only analytics surface has no use for it";
    return make_error(code, "function " + f.name + "()" + why, std::string(cell.note), pos(location));
  }
  if (auto s = exprs(f.args, ctx); !s) return s;
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
          const auto& cell = capability::cell(*row, dialect_);
          if (cell.verdict == capability::Verdict::Refuse) {
            const auto& other = capability::cell(*row, dialect_ == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite);
            const ErrorCode code = other.verdict == capability::Verdict::Refuse ? ErrorCode::ValidationUnsupported
                                   : dialect_ == Dialect::Sqlite              ? ErrorCode::CapabilityNotOnSqlite
                                                                               : ErrorCode::CapabilityNotOnPostgres;
            return make_error(code, "operator " + n.op + " is not available on " + std::string(dialect_name(dialect_)),
                              std::string(cell.note), pos(loc));
          }
          if (n.left)
            if (auto s = expr(**n.left, ctx); !s) return s;
          if (auto s = expr(*n.right, ctx); !s) return s;
          static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
          if (n.left && std::find(std::begin(kComparisons), std::end(kComparisons), n.op) != std::end(kComparisons)) {
            if (auto s = time_literal(**n.left, *n.right, ctx); !s) return s;
            if (auto s = time_literal(*n.right, **n.left, ctx); !s) return s;
          }
          return {};
        } else if constexpr (std::is_same_v<T, ast::BoolOp> || std::is_same_v<T, ast::Coalesce>) {
          return exprs(n.args, ctx);
        } else if constexpr (std::is_same_v<T, ast::MinMax>) {
          if (auto s = construct(Construct::GreatestLeast, loc); !s) return s;
          return exprs(n.args, ctx);
        } else if constexpr (std::is_same_v<T, ast::NullTest> || std::is_same_v<T, ast::BoolTest>) {
          return expr(*n.arg, ctx);
        } else if constexpr (std::is_same_v<T, ast::DistinctFrom>) {
          if (auto s = construct(Construct::IsDistinctFrom, loc); !s) return s;
          if (auto s = expr(*n.left, ctx); !s) return s;
          return expr(*n.right, ctx);
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          if (auto s = expr(*n.left, ctx); !s) return s;
          return expr(*n.right, ctx);
        } else if constexpr (std::is_same_v<T, ast::InList>) {
          if (auto s = expr(*n.arg, ctx); !s) return s;
          if (auto s = exprs(n.items, ctx); !s) return s;
          for (auto& item : n.items)
            if (auto s = time_literal(*n.arg, item, ctx); !s) return s;
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
          if (n.kind == ast::LikeKind::ILike) {
            if (auto s = construct(Construct::ILike, loc); !s) return s;
            const auto& cell = capability::cell(capability::find(Construct::ILike), dialect_);
            if (cell.verdict == capability::Verdict::Rewrite) {
              // SQLite's LIKE already ignores ASCII case: ILIKE has one obvious spelling there.
              n.kind = ast::LikeKind::Like;
              note_rewrite(cell.note);
            }
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
            return make_error(dialect_ == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite
                                                          : ErrorCode::CapabilityNotOnPostgres,
                              "a cast to " + n.type.name + " is not available on " + std::string(dialect_name(dialect_)),
                              std::string(cell.note), pos(loc));
          return expr(*n.arg, ctx);
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

Status Admitter::from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes) {
  const int loc = item.location;
  auto apply_alias = [&](Relation& r, const std::optional<ast::Alias>& alias) -> Status {
    if (!alias) return {};
    r.name = alias->name;
    if (!alias->columns.empty()) {
      if (alias->columns.size() > r.columns.size())
        return make_error(ErrorCode::ValidationUnsupported,
                          "alias " + alias->name + " names " + std::to_string(alias->columns.size()) +
                              " columns but the source has " + std::to_string(r.columns.size()),
                          "FIX: name at most " + std::to_string(r.columns.size()) + " columns.", pos(loc));
      std::copy(alias->columns.begin(), alias->columns.end(), r.columns.begin());
    }
    return {};
  };
  return std::visit(
      [&](auto& n) -> Status {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::TableRef>) {
          Relation r;
          r.name = n.name;
          bool found = false;
          for (const CteEnv* env = ctes; env && !found; env = env->parent)
            for (auto it = env->ctes.rbegin(); it != env->ctes.rend(); ++it)
              if (same(it->name, n.name)) {
                r.columns = it->columns;
                found = true;
                break;
              }
          if (!found) {
            const auto* table = catalog_.find_table(n.name);
            if (!table) {
              std::vector<std::string> names;
              for (const auto& t : catalog_.tables) names.push_back(t.name);
              for (const CteEnv* env = ctes; env; env = env->parent)
                for (const auto& c : env->ctes) names.push_back(c.name);
              auto close = catalog::closest_names(n.name, names, 2);
              std::string fix = close.empty() ? "FIX: query one of the allowlisted tables: " + join_names(names) + "."
                                              : "FIX: did you mean " + join_names(close) + "? Allowlisted tables: " +
                                                    join_names(names) + ".";
              return make_error(ErrorCode::ValidationTableNotAllowed,
                                "table '" + n.name + "' is not available: it is not on this database's allowlist",
                                fix, pos(n.location));
            }
            r.name = table->name;
            r.table = table;
            for (const auto& c : table->columns) r.columns.push_back(c.name);
            for (const auto& v : table->virtual_columns) r.columns.push_back(v.name);
          }
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::DerivedTable>) {
          if (n.lateral)
            if (auto s = construct(capability::Construct::Lateral, loc); !s) return s;
          // Without LATERAL a subquery in FROM sees only the enclosing query's scope, not its siblings.
          auto cols = query(*n.query, n.lateral ? &level : level.parent, ctes);
          if (!cols) return std::move(cols).error();
          Relation r;
          r.columns = std::move(cols).value();
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::ValuesTable>) {
          if (auto s = construct(capability::Construct::ValuesInFrom, loc); !s) return s;
          ExprContext ctx{level.parent, ctes, nullptr};
          for (auto& row : n.rows)
            if (auto s = exprs(row, ctx); !s) return s;
          Relation r;
          const std::size_t width = n.rows.empty() ? 0 : n.rows.front().size();
          for (std::size_t i = 0; i < width; ++i) r.columns.push_back("column" + std::to_string(i + 1));
          if (auto s = apply_alias(r, n.alias); !s) return s;
          level.relations.push_back(std::move(r));
          return {};
        } else if constexpr (std::is_same_v<T, ast::Join>) {
          if (n.kind == ast::JoinKind::Right)
            if (auto s = construct(capability::Construct::RightJoin, loc); !s) return s;
          if (n.kind == ast::JoinKind::Full)
            if (auto s = construct(capability::Construct::FullJoin, loc); !s) return s;
          const std::size_t before = level.relations.size();
          if (auto s = from_item(*n.left, level, ctes); !s) return s;
          const std::size_t middle = level.relations.size();
          if (auto s = from_item(*n.right, level, ctes); !s) return s;
          for (const auto& u : n.using_columns) {
            auto has = [&](std::size_t from, std::size_t to) {
              for (std::size_t i = from; i < to; ++i)
                for (const auto& c : level.relations[i].columns)
                  if (same(c, u)) return true;
              return false;
            };
            if (!has(before, middle) || !has(middle, level.relations.size()))
              return make_error(ErrorCode::ValidationUnknownColumn,
                                "USING (" + u + "): the column must exist on both sides of the join",
                                "FIX: join with ON left.col = right.col naming the real columns.", pos(loc));
            for (std::size_t i = before; i < level.relations.size(); ++i) level.relations[i].using_columns.push_back(u);
          }
          if (n.on) {
            ExprContext ctx{&level, ctes, nullptr};
            if (auto s = expr(**n.on, ctx); !s) return s;
          }
          return {};
        }
      },
      item.node);
}

Status Admitter::expand_stars(ast::Select& s, const Scope& level, int location) {
  std::vector<ast::SelectItem> out;
  bool expanded = false;
  for (auto& item : s.items) {
    const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node);
    if (!ref || !ref->star) {
      out.push_back(std::move(item));
      continue;
    }
    const int loc = item.expr.location >= 0 ? item.expr.location : location;
    if (level.relations.empty())
      return make_error(ErrorCode::ValidationStarWithoutFrom, "SELECT * has no FROM clause to expand",
                        "FIX: name the values you want, or add FROM <table>.", pos(loc));
    bool matched = false;
    std::vector<std::string> seen_using;
    for (const auto& r : level.relations) {
      if (!ref->table.empty() && !same(r.name, ref->table)) continue;
      matched = true;
      for (const auto& c : r.columns) {
        // An unqualified * shows a USING-merged column once.
        const bool merged = std::any_of(r.using_columns.begin(), r.using_columns.end(),
                                        [&](const std::string& u) { return same(u, c); });
        if (ref->table.empty() && merged) {
          if (std::any_of(seen_using.begin(), seen_using.end(), [&](const std::string& u) { return same(u, c); }))
            continue;
          seen_using.push_back(c);
        }
        ast::ColumnRef col;
        col.table = r.name;
        col.column = c;
        out.push_back(ast::SelectItem{ast::make_expr(std::move(col), -1), {}});
      }
    }
    if (!matched) {
      std::vector<std::string> names;
      for (const auto& r : level.relations)
        if (!r.name.empty()) names.push_back(r.name);
      return make_error(ErrorCode::ValidationUnknownColumn,
                        "'" + ref->table + ".*': no table or alias named '" + ref->table + "' in FROM",
                        "FIX: write one of: " + join_names(names) + " followed by .*", pos(loc));
    }
    expanded = true;
  }
  s.items = std::move(out);
  if (expanded) note_rewrite("star-expansion");
  return {};
}

Status Admitter::group_items(std::vector<ast::GroupItem>& items, const ExprContext& ctx) {
  for (auto& g : items) {
    if (auto* e = std::get_if<ast::Expr>(&g.node)) {
      if (auto s = expr(*e, ctx); !s) return s;
      continue;
    }
    auto& set = std::get<ast::GroupingSet>(g.node);
    if (auto s = construct(capability::Construct::GroupingSets, set.location); !s) return s;
    if (auto s = group_items(set.items, ctx); !s) return s;
  }
  return {};
}

Result<std::vector<std::string>> Admitter::select(ast::Select& s, Scope& level, const CteEnv* ctes,
                                                  std::vector<ast::SortItem>& order_by, int location) {
  for (auto& f : s.from)
    if (auto st = from_item(f, level, ctes); !st) return st.error();
  if (auto st = expand_stars(s, level, location); !st) return st.error();

  ExprContext ctx{&level, ctes, nullptr};
  if (!s.distinct_on.empty()) {
    if (auto st = construct(capability::Construct::DistinctOn, location); !st) return st.error();
    if (auto st = exprs(s.distinct_on, ctx); !st) return st.error();
  }
  std::vector<std::string> names;
  for (auto& item : s.items) {
    const std::string written_name = figure_name(item.expr);
    const bool was_column = std::holds_alternative<ast::ColumnRef>(item.expr.node);
    if (auto st = expr(item.expr, ctx); !st) return st.error();
    // A virtual column keeps its name in the output after substitution.
    if (item.alias.empty() && was_column && !std::holds_alternative<ast::ColumnRef>(item.expr.node))
      item.alias = written_name;
    names.push_back(item.alias.empty() ? figure_name(item.expr) : item.alias);
  }
  if (s.where)
    if (auto st = expr(*s.where, ctx); !st) return st.error();
  ExprContext with_outputs{&level, ctes, &names};
  if (auto st = group_items(s.group_by, with_outputs); !st) return st.error();
  if (s.having)
    if (auto st = expr(*s.having, ctx); !st) return st.error();
  for (auto& w : s.windows)
    if (auto st = window(w.spec, ctx, location); !st) return st.error();
  if (auto st = sort_items(order_by, with_outputs); !st) return st.error();
  return names;
}

Result<std::vector<std::string>> Admitter::query(ast::Query& q, const Scope* outer, const CteEnv* ctes) {
  CteEnv env{ctes, {}};
  for (auto& cte : q.with) {
    // A CTE sees the CTEs before it (not itself: recursion was refused at conversion).
    auto cols = query(*cte.query, outer, &env);
    if (!cols) return std::move(cols).error();
    std::vector<std::string> names = std::move(cols).value();
    if (!cte.columns.empty()) {
      if (cte.columns.size() > names.size())
        return make_error(ErrorCode::ValidationUnsupported,
                          "WITH " + cte.name + "(...) names more columns than its query returns",
                          "FIX: list at most " + std::to_string(names.size()) + " column names.", pos(cte.location));
      std::copy(cte.columns.begin(), cte.columns.end(), names.begin());
    }
    env.ctes.push_back(CteBinding{cte.name, std::move(names)});
  }
  const CteEnv* visible = q.with.empty() ? ctes : &env;

  std::vector<std::string> names;
  if (auto* s = std::get_if<ast::Select>(&q.body)) {
    Scope level{outer, {}};
    auto r = select(*s, level, visible, q.order_by, q.location);
    if (!r) return std::move(r).error();
    names = std::move(r).value();
  } else if (auto* set = std::get_if<ast::SetOp>(&q.body)) {
    if (set->all && set->kind != ast::SetOpKind::Union)
      if (auto st = construct(capability::Construct::SetOpIntersectAll, q.location); !st) return st.error();
    auto left = query(*set->left, outer, visible);
    if (!left) return std::move(left).error();
    auto right = query(*set->right, outer, visible);
    if (!right) return std::move(right).error();
    names = std::move(left).value();
    ExprContext ctx{nullptr, visible, &names};
    if (auto st = sort_items(q.order_by, ctx); !st) return st.error();
  } else {
    auto& values = std::get<ast::Values>(q.body);
    ExprContext ctx{outer, visible, nullptr};
    for (auto& row : values.rows)
      if (auto st = exprs(row, ctx); !st) return st.error();
    const std::size_t width = values.rows.empty() ? 0 : values.rows.front().size();
    for (std::size_t i = 0; i < width; ++i) names.push_back("column" + std::to_string(i + 1));
    ExprContext order_ctx{nullptr, visible, &names};
    if (auto st = sort_items(q.order_by, order_ctx); !st) return st.error();
  }
  return names;
}

}  // namespace

Result<Admission> admit(ast::Query& query, const catalog::Catalog& catalog, std::string_view sql) {
  Admitter admitter(catalog, sql);
  auto names = admitter.query(query, nullptr, nullptr);
  if (!names) return std::move(names).error();
  Admission out;
  for (auto& n : names.value()) out.columns.push_back(OutputColumn{std::move(n)});
  out.rewrites = std::move(admitter.rewrites);
  out.notes = std::move(admitter.notes);
  return out;
}

}  // namespace qg::admit
