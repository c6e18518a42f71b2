#pragma once
#include <cstdint>
#include <string_view>

namespace qg {

// The SQL engines querygate fronts. Capabilities, rendering and identifier
// matching are per dialect.
enum class Dialect : std::uint8_t { Sqlite, Postgres };

constexpr std::string_view dialect_name(Dialect d) {
  return d == Dialect::Sqlite ? "sqlite" : "postgres";
}

}  // namespace qg
