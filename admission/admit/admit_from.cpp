// FROM: relations by name (tables, CTEs, derived tables, VALUES, row sources), joins and their ON conditions,
// the row filters of tables, and the refusals of a table that is not there (split from admit_query.cpp).
#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <type_traits>
#include <utility>

#include "admission/admit/admitter.hpp"
#include "admission/ast/walk.hpp"
#include "admission/capability/capability.hpp"
#include "admission/convert/convert.hpp"
#include "admission/parse/parser.hpp"
#include "admission/render/render.hpp"

namespace qg::admit::detail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// How to write a CTE's name so that it reads back as that name.
std::string spelled(const std::string& name, Dialect dialect) {
  const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front())) &&
                     std::all_of(name.begin(), name.end(),
                                 [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
  return dialect == Dialect::Sqlite || plain ? name : "\"" + name + "\"";
}

std::string described(const Relation& r) {
  return r.source == r.name ? r.name : r.source + " AS " + r.name;
}

}  // namespace

Status Admitter::add_relation(Scope& level, Relation r, int location) {
  if (!r.name.empty())
    for (const auto& other : level.relations)
      if (same(other.name, r.name)) {
        const std::string second = r.name + "_2";
        return make_error(ErrorCode::ValidationDuplicateAlias,
                          "table name '" + r.name + "' is used twice in one FROM (" + described(other) + " and " +
                              described(r) + "), so " + r.name + ".column could mean either",
                          "FIX: give each its own alias, e.g. " + described(other) + " and " + r.source + " AS " +
                              second + ", and qualify each column with the alias of the table it comes from.",
                          pos(location));
      }
  level.relations.push_back(std::move(r));
  return {};
}

std::optional<Error> Admitter::cte_being_defined(const ast::TableRef& ref, bool is_table) const {
  for (auto it = defining_.rbegin(); it != defining_.rend(); ++it) {
    const std::vector<ast::Cte>& with = *it->with;
    const std::string& defined = with[it->index].name;
    for (std::size_t i = it->index; i < with.size(); ++i) {
      if (!same(with[i].name, ref.name)) continue;
      // PostgreSQL (no RECURSIVE): inside a CTE's definition, its own name and
      // the later CTEs' names mean tables. SQLite reads them as those CTEs.
      if (is_table && dialect_ == Dialect::Postgres) return std::nullopt;
      if (i == it->index) {
        std::string message = "CTE " + defined + " refers to itself";
        if (is_table)
          message += ": on SQLite, inside its own definition " + ref.name + " means the CTE, not the table " +
                     ref.name + ", which makes the CTE recursive";
        message += "; recursive CTEs are not admitted (querygate refuses WITH RECURSIVE too)";
        return make_error(ErrorCode::ValidationRecursiveCte, message,
                          is_table ? "FIX: give the CTE another name, e.g. WITH " + defined +
                                         "_1 AS (SELECT ... FROM " + ref.name + " ...), and use that name after it."
                                   : "FIX: rewrite it without recursion: a CTE can read only allowlisted tables and "
                                     "the CTEs defined before it; compute the rows with joins, GROUP BY or window "
                                     "functions instead.",
                          pos(ref.location));
      }
      std::string message =
          "'" + ref.name + "' inside CTE " + defined + " names CTE " + with[i].name + ", which is defined after it";
      if (is_table) message += ": SQLite would read that CTE there, PostgreSQL the table " + ref.name;
      // Not a table: as on PostgreSQL, the name does not exist there.
      return make_error(is_table ? ErrorCode::CapabilityNotOnSqlite : ErrorCode::ValidationTableNotAllowed, message,
                        is_table ? "FIX: rename CTE " + with[i].name + " (e.g. " + with[i].name + "_1) so that " +
                                       ref.name + " inside " + defined + " means the table."
                                 : "FIX: define " + with[i].name + " before " + defined +
                                       " in the WITH list: a CTE can use only the CTEs before it.",
                        pos(ref.location));
    }
  }
  return std::nullopt;
}

Error Admitter::table_not_available(const ast::TableRef& ref, const CteEnv* ctes) const {
  std::vector<std::string> tables;
  for (const auto& t : catalog_.tables) tables.push_back(t.name);
  std::vector<std::string> cte_names;
  for (const CteEnv* env = ctes; env; env = env->parent)
    for (const auto& c : env->ctes) cte_names.push_back(c.name);
  const std::string message = "table '" + ref.name + "' is not available: it is not on this database's allowlist";
  const std::string listed = "Allowlisted tables: " + join_names(tables) + "." +
                             (cte_names.empty() ? std::string() : " CTEs in scope: " + join_names(cte_names) + ".");
  // PostgreSQL folds an unquoted name to lower case and keeps a quoted one as written.
  if (dialect_ == Dialect::Postgres)
    for (const auto& c : cte_names)
      if (c != ref.name && lower(c) == lower(ref.name))
        return make_error(ErrorCode::ValidationTableNotAllowed,
                          message + "; the CTE \"" + c +
                              "\" differs only in case: it was declared in double quotes, which keep capitals, and "
                              "an unquoted name is read in lower case (" +
                              ref.name + ")",
                          "FIX: write \"" + c +
                              "\" in double quotes wherever you use the CTE, or declare it without "
                              "quotes.",
                          pos(ref.location));
  const auto close_ctes = catalog::closest_names(ref.name, cte_names, 1);
  const auto close_tables = catalog::closest_names(ref.name, tables, 2);
  std::string fix;
  if (!close_ctes.empty())
    fix = "FIX: did you mean the CTE " + spelled(close_ctes.front(), dialect_) + "? " + listed;
  else if (!close_tables.empty())
    fix = "FIX: did you mean " + join_names(close_tables) + "? " + listed;
  else
    fix = "FIX: query one of the allowlisted tables. " + listed;
  return make_error(ErrorCode::ValidationTableNotAllowed, message, fix, pos(ref.location));
}

Status Admitter::apply_row_filter(ast::TableRef& ref, const catalog::Table& table) {
  const catalog::RowFilter& filter = *table.row_filter;
  if (!ref.row_filter) {
    if (!filter.predicate)
      return make_error(ErrorCode::Internal, "the row filter of " + table.name + " was not admitted at start-up",
                        "FIX: this is a gateway defect; the statement was not run.");
    ref.row_filter = ast::Box<ast::Expr>(*filter.predicate);
    note_rewrite("row-filter:" + table.name);
    // Printed schema-qualified inside the subquery: a qualified name never means a CTE of the statement.
    if (ref.schema.empty()) ref.schema = catalog_.schema;
  } else if (filter.predicate && !(**ref.row_filter == *filter.predicate)) {
    return make_error(ErrorCode::Internal,
                      "ADMISSION DEFECT: a reference to " + table.name + " carries a filter that is not its row filter",
                      "FIX: this is a gateway defect; the statement was not run.");
  }
  Scope own;
  Relation r;
  r.name = table.name;
  r.source = table.name;
  r.table = &table;
  for (const auto& c : table.columns) r.columns.push_back(c.name);
  for (const auto& v : table.virtual_columns) r.columns.push_back(v.name);
  r.lineage = table_lineage(table);
  own.relations.push_back(std::move(r));
  // Nothing of the statement around it is visible to the filter.
  auto saved_defining = std::move(defining_);
  auto saved_from = std::move(from_names_);
  auto saved_windows = std::move(window_names_);
  const auto* saved_json = json_text_allowed_;
  const auto* saved_binds = filter_binds_;
  // The filter is printed in a scope of its own: a jsonb row source of the statement is not beside its columns (id
  // in span_id IN (SELECT id FROM spans) was qualified, and the filter no longer matched its own; s20d).
  const bool saved_json_rows = json_rows_in_statement_;
  json_rows_in_statement_ = false;
  defining_.clear();
  from_names_ = {table.name};
  window_names_.clear();
  json_text_allowed_ = nullptr;
  filter_binds_ = &filter.binds;
  const ExprContext ctx{&own, nullptr, nullptr};
  Status s = expr(**ref.row_filter, ctx);
  defining_ = std::move(saved_defining);
  from_names_ = std::move(saved_from);
  window_names_ = std::move(saved_windows);
  json_text_allowed_ = saved_json;
  filter_binds_ = saved_binds;
  json_rows_in_statement_ = saved_json_rows;
  return s;
}

Status Admitter::from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes, std::vector<StarColumn>& star) {
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
  // The relation just added shows all its columns to an unqualified *.
  auto show_all = [&] {
    const std::size_t index = level.relations.size() - 1;
    for (const auto& c : level.relations[index].columns) star.push_back(StarColumn{c, {{index, c}}});
  };
  return std::visit(
      [&](auto& n) -> Status {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::TableRef>) {
          Relation r;
          r.name = n.name;
          bool found = false;
          // SQLite: the PostgreSQL schema name of a copy reads main (never a CTE, as the name was qualified).
          if (!n.schema.empty() && !catalog_.schema_alias.empty() && same(n.schema, catalog_.schema_alias) &&
              !same(n.schema, catalog_.schema)) {
            n.schema = catalog_.schema;
            note_rewrite("dialect:schema-name");
          }
          if (!n.schema.empty() && (catalog_.schema.empty() || !same(n.schema, catalog_.schema)))
            return make_error(
                ErrorCode::ValidationQualifiedName,
                "'" + n.schema + "." + n.name + "' names schema '" + n.schema + "'" +
                    (catalog_.schema.empty() ? std::string()
                                             : ": this database serves schema '" + catalog_.schema + "'") +
                    ", and only its allowlisted tables are visible",
                "FIX: write the bare table name " + n.name + ".", pos(n.location));
          // A qualified name never means a CTE.
          for (const CteEnv* env = n.schema.empty() ? ctes : nullptr; env && !found; env = env->parent)
            for (auto it = env->ctes.rbegin(); it != env->ctes.rend(); ++it)
              if (same(it->name, n.name)) {
                r.columns = it->columns;
                r.lineage = it->lineage;
                std::map<int, int> renumbered;  // this reference's own instances of the CTE's tables
                r.reads = fresh_instances(it->reads, renumbered);
                r.plain = fresh_instances(it->plain, renumbered);
                r.bounds = it->bounds;
                r.generated_rows = it->generated_rows;
                r.ambiguous = it->ambiguous;
                r.timestamps = it->timestamps;
                r.literal_text = it->literal_text;
                r.time_kinds = it->time_kinds;
                r.types = it->types;
                found = true;
                break;
              }
          if (found) r.source = n.name;
          if (!found) {
            const auto* table = catalog_.find_table(n.name);
            if (n.schema.empty())
              if (auto refused = cte_being_defined(n, table != nullptr)) return std::move(*refused);
            if (!table) return table_not_available(n, ctes);
            r.name = table->name;
            r.source = table->name;
            r.table = table;
            r.instance = next_instance_++;
            r.lineage = table_lineage(*table);
            std::vector<Lineage> shown;
            for (std::size_t i = 0; i < table->columns.size(); ++i) {
              const auto& c = table->columns[i];
              if (!catalog::visible(*table, c, hidden_, dialect_)) {
                r.hidden.push_back(c.name);
                continue;
              }
              r.columns.push_back(c.name);
              r.reads.push_back({Source{&c, r.instance}});
              r.plain.push_back({Source{&c, r.instance}});
              shown.push_back(r.lineage[i]);
            }
            for (std::size_t i = 0; i < table->virtual_columns.size(); ++i) {
              const auto& v = table->virtual_columns[i];
              if (!catalog::visible(*table, v, hidden_, dialect_)) {
                r.hidden.push_back(v.name);
                continue;
              }
              r.columns.push_back(v.name);
              r.reads.push_back({});  // substituted before anything reads it
              r.plain.push_back({});
              shown.push_back(r.lineage[table->columns.size() + i]);
            }
            r.lineage = std::move(shown);
            // t AS x(a, b) renames the engine's columns by position, hidden ones included:
            // the names would not mean what admission resolved them to.
            if (!r.hidden.empty() && n.alias && !n.alias->columns.empty())
              return make_error(ErrorCode::ValidationUnsupported,
                                "column aliases on table " + table->name + " (" + n.alias->name + "(...))",
                                "FIX: write " + table->name + " AS " + n.alias->name +
                                    " and rename columns in the select list (SELECT " + n.alias->name +
                                    ".col AS new_name ...).",
                                pos(loc));
            if (table->row_filter)
              if (auto s = apply_row_filter(n, *table); !s) return s;
          }
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          if (auto s = add_relation(level, std::move(r), n.location); !s) return s;
          show_all();
          return {};
        } else if constexpr (std::is_same_v<T, ast::DerivedTable>) {
          if (n.lateral)
            if (auto s = construct(capability::Construct::Lateral, loc); !s) return s;
          // Without LATERAL a subquery in FROM sees only the enclosing query's scope, not its siblings.
          auto cols = query(*n.query, n.lateral ? &level : level.parent, ctes);
          if (!cols) return std::move(cols).error();
          exact_columns_on_sqlite(*n.query);
          Relation r;
          r.source = "(SELECT ...)";
          r.ambiguous = name_outputs(*n.query, *cols);
          r.columns = std::move(cols).value();
          r.lineage = output_lineages(*n.query, r.columns.size());
          r.reads = output_reads(*n.query, r.columns.size());
          r.plain = output_plain(*n.query, r.columns.size());
          r.timestamps = query_times(*n.query);
          r.literal_text = literal_texts(*n.query);
          r.time_kinds = query_kinds(*n.query);
          r.types = resolved_unknowns(query_types(*n.query));
          r.bounds = bounds_of(*n.query);
          r.generated_rows = query_generated_.contains(&*n.query);
          if (n.alias && !n.alias->columns.empty())
            if (auto s = construct(capability::Construct::RelationColumnAliases, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          if (auto s = add_relation(level, std::move(r), loc); !s) return s;
          show_all();
          return {};
        } else if constexpr (std::is_same_v<T, ast::SeriesTable>) {
          Relation r;
          if (auto s = series_table_on_sqlite(n, level, ctes, r, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          if (auto s = add_relation(level, std::move(r), loc); !s) return s;
          show_all();
          return {};
        } else if constexpr (std::is_same_v<T, ast::JsonRows>) {
          Relation r;
          if (auto s = json_rows_table(n, level, ctes, r, loc); !s) return s;
          if (auto s = apply_alias(r, n.alias); !s) return s;
          if (auto s = add_relation(level, std::move(r), loc); !s) return s;
          show_all();
          return {};
        } else if constexpr (std::is_same_v<T, ast::ValuesTable>) {
          if (auto s = construct(capability::Construct::ValuesInFrom, loc); !s) return s;
          if (auto s = same_width(n.rows, loc); !s) return s;
          ExprContext ctx{level.parent, ctes, nullptr};
          values_time_literals(n.rows);
          for (auto& row : n.rows)
            if (auto s = exprs(row, ctx); !s) return s;
          if (auto s = values_types(n.rows, ctx, loc); !s) return s;
          Relation r;
          r.source = "(VALUES ...)";
          const std::size_t width = n.rows.empty() ? 0 : n.rows.front().size();
          for (std::size_t i = 0; i < width; ++i) r.columns.push_back("column" + std::to_string(i + 1));
          r.lineage = rows_lineage(n.rows, ctx);
          r.lineage.resize(width, Lineage{Taint::Text, ValueKind::Other});
          r.reads.assign(width, {});
          r.plain.assign(width, {});
          for (const auto& row : n.rows)
            for (std::size_t i = 0; i < row.size() && i < width; ++i) {
              const Reads more = reads_of(row[i], ctx);
              r.reads[i].insert(r.reads[i].end(), more.begin(), more.end());
            }
          r.literal_text = literal_texts(n.rows, width);
          r.types.assign(width, ValueType{SqlType::Null});
          for (const auto& row : n.rows)
            for (std::size_t i = 0; i < row.size() && i < width; ++i)
              r.types[i] = common_type(r.types[i], column_value_type(row[i], ctx));
          r.types = resolved_unknowns(std::move(r.types));
          exact_values_on_sqlite(n.rows, r.types);
          r.time_kinds = values_time_kinds(n.rows, ctx);
          for (const auto& row : n.rows) {
            std::vector<SizeBound> row_bounds;
            for (const auto& e : row) row_bounds.push_back(bound_of(e, ctx, nullptr));
            r.bounds = widest_bounds(r.bounds, row_bounds);
          }
          if (auto s = apply_alias(r, n.alias); !s) return s;
          if (auto s = add_relation(level, std::move(r), loc); !s) return s;
          show_all();
          return {};
        } else if constexpr (std::is_same_v<T, ast::Join>) {
          if (n.kind == ast::JoinKind::Right)
            if (auto s = construct(capability::Construct::RightJoin, loc); !s) return s;
          if (n.kind == ast::JoinKind::Full)
            if (auto s = construct(capability::Construct::FullJoin, loc); !s) return s;
          // PostgreSQL: a RIGHT or FULL join cannot read its left side in a row source on its right.
          if ((n.kind == ast::JoinKind::Right || n.kind == ast::JoinKind::Full) &&
              std::holds_alternative<ast::JsonRows>(n.right->node))
            return make_error(ErrorCode::ValidationUnsupported,
                              "a jsonb row source on the right of a RIGHT or FULL JOIN",
                              "FIX: write it as FROM t LEFT JOIN LATERAL jsonb_each(t.col) AS e ON true, or "
                              "FROM t, jsonb_each(t.col) AS e.",
                              pos(loc));
          const std::size_t before = level.relations.size();
          std::vector<StarColumn> left, right;
          if (auto s = from_item(*n.left, level, ctes, left); !s) return s;
          if (auto s = from_item(*n.right, level, ctes, right); !s) return s;
          // PostgreSQL shows the USING columns first, each merged from both sides
          // (COALESCE: a RIGHT or FULL join has rows only the right side fills),
          // then the left side's other columns, then the right side's.
          std::vector<StarColumn> merged;
          auto named = [&](const StarColumn& c) {
            return std::any_of(n.using_columns.begin(), n.using_columns.end(),
                               [&](const std::string& u) { return same(u, c.name); });
          };
          for (const auto& u : n.using_columns) {
            auto count = [&](const std::vector<StarColumn>& side) {
              return std::count_if(side.begin(), side.end(), [&](const StarColumn& c) { return same(c.name, u); });
            };
            const auto on_left = count(left), on_right = count(right);
            if (on_left == 0 || on_right == 0)
              return make_error(ErrorCode::ValidationUnknownColumn,
                                "USING (" + u + "): the column must exist on both sides of the join",
                                "FIX: join with ON left.col = right.col naming the real columns.", pos(loc));
            if (on_left > 1 || on_right > 1)
              return make_error(ErrorCode::ValidationAmbiguousColumn,
                                "USING (" + u + "): more than one column named " + u + " on the " +
                                    (on_left > 1 ? "left" : "right") + " side of the join",
                                "FIX: join with ON naming the qualified columns, e.g. ON a." + u + " = b." + u + ".",
                                pos(loc));
            if (std::any_of(merged.begin(), merged.end(), [&](const StarColumn& c) { return same(c.name, u); }))
              return make_error(ErrorCode::ValidationUnsupported, "USING (" + u + "): the column is listed twice",
                                "FIX: list each column once in USING (...).", pos(loc));
            {
              std::vector<const StarColumn*> sides;
              for (const auto* side : {&left, &right})
                for (const auto& c : *side)
                  if (same(c.name, u)) sides.push_back(&c);
              if (auto s = time_using_on_sqlite(u, sides, level, loc); !s) return s;
            }
            StarColumn m{u, {}};
            for (const auto* side : {&left, &right})
              for (const auto& c : *side)
                if (same(c.name, u)) m.sources.insert(m.sources.end(), c.sources.begin(), c.sources.end());
            merged.push_back(std::move(m));
            for (std::size_t i = before; i < level.relations.size(); ++i) level.relations[i].using_columns.push_back(u);
          }
          for (auto& c : merged) star.push_back(std::move(c));
          for (auto* side : {&left, &right})
            for (auto& c : *side)
              if (!named(c)) star.push_back(std::move(c));
          if (n.on) {
            ExprContext ctx{&level, ctes, nullptr};
            if (auto s = condition_type(**n.on, ctx, "JOIN/ON"); !s) return s;
            const FilterConditions filter(*this, **n.on);
            if (auto s = expr(**n.on, ctx); !s) return s;
            // Typed again once translated, as the re-check will (a computed interval; s21e).
            if (auto s = condition_type(**n.on, ctx, "JOIN/ON"); !s) return s;
          }
          return {};
        }
      },
      item.node);
}

}  // namespace qg::admit::detail
