// The SQL renderer: exact text per dialect for hand-built trees. Every string
// rendered for PostgreSQL is also parsed with libpg_query (PostgreSQL's own
// grammar), and every SQLite string is prepared in an in-memory database that
// holds the referenced tables, so the expectations cannot drift from what the
// engines accept.
#include "admission/render/render.hpp"

#include <gtest/gtest.h>
#include <pg_query.h>
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qg::render {
namespace {

using ast::Expr;
using ast::FromItem;
using ast::Query;

// ---------- engine checks ----------

void expect_pg_parses(const std::string& sql) {
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

sqlite3* sqlite_db() {
  static sqlite3* db = [] {
    sqlite3* d = nullptr;
    sqlite3_open(":memory:", &d);
    // Double-quoted strings off, as the gateway runs SQLite: a quoted name must name something.
    sqlite3_db_config(d, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
    const char* schema =
        "CREATE TABLE t(a, b, c, x, id, name, ts, \"User\", \"select\", \"a\"\"b\");"
        "CREATE TABLE u(a, b, c, x, id, name, ts);"
        "CREATE TABLE s(a, b, c, x, id, name, ts);";
    sqlite3_exec(d, schema, nullptr, nullptr, nullptr);
    return d;
  }();
  return db;
}

void expect_sqlite_prepares(const std::string& sql) {
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

std::string pg(const Query& q) {
  auto r = render(q, Dialect::Postgres);
  if (!r) return "<error: " + r.error().message + ">";
  expect_pg_parses(*r);
  return *r;
}

std::string lite(const Query& q) {
  auto r = render(q, Dialect::Sqlite);
  if (!r) return "<error: " + r.error().message + ">";
  expect_sqlite_prepares(*r);
  return *r;
}

std::string pg(const Expr& e) {
  auto r = render_expr(e, Dialect::Postgres);
  if (!r) return "<error: " + r.error().message + ">";
  expect_pg_parses("SELECT " + *r + " FROM t");
  return *r;
}

std::string lite(const Expr& e) {
  auto r = render_expr(e, Dialect::Sqlite);
  if (!r) return "<error: " + r.error().message + ">";
  expect_sqlite_prepares("SELECT " + *r + " FROM t");
  return *r;
}

template <typename Node>
std::string error_of(const Node& node, Dialect d) {
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

Expr col(std::string t, std::string c) {
  return ast::make_expr(ast::ColumnRef{std::move(t), std::move(c), false});
}
Expr col(std::string c) {
  return col("", std::move(c));
}
Expr star(std::string t = "") {
  return ast::make_expr(ast::ColumnRef{std::move(t), "", true});
}
Expr lit(ast::LiteralKind k, std::string text) {
  return ast::make_expr(ast::Literal{k, std::move(text)});
}
Expr num(std::string text) {
  const bool whole = text.find_first_not_of("-0123456789") == std::string::npos;
  return lit(whole ? ast::LiteralKind::Integer : ast::LiteralKind::Numeric, std::move(text));
}
Expr str(std::string text) {
  return lit(ast::LiteralKind::String, std::move(text));
}
Expr boolean(bool v) {
  return lit(ast::LiteralKind::Boolean, v ? "true" : "false");
}
Expr null() {
  return lit(ast::LiteralKind::Null, "");
}
Expr op(std::string o, Expr l, Expr r) {
  return ast::make_expr(ast::Operator{std::move(o), std::move(l), std::move(r)});
}
Expr prefix(std::string o, Expr r) {
  return ast::make_expr(ast::Operator{std::move(o), std::nullopt, std::move(r)});
}
Expr boolop(ast::BoolOpKind k, std::vector<Expr> args) {
  return ast::make_expr(ast::BoolOp{k, std::move(args)});
}
Expr and_(std::vector<Expr> args) {
  return boolop(ast::BoolOpKind::And, std::move(args));
}
Expr or_(std::vector<Expr> args) {
  return boolop(ast::BoolOpKind::Or, std::move(args));
}
Expr not_(Expr e) {
  return boolop(ast::BoolOpKind::Not, {std::move(e)});
}
Expr eq(Expr l, Expr r) {
  return op("=", std::move(l), std::move(r));
}
ast::FuncCall call(std::string name, std::vector<Expr> args = {}) {
  ast::FuncCall f;
  f.name = std::move(name);
  f.args = std::move(args);
  return f;
}
Expr fn(std::string name, std::vector<Expr> args = {}) {
  return ast::make_expr(call(std::move(name), std::move(args)));
}
ast::SortItem sort(Expr e, ast::SortDirection d = ast::SortDirection::Default,
                   ast::NullsOrder n = ast::NullsOrder::Default) {
  return ast::SortItem{std::move(e), d, n};
}
ast::TypeName type(std::string name, std::vector<std::int64_t> mods = {}) {
  return ast::TypeName{std::move(name), std::move(mods)};
}
Expr cast(Expr e, ast::TypeName t) {
  return ast::make_expr(ast::Cast{std::move(e), std::move(t)});
}

std::optional<ast::Alias> alias(std::string name, std::vector<std::string> cols = {}) {
  if (name.empty()) return std::nullopt;
  return ast::Alias{std::move(name), std::move(cols)};
}
FromItem table(std::string name, std::string as = "", std::vector<std::string> cols = {}) {
  return FromItem{ast::TableRef{.name = std::move(name), .alias = alias(std::move(as), std::move(cols))}};
}
FromItem join(ast::JoinKind k, FromItem l, FromItem r, std::optional<Expr> on = std::nullopt,
              std::vector<std::string> using_cols = {}) {
  ast::Join j{k, std::move(l), std::move(r), std::nullopt, std::move(using_cols)};
  if (on) j.on = std::move(*on);
  return FromItem{std::move(j)};
}
FromItem derived(Query q, std::string as, std::vector<std::string> cols = {}, bool lateral = false) {
  return FromItem{ast::DerivedTable{std::move(q), alias(std::move(as), std::move(cols)), lateral}};
}

ast::SelectItem item(Expr e, std::string as = "") {
  return ast::SelectItem{std::move(e), std::move(as)};
}
ast::Select select(std::vector<Expr> exprs, std::vector<FromItem> from = {}) {
  ast::Select s;
  for (auto& e : exprs) s.items.push_back(item(std::move(e)));
  s.from = std::move(from);
  return s;
}
Query query(decltype(Query::body) body) {
  Query q;
  q.body = std::move(body);
  return q;
}
// SELECT <exprs> FROM <table>
Query select_from(std::vector<Expr> exprs, std::string from = "t") {
  return query(select(std::move(exprs), {table(std::move(from))}));
}
Query set_op(ast::SetOpKind k, Query l, Query r, bool all = false) {
  return query(ast::SetOp{k, all, std::move(l), std::move(r)});
}
Query values(std::vector<std::vector<Expr>> rows) {
  return query(ast::Values{std::move(rows)});
}
ast::Cte cte(std::string name, std::vector<std::string> columns, Query q) {
  ast::Cte c;
  c.name = std::move(name);
  c.columns = std::move(columns);
  c.query = std::move(q);
  return c;
}
ast::WindowSpec window(std::string base, std::vector<Expr> partition_by, std::vector<ast::SortItem> order_by) {
  ast::WindowSpec w;
  w.base_name = std::move(base);
  w.partition_by = std::move(partition_by);
  w.order_by = std::move(order_by);
  return w;
}

// ---------- identifiers and literals ----------

TEST(RenderTest, IdentifiersAreBareOnlyWhenPlainLowerCaseAndNotKeywords) {
  for (Dialect d : {Dialect::Postgres, Dialect::Sqlite}) {
    EXPECT_EQ(quote_identifier("users", d), "users");
    EXPECT_EQ(quote_identifier("_x9", d), "_x9");
    EXPECT_EQ(quote_identifier("User", d), "\"User\"");
    EXPECT_EQ(quote_identifier("select", d), "\"select\"");
    EXPECT_EQ(quote_identifier("a\"b", d), "\"a\"\"b\"");
    EXPECT_EQ(quote_identifier("9lives", d), "\"9lives\"");
    EXPECT_EQ(quote_identifier("has space", d), "\"has space\"");
    EXPECT_EQ(quote_identifier("café", d), "\"café\"");
    for (const char* kw : {"user", "order", "limit", "current_date", "window", "groups", "filter", "left", "replace",
                           "true", "values", "time", "key", "zone"})
      EXPECT_EQ(quote_identifier(kw, d), "\"" + std::string(kw) + "\"") << kw;
  }
}

TEST(RenderTest, QuotedNamesReachTheEngines) {
  Query q = query(select({col("User"), col("select"), col("a\"b"), col("t", "id")}, {table("t")}));
  EXPECT_EQ(pg(q), "SELECT \"User\", \"select\", \"a\"\"b\", t.id FROM t");
  EXPECT_EQ(lite(q), "SELECT \"User\", \"select\", \"a\"\"b\", t.id FROM t");
  ast::Select s = select({}, {table("t", "T")});
  s.items = {item(col("a"), "Total"), item(col("b"), "from")};
  Query aliased = query(s);
  EXPECT_EQ(pg(aliased), "SELECT a AS \"Total\", b AS \"from\" FROM t AS \"T\"");
  EXPECT_EQ(lite(aliased), "SELECT a AS \"Total\", b AS \"from\" FROM t AS \"T\"");
}

TEST(RenderTest, EmptyOrNulNamesAreDefects) {
  EXPECT_EQ(error_of(col(""), Dialect::Postgres), "cannot print an empty name for postgres");
  EXPECT_EQ(error_of(col(std::string("a\0b", 3)), Dialect::Sqlite),
            "cannot print a name containing a NUL byte for sqlite");
}

TEST(RenderTest, StringsDoubleTheirQuotes) {
  EXPECT_EQ(quote_string("it's"), "'it''s'");
  EXPECT_EQ(quote_string(""), "''");
  EXPECT_EQ(pg(str("it's")), "'it''s'");
  EXPECT_EQ(lite(str("a\\b -- not a comment")), "'a\\b -- not a comment'");
  EXPECT_EQ(error_of(str(std::string("a\0b", 3)), Dialect::Postgres),
            "cannot print a string containing a NUL byte for postgres");
}

TEST(RenderTest, LiteralsPrintAsTheirText) {
  for (Dialect d : {Dialect::Postgres, Dialect::Sqlite}) {
    auto r = [&](const Expr& e) { return d == Dialect::Postgres ? pg(e) : lite(e); };
    EXPECT_EQ(r(num("42")), "42");
    EXPECT_EQ(r(num("-7")), "-7");
    EXPECT_EQ(r(num("3.25")), "3.25");
    EXPECT_EQ(r(num(".5")), ".5");
    EXPECT_EQ(r(num("1.5e-3")), "1.5e-3");
    EXPECT_EQ(r(boolean(true)), "TRUE");
    EXPECT_EQ(r(boolean(false)), "FALSE");
    EXPECT_EQ(r(null()), "NULL");
  }
  // Number text goes in verbatim, so anything but a number is a defect.
  EXPECT_EQ(error_of(lit(ast::LiteralKind::Integer, "1; DROP TABLE t"), Dialect::Postgres),
            "cannot print an integer literal that is not a whole number for postgres");
  EXPECT_EQ(error_of(lit(ast::LiteralKind::Numeric, "1e"), Dialect::Sqlite),
            "cannot print a numeric literal that is not a number for sqlite");
  EXPECT_EQ(error_of(lit(ast::LiteralKind::Boolean, "yes"), Dialect::Sqlite),
            "cannot print a boolean literal other than true or false for sqlite");
}

// ---------- operators keep the tree's shape ----------

TEST(RenderTest, NestedArithmeticKeepsTreeShape) {
  Expr left_nested = op("*", op("+", col("a"), col("b")), col("c"));
  Expr right_nested = op("+", col("a"), op("*", col("b"), col("c")));
  EXPECT_EQ(pg(left_nested), "(a + b) * c");
  EXPECT_EQ(lite(left_nested), "(a + b) * c");
  EXPECT_EQ(pg(right_nested), "a + (b * c)");
  EXPECT_EQ(lite(right_nested), "a + (b * c)");
  // `||` ranks differently in the two grammars; parentheses make that moot.
  Expr concat = eq(op("||", col("name"), str("x")), str("ax"));
  EXPECT_EQ(pg(concat), "(name || 'x') = 'ax'");
  EXPECT_EQ(lite(concat), "(name || 'x') = 'ax'");
}

TEST(RenderTest, PrefixOperatorsAreFollowedByASpace) {
  Expr minus_negative = prefix("-", num("-1"));
  EXPECT_EQ(pg(minus_negative), "- -1");
  EXPECT_EQ(lite(minus_negative), "- -1");
  EXPECT_EQ(pg(op("-", col("a"), num("-1"))), "a - -1");
  EXPECT_EQ(lite(prefix("-", prefix("-", col("a")))), "- (- a)");
  EXPECT_EQ(pg(prefix("-", op("+", col("a"), col("b")))), "- (a + b)");
}

TEST(RenderTest, OperatorTextMustBeOperatorCharacters) {
  EXPECT_EQ(error_of(op("--", col("a"), col("b")), Dialect::Postgres),
            "cannot print an operator that is not made of operator characters for postgres");
  EXPECT_EQ(error_of(op("/*", col("a"), col("b")), Dialect::Sqlite),
            "cannot print an operator that is not made of operator characters for sqlite");
  EXPECT_FALSE(render_expr(op("= 1 OR", col("a"), col("b")), Dialect::Postgres).has_value());
}

TEST(RenderTest, BooleanOperatorsParenthesiseCompositeOperands) {
  Expr e = and_({eq(col("a"), num("1")), or_({eq(col("b"), num("2")), not_(eq(col("c"), num("3")))}), col("x")});
  EXPECT_EQ(pg(e), "(a = 1) AND ((b = 2) OR (NOT (c = 3))) AND x");
  EXPECT_EQ(lite(e), "(a = 1) AND ((b = 2) OR (NOT (c = 3))) AND x");
  EXPECT_EQ(error_of(and_({col("a")}), Dialect::Postgres),
            "cannot print AND/OR with fewer than two operands for postgres");
}

TEST(RenderTest, NullAndTruthTests) {
  Expr is_null = ast::make_expr(ast::NullTest{op("+", col("a"), num("1")), false});
  Expr not_null = ast::make_expr(ast::NullTest{col("a"), true});
  EXPECT_EQ(pg(is_null), "(a + 1) IS NULL");
  EXPECT_EQ(lite(not_null), "a IS NOT NULL");
  Expr is_not_true = ast::make_expr(ast::BoolTest{eq(col("a"), num("1")), ast::BoolTestKind::IsNotTrue});
  EXPECT_EQ(pg(is_not_true), "(a = 1) IS NOT TRUE");
  EXPECT_EQ(lite(is_not_true), "(a = 1) IS NOT TRUE");
  // SQLite has no UNKNOWN: for a truth value it is NULL.
  Expr unknown = ast::make_expr(ast::BoolTest{col("x"), ast::BoolTestKind::IsUnknown});
  EXPECT_EQ(pg(unknown), "x IS UNKNOWN");
  EXPECT_EQ(lite(unknown), "x IS NULL");
}

TEST(RenderTest, IsNotDistinctFrom) {
  Expr e = ast::make_expr(ast::DistinctFrom{col("a"), op("+", col("b"), num("1")), true});
  EXPECT_EQ(pg(e), "a IS NOT DISTINCT FROM (b + 1)");
  EXPECT_EQ(lite(e), "a IS NOT DISTINCT FROM (b + 1)");
  Expr distinct = ast::make_expr(ast::DistinctFrom{col("a"), col("b"), false});
  EXPECT_EQ(lite(distinct), "a IS DISTINCT FROM b");
}

// ---------- predicates ----------

TEST(RenderTest, InList) {
  Expr in = ast::make_expr(ast::InList{col("a"), {num("1"), op("+", num("2"), num("3")), str("x")}, false});
  EXPECT_EQ(pg(in), "a IN (1, 2 + 3, 'x')");
  EXPECT_EQ(lite(in), "a IN (1, 2 + 3, 'x')");
  Expr not_in = ast::make_expr(ast::InList{op("||", col("a"), col("b")), {str("x")}, true});
  EXPECT_EQ(pg(not_in), "(a || b) NOT IN ('x')");
  EXPECT_EQ(error_of(ast::make_expr(ast::InList{col("a"), {}, false}), Dialect::Sqlite),
            "cannot print IN with an empty list for sqlite");
}

TEST(RenderTest, Between) {
  Expr between = ast::make_expr(ast::Between{col("a"), op("-", col("b"), num("1")), col("c"), true, false});
  EXPECT_EQ(pg(between), "a NOT BETWEEN (b - 1) AND c");
  EXPECT_EQ(lite(between), "a NOT BETWEEN (b - 1) AND c");
  Expr symmetric = ast::make_expr(ast::Between{col("a"), num("10"), num("1"), false, true});
  EXPECT_EQ(pg(symmetric), "a BETWEEN SYMMETRIC 10 AND 1");
  EXPECT_EQ(error_of(symmetric, Dialect::Sqlite), "cannot print BETWEEN SYMMETRIC for sqlite");
}

TEST(RenderTest, LikeFamily) {
  Expr like = ast::make_expr(ast::Like{ast::LikeKind::Like, col("name"), str("a!%%"), str("!"), true});
  EXPECT_EQ(pg(like), "name NOT LIKE 'a!%%' ESCAPE '!'");
  EXPECT_EQ(lite(like), "name NOT LIKE 'a!%%' ESCAPE '!'");
  Expr ilike =
      ast::make_expr(ast::Like{ast::LikeKind::ILike, col("name"), op("||", str("a"), str("%")), std::nullopt, false});
  EXPECT_EQ(pg(ilike), "name ILIKE ('a' || '%')");
  EXPECT_EQ(error_of(ilike, Dialect::Sqlite), "cannot print ILIKE for sqlite");
  Expr similar = ast::make_expr(ast::Like{ast::LikeKind::Similar, col("name"), str("(a|b)%"), std::nullopt, false});
  EXPECT_EQ(pg(similar), "name SIMILAR TO '(a|b)%'");
  EXPECT_EQ(error_of(similar, Dialect::Sqlite), "cannot print SIMILAR TO for sqlite");
}

TEST(RenderTest, CaseCoalesceNullIfGreatest) {
  Expr searched = ast::make_expr(ast::Case{
      std::nullopt,
      {ast::CaseWhen{eq(col("a"), num("1")), str("one")}, ast::CaseWhen{op(">", col("a"), num("1")), str("many")}},
      str("none")});
  EXPECT_EQ(pg(searched), "CASE WHEN a = 1 THEN 'one' WHEN a > 1 THEN 'many' ELSE 'none' END");
  EXPECT_EQ(lite(searched), "CASE WHEN a = 1 THEN 'one' WHEN a > 1 THEN 'many' ELSE 'none' END");
  Expr simple = ast::make_expr(ast::Case{col("a"), {ast::CaseWhen{num("1"), str("one")}}, std::nullopt});
  EXPECT_EQ(lite(op("||", simple, str("!"))), "CASE a WHEN 1 THEN 'one' END || '!'");
  Expr coalesce = ast::make_expr(ast::Coalesce{{col("a"), col("b"), num("0")}});
  EXPECT_EQ(lite(coalesce), "COALESCE(a, b, 0)");
  Expr nullif = ast::make_expr(ast::NullIf{col("a"), num("0")});
  EXPECT_EQ(pg(op("/", col("b"), nullif)), "b / NULLIF(a, 0)");
  Expr greatest = ast::make_expr(ast::MinMax{true, {col("a"), col("b")}});
  EXPECT_EQ(pg(greatest), "GREATEST(a, b)");
  EXPECT_EQ(error_of(greatest, Dialect::Sqlite), "cannot print GREATEST for sqlite");
  EXPECT_EQ(error_of(ast::make_expr(ast::MinMax{false, {col("a"), col("b")}}), Dialect::Sqlite),
            "cannot print LEAST for sqlite");
}

// ---------- casts and types ----------

TEST(RenderTest, TypeSpellings) {
  struct Row {
    ast::TypeName type;
    std::string postgres;
    std::string sqlite;
  };
  const std::vector<Row> rows{
      {type("int2"), "SMALLINT", "SMALLINT"},
      {type("int4"), "INTEGER", "INTEGER"},
      {type("int8"), "BIGINT", "BIGINT"},
      {type("float4"), "REAL", "REAL"},
      {type("float8"), "DOUBLE PRECISION", "DOUBLE PRECISION"},
      {type("numeric"), "NUMERIC", "NUMERIC"},
      {type("numeric", {10, 2}), "NUMERIC(10, 2)", "NUMERIC(10, 2)"},
      {type("text"), "TEXT", "TEXT"},
      {type("varchar", {20}), "VARCHAR(20)", "VARCHAR(20)"},
      {type("bpchar", {3}), "CHAR(3)", "CHAR(3)"},
      {type("bool"), "BOOLEAN", "BOOLEAN"},
      {type("date"), "DATE", "DATE"},
      {type("timestamp"), "TIMESTAMP", "TIMESTAMP"},
      {type("timestamp", {3}), "TIMESTAMP(3)", "TIMESTAMP(3)"},
      {type("timestamptz"), "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ"},
      {type("timestamptz", {6}), "TIMESTAMP(6) WITH TIME ZONE", "TIMESTAMPTZ(6)"},
      {type("time"), "TIME", "TIME"},
      {type("timetz"), "TIME WITH TIME ZONE", "TIMETZ"},
      {type("interval"), "INTERVAL", "INTERVAL"},
      {type("interval", {32767, 3}), "INTERVAL(3)", "INTERVAL(3)"},
      {type("interval", {7176, 3}), "INTERVAL DAY TO SECOND(3)", "INTERVAL(3)"},
      {type("interval", {6}), "INTERVAL YEAR TO MONTH", "INTERVAL"},
      {type("json"), "JSON", "JSON"},
      {type("jsonb"), "JSONB", "JSONB"},
      {type("uuid"), "UUID", "UUID"},
      {type("bytea"), "BYTEA", "BYTEA"},
      {type("citext"), "citext", "citext"},
      {type("My Type"), "\"My Type\"", "\"My Type\""},
      {type("bpchar"), "bpchar", "bpchar"},  // CHAR alone would re-parse as bpchar(1)
  };
  for (const Row& row : rows) {
    EXPECT_EQ(render_type(row.type, Dialect::Postgres), row.postgres) << row.type.name;
    EXPECT_EQ(render_type(row.type, Dialect::Sqlite), row.sqlite) << row.type.name;
    expect_pg_parses("SELECT CAST(a AS " + row.postgres + ") FROM t");
    expect_sqlite_prepares("SELECT CAST(a AS " + row.sqlite + ") FROM t");
  }
}

TEST(RenderTest, CastsAlwaysUseCastSyntax) {
  Expr e = op("+", cast(col("a"), type("int8")), num("1"));
  EXPECT_EQ(pg(e), "CAST(a AS BIGINT) + 1");
  EXPECT_EQ(lite(e), "CAST(a AS BIGINT) + 1");
  EXPECT_EQ(pg(cast(op("||", col("a"), col("b")), type("numeric", {10, 2}))), "CAST(a || b AS NUMERIC(10, 2))");
}

// ---------- functions and windows ----------

TEST(RenderTest, AggregatesWithStarDistinctAndFilter) {
  ast::FuncCall count_star = call("count");
  count_star.star = true;
  count_star.filter = op(">", col("a"), num("1"));
  EXPECT_EQ(pg(ast::make_expr(count_star)), "count(*) FILTER (WHERE a > 1)");
  EXPECT_EQ(lite(ast::make_expr(count_star)), "count(*) FILTER (WHERE a > 1)");
  ast::FuncCall count_distinct = call("count", {col("x")});
  count_distinct.distinct = true;
  EXPECT_EQ(lite(ast::make_expr(count_distinct)), "count(DISTINCT x)");
  // Function names go through the identifier rule.
  EXPECT_EQ(lite(fn("replace", {col("name"), str("a"), str("b")})), "\"replace\"(name, 'a', 'b')");
  EXPECT_EQ(pg(fn("left", {col("name"), num("2")})), "\"left\"(name, 2)");
  EXPECT_EQ(pg(fn("MyFunc")), "\"MyFunc\"()");
}

TEST(RenderTest, AggregateOrderByIsPostgresOnly) {
  ast::FuncCall agg = call("string_agg", {col("name"), str(",")});
  agg.order_by = {sort(col("b"), ast::SortDirection::Desc)};
  EXPECT_EQ(pg(ast::make_expr(agg)), "string_agg(name, ',' ORDER BY b DESC)");
  agg.name = "group_concat";
  EXPECT_EQ(error_of(ast::make_expr(agg), Dialect::Sqlite),
            "cannot print ORDER BY inside an aggregate's arguments for sqlite");
}

TEST(RenderTest, WithinGroupIsPostgresOnly) {
  ast::FuncCall pct = call("percentile_cont", {num("0.5")});
  pct.within_group = {sort(col("x"))};
  pct.filter = op(">", col("x"), num("0"));
  EXPECT_EQ(pg(ast::make_expr(pct)), "percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 0)");
  EXPECT_EQ(error_of(ast::make_expr(pct), Dialect::Sqlite), "cannot print WITHIN GROUP for sqlite");
}

TEST(RenderTest, WindowWithFrame) {
  ast::FuncCall sum = call("sum", {col("a")});
  ast::WindowSpec w;
  w.partition_by = {col("b")};
  w.order_by = {sort(col("c"), ast::SortDirection::Asc, ast::NullsOrder::Last)};
  w.frame.mode = ast::FrameMode::Rows;
  w.frame.start = ast::FrameBound{ast::FrameBoundKind::Preceding, num("2")};
  w.frame.end = ast::FrameBound{ast::FrameBoundKind::CurrentRow, std::nullopt};
  sum.over = w;
  const std::string expected =
      "sum(a) OVER (PARTITION BY b ORDER BY c ASC NULLS LAST ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)";
  EXPECT_EQ(pg(ast::make_expr(sum)), expected);
  EXPECT_EQ(lite(ast::make_expr(sum)), expected);

  ast::WindowSpec groups;
  groups.order_by = {sort(col("c"))};
  groups.frame.mode = ast::FrameMode::Groups;
  groups.frame.start = ast::FrameBound{ast::FrameBoundKind::UnboundedPreceding, std::nullopt};
  groups.frame.end = ast::FrameBound{ast::FrameBoundKind::Following, op("+", num("1"), num("1"))};
  groups.frame.exclusion = ast::FrameExclusion::Ties;
  ast::FuncCall rank = call("count");
  rank.star = true;
  rank.over = groups;
  const std::string expected_groups =
      "count(*) OVER (ORDER BY c GROUPS BETWEEN UNBOUNDED PRECEDING AND (1 + 1) FOLLOWING EXCLUDE TIES)";
  EXPECT_EQ(pg(ast::make_expr(rank)), expected_groups);
  EXPECT_EQ(lite(ast::make_expr(rank)), expected_groups);

  ast::WindowSpec range;
  range.frame.mode = ast::FrameMode::Range;
  range.frame.start = ast::FrameBound{ast::FrameBoundKind::UnboundedPreceding, std::nullopt};
  ast::FuncCall total = call("sum", {col("a")});
  total.over = range;
  EXPECT_EQ(lite(ast::make_expr(total)), "sum(a) OVER (RANGE UNBOUNDED PRECEDING)");
}

TEST(RenderTest, NamedWindows) {
  ast::Select s = select({});
  ast::FuncCall rn = call("row_number");
  rn.over = window("w", {}, {});
  ast::FuncCall running = call("sum", {col("a")});
  running.over = window("w", {}, {sort(col("ts"))});
  s.items = {item(ast::make_expr(rn)), item(ast::make_expr(running))};
  s.from = {table("t")};
  s.windows = {ast::NamedWindow{"w", window("", {col("b")}, {})}};
  const std::string expected =
      "SELECT row_number() OVER w, sum(a) OVER (w ORDER BY ts) FROM t WINDOW w AS (PARTITION BY b)";
  EXPECT_EQ(pg(query(s)), expected);
  EXPECT_EQ(lite(query(s)), expected);
}

// ---------- subqueries and clock values ----------

TEST(RenderTest, SubLinks) {
  auto link = [](ast::SubLinkKind k, std::optional<Expr> test, std::string o, Query q) {
    ast::SubLink l{k, std::nullopt, std::move(o), std::move(q)};
    if (test) l.test = std::move(*test);
    return ast::make_expr(std::move(l));
  };
  Query sub = select_from({col("a")}, "u");
  Expr exists = not_(link(ast::SubLinkKind::Exists, std::nullopt, "", sub));
  EXPECT_EQ(pg(exists), "NOT (EXISTS (SELECT a FROM u))");
  EXPECT_EQ(lite(exists), "NOT (EXISTS (SELECT a FROM u))");
  Expr scalar = op("+", link(ast::SubLinkKind::Scalar, std::nullopt, "", sub), num("1"));
  EXPECT_EQ(lite(scalar), "(SELECT a FROM u) + 1");
  Expr in = and_({link(ast::SubLinkKind::In, op("+", col("a"), num("1")), "=", sub), col("x")});
  EXPECT_EQ(pg(in), "((a + 1) IN (SELECT a FROM u)) AND x");
  EXPECT_EQ(lite(in), "((a + 1) IN (SELECT a FROM u)) AND x");
  Expr any = link(ast::SubLinkKind::Any, col("a"), "<", sub);
  EXPECT_EQ(pg(any), "a < ANY (SELECT a FROM u)");
  EXPECT_EQ(error_of(any, Dialect::Sqlite), "cannot print op ANY (subquery) for sqlite");
  Expr all = link(ast::SubLinkKind::All, col("a"), ">=", sub);
  EXPECT_EQ(pg(all), "a >= ALL (SELECT a FROM u)");
  EXPECT_EQ(error_of(all, Dialect::Sqlite), "cannot print op ALL (subquery) for sqlite");
}

TEST(RenderTest, ClockValues) {
  using K = ast::SqlValueKind;
  auto v = [](K k) { return ast::make_expr(ast::SqlValue{k}); };
  EXPECT_EQ(lite(v(K::CurrentDate)), "CURRENT_DATE");
  EXPECT_EQ(lite(v(K::CurrentTime)), "CURRENT_TIME");
  EXPECT_EQ(pg(v(K::CurrentTimestamp)), "CURRENT_TIMESTAMP");
  EXPECT_EQ(pg(v(K::LocalTime)), "LOCALTIME");
  EXPECT_EQ(pg(v(K::LocalTimestamp)), "LOCALTIMESTAMP");
  EXPECT_EQ(error_of(v(K::LocalTime), Dialect::Sqlite), "cannot print LOCALTIME for sqlite");
  EXPECT_EQ(error_of(v(K::LocalTimestamp), Dialect::Sqlite), "cannot print LOCALTIMESTAMP for sqlite");
}

// ---------- FROM ----------

TEST(RenderTest, Joins) {
  using K = ast::JoinKind;
  FromItem chain = join(K::Full, join(K::Left, table("t"), table("u"), eq(col("t", "id"), col("u", "id"))), table("s"),
                        eq(col("s", "id"), col("u", "id")));
  Query q = query(select({star()}, {chain}));
  EXPECT_EQ(pg(q), "SELECT * FROM t LEFT JOIN u ON t.id = u.id FULL JOIN s ON s.id = u.id");
  EXPECT_EQ(lite(q), "SELECT * FROM t LEFT JOIN u ON t.id = u.id FULL JOIN s ON s.id = u.id");

  FromItem nested = join(K::Right, table("t"), join(K::Cross, table("u"), table("s", "s2")),
                         and_({eq(col("t", "a"), col("u", "a")), eq(col("t", "b"), col("s2", "b"))}));
  Query q2 = query(select({col("t", "a")}, {nested}));
  EXPECT_EQ(pg(q2), "SELECT t.a FROM t RIGHT JOIN (u CROSS JOIN s AS s2) ON (t.a = u.a) AND (t.b = s2.b)");
  EXPECT_EQ(lite(q2), "SELECT t.a FROM t RIGHT JOIN (u CROSS JOIN s AS s2) ON (t.a = u.a) AND (t.b = s2.b)");

  Query q3 =
      query(select({star("t")}, {join(K::Inner, table("t"), table("u"), std::nullopt, {"id", "name"}), table("s")}));
  EXPECT_EQ(pg(q3), "SELECT t.* FROM t JOIN u USING (id, name), s");
  EXPECT_EQ(lite(q3), "SELECT t.* FROM t JOIN u USING (id, name), s");

  EXPECT_EQ(error_of(query(select({star()}, {join(K::Inner, table("t"), table("u"))})), Dialect::Postgres),
            "cannot print JOIN without ON or USING for postgres");
  EXPECT_EQ(error_of(query(select({star()}, {join(K::Cross, table("t"), table("u"), boolean(true))})), Dialect::Sqlite),
            "cannot print CROSS JOIN with ON or USING for sqlite");
}

TEST(RenderTest, DerivedTablesAndLateral) {
  Query inner = select_from({col("a"), col("b")}, "u");
  Query q = query(select({col("d", "a")}, {derived(inner, "d")}));
  EXPECT_EQ(pg(q), "SELECT d.a FROM (SELECT a, b FROM u) AS d");
  EXPECT_EQ(lite(q), "SELECT d.a FROM (SELECT a, b FROM u) AS d");
  Query renamed = query(select({col("d", "x")}, {derived(inner, "d", {"x", "y"})}));
  EXPECT_EQ(pg(renamed), "SELECT d.x FROM (SELECT a, b FROM u) AS d(x, y)");
  EXPECT_EQ(error_of(renamed, Dialect::Sqlite),
            "cannot print column aliases on a table or subquery in FROM (AS t(a, b)) for sqlite");
  Query tables_renamed = query(select({col("v", "p")}, {table("t", "v", {"p", "q"})}));
  EXPECT_EQ(pg(tables_renamed), "SELECT v.p FROM t AS v(p, q)");

  ast::Select correlated = select({col("u", "b")}, {table("u")});
  correlated.where = eq(col("u", "id"), col("t", "id"));
  Query lateral = query(select({star()}, {table("t"), derived(query(correlated), "l", {}, true)}));
  EXPECT_EQ(pg(lateral), "SELECT * FROM t, LATERAL (SELECT u.b FROM u WHERE u.id = t.id) AS l");
  EXPECT_EQ(error_of(lateral, Dialect::Sqlite), "cannot print LATERAL for sqlite");

  // PostgreSQL 15 requires an alias on a subquery in FROM; SQLite does not.
  Query unnamed = query(select({star()}, {FromItem{ast::DerivedTable{inner, std::nullopt, false}}}));
  EXPECT_EQ(error_of(unnamed, Dialect::Postgres), "cannot print a subquery in FROM without an alias for postgres");
  EXPECT_EQ(lite(unnamed), "SELECT * FROM (SELECT a, b FROM u)");
}

TEST(RenderTest, ValuesInFromPerDialect) {
  ast::ValuesTable v{{{num("1"), str("a")}, {num("2"), str("b")}}, ast::Alias{"v", {"id", "name"}}};
  Query q = query(select({col("v", "id"), col("v", "name")}, {FromItem{v}}));
  EXPECT_EQ(pg(q), "SELECT v.id, v.name FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, name)");
  EXPECT_EQ(
      lite(q),
      "SELECT v.id, v.name FROM (SELECT column1 AS id, column2 AS name FROM (VALUES (1, 'a'), (2, 'b')) AS v) AS v");

  // Fewer names than columns: the rest keep their column<N> names, as in PostgreSQL.
  ast::ValuesTable partly{{{num("1"), str("a")}}, ast::Alias{"v", {"id"}}};
  Query q2 = query(select({col("v", "column2")}, {FromItem{partly}}));
  EXPECT_EQ(pg(q2), "SELECT v.column2 FROM (VALUES (1, 'a')) AS v(id)");
  EXPECT_EQ(lite(q2), "SELECT v.column2 FROM (SELECT column1 AS id, column2 FROM (VALUES (1, 'a')) AS v) AS v");

  ast::ValuesTable unnamed_columns{{{num("1")}}, ast::Alias{"v", {}}};
  Query q3 = query(select({col("v", "column1")}, {FromItem{unnamed_columns}}));
  EXPECT_EQ(pg(q3), "SELECT v.column1 FROM (VALUES (1)) AS v");
  EXPECT_EQ(lite(q3), "SELECT v.column1 FROM (VALUES (1)) AS v");
}

// ---------- queries ----------

TEST(RenderTest, FullSelectClauseOrder) {
  ast::Select s;
  s.distinct = true;
  s.items = {item(col("b")), item(fn("count", {col("a")}), "n")};
  s.from = {table("t")};
  s.where = and_({op(">", col("a"), num("0")), not_(ast::make_expr(ast::NullTest{col("b"), false}))});
  s.group_by = {ast::GroupItem{col("b")}};
  s.having = op(">", fn("count", {col("a")}), num("1"));
  Query q = query(s);
  q.order_by = {sort(col("n"), ast::SortDirection::Desc, ast::NullsOrder::Last), sort(col("b"))};
  q.limit = 10;
  q.offset = 20;
  const std::string expected =
      "SELECT DISTINCT b, count(a) AS n FROM t WHERE (a > 0) AND (NOT (b IS NULL)) GROUP BY b "
      "HAVING count(a) > 1 ORDER BY n DESC NULLS LAST, b LIMIT 10 OFFSET 20";
  EXPECT_EQ(pg(q), expected);
  EXPECT_EQ(lite(q), expected);
}

TEST(RenderTest, OffsetWithoutLimit) {
  Query q = select_from({col("a")});
  q.offset = 5;
  EXPECT_EQ(pg(q), "SELECT a FROM t OFFSET 5");
  EXPECT_EQ(lite(q), "SELECT a FROM t LIMIT -1 OFFSET 5");
  q.limit = -1;
  EXPECT_EQ(error_of(q, Dialect::Sqlite), "cannot print a negative LIMIT or OFFSET for sqlite");
}

TEST(RenderTest, DistinctOnIsPostgresOnly) {
  ast::Select s = select({col("a"), col("b")}, {table("t")});
  s.distinct = true;
  s.distinct_on = {col("a")};
  Query q = query(s);
  q.order_by = {sort(col("a")), sort(col("ts"), ast::SortDirection::Desc)};
  EXPECT_EQ(pg(q), "SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, ts DESC");
  EXPECT_EQ(error_of(q, Dialect::Sqlite), "cannot print DISTINCT ON for sqlite");
}

TEST(RenderTest, EmptySelectListIsPostgresOnly) {
  Query q = query(select({}, {table("t")}));
  EXPECT_EQ(pg(q), "SELECT FROM t");
  EXPECT_EQ(error_of(q, Dialect::Sqlite), "cannot print an empty select list for sqlite");
}

TEST(RenderTest, CteWithColumns) {
  Query q = select_from({col("x")}, "a");
  q.with = {cte("a", {"x", "Y"}, select_from({col("a"), col("b")})), cte("b", {}, values({{num("1")}}))};
  EXPECT_EQ(pg(q), "WITH a(x, \"Y\") AS (SELECT a, b FROM t), b AS (VALUES (1)) SELECT x FROM a");
  EXPECT_EQ(lite(q), "WITH a(x, \"Y\") AS (SELECT a, b FROM t), b AS (VALUES (1)) SELECT x FROM a");
}

TEST(RenderTest, BareValuesQuery) {
  Query v = values({{num("1"), str("a")}, {num("2"), null()}});
  EXPECT_EQ(pg(v), "VALUES (1, 'a'), (2, NULL)");
  EXPECT_EQ(lite(v), "VALUES (1, 'a'), (2, NULL)");
  // SQLite takes ORDER BY / LIMIT only after a SELECT.
  v.order_by = {sort(num("1"))};
  v.limit = 1;
  EXPECT_EQ(pg(v), "VALUES (1, 'a'), (2, NULL) ORDER BY 1 LIMIT 1");
  EXPECT_EQ(lite(v), "SELECT * FROM (VALUES (1, 'a'), (2, NULL)) ORDER BY 1 LIMIT 1");
}

TEST(RenderTest, NestedSetOperations) {
  using K = ast::SetOpKind;
  Query a = select_from({col("a")}, "t");
  Query b = select_from({col("a")}, "u");
  Query c = select_from({col("a")}, "s");

  Query left_nested = set_op(K::Intersect, set_op(K::Union, a, b), c);
  EXPECT_EQ(pg(left_nested), "(SELECT a FROM t UNION SELECT a FROM u) INTERSECT SELECT a FROM s");
  EXPECT_EQ(lite(left_nested), "SELECT a FROM t UNION SELECT a FROM u INTERSECT SELECT a FROM s");

  Query right_nested = set_op(K::Union, a, set_op(K::Intersect, b, c), true);
  EXPECT_EQ(pg(right_nested), "SELECT a FROM t UNION ALL (SELECT a FROM u INTERSECT SELECT a FROM s)");
  EXPECT_EQ(lite(right_nested), "SELECT a FROM t UNION ALL SELECT * FROM (SELECT a FROM u INTERSECT SELECT a FROM s)");

  Query limited = b;
  limited.order_by = {sort(col("a"))};
  limited.limit = 3;
  Query member_with_limit = set_op(K::Except, limited, c);
  member_with_limit.order_by = {sort(num("1"), ast::SortDirection::Desc)};
  EXPECT_EQ(pg(member_with_limit), "(SELECT a FROM u ORDER BY a LIMIT 3) EXCEPT SELECT a FROM s ORDER BY 1 DESC");
  EXPECT_EQ(lite(member_with_limit),
            "SELECT * FROM (SELECT a FROM u ORDER BY a LIMIT 3) EXCEPT SELECT a FROM s ORDER BY 1 DESC");

  Query with_cte = select_from({col("a")}, "w");
  with_cte.with = {cte("w", {}, c)};
  Query member_with_cte = set_op(K::Union, a, with_cte);
  EXPECT_EQ(pg(member_with_cte), "SELECT a FROM t UNION (WITH w AS (SELECT a FROM s) SELECT a FROM w)");
  EXPECT_EQ(lite(member_with_cte), "SELECT a FROM t UNION SELECT * FROM (WITH w AS (SELECT a FROM s) SELECT a FROM w)");
}

TEST(RenderTest, ValuesAsTheLastSetMember) {
  Query q = set_op(ast::SetOpKind::Union, select_from({col("a")}), values({{num("2")}}));
  EXPECT_EQ(pg(q), "SELECT a FROM t UNION VALUES (2)");
  EXPECT_EQ(lite(q), "SELECT a FROM t UNION VALUES (2)");
  q.order_by = {sort(num("1"))};
  EXPECT_EQ(pg(q), "SELECT a FROM t UNION VALUES (2) ORDER BY 1");
  EXPECT_EQ(lite(q), "SELECT a FROM t UNION SELECT * FROM (VALUES (2)) ORDER BY 1");
}

TEST(RenderTest, IntersectAndExceptAllArePostgresOnly) {
  Query a = select_from({col("a")}, "t");
  Query b = select_from({col("a")}, "u");
  Query intersect_all = set_op(ast::SetOpKind::Intersect, a, b, true);
  EXPECT_EQ(pg(intersect_all), "SELECT a FROM t INTERSECT ALL SELECT a FROM u");
  EXPECT_EQ(error_of(intersect_all, Dialect::Sqlite), "cannot print INTERSECT ALL for sqlite");
  EXPECT_EQ(error_of(set_op(ast::SetOpKind::Except, a, b, true), Dialect::Sqlite),
            "cannot print EXCEPT ALL for sqlite");
}

TEST(RenderTest, GroupingSetsArePostgresOnly) {
  auto g = [](ast::GroupingKind k, std::vector<ast::GroupItem> items = {}) {
    return ast::GroupItem{ast::GroupingSet{k, std::move(items)}};
  };
  auto e = [](Expr x) { return ast::GroupItem{std::move(x)}; };
  using K = ast::GroupingKind;
  ast::Select s = select({col("a"), col("b"), fn("count", {col("x")})}, {table("t")});
  s.group_by = {
      g(K::Sets, {e(col("a")), g(K::Rollup, {e(col("a")), e(col("b"))}), g(K::Cube, {e(col("b"))}), g(K::Empty)})};
  EXPECT_EQ(pg(query(s)), "SELECT a, b, count(x) FROM t GROUP BY GROUPING SETS (a, ROLLUP (a, b), CUBE (b), ())");
  EXPECT_EQ(error_of(query(s), Dialect::Sqlite), "cannot print GROUPING SETS for sqlite");

  s.group_by = {e(col("c")), g(K::Rollup, {e(col("a")), e(op("+", col("b"), num("1")))})};
  EXPECT_EQ(pg(query(s)), "SELECT a, b, count(x) FROM t GROUP BY c, ROLLUP (a, b + 1)");
  EXPECT_EQ(error_of(query(s), Dialect::Sqlite), "cannot print ROLLUP for sqlite");
  s.group_by = {g(K::Cube, {e(col("a"))})};
  EXPECT_EQ(error_of(query(s), Dialect::Sqlite), "cannot print CUBE for sqlite");
  s.group_by = {g(K::Empty)};
  EXPECT_EQ(pg(query(s)), "SELECT a, b, count(x) FROM t GROUP BY ()");
  EXPECT_EQ(error_of(query(s), Dialect::Sqlite), "cannot print the empty grouping set () for sqlite");
  s.group_by = {g(K::Rollup, {g(K::Sets, {e(col("a"))})})};
  EXPECT_EQ(error_of(query(s), Dialect::Postgres), "cannot print a grouping set inside ROLLUP or CUBE for postgres");
}

// ---------- coverage and robustness ----------

TEST(RenderTest, ConstructTableNamesEveryGap) {
  for (const ConstructInfo& row : all_constructs()) {
    EXPECT_FALSE(row.sql_words.empty());
    EXPECT_TRUE(can_render(row.construct, Dialect::Postgres)) << row.sql_words;
    EXPECT_FALSE(can_render(row.construct, Dialect::Sqlite)) << row.sql_words;
    EXPECT_EQ(&construct_info(row.construct), &row);
  }
}

TEST(RenderTest, OutputIsDeterministicAndSingleLine) {
  Query q = set_op(ast::SetOpKind::Union, select_from({fn("lower", {col("name")})}), select_from({str("a\nb")}, "u"));
  const std::string first = pg(q);
  EXPECT_EQ(first, pg(q));
  EXPECT_EQ(first, "SELECT lower(name) FROM t UNION SELECT 'a\nb' FROM u");  // a newline only inside a literal
  EXPECT_EQ(first.find("  "), std::string::npos);
}

TEST(RenderTest, OverlyDeepTreesFailInsteadOfOverflowing) {
  Expr e = col("a");
  for (int i = 0; i < 1500; ++i) e = op("+", std::move(e), num("1"));
  EXPECT_EQ(error_of(e, Dialect::Postgres), "cannot print a tree nested deeper than 1000 levels for postgres");
}

}  // namespace
}  // namespace qg::render
