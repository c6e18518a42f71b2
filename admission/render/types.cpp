// Type names for CAST(x AS type). The parser normalises SQL-standard spellings
// to internal names ("bigint" → "int8"); printing the standard spelling back
// re-parses to the same internal name on PostgreSQL and is accepted by
// SQLite, where only the type's affinity (derived from the words) matters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "admission/render/render.hpp"

namespace qg::render {
namespace {

struct TypeSpelling {
  std::string_view name;         // as the parser normalises it
  std::string_view head;         // printed before the modifiers
  std::string_view tail;         // printed after them (PostgreSQL)
  std::string_view sqlite_head;  // SQLite's type grammar has no "WITH": a one-word name of the same affinity
  std::size_t max_modifiers;
};

constexpr std::array kTypes{
    TypeSpelling{"int2", "SMALLINT", "", "SMALLINT", 0},
    TypeSpelling{"int4", "INTEGER", "", "INTEGER", 0},
    TypeSpelling{"int8", "BIGINT", "", "BIGINT", 0},
    TypeSpelling{"float4", "REAL", "", "REAL", 0},
    TypeSpelling{"float8", "DOUBLE PRECISION", "", "DOUBLE PRECISION", 0},
    // SQLite: a name of REAL affinity that reads back as numeric (ast::kSqliteNumericTypeName). numeric(p, s) is
    // printed as pg_numeric(x, p, s) on SQLite (admit/numbers_on_sqlite.cpp), so no modifiers reach it.
    TypeSpelling{"numeric", "NUMERIC", "", "NUMERIC_REAL", 2},
    TypeSpelling{"text", "TEXT", "", "TEXT", 0},
    TypeSpelling{"varchar", "VARCHAR", "", "VARCHAR", 1},
    TypeSpelling{"bool", "BOOLEAN", "", "BOOLEAN", 0},
    TypeSpelling{"date", "DATE", "", "DATE", 0},
    TypeSpelling{"timestamp", "TIMESTAMP", "", "TIMESTAMP", 1},
    TypeSpelling{"timestamptz", "TIMESTAMP", " WITH TIME ZONE", "TIMESTAMPTZ", 1},
    TypeSpelling{"time", "TIME", "", "TIME", 1},
    TypeSpelling{"timetz", "TIME", " WITH TIME ZONE", "TIMETZ", 1},
    TypeSpelling{"json", "JSON", "", "JSON", 0},
    TypeSpelling{"jsonb", "JSONB", "", "JSONB", 0},
    TypeSpelling{"uuid", "UUID", "", "UUID", 0},
    TypeSpelling{"bytea", "BYTEA", "", "BYTEA", 0},
};

const TypeSpelling* find_type(std::string_view name) {
  for (const TypeSpelling& t : kTypes)
    if (t.name == name) return &t;
  return nullptr;
}

std::string modifier_list(const std::vector<std::int64_t>& modifiers) {
  if (modifiers.empty()) return {};
  std::string out = "(";
  for (std::size_t i = 0; i < modifiers.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(modifiers[i]);
  }
  return out + ")";
}

// A type the table does not spell: the name as an identifier, then modifiers.
std::string generic_type(const ast::TypeName& type, Dialect dialect) {
  return quote_identifier(type.name, dialect) + modifier_list(type.modifiers);
}

// INTERVAL's first modifier is a bit mask of fields (PostgreSQL's
// INTERVAL_MASK), the optional second the seconds precision.
struct IntervalFields {
  std::int64_t mask;
  std::string_view words;
};

constexpr std::int64_t kMonth = 1 << 1, kYear = 1 << 2, kDay = 1 << 3, kHour = 1 << 10, kMinute = 1 << 11,
                       kSecond = 1 << 12;
constexpr std::int64_t kFullRange = 0x7FFF;

constexpr std::array kIntervalFields{
    IntervalFields{kYear, "YEAR"},
    IntervalFields{kMonth, "MONTH"},
    IntervalFields{kDay, "DAY"},
    IntervalFields{kHour, "HOUR"},
    IntervalFields{kMinute, "MINUTE"},
    IntervalFields{kSecond, "SECOND"},
    IntervalFields{kYear | kMonth, "YEAR TO MONTH"},
    IntervalFields{kDay | kHour, "DAY TO HOUR"},
    IntervalFields{kDay | kHour | kMinute, "DAY TO MINUTE"},
    IntervalFields{kDay | kHour | kMinute | kSecond, "DAY TO SECOND"},
    IntervalFields{kHour | kMinute, "HOUR TO MINUTE"},
    IntervalFields{kHour | kMinute | kSecond, "HOUR TO SECOND"},
    IntervalFields{kMinute | kSecond, "MINUTE TO SECOND"},
};

std::string interval_type(const ast::TypeName& type, Dialect dialect) {
  const auto& mods = type.modifiers;
  if (mods.size() > 2) return generic_type(type, dialect);
  const std::string precision = mods.size() == 2 ? "(" + std::to_string(mods[1]) + ")" : "";
  // SQLite knows no interval type; its affinity comes from the word INTERVAL
  // alone, so the field words (which its type grammar rejects) add nothing.
  if (dialect == Dialect::Sqlite) return "INTERVAL" + precision;
  if (mods.empty() || mods[0] == kFullRange) return "INTERVAL" + precision;
  for (const IntervalFields& f : kIntervalFields) {
    if (f.mask != mods[0]) continue;
    // The grammar takes a precision only after SECOND: "DAY TO SECOND(3)".
    if (!precision.empty() && !(f.mask & kSecond)) return generic_type(type, dialect);
    return "INTERVAL " + std::string(f.words) + precision;
  }
  return generic_type(type, dialect);
}

}  // namespace

std::string render_type(const ast::TypeName& type, Dialect dialect) {
  if (type.name == "interval") return interval_type(type, dialect);
  // "CHAR" alone re-parses as bpchar(1); a bpchar without a length has no
  // keyword spelling, so it falls through to the generic name.
  if (type.name == "bpchar" && type.modifiers.size() == 1) return "CHAR" + modifier_list(type.modifiers);
  const TypeSpelling* t = find_type(type.name);
  if (t == nullptr || type.modifiers.size() > t->max_modifiers) return generic_type(type, dialect);
  const std::string mods = modifier_list(type.modifiers);
  if (dialect == Dialect::Sqlite) return std::string(t->sqlite_head) + mods;
  return std::string(t->head) + mods + std::string(t->tail);
}

}  // namespace qg::render
