// tools/parameters: typed parameters of configured statements, read from the
// config file, validated against JSON arguments, and published as JSON Schema.
// The specs here are read by the real config reader from YAML text.
#include "tools/parameters.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <string_view>

#include "config/config.hpp"

namespace qg::tools {
namespace {

Result<config::Config> parse_tools(std::string_view tools_yaml) {
  const std::string yaml =
      "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\ntools:\n" + std::string(tools_yaml);
  return config::parse_config(yaml, "/srv/querygate");
}

// One tool `t` on demo whose parameters are `params_yaml` (indented under `parameters:`).
Parameters specs(std::string_view params_yaml) {
  auto config =
      parse_tools("  t:\n    database: demo\n    sql: SELECT 1\n    parameters:\n" + std::string(params_yaml));
  EXPECT_TRUE(config.has_value()) << (config ? "" : config.error().message + " / " + config.error().fix);
  if (!config) return {};
  return config->tools.at(0).parameters;
}

std::string config_error(std::string_view params_yaml) {
  auto config =
      parse_tools("  t:\n    database: demo\n    sql: SELECT 1\n    parameters:\n" + std::string(params_yaml));
  EXPECT_FALSE(config.has_value());
  if (config) return {};
  EXPECT_EQ(config.error().code, ErrorCode::ConfigInvalid);
  return config.error().message + " | " + config.error().fix;
}

Result<Arguments> call(const Parameters& p, std::string_view json, const LiveValues& live = {}) {
  return validate_arguments(p, boost::json::parse(json).as_object(), "tool 't'", live);
}

// The refusal, as message | fix; fails the test when the call was accepted or refused otherwise.
std::string refused(const Parameters& p, std::string_view json, const LiveValues& live = {}) {
  auto r = call(p, json, live);
  EXPECT_FALSE(r.has_value()) << json;
  if (r) return {};
  EXPECT_EQ(r.error().code, ErrorCode::ToolInvalidArgument) << r.error().message;
  EXPECT_EQ(http_status(r.error().code), 422);
  EXPECT_TRUE(r.error().fix.starts_with("FIX: ")) << r.error().fix;
  return r.error().message + " | " + r.error().fix;
}

constexpr std::string_view kDays =
    "      days: { type: integer, min: 1, max: 90, default: 7, description: window length in days }\n";

TEST(ToolParameters, IntegerAcceptsItsRangeAndFillsTheDefault) {
  const Parameters p = specs(kDays);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_FALSE(p[0].required);  // a default makes it optional
  auto a = call(p, R"({"days": 30})");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(std::get<std::int64_t>(*a->at(0).value), 30);
  a = call(p, R"({})");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(std::get<std::int64_t>(*a->at(0).value), 7);
  a = call(p, R"({"days": 90.0})");  // JSON Schema counts 90.0 as an integer
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(std::get<std::int64_t>(*a->at(0).value), 90);
  EXPECT_TRUE(call(p, R"({"days": 1})").has_value());
}

TEST(ToolParameters, IntegerBadInputsSayTheAllowedRange) {
  const Parameters p = specs(kDays);
  for (std::string_view bad :
       {R"({"days": 0})", R"({"days": 91})", R"({"days": -5})", R"({"days": 18446744073709551615})"}) {
    const std::string e = refused(p, bad);
    EXPECT_NE(e.find("out of range"), std::string::npos) << e;
    EXPECT_NE(e.find("from 1 to 90"), std::string::npos) << e;
  }
  for (std::string_view bad : {R"({"days": "7"})", R"({"days": 7.5})", R"({"days": true})", R"({"days": [7]})",
                               R"({"days": "7; DROP TABLE spans"})"}) {
    const std::string e = refused(p, bad);
    EXPECT_NE(e.find("must be a whole number"), std::string::npos) << e;
    EXPECT_NE(e.find("from 1 to 90 (default 7)"), std::string::npos) << e;
  }
}

TEST(ToolParameters, NumberBooleanAndString) {
  const Parameters p = specs(
      "      ratio: { type: number, min: 0, max: 1 }\n"
      "      flag: { type: boolean }\n"
      "      code: { type: string, max_length: 4, pattern: '^[A-Z]+$' }\n");
  auto a = call(p, R"({"ratio": 0.25, "flag": false, "code": "EU"})");
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_DOUBLE_EQ(std::get<double>(*a->at(0).value), 0.25);
  EXPECT_EQ(std::get<bool>(*a->at(1).value), false);
  EXPECT_EQ(std::get<std::string>(*a->at(2).value), "EU");
  EXPECT_TRUE(call(p, R"({"ratio": 1, "flag": true, "code": "A"})").has_value());  // an integer is a number

  EXPECT_NE(refused(p, R"({"ratio": 1.5, "flag": true, "code": "EU"})").find("from 0 to 1"), std::string::npos);
  EXPECT_NE(refused(p, R"({"ratio": "0.5", "flag": true, "code": "EU"})").find("must be a number"), std::string::npos);
  EXPECT_NE(refused(p, R"({"ratio": 0.5, "flag": "true", "code": "EU"})").find("must be true or false"),
            std::string::npos);
  EXPECT_NE(refused(p, R"({"ratio": 0.5, "flag": 1, "code": "EU"})").find("must be true or false"), std::string::npos);
  EXPECT_NE(refused(p, R"({"ratio": 0.5, "flag": true, "code": 12})").find("must be a string"), std::string::npos);
  const std::string pattern = refused(p, R"({"ratio": 0.5, "flag": true, "code": "eu"})");
  EXPECT_NE(pattern.find("does not match the pattern ^[A-Z]+$"), std::string::npos) << pattern;
  const std::string quote = refused(p, R"({"ratio": 0.5, "flag": true, "code": "E'U"})");
  EXPECT_NE(quote.find("does not match"), std::string::npos) << quote;
  const std::string longer = refused(p, R"({"ratio": 0.5, "flag": true, "code": "ABCDE"})");
  EXPECT_NE(longer.find("longer than 4 characters"), std::string::npos) << longer;
}

TEST(ToolParameters, MaxLengthCountsCharactersNotBytes) {
  const Parameters p = specs("      name: { type: string, max_length: 3 }\n");
  EXPECT_TRUE(call(p, R"({"name": "äöü"})").has_value());  // 6 bytes, 3 characters
  EXPECT_FALSE(call(p, R"({"name": "äöüß"})").has_value());
}

TEST(ToolParameters, EnumListsTheAllowedValues) {
  const Parameters p = specs("      region: { type: string, enum: [EU, US, 'O''Brien'] }\n");
  EXPECT_TRUE(call(p, R"({"region": "US"})").has_value());
  EXPECT_TRUE(call(p, R"({"region": "O'Brien"})").has_value());
  const std::string e = refused(p, R"({"region": "eu"})");
  EXPECT_NE(e.find("not one of the allowed values"), std::string::npos) << e;
  EXPECT_NE(e.find(R"(one of "EU", "US", "O'Brien")"), std::string::npos) << e;
  const Parameters ints = specs("      n: { type: integer, enum: [1, 2, 3] }\n");
  EXPECT_TRUE(call(ints, R"({"n": 2})").has_value());
  EXPECT_NE(refused(ints, R"({"n": 4})").find("one of 1, 2, 3"), std::string::npos);
}

TEST(ToolParameters, DateAndTimestamp) {
  const Parameters p = specs(
      "      day: { type: date, min: '2024-01-01', max: '2026-12-31' }\n"
      "      at: { type: timestamp, required: false }\n");
  auto a = call(p, R"({"day": "2024-02-29", "at": "2026-12-01T14:30:00+02:00"})");
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(std::get<std::string>(*a->at(0).value), "2024-02-29");
  EXPECT_EQ(std::get<std::string>(*a->at(1).value), "2026-12-01T12:30:00Z");  // the same instant in UTC
  a = call(p, R"({"day": "2024-03-01", "at": "2026-01-01T00:30:00.25-01:00"})");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(std::get<std::string>(*a->at(1).value), "2026-01-01T01:30:00.25Z");
  a = call(p, R"({"day": "2024-03-01"})");  // optional, no default: NULL
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(a->at(1).value.has_value());

  for (std::string_view bad : {R"({"day": "2023-02-29"})", R"({"day": "01/02/2024"})", R"({"day": "2024-1-1"})",
                               R"({"day": 20240101})", R"({"day": "2024-01-01T00:00:00Z"})"})
    EXPECT_NE(refused(p, bad).find("must be a date"), std::string::npos) << bad;
  EXPECT_NE(refused(p, R"({"day": "2023-12-31"})").find("from \"2024-01-01\" to \"2026-12-31\""), std::string::npos);
  // A time of day without its offset names no instant.
  const std::string naive = refused(p, R"({"day": "2024-03-01", "at": "2026-12-01T14:30:00"})");
  EXPECT_NE(naive.find("UTC offset"), std::string::npos) << naive;
  EXPECT_FALSE(call(p, R"({"day": "2024-03-01", "at": "2026-12-01T25:00:00Z"})").has_value());
}

TEST(ToolParameters, UnknownNameGetsDidYouMeanAndTheList) {
  const Parameters p = specs(std::string(kDays) + "      project: { type: string }\n");
  const std::string e = refused(p, R"({"dayz": 3, "project": "a"})");
  EXPECT_NE(e.find("unknown argument 'dayz'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean \"days\"?"), std::string::npos) << e;
  EXPECT_NE(e.find("days (integer, default 7), project (string, required)"), std::string::npos) << e;
  const std::string far = refused(p, R"({"sql": "SELECT 1", "project": "a"})");
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(ToolParameters, MissingRequiredIsNamed) {
  const Parameters p = specs(std::string(kDays) + "      project: { type: string, description: project name }\n");
  for (std::string_view bad : {R"({"days": 3})", R"({"days": 3, "project": null})"}) {
    const std::string e = refused(p, bad);
    EXPECT_NE(e.find("argument 'project' of tool 't' is missing"), std::string::npos) << e;
  }
}

TEST(ToolParameters, ValuesFromIsReadAgainOnAMissAndTheFixListsTheCurrentValues) {
  const Parameters p = specs("      project: { type: string, values_from: 'SELECT name FROM projects' }\n");
  std::vector<Value> data{std::string("alpha"), std::string("beta")};
  std::vector<Value> cache = data;
  int reads = 0;
  const LiveValues live = [&](const ParameterSpec& spec, bool refresh) -> Result<std::vector<Value>> {
    EXPECT_EQ(spec.values_from, "SELECT name FROM projects");
    if (refresh) {
      ++reads;
      cache = data;
    }
    return cache;
  };
  EXPECT_TRUE(call(p, R"({"project": "beta"})", live).has_value());
  EXPECT_EQ(reads, 0);                   // a hit in the cached list reads nothing
  data.push_back(std::string("gamma"));  // the data changed; the cache has not seen it
  EXPECT_TRUE(call(p, R"({"project": "gamma"})", live).has_value());
  EXPECT_EQ(reads, 1);
  const std::string e = refused(p, R"({"project": "delta"})", live);
  EXPECT_NE(e.find(R"(one of "alpha", "beta", "gamma")"), std::string::npos) << e;
  // Without a live list, a values_from parameter accepts nothing.
  EXPECT_FALSE(call(p, R"({"project": "beta"})").has_value());
}

TEST(ToolParameters, SpecsThatCannotWorkStopTheConfig) {
  EXPECT_NE(config_error("      d: { type: integr }\n").find("integer, number, string, boolean, date or timestamp"),
            std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, min: 5, max: 1 }\n").find("above max"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, max: 5, default: 7 }\n").find("the default is out of range"),
            std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, default: seven }\n").find("not a whole number"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: string, min: 1 }\n").find("min/max apply to"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: string, pattern: '^a' }\n").find("needs max_length"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: string, pattern: '(', max_length: 3 }\n").find("not a valid regular"),
            std::string::npos);
  EXPECT_NE(config_error("      d: { type: string, enum: [a], values_from: 'SELECT 1' }\n").find("Keep one"),
            std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, enum: [1, x] }\n").find("'tools.t.parameters.d.enum[1]'"),
            std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, defualt: 1 }\n").find("did you mean 'default'"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: integer, required: true, default: 1 }\n").find("required and has a default"),
            std::string::npos);
  EXPECT_NE(config_error("      d-x: { type: integer }\n").find("not an identifier"), std::string::npos);
  EXPECT_NE(config_error("      d: { type: date, default: '2024-02-30' }\n").find("is not a date"), std::string::npos);
}

TEST(ToolParameters, ToolsAndKeysAreCheckedAcrossTheFile) {
  auto config = parse_tools("  t:\n    database: demoo\n    sql: SELECT 1\n");
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message.find("'tools.t.database' names 'demoo'"), std::string::npos)
      << config.error().message;
  EXPECT_NE(config.error().message.find("did you mean 'demo'"), std::string::npos) << config.error().message;
  config = parse_tools("  t-1:\n    database: demo\n    sql: SELECT 1\n");
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message.find("not an identifier"), std::string::npos);
  config = parse_tools("  t:\n    database: demo\n");
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message.find("'tools.t.sql' is required"), std::string::npos) << config.error().message;
  config = parse_tools("  t:\n    database: demo\n    sql: SELECT 1\n    descripton: x\n");
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message.find("did you mean 'description'"), std::string::npos) << config.error().message;

  const std::string key = "keys:\n  - { name: k, sha256: " + std::string(64, 'a') + ", databases: [demo], sql: false, ";
  const std::string tools = "tools:\n  cost: { database: demo, sql: SELECT 1 }\n";
  const std::string base = "databases:\n  demo:\n    backend: sqlite\n    path: demo.db\n";
  auto keyed = config::parse_config(base + key + "tools: [cost] }\n" + tools, "/srv");
  ASSERT_TRUE(keyed.has_value()) << keyed.error().message;
  EXPECT_FALSE(keyed->keys.at(0).sql);
  EXPECT_EQ(keyed->keys.at(0).tools, std::vector<std::string>{"cost"});
  keyed = config::parse_config(base + key + "tools: [costs] }\n" + tools, "/srv");
  ASSERT_FALSE(keyed.has_value());
  EXPECT_NE(keyed.error().message.find("'keys[0].tools' names 'costs'"), std::string::npos) << keyed.error().message;
  EXPECT_NE(keyed.error().message.find("did you mean 'cost'"), std::string::npos) << keyed.error().message;
  // Without `tools`, a key may call every tool on its databases; `sql` defaults to true.
  keyed = config::parse_config(
      base + "keys:\n  - { name: k, sha256: " + std::string(64, 'a') + ", databases: [demo] }\n", "/srv");
  ASSERT_TRUE(keyed.has_value()) << keyed.error().message;
  EXPECT_TRUE(keyed->keys.at(0).sql);
  EXPECT_FALSE(keyed->keys.at(0).tools.has_value());
}

TEST(ToolParameters, JsonSchemaFollowsTheSpecs) {
  const Parameters p = specs(std::string(kDays) +
                             "      project: { type: string, values_from: 'SELECT name FROM projects' }\n"
                             "      region: { type: string, enum: [EU, U.S.], required: false }\n"
                             "      at: { type: timestamp }\n"
                             "      day: { type: date, min: '2026-01-01', max: '2026-12-31' }\n");
  const boost::json::object s = json_schema(p);
  EXPECT_EQ(s.at("type"), "object");
  EXPECT_EQ(s.at("additionalProperties"), false);
  EXPECT_EQ(boost::json::serialize(s.at("required")), R"(["project","at","day"])");
  const auto& days = s.at("properties").at("days").as_object();
  EXPECT_EQ(days.at("type"), "integer");
  EXPECT_EQ(days.at("minimum"), 1);
  EXPECT_EQ(days.at("maximum"), 90);
  EXPECT_EQ(days.at("description"), "window length in days (Default 7.)");
  // Importer-safe: one plain type each, no enum (a union of constants), no default.
  for (const auto& [name, schema] : s.at("properties").as_object()) {
    EXPECT_TRUE(schema.at("type").is_string()) << name;
    EXPECT_FALSE(schema.as_object().contains("enum")) << name;
    EXPECT_FALSE(schema.as_object().contains("default")) << name;
  }
  const auto& region = s.at("properties").at("region").as_object();
  EXPECT_EQ(region.at("pattern"), R"(^(EU|U\.S\.)$)");
  EXPECT_EQ(region.at("description"), R"((One of "EU", "U.S.".))");
  EXPECT_EQ(s.at("properties").at("at").at("format"), "date-time");
  EXPECT_EQ(s.at("properties").at("day").at("description"), R"((From "2026-01-01" to "2026-12-31".))");
  EXPECT_NE(s.at("properties").at("project").at("description").as_string().find("live list"), std::string::npos);
  // The enum's pattern accepts exactly the values the validator accepts.
  const std::regex pattern(std::string(region.at("pattern").as_string()));
  for (const char* v : {"EU", "U.S.", "US", "U.S", "EU|U.S.", "eu", ""}) {
    boost::json::object args{{"region", v}, {"project", "x"}, {"at", "2026-01-01T00:00:00Z"}, {"day", "2026-02-02"}};
    const LiveValues live = [](const ParameterSpec&, bool) -> Result<std::vector<Value>> {
      return std::vector<Value>{std::string("x")};
    };
    EXPECT_EQ(validate_arguments(p, args, "tool 't'", live).has_value(), std::regex_search(std::string(v), pattern))
        << v;
  }
  // Every value the schema admits for days the validator admits too, and the bounds' neighbours neither.
  for (std::int64_t d = 0; d <= 91; ++d) {
    const bool in_schema = d >= days.at("minimum").as_int64() && d <= days.at("maximum").as_int64();
    boost::json::object args{{"days", d}, {"project", "x"}, {"at", "2026-01-01T00:00:00Z"}, {"day", "2026-02-02"}};
    const LiveValues live = [](const ParameterSpec&, bool) -> Result<std::vector<Value>> {
      return std::vector<Value>{std::string("x")};
    };
    EXPECT_EQ(validate_arguments(p, args, "tool 't'", live).has_value(), in_schema) << d;
  }
}

}  // namespace
}  // namespace qg::tools
