#include "gateway/api/write_tools.hpp"

#include <algorithm>

#include "gateway/api/routes.hpp"
#include "tools/parameters.hpp"

namespace qg::gateway {

Status may_write(const config::Config& config, const auth::Key* key, const std::string& tool) {
  if (key == nullptr) return {};  // no keys configured: loopback only, like the databases
  for (const auto& k : config.keys)
    if (k.name == key->name) {
      if (k.all_writes || std::find(k.writes.begin(), k.writes.end(), tool) != k.writes.end()) return {};
      return make_error(ErrorCode::AuthForbidden, "API key '" + key->name + "' may not call write tool '" + tool + "'",
                        "FIX: this key is read-only for " + tool +
                            "; tell the user. An operator can allow it with writes: [" + tool +
                            "] (or writes: all) on the key.");
    }
  return make_error(ErrorCode::AuthForbidden, "API key '" + key->name + "' may not call write tools");
}

writes::WriteCaller write_caller(const auth::Key* key) {
  writes::WriteCaller caller;
  if (key == nullptr) return caller;
  caller.key = key->name;
  caller.hidden = &key->hidden_columns;
  for (const auto& [name, value] : key->bind)
    caller.bindings.emplace(name, std::visit([](const auto& v) { return exec::Value{v}; }, value));
  return caller;
}

boost::json::object write_tool_entry(const config::WriteTool& tool) {
  return boost::json::object{{"name", tool.name},
                             {"kind", "write"},
                             {"description", tool.description},
                             {"database", tool.database},
                             {"method", "POST"},
                             {"path", tool_path(route(RouteId::Write), tool.name)},
                             {"input_schema", tools::json_schema(tool.parameters)}};
}

std::string writes_listing(const config::Config& config, const writes::WriteService* service, const auth::Key* key) {
  boost::json::array list;
  for (const auto& tool : config.writes) {
    if (key && std::find(key->databases.begin(), key->databases.end(), tool.database) == key->databases.end()) continue;
    boost::json::object t = write_tool_entry(tool);
    t["callable"] = static_cast<bool>(may_write(config, key, tool.name));
    t["table"] = tool.table;
    boost::json::array parameters;
    for (const auto& p : tool.parameters) {
      boost::json::object o{{"name", p.name},
                            {"type", tools::type_name(p.type)},
                            {"required", p.required && !p.default_value},
                            {"accepts", tools::allowed_text(p)}};
      if (!p.references.empty()) o["references"] = p.references;
      if (!p.after.empty()) o["after"] = p.after;
      if (p.untrusted) o["untrusted"] = true;
      parameters.push_back(std::move(o));
    }
    t["parameters"] = std::move(parameters);
    boost::json::array derived;
    for (const auto& [column, sql] : tool.set) derived.emplace_back(column);
    t["derived"] = std::move(derived);
    boost::json::array dup;
    for (const auto& c : tool.duplicate_key) dup.emplace_back(c);
    t["duplicate_key"] = std::move(dup);
    boost::json::array checks;
    for (const auto& c : tool.checks) checks.emplace_back(c.fix);
    t["checks"] = std::move(checks);
    boost::json::array after;
    for (const auto& c : tool.after_checks) after.emplace_back(c.name);
    t["after_checks"] = std::move(after);
    boost::json::array bindings;
    if (service)
      for (const auto& b : service->bindings(tool)) bindings.emplace_back(b);
    t["bindings"] = std::move(bindings);
    list.push_back(std::move(t));
  }
  return boost::json::serialize(boost::json::object{{"writes", std::move(list)}}) + "\n";
}

}  // namespace qg::gateway
