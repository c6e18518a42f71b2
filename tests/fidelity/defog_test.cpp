// The defog (PostgreSQL) side of the harness. A CSV reader that misreads one
// quoted line break, or a gold-notation expansion that differs from sql-eval's,
// would silently change which statements the run measures: pinned here, and
// the real files must give SOURCE.md's 487 statements. Also the FIX
// transformer only PostgreSQL's schema-qualified names need.
#include <gtest/gtest.h>

#include <map>

#include "defog_dataset.hpp"
#include "fixes.hpp"

namespace fidelity {
namespace {

using Records = std::vector<std::vector<std::string>>;

TEST(DefogCsv, QuotedFieldsKeepCommasQuotesAndLineBreaks) {
  const auto r = parse_csv("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"line1\r\nline2\"\r\nplain,,\"\"\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, (Records{{"a", "b", "c"}, {"x, y", "say \"hi\"", "line1\r\nline2"}, {"plain", "", ""}}));
}

TEST(DefogCsv, LastRecordWithoutLineBreak) {
  const auto r = parse_csv("a,b\n1,\"2\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (Records{{"a", "b"}, {"1", "2"}}));
}

TEST(DefogCsv, LoneQuotesReadAsPythonReadsThem) {
  // questions_gen_postgres.csv: "... to be "in inventory" if ...",next
  const auto r = parse_csv("\"to be \"in inv\" if\",next\n\n\nx\ry\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (Records{{"to be in inv\" if\"", "next"}, {"x"}, {"y"}}));
  EXPECT_FALSE(parse_csv("a,\"never closed\n"));
}

TEST(DefogNotation, AlternativesSplitTrimmedAndBlankOnesDropped) {
  EXPECT_EQ(expand_gold_notation("SELECT 1; SELECT 2 ;\n;"), (std::vector<std::string>{"SELECT 1", "SELECT 2"}));
}

TEST(DefogNotation, BracesAreEveryNonEmptySubsetInCombinationsOrder) {
  EXPECT_EQ(expand_gold_notation("SELECT {a.x, a.y, a.z}, count(*) FROM a GROUP BY {}"),
            (std::vector<std::string>{
                "SELECT a.x, count(*) FROM a GROUP BY a.x",
                "SELECT a.y, count(*) FROM a GROUP BY a.y",
                "SELECT a.z, count(*) FROM a GROUP BY a.z",
                "SELECT a.x, a.y, count(*) FROM a GROUP BY a.x, a.y",
                "SELECT a.x, a.z, count(*) FROM a GROUP BY a.x, a.z",
                "SELECT a.y, a.z, count(*) FROM a GROUP BY a.y, a.z",
                "SELECT a.x, a.y, a.z, count(*) FROM a GROUP BY a.x, a.y, a.z",
            }));
  // Per alternative; one without braces is taken as written.
  EXPECT_EQ(expand_gold_notation("SELECT {p,q} FROM t;SELECT r FROM t"),
            (std::vector<std::string>{"SELECT p FROM t", "SELECT q FROM t", "SELECT p, q FROM t", "SELECT r FROM t"}));
}

TEST(DefogDataset, TheShippedFilesGive487Statements) {
  const std::filesystem::path dir = QG_FIDELITY_DEFOG_DIR;
  if (!std::filesystem::exists(dir / "questions_gen_postgres.csv"))
    GTEST_SKIP() << "*** SKIPPED: " << dir << " is not there ***";
  const auto d = load_defog(dir, "host=unused");
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_EQ(d->queries.size(), 487u);  // SOURCE.md: 367 + 41 + 79
  std::map<std::string, int> per_file;
  for (const auto& q : d->queries) {
    per_file[q.note.substr(0, q.note.find(' '))]++;
    EXPECT_EQ(q.sql.find_first_of("{}"), std::string::npos) << q.sql;
    EXPECT_EQ(q.pg_dsn, "host=unused dbname=defog_" + q.db_id);
  }
  EXPECT_EQ(per_file["questions_gen_postgres"], 367);
  EXPECT_EQ(per_file["instruct_basic_postgres"], 41);
  EXPECT_EQ(per_file["instruct_advanced_postgres"], 79);
  EXPECT_EQ(d->queries.front().index, 1);
  EXPECT_EQ(d->queries.back().index, 487);
}

qg::Error qualified(std::string fix, const std::string& sql, const std::string& at) {
  return qg::make_error(qg::ErrorCode::ValidationQualifiedName, "names a schema or database", std::move(fix),
                        static_cast<int>(sql.find(at)));
}

TEST(DefogFixes, SchemaPrefixDropsWhatTheFixDrops) {
  const std::string sql = "SELECT u.uid FROM consumer_div.users u JOIN consumer_div.users v ON u.uid = v.uid";
  auto fixed = apply_fix(sql, qualified("FIX: write the bare table name users.", sql, "consumer_div.users u"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->name, "schema-prefix");
  // Only the pointed-at name: the second one gets its own refusal.
  EXPECT_EQ(fixed->sql, "SELECT u.uid FROM users u JOIN consumer_div.users v ON u.uid = v.uid");
  // Quoted parts and a catalog prefix; the kept name keeps its spelling.
  const std::string quoted = R"(SELECT 1 FROM db."Consumer_Div".Users)";
  fixed = apply_fix(quoted, qualified("FIX: write the bare table name users.", quoted, "db."));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT 1 FROM Users");
  // A column written schema.table.column: FIX "write t.c.".
  const std::string column = "SELECT consumer_div.users.uid FROM users";
  fixed = apply_fix(column, qualified("FIX: write users.uid.", column, "consumer_div.users.uid"));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->sql, "SELECT users.uid FROM users");
}

TEST(DefogFixes, SchemaPrefixNotAppliedWhenTheNameDiffers) {
  const std::string sql = "SELECT 1 FROM consumer_div.users";
  // The FIX names another table, the position is not the dotted name, a quoted name differs in case.
  EXPECT_FALSE(apply_fix(sql, qualified("FIX: write the bare table name merchants.", sql, "consumer_div")));
  EXPECT_FALSE(apply_fix(sql, qualified("FIX: write the bare table name users.", sql, "users")));
  const std::string quoted = R"(SELECT 1 FROM s."Users")";
  EXPECT_FALSE(apply_fix(quoted, qualified("FIX: write the bare table name users.", quoted, "s.")));
  // A function's FIX is not this one.
  const std::string fn = "SELECT pg_catalog.upper(x) FROM t";
  EXPECT_FALSE(apply_fix(fn, qualified("FIX: write upper(...).", fn, "pg_catalog")));
}

}  // namespace
}  // namespace fidelity
