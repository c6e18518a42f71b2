#pragma once
// Step 1 of a write: the caller's JSON object of arguments checked against the
// tool's typed parameters (type, range, enum, length, required, unknown names).
// Every refusal is write:invalid-argument with a FIX naming the allowed values.
// A value for a derived (`set`) column is dropped and reported in notes.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"

namespace qg::writes {

// Strings longer than this are refused even without max_length (characters).
inline constexpr int kDefaultMaxLength = 10'000;

struct Arguments {
  std::map<std::string, exec::Value, std::less<>> values;  // every parameter the caller sent (absent optional: none)
  std::vector<std::string> notes;                          // e.g. a derived field that was ignored
};

// `body` is the request body: one JSON object. `max_body` has been enforced by the transport.
Result<Arguments> check_arguments(const config::WriteTool& tool, std::string_view body);

// The FIX's description of what a parameter accepts: "an integer from 0 to 1", "one of: a, b".
std::string accepted_values(const config::WriteParameter& parameter);

}  // namespace qg::writes
