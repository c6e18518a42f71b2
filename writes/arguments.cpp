#include "writes/arguments.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "common/edit_distance.hpp"

namespace qg::writes {
namespace {

std::string number_text(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<std::int64_t>(value));
  std::string text = std::to_string(value);
  while (text.size() > 1 && text.back() == '0') text.pop_back();
  return text;
}

std::string list_of(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string shape_of(const config::WriteTool& tool) {
  std::string out = "{";
  bool first = true;
  for (const auto& p : tool.parameters) {
    if (!p.required) continue;
    out += std::string(first ? "" : ", ") + "\"" + p.name + "\": " +
           (p.type == "string" ? (p.enum_values.empty() ? std::string("\"...\"") : "\"" + p.enum_values.front() + "\"")
            : p.type == "boolean" ? std::string("true")
            : p.min               ? number_text(*p.min)
                                  : std::string("1"));
    first = false;
  }
  return out + "}";
}

Error invalid(const config::WriteTool& tool, std::string message, std::string fix) {
  return make_error(ErrorCode::WriteInvalidArgument, "write tool '" + tool.name + "': " + std::move(message),
                    "FIX: " + std::move(fix));
}

std::string kind_of(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return "an integer";
    case boost::json::kind::double_:
      return "a number with a fraction";
    case boost::json::kind::string:
      return "a string";
    case boost::json::kind::array:
      return "an array";
    case boost::json::kind::object:
      return "an object";
  }
  return "a value";
}

// Characters (code points) of valid UTF-8 text; Boost.JSON has already refused invalid UTF-8.
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

Result<exec::Value> check_value(const config::WriteTool& tool, const config::WriteParameter& p,
                                const boost::json::value& v) {
  const std::string what = "'" + p.name + "' must be " + accepted_values(p) + "; got " + kind_of(v);
  const std::string fix = "send \"" + p.name + "\": " + accepted_values(p) + ".";
  if (p.type == "boolean") {
    if (!v.is_bool()) return invalid(tool, what, fix);
    return exec::Value(v.as_bool());
  }
  if (p.type == "integer" || p.type == "number") {
    double number = 0;
    std::optional<std::int64_t> whole;
    if (v.is_int64()) {
      whole = v.as_int64();
      number = static_cast<double>(*whole);
    } else if (v.is_uint64()) {
      return invalid(tool, "'" + p.name + "' is out of range: " + std::to_string(v.as_uint64()), fix);
    } else if (v.is_double()) {
      number = v.as_double();
      if (!std::isfinite(number)) return invalid(tool, what, fix);
      if (p.type == "integer") {
        if (std::floor(number) != number || std::fabs(number) > 9007199254740992.0)
          return invalid(tool, "'" + p.name + "' must be a whole number; got " + number_text(number), fix);
        whole = static_cast<std::int64_t>(number);
      }
    } else {
      return invalid(tool, what, fix);
    }
    if ((p.min && number < *p.min) || (p.max && number > *p.max))
      return invalid(
          tool, "'" + p.name + "' is out of range: " + (whole ? std::to_string(*whole) : number_text(number)), fix);
    if (p.type == "integer") return exec::Value(*whole);
    return exec::Value(number);
  }
  // string
  if (!v.is_string()) return invalid(tool, what, fix);
  const boost::json::string& s = v.as_string();
  const std::string_view text(s.data(), s.size());
  if (text.find('\0') != std::string_view::npos)
    return invalid(tool, "'" + p.name + "' holds a NUL character (\\u0000), which a text column cannot store",
                   "send the text without \\u0000.");
  if (!p.enum_values.empty()) {
    if (std::find(p.enum_values.begin(), p.enum_values.end(), text) == p.enum_values.end()) {
      std::string shown(text.substr(0, 60));
      if (text.size() > 60) shown += "...";
      return invalid(tool,
                     "'" + p.name + "' is not one of the allowed values (got a " + std::to_string(characters(text)) +
                         "-character string)",
                     fix);
    }
    return exec::Value(std::string(text));
  }
  const std::size_t limit = static_cast<std::size_t>(p.max_length > 0 ? p.max_length : kDefaultMaxLength);
  if (const std::size_t n = characters(text); n > limit)
    return invalid(tool,
                   "'" + p.name + "' is " + std::to_string(n) + " characters long; at most " + std::to_string(limit) +
                       " are allowed",
                   "shorten \"" + p.name + "\" to at most " + std::to_string(limit) + " characters.");
  return exec::Value(std::string(text));
}

}  // namespace

std::string accepted_values(const config::WriteParameter& p) {
  if (p.type == "boolean") return "true or false";
  if (p.type == "string") {
    if (!p.enum_values.empty()) return "one of: " + list_of(p.enum_values);
    return "a string of at most " + std::to_string(p.max_length > 0 ? p.max_length : kDefaultMaxLength) + " characters";
  }
  std::string out = p.type == "integer" ? "an integer" : "a number";
  if (p.min && p.max) return out + " from " + number_text(*p.min) + " to " + number_text(*p.max);
  if (p.min) return out + " of at least " + number_text(*p.min);
  if (p.max) return out + " of at most " + number_text(*p.max);
  return out;
}

Result<Arguments> check_arguments(const config::WriteTool& tool, std::string_view body) {
  boost::json::error_code ec;
  boost::json::value root = boost::json::parse(body, ec);
  if (ec || !root.is_object())
    return invalid(tool, ec ? "the body is not valid JSON (" + ec.message() + ")" : "the body must be a JSON object",
                   "send the arguments as one JSON object, e.g. " + shape_of(tool) + ".");
  const boost::json::object& object = root.as_object();
  Arguments out;
  std::vector<std::string> names;
  for (const auto& p : tool.parameters) names.push_back(p.name);
  for (const auto& item : object) {
    const std::string_view key(item.key().data(), item.key().size());
    const auto p = std::find_if(tool.parameters.begin(), tool.parameters.end(),
                                [&](const config::WriteParameter& q) { return q.name == key; });
    if (p != tool.parameters.end()) continue;
    const auto derived = std::find_if(tool.set.begin(), tool.set.end(), [&](const auto& s) { return s.first == key; });
    if (derived != tool.set.end()) {
      out.notes.push_back("'" + derived->first +
                          "' is computed by querygate; the value sent was ignored (do not send it)");
      continue;
    }
    std::string shown(key.substr(0, 60));
    std::string message = "unknown argument '" + shown + (key.size() > 60 ? "...'" : "'");
    std::string closest;
    std::size_t best = 3;
    for (const auto& n : names)
      if (const std::size_t d = edit_distance(key, n); d < best) {
        best = d;
        closest = n;
      }
    if (!closest.empty()) message += " (did you mean '" + closest + "'?)";
    return invalid(tool, message, "use only these arguments: " + list_of(names) + ".");
  }
  for (const auto& p : tool.parameters) {
    const boost::json::value* v = object.if_contains(p.name);
    if (v == nullptr || v->is_null()) {
      if (!p.required) continue;
      return invalid(tool, "argument '" + p.name + "' is " + (v == nullptr ? "missing" : "null"),
                     "send \"" + p.name + "\": " + accepted_values(p) + ".");
    }
    auto value = check_value(tool, p, *v);
    if (!value) return std::move(value).error();
    out.values.emplace(p.name, std::move(value).value());
  }
  return out;
}

}  // namespace qg::writes
