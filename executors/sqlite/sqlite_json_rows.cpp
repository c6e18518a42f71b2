// pg_json_rows(doc, function): the argument of json_each for PostgreSQL's jsonb
// row sources (admission/admit/json_rows.cpp renders jsonb_each(x) AS e as
// json_each(pg_json_rows(x, 'jsonb_each')) AS e). It
//   - raises PostgreSQL's error where PostgreSQL's function does: jsonb_each /
//     jsonb_each_text / jsonb_object_keys on an array or scalar, the
//     jsonb_array_elements pair on an object or scalar (SQLite's json_each
//     would iterate either);
//   - returns NULL for NULL (no rows, as PostgreSQL);
//   - otherwise returns the object or array json_each then walks, rebuilt so
//     that json_each's `key` and `value` are PostgreSQL's columns: object keys
//     in jsonb's order (shorter first, then bytewise; a repeated key keeps its
//     last value), and each value as a JSON string holding the text PostgreSQL
//     prints for it (jsonb: `"s"`, `1.50`, `{"a": 1, "b": [1, 2]}`, `null`;
//     the *_text functions: the string's own text, SQL NULL for a JSON null).
// The document is read and printed by json_out (sqlite_json.hpp), as the other
// jsonb functions on SQLite read and print it (numbers as numeric prints them:
// 1e2 is 100).
#include <string>
#include <string_view>

#include "common/json_string.hpp"
#include "executors/sqlite/sqlite_functions.hpp"
#include "executors/sqlite/sqlite_json.hpp"

namespace qg::exec::sqlite {
namespace {

using json_out::Kind;

// What json_each's `value` must read for one element: a JSON string of PostgreSQL's text, or null.
void element(std::string& out, const json_out::Value& v, bool as_text, bool keys_only) {
  if (keys_only || (as_text && v.kind == Kind::Null)) {
    out += "null";
    return;
  }
  if (as_text && v.kind == Kind::String) return append_json_string(out, v.text);
  append_json_string(out, json_out::jsonb_text(v));
}

void pg_json_rows(sqlite3_context* c, int /*argc*/, sqlite3_value** argv) {
  const char* fn = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  const std::string function = fn ? fn : "";
  const bool keys = function == "jsonb_object_keys";
  const bool object = keys || function == "jsonb_each" || function == "jsonb_each_text";
  const bool array = function == "jsonb_array_elements" || function == "jsonb_array_elements_text";
  if (!object && !array) return sqlite3_result_error(c, "querygate: pg_json_rows() of an unknown function", -1);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(c);
  if (sqlite3_value_type(argv[0]) == SQLITE_BLOB)
    return sqlite3_result_error(c, "querygate: pg_json_rows() reads JSON text, not a blob", -1);
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (!text) return sqlite3_result_error_nomem(c);
  const auto doc = json_out::parse(std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))));
  if (!doc) return sqlite3_result_error(c, "invalid input syntax for type json", -1);
  const bool as_text = function.ends_with("_text");
  std::string message;
  if (object && doc->kind != Kind::Object) {
    if (keys)
      message = std::string("cannot call jsonb_object_keys on ") + (doc->kind == Kind::Array ? "an array" : "a scalar");
    else
      message = "cannot call " + function + " on a non-object";
  } else if (array && doc->kind != Kind::Array) {
    message = std::string("cannot extract elements from ") + (doc->kind == Kind::Object ? "an object" : "a scalar");
  }
  if (!message.empty()) return sqlite3_result_error(c, message.c_str(), -1);
  // json_out keeps jsonb's key order (shorter first, then bytewise; a repeated key's last value).
  std::string out;
  if (object) {
    out += '{';
    for (std::size_t i = 0; i < doc->object.size(); ++i) {
      if (i > 0) out += ',';
      append_json_string(out, doc->object[i].first);
      out += ':';
      element(out, doc->object[i].second, as_text, keys);
    }
    out += '}';
  } else {
    out += '[';
    for (std::size_t i = 0; i < doc->array.size(); ++i) {
      if (i > 0) out += ',';
      element(out, doc->array[i], as_text, false);
    }
    out += ']';
  }
  sqlite3_result_text(c, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

}  // namespace

bool register_json_rows(sqlite3* db, int flags) {
  if (sqlite3_create_function(db, "pg_json_rows", 2, flags, nullptr, pg_json_rows, nullptr, nullptr) != SQLITE_OK)
    return false;
  // json_each is an eponymous virtual table: built on first use, which declares its schema (a write the
  // authorizer rightly denies). Built once now, before the authorizer is installed, like pg_series; the
  // authorizer then lets a statement read json_each and nothing else of its kind (sqlite_backstop.cpp).
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db, "SELECT key, value FROM json_each('[]')", -1, &stmt, nullptr);
  sqlite3_finalize(stmt);
  return rc == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
