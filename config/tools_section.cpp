// tools.<name>.*: curated tools. The key table of one tool, its reader, and the
// checks run after the whole file is read (the database exists; keys' tool lists
// name tools). The statement itself is admitted at start-up (gateway/startup.cpp),
// where the catalog is known.
#include <string>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

// tools.<name>.*
constexpr TextKey<Tool> kToolTexts[] = {
    {"description", &Tool::description, ""},
};
constexpr OwnKey kToolOwn[] = {
    {"database", "the name of a configured database", true},
    {"sql", "one SELECT; `:name` marks where a parameter's value is bound", true},
    {"parameters", "a mapping of parameter names to { type: ..., ... } ({} for none)"},
};
constexpr KeyTable<Tool> kToolKeys{.texts = kToolTexts, .own = kToolOwn};

}  // namespace

Status read_tools(const Entry& entry, const OwnKey& key, std::vector<Tool>& tools) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& tool_entry) -> Status {
    if (!is_identifier(name, /*dash_allowed=*/false))
      return config_error("tool name '" + tool_entry.path + "' is not an identifier" + position_of(tool_entry),
                          "Use letters, digits and '_', starting with a letter or '_' (it becomes the URL "
                          "/v1/tools/" +
                              clipped(name) + ", the OpenAPI operationId and the MCP tool name).");
    Tool tool;
    tool.name = name;
    Status status = read_section(tool_entry, kToolKeys, std::nullopt, tool,
                                 [&](const OwnKey& own, const Entry& own_entry) -> Status {
                                   if (own.name == "parameters") return read_parameters(own_entry, tool.parameters);
                                   Result<std::string> text = read_text(own_entry, own.expects);
                                   if (!text) return std::move(text).error();
                                   if (own.name == "database")
                                     tool.database = std::move(text).value();
                                   else if (own.name == "sql")
                                     tool.sql = std::move(text).value();
                                   else
                                     return unhandled(own, own_entry);
                                   return {};
                                 });
    if (!status) return status;
    tools.push_back(std::move(tool));
    return {};
  });
}

Status check_tool_databases(const Config& config) {
  std::vector<std::string_view> databases;
  for (const Database& database : config.databases) databases.push_back(database.name);
  for (const Tool& tool : config.tools)
    if (config.find_database(tool.database) == nullptr) {
      std::string message = "'tools." + tool.name + ".database' names '" + clipped(tool.database) +
                            "', which is not a configured database";
      if (const auto match = closest_match(tool.database, databases))
        message += " (did you mean '" + std::string(*match) + "'?)";
      return config_error(message, "Use names from 'databases': " + joined(databases) + ".");
    }
  std::vector<std::string_view> names;
  for (const Tool& tool : config.tools) names.push_back(tool.name);
  for (std::size_t i = 0; i < config.keys.size(); ++i) {
    if (!config.keys[i].tools) continue;
    for (const std::string& name : *config.keys[i].tools)
      if (config.find_tool(name) == nullptr) {
        std::string message =
            "'keys[" + std::to_string(i) + "].tools' names '" + clipped(name) + "', which is not a configured tool";
        if (const auto match = closest_match(name, names)) message += " (did you mean '" + std::string(*match) + "'?)";
        return config_error(message, names.empty() ? "Configure the tool under 'tools', or remove it from the list."
                                                   : "Use names from 'tools': " + joined(names) + ".");
      }
  }
  return {};
}

}  // namespace qg::config::detail
