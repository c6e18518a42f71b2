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
};

Result<QueryRequest> parse_query_request(std::string_view body);

}  // namespace qg::gateway
