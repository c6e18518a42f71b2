// The public entry points: load_config / parse_config (YAML text to a Config,
// yaml-cpp's exceptions turned into values), parse_listen, Config's members, and
// the top level of the file, whose sections are read by section_readers.hpp.
#include "config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config {

using detail::BoolKey;
using detail::check_key_databases;
using detail::clipped;
using detail::config_error;
using detail::Entry;
using detail::IntKey;
using detail::is_ascii_digit;
using detail::KeyTable;
using detail::line_and_column;
using detail::OwnKey;
using detail::position_of;
using detail::read_databases;
using detail::read_keys;
using detail::read_limits;
using detail::read_section;
using detail::read_text;
using detail::unhandled;

const Database* Config::find_database(std::string_view name) const {
  for (const Database& database : databases)
    if (database.name == name) return &database;
  return nullptr;
}

const ApiKey* Config::anonymous_key() const {
  for (const auto& key : keys)
    if (key.anonymous) return &key;
  return nullptr;
}

const Tool* Config::find_tool(std::string_view name) const {
  for (const Tool& tool : tools)
    if (tool.name == name) return &tool;
  return nullptr;
}

namespace {

namespace fs = std::filesystem;

// The top level.
constexpr OwnKey kTopOwn[] = {
    {"listen", "host:port, e.g. 127.0.0.1:8080 or [::1]:8080 (default 127.0.0.1:8080; port 0 = any free port)"},
    {"limits", "a mapping of limit names to integers (refuse_blobs: true/false)"},
    {"databases", "a mapping of database names to their settings"},
    {"keys", "a list of API keys: - { name: NAME, sha256: HEX, databases: [NAME, ...] }"},
    {"allowed_hosts", "a list of host names (no port) a loopback listener also answers to, e.g. [querygate.local]"},
    {"tools", "a mapping of tool names to { database, description, parameters, sql }"},
    {"public_url", "the absolute URL clients reach the gateway at, e.g. https://sql.example.com (for /openapi.json)"},
    {"writes", "a mapping of write tool names to their settings (database, table, parameters, set, checks ...)"},
};
constexpr IntKey<Config> kTopInts[] = {
    {"shutdown_grace_ms", &Config::shutdown_grace_ms, 10'000, 0, 600'000},
};
constexpr BoolKey<Config> kTopBools[] = {
    {"log_sql", &Config::log_sql, false},  // the request log carries a fingerprint; the text only on request
};
constexpr KeyTable<Config> kTopKeys{.ints = kTopInts, .bools = kTopBools, .own = kTopOwn};

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

// Host names compare case-insensitively; they are stored lower-case.
Status read_allowed_hosts(const Entry& entry, const OwnKey& key, Config& config) {
  const std::string fix = "List host names without scheme or port, e.g. allowed_hosts: [querygate.local].";
  if (!entry.value.IsSequence())
    return config_error("'" + entry.path + "' must be " + std::string(key.expects) + position_of(entry), fix);
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Result<std::string> name = read_text(item, "a host name");
    if (!name) return std::move(name).error();
    std::string host = std::move(name).value();
    std::transform(host.begin(), host.end(), host.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c); });
    const bool plain = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
    if (!plain)
      return config_error("'" + item.path + "' is not a host name: '" + clipped(host) + "'" + position_of(item), fix);
    config.allowed_hosts.push_back(std::move(host));
  }
  return {};
}

// http(s)://host[:port][/path], printable ASCII without spaces; stored without a trailing slash.
Status read_public_url(const Entry& entry, const OwnKey& key, Config& config) {
  Result<std::string> text = read_text(entry, key.expects);
  if (!text) return std::move(text).error();
  std::string url = std::move(text).value();
  while (url.ends_with('/')) url.pop_back();
  const std::size_t scheme = url.starts_with("https://") ? 8 : url.starts_with("http://") ? 7 : 0;
  const bool printable = std::all_of(url.begin(), url.end(), [](char c) { return c > ' ' && c < 0x7f; });
  const bool has_host = scheme > 0 && url.size() > scheme && url[scheme] != '/';
  if (!printable || !has_host)
    return config_error(
        "'" + entry.path + "' is not an absolute http(s) URL: '" + clipped(url) + "'" + position_of(entry),
        "Write the URL clients use, e.g. public_url: https://sql.example.com or "
        "http://10.0.0.5:8080.");
  config.public_url = std::move(url);
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
        if (key.name == "allowed_hosts") return read_allowed_hosts(entry, key, config);
        if (key.name == "public_url") return read_public_url(entry, key, config);
        if (key.name == "tools") return detail::read_tools(entry, key, config.tools);
        if (key.name == "writes") return detail::read_write_tools(entry, key, config.writes);
        return unhandled(key, entry);
      });
  if (!status) return std::move(status).error();
  if (config.databases.empty()) {
    return config_error("'databases' must name at least one database",
                        "Add e.g. databases: { demo: { backend: sqlite, path: demo.db, tables: { events: {} } } }.");
  }
  if (Status keys = check_key_databases(config); !keys) return std::move(keys).error();
  if (Status tools = detail::check_tool_databases(config); !tools) return std::move(tools).error();
  if (Status writes = detail::check_write_tools(config); !writes) return std::move(writes).error();
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
