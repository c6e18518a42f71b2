// What the agent can know before it writes (issue #12): GET /v1/schema tells
// it to write PostgreSQL on every backend, and detail=functions lists exactly
// what the capability table admits on the database's engine.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "admission/capability/capability.hpp"
#include "gateway/api/schema_text.hpp"

namespace qg::gateway {
namespace {

// The names listed on the "-- Scalar functions returning ...: a, b" lines.
std::set<std::string> listed_functions(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(" returning ") == std::string::npos) continue;
    std::istringstream names(line.substr(line.find(": ") + 2));
    std::string name;
    while (std::getline(names, name, ',')) out.insert(name.substr(name.find_first_not_of(' ')));
  }
  return out;
}

TEST(SchemaFunctions, ListsExactlyWhatTheCapabilityTableAdmits) {
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    const auto listed = listed_functions(admitted_functions_text(d));
    std::set<std::string> admitted;
    for (const auto& f : capability::functions())
      if (capability::cell(f, d).verdict != capability::Verdict::Refuse && !std::string(f.name).starts_with("pg_"))
        admitted.emplace(f.name);
    EXPECT_EQ(listed, admitted) << dialect_name(d);  // but querygate's own pg_* functions its translations call
    EXPECT_GT(listed.size(), 20u);
  }
  // A PostgreSQL-only function is listed for PostgreSQL, not for SQLite.
  EXPECT_TRUE(listed_functions(admitted_functions_text(Dialect::Postgres)).count("md5"));
  EXPECT_FALSE(listed_functions(admitted_functions_text(Dialect::Sqlite)).count("md5"));
  EXPECT_FALSE(listed_functions(admitted_functions_text(Dialect::Sqlite)).count("pg_numeric_div"));
}

TEST(SchemaFunctions, EveryBackendIsToldToWritePostgres) {
  config::Limits limits;
  for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
    catalog::Catalog c;
    c.dialect = d;
    const auto text = describe_schema("db", c, limits);
    EXPECT_NE(text.find("Write PostgreSQL SQL"), std::string::npos) << text;
    EXPECT_EQ(text.find("Write SQLite"), std::string::npos) << text;
    EXPECT_NE(text.find("GET /v1/schema?database=db&detail=functions"), std::string::npos) << text;
  }
}

TEST(SchemaFunctions, DetailFunctionsIsALevelAndFullIncludesTheList) {
  auto r = parse_schema_request("functions", "", "");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->detail, SchemaDetail::Functions);
  catalog::Catalog c;
  c.dialect = Dialect::Sqlite;
  const auto functions = describe_schema("db", c, config::Limits{}, *r);
  EXPECT_NE(functions.find("-- Operators: "), std::string::npos);
  EXPECT_NE(functions.find("-- Casts"), std::string::npos);
  EXPECT_EQ(functions.find("No table matches"), std::string::npos);
  SchemaRequest full;
  full.detail = SchemaDetail::Full;
  EXPECT_NE(describe_schema("db", c, config::Limits{}, full).find(admitted_functions_text(Dialect::Sqlite)),
            std::string::npos);
  EXPECT_FALSE(parse_schema_request("everything", "", "").has_value());
}

}  // namespace
}  // namespace qg::gateway
