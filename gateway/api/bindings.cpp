#include "gateway/api/bindings.hpp"

#include "admission/rewrite/row_filters.hpp"

namespace qg::gateway {

std::optional<Result<exec::Value>> key_binding(std::string_view param, const auth::Key* key,
                                               const catalog::Catalog& catalog) {
  if (!param.starts_with(rewrite::kBindPrefix)) return std::nullopt;
  const std::string name(param.substr(rewrite::kBindPrefix.size()));
  if (key)
    for (const auto& [bound, value] : key->bind)
      if (bound == name) return Result<exec::Value>(std::visit([](const auto& v) { return exec::Value{v}; }, value));
  std::string tables;
  for (const auto& t : catalog.tables)
    if (t.row_filter)
      for (const auto& b : t.row_filter->binds)
        if (b == param) tables += (tables.empty() ? "" : ", ") + t.name;
  const std::string who = key ? "the API key '" + key->name + "'" : "an anonymous caller";
  return Result<exec::Value>(
      make_error(ErrorCode::AuthMissingBinding,
                 "the row filter of " + tables + " needs :" + name + ", and " + who +
                     " binds no value for it, so the statement was not run (its rows are never shown unfiltered)",
                 "FIX: query tables whose filters this key can satisfy, or ask the operator to add bind: { " + name +
                     ": <value> } to " + (key ? "key '" + key->name + "'" : "a key") + " in the configuration."));
}

Result<std::vector<exec::Value>> key_bindings(const std::vector<std::string>& params, const auth::Key* key,
                                              const catalog::Catalog& catalog) {
  std::vector<exec::Value> out;
  for (const auto& p : params) {
    auto value = key_binding(p, key, catalog);
    if (!value) return make_error(ErrorCode::Internal, "parameter " + p + " has no source for its value");
    if (!*value) return std::move(*value).error();
    out.push_back(std::move(**value));
  }
  return out;
}

}  // namespace qg::gateway
