// The generic half of the config reader: messages and positions, the scalar
// readers (integers, booleans, text, entry names) and the duplicate-key guard
// that read_section / read_named in yaml_reader.hpp are built from.
#include "config/yaml_reader.hpp"

#include "common/edit_distance.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace qg::config::detail {

Error config_error(std::string message, std::string fix) {
  return make_error(ErrorCode::ConfigInvalid, std::move(message), std::move(fix));
}

std::string line_and_column(const YAML::Mark& mark) {
  // yaml-cpp counts from 0; editors count from 1.
  return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
}

std::string position_of(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? std::string() : " (" + line_and_column(mark) + ")";
}

std::string child_path(std::string_view parent, std::string_view key) {
  std::string path(parent);
  if (!path.empty()) path += '.';
  path += key;
  return path;
}

std::string section_label(std::string_view path) {
  return path.empty() ? std::string("the top level") : "'" + std::string(path) + "'";
}

std::string clipped(const std::string& text) {
  constexpr std::size_t kMaxShown = 60;  // enough to recognise a value; a pasted blob stays out of the log
  return text.size() <= kMaxShown ? text : text.substr(0, kMaxShown) + "...";
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      break;
  }
  // yaml-cpp tags a quoted scalar "!" and a plain one "?".
  if (node.Tag() == "!") return "the quoted string \"" + clipped(node.Scalar()) + "\"";
  return "'" + clipped(node.Scalar()) + "'";
}

std::string joined(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view word : words) {
    if (!out.empty()) out += ", ";
    out += word;
  }
  return out;
}

std::optional<std::string_view> closest_match(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::optional<std::string_view> best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    const std::size_t tolerance = std::max<std::size_t>(1, candidate.size() / 3);
    if (distance <= tolerance && distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

bool is_ascii_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_identifier(std::string_view text, bool dash_allowed) {
  if (text.empty() || !(is_ascii_letter(text[0]) || text[0] == '_')) return false;
  return std::all_of(text.begin() + 1, text.end(), [dash_allowed](char c) {
    return is_ascii_letter(c) || is_ascii_digit(c) || c == '_' || (dash_allowed && c == '-');
  });
}

// ---------------------------------------------------------------------------
// Reading values.

std::string position_of(const Entry& entry) {
  const std::string at_key = position_of(entry.key);
  return at_key.empty() ? position_of(entry.value) : at_key;
}

namespace {

// Plain decimal integers only: a quoted "5000" or 5e3 is a mistake worth naming, not guessing at.
// Numbers too large for `long long` saturate, so they still fail the range check as numbers.
std::optional<long long> parse_decimal(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  const std::string& tag = node.Tag();
  if (tag != "?" && tag != "tag:yaml.org,2002:int") return std::nullopt;
  const std::string& text = node.Scalar();
  const std::size_t digits_from = (!text.empty() && text[0] == '-') ? 1 : 0;
  if (digits_from == text.size() || !std::all_of(text.begin() + digits_from, text.end(), is_ascii_digit)) {
    return std::nullopt;
  }
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range)
    return digits_from == 1 ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Status read_int(const Entry& entry, int min, int max, int& out) {
  const std::optional<long long> value = parse_decimal(entry.value);
  if (!value || *value < min || *value > max) {
    const std::string got = value ? clipped(entry.value.Scalar()) : describe(entry.value);
    return config_error(
        "'" + entry.path + "' must be an integer in " + std::to_string(min) + ".." + std::to_string(max) + "; got " +
            got + position_of(entry),
        "Set " + entry.path + " to a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ".");
  }
  out = static_cast<int>(*value);
  return {};
}

Status read_bool(const Entry& entry, bool& out) {
  const YAML::Node& node = entry.value;
  const bool plain = node.IsScalar() && (node.Tag() == "?" || node.Tag() == "tag:yaml.org,2002:bool");
  const std::string text = plain ? node.Scalar() : std::string();
  if (text == "true" || text == "True" || text == "TRUE") {
    out = true;
    return {};
  }
  if (text == "false" || text == "False" || text == "FALSE") {
    out = false;
    return {};
  }
  return config_error("'" + entry.path + "' must be true or false; got " + describe(node) + position_of(entry),
                      "Write true or false (yes, no, on and off are not accepted).");
}

Result<std::string> read_text(const Entry& entry, std::string_view expects) {
  if (!entry.value.IsScalar() || entry.value.Scalar().empty()) {
    return config_error(
        "'" + entry.path + "' must be " + std::string(expects) + "; got " + describe(entry.value) + position_of(entry),
        "Give " + entry.path + " a value, or remove the key.");
  }
  return entry.value.Scalar();
}

Result<std::string> entry_name(const YAML::Node& key, std::string_view section_path) {
  if (!key.IsScalar()) {
    return config_error(section_label(section_path) + " has a key that is " + describe(key) + ", not a name" +
                        position_of(key));
  }
  if (key.Scalar().empty()) {
    return config_error(section_label(section_path) + " has an empty key" + position_of(key),
                        "Write a name before the ':'.");
  }
  return key.Scalar();
}

Status DuplicateGuard::add(const std::string& name, const Entry& entry) {
  const auto [first, inserted] = first_seen_.emplace(name, entry.key.Mark());
  if (inserted) return {};
  return config_error("duplicate key '" + entry.path + "'" + position_of(entry.key) +
                          (first->second.is_null() ? "" : "; first written at " + line_and_column(first->second)),
                      "Keep one '" + name + "' entry and merge the other into it.");
}

Error unhandled(const OwnKey& key, const Entry& entry) {
  return make_error(ErrorCode::Internal,
                    "config key '" + entry.path + "' (" + std::string(key.name) + ") is declared but has no reader");
}

Status no_own_keys(const OwnKey& key, const Entry& entry) {
  return unhandled(key, entry);
}

// ---------------------------------------------------------------------------
// Generic readers over the key tables (the templates are in yaml_reader.hpp).

bool applies(Only only, std::optional<Dialect> backend) {
  switch (only) {
    case Only::Any:
      return true;
    case Only::Sqlite:
      return backend == Dialect::Sqlite;
    case Only::Postgres:
      return backend == Dialect::Postgres;
  }
  return false;
}

}  // namespace qg::config::detail
