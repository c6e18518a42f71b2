// limits.*: the key table for the per-request limits, the check that it agrees
// with the defaults config.hpp documents, and the section's reader with its
// cross-field check (default_rows at most max_rows).
#include <string>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

constexpr int kMiB = 1 << 20;

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
    {"max_expression_growth", &Limits::max_expression_growth, 1000, 2, 1'000'000},
    {"max_connections_per_client", &Limits::max_connections_per_client, 64, 1, 100'000},
    {"max_connections", &Limits::max_connections, 1024, 1, 1'000'000},
    {"header_timeout_ms", &Limits::header_timeout_ms, 5000, 100, 60'000},
    {"idle_timeout_ms", &Limits::idle_timeout_ms, 5000, 100, 600'000},
    {"max_aggregate_bytes", &Limits::max_aggregate_bytes, 64 * kMiB, kMiB, 1024 * kMiB},
    {"max_sqlite_heap_bytes", &Limits::max_sqlite_heap_bytes, 512 * kMiB, 16 * kMiB, 1024 * kMiB},
    {"admission_cache_entries", &Limits::admission_cache_entries, 1024, 0, 1'000'000},
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

}  // namespace

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

}  // namespace qg::config::detail
