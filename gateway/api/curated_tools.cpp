#include "gateway/api/curated_tools.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "executors/parameter_cell.hpp"
#include "gateway/api/api.hpp"
#include "gateway/api/bindings.hpp"
#include "gateway/api/json_writer.hpp"
#include "gateway/api/routes.hpp"
#include "gateway/api/write_tools.hpp"

namespace qg::gateway {
namespace {

std::string with_tool(const std::string& tool, const Error& error) {
  return "tools." + tool + ": " + error.message + (error.fix.empty() ? "" : " (" + error.fix + ")");
}

}  // namespace

namespace {

// The longest value of a parameter in bytes, as admission's size bounds count it
// and as bind_arguments enforces it: a string's max_length in UTF-8 (4 bytes a
// character), else what a caller's whole statement may hold; other types are short.
std::int64_t max_bytes(const tools::ParameterSpec& spec, const config::Limits& limits) {
  if (spec.type != tools::ParamType::String) return 40;
  return spec.max_length ? std::int64_t{*spec.max_length} * 4 : std::int64_t{limits.max_sql_bytes};
}

}  // namespace

Result<AdmittedStatement> admit_configured(const std::string& sql, const tools::Parameters& parameters,
                                           const catalog::Catalog& catalog, const config::Limits& limits) {
  AdmitOptions options;
  options.origin = Origin::Configuration;
  // A tool's argument is the calling model's, like a literal in its own SQL: trusted (not end-user text).
  for (const auto& spec : parameters)
    options.params.push_back(
        admit::ParamSpec{.name = spec.name, .untrusted = false, .max_bytes = max_bytes(spec, limits)});
  return admit_statement(sql, catalog, limits, std::nullopt, options);
}

Result<std::vector<exec::Value>> bind_arguments(const AdmittedStatement& statement, const tools::Arguments& arguments,
                                                const tools::Parameters& parameters, const config::Limits& limits,
                                                const auth::Key* key, const catalog::Catalog& catalog) {
  std::vector<exec::Value> out;
  for (const std::string& name : statement.param_names) {
    if (auto binding = key_binding(name, key, catalog)) {  // a row filter's: the key's value, or its refusal
      if (!*binding) return std::move(*binding).error();
      out.push_back(std::move(**binding));
      continue;
    }
    const auto argument =
        std::find_if(arguments.begin(), arguments.end(), [&](const tools::Argument& a) { return a.name == name; });
    const auto spec = std::find_if(parameters.begin(), parameters.end(),
                                   [&](const tools::ParameterSpec& p) { return p.name == name; });
    // Every parameter of a tool's statement is one of its own (admission refuses an undeclared one).
    if (argument == arguments.end() || spec == parameters.end())
      return make_error(ErrorCode::Internal, "the statement's parameter :" + name + " has no argument",
                        "FIX: report this; nothing ran.");
    if (!argument->value) {
      out.emplace_back(std::monostate{});
      continue;
    }
    if (const auto* text = std::get_if<std::string>(&*argument->value);
        text && static_cast<std::int64_t>(text->size()) > max_bytes(*spec, limits))
      return make_error(ErrorCode::ToolInvalidArgument,
                        "argument '" + name + "' is " + std::to_string(text->size()) + " bytes; at most " +
                            std::to_string(max_bytes(*spec, limits)) + " are accepted",
                        "FIX: send a shorter \"" + name + "\".");
    out.push_back(std::visit([](const auto& v) { return exec::Value(v); }, *argument->value));
  }
  return out;
}

Status check_tools(const config::Config& config, const std::map<std::string, ServedDatabase>& databases) {
  // A write tool is an agent tool too (its own operation and MCP tool): its name must be its own.
  for (const config::WriteTool& write : config.writes) {
    for (const Route& r : all_routes())
      if (write.name == r.tool_name || write.name == r.operation_id)
        return make_error(ErrorCode::ConfigInvalid,
                          "writes." + write.name + ": the name is taken by the built-in tool " + std::string(r.method) +
                              " " + std::string(r.path),
                          "FIX: rename the write tool.");
    if (config.find_tool(write.name) != nullptr)
      return make_error(ErrorCode::ConfigInvalid,
                        "writes." + write.name + ": a curated tool (tools." + write.name + ") has the same name",
                        "FIX: rename one of them: agents call tools by name.");
  }
  for (const config::Tool& tool : config.tools) {
    for (const Route& r : all_routes())
      if (tool.name == r.tool_name || tool.name == r.operation_id)
        return make_error(ErrorCode::ConfigInvalid,
                          "tools." + tool.name + ": the name is taken by the built-in tool " + std::string(r.method) +
                              " " + std::string(r.path),
                          "FIX: rename the tool.");
    const auto served = databases.find(tool.database);
    if (served == databases.end())
      return make_error(ErrorCode::ConfigInvalid,
                        "tools." + tool.name + ": database '" + tool.database + "' is not served");
    // SQLite stores times as text and compares them as text: a bound instant
    // compares right only in the column's own format, which a parameter does not
    // know. A date ("2026-10-01") compares right with ISO text (its prefix).
    for (const auto& spec : tool.parameters)
      if (spec.type == tools::ParamType::Timestamp && served->second.catalog.dialect == Dialect::Sqlite)
        return make_error(ErrorCode::ConfigInvalid,
                          "tools." + tool.name + ".parameters." + spec.name +
                              ": a timestamp parameter on a SQLite database would compare as text, in a format "
                              "that need not be the column's",
                          "FIX: use type: date (a day, compared correctly with ISO-8601 text), or serve the tool "
                          "from PostgreSQL.");
    auto admitted = admit_configured(tool.sql, tool.parameters, served->second.catalog, config.limits);
    if (!admitted)
      return make_error(
          ErrorCode::ConfigInvalid, "the statement of " + with_tool(tool.name, admitted.error()),
          "FIX: correct tools." + tool.name + ".sql until it admits (it must reach nothing a caller's SQL could not).");
    // Prepared and started on the engine, every parameter NULL, no row read: on
    // PostgreSQL this also settles each parameter's type from where it stands
    // (`:x IS NULL` alone gives it none), so such a statement stops the start
    // instead of failing at its first call.
    exec::RunOptions probe;
    probe.deadline = exec::Clock::now() + std::chrono::seconds(10);
    probe.params.assign(admitted->param_names.size(), exec::Value{});
    if (auto ran =
            served->second.executor->run("SELECT * FROM (" + admitted->sql + ") AS qg_tool_check LIMIT 0", probe);
        !ran)
      return make_error(ErrorCode::ConfigInvalid,
                        "the statement of tools." + tool.name + " does not run on database '" + tool.database +
                            "': " + ran.error().message,
                        "FIX: correct tools." + tool.name +
                            ".sql; on PostgreSQL a parameter takes its type from where it first stands, so write "
                            "col >= :x OR :x IS NULL rather than :x IS NULL OR col >= :x, or cast it: CAST(:x AS "
                            "bigint).");
    // A declared parameter the statement never uses would be accepted and ignored: a filter silently not applied.
    for (const auto& spec : tool.parameters)
      if (std::find(admitted->param_names.begin(), admitted->param_names.end(), spec.name) ==
          admitted->param_names.end())
        return make_error(ErrorCode::ConfigInvalid,
                          "tools." + tool.name + ".parameters." + spec.name +
                              " is declared but the statement never uses :" + spec.name,
                          "FIX: use :" + spec.name + " in tools." + tool.name + ".sql, or remove the parameter.");
    for (const auto& spec : tool.parameters) {
      if (spec.values_from.empty()) continue;
      if (auto admitted = admit_statement(spec.values_from, served->second.catalog, config.limits, std::nullopt);
          !admitted)
        return make_error(
            ErrorCode::ConfigInvalid,
            "the values_from query of parameter '" + spec.name + "' of " + with_tool(tool.name, admitted.error()),
            "FIX: correct tools." + tool.name + ".parameters." + spec.name + ".values_from.");
    }
  }
  return {};
}

std::string callable_tools(const config::Config& config, const auth::Key* key) {
  std::string out;
  for (const config::Tool& tool : config.tools)
    if (auth::KeyRing::may_call(key, tool.name, tool.database)) out += (out.empty() ? "" : ", ") + tool.name;
  return out;
}

std::string tools_listing(const config::Config& config, const auth::Key* key) {
  boost::json::array list;
  for (const config::Tool& tool : config.tools) {
    if (!auth::KeyRing::may_call(key, tool.name, tool.database)) continue;
    list.push_back(boost::json::object{{"name", tool.name},
                                       {"kind", "tool"},
                                       {"description", tool.description},
                                       {"database", tool.database},
                                       {"method", "POST"},
                                       {"path", tool_path(route(RouteId::ToolCall), tool.name)},
                                       {"input_schema", tools::json_schema(tool.parameters)}});
  }
  // The write tools this key may call, listed with the tools (their entry is GET /v1/writes' too).
  for (const config::WriteTool& tool : config.writes)
    if (may_write(config, key, tool.name) && (key == nullptr || std::find(key->databases.begin(), key->databases.end(),
                                                                          tool.database) != key->databases.end()))
      list.push_back(write_tool_entry(tool));
  return boost::json::serialize(boost::json::object{{"tools", std::move(list)}}) + "\n";
}

Result<std::vector<tools::Value>> LiveValueLists::values(const std::string& tool, const tools::ParameterSpec& spec,
                                                         bool refresh, const ServedDatabase& served,
                                                         const config::Limits& limits, const exec::RunOptions& run,
                                                         const auth::Key* caller) {
  // Admitted first (cheap next to the engine): its parameters say whether the list depends on the key.
  auto statement = admit_statement(spec.values_from, served.catalog, limits, limits.max_rows);
  if (!statement) return std::move(statement).error();
  auto bound = key_bindings(statement->param_names, caller, served.catalog);
  if (!bound) return std::move(bound).error();
  const std::string key =
      tool + "." + spec.name + (statement->param_names.empty() ? "" : "|" + (caller ? caller->name : std::string()));
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mu_);
    const auto it = lists_.find(key);
    if (!refresh && it != lists_.end() && now - it->second.read < kTtl) return it->second.values;
  }
  // Read outside the lock: the engine is the slow part, and two readers only read twice.
  exec::RunOptions options = run;
  options.shape.clear();
  options.max_rows = statement->limit.row_cap;
  options.params = std::move(bound).value();
  auto rows = served.executor->run(statement->sql, options);
  if (!rows) return std::move(rows).error();
  std::vector<tools::Value> values;
  for (const auto& row : rows->rows)
    if (!row.empty())
      if (auto v = exec::parameter_value(spec.type, row.front())) values.push_back(std::move(*v));
  std::lock_guard lock(mu_);
  lists_[key] = Entry{now, values};
  return values;
}

}  // namespace qg::gateway
