// The plan gate reads PostgreSQL's EXPLAIN (FORMAT JSON, VERBOSE) output:
// relations scanned and functions called, from deparsed expression text.
#include <gtest/gtest.h>

#include "admission/capability/capability.hpp"
#include "executors/postgres/pg_plan_gate.hpp"

namespace qg::exec::pg {
namespace {

using Names = std::vector<std::string>;

TEST(PlanGateFunctions, CallsAreFoundInDeparsedExpressions) {
  EXPECT_EQ(called_functions("lower((t.name)::text)"), Names({"lower"}));
  EXPECT_EQ(called_functions("count(*)"), Names({"count"}));
  EXPECT_EQ(called_functions("pg_catalog.upper(x)"), Names({"upper"}));
  EXPECT_EQ(called_functions("\"substring\"((name)::text, 1, 3)"), Names({"substring"}));
  EXPECT_EQ(called_functions("public.evil(x)"), Names({"public.evil"}));
  EXPECT_EQ(called_functions("percentile_cont('0.5'::double precision) WITHIN GROUP (ORDER BY track.milliseconds)"),
            Names({"percentile_cont"}));
}

TEST(PlanGateFunctions, CastsKeywordsAndLiteralsAreNotCalls) {
  EXPECT_EQ(called_functions("(x)::numeric(10,2)"), Names{});
  EXPECT_EQ(called_functions("(x)::character varying(20)"), Names{});
  EXPECT_EQ(called_functions("(t)::timestamp(3) without time zone"), Names{});
  EXPECT_EQ(called_functions("CASE WHEN (a > 1) THEN COALESCE(b, 0) ELSE NULLIF(c, 0) END"), Names{});
  EXPECT_EQ(called_functions("(x = ANY ('{1,2}'::integer[]))"), Names{});
  EXPECT_EQ(called_functions("'pg_read_file(x)'::text"), Names{});
  EXPECT_EQ(called_functions("'it''s pg_sleep(1)'::text"), Names{});
  EXPECT_EQ(called_functions("(hashed SubPlan 1)"), Names{});
  EXPECT_EQ(called_functions("EXTRACT(year FROM invoicedate)"), Names{});
  // A cast to a type followed by a real call: the call is still seen.
  EXPECT_EQ(called_functions("((x)::text || md5((y)::text))"), Names({"md5"}));
}

TEST(PlanGateRead, RelationsFunctionsAndTheEstimateBelowTheLimit) {
  const std::string plan = R"json([{"Plan": {"Node Type": "Limit", "Plan Rows": 3, "Output": ["a.title"],
    "Plans": [{"Node Type": "Hash Join", "Parent Relationship": "Outer", "Plan Rows": 347,
      "Output": ["a.title", "lower((ar.name)::text)"], "Hash Cond": "(a.artistid = ar.artistid)",
      "Plans": [
        {"Node Type": "Seq Scan", "Relation Name": "album", "Schema": "public", "Alias": "a", "Plan Rows": 347},
        {"Node Type": "Hash", "Plans": [{"Node Type": "Seq Scan", "Relation Name": "artist", "Schema": "public",
          "Alias": "ar", "Plan Rows": 275}]}]}]}}])json";
  auto facts = read_plan(plan);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->relations, Names({"public.album", "public.artist"}));
  EXPECT_EQ(facts->functions, Names({"lower"}));
  ASSERT_TRUE(facts->estimated_rows);
  EXPECT_EQ(*facts->estimated_rows, 347);
}

TEST(PlanGateRead, FunctionScansAreCalls) {
  auto facts = read_plan(
      R"json([{"Plan": {"Node Type": "Function Scan", "Function Name": "pg_ls_dir", "Schema": "pg_catalog",
           "Alias": "d", "Plan Rows": 1000, "Function Call": "pg_ls_dir('.'::text)"}}])json");
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->functions, Names({"pg_ls_dir", "pg_ls_dir"}));
  EXPECT_EQ(*facts->estimated_rows, 1000);
}

TEST(PlanGateRead, NotAPlanIsAnError) {
  EXPECT_FALSE(read_plan("not json"));
  EXPECT_FALSE(read_plan("[]"));
  EXPECT_FALSE(read_plan(R"json([{"Nope": 1}])json"));
}

TEST(PlanGateViolation, OnlyAllowlistedRelationsAndAdmittedFunctions) {
  PlanPolicy policy{"public", {"album", "artist"}, capability::postgres_plan_functions()};
  PlanFacts ok{{"public.album"}, {"lower", "count", "percentile_cont"}, std::nullopt};
  EXPECT_FALSE(plan_violation(ok, policy));
  // A view over a table nobody allowlisted: the plan shows the table.
  PlanFacts hidden{{"public.album", "public.secrets"}, {}, std::nullopt};
  EXPECT_EQ(plan_violation(hidden, policy).value_or(""), "the plan reads public.secrets, which is not allowlisted");
  PlanFacts other_schema{{"private.album"}, {}, std::nullopt};
  EXPECT_TRUE(plan_violation(other_schema, policy));
  PlanFacts system{{"pg_catalog.pg_authid"}, {}, std::nullopt};
  EXPECT_TRUE(plan_violation(system, policy));
  for (const char* fn : {"pg_read_file", "pg_sleep", "dblink", "lo_import", "set_config", "public.evil", "version"}) {
    PlanFacts call{{"public.album"}, {fn}, std::nullopt};
    EXPECT_TRUE(plan_violation(call, policy)) << fn;
  }
}

// Red team, round 2: array_agg over span_annotations x span_annotations (the
// test cluster's plan, abridged). The aggregate's input is its child's rows x
// width; only text, array and JSON aggregates are held to the ceiling.
TEST(PlanGateAggregates, TextAggregatesOverTooManyBytesAreRefused) {
  const std::string plan = R"json([{"Plan": {"Node Type": "Aggregate", "Strategy": "Plain", "Plan Rows": 1,
    "Plan Width": 4, "Output": ["length((array_agg(a.explanation))::text)", "count(*)"],
    "Plans": [{"Node Type": "Nested Loop", "Parent Relationship": "Outer", "Plan Rows": 9339136, "Plan Width": 55,
      "Output": ["a.explanation"], "Plans": [
        {"Node Type": "Seq Scan", "Relation Name": "span_annotations", "Schema": "public", "Alias": "a",
         "Plan Rows": 3056, "Plan Width": 55},
        {"Node Type": "Materialize", "Plan Rows": 3056, "Plan Width": 0}]}]}}])json";
  auto facts = read_plan(plan);
  ASSERT_TRUE(facts) << facts.error().message;
  ASSERT_EQ(facts->aggregates.size(), 1U);
  EXPECT_EQ(facts->aggregates[0].functions, Names({"length", "array_agg", "count"}));
  EXPECT_EQ(facts->aggregates[0].rows, 9339136);
  EXPECT_EQ(facts->aggregates[0].width, 55);
  PlanPolicy policy{"public", {"span_annotations"}, capability::postgres_plan_functions()};
  policy.text_aggregates = {"string_agg", "array_agg", "json_agg", "jsonb_agg"};
  policy.max_aggregate_bytes = 64 << 20;
  EXPECT_TRUE(has_text_aggregate(*facts, policy));
  auto refusal = aggregate_violation(*facts, policy);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->code, ErrorCode::LimitMemory);
  EXPECT_NE(refusal->message.find("array_agg() would aggregate about 513652480 bytes"), std::string::npos)
      << refusal->message;
  EXPECT_TRUE(refusal->fix.starts_with("FIX:"));
  // Just under the ceiling, and count(*) over any number of rows, pass.
  policy.max_aggregate_bytes = 9339136.0 * 55;
  EXPECT_FALSE(aggregate_violation(*facts, policy));
  policy.max_aggregate_bytes = 64 << 20;
  policy.text_aggregates = {"string_agg"};
  EXPECT_FALSE(aggregate_violation(*facts, policy));
  EXPECT_FALSE(has_text_aggregate(*facts, policy));
}

// Citus (not run here; the shape of its EXPLAIN (FORMAT JSON)): the worker
// plans under "Distributed Query" scan shards named <table>_<shard id>.
TEST(PlanGateRead, CitusShardsAreCheckedAgainstTheirTables) {
  const std::string plan = R"json([{"Plan": {"Node Type": "Custom Scan", "Custom Plan Provider": "Citus Adaptive",
    "Plan Rows": 100000, "Output": ["remote_scan.count"],
    "Distributed Query": {"Job": {"Task Count": 32, "Tasks Shown": "One of 32", "Tasks": [
      {"Node": "host=worker-1 port=5432 dbname=app", "Remote Plan": [[{"Plan": {"Node Type": "Aggregate",
        "Output": ["count(*)"], "Plans": [{"Node Type": "Seq Scan", "Relation Name": "album_102008",
        "Schema": "public", "Alias": "album", "Output": ["albumid"]}]}}]]}]}}}}])json";
  auto facts = read_plan(plan);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_TRUE(facts->relations.empty());
  EXPECT_EQ(facts->shard_relations, Names({"public.album_102008"}));
  PlanPolicy policy{"public", {"album"}, capability::postgres_plan_functions()};
  EXPECT_FALSE(plan_violation(*facts, policy));
  PlanFacts secret{{}, {}, std::nullopt, {"public.secrets_102040"}};
  EXPECT_TRUE(plan_violation(secret, policy));
  // Outside a distributed query a numbered name is just a table, and not allowlisted.
  PlanFacts local{{"public.album_102008"}, {}, std::nullopt};
  EXPECT_TRUE(plan_violation(local, policy));
}

TEST(PlanGateCache, RemembersAdmittedShapesUntilTheyExpire) {
  PlanCache cache(std::chrono::seconds(0), 2);
  EXPECT_FALSE(cache.admitted("a"));
  cache.remember_admitted("a");
  // ttl 0: stale at once, so looked at again.
  EXPECT_FALSE(cache.admitted("a"));
  PlanCache lasting(std::chrono::seconds(3600), 2);
  lasting.remember_admitted("a");
  EXPECT_TRUE(lasting.admitted("a"));
  EXPECT_FALSE(lasting.admitted("b"));
}

// Key-bound row filters (config `bind`): every scan of such a table must carry
// a condition on the filter's columns, its own or an enclosing join's.
PlanPolicy bound_policy() {
  PlanPolicy p;
  p.schema = "public";
  p.tables = {"traces", "spans"};
  p.bound_filters["traces"] = PlanPolicy::BoundFilter{{"project_id"}, false};
  p.bound_filters["spans"] = PlanPolicy::BoundFilter{{"trace_id"}, true};
  return p;
}

std::optional<std::string> filter_verdict(const std::string& plan) {
  auto facts = read_plan(plan);
  EXPECT_TRUE(facts) << plan;
  if (!facts) return "unreadable";
  return row_filter_violation(*facts, bound_policy());
}

TEST(PlanGateRowFilters, QualifiedColumnsOutsideLiterals) {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(qualified_columns("(traces.project_id = 1)"), Pairs({{"traces", "project_id"}}));
  EXPECT_EQ(qualified_columns("((t2.project_id)::text = 'traces.project_id'::text)"), Pairs({{"t2", "project_id"}}));
  EXPECT_EQ(qualified_columns("(public.traces.project_id <> 5)"), Pairs({{"traces", "project_id"}}));
  EXPECT_EQ(qualified_columns("(\"T\".\"project_id\" = 1)"), Pairs({{"T", "project_id"}}));
  EXPECT_EQ(qualified_columns("(1.5 < x)"), Pairs{});
}

// The plan PostgreSQL 15 gives the demo (EXPLAIN (FORMAT JSON, VERBOSE), trimmed):
// spans joined to the filtered traces by the semi-join of its filter.
const char* kFilteredPlan = R"json([{"Plan": {"Node Type": "Aggregate", "Output": ["count(*)"],
  "Plans": [{"Node Type": "Hash Join", "Join Type": "Inner", "Hash Cond": "(spans.trace_id = traces.trace_id)",
    "Plans": [
      {"Node Type": "Index Only Scan", "Relation Name": "spans", "Schema": "public", "Alias": "spans",
       "Output": ["spans.trace_id"]},
      {"Node Type": "Hash", "Output": ["traces.trace_id"], "Plans": [
        {"Node Type": "Bitmap Heap Scan", "Relation Name": "traces", "Schema": "public", "Alias": "traces",
         "Recheck Cond": "(traces.project_id = 1)", "Plans": [
           {"Node Type": "Bitmap Index Scan", "Index Name": "idx_traces_project_id",
            "Index Cond": "(traces.project_id = 1)"}]}]}]}]}}])json";

TEST(PlanGateRowFilters, APlanCarryingTheFiltersPasses) {
  EXPECT_EQ(filter_verdict(kFilteredPlan), std::nullopt);
  // A Nested Loop whose inner index scan joins the outer spans by trace_id (a parameterized semi-join).
  EXPECT_EQ(filter_verdict(R"json([{"Plan": {"Node Type": "Nested Loop", "Plans": [
      {"Node Type": "Index Scan", "Relation Name": "spans", "Schema": "public", "Alias": "spans",
       "Index Cond": "(spans.id = 5)"},
      {"Node Type": "Index Scan", "Relation Name": "traces", "Schema": "public", "Alias": "traces",
       "Index Cond": "(traces.trace_id = spans.trace_id)", "Filter": "(traces.project_id = 1)"}]}}])json"),
            std::nullopt);
  // IN (SELECT ...) kept as a hashed subplan in the scan's own filter.
  EXPECT_EQ(filter_verdict(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "spans", "Schema": "public",
      "Alias": "s", "Filter": "((s.id = 5) OR (hashed SubPlan 1))", "Plans": [
        {"Node Type": "Seq Scan", "Parent Relationship": "SubPlan", "Relation Name": "traces", "Schema": "public",
         "Alias": "traces", "Filter": "(traces.project_id = 1)"}]}}])json"),
            std::nullopt);
}

TEST(PlanGateRowFilters, AFilterLessPlanIsRefused) {
  // The same statement with the filter missing: traces read whole.
  const std::string bare = R"json([{"Plan": {"Node Type": "Aggregate", "Output": ["count(*)"], "Plans": [
      {"Node Type": "Seq Scan", "Relation Name": "traces", "Schema": "public", "Alias": "traces",
       "Output": ["traces.id"]}]}}])json";
  const auto verdict = filter_verdict(bare);
  ASSERT_TRUE(verdict);
  EXPECT_NE(verdict->find("public.traces"), std::string::npos) << *verdict;
  EXPECT_NE(verdict->find("project_id"), std::string::npos) << *verdict;
  // A condition on another column is not the filter.
  EXPECT_TRUE(filter_verdict(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "traces",
      "Schema": "public", "Alias": "t", "Filter": "(t.status = 'OK'::text)"}}])json"));
  // Nor the filter's column of another reference to the table (t2 filtered, t not).
  EXPECT_TRUE(filter_verdict(R"json([{"Plan": {"Node Type": "Hash Join", "Hash Cond": "(t.id = t2.id)", "Plans": [
      {"Node Type": "Seq Scan", "Relation Name": "traces", "Schema": "public", "Alias": "t"},
      {"Node Type": "Hash", "Plans": [{"Node Type": "Seq Scan", "Relation Name": "traces", "Schema": "public",
        "Alias": "t2", "Filter": "(t2.project_id = 1)"}]}]}}])json"));
  // Nor the column's name inside a literal.
  EXPECT_TRUE(filter_verdict(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "traces",
      "Schema": "public", "Alias": "traces", "Filter": "(traces.status = 'traces.project_id = 1'::text)"}}])json"));
  // A hashed subplan stands for the filter only where the filter has one (spans), not for traces.
  EXPECT_TRUE(filter_verdict(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "traces",
      "Schema": "public", "Alias": "traces", "Filter": "(hashed SubPlan 1)"}}])json"));
  // A join condition below the scan (inside a sibling's subtree) does not count unless a Nested Loop
  // parameterizes it; a Hash Join's own condition on spans.trace_id does (kFilteredPlan), a sibling's filter not.
  EXPECT_TRUE(filter_verdict(R"json([{"Plan": {"Node Type": "Hash Join", "Hash Cond": "(spans.id = x.id)",
      "Plans": [{"Node Type": "Seq Scan", "Relation Name": "spans", "Schema": "public", "Alias": "spans"},
        {"Node Type": "Hash", "Plans": [{"Node Type": "Seq Scan", "Relation Name": "traces", "Schema": "public",
          "Alias": "traces", "Filter": "((traces.project_id = 1) AND (traces.trace_id = 'spans.trace_id'))"}]}]}}])json"));
}

TEST(PlanGateRowFilters, TablesWithoutABoundFilterAreNotChecked) {
  PlanPolicy p = bound_policy();
  p.bound_filters.clear();
  auto facts = read_plan(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "traces", "Schema": "public",
      "Alias": "traces"}}])json");
  ASSERT_TRUE(facts);
  EXPECT_EQ(row_filter_violation(*facts, p), std::nullopt);
}

}  // namespace
}  // namespace qg::exec::pg
