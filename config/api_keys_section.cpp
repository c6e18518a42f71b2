// keys: the key table for one API key, its readers (name, SHA-256 of the token,
// databases) with the checks across keys (no repeated name or hash), and the check,
// run last, that every database a key names is configured.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

// keys: a list, because a key has no natural name to index it by in the file
// (its name is a label for logs; two keys may be rotated under similar labels).

// keys[i].* — name and databases are required, and sha256 unless the key is
// anonymous (checked after reading); their readers check the values.
constexpr OwnKey kApiKeyOwn[] = {
    {"name", "a name for logs and metrics ([A-Za-z_][A-Za-z0-9_-]*)", true},
    {"sha256", "the SHA-256 of the token in hex, as printed by `querygate hash-key`"},
    {"databases", "a list of database names this key may query, e.g. [demo]", true},
    {"hidden_columns", "a mapping of table names to lists of columns this key may not see, e.g. {users: [email]}"},
    {"tools", "a list of the curated tool names this key may call, e.g. [cost_by_model] (default: all)"},
    {"bind", "a mapping of row-filter parameter names to values, e.g. { project_id: 1 }"},
    {"writes", "the write tools this key may call: a list of names, e.g. [save_annotation], or all"},
};
constexpr BoolKey<ApiKey> kApiKeyBools[] = {
    {"sql", &ApiKey::sql, true},  // false: curated tools only, POST /v1/query is refused
    // true: requests without a token get this key's scope (no sha256; loopback only, checked at start-up)
    {"anonymous", &ApiKey::anonymous, false},
};
constexpr KeyTable<ApiKey> kApiKeyKeys{.bools = kApiKeyBools, .own = kApiKeyOwn};

char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

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

// keys[i].hidden_columns: {table: [column, ...]}; that the names exist is checked at start-up.
Status read_key_hidden(const Entry& entry, const OwnKey& key, ApiKey& out) {
  return read_named(entry, key.expects, [&](const std::string& table, const Entry& columns) -> Status {
    if (!columns.value.IsSequence() || columns.value.size() == 0)
      return config_error("'" + columns.path + "' must be a list of column names; got " + describe(columns.value) +
                              position_of(columns),
                          "List at least one column, e.g. " + table + ": [email].");
    std::vector<std::string> names;
    for (std::size_t i = 0; i < columns.value.size(); ++i) {
      const Entry item{YAML::Node(), columns.value[i], columns.path + "[" + std::to_string(i) + "]"};
      Result<std::string> name = read_text(item, "a column name");
      if (!name) return std::move(name).error();
      if (std::find(names.begin(), names.end(), *name) != names.end())
        return config_error("'" + item.path + "' repeats column '" + clipped(*name) + "'" + position_of(item),
                            "List each column once.");
      names.push_back(std::move(*name));
    }
    out.hidden_columns.tables.emplace_back(table, std::move(names));
    return {};
  });
}

Status read_key_tools(const Entry& entry, const OwnKey& key, ApiKey& out) {
  if (!entry.value.IsSequence())
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value) +
                            position_of(entry),
                        "List tool names, e.g. tools: [cost_by_model]; [] allows none.");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Result<std::string> name = read_text(item, "a tool name");
    if (!name) return std::move(name).error();
    if (std::find(names.begin(), names.end(), *name) != names.end())
      return config_error("'" + item.path + "' repeats tool '" + clipped(*name) + "'" + position_of(item),
                          "List each tool once.");
    names.push_back(std::move(*name));
  }
  out.tools = std::move(names);
  return {};
}

// keys[i].bind: { name: value }. A quoted scalar is a string; a plain one is a
// boolean (true/false), an integer or a number when it reads as one, else a string.
Status read_key_bind(const Entry& entry, const OwnKey& key, ApiKey& out) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& item) -> Status {
    if (!is_identifier(name, /*dash_allowed=*/false))
      return config_error("'" + item.path + "' is not a parameter name" + position_of(item),
                          "Name it as the row filter writes it after ':' (letters, digits, '_').");
    if (!item.value.IsScalar())
      return config_error("'" + item.path + "' must be an integer, a number, a boolean or a string; got " +
                              describe(item.value) + position_of(item),
                          "Write one value, e.g. project_id: 1.");
    const std::string text = item.value.Scalar();
    BindValue value = text;
    if (item.value.Tag() != "!") {
      std::int64_t i = 0;
      double d = 0;
      const char* end = text.data() + text.size();
      if (text == "true" || text == "false") {
        value = text == "true";
      } else if (auto [p, ec] = std::from_chars(text.data(), end, i); ec == std::errc() && p == end && !text.empty()) {
        value = i;
      } else if (auto [q, ec2] = std::from_chars(text.data(), end, d);
                 ec2 == std::errc() && q == end && !text.empty() && std::isfinite(d)) {
        value = d;
      }
    }
    if (const auto* s = std::get_if<std::string>(&value); s && static_cast<std::int64_t>(s->size()) > kMaxBindBytes)
      return config_error(
          "'" + item.path + "' is longer than " + std::to_string(kMaxBindBytes) + " bytes" + position_of(item),
          "Bind a shorter value (an id, not a document).");
    if (const auto* s = std::get_if<std::string>(&value); s && s->find('\0') != std::string::npos)
      return config_error("'" + item.path + "' contains a NUL character" + position_of(item), "Remove it.");
    out.bind.emplace_back(name, std::move(value));
    return {};
  });
}

// writes: all | [name, ...]; the names are checked against writes: by check_write_tools.
Status read_key_writes(const Entry& entry, const OwnKey& key, ApiKey& out) {
  if (entry.value.IsScalar() && entry.value.Scalar() == "all") {
    out.all_writes = true;
    return {};
  }
  if (!entry.value.IsSequence())
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + "; got " + describe(entry.value) +
                            position_of(entry),
                        "Write writes: [save_annotation] or writes: all.");
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Result<std::string> name = read_text(item, "a write tool name");
    if (!name) return std::move(name).error();
    if (std::find(out.writes.begin(), out.writes.end(), *name) != out.writes.end())
      return config_error("'" + item.path + "' repeats write tool '" + clipped(*name) + "'" + position_of(item),
                          "List each write tool once.");
    out.writes.push_back(std::move(*name));
  }
  return {};
}

// A key either proves itself with a token (sha256) or is the one anonymous key,
// whose scope requests without a token get.
Status check_anonymous(const Entry& item, const ApiKey& key, const std::vector<ApiKey>& earlier) {
  if (key.anonymous && !key.sha256.empty())
    return config_error("'" + item.path + "' is anonymous: true and has a sha256" + position_of(item),
                        "Remove sha256 from the anonymous key (requests without a token get its scope), or remove "
                        "anonymous: true to make it a key that needs its token.");
  if (!key.anonymous && key.sha256.empty())
    return config_error("'" + item.path + ".sha256' is required" + position_of(item),
                        "Add 'sha256' (the SHA-256 of the token in hex, as printed by `querygate hash-key`) under '" +
                            item.path + "'; or, for the scope of requests without a token, anonymous: true.");
  if (key.anonymous)
    for (const ApiKey& other : earlier)
      if (other.anonymous)
        return config_error(
            "'" + item.path + "' is a second anonymous key (after '" + other.name + "')" + position_of(item),
            "Keep one key with anonymous: true: requests without a token get one scope.");
  return {};
}

}  // namespace

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
                                   if (own.name == "hidden_columns") return read_key_hidden(own_entry, own, api_key);
                                   if (own.name == "tools") return read_key_tools(own_entry, own, api_key);
                                   if (own.name == "bind") return read_key_bind(own_entry, own, api_key);
                                   if (own.name == "writes") return read_key_writes(own_entry, own, api_key);
                                   return unhandled(own, own_entry);
                                 });
    if (!status) return status;
    if (Status anonymous = check_anonymous(item, api_key, keys); !anonymous) return anonymous;
    for (const ApiKey& earlier : keys) {
      if (earlier.name == api_key.name)
        return config_error("'" + item.path + ".name' repeats the key name '" + api_key.name + "'" + position_of(item),
                            "Give every key its own name, so logs and metrics tell them apart.");
      if (!api_key.anonymous && earlier.sha256 == api_key.sha256)
        return config_error(
            "'" + item.path + ".sha256' is the same hash as key '" + earlier.name + "'" + position_of(item),
            "Give every key its own token; one token cannot stand for two keys.");
    }
    keys.push_back(std::move(api_key));
  }
  return {};
}

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

}  // namespace qg::config::detail
