#include "config/config.hpp"

#include "common/edit_distance.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace qg::config {

const Database* Config::find_database(std::string_view name) const {
  for (const Database& database : databases)
    if (database.name == name) return &database;
  return nullptr;
}

namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// The key tables. Every key the file may hold is declared here once, with its
// type, default and allowed range. The readers further down are generic over
// these tables, so a key added here is parsed, range-checked, defaulted and
// offered as a "did you mean" suggestion without further code.

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
// choice, a path to resolve, host:port. It is declared here so that the unknown-key
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

constexpr int kMiB = 1 << 20;

// The top level.
constexpr OwnKey kTopOwn[] = {
    {"listen", "host:port, e.g. 127.0.0.1:8080 or [::1]:8080 (default 127.0.0.1:8080; port 0 = any free port)"},
    {"limits", "a mapping of limit names to integers (refuse_blobs: true/false)"},
    {"databases", "a mapping of database names to their settings"},
    {"keys", "a list of API keys: - { name: NAME, sha256: HEX, databases: [NAME, ...] }"},
};
constexpr IntKey<Config> kTopInts[] = {
    {"shutdown_grace_ms", &Config::shutdown_grace_ms, 10'000, 0, 600'000},
};
constexpr BoolKey<Config> kTopBools[] = {
    {"log_sql", &Config::log_sql, false},  // the request log carries a fingerprint; the text only on request
};
constexpr KeyTable<Config> kTopKeys{.ints = kTopInts, .bools = kTopBools, .own = kTopOwn};

// keys[i].* — all three are required; their readers check the values.
constexpr OwnKey kApiKeyOwn[] = {
    {"name", "a name for logs and metrics ([A-Za-z_][A-Za-z0-9_-]*)", true},
    {"sha256", "the SHA-256 of the token in hex, as printed by `querygate hash-key`", true},
    {"databases", "a list of database names this key may query, e.g. [demo]", true},
};
constexpr KeyTable<ApiKey> kApiKeyKeys{.own = kApiKeyOwn};

// limits.*
constexpr IntKey<Limits> kLimitInts[] = {
    {"default_rows", &Limits::default_rows, 100, 1, 1'000'000},  // and at most max_rows (checked after)
    {"max_rows", &Limits::max_rows, 5000, 1, 1'000'000},
    {"max_sql_bytes", &Limits::max_sql_bytes, 16384, 64, kMiB},
    {"deadline_ms", &Limits::deadline_ms, 30'000, 1, 3'600'000},
    {"max_cell_bytes", &Limits::max_cell_bytes, 8192, 16, 16 * kMiB},
    {"max_response_bytes", &Limits::max_response_bytes, kMiB, 1024, 256 * kMiB},
    {"float_digits", &Limits::float_digits, 6, 0, 17},
    {"max_body_bytes", &Limits::max_body_bytes, 65536, 1024, 16 * kMiB},
};
constexpr BoolKey<Limits> kLimitBools[] = {
    {"refuse_blobs", &Limits::refuse_blobs, false},  // refuse binary values rather than send base64
};
constexpr KeyTable<Limits> kLimitKeys{.ints = kLimitInts, .bools = kLimitBools};

// The header documents these defaults for operators; the table must not drift from it.
constexpr bool limit_defaults_match_header() {
  constexpr Limits header_defaults{};
  for (const auto& key : kLimitInts)
    if (header_defaults.*key.field != key.default_value) return false;
  return true;
}
static_assert(limit_defaults_match_header(), "kLimitInts defaults must equal the defaults in config.hpp");

// databases.<name>.*
constexpr IntKey<Database> kDatabaseInts[] = {
    {"permits", &Database::permits, 2, 1, 64, Only::Sqlite},  // WAL lets a few readers share the file
    {"permits", &Database::permits, 4, 1, 64, Only::Postgres},
    {"queue_depth", &Database::queue_depth, 8, 0, 10'000},
};
constexpr BoolKey<Database> kDatabaseBools[] = {
    {"allow_privileged_role", &Database::allow_privileged_role, false, Only::Postgres},
    {"spotlight", &Database::spotlight, false},  // wrap untrusted text in a per-response marker
};
constexpr TextKey<Database> kDatabaseTexts[] = {
    {"dsn", &Database::dsn, "", Only::Postgres},          // exactly one of dsn / dsn_env (checked after)
    {"dsn_env", &Database::dsn_env, "", Only::Postgres},  // an environment variable's name
    {"schema", &Database::schema, "public", Only::Postgres},
};
constexpr OwnKey kDatabaseOwn[] = {
    {"backend", "sqlite or postgres", true},
    {"path", "the SQLite file, relative to the config file's folder", true, Only::Sqlite},
    {"tables", "a mapping of allowlisted table names to their curation ({} for none)"},
};
constexpr KeyTable<Database> kDatabaseKeys{
    .ints = kDatabaseInts, .bools = kDatabaseBools, .texts = kDatabaseTexts, .own = kDatabaseOwn};

// databases.<name>.tables.<table>.*
constexpr TextKey<TableCuration> kTableTexts[] = {
    {"comment", &TableCuration::comment, ""},
};
constexpr OwnKey kTableOwn[] = {
    {"columns", "a mapping of column names to their curation ({} for none)"},
    {"virtual_columns", "a mapping of computed column names to {sqlite: expr, postgres: expr, comment: ...}"},
};
constexpr KeyTable<TableCuration> kTableKeys{.texts = kTableTexts, .own = kTableOwn};

// databases.<name>.tables.<table>.columns.<column>.*
constexpr BoolKey<ColumnCuration> kColumnBools[] = {
    {"untrusted", &ColumnCuration::untrusted, false},  // holds text written by end users
    {"timestamp", &ColumnCuration::timestamp, false},  // holds ISO-8601 timestamps
};
constexpr TextKey<ColumnCuration> kColumnTexts[] = {
    {"comment", &ColumnCuration::comment, ""},
    {"unit", &ColumnCuration::unit, ""},
};
constexpr KeyTable<ColumnCuration> kColumnKeys{.bools = kColumnBools, .texts = kColumnTexts};

// databases.<name>.tables.<table>.virtual_columns.<column>.*
constexpr BoolKey<VirtualColumn> kVirtualBools[] = {
    {"untrusted", &VirtualColumn::untrusted, false},
};
constexpr TextKey<VirtualColumn> kVirtualTexts[] = {
    {"sqlite", &VirtualColumn::sqlite, ""},      // required when the database's backend is sqlite (checked after)
    {"postgres", &VirtualColumn::postgres, ""},  // required when the backend is postgres
    {"comment", &VirtualColumn::comment, ""},
    {"unit", &VirtualColumn::unit, ""},
};
constexpr KeyTable<VirtualColumn> kVirtualKeys{.bools = kVirtualBools, .texts = kVirtualTexts};

// ---------------------------------------------------------------------------
// Small helpers for messages.

Error config_error(std::string message, std::string fix = {}) {
  return make_error(ErrorCode::ConfigInvalid, std::move(message), std::move(fix));
}

std::string line_and_column(const YAML::Mark& mark) {
  // yaml-cpp counts from 0; editors count from 1.
  return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
}

// " (line 3, column 5)", or nothing when yaml-cpp has no position for the node.
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

// What a value is, in the words an operator would use for it.
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

char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The candidate a typo most likely meant, if any is close enough to be worth naming.
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

// [A-Za-z_][A-Za-z0-9_]*, plus '-' after the first character when `dash_allowed`.
bool is_identifier(std::string_view text, bool dash_allowed) {
  if (text.empty() || !(is_ascii_letter(text[0]) || text[0] == '_')) return false;
  return std::all_of(text.begin() + 1, text.end(), [dash_allowed](char c) {
    return is_ascii_letter(c) || is_ascii_digit(c) || c == '_' || (dash_allowed && c == '-');
  });
}

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
std::string position_of(const Entry& entry) {
  const std::string at_key = position_of(entry.key);
  return at_key.empty() ? position_of(entry.value) : at_key;
}

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

// YAML 1.2 booleans only; yaml-cpp would also take yes/no/on/off, which read as strings elsewhere.
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

// The name in one mapping entry: a non-empty scalar. `section_path` is the mapping's key path.
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

// yaml-cpp keeps repeated keys and its lookups silently take the first; a repeated key in a
// security allowlist is more likely a merge mistake than intent, so it is an error.
class DuplicateGuard {
 public:
  Status add(const std::string& name, const Entry& entry) {
    const auto [first, inserted] = first_seen_.emplace(name, entry.key.Mark());
    if (inserted) return {};
    return config_error("duplicate key '" + entry.path + "'" + position_of(entry.key) +
                            (first->second.is_null() ? "" : "; first written at " + line_and_column(first->second)),
                        "Keep one '" + name + "' entry and merge the other into it.");
  }

 private:
  std::map<std::string, YAML::Mark, std::less<>> first_seen_;
};

// A key the table declares but no reader handles: a bug in this file, not in the operator's.
Error unhandled(const OwnKey& key, const Entry& entry) {
  return make_error(ErrorCode::Internal,
                    "config key '" + entry.path + "' (" + std::string(key.name) + ") is declared but has no reader");
}

Status no_own_keys(const OwnKey& key, const Entry& entry) {
  return unhandled(key, entry);
}

// ---------------------------------------------------------------------------
// Generic readers over the key tables.

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

// ---------------------------------------------------------------------------
// The sections.

Status read_limits(const Entry& entry, Limits& limits) {
  if (Status status = read_section(entry, kLimitKeys, std::nullopt, limits, no_own_keys); !status) return status;
  if (limits.default_rows > limits.max_rows) {
    const std::string default_rows = child_path(entry.path, "default_rows");
    const std::string max_rows = child_path(entry.path, "max_rows");
    return config_error("'" + default_rows + "' (" + std::to_string(limits.default_rows) + ") is larger than '" +
                            max_rows + "' (" + std::to_string(limits.max_rows) + ")" + position_of(entry),
                        "Set " + default_rows + " to at most " + std::to_string(limits.max_rows) + " (it defaults to " +
                            std::to_string(Limits{}.default_rows) + "), or raise " + max_rows + ".");
  }
  return {};
}

Status read_listen(const Entry& entry, const OwnKey& key, Config& config) {
  Result<std::string> text = read_text(entry, key.expects);
  if (!text) return std::move(text).error();
  auto host_port = parse_listen(*text);
  if (!host_port) {
    Error error = std::move(host_port).error();
    error.message = "'" + entry.path + "': " + error.message + position_of(entry);
    return error;
  }
  config.listen_host = std::move(host_port->first);
  config.listen_port = host_port->second;
  return {};
}

Status read_columns(const Entry& entry, const OwnKey& key, TableCuration& table) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& column_entry) -> Status {
    ColumnCuration column;
    if (Status status = read_section(column_entry, kColumnKeys, std::nullopt, column, no_own_keys); !status)
      return status;
    table.columns.emplace_back(name, std::move(column));
    return {};
  });
}

Status read_virtual_columns(const Entry& entry, const OwnKey& key, Dialect backend, TableCuration& table) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& column_entry) -> Status {
    VirtualColumn column;
    if (Status status = read_section(column_entry, kVirtualKeys, std::nullopt, column, no_own_keys); !status)
      return status;
    const std::string& expression = backend == Dialect::Sqlite ? column.sqlite : column.postgres;
    if (expression.empty()) {
      const std::string path = child_path(column_entry.path, dialect_name(backend));
      return config_error("'" + path + "' is required: the database's backend is " +
                              std::string(dialect_name(backend)) + position_of(column_entry),
                          "Add " + std::string(dialect_name(backend)) + ": <SQL expression over the table's columns>.");
    }
    for (const auto& [existing, curation] : table.columns)
      if (existing == name)
        return config_error("'" + column_entry.path + "' names a curated physical column" + position_of(column_entry),
                            "Give the virtual column a name no physical column has.");
    table.virtual_columns.emplace_back(name, std::move(column));
    return {};
  });
}

Status read_tables(const Entry& entry, const OwnKey& key, Dialect backend, std::vector<TableCuration>& tables) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& table_entry) -> Status {
    TableCuration table;
    table.name = name;
    Status status = read_section(table_entry, kTableKeys, std::nullopt, table,
                                 [&](const OwnKey& own, const Entry& own_entry) -> Status {
                                   if (own.name == "columns") return read_columns(own_entry, own, table);
                                   if (own.name == "virtual_columns")
                                     return read_virtual_columns(own_entry, own, backend, table);
                                   return unhandled(own, own_entry);
                                 });
    if (!status) return status;
    tables.push_back(std::move(table));
    return {};
  });
}

// The backend decides which other keys a database takes, so it is read before them.
Result<Dialect> read_backend(const Entry& database) {
  const OwnKey& key = *find_key(std::span<const OwnKey>(kDatabaseOwn), "backend", std::nullopt);
  for (const auto& pair : database.value) {
    if (!pair.first.IsScalar() || pair.first.Scalar() != key.name) continue;
    const Entry entry{pair.first, pair.second, child_path(database.path, key.name)};
    const std::string text = entry.value.IsScalar() ? entry.value.Scalar() : std::string();
    for (const Dialect dialect : {Dialect::Sqlite, Dialect::Postgres})
      if (text == dialect_name(dialect)) return dialect;
    std::string message = "'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value);
    if (!text.empty()) {
      if (const auto match = closest_match(text, {dialect_name(Dialect::Sqlite), dialect_name(Dialect::Postgres)}))
        message += " (did you mean '" + std::string(*match) + "'?)";
    }
    return config_error(message + position_of(entry), "Write backend: sqlite or backend: postgres.");
  }
  return config_error("'" + child_path(database.path, key.name) + "' is required" + position_of(database),
                      "Add backend: sqlite or backend: postgres under '" + database.path + "'.");
}

Status check_postgres_connection(const Entry& entry, const Database& database) {
  const std::string dsn = child_path(entry.path, "dsn");
  const std::string dsn_env = child_path(entry.path, "dsn_env");
  const std::string fix =
      "Write either dsn: postgresql://user@host:5432/db or dsn_env: NAME (an environment variable holding "
      "the DSN, which keeps a password out of this file).";
  if (database.dsn.empty() == database.dsn_env.empty()) {
    const std::string problem = database.dsn.empty() ? "neither is set" : "both are set";
    return config_error(
        "backend postgres needs exactly one of '" + dsn + "' and '" + dsn_env + "'; " + problem + position_of(entry),
        fix);
  }
  if (!database.dsn_env.empty() && !is_identifier(database.dsn_env, /*dash_allowed=*/false)) {
    return config_error("'" + dsn_env + "' must name an environment variable ([A-Za-z_][A-Za-z0-9_]*); got '" +
                            clipped(database.dsn_env) + "'" + position_of(entry),
                        fix);
  }
  return {};
}

Status read_database(const std::string& name, const Entry& entry, const fs::path& base_dir, Database& database) {
  if (!is_identifier(name, /*dash_allowed=*/true)) {
    return config_error("database name '" + clipped(name) + "' at '" + entry.path +
                            "' is not a name requests can use ([A-Za-z_][A-Za-z0-9_-]*)" + position_of(entry),
                        "Rename it using letters, digits, '_' and '-', starting with a letter or '_'.");
  }
  database.name = name;
  if (!entry.value.IsMap()) {
    return config_error("'" + entry.path + "' must be a mapping with at least 'backend'; got " + describe(entry.value) +
                            position_of(entry),
                        "Write e.g. " + name + ": { backend: sqlite, path: " + name + ".db }.");
  }
  Result<Dialect> backend = read_backend(entry);
  if (!backend) return std::move(backend).error();
  database.backend = *backend;

  Status status = read_section(entry, kDatabaseKeys, database.backend, database,
                               [&](const OwnKey& key, const Entry& own_entry) -> Status {
                                 if (key.name == "backend") return {};  // read above
                                 if (key.name == "tables")
                                   return read_tables(own_entry, key, database.backend, database.tables);
                                 if (key.name == "path") {
                                   Result<std::string> path = read_text(own_entry, key.expects);
                                   if (!path) return std::move(path).error();
                                   // Absolute paths stay as written: operator/ keeps the right side then.
                                   database.path = (base_dir / *path).lexically_normal();
                                   return {};
                                 }
                                 return unhandled(key, own_entry);
                               });
  if (!status) return status;
  if (database.backend == Dialect::Postgres) return check_postgres_connection(entry, database);
  return {};
}

Status read_databases(const Entry& entry, const OwnKey& key, const fs::path& base_dir,
                      std::vector<Database>& databases) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& database_entry) -> Status {
    Database database;
    if (Status status = read_database(name, database_entry, base_dir, database); !status) return status;
    databases.push_back(std::move(database));
    return {};
  });
}

// ---------------------------------------------------------------------------
// keys: a list, because a key has no natural name to index it by in the file
// (its name is a label for logs; two keys may be rotated under similar labels).

bool is_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); });
}

Status read_key_name(const Entry& entry, const OwnKey& key, ApiKey& out) {
  Result<std::string> name = read_text(entry, key.expects);
  if (!name) return std::move(name).error();
  if (!is_identifier(*name, /*dash_allowed=*/true)) {
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + "; got '" + clipped(*name) + "'" +
                            position_of(entry),
                        "Use letters, digits, '_' and '-', starting with a letter or '_'.");
  }
  out.name = std::move(*name);
  return {};
}

Status read_key_hash(const Entry& entry, const OwnKey& key, ApiKey& out) {
  Result<std::string> hash = read_text(entry, key.expects);
  if (!hash) return std::move(hash).error();
  if (hash->size() != 64 || !is_hex(*hash)) {
    // Never echo the value: it may be the token itself, pasted by mistake.
    return config_error("'" + entry.path + "' must be 64 hex digits (a SHA-256); got " + std::to_string(hash->size()) +
                            " characters" + position_of(entry),
                        "Put the token on querygate's standard input: `querygate hash-key < token-file`, and paste "
                        "the 64 hex digits it prints. The file must never hold the token itself.");
  }
  std::transform(hash->begin(), hash->end(), hash->begin(), ascii_lower);
  out.sha256 = std::move(*hash);
  return {};
}

Status read_key_databases(const Entry& entry, const OwnKey& key, ApiKey& out) {
  if (!entry.value.IsSequence() || entry.value.size() == 0) {
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value) +
                            position_of(entry),
                        "List at least one database, e.g. databases: [demo].");
  }
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Result<std::string> name = read_text(item, "a database name");
    if (!name) return std::move(name).error();
    if (std::find(out.databases.begin(), out.databases.end(), *name) != out.databases.end())
      return config_error("'" + item.path + "' repeats database '" + clipped(*name) + "'" + position_of(item),
                          "List each database once.");
    out.databases.push_back(std::move(*name));
  }
  return {};
}

Status read_keys(const Entry& entry, const OwnKey& key, std::vector<ApiKey>& keys) {
  if (entry.value.IsNull()) return {};
  if (!entry.value.IsSequence()) {
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value) +
                            position_of(entry),
                        "Write each key as a list item starting with '- name: ...'.");
  }
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    ApiKey api_key;
    Status status = read_section(item, kApiKeyKeys, std::nullopt, api_key,
                                 [&](const OwnKey& own, const Entry& own_entry) -> Status {
                                   if (own.name == "name") return read_key_name(own_entry, own, api_key);
                                   if (own.name == "sha256") return read_key_hash(own_entry, own, api_key);
                                   if (own.name == "databases") return read_key_databases(own_entry, own, api_key);
                                   return unhandled(own, own_entry);
                                 });
    if (!status) return status;
    for (const ApiKey& earlier : keys) {
      if (earlier.name == api_key.name)
        return config_error("'" + item.path + ".name' repeats the key name '" + api_key.name + "'" + position_of(item),
                            "Give every key its own name, so logs and metrics tell them apart.");
      if (earlier.sha256 == api_key.sha256)
        return config_error(
            "'" + item.path + ".sha256' is the same hash as key '" + earlier.name + "'" + position_of(item),
            "Give every key its own token; one token cannot stand for two keys.");
    }
    keys.push_back(std::move(api_key));
  }
  return {};
}

// Keys name databases; databases may come later in the file, so this runs last.
Status check_key_databases(const Config& config) {
  std::vector<std::string_view> names;
  for (const Database& database : config.databases) names.push_back(database.name);
  for (std::size_t i = 0; i < config.keys.size(); ++i)
    for (const std::string& name : config.keys[i].databases)
      if (config.find_database(name) == nullptr) {
        std::string message = "'keys[" + std::to_string(i) + "].databases' names '" + clipped(name) +
                              "', which is not a configured database";
        if (const auto match = closest_match(name, names)) message += " (did you mean '" + std::string(*match) + "'?)";
        return config_error(message, "Use names from 'databases': " + joined(names) + ".");
      }
  return {};
}

Result<Config> read_config(const YAML::Node& root, const fs::path& base_dir) {
  Config config;
  const Entry top{YAML::Node(), root, ""};
  Status status =
      read_section(top, kTopKeys, std::nullopt, config, [&](const OwnKey& key, const Entry& entry) -> Status {
        if (key.name == "listen") return read_listen(entry, key, config);
        if (key.name == "limits") return read_limits(entry, config.limits);
        if (key.name == "databases") return read_databases(entry, key, base_dir, config.databases);
        if (key.name == "keys") return read_keys(entry, key, config.keys);
        return unhandled(key, entry);
      });
  if (!status) return std::move(status).error();
  if (config.databases.empty()) {
    return config_error("'databases' must name at least one database",
                        "Add e.g. databases: { demo: { backend: sqlite, path: demo.db, tables: { events: {} } } }.");
  }
  if (Status keys = check_key_databases(config); !keys) return std::move(keys).error();
  return config;
}

}  // namespace

Result<std::pair<std::string, std::uint16_t>> parse_listen(const std::string& text) {
  const std::string fix = "Write host:port, e.g. 127.0.0.1:8080, or [::1]:8080 for IPv6; port 0 picks a free port.";
  const std::string quoted = "listen address '" + clipped(text) + "'";
  std::string_view host;
  std::string_view port;
  const std::string_view view(text);
  if (view.starts_with('[')) {
    const std::size_t close = view.find(']');
    if (close == std::string_view::npos) return config_error(quoted + " opens '[' but never closes it", fix);
    host = view.substr(1, close - 1);
    const std::string_view rest = view.substr(close + 1);
    if (!rest.starts_with(':')) return config_error(quoted + " has no ':port' after ']'", fix);
    port = rest.substr(1);
  } else {
    const std::size_t colon = view.rfind(':');
    if (colon == std::string_view::npos) return config_error(quoted + " has no port", fix);
    host = view.substr(0, colon);
    port = view.substr(colon + 1);
    // Without brackets the last ':' of an IPv6 address cannot be told from the port separator.
    if (host.find(':') != std::string_view::npos)
      return config_error(quoted + " looks like an IPv6 address without brackets", fix);
  }
  if (host.empty()) return config_error(quoted + " has no host", fix);
  if (port.empty() || !std::all_of(port.begin(), port.end(), is_ascii_digit))
    return config_error(quoted + " has a port that is not a number", fix);
  unsigned long number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (error != std::errc() || end != port.data() + port.size() || number > 65535)
    return config_error(quoted + " has a port above 65535", fix);
  return std::pair{std::string(host), static_cast<std::uint16_t>(number)};
}

Result<Config> parse_config(const std::string& yaml_text, const fs::path& base_dir) {
  // yaml-cpp reports problems by throwing; they end here, as values.
  try {
    std::error_code ec;
    const fs::path base = base_dir.empty() ? fs::current_path(ec) : fs::absolute(base_dir, ec);
    if (ec) return config_error("cannot resolve the config folder '" + base_dir.string() + "': " + ec.message());
    const std::vector<YAML::Node> documents = YAML::LoadAll(yaml_text);
    if (documents.size() > 1) {
      return config_error("the configuration holds " + std::to_string(documents.size()) + " YAML documents" +
                              position_of(documents[1]) + "; it must be one",
                          "Remove the '---' separator and merge the documents.");
    }
    return read_config(documents.empty() ? YAML::Node() : documents.front(), base.lexically_normal());
  } catch (const YAML::Exception& e) {
    const std::string where = e.mark.is_null() ? std::string() : " at " + line_and_column(e.mark);
    return config_error("malformed YAML" + where + ": " + e.msg, "Fix the YAML syntax at that position.");
  } catch (const std::exception& e) {
    return config_error(std::string("cannot read the configuration: ") + e.what());
  }
}

Result<Config> load_config(const fs::path& file) {
  std::error_code ec;
  const fs::path absolute_file = fs::absolute(file, ec).lexically_normal();
  if (ec) return config_error("cannot resolve config file '" + file.string() + "': " + ec.message());
  if (fs::is_directory(absolute_file, ec)) {
    return config_error("config file '" + file.string() + "' is a directory",
                        "Pass the YAML file itself, e.g. " + (file / "querygate.yaml").string() + ".");
  }
  errno = 0;
  std::ifstream in(absolute_file, std::ios::binary);
  if (!in) {
    const std::string reason =
        errno != 0 ? std::error_code(errno, std::generic_category()).message() : std::string("cannot be opened");
    return config_error("cannot read config file '" + file.string() + "': " + reason,
                        "Check the path and that querygate may read the file.");
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return config_error("cannot read config file '" + file.string() + "': read error");

  Result<Config> config = parse_config(text, absolute_file.parent_path());
  if (!config) {
    Error error = std::move(config).error();
    error.message = file.string() + ": " + error.message;  // the operator may run several configs
    return error;
  }
  config->source = absolute_file;
  return config;
}

}  // namespace qg::config
