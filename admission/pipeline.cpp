#include "admission/pipeline.hpp"

#include <algorithm>
#include <iostream>
#include <utility>

#include <simdjson.h>

#include "admission/ast/tree_walk.hpp"
#include "admission/convert/convert.hpp"
#include "admission/params/params.hpp"
#include "admission/parse/parser.hpp"
#include "admission/parse/sqlite_spellings.hpp"
#include "admission/render/render.hpp"
#include "admission/rewrite/row_filters.hpp"

namespace qg {

std::vector<std::string> number_params(ast::Query& query) {
  std::vector<std::string> names;
  ast::walk_tree(
      query,
      [&](ast::Expr& e) {
        auto* p = std::get_if<ast::Param>(&e.node);
        if (!p) return;
        auto it = std::find(names.begin(), names.end(), p->name);
        if (it == names.end()) it = names.insert(names.end(), p->name);
        p->index = static_cast<int>(it - names.begin()) + 1;
      },
      [](ast::FromItem&) {});
  return names;
}

namespace {

// A refusal's edit applied to the text admission read: the statement the FIX describes (not yet checked).
void spell_out_edit(Error& e, std::string_view sql) {
  const std::optional<TextEdit> edit = std::move(e.edit);
  e.edit.reset();
  for (auto& p : e.problems) p.edit.reset();
  if (!edit || edit->begin < 0 || edit->end < edit->begin || static_cast<std::size_t>(edit->end) > sql.size()) return;
  std::string text(sql.substr(0, static_cast<std::size_t>(edit->begin)));
  text += edit->text;
  text += sql.substr(static_cast<std::size_t>(edit->end));
  e.suggested_sql = std::move(text);
}

Result<AdmittedStatement> admit_once(std::string_view caller_sql, const catalog::Catalog& catalog,
                                     const config::Limits& limits, std::optional<std::int64_t> requested_limit,
                                     const AdmitOptions& options);

// The SQLite rendering can nest deeper than the text the caller wrote: integer
// arithmetic passes through pg_int8(...), the substr rule adds max(...). It is
// measured as the converter measures every statement (kMaxDepth), the way
// admitting the rendering again would measure it: what is admitted here is
// admitted again and prints the same (the rendering is a fixed point), and a
// caller cannot have a statement run that nests past the limit. Wrappers are
// counted like any call: exempting them would let pg_int8(pg_int8(...)) nest
// without bound.
Status check_sqlite_depth(const std::string& rendered, const std::vector<std::string>& param_names) {
  auto json = parse::parse_to_json(rendered);
  if (!json) return {};  // the rendering's own checks are the executor's (prepare)
  auto tree = convert::convert_statement(*json, rendered, param_names.empty() ? nullptr : &param_names);
  if (tree || tree.error().code != ErrorCode::ValidationTooDeep) return {};
  return make_error(ErrorCode::ValidationTooDeep,
                    "the statement nests more than " + std::to_string(convert::kMaxDepth) +
                        " levels once translated for SQLite (integer arithmetic is checked for overflow there, "
                        "one level more)",
                    "FIX: flatten the expression: add a long chain of + in parts (e.g. compute partial sums in a "
                    "derived table, then add those), and use IN (...) or CTEs instead of deep nesting.");
}

}  // namespace

// A refusal whose FIX is a mechanical change of the text carries the statement with that change as
// `suggested_sql`, but only once that statement is admitted: each refusal on the way may add its own
// change (a statement with three double-quoted texts takes three), at most kSteps of them. A FIX the
// gateway cannot state as a statement, or whose statement is refused, has none.
Result<AdmittedStatement> admit_statement(std::string_view caller_sql, const catalog::Catalog& catalog,
                                          const config::Limits& limits, std::optional<std::int64_t> requested_limit,
                                          const AdmitOptions& options) {
  constexpr int kSteps = 8;
  auto first = admit_once(caller_sql, catalog, limits, requested_limit, options);
  if (first || first.error().suggested_sql.empty() || options.origin == Origin::Configuration) return first;
  Error refused = std::move(first).error();
  std::string text = std::move(refused.suggested_sql);
  refused.suggested_sql.clear();
  for (int step = 0; step < kSteps && !text.empty() && text != caller_sql; ++step) {
    auto again = admit_once(text, catalog, limits, requested_limit, options);
    if (again) {
      refused.suggested_sql = std::move(text);
      break;
    }
    text = std::move(again).error().suggested_sql;
  }
  return refused;
}

namespace {

Result<AdmittedStatement> admit_once(std::string_view caller_sql, const catalog::Catalog& catalog,
                                     const config::Limits& limits, std::optional<std::int64_t> requested_limit,
                                     const AdmitOptions& options) {
  const bool configured = options.origin == Origin::Configuration;
  std::string positional_text;
  std::vector<std::string> positional_names;
  std::string_view sql = caller_sql;
  if (configured) {
    auto positional = params::to_positional(caller_sql);
    if (!positional) return std::move(positional).error();
    positional_text = std::move(positional->text);
    positional_names = std::move(positional->names);
    sql = positional_text;
  }
  const std::vector<admit::ParamSpec>* specs = configured ? &options.params : nullptr;
  if (sql.size() > static_cast<std::size_t>(limits.max_sql_bytes))
    return make_error(ErrorCode::LimitSqlTooLong,
                      "the SQL text is " + std::to_string(sql.size()) + " bytes; the limit is " +
                          std::to_string(limits.max_sql_bytes),
                      "FIX: shorten the statement: select fewer columns, move long IN lists into a join or a range "
                      "condition, and drop comments.",
                      limits.max_sql_bytes);  // the first byte past the limit

  // The grammar and the JSON reader both need UTF-8; say so instead of failing deeper.
  // The grammar reads a C string: text after a NUL byte would be silently ignored.
  if (sql.find('\0') != std::string_view::npos)
    return make_error(ErrorCode::ParseSyntax, "the SQL text contains a NUL byte",
                      "FIX: send the statement without NUL characters.", static_cast<int>(sql.find('\0')));
  if (!simdjson::validate_utf8(sql.data(), sql.size()))
    return make_error(
        ErrorCode::ParseSyntax, "the SQL text is not valid UTF-8",
        "FIX: send the statement as UTF-8 text; write non-ASCII characters as they are, not as raw bytes.");
  auto json = parse::parse_to_json(sql);
  // SQLite spellings with an exact meaning (LIMIT a, b; GLOB with a literal pattern) are rewritten in
  // the text and read again; the grammar's own refusal stands when that does not parse either.
  std::vector<std::string> text_rewrites;
  std::string rewritten_text;
  if (!json) {
    if (auto text = parse::rewrite_sqlite_spellings(sql, text_rewrites)) {
      auto again = parse::parse_to_json(*text);
      if (again) {
        rewritten_text = std::move(*text);
        sql = rewritten_text;
        json = std::move(again);
      }
    }
    if (!json) return std::move(json).error();
  }
  auto tree = convert::convert_statement(*json, sql, configured ? &positional_names : nullptr);
  if (!tree) return std::move(tree).error();
  ast::Query query = std::move(tree).value();
  // Configured SQL is the operator's: its column references may read columns
  // hidden from callers (what it returns is the operator's choice too).
  if (configured)
    ast::walk_tree(
        query,
        [](ast::Expr& e) {
          if (auto* ref = std::get_if<ast::ColumnRef>(&e.node)) ref->configured = true;
        },
        [](ast::FromItem&) {});

  auto admission = admit::admit(query, catalog, sql, limits.max_expression_growth, options.hidden, specs);
  if (!admission) {
    Error refused = std::move(admission).error();
    spell_out_edit(refused, sql);
    return refused;
  }

  const std::int64_t cap = std::clamp<std::int64_t>(requested_limit.value_or(limits.default_rows), 1, limits.max_rows);
  AdmittedStatement out;
  out.limit = rewrite::inject_limit(query, cap);

  // Re-check: the rewritten tree must admit again, untouched, before it is printed.
  auto recheck = admit::admit(query, catalog, {}, limits.max_expression_growth, options.hidden, specs);
  if (!recheck)
    return make_error(ErrorCode::Internal,
                      "a rewrite produced a tree that admission refuses: " + recheck.error().message);
  if (!recheck->rewrites.empty())
    return make_error(ErrorCode::Internal, "rewrites are not idempotent: " + recheck->rewrites.front());

  // Fail closed: every reference to a filtered table carries its row filter.
  if (auto verified = rewrite::verify_row_filters(query, catalog); !verified) {
    std::cerr << "querygate: " << verified.error().message << "\n";
    return std::move(verified).error();
  }
  // The statement as shown to the caller: every filtered table as named.
  bool filtered = false;
  ast::walk_tree(
      std::as_const(query), [](const ast::Expr&) {},
      [&](const ast::FromItem& f) {
        if (const auto* t = std::get_if<ast::TableRef>(&f.node); t && t->row_filter) filtered = true;
      });
  if (filtered) {
    ast::Query shown = query;
    ast::walk_tree(
        shown, [](ast::Expr&) {},
        [](ast::FromItem& f) {
          if (auto* t = std::get_if<ast::TableRef>(&f.node)) t->row_filter.reset();
        });
    number_params(shown);
    auto text = render::render(shown, catalog.dialect);
    if (!text) return std::move(text).error();
    out.shown_sql = std::move(text).value();
  }
  const bool fenced = rewrite::fence_row_filters(query);
  out.param_names = number_params(query);
  auto rendered = render::render(query, catalog.dialect);
  if (!rendered) return std::move(rendered).error();
  out.sql = std::move(rendered).value();
  if (catalog.dialect == Dialect::Sqlite)
    if (auto deep = check_sqlite_depth(out.sql, out.param_names); !deep) return std::move(deep).error();
  if (!filtered) out.shown_sql = out.sql;
  out.admission = std::move(admission).value();
  out.rewrites = text_rewrites;
  out.rewrites.insert(out.rewrites.end(), out.admission.rewrites.begin(), out.admission.rewrites.end());
  if (fenced) out.rewrites.emplace_back("row-filter-fence");
  if (out.limit.injected || out.limit.clamped) out.rewrites.emplace_back("limit-injection");
  return out;
}

}  // namespace

}  // namespace qg
