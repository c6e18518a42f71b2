// The success envelope against the QueryResult schema the OpenAPI document
// publishes: real answers (the demo's SQLite, run and validate_only) satisfy
// exactly one branch of its oneOf, and a validation never looks like "no rows".
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "admission/pipeline.hpp"
#include "config/demo_config.hpp"
#include "gateway/api/envelope.hpp"
#include "gateway/api/openapi.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg::gateway {
namespace {

namespace json = boost::json;

// The parts of JSON Schema the QueryResult branches use: `required`, and
// `properties` whose schema is `false` (the property must be absent).
bool satisfies(const json::object& answer, const json::object& branch) {
  for (const auto& name : branch.at("required").as_array())
    if (!answer.contains(name.as_string())) return false;
  for (const auto& [name, schema] : branch.at("properties").as_object())
    if (schema.is_bool() && !schema.as_bool() && answer.contains(name)) return false;
  return true;
}

int branches_satisfied(const json::object& answer, const json::object& result_schema) {
  int n = 0;
  for (const auto& branch : result_schema.at("oneOf").as_array()) n += satisfies(answer, branch.as_object()) ? 1 : 0;
  return n;
}

json::object answer(const std::string& sql, bool validate_only) {
  auto& demo = testing::Demo::get();
  const config::Limits limits;
  auto statement = admit_statement(sql, demo.sqlite_catalog(), limits, std::nullopt);
  EXPECT_TRUE(statement) << statement.error().message;
  exec::Rows rows;
  if (validate_only) {
    auto columns = demo.sqlite().prepare(statement->sql, exec::Clock::now() + std::chrono::seconds(10));
    EXPECT_TRUE(columns);
    rows.columns = std::move(columns).value();
  } else {
    exec::RunOptions options;
    options.deadline = exec::Clock::now() + std::chrono::seconds(10);
    auto ran = demo.sqlite().run(statement->sql, options);
    EXPECT_TRUE(ran);
    rows = std::move(ran).value();
  }
  EnvelopeInput in{sql, &statement.value(), &rows, &limits, &demo.sqlite_catalog()};
  in.validated = validate_only;
  return json::parse(build_envelope(in)).as_object();
}

TEST(EnvelopeSchemaTest, RunsAndValidationsEachMatchExactlyOneDocumentedShape) {
  auto config = config::parse_config(std::string(config::demo_config_yaml()), "/nonexistent");
  ASSERT_TRUE(config) << config.error().message;
  const json::object doc = openapi_document(*config, Audience::Agent, "http://127.0.0.1:8080");
  const auto& schema = doc.at("components").at("schemas").at("QueryResult").as_object();

  for (const char* sql : {"SELECT id, name FROM spans", "SELECT id FROM spans WHERE id < 0"}) {
    SCOPED_TRACE(sql);
    const auto ran = answer(sql, false);
    const auto validated = answer(sql, true);
    EXPECT_EQ(branches_satisfied(ran, schema), 1) << json::serialize(ran);
    EXPECT_EQ(branches_satisfied(validated, schema), 1) << json::serialize(validated);
    EXPECT_EQ(validated.at("validated"), json::value(true));
    EXPECT_FALSE(validated.contains("rows"));
    EXPECT_FALSE(validated.contains("row_count"));
    EXPECT_EQ(validated.at("columns"), ran.at("columns"));
    // Every key of either answer is a documented property.
    for (const auto* a : {&ran, &validated})
      for (const auto& [key, value] : *a) EXPECT_TRUE(schema.at("properties").as_object().contains(key)) << key;
  }
  // A run with no rows is still a run: rows and row_count 0, no "validated".
  const auto empty = answer("SELECT id FROM spans WHERE id < 0", false);
  EXPECT_EQ(empty.at("row_count").as_int64(), 0);
  EXPECT_FALSE(empty.contains("validated"));
}

}  // namespace
}  // namespace qg::gateway
