#pragma once
// The table-driven YAML key reader the config sections share: the key tables'
// types, read_section / read_named over them, positions, messages and "did you
// mean" suggestions. Not part of the public interface (that is config.hpp).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/dialect.hpp"
#include "common/result.hpp"

namespace qg::config::detail {

// ---------------------------------------------------------------------------
// The key tables. Every key the file may hold is declared once, in its section's
// table (config.cpp and the *_section.cpp files), with its type, default and
// allowed range. The readers below are generic over these tables, so a key added
// to a table is parsed, range-checked, defaulted and offered as a "did you mean"
// suggestion without further code.

// Which backend a database key belongs to. Keys of every other section are `Any`.
enum class Only { Any, Sqlite, Postgres };

template <typename Section>
struct IntKey {
  std::string_view name;
  int Section::*field;
  int default_value;
  int min;  // inclusive
  int max;  // inclusive
  Only only = Only::Any;
};

template <typename Section>
struct BoolKey {
  std::string_view name;
  bool Section::*field;
  bool default_value;
  Only only = Only::Any;
};

// A string key. When written it must not be empty; the default applies when it is absent.
template <typename Section>
struct TextKey {
  std::string_view name;
  std::string Section::*field;
  std::string_view default_value;
  Only only = Only::Any;
};

// A key whose value is more than a copied scalar: a nested mapping, the backend
// choice, a path to resolve, host:port. It is declared in the table so that the unknown-key
// check, the suggestions and the required-key check see it; its section's reader
// converts the value.
struct OwnKey {
  std::string_view name;
  std::string_view expects;  // type (and default) in words, for messages
  bool required = false;
  Only only = Only::Any;
};

template <typename Section>
struct KeyTable {
  std::span<const IntKey<Section>> ints = {};
  std::span<const BoolKey<Section>> bools = {};
  std::span<const TextKey<Section>> texts = {};
  std::span<const OwnKey> own = {};
};

// ---------------------------------------------------------------------------
// Small helpers for messages.

Error config_error(std::string message, std::string fix = {});
std::string line_and_column(const YAML::Mark& mark);
// " (line 3, column 5)", or nothing when yaml-cpp has no position for the node.
std::string position_of(const YAML::Node& node);
std::string child_path(std::string_view parent, std::string_view key);
std::string section_label(std::string_view path);
std::string clipped(const std::string& text);
// What a value is, in the words an operator would use for it.
std::string describe(const YAML::Node& node);
std::string joined(const std::vector<std::string_view>& words);
// The candidate a typo most likely meant, if any is close enough to be worth naming.
std::optional<std::string_view> closest_match(std::string_view word, const std::vector<std::string_view>& candidates);
bool is_ascii_letter(char c);
bool is_ascii_digit(char c);
// [A-Za-z_][A-Za-z0-9_]*, plus '-' after the first character when `dash_allowed`.
bool is_identifier(std::string_view text, bool dash_allowed);

// ---------------------------------------------------------------------------
// Reading values.

// One `key: value` pair being read, with the full key path it has in the file.
// yaml-cpp nodes are handles, so copies are cheap.
struct Entry {
  YAML::Node key;  // null for the document root
  YAML::Node value;
  std::string path;
};

// Where to point the operator: the key's line (values that are absent have no good position).
std::string position_of(const Entry& entry);
Status read_int(const Entry& entry, int min, int max, int& out);
// YAML 1.2 booleans only; yaml-cpp would also take yes/no/on/off, which read as strings elsewhere.
Status read_bool(const Entry& entry, bool& out);
Result<std::string> read_text(const Entry& entry, std::string_view expects);
// The name in one mapping entry: a non-empty scalar. `section_path` is the mapping's key path.
Result<std::string> entry_name(const YAML::Node& key, std::string_view section_path);

// yaml-cpp keeps repeated keys and its lookups silently take the first; a repeated key in a
// security allowlist is more likely a merge mistake than intent, so it is an error.
class DuplicateGuard {
 public:
  Status add(const std::string& name, const Entry& entry);

 private:
  std::map<std::string, YAML::Mark, std::less<>> first_seen_;
};

// A key the table declares but no reader handles: a bug in the config reader, not in the operator's file.
Error unhandled(const OwnKey& key, const Entry& entry);
Status no_own_keys(const OwnKey& key, const Entry& entry);

// ---------------------------------------------------------------------------
// Generic readers over the key tables.

bool applies(Only only, std::optional<Dialect> backend);

template <typename Key>
const Key* find_key(std::span<const Key> keys, std::string_view name, std::optional<Dialect> backend) {
  for (const Key& key : keys)
    if (key.name == name && applies(key.only, backend)) return &key;
  return nullptr;
}

// Calls `visit(name, only)` for every key of the table.
template <typename Section, typename Visit>
void for_each_key(const KeyTable<Section>& table, Visit&& visit) {
  for (const auto& key : table.ints) visit(key.name, key.only);
  for (const auto& key : table.bools) visit(key.name, key.only);
  for (const auto& key : table.texts) visit(key.name, key.only);
  for (const auto& key : table.own) visit(key.name, key.only);
}

template <typename Section>
Error unknown_key(const KeyTable<Section>& table, const std::string& name, const Entry& entry,
                  std::string_view section_path, std::optional<Dialect> backend) {
  std::vector<std::string_view> allowed;
  std::optional<Only> other_backends_key;
  for_each_key(table, [&](std::string_view key_name, Only only) {
    if (applies(only, backend))
      allowed.push_back(key_name);
    else if (key_name == name)
      other_backends_key = only;
  });
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());

  // A key of the other backend is known, only misplaced: say that rather than "unknown".
  if (other_backends_key && backend) {
    const std::string_view owner = *other_backends_key == Only::Sqlite ? "sqlite" : "postgres";
    return config_error("'" + entry.path + "' applies only to backend " + std::string(owner) + ", and " +
                            section_label(section_path) + " is backend " + std::string(dialect_name(*backend)) +
                            position_of(entry),
                        "Remove '" + name + "', or change the backend. Keys for " +
                            std::string(dialect_name(*backend)) + ": " + joined(allowed) + ".");
  }
  std::string message = "unknown key '" + entry.path + "'";
  if (const auto match = closest_match(name, allowed)) message += " (did you mean '" + std::string(*match) + "'?)";
  return config_error(message + position_of(entry),
                      "Allowed keys in " + section_label(section_path) + ": " + joined(allowed) + ".");
}

// Reads one mapping against its key table: applies the defaults, copies scalar keys into
// `out`, passes the table's own keys to `read_own(const OwnKey&, const Entry&)`, and refuses
// unknown, repeated and missing keys. A null value (`key:` or `{}`) is an empty mapping.
template <typename Section, typename ReadOwn>
Status read_section(const Entry& section, const KeyTable<Section>& table, std::optional<Dialect> backend, Section& out,
                    ReadOwn&& read_own) {
  for (const auto& key : table.ints)
    if (applies(key.only, backend)) out.*key.field = key.default_value;
  for (const auto& key : table.bools)
    if (applies(key.only, backend)) out.*key.field = key.default_value;
  for (const auto& key : table.texts)
    if (applies(key.only, backend)) out.*key.field = std::string(key.default_value);

  if (!section.value.IsNull() && !section.value.IsMap()) {
    return config_error(section_label(section.path) + " must be a mapping of keys; got " + describe(section.value) +
                        position_of(section));
  }
  DuplicateGuard seen;
  std::vector<std::string_view> own_keys_seen;
  if (section.value.IsMap()) {
    for (const auto& pair : section.value) {
      Result<std::string> name = entry_name(pair.first, section.path);
      if (!name) return std::move(name).error();
      const Entry entry{pair.first, pair.second, child_path(section.path, *name)};
      if (Status status = seen.add(*name, entry); !status) return status;

      Status status;
      if (const auto* int_key = find_key(table.ints, *name, backend)) {
        status = read_int(entry, int_key->min, int_key->max, out.*int_key->field);
      } else if (const auto* bool_key = find_key(table.bools, *name, backend)) {
        status = read_bool(entry, out.*bool_key->field);
      } else if (const auto* text_key = find_key(table.texts, *name, backend)) {
        Result<std::string> text = read_text(entry, "a non-empty string");
        if (!text) return std::move(text).error();
        out.*text_key->field = std::move(*text);
      } else if (const auto* own_key = find_key(table.own, *name, backend)) {
        own_keys_seen.push_back(own_key->name);
        status = read_own(*own_key, entry);
      } else {
        return unknown_key(table, *name, entry, section.path, backend);
      }
      if (!status) return status;
    }
  }
  for (const OwnKey& key : table.own) {
    if (!key.required || !applies(key.only, backend)) continue;
    if (std::find(own_keys_seen.begin(), own_keys_seen.end(), key.name) != own_keys_seen.end()) continue;
    const std::string path = child_path(section.path, key.name);
    const std::string for_backend = backend ? " for backend " + std::string(dialect_name(*backend)) : "";
    return config_error("'" + path + "' is required" + for_backend + position_of(section),
                        "Add '" + std::string(key.name) + "' (" + std::string(key.expects) + ") under " +
                            section_label(section.path) + ".");
  }
  return {};
}

// Reads a mapping whose keys are names the operator chose (databases, tables, columns), in file
// order, calling `read_entry(const std::string& name, const Entry&)` for each.
template <typename ReadEntry>
Status read_named(const Entry& section, std::string_view expects, ReadEntry&& read_entry) {
  if (section.value.IsNull()) return {};
  if (!section.value.IsMap()) {
    return config_error("'" + section.path + "' must be " + std::string(expects) + "; got " + describe(section.value) +
                        position_of(section));
  }
  DuplicateGuard seen;
  for (const auto& pair : section.value) {
    Result<std::string> name = entry_name(pair.first, section.path);
    if (!name) return std::move(name).error();
    const Entry entry{pair.first, pair.second, child_path(section.path, *name)};
    if (Status status = seen.add(*name, entry); !status) return status;
    if (Status status = read_entry(*name, entry); !status) return status;
  }
  return {};
}

}  // namespace qg::config::detail
