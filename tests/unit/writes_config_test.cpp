// The `writes:` section (config/writes_section.cpp), the keys' `writes:` scope,
// databases' write_dsn_env / write_permits, and step 1 of a write: the
// arguments, checked by the curated tools' parameter system (tools/parameters.hpp)
// with the write extras (references, untrusted, the default max_length).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <stdexcept>
#include <string>

#include "config/config.hpp"
#include "tools/parameters.hpp"

namespace qg::writes {
namespace {

const std::string kBase = R"(
databases:
  demo:
    backend: sqlite
    path: demo.db
    tables: { spans: {}, span_annotations: {} }
)";

const std::string kTool = R"(
writes:
  save_annotation:
    database: demo
    table: span_annotations
    description: Record a verdict.
    parameters:
      span_id:     { type: integer, references: "SELECT id FROM spans WHERE kind = 'LLM'" }
      label:       { type: string, enum: [correct, incorrect, hallucination] }
      score:       { type: number, min: 0, max: 1 }
      explanation: { type: string, max_length: 20, required: false, untrusted: true }
    set:
      annotator_kind: "'LLM'"
    duplicate_key: [span_id, annotator_kind]
    checks:
      - sql: "SELECT :label <> 'correct' OR :score >= 0.5"
        fix: "a 'correct' verdict needs score >= 0.5"
    after_checks:
      - name: one
        sql: "SELECT 1"
)";

Result<config::Config> parse(const std::string& text) {
  return config::parse_config(text, "/srv/querygate");
}

TEST(WritesConfig, ReadsTheIssueShape) {
  auto c = parse(kBase + kTool);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->writes.size(), 1u);
  const auto& t = c->writes[0];
  EXPECT_EQ(t.name, "save_annotation");
  EXPECT_EQ(t.database, "demo");
  EXPECT_EQ(t.table, "span_annotations");
  ASSERT_EQ(t.parameters.size(), 4u);
  EXPECT_EQ(t.parameters[0].name, "span_id");
  EXPECT_EQ(t.parameters[0].type, tools::ParamType::Integer);
  EXPECT_FALSE(t.parameters[0].references.empty());
  EXPECT_EQ(t.parameters[1].enum_values.size(), 3u);
  EXPECT_EQ(std::get<double>(*t.parameters[2].min), 0.0);
  EXPECT_EQ(std::get<double>(*t.parameters[2].max), 1.0);
  EXPECT_FALSE(t.parameters[3].required);
  EXPECT_TRUE(t.parameters[3].untrusted);
  EXPECT_EQ(t.parameters[3].max_length, 20);
  EXPECT_FALSE(t.parameters[1].max_length);  // an enum bounds the length itself
  auto free_text =
      parse(kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: string } }\n");
  ASSERT_TRUE(free_text) << free_text.error().message;
  EXPECT_EQ(free_text->writes[0].parameters[0].max_length, config::kWriteStringChars);  // the write tools' default
  ASSERT_EQ(t.set.size(), 1u);
  EXPECT_EQ(t.set[0].first, "annotator_kind");
  EXPECT_EQ(t.duplicate_key.size(), 2u);
  EXPECT_EQ(t.checks.size(), 1u);
  EXPECT_EQ(t.after_checks.size(), 1u);
  EXPECT_EQ(c->databases[0].write_permits, 1);
}

TEST(WritesConfig, RefusesWhatCannotWork) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {kBase + "writes:\n  t:\n    database: nope\n    table: x\n    parameters: { a: { type: integer } }\n",
       "not a configured database"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: int } }\n",
       "not a parameter type"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: integer } }\n"
               "    set: { a: \"1\" }\n",
       "also a parameter"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: integer } }\n"
               "    duplicate_key: [b]\n",
       "neither a parameter nor a set column"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: integer } }\n"
               "    checks: [{ sql: \"SELECT true\" }]\n",
       "fix' is required"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: string, min: 1 } }\n",
       "min/max apply to integer, number, date and timestamp"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: integer, typo: 1 } }\n",
       "unknown key"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: {}\n", "at least one parameter"},
      {kBase + kTool + "keys:\n  - { name: k, sha256: " + std::string(64, 'a') +
           ", databases: [demo], writes: [save_annotations] }\n",
       "did you mean 'save_annotation'"},
      {"databases:\n  pg:\n    backend: postgres\n    dsn: postgresql://x@h/db\n"
       "writes:\n  t:\n    database: pg\n    table: x\n    parameters: { a: { type: integer } }\n",
       "has no write_dsn_env"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: integer, min: 2, max: 1 "
               "} }\n",
       "is above max"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: date }, b: { type: "
               "integer, after: a } }\n",
       "of one type"},
      {kBase + "writes:\n  t:\n    database: demo\n    table: x\n    parameters: { a: { type: date, after: c } }\n",
       "not another parameter"},
      {kBase + "tools:\n  t:\n    database: demo\n    sql: SELECT 1 WHERE :a > 0\n    parameters: { a: { type: "
               "integer, references: \"SELECT 1\" } }\n",
       "apply to write tools' parameters"},
      {kBase + "tools:\n  t:\n    database: demo\n    sql: SELECT 1 WHERE :a > 0\n    parameters: { a: { type: "
               "string, untrusted: true } }\n",
       "apply to write tools' parameters"},
  };
  for (const auto& c : cases) {
    auto parsed = parse(c.text);
    ASSERT_FALSE(parsed) << c.text;
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
  }
}

TEST(WritesConfig, KeysTakeAListOrAll) {
  auto c = parse(kBase + kTool + "keys:\n  - { name: a, sha256: " + std::string(64, 'a') +
                 ", databases: [demo], writes: all }\n  - { name: b, sha256: " + std::string(64, 'b') +
                 ", databases: [demo], writes: [save_annotation] }\n  - { name: c, sha256: " + std::string(64, 'c') +
                 ", databases: [demo] }\n");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->keys[0].all_writes);
  EXPECT_EQ(c->keys[1].writes, std::vector<std::string>{"save_annotation"});
  EXPECT_FALSE(c->keys[2].all_writes);
  EXPECT_TRUE(c->keys[2].writes.empty());
}

class Arguments : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = parse(kBase + kTool);
    ASSERT_TRUE(c);
    tool_ = c->writes[0];
  }
  Result<tools::Arguments> check(const std::string& body) {
    return tools::validate_arguments(tool_.parameters, boost::json::parse(body).as_object(), "write tool 't'", {},
                                     ErrorCode::WriteInvalidArgument);
  }
  static const tools::Value& value(const tools::Arguments& a, const std::string& name) {
    for (const auto& x : a)
      if (x.name == name && x.value) return *x.value;
    throw std::runtime_error("no value for " + name);
  }
  config::WriteTool tool_;
};

TEST_F(Arguments, TypedValuesComeOut) {
  auto a = check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": "ok"})");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(std::get<std::int64_t>(value(*a, "span_id")), 3);
  EXPECT_EQ(std::get<std::string>(value(*a, "label")), "correct");
  EXPECT_EQ(std::get<double>(value(*a, "score")), 1.0);  // a number parameter is a double
  EXPECT_EQ(std::get<std::string>(value(*a, "explanation")), "ok");
  // An integral float is accepted for an integer; an optional null is no value.
  a = check(R"({"span_id": 3.0, "label": "correct", "score": 0.5, "explanation": null})");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(std::get<std::int64_t>(value(*a, "span_id")), 3);
  EXPECT_FALSE(a->back().value);
}

TEST_F(Arguments, MaxLengthCountsCharactersNotBytes) {
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "é";
  EXPECT_TRUE(check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": ")" + twenty + "\"}"));
  EXPECT_FALSE(check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": ")" + twenty + "é\"}"));
  auto nul = check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": "a\u0000b"})");
  ASSERT_FALSE(nul);
  EXPECT_EQ(nul.error().code, ErrorCode::WriteInvalidArgument);
}

TEST_F(Arguments, RefusalsNameTheAllowedValuesWithTheWriteCode) {
  auto a = check(R"({"span_id": 3, "label": "right", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::WriteInvalidArgument);
  EXPECT_NE(a.error().fix.find(R"(one of "correct", "incorrect", "hallucination")"), std::string::npos)
      << a.error().fix;
  a = check(R"({"span_id": 3, "label": "correct", "score": 1.5})");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::WriteInvalidArgument);
  EXPECT_NE(a.error().fix.find("a number from 0 to 1"), std::string::npos) << a.error().fix;
  a = check(R"({"spanid": 3, "label": "correct", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().fix.find("did you mean \"span_id\""), std::string::npos) << a.error().fix;
  a = check(R"({"label": "correct", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("'span_id' of write tool 't' is missing"), std::string::npos) << a.error().message;
}

// The write tools get every type and constraint of the curated tools: date,
// timestamp, pattern, and a cross-field order (`after:`).
TEST(WriteParameters, DatesTimestampsPatternsAndOrder) {
  auto c = parse(kBase + R"(
writes:
  book:
    database: demo
    table: span_annotations
    parameters:
      code:  { type: string, pattern: "^[A-Z]{2}-[0-9]{3}$", max_length: 6 }
      day:   { type: date, min: 2026-01-01 }
      start: { type: timestamp }
      end:   { type: timestamp, after: start, required: false }
)");
  ASSERT_TRUE(c) << c.error().message;
  const auto& specs = c->writes[0].parameters;
  const auto check = [&](const std::string& body) {
    return tools::validate_arguments(specs, boost::json::parse(body).as_object(), "write tool 'book'", {},
                                     ErrorCode::WriteInvalidArgument);
  };
  auto ok = check(R"({"code": "AB-123", "day": "2026-03-01", "start": "2026-03-01T10:00:00+02:00",
                      "end": "2026-03-01T09:00:00Z"})");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(std::get<std::string>(*(*ok)[2].value), "2026-03-01T08:00:00Z");  // the instant, in UTC
  for (const std::string body : {
           R"({"code": "ab-123", "day": "2026-03-01", "start": "2026-03-01T10:00:00Z"})",  // pattern
           R"({"code": "AB-123", "day": "2025-12-31", "start": "2026-03-01T10:00:00Z"})",  // min date
           R"({"code": "AB-123", "day": "2026-02-30", "start": "2026-03-01T10:00:00Z"})",  // no such day
           R"({"code": "AB-123", "day": "2026-03-01", "start": "2026-03-01T10:00:00"})",   // no offset
           R"({"code": "AB-123", "day": "2026-03-01", "start": "2026-03-01T10:00:00Z",
               "end": "2026-03-01T10:00:00Z"})",                                           // not after start
           R"({"code": "AB-123", "day": "2026-03-01", "start": "2026-03-01T10:00:00Z",
               "end": "2026-03-01T11:00:00+02:00"})",                                      // 09:00Z: before
       }) {
    auto refused = check(body);
    ASSERT_FALSE(refused) << body;
    EXPECT_EQ(refused.error().code, ErrorCode::WriteInvalidArgument) << body;
    EXPECT_TRUE(refused.error().fix.starts_with("FIX: ")) << refused.error().fix;
  }
}

}  // namespace
}  // namespace qg::writes
