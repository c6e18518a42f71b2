// The SQL renderer, expressions: exact text per dialect for hand-built trees.
// Every rendered string is also checked by the engines (test_support), so the
// expectations cannot drift from what PostgreSQL and SQLite accept.
#include <gtest/gtest.h>

#include "tests/unit/render_test_support.hpp"

namespace qg::render {
namespace {

using namespace test_support;  // NOLINT: test builders
using ast::Expr;
using ast::FromItem;
using ast::Query;

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

// A number a double holds exactly prints as its text; on SQLite another is pg_numeric_literal('text'), the double
// nearest it (SQLite 3.40 reads 0.005754 1 ulp off).
TEST(RenderTest, LiteralsPrintAsTheirText) {
  for (Dialect d : {Dialect::Postgres, Dialect::Sqlite}) {
    auto r = [&](const Expr& e) { return d == Dialect::Postgres ? pg(e) : lite(e); };
    EXPECT_EQ(r(num("42")), "42");
    EXPECT_EQ(r(num("-7")), "-7");
    EXPECT_EQ(r(num("3.25")), "3.25");
    EXPECT_EQ(r(num(".5")), ".5");
    EXPECT_EQ(r(num("1.5e-3")), d == Dialect::Postgres ? "1.5e-3" : "pg_numeric_literal('1.5e-3')");
    EXPECT_EQ(r(num("0.005754")), d == Dialect::Postgres ? "0.005754" : "pg_numeric_literal('0.005754')");
    EXPECT_EQ(r(num("1e22")), "1e22");                          // 5^22 * 2^22
    EXPECT_EQ(r(num("9007199254740993")), "9007199254740993");  // SQLite reads an int64 exactly
    EXPECT_EQ(r(num("-0.375")), "-0.375");
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

// x AT TIME ZONE z is timezone(z, x) in the grammar's tree, printed back in keyword form.
TEST(RenderTest, AtTimeZoneKeepsItsKeywordForm) {
  ast::FuncCall f;
  f.name = "timezone";
  f.args.push_back(str("Europe/Paris"));
  f.args.push_back(col("t"));
  f.sql_syntax = true;
  EXPECT_EQ(pg(ast::make_expr(f)), "(t AT TIME ZONE 'Europe/Paris')");
  f.sql_syntax = false;
  EXPECT_EQ(pg(ast::make_expr(f)), "timezone('Europe/Paris', t)");
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
  // SQLite: a division by what may be 0 is pg_div ("division by zero", not NULL), and % is pg_mod
  // (PostgreSQL's exact remainder); a literal divisor other than 0 needs no check.
  EXPECT_EQ(lite(op("/", col("b"), nullif)), "pg_div(b, NULLIF(a, 0))");
  EXPECT_EQ(lite(op("/", op("+", col("b"), num("1")), op("-", col("a"), num("1")))), "pg_div(b + 1, a - 1)");
  EXPECT_EQ(lite(op("/", col("b"), num("2"))), "b / 2");
  EXPECT_EQ(lite(op("/", col("b"), num("4.5"))), "b / 4.5");
  // A fraction can overflow a double (1e308 / 0.5): checked (s21b).
  EXPECT_EQ(lite(op("/", col("b"), num("0.5"))), "pg_div(b, 0.5)");
  EXPECT_EQ(lite(op("%", op("+", col("a"), num("1")), num("2"))), "pg_mod(a + 1, 2)");
  EXPECT_EQ(pg(op("%", col("a"), num("2"))), "a % 2");
  EXPECT_FALSE(render::division_checked(num("3")));
  EXPECT_TRUE(render::division_checked(num("0.0")));
  EXPECT_TRUE(render::division_checked(col("a")));
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
      // SQLite's NUMERIC affinity would make CAST(10 AS numeric) / 4 an integer division; REAL would read back
      // as float4. NUMERIC_REAL has REAL affinity and reads back as numeric (ast::kSqliteNumericTypeName).
      {type("numeric"), "NUMERIC", "NUMERIC_REAL"},
      {type("numeric", {10, 2}), "NUMERIC(10, 2)", "NUMERIC_REAL(10, 2)"},
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

}  // namespace
}  // namespace qg::render
