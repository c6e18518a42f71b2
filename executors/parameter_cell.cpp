#include "executors/parameter_cell.hpp"

#include <cmath>
#include <cstdlib>

namespace qg::exec {

std::optional<tools::Value> parameter_value(tools::ParamType type, const Value& cell) {
  switch (type) {
    case tools::ParamType::Integer:
      if (const auto* i = std::get_if<std::int64_t>(&cell)) return tools::Value(*i);
      return std::nullopt;
    case tools::ParamType::Number:
      if (const auto* d = std::get_if<double>(&cell)) return tools::Value(*d);
      if (const auto* i = std::get_if<std::int64_t>(&cell)) return tools::Value(static_cast<double>(*i));
      if (const auto* n = std::get_if<Decimal>(&cell)) {
        char* end = nullptr;
        const double d = std::strtod(n->digits.c_str(), &end);
        if (end != n->digits.c_str() && std::isfinite(d)) return tools::Value(d);
      }
      return std::nullopt;
    case tools::ParamType::Boolean:
      if (const auto* b = std::get_if<bool>(&cell)) return tools::Value(*b);
      return std::nullopt;
    case tools::ParamType::String:
      if (const auto* s = std::get_if<std::string>(&cell)) return tools::Value(*s);
      return std::nullopt;
    case tools::ParamType::Date:
    case tools::ParamType::Timestamp:
      if (const auto* s = std::get_if<std::string>(&cell)) {
        auto v = tools::parse_config_literal(type, *s);  // the canonical form arguments are compared in
        if (v) return std::move(v).value();
      }
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace qg::exec
