// The `writes:` section (config/writes_section.cpp), the keys' `writes:` scope,
// databases' write_dsn_env / write_permits, and step 1 of a write (the
// arguments, writes/arguments.cpp).
#include <gtest/gtest.h>

#include <string>

#include "config/config.hpp"
#include "writes/arguments.hpp"

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
  EXPECT_EQ(t.parameters[0].type, "integer");
  EXPECT_FALSE(t.parameters[0].references.empty());
  EXPECT_EQ(t.parameters[1].enum_values.size(), 3u);
  EXPECT_EQ(*t.parameters[2].min, 0);
  EXPECT_EQ(*t.parameters[2].max, 1);
  EXPECT_FALSE(t.parameters[3].required);
  EXPECT_TRUE(t.parameters[3].untrusted);
  EXPECT_EQ(t.parameters[3].max_length, 20);
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
       "integer, number, string or boolean"},
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
       "min and max apply"},
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
       "min is greater than max"},
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
  Result<writes::Arguments> check(const std::string& body) { return check_arguments(tool_, body); }
  config::WriteTool tool_;
};

TEST_F(Arguments, TypedValuesComeOut) {
  auto a = check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": "ok"})");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(std::get<std::int64_t>(a->values.at("span_id")), 3);
  EXPECT_EQ(std::get<std::string>(a->values.at("label")), "correct");
  EXPECT_EQ(std::get<double>(a->values.at("score")), 1.0);  // a number parameter is a double
  EXPECT_EQ(std::get<std::string>(a->values.at("explanation")), "ok");
  // An integral float is accepted for an integer; an optional null is absent.
  a = check(R"({"span_id": 3.0, "label": "correct", "score": 0.5, "explanation": null})");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(std::get<std::int64_t>(a->values.at("span_id")), 3);
  EXPECT_FALSE(a->values.contains("explanation"));
}

TEST_F(Arguments, MaxLengthCountsCharactersNotBytes) {
  EXPECT_TRUE(
      check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": ")" + std::string(40, '\xc3') + "\"}")
          .has_value() == false);  // invalid UTF-8 is refused
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "é";
  EXPECT_TRUE(check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": ")" + twenty + "\"}"));
  EXPECT_FALSE(check(R"({"span_id": 3, "label": "correct", "score": 1, "explanation": ")" + twenty + "é\"}"));
}

TEST_F(Arguments, RefusalsNameTheAllowedValues) {
  auto a = check(R"({"span_id": 3, "label": "right", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::WriteInvalidArgument);
  EXPECT_NE(a.error().fix.find("one of: correct, incorrect, hallucination"), std::string::npos) << a.error().fix;
  a = check(R"({"span_id": 3, "label": "correct", "score": 1.5})");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().fix.find("a number from 0 to 1"), std::string::npos) << a.error().fix;
  a = check(R"({"spanid": 3, "label": "correct", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("did you mean 'span_id'"), std::string::npos) << a.error().message;
  a = check(R"({"label": "correct", "score": 1})");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("'span_id' is missing"), std::string::npos) << a.error().message;
}

TEST_F(Arguments, ADerivedFieldIsIgnoredWithANote) {
  auto a = check(R"({"span_id": 3, "label": "correct", "score": 1, "annotator_kind": "HUMAN"})");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_FALSE(a->values.contains("annotator_kind"));
  ASSERT_EQ(a->notes.size(), 1u);
  EXPECT_NE(a->notes[0].find("annotator_kind"), std::string::npos);
}

}  // namespace
}  // namespace qg::writes
