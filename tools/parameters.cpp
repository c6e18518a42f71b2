#include "tools/parameters.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/edit_distance.hpp"

namespace qg::tools {
namespace {

constexpr std::array kTypeNames{
    std::pair{ParamType::Integer, std::string_view("integer")},
    std::pair{ParamType::Number, std::string_view("number")},
    std::pair{ParamType::String, std::string_view("string")},
    std::pair{ParamType::Boolean, std::string_view("boolean")},
    std::pair{ParamType::Date, std::string_view("date")},
    std::pair{ParamType::Timestamp, std::string_view("timestamp")},
};

// A value listed in a FIX: values_from lists can be long.
constexpr std::size_t kMaxListedValues = 50;
// Longest JSON number magnitude a double holds exactly.
constexpr double kExactDouble = 9007199254740992.0;  // 2^53

Error invalid(std::string message, std::string fix) {
  return make_error(ErrorCode::ToolInvalidArgument, std::move(message), "FIX: " + std::move(fix));
}

Error config_invalid(std::string message, std::string fix = {}) {
  return make_error(ErrorCode::ConfigInvalid, std::move(message), std::move(fix));
}

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 (proleptic Gregorian), and back.
long long days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

void civil_from_days(long long z, int& y, int& m, int& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

// YYYY-MM-DD, a real calendar day, years 0001-9999.
bool parse_date(std::string_view s, int& y, int& m, int& d) {
  return s.size() >= 10 && digits(s, 0, 4, y) && s[4] == '-' && digits(s, 5, 2, m) && s[7] == '-' &&
         digits(s, 8, 2, d) && y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

std::optional<std::string> canonical_date(std::string_view s) {
  int y = 0, m = 0, d = 0;
  if (s.size() != 10 || !parse_date(s, y, m, d)) return std::nullopt;
  return std::string(s);
}

// YYYY-MM-DD(T| )HH:MM[:SS[.fraction]](Z|±HH:MM|±HHMM|±HH) → the instant in UTC,
// "YYYY-MM-DDTHH:MM:SS[.fraction]Z". A time without an offset names no instant: refused.
std::optional<std::string> canonical_timestamp(std::string_view s) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!parse_date(s, y, mo, d) || s.size() < 16 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ')) return std::nullopt;
  if (!digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || h > 23 || mi > 59) return std::nullopt;
  std::size_t at = 16;
  std::string fraction;
  if (at < s.size() && s[at] == ':') {
    if (!digits(s, at + 1, 2, sec) || sec > 59) return std::nullopt;
    at += 3;
    if (at < s.size() && s[at] == '.') {
      ++at;
      while (at < s.size() && s[at] >= '0' && s[at] <= '9') fraction.push_back(s[at++]);
      if (fraction.empty() || fraction.size() > 9) return std::nullopt;
    }
  }
  int offset = 0;  // minutes east of UTC
  if (at == s.size()) return std::nullopt;
  if (s[at] == 'Z' || s[at] == 'z') {
    if (at + 1 != s.size()) return std::nullopt;
  } else if (s[at] == '+' || s[at] == '-') {
    const int sign = s[at] == '+' ? 1 : -1;
    int oh = 0, om = 0;
    const std::string_view rest = s.substr(at + 1);
    const bool ok = (rest.size() == 2 && digits(rest, 0, 2, oh)) ||
                    (rest.size() == 4 && digits(rest, 0, 2, oh) && digits(rest, 2, 2, om)) ||
                    (rest.size() == 5 && digits(rest, 0, 2, oh) && rest[2] == ':' && digits(rest, 3, 2, om));
    if (!ok || oh > 15 || om > 59) return std::nullopt;
    offset = sign * (oh * 60 + om);
  } else {
    return std::nullopt;
  }
  long long minutes = days_from_civil(y, mo, d) * 1440 + h * 60 + mi - offset;
  const long long days = minutes >= 0 ? minutes / 1440 : -((-minutes + 1439) / 1440);
  minutes -= days * 1440;
  civil_from_days(days, y, mo, d);
  if (y < 1 || y > 9999) return std::nullopt;
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, static_cast<int>(minutes / 60),
                static_cast<int>(minutes % 60), sec);
  std::string out = buffer;
  if (!fraction.empty()) out += "." + fraction;
  return out + "Z";
}

std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string shown(std::string_view text, std::size_t max = 80) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return std::string(text.substr(0, cut)) + "...";
}

// The JSON value as sent, shortened, for messages.
std::string sent(const boost::json::value& value) {
  if (value.is_string()) return boost::json::serialize(boost::json::value(shown(value.get_string())));
  const std::string text = boost::json::serialize(value);
  return shown(text);
}

std::string_view json_kind(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return "an integer";
    case boost::json::kind::double_:
      return "a number";
    case boost::json::kind::string:
      return "a string";
    case boost::json::kind::array:
      return "an array";
    case boost::json::kind::object:
      return "an object";
  }
  return "a value";
}

// Order within one type (values of a spec are all of its type).
int compare(const Value& a, const Value& b) {
  if (const auto* x = std::get_if<std::int64_t>(&a))
    if (const auto* y = std::get_if<std::int64_t>(&b)) return *x < *y ? -1 : *x > *y ? 1 : 0;
  if (const auto* x = std::get_if<double>(&a))
    if (const auto* y = std::get_if<double>(&b)) return *x < *y ? -1 : *x > *y ? 1 : 0;
  if (const auto* x = std::get_if<std::string>(&a))
    if (const auto* y = std::get_if<std::string>(&b)) return x->compare(*y) < 0 ? -1 : x->compare(*y) > 0 ? 1 : 0;
  if (const auto* x = std::get_if<bool>(&a))
    if (const auto* y = std::get_if<bool>(&b)) return *x == *y ? 0 : *x ? 1 : -1;
  return a.index() < b.index() ? -1 : 1;
}

bool same(const Value& a, const Value& b) {
  return a.index() == b.index() && compare(a, b) == 0;
}

std::string listed(const std::vector<Value>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < kMaxListedValues; ++i)
    out += (i == 0 ? "" : ", ") + value_json(values[i]);
  if (values.size() > kMaxListedValues)
    out += " and " + std::to_string(values.size() - kMaxListedValues) + " more (first " +
           std::to_string(kMaxListedValues) + " shown)";
  return out;
}

// The JSON value read as the parameter's type, before range and enum checks.
std::optional<Value> typed(ParamType type, const boost::json::value& v) {
  switch (type) {
    case ParamType::Integer:
      if (v.is_int64()) return Value(v.get_int64());
      if (v.is_uint64()) return std::nullopt;  // above int64: reported as out of range by the caller
      if (v.is_double()) {
        const double d = v.get_double();  // 7.0 is an integer in JSON Schema
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= kExactDouble)
          return Value(static_cast<std::int64_t>(d));
      }
      return std::nullopt;
    case ParamType::Number:
      if (v.is_double() && std::isfinite(v.get_double())) return Value(v.get_double());
      if (v.is_int64() && std::fabs(static_cast<double>(v.get_int64())) <= kExactDouble)
        return Value(static_cast<double>(v.get_int64()));
      return std::nullopt;
    case ParamType::Boolean:
      if (v.is_bool()) return Value(v.get_bool());
      return std::nullopt;
    case ParamType::String:
      if (v.is_string()) return Value(std::string(v.get_string()));
      return std::nullopt;
    case ParamType::Date:
      if (v.is_string())
        if (auto text = canonical_date(v.get_string())) return Value(std::move(*text));
      return std::nullopt;
    case ParamType::Timestamp:
      if (v.is_string())
        if (auto text = canonical_timestamp(v.get_string())) return Value(std::move(*text));
      return std::nullopt;
  }
  return std::nullopt;
}

std::string_view kind_words(ParamType type) {
  switch (type) {
    case ParamType::Integer:
      return "a whole number";
    case ParamType::Number:
      return "a number";
    case ParamType::String:
      return "a string";
    case ParamType::Boolean:
      return "true or false";
    case ParamType::Date:
      return "a date as a string, \"YYYY-MM-DD\"";
    case ParamType::Timestamp:
      return "a time as a string with its UTC offset, \"YYYY-MM-DDTHH:MM:SSZ\" or \"...+02:00\"";
  }
  return "a value";
}

bool has_range(ParamType type) {
  return type == ParamType::Integer || type == ParamType::Number || type == ParamType::Date ||
         type == ParamType::Timestamp;
}

// The constraints beyond the type: range, enum or live values, length, pattern.
std::optional<Error> constraint_error(const ParameterSpec& spec, const Value& value, const std::string& label,
                                      const std::string& as_sent, const std::vector<Value>* live) {
  if ((spec.min && compare(value, *spec.min) < 0) || (spec.max && compare(value, *spec.max) > 0))
    return invalid(label + " is out of range: " + as_sent,
                   "send \"" + spec.name + "\": " + allowed_text(spec, live) + ".");
  if (!spec.enum_values.empty() &&
      std::none_of(spec.enum_values.begin(), spec.enum_values.end(), [&](const Value& v) { return same(v, value); }))
    return invalid(label + " is not one of the allowed values: " + as_sent,
                   "send \"" + spec.name + "\": " + allowed_text(spec, live) + ".");
  if (const auto* text = std::get_if<std::string>(&value); text && spec.type == ParamType::String) {
    if (spec.max_length && code_points(*text) > static_cast<std::size_t>(*spec.max_length))
      return invalid(label + " is longer than " + std::to_string(*spec.max_length) + " characters (" +
                         std::to_string(code_points(*text)) + ")",
                     "send \"" + spec.name + "\": " + allowed_text(spec, live) + ".");
    if (spec.compiled_pattern && !std::regex_search(*text, *spec.compiled_pattern))
      return invalid(label + " does not match the pattern " + spec.pattern + ": " + as_sent,
                     "send \"" + spec.name + "\": " + allowed_text(spec, live) + ".");
  }
  return std::nullopt;
}

std::string parameter_summary(const ParameterSpec& spec) {
  std::string out = spec.name + " (" + std::string(type_name(spec.type));
  if (spec.default_value)
    out += ", default " + value_json(*spec.default_value);
  else if (spec.required)
    out += ", required";
  else
    out += ", optional";
  return out + ")";
}

std::string parameter_list(std::span<const ParameterSpec> specs) {
  if (specs.empty()) return "none";
  std::string out;
  for (const auto& spec : specs) out += (out.empty() ? "" : ", ") + parameter_summary(spec);
  return out;
}

}  // namespace

std::string_view type_name(ParamType type) {
  for (const auto& [t, name] : kTypeNames)
    if (t == type) return name;
  return "?";
}

std::optional<ParamType> type_from_name(std::string_view name) {
  for (const auto& [t, n] : kTypeNames)
    if (n == name) return t;
  return std::nullopt;
}

std::string type_names() {
  std::string out;
  for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == kTypeNames.size() ? " or " : ", ") + std::string(kTypeNames[i].second);
  return out;
}

boost::json::value to_json(const Value& value) {
  // A double as its shortest spelling reads back (0, not 0E0).
  if (std::holds_alternative<double>(value)) return boost::json::parse(value_json(value));
  return std::visit([](const auto& v) { return boost::json::value(v); }, value);
}

std::string value_json(const Value& value) {
  // Numbers the shortest way that reads back the same (1, 0.25), not Boost.JSON's 1E0.
  if (const auto* d = std::get_if<double>(&value)) {
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, *d);
    if (ec == std::errc()) return std::string(buffer, end);
  }
  return boost::json::serialize(to_json(value));
}

Result<Value> parse_config_literal(ParamType type, std::string_view text) {
  const std::string expected = std::string(kind_words(type));
  switch (type) {
    case ParamType::Integer: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return config_invalid("'" + shown(text) + "' is not " + expected);
      return Value(v);
    }
    case ParamType::Number: {
      // from_chars for double is not in GCC 12's library for every target; strtod with a full-match check.
      const std::string copy(text);
      char* end = nullptr;
      const double v = std::strtod(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(v))
        return config_invalid("'" + shown(text) + "' is not " + expected);
      return Value(v);
    }
    case ParamType::Boolean:
      if (text == "true") return Value(true);
      if (text == "false") return Value(false);
      return config_invalid("'" + shown(text) + "' is not " + expected);
    case ParamType::String:
      return Value(std::string(text));
    case ParamType::Date:
      if (auto v = canonical_date(text)) return Value(std::move(*v));
      return config_invalid("'" + shown(text) + "' is not " + expected);
    case ParamType::Timestamp:
      if (auto v = canonical_timestamp(text)) return Value(std::move(*v));
      return config_invalid("'" + shown(text) + "' is not " + expected);
  }
  return config_invalid("unknown parameter type");
}

Status check_spec(ParameterSpec& spec) {
  const std::string type(type_name(spec.type));
  if ((spec.min || spec.max) && !has_range(spec.type))
    return config_invalid("min/max apply to integer, number, date and timestamp parameters, not " + type,
                          "Remove min/max, or use enum or pattern to restrict a " + type + ".");
  if (spec.min && spec.max && compare(*spec.min, *spec.max) > 0)
    return config_invalid("min " + value_json(*spec.min) + " is above max " + value_json(*spec.max),
                          "Swap min and max.");
  if ((spec.max_length || !spec.pattern.empty()) && spec.type != ParamType::String)
    return config_invalid("max_length and pattern apply to string parameters, not " + type,
                          "Remove them, or make the parameter type: string.");
  if (spec.max_length && *spec.max_length < 1) return config_invalid("max_length must be at least 1");
  if (!spec.enum_values.empty() && !spec.values_from.empty())
    return config_invalid("enum and values_from both list the allowed values", "Keep one of them.");
  if (!spec.values_from.empty() && spec.type == ParamType::Boolean)
    return config_invalid("values_from does not apply to a boolean parameter", "Remove values_from.");
  if (!spec.pattern.empty()) {
    // std::regex (ECMAScript) is the dialect JSON Schema's `pattern` uses, so the
    // published input schema and this check accept the same strings. It
    // backtracks, so the text it searches is bounded by max_length first.
    if (!spec.max_length)
      return config_invalid("a pattern needs max_length (the longest value accepted, at most 1000)",
                            "Add e.g. max_length: 64 next to pattern.");
    if (*spec.max_length > 1000)
      return config_invalid("with a pattern, max_length may be at most 1000 (the regular expression backtracks)",
                            "Lower max_length to 1000 or less.");
    try {
      spec.compiled_pattern = std::make_shared<const std::regex>(spec.pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return config_invalid("pattern '" + shown(spec.pattern) + "' is not a valid regular expression: " + e.what(),
                            "Write an ECMAScript regular expression, e.g. ^[A-Z]{2}$.");
    }
  }
  for (const Value& v : spec.enum_values)
    if (auto error = constraint_error(spec, v, "enum value " + value_json(v), value_json(v), nullptr))
      return config_invalid(error->message, "Make the enum values satisfy min/max, max_length and pattern.");
  if (spec.default_value) {
    spec.required = false;
    ParameterSpec without_list = spec;
    without_list.values_from.clear();  // the live values are not known yet
    if (auto error = constraint_error(without_list, *spec.default_value, "the default", value_json(*spec.default_value),
                                      nullptr))
      return config_invalid(error->message, "Change the default to a value the parameter accepts.");
  }
  return {};
}

std::string allowed_text(const ParameterSpec& spec, const std::vector<Value>* live) {
  std::string out;
  if (!spec.enum_values.empty()) {
    out = "one of " + listed(spec.enum_values);
  } else if (!spec.values_from.empty()) {
    out = live ? (live->empty() ? "a value from the live list, which is empty right now" : "one of " + listed(*live))
               : "one of the values of the live list (" + shown(spec.values_from, 120) + ")";
  } else {
    out = std::string(kind_words(spec.type));
    if (spec.min && spec.max)
      out += " from " + value_json(*spec.min) + " to " + value_json(*spec.max);
    else if (spec.min)
      out += ", at least " + value_json(*spec.min);
    else if (spec.max)
      out += ", at most " + value_json(*spec.max);
    if (spec.max_length) out += ", at most " + std::to_string(*spec.max_length) + " characters";
    if (!spec.pattern.empty()) out += ", matching " + spec.pattern;
  }
  if (spec.default_value) out += " (default " + value_json(*spec.default_value) + ")";
  return out;
}

namespace {

Result<Value> checked_value(const ParameterSpec& spec, const boost::json::value& value, std::string_view what,
                            const LiveValues& live) {
  const std::string label = "argument '" + spec.name + "' of " + std::string(what);
  const std::string as_sent = sent(value);
  std::optional<Value> v = typed(spec.type, value);
  if (!v) {
    if (spec.type == ParamType::Integer && value.is_uint64())
      return invalid(label + " is out of range: " + as_sent, "send \"" + spec.name + "\": " + allowed_text(spec) + ".");
    const bool text_kind = spec.type == ParamType::Date || spec.type == ParamType::Timestamp;
    const std::string got = text_kind && value.is_string() ? as_sent : std::string(json_kind(value)) + " " + as_sent;
    return invalid(label + " must be " + std::string(kind_words(spec.type)) + "; got " + got,
                   "send \"" + spec.name + "\": " + allowed_text(spec) + ".");
  }
  if (const auto* text = std::get_if<std::string>(&*v); text && text->find('\0') != std::string::npos)
    return invalid(label + " holds a NUL character (\\u0000), which a text value cannot hold",
                   "send \"" + spec.name + "\" without \\u0000.");
  if (auto error = constraint_error(spec, *v, label, as_sent, nullptr)) return std::move(*error);
  if (!spec.values_from.empty()) {
    if (!live)
      return make_error(ErrorCode::Internal, label + " has values_from but no live list to check it against",
                        "FIX: report this; the value was not used.");
    // The cached list first; a value it lacks is looked up once more, fresh, so
    // a value added to the data since is accepted, and the FIX lists what is current.
    for (const bool refresh : {false, true}) {
      Result<std::vector<Value>> values = live(spec, refresh);
      if (!values) return std::move(values).error();
      if (std::any_of(values->begin(), values->end(), [&](const Value& x) { return same(x, *v); })) return *v;
      if (refresh)
        return invalid(label + " is not one of the current values: " + as_sent,
                       "send \"" + spec.name + "\": " + allowed_text(spec, &*values) + ".");
    }
  }
  return *v;
}

Result<Arguments> checked_arguments(std::span<const ParameterSpec> specs, const boost::json::object& arguments,
                                    std::string_view what, const LiveValues& live) {
  // Unknown names first: a misspelt name would otherwise surface as a missing one.
  std::vector<std::string> names;
  for (const auto& spec : specs) names.push_back(spec.name);
  for (const auto& argument : arguments) {
    const std::string_view key = argument.key();  // (not a structured binding: clang's lambdas cannot capture one)
    if (std::any_of(specs.begin(), specs.end(), [&](const ParameterSpec& s) { return s.name == key; })) continue;
    std::string fix;
    std::size_t best = std::numeric_limits<std::size_t>::max();
    std::string best_name;
    for (const auto& name : names)
      if (const std::size_t d = edit_distance(key, name); d < best) best = d, best_name = name;
    if (!best_name.empty() && best <= std::max<std::size_t>(2, best_name.size() / 3))
      fix = "did you mean \"" + best_name + "\"? ";
    return invalid("unknown argument '" + shown(key) + "' for " + std::string(what),
                   fix + "The arguments are: " + parameter_list(specs) + ".");
  }
  Arguments out;
  for (const auto& spec : specs) {
    const auto* sent_value = arguments.if_contains(spec.name);
    if (sent_value == nullptr || sent_value->is_null()) {
      if (spec.default_value) {
        out.push_back({spec.name, spec.type, spec.default_value});
        continue;
      }
      if (spec.required)
        return invalid(
            "argument '" + spec.name + "' of " + std::string(what) + " is missing" + (sent_value ? " (null)" : ""),
            "send \"" + spec.name + "\": " + allowed_text(spec) + ". The arguments are: " + parameter_list(specs) +
                ".");
      out.push_back({spec.name, spec.type, std::nullopt});
      continue;
    }
    Result<Value> value = checked_value(spec, *sent_value, what, live);
    if (!value) return std::move(value).error();
    out.push_back({spec.name, spec.type, std::move(value).value()});
  }
  // Cross-field order: `after: start` on `end` wants end > start when both are sent.
  for (const auto& spec : specs) {
    if (spec.after.empty()) continue;
    const auto value_of = [&out](const std::string& name) -> const std::optional<Value>* {
      for (const auto& a : out)
        if (a.name == name) return &a.value;
      return nullptr;
    };
    const auto* mine = value_of(spec.name);
    const auto* other = value_of(spec.after);
    if (!mine || !other || !*mine || !*other) continue;
    if (compare(**mine, **other) > 0) continue;
    return invalid("argument '" + spec.name + "' of " + std::string(what) + " (" + value_json(**mine) +
                       ") must be after '" + spec.after + "' (" + value_json(**other) + ")",
                   "send \"" + spec.name + "\" greater than \"" + spec.after + "\" (or swap the two values).");
  }
  return out;
}

Error with_code(Error error, ErrorCode code) {
  if (error.code == ErrorCode::ToolInvalidArgument) error.code = code;
  return error;
}

}  // namespace

Result<Value> validate_value(const ParameterSpec& spec, const boost::json::value& value, std::string_view what,
                             const LiveValues& live, ErrorCode code) {
  Result<Value> v = checked_value(spec, value, what, live);
  if (!v) return with_code(std::move(v).error(), code);
  return v;
}

Result<Arguments> validate_arguments(std::span<const ParameterSpec> specs, const boost::json::object& arguments,
                                     std::string_view what, const LiveValues& live, ErrorCode code) {
  Result<Arguments> a = checked_arguments(specs, arguments, what, live);
  if (!a) return with_code(std::move(a).error(), code);
  return a;
}

Status check_specs(std::span<const ParameterSpec> specs) {
  for (const auto& spec : specs) {
    if (spec.after.empty()) continue;
    const auto other =
        std::find_if(specs.begin(), specs.end(), [&](const ParameterSpec& s) { return s.name == spec.after; });
    if (other == specs.end() || other->name == spec.name)
      return config_invalid("'" + spec.name + "' is to be after '" + spec.after + "', which is not another parameter",
                            "Name another parameter of the same type in after:.");
    if (other->type != spec.type || !has_range(spec.type))
      return config_invalid("'" + spec.name + "' (" + std::string(type_name(spec.type)) + ") is to be after '" +
                                spec.after + "' (" + std::string(type_name(other->type)) +
                                "): after: orders two integer, number, date or timestamp parameters of one type",
                            "Give both the same ordered type, or remove after:.");
  }
  return {};
}

boost::json::object json_schema(std::span<const ParameterSpec> specs) {
  boost::json::object properties;
  boost::json::array required;
  for (const auto& spec : specs) {
    boost::json::object p;
    switch (spec.type) {
      case ParamType::Integer:
        p["type"] = "integer";
        break;
      case ParamType::Number:
        p["type"] = "number";
        break;
      case ParamType::String:
        p["type"] = "string";
        break;
      case ParamType::Boolean:
        p["type"] = "boolean";
        break;
      case ParamType::Date:
        p["type"] = "string";
        p["format"] = "date";
        break;
      case ParamType::Timestamp:
        p["type"] = "string";
        p["format"] = "date-time";
        break;
    }
    std::string description = spec.description;
    const auto add = [&description](const std::string& text) {
      description += (description.empty() ? "" : " ") + text;
    };
    if (!spec.values_from.empty()) add("(One of a live list; a value not in it is refused with the current values.)");
    if (!spec.references.empty())
      add("(Must name an existing row this tool may refer to: look it up first, never guess; a wrong one is refused "
          "with candidates.)");
    if (!spec.after.empty()) add("(Must be after " + spec.after + ".)");
    // Dates and times are strings in JSON Schema: their range is said in words (no portable keyword holds it).
    const bool text_bound = spec.type == ParamType::Date || spec.type == ParamType::Timestamp;
    if (text_bound && spec.min) add("(From " + value_json(*spec.min) + (spec.max ? "" : ".)"));
    if (text_bound && spec.max) add(std::string(spec.min ? "to " : "(Until ") + value_json(*spec.max) + ".)");
    if (!description.empty()) p["description"] = description;
    if (spec.min && !text_bound) p["minimum"] = to_json(*spec.min);
    if (spec.max && !text_bound) p["maximum"] = to_json(*spec.max);
    if (spec.max_length) p["maxLength"] = *spec.max_length;
    // No `enum` (importers for Gemini drop an operation whose input is a union
    // of constants) and no `default` (openapi-typescript makes such a field
    // required): a string enum is an anchored pattern, the rest is said in words.
    if (!spec.enum_values.empty() && spec.type == ParamType::String) {
      std::string alternatives;
      for (const auto& v : spec.enum_values) {
        alternatives += alternatives.empty() ? "" : "|";
        for (const char c : std::get<std::string>(v)) {
          if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) alternatives += '\\';
          alternatives += c;
        }
      }
      p["pattern"] = "^(" + alternatives + ")$";
    } else if (!spec.pattern.empty()) {
      p["pattern"] = spec.pattern;
    }
    if (!spec.enum_values.empty() || spec.default_value) {
      std::string words = "(";
      if (!spec.enum_values.empty()) words += "One of " + listed(spec.enum_values) + ".";
      if (spec.default_value)
        words += std::string(spec.enum_values.empty() ? "" : " ") + "Default " + value_json(*spec.default_value) + ".";
      p["description"] = (description.empty() ? "" : description + " ") + words + ")";
    }
    if (spec.required && !spec.default_value) required.push_back(boost::json::string(spec.name));
    properties[spec.name] = std::move(p);
  }
  boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  schema["additionalProperties"] = false;
  return schema;
}

}  // namespace qg::tools
