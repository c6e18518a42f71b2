#pragma once
// Typed parameters of statements the operator configures (curated tools, write
// tools): what a caller may send for each `:name`, checked before anything
// runs. One module for every kind of configured statement, so a parameter
// means the same thing wherever it is declared:
//  - the spec (type, range, enum, live values, pattern, length, default), read
//    from the YAML by config/ (detail::read_parameters, config/parameters_section.cpp)
//    and checked here (check_spec);
//  - validation of a JSON object of arguments (validate_arguments): wrong JSON
//    type, out of range, not allowed, unknown name (did you mean), missing →
//    422 tool:invalid-argument whose FIX states what is allowed;
//  - the JSON Schema of the parameters (json_schema), the input schema of the
//    tool in /openapi.json and MCP tools/list, from the same specs.
// Values are bound as parameters by the executors, never spliced into SQL.
#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.hpp"

namespace qg::tools {

enum class ParamType : std::uint8_t { Integer, Number, String, Boolean, Date, Timestamp };

// "integer", "number", "string", "boolean", "date", "timestamp".
std::string_view type_name(ParamType type);
std::optional<ParamType> type_from_name(std::string_view name);
// "integer, number, string, boolean, date or timestamp": for FIX texts.
std::string type_names();

// A checked value. integer → int64, number → double (finite), boolean → bool,
// string → the text, date → "YYYY-MM-DD", timestamp → the instant in UTC,
// "YYYY-MM-DDTHH:MM:SS[.fraction]Z" (an offset is required on input).
using Value = std::variant<std::int64_t, double, bool, std::string>;

// The value as a caller writes it in JSON (for FIX texts and the schema): 7, 2.5, true, "EU".
std::string value_json(const Value& value);
boost::json::value to_json(const Value& value);

struct ParameterSpec {
  std::string name;  // the `:name` in the statement
  ParamType type = ParamType::String;
  std::string description;
  // A required parameter must be sent; an optional one without a default is bound as NULL.
  // A parameter with a default is never required.
  bool required = true;
  std::optional<Value> default_value;
  std::optional<Value> min;  // inclusive; integer, number, date, timestamp
  std::optional<Value> max;
  std::vector<Value> enum_values;  // `enum:`; empty: not restricted
  // `values_from:` a query whose first column lists the allowed values, read
  // live (see LiveValues); checked like an enum.
  std::string values_from;
  // `pattern:` an ECMAScript regular expression (JSON Schema's dialect, so the
  // published schema and this check agree), searched like JSON Schema does:
  // anchor it with ^...$ to match the whole value. Strings only; needs max_length.
  std::string pattern;
  std::shared_ptr<const std::regex> compiled_pattern;  // set by check_spec
  std::optional<int> max_length;                       // strings, in characters (code points)
  // `after:` the name of another parameter of the same ordered type (integer,
  // number, date, timestamp): when both are sent, this one must be greater
  // (an `end` after its `start`). Checked by validate_arguments.
  std::string after;
  // Write tools only (config/writes_section.cpp refuses them elsewhere):
  // `references:` a query whose first column lists the rows this value may
  // point at, run inside the write's transaction (it may use the key's
  // bindings, :project_id); `untrusted:` the text is end-user or model text,
  // flagged untrusted when read back.
  std::string references;
  bool untrusted = false;
};

using Parameters = std::vector<ParameterSpec>;

// Reads a literal written in the config file (a YAML scalar's text) as a value of `type`;
// an Error (ConfigInvalid) saying what was expected otherwise.
Result<Value> parse_config_literal(ParamType type, std::string_view text);

// Checks one spec after it was read: keys that fit its type, min <= max, the
// pattern compiles, enum values and the default satisfy the constraints.
// Compiles the pattern. Errors are ConfigInvalid, messages without the key path
// (the caller prefixes it).
Status check_spec(ParameterSpec& spec);

// What the parameter accepts, in words: "an integer from 1 to 90", "one of
// \"EU\", \"US\"", "a date (YYYY-MM-DD)". `live` is the current values_from list.
std::string allowed_text(const ParameterSpec& spec, const std::vector<Value>* live = nullptr);

// The current values of a `values_from` parameter. `refresh`: read them again
// now (validation asks for that once, when a value is not in the cached list,
// so a value added to the data is accepted at once).
using LiveValues = std::function<Result<std::vector<Value>>(const ParameterSpec& spec, bool refresh)>;

// One argument ready to bind: nullopt is SQL NULL (an optional parameter not sent).
struct Argument {
  std::string name;
  ParamType type = ParamType::String;
  std::optional<Value> value;
};
using Arguments = std::vector<Argument>;  // in the order of the specs

// Checks the specs together, after each passed check_spec: an `after:` names
// another parameter of the same ordered type. ConfigInvalid, without the key path.
Status check_specs(std::span<const ParameterSpec> specs);

// Validates a JSON object of arguments against the specs (nothing runs on
// failure): every name must be a parameter (else did-you-mean), every required
// one present, each value of its type and within its constraints, each `after:`
// order kept; defaults are filled in. Errors are 422 with `code`
// (tool:invalid-argument for curated tools, write:invalid-argument for write
// tools); `what` names the called thing in messages ("tool 'cost_by_model'").
// `live` is needed when a spec has values_from (without it such a spec refuses
// every value: fails closed).
Result<Arguments> validate_arguments(std::span<const ParameterSpec> specs, const boost::json::object& arguments,
                                     std::string_view what, const LiveValues& live = {},
                                     ErrorCode code = ErrorCode::ToolInvalidArgument);

// Validates one value for one spec (the part validate_arguments does per argument).
Result<Value> validate_value(const ParameterSpec& spec, const boost::json::value& value, std::string_view what,
                             const LiveValues& live = {}, ErrorCode code = ErrorCode::ToolInvalidArgument);

// The JSON Schema (draft 2020-12 / OpenAPI 3.1) of an arguments object:
// {"type": "object", "properties": {...}, "required": [...], "additionalProperties": false}.
boost::json::object json_schema(std::span<const ParameterSpec> specs);

}  // namespace qg::tools
