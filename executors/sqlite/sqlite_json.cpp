// pg_jsonb_exists(doc, key): PostgreSQL's `jsonb ? text` for SQLite, where a
// JSON column is text (admission translates `x ? 'key'`, admit/json_on_sqlite.cpp).
// True when the key is a top-level key of an object, a string element of a
// top-level array, or the document is that string itself; NULL for a NULL
// document or key. A document that is not JSON fails the statement, as
// PostgreSQL could not have stored it as jsonb.
#include <simdjson.h>

#include <string>
#include <string_view>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

void pg_jsonb_exists(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const std::string_view doc(reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                             static_cast<std::size_t>(sqlite3_value_bytes(argv[0])));
  const std::string_view key(reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
                             static_cast<std::size_t>(sqlite3_value_bytes(argv[1])));
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(simdjson::padded_string(doc)).get(root) != simdjson::SUCCESS)
    return sqlite3_result_error(ctx, "querygate: x ? key on a value that is not JSON", -1);
  bool found = false;
  if (simdjson::dom::object obj; root.get_object().get(obj) == simdjson::SUCCESS) {
    for (auto field : obj)
      if (field.key == key) found = true;
  } else if (simdjson::dom::array arr; root.get_array().get(arr) == simdjson::SUCCESS) {
    for (auto element : arr) {
      std::string_view s;
      if (element.get_string().get(s) == simdjson::SUCCESS && s == key) found = true;
    }
  } else if (std::string_view s; root.get_string().get(s) == simdjson::SUCCESS) {
    found = s == key;
  }
  sqlite3_result_int(ctx, found ? 1 : 0);
}

}  // namespace

bool register_json_functions(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_jsonb_exists", 2, flags, nullptr, pg_jsonb_exists, nullptr, nullptr) ==
         SQLITE_OK;
}

}  // namespace qg::exec::sqlite
