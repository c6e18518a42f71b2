#pragma once
// Shared by the renderer tests: engine checks (every rendered string must parse
// with libpg_query or prepare in SQLite) and terse tree builders.
#include <gtest/gtest.h>
#include <pg_query.h>
#include <sqlite3.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "admission/render/render.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::render::test_support {

using ast::Expr;
using ast::FromItem;
using ast::Query;

// ---------- engine checks ----------

inline void expect_pg_parses(const std::string& sql) {
  PgQueryParseResult r = pg_query_parse(sql.c_str());
  EXPECT_EQ(r.error, nullptr) << sql << "\n  PostgreSQL: " << (r.error ? r.error->message : "");
  if (!r.error) {
    // One statement, nothing smuggled after it.
    const std::string tree = r.parse_tree;
    std::size_t count = 0;
    for (std::size_t at = tree.find("\"stmt\":"); at != std::string::npos; at = tree.find("\"stmt\":", at + 1)) ++count;
    EXPECT_EQ(count, 1u) << sql;
  }
  pg_query_free_parse_result(r);
}

inline sqlite3* sqlite_db() {
  static sqlite3* db = [] {
    sqlite3* d = nullptr;
    sqlite3_open(":memory:", &d);
    // Double-quoted strings off, as the gateway runs SQLite: a quoted name must name something.
    sqlite3_db_config(d, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
    exec::sqlite::register_functions(d);  // the gateway's functions the renderer prints (pg_int8, ...)
    const char* schema =
        "CREATE TABLE t(a, b, c, x, id, name, ts, \"User\", \"select\", \"a\"\"b\");"
        "CREATE TABLE u(a, b, c, x, id, name, ts);"
        "CREATE TABLE s(a, b, c, x, id, name, ts);";
    sqlite3_exec(d, schema, nullptr, nullptr, nullptr);
    return d;
  }();
  return db;
}

inline void expect_sqlite_prepares(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v2(sqlite_db(), sql.c_str(), static_cast<int>(sql.size()), &stmt, &tail);
  EXPECT_EQ(rc, SQLITE_OK) << sql << "\n  SQLite: " << sqlite3_errmsg(sqlite_db());
  if (rc == SQLITE_OK) {
    EXPECT_EQ(std::string(tail), "") << "more than one statement: " << sql;
  }
  sqlite3_finalize(stmt);
}

// ---------- rendering helpers (each checks the engine accepts the text) ----------

inline std::string pg(const Query& q) {
  auto r = render(q, Dialect::Postgres);
  if (!r) return "<error: " + r.error().message + ">";
  expect_pg_parses(*r);
  return *r;
}

inline std::string lite(const Query& q) {
  auto r = render(q, Dialect::Sqlite);
  if (!r) return "<error: " + r.error().message + ">";
  expect_sqlite_prepares(*r);
  return *r;
}

inline std::string pg(const Expr& e) {
  auto r = render_expr(e, Dialect::Postgres);
  if (!r) return "<error: " + r.error().message + ">";
  expect_pg_parses("SELECT " + *r + " FROM t");
  return *r;
}

inline std::string lite(const Expr& e) {
  auto r = render_expr(e, Dialect::Sqlite);
  if (!r) return "<error: " + r.error().message + ">";
  expect_sqlite_prepares("SELECT " + *r + " FROM t");
  return *r;
}

template <typename Node>
inline std::string error_of(const Node& node, Dialect d) {
  Result<std::string> r = [&] {
    if constexpr (std::is_same_v<Node, Query>) {
      return render(node, d);
    } else {
      return render_expr(node, d);
    }
  }();
  if (r) return "<rendered: " + *r + ">";
  EXPECT_EQ(r.error().code, ErrorCode::Internal);
  return r.error().message;
}

// ---------- tree builders ----------

inline Expr col(std::string t, std::string c) {
  return ast::make_expr(ast::ColumnRef{std::move(t), std::move(c), false});
}
inline Expr col(std::string c) {
  return col("", std::move(c));
}
inline Expr star(std::string t = "") {
  return ast::make_expr(ast::ColumnRef{std::move(t), "", true});
}
inline Expr lit(ast::LiteralKind k, std::string text) {
  return ast::make_expr(ast::Literal{k, std::move(text)});
}
inline Expr num(std::string text) {
  const bool whole = text.find_first_not_of("-0123456789") == std::string::npos;
  return lit(whole ? ast::LiteralKind::Integer : ast::LiteralKind::Numeric, std::move(text));
}
inline Expr str(std::string text) {
  return lit(ast::LiteralKind::String, std::move(text));
}
inline Expr boolean(bool v) {
  return lit(ast::LiteralKind::Boolean, v ? "true" : "false");
}
inline Expr null() {
  return lit(ast::LiteralKind::Null, "");
}
inline Expr op(std::string o, Expr l, Expr r) {
  return ast::make_expr(ast::Operator{std::move(o), std::move(l), std::move(r)});
}
inline Expr prefix(std::string o, Expr r) {
  return ast::make_expr(ast::Operator{std::move(o), std::nullopt, std::move(r)});
}
inline Expr boolop(ast::BoolOpKind k, std::vector<Expr> args) {
  return ast::make_expr(ast::BoolOp{k, std::move(args)});
}
inline Expr and_(std::vector<Expr> args) {
  return boolop(ast::BoolOpKind::And, std::move(args));
}
inline Expr or_(std::vector<Expr> args) {
  return boolop(ast::BoolOpKind::Or, std::move(args));
}
inline Expr not_(Expr e) {
  return boolop(ast::BoolOpKind::Not, {std::move(e)});
}
inline Expr eq(Expr l, Expr r) {
  return op("=", std::move(l), std::move(r));
}
inline ast::FuncCall call(std::string name, std::vector<Expr> args = {}) {
  ast::FuncCall f;
  f.name = std::move(name);
  f.args = std::move(args);
  return f;
}
inline Expr fn(std::string name, std::vector<Expr> args = {}) {
  return ast::make_expr(call(std::move(name), std::move(args)));
}
inline ast::SortItem sort(Expr e, ast::SortDirection d = ast::SortDirection::Default,
                          ast::NullsOrder n = ast::NullsOrder::Default) {
  return ast::SortItem{std::move(e), d, n};
}
inline ast::TypeName type(std::string name, std::vector<std::int64_t> mods = {}) {
  return ast::TypeName{std::move(name), std::move(mods)};
}
inline Expr cast(Expr e, ast::TypeName t) {
  return ast::make_expr(ast::Cast{std::move(e), std::move(t)});
}

inline std::optional<ast::Alias> alias(std::string name, std::vector<std::string> cols = {}) {
  if (name.empty()) return std::nullopt;
  return ast::Alias{std::move(name), std::move(cols)};
}
inline FromItem table(std::string name, std::string as = "", std::vector<std::string> cols = {}) {
  return FromItem{ast::TableRef{.name = std::move(name), .alias = alias(std::move(as), std::move(cols))}};
}
inline FromItem join(ast::JoinKind k, FromItem l, FromItem r, std::optional<Expr> on = std::nullopt,
                     std::vector<std::string> using_cols = {}) {
  ast::Join j{k, std::move(l), std::move(r), std::nullopt, std::move(using_cols)};
  if (on) j.on = std::move(*on);
  return FromItem{std::move(j)};
}
inline FromItem derived(Query q, std::string as, std::vector<std::string> cols = {}, bool lateral = false) {
  return FromItem{ast::DerivedTable{std::move(q), alias(std::move(as), std::move(cols)), lateral}};
}

inline ast::SelectItem item(Expr e, std::string as = "") {
  return ast::SelectItem{std::move(e), std::move(as)};
}
inline ast::Select select(std::vector<Expr> exprs, std::vector<FromItem> from = {}) {
  ast::Select s;
  for (auto& e : exprs) s.items.push_back(item(std::move(e)));
  s.from = std::move(from);
  return s;
}
inline Query query(decltype(Query::body) body) {
  Query q;
  q.body = std::move(body);
  return q;
}
// SELECT <exprs> FROM <table>
inline Query select_from(std::vector<Expr> exprs, std::string from = "t") {
  return query(select(std::move(exprs), {table(std::move(from))}));
}
inline Query set_op(ast::SetOpKind k, Query l, Query r, bool all = false) {
  return query(ast::SetOp{k, all, std::move(l), std::move(r)});
}
inline Query values(std::vector<std::vector<Expr>> rows) {
  return query(ast::Values{std::move(rows)});
}
inline ast::Cte cte(std::string name, std::vector<std::string> columns, Query q) {
  ast::Cte c;
  c.name = std::move(name);
  c.columns = std::move(columns);
  c.query = std::move(q);
  return c;
}
inline ast::WindowSpec window(std::string base, std::vector<Expr> partition_by, std::vector<ast::SortItem> order_by) {
  ast::WindowSpec w;
  w.base_name = std::move(base);
  w.partition_by = std::move(partition_by);
  w.order_by = std::move(order_by);
  return w;
}

}  // namespace qg::render::test_support
