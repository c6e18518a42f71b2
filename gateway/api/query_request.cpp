#include "gateway/api/query_request.hpp"

#include <simdjson.h>

#include <optional>
#include <string>
#include <unordered_set>

#include "admission/catalog/catalog.hpp"

namespace qg::gateway {
namespace {

constexpr std::string_view kShape =
    "FIX: send a JSON object like {\"sql\": \"SELECT count(*) FROM spans\", \"database\": \"demo\", \"limit\": 100}.";

Error bad_field(std::string_view name, std::string_view want) {
  return make_error(ErrorCode::RequestBadField, "field '" + std::string(name) + "' must be " + std::string(want),
                    std::string(kShape));
}

// The first key named twice in one object, anywhere in the document, as a
// path ("sql", "database.name"). simdjson's DOM keeps every pair, so without
// this {"sql": "A", "sql": "B"} would run B while a proxy or log reads A.
std::optional<std::string> duplicated_key(simdjson::dom::element e, const std::string& path) {
  if (simdjson::dom::object obj; !e.get_object().get(obj)) {
    std::unordered_set<std::string_view> seen;
    for (auto [key, value] : obj) {
      std::string here = path.empty() ? std::string(key) : path + "." + std::string(key);
      if (!seen.insert(key).second) return here;
      if (auto inner = duplicated_key(value, here)) return inner;
    }
  } else if (simdjson::dom::array arr; !e.get_array().get(arr)) {
    std::size_t i = 0;
    for (simdjson::dom::element item : arr)
      if (auto inner = duplicated_key(item, path + "[" + std::to_string(i++) + "]")) return inner;
  }
  return std::nullopt;
}

}  // namespace

Result<QueryRequest> parse_query_request(std::string_view body, std::int64_t max_timeout_ms) {
  if (body.empty()) return make_error(ErrorCode::RequestBadJson, "the request body is empty", std::string(kShape));
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(body);
  simdjson::dom::element root;
  if (auto err = parser.parse(padded).get(root))
    return make_error(ErrorCode::RequestBadJson,
                      std::string("the request body is not valid JSON: ") + simdjson::error_message(err),
                      std::string(kShape));
  simdjson::dom::object obj;
  if (root.get_object().get(obj))
    return make_error(ErrorCode::RequestBadJson, "the request body must be a JSON object", std::string(kShape));

  if (auto key = duplicated_key(root, ""))
    return make_error(ErrorCode::RequestDuplicateField, "field '" + *key + "' appears more than once",
                      "FIX: send each field once; put the one statement you want run in \"sql\".");

  QueryRequest out;
  bool has_sql = false;
  for (auto [key, value] : obj) {
    if (key == "sql") {
      std::string_view s;
      if (value.get_string().get(s)) return bad_field("sql", "a string holding one SQL statement");
      out.sql = std::string(s);
      has_sql = true;
    } else if (key == "database") {
      std::string_view s;
      if (value.get_string().get(s)) return bad_field("database", "a string naming a configured database");
      out.database = std::string(s);
    } else if (key == "limit") {
      std::int64_t v = 0;
      if (value.get_int64().get(v) || v < 1) return bad_field("limit", "a whole number of rows, at least 1");
      out.limit = v;
    } else if (key == "timeout_ms") {
      std::int64_t v = 0;
      if (value.get_int64().get(v) || v < 1 || v > max_timeout_ms)
        return make_error(ErrorCode::RequestBadField,
                          "field 'timeout_ms' must be a whole number of milliseconds from 1 to " +
                              std::to_string(max_timeout_ms) + " (the gateway's deadline)",
                          "FIX: send \"timeout_ms\": " + std::to_string(max_timeout_ms) +
                              " or less, or leave it out to get the full " + std::to_string(max_timeout_ms) + " ms.");
      out.timeout_ms = v;
    } else if (key == "validate_only") {
      bool v = false;
      if (value.get_bool().get(v)) return bad_field("validate_only", "true or false");
      out.validate_only = v;
    } else {
      const std::vector<std::string> known{"sql", "database", "limit", "validate_only", "timeout_ms"};
      auto close = catalog::closest_names(key, known, 1);
      std::string fix = close.empty() ? "FIX: send only sql, database, limit, validate_only and timeout_ms."
                                      : "FIX: did you mean \"" + close[0] +
                                            "\"? The fields are sql, database, limit, "
                                            "validate_only and timeout_ms.";
      if (key == "query" || key == "statement") fix = "FIX: put the statement in \"sql\".";
      return make_error(ErrorCode::RequestUnknownField, "unknown field '" + std::string(key) + "'", fix);
    }
  }
  if (!has_sql) return make_error(ErrorCode::RequestMissingField, "field 'sql' is missing", std::string(kShape));
  return out;
}

std::optional<std::string> duplicated_json_key(std::string_view json) {
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root)) return std::nullopt;
  return duplicated_key(root, "");
}

}  // namespace qg::gateway
