// pg_json_rows (executors/sqlite/sqlite_json_rows.cpp): the argument json_each walks for PostgreSQL's
// jsonb row sources in FROM on SQLite. Each expectation is PostgreSQL's own answer (psql on the test
// cluster, PostgreSQL 16): string_agg over the function's rows in their order, against group_concat over
// json_each(pg_json_rows(...)); the errors are PostgreSQL's messages. Real SQLite, in memory.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg {
namespace {

constexpr const char* kObject =
    R"({"b":{"x":[1,2.50,null,true,"a/\u00e9\n\"q\""]},"a":null,"c":"s","bb":false,"a":3,"é":{"z":1,"y":{}}})";
constexpr const char* kArray = R"([1, "x", null, {"k": [ ], "j":"\t"}, -0, 0.10, [true,false]])";

class SqliteJsonRowsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_TRUE(exec::sqlite::register_functions(db_.get()));
  }
  // The rows as PostgreSQL's string_agg(key || '=' || coalesce(value, 'NULL'), '|') (or of the value alone)
  // would print them, or "error: <message>".
  std::string rows(const std::string& doc, const std::string& function) {
    const bool keyed = function.starts_with("jsonb_each") || function == "jsonb_object_keys";
    const std::string item = function == "jsonb_object_keys" ? "key"
                             : keyed                         ? "key || '=' || coalesce(value, 'NULL')"
                                                             : "coalesce(value, 'NULL')";
    const std::string sql =
        "SELECT coalesce(group_concat(" + item + ", '|'), '') FROM json_each(pg_json_rows(?1, '" + function + "'))";
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
    if (doc == "NULL")
      sqlite3_bind_null(stmt, 1);
    else
      sqlite3_bind_text(stmt, 1, doc.c_str(), -1, SQLITE_TRANSIENT);
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, 0);
      out = text ? reinterpret_cast<const char*>(text) : "NULL";
    } else {
      out = std::string("error: ") + sqlite3_errmsg(db_.get());
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, &sqlite3_close};
};

TEST_F(SqliteJsonRowsTest, ObjectsAsPostgresGivesThem) {
  // jsonb's key order (shorter first, then bytes), the last of a repeated key, jsonb's printing.
  EXPECT_EQ(rows(kObject, "jsonb_each"),
            R"(a=3|b={"x": [1, 2.50, null, true, "a/é\n\"q\""]}|c="s"|bb=false|é={"y": {}, "z": 1})");
  EXPECT_EQ(rows(kObject, "jsonb_each_text"),
            R"(a=3|b={"x": [1, 2.50, null, true, "a/é\n\"q\""]}|c=s|bb=false|é={"y": {}, "z": 1})");
  EXPECT_EQ(rows(kObject, "jsonb_object_keys"), "a|b|c|bb|é");
  EXPECT_EQ(rows(R"({"n": null})", "jsonb_each"), "n=null");
  EXPECT_EQ(rows(R"({"n": null})", "jsonb_each_text"), "n=NULL");
  EXPECT_EQ(rows("{}", "jsonb_each"), "");
  EXPECT_EQ(rows("{}", "jsonb_object_keys"), "");
}

TEST_F(SqliteJsonRowsTest, ArraysAsPostgresGivesThem) {
  EXPECT_EQ(rows(kArray, "jsonb_array_elements"), R"(1|"x"|null|{"j": "\t", "k": []}|0|0.10|[true, false])");
  EXPECT_EQ(rows(kArray, "jsonb_array_elements_text"), R"(1|x|NULL|{"j": "\t", "k": []}|0|0.10|[true, false])");
  EXPECT_EQ(rows("[]", "jsonb_array_elements"), "");
}

TEST_F(SqliteJsonRowsTest, NullGivesNoRows) {
  for (const char* f :
       {"jsonb_each", "jsonb_each_text", "jsonb_object_keys", "jsonb_array_elements", "jsonb_array_elements_text"})
    EXPECT_EQ(rows("NULL", f), "") << f;
}

TEST_F(SqliteJsonRowsTest, TheWrongKindFailsWithPostgresMessage) {
  EXPECT_EQ(rows(kArray, "jsonb_each"), "error: cannot call jsonb_each on a non-object");
  EXPECT_EQ(rows("1", "jsonb_each_text"), "error: cannot call jsonb_each_text on a non-object");
  EXPECT_EQ(rows("[]", "jsonb_object_keys"), "error: cannot call jsonb_object_keys on an array");
  EXPECT_EQ(rows(R"("s")", "jsonb_object_keys"), "error: cannot call jsonb_object_keys on a scalar");
  EXPECT_EQ(rows("{}", "jsonb_array_elements"), "error: cannot extract elements from an object");
  EXPECT_EQ(rows("null", "jsonb_array_elements_text"), "error: cannot extract elements from a scalar");
  // PostgreSQL: "unsupported Unicode escape sequence"; here the document is no JSON jsonb can hold: it fails too.
  EXPECT_EQ(rows(R"({"a\u0000x": 1})", "jsonb_each").rfind("error: ", 0), 0u);
  // A number with an exponent as numeric prints it (json_out, as the other jsonb functions on SQLite).
  EXPECT_EQ(rows(R"({"n": 1e2, "m": 1.5e-3})", "jsonb_each"), "m=0.0015|n=100");
  EXPECT_EQ(rows("{bad", "jsonb_each"), "error: invalid input syntax for type json");
  EXPECT_EQ(rows("{}", "json_tree").rfind("error: querygate: pg_json_rows() of an unknown function", 0), 0u);
}

}  // namespace
}  // namespace qg
