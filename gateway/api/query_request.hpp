#pragma once
// The body of POST /v1/query, read strictly: an unknown field is an error, so an
// agent that writes {"query": ...} learns the field is called "sql".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace qg::gateway {

struct QueryRequest {
  std::string sql;
  std::optional<std::string> database;
  std::optional<std::int64_t> limit;
  bool validate_only = false;
  // Asks for a deadline shorter than limits.deadline_ms; it covers the wait
  // for a permit and the run, like the default one.
  std::optional<std::int64_t> timeout_ms;
};

// `max_timeout_ms` is limits.deadline_ms: a longer timeout_ms is refused, not clamped,
// so an agent does not believe it was granted more time than it gets.
Result<QueryRequest> parse_query_request(std::string_view body, std::int64_t max_timeout_ms);

// The first key named twice in one object anywhere in `json` ("params.arguments.sql"), or nullopt (also
// for text that is not JSON). Other JSON readers keep one of the two silently; callers refuse instead.
std::optional<std::string> duplicated_json_key(std::string_view json);

}  // namespace qg::gateway
