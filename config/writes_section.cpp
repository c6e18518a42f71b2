// writes.<tool>.*: the write tools' key tables and readers (the tools
// themselves live in writes/), and the check, run last, that every write tool
// names a configured database and every key names configured write tools.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

// writes.<tool>.checks[i].* and after_checks[i].*
constexpr TextKey<WriteCheck> kCheckTexts[] = {
    {"sql", &WriteCheck::sql, ""},
    {"fix", &WriteCheck::fix, ""},
};
constexpr KeyTable<WriteCheck> kCheckKeys{.texts = kCheckTexts};
constexpr TextKey<AfterCheck> kAfterTexts[] = {
    {"name", &AfterCheck::name, ""},
    {"sql", &AfterCheck::sql, ""},
    {"fix", &AfterCheck::fix, ""},
};
constexpr KeyTable<AfterCheck> kAfterKeys{.texts = kAfterTexts};

// writes.<tool>.*
constexpr TextKey<WriteTool> kToolTexts[] = {
    {"database", &WriteTool::database, ""},
    {"table", &WriteTool::table, ""},
    {"description", &WriteTool::description, ""},
};
constexpr OwnKey kToolOwn[] = {
    {"parameters", "a mapping of parameter names to { type: ..., ... }", true},
    {"set", "a mapping of column names to SQL expressions computed by querygate"},
    {"duplicate_key", "a list of column names, e.g. [span_id, annotator_kind]"},
    {"checks", "a list of { sql: ..., fix: ... }"},
    {"after_checks", "a list of { name: ..., sql: ..., fix: ... }"},
};
constexpr KeyTable<WriteTool> kToolKeys{.texts = kToolTexts, .own = kToolOwn};

Status read_names(const Entry& entry, std::string_view expects, std::vector<std::string>& out) {
  if (!entry.value.IsSequence() || entry.value.size() == 0)
    return config_error(
        "'" + entry.path + "' must be " + std::string(expects) + "; got " + describe(entry.value) + position_of(entry),
        "Write a non-empty list, e.g. [a, b].");
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Result<std::string> name = read_text(item, "a non-empty string");
    if (!name) return std::move(name).error();
    if (std::find(out.begin(), out.end(), *name) != out.end())
      return config_error("'" + item.path + "' repeats '" + clipped(*name) + "'" + position_of(item),
                          "List each value once.");
    out.push_back(std::move(*name));
  }
  return {};
}

template <typename Check, typename Keys>
Status read_check_list(const Entry& entry, const Keys& keys, bool named, std::vector<Check>& out) {
  if (!entry.value.IsSequence())
    return config_error("'" + entry.path + "' must be a list; got " + describe(entry.value) + position_of(entry),
                        "Write each check as a list item: - { sql: ..., fix: ... }.");
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const Entry item{YAML::Node(), entry.value[i], entry.path + "[" + std::to_string(i) + "]"};
    Check check;
    Status status = read_section(item, keys, std::nullopt, check,
                                 [&](const OwnKey& key, const Entry& own) { return Status(unhandled(key, own)); });
    if (!status) return status;
    if (check.sql.empty())
      return config_error("'" + item.path + ".sql' is required" + position_of(item), "Add sql: SELECT ...");
    if constexpr (std::is_same_v<Check, WriteCheck>) {
      if (check.fix.empty())
        return config_error("'" + item.path + ".fix' is required" + position_of(item),
                            "Add fix: what the caller should send instead (it is shown when the check fails).");
    } else {
      if (named && check.name.empty())
        return config_error("'" + item.path + ".name' is required" + position_of(item), "Add name: a_short_name.");
      for (const Check& earlier : out)
        if (earlier.name == check.name)
          return config_error("'" + item.path + ".name' repeats '" + clipped(check.name) + "'" + position_of(item),
                              "Give every after_check its own name.");
    }
    out.push_back(std::move(check));
  }
  return {};
}

Status read_tool(const std::string& name, const Entry& entry, WriteTool& tool) {
  if (!is_identifier(name, /*dash_allowed=*/false))
    return config_error("write tool name '" + clipped(name) + "' at '" + entry.path +
                            "' must be [A-Za-z_][A-Za-z0-9_]* (it is the tool name agents call)" + position_of(entry),
                        "Rename it, e.g. save_annotation.");
  tool.name = name;
  Status status = read_section(entry, kToolKeys, std::nullopt, tool, [&](const OwnKey& key, const Entry& own) {
    if (key.name == "parameters") return read_parameters(own, tool.parameters, /*for_writes=*/true);
    if (key.name == "set")
      return read_named(own, key.expects, [&](const std::string& column, const Entry& column_entry) {
        Result<std::string> sql = read_text(column_entry, "a SQL expression");
        if (!sql) return Status(std::move(sql).error());
        tool.set.emplace_back(column, std::move(*sql));
        return Status();
      });
    if (key.name == "duplicate_key") return read_names(own, key.expects, tool.duplicate_key);
    if (key.name == "checks") return read_check_list(own, kCheckKeys, false, tool.checks);
    if (key.name == "after_checks") return read_check_list(own, kAfterKeys, true, tool.after_checks);
    return Status(unhandled(key, own));
  });
  if (!status) return status;
  const std::string fix = "Write e.g. " + name + ": { database: demo, table: span_annotations, parameters: {...} }.";
  if (tool.database.empty()) return config_error("'" + entry.path + ".database' is required" + position_of(entry), fix);
  if (tool.table.empty()) return config_error("'" + entry.path + ".table' is required" + position_of(entry), fix);
  if (tool.parameters.empty())
    return config_error("'" + entry.path + ".parameters' must name at least one parameter" + position_of(entry), fix);
  for (const auto& [column, sql] : tool.set)
    for (const auto& p : tool.parameters)
      if (p.name == column)
        return config_error("'" + entry.path + ".set." + column + "' is also a parameter" + position_of(entry),
                            "A column is either taken from the caller (parameters) or derived (set), not both.");
  for (const std::string& column : tool.duplicate_key) {
    const bool known =
        std::any_of(tool.parameters.begin(), tool.parameters.end(), [&](const auto& p) { return p.name == column; }) ||
        std::any_of(tool.set.begin(), tool.set.end(), [&](const auto& s) { return s.first == column; });
    if (!known)
      return config_error("'" + entry.path + ".duplicate_key' names '" + clipped(column) +
                              "', which is neither a parameter nor a set column" + position_of(entry),
                          "Name columns the tool writes.");
  }
  return {};
}

}  // namespace

Status read_write_tools(const Entry& entry, const OwnKey& key, std::vector<WriteTool>& tools) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& tool_entry) -> Status {
    WriteTool tool;
    if (Status status = read_tool(name, tool_entry, tool); !status) return status;
    tools.push_back(std::move(tool));
    return {};
  });
}

Status check_write_tools(const Config& config) {
  std::vector<std::string_view> databases;
  for (const Database& database : config.databases) databases.push_back(database.name);
  std::vector<std::string_view> names;
  for (const WriteTool& tool : config.writes) {
    names.push_back(tool.name);
    const Database* database = config.find_database(tool.database);
    if (database == nullptr) {
      std::string message = "'writes." + tool.name + ".database' names '" + clipped(tool.database) +
                            "', which is not a configured database";
      if (const auto match = closest_match(tool.database, databases))
        message += " (did you mean '" + std::string(*match) + "'?)";
      return config_error(message, "Use names from 'databases': " + joined(databases) + ".");
    }
    if (database->backend == Dialect::Postgres && database->write_dsn_env.empty())
      return config_error("write tool '" + tool.name + "' writes to PostgreSQL database '" + database->name +
                              "', which has no write_dsn_env",
                          "Add databases." + database->name +
                              ".write_dsn_env: NAME, an environment variable holding the DSN of a separate role "
                              "that may INSERT into " +
                              tool.table + " (never the reading role).");
  }
  for (std::size_t i = 0; i < config.keys.size(); ++i)
    for (const std::string& name : config.keys[i].writes)
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string message = "'keys[" + std::to_string(i) + "].writes' names '" + clipped(name) +
                              "', which is not a configured write tool";
        if (const auto match = closest_match(name, names)) message += " (did you mean '" + std::string(*match) + "'?)";
        return config_error(message, names.empty() ? std::string("Configure it under writes:, or remove it.")
                                                   : "Use names from 'writes': " + joined(names) + ".");
      }
  return {};
}

}  // namespace qg::config::detail
