// The SQL renderer, FROM and queries: exact text per dialect for hand-built trees.
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
  EXPECT_EQ(lite(v), "SELECT v.column1, v.column2 FROM (VALUES (1, 'a'), (2, NULL)) AS v ORDER BY 1 LIMIT 1");
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
  EXPECT_EQ(lite(q), "SELECT a FROM t UNION SELECT v.column1 FROM (VALUES (2)) AS v ORDER BY 1");
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
  s.group_by = {g(K::Sets, {g(K::Composite, {e(col("a")), e(col("b"))}),
                            g(K::Rollup, {g(K::Composite, {e(col("a")), e(col("b"))}), e(col("c"))}), g(K::Empty)})};
  EXPECT_EQ(pg(query(s)), "SELECT a, b, count(x) FROM t GROUP BY GROUPING SETS ((a, b), ROLLUP ((a, b), c), ())");
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
