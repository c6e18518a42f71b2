#pragma once
// PostgreSQL's argument signatures of the scalar functions the capability table
// admits or translates (issue #12, "Types at admission"): one source of truth
// next to the capability table. Admission checks each call's inferred argument
// types against them with PostgreSQL's implicit casts (admit/signatures.cpp),
// and reads an untyped literal passed where only an integer is taken as that
// integer, as PostgreSQL does. tests/unit/signatures_test.cpp checks every row
// against the capability table; tests/integration/signatures_pg_test.cpp asks
// PostgreSQL itself that each signature exists and that sampled mismatches fail.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace qg::capability {

// PostgreSQL's argument types as far as signatures need them (pg_type names).
enum class ArgType : std::uint8_t {
  Int4,
  Int8,
  Numeric,
  Float8,
  Text,
  Bool,
  Jsonb,
  Json,
  Date,
  Timestamp,
  Timestamptz,
  Interval,
};

struct Signature {
  std::string_view function;  // lower-case, as called
  std::string_view args;      // PostgreSQL's type names, comma-separated: "text,int4"
};

// Every declared signature, grouped by function.
std::span<const Signature> signatures();
// The signatures of one function; empty when it has none declared (then no call of it is checked).
std::vector<std::vector<ArgType>> signatures_of(std::string_view function);
// PostgreSQL's implicit casts among these types (pg_cast, castcontext 'i'), and the identity:
// int4 → int8 → numeric → float8, date → timestamp → timestamptz. Text, boolean, json, jsonb and
// interval reach only themselves.
bool implicit_cast(ArgType from, ArgType to);
// Does PostgreSQL have `function(args)` by these signatures, each argument reaching its parameter by an
// implicit cast? (What admission decides, for typed arguments; the PostgreSQL test asks PostgreSQL the same.)
bool callable(std::string_view function, const std::vector<ArgType>& args);
// "int4" → Int4 ...; false for a name the table does not use.
bool arg_type_from_name(std::string_view name, ArgType& out);
std::string_view arg_type_name(ArgType t);  // pg_type's name: "int4", "timestamptz", ...
// PostgreSQL's words for the type, as its messages print it: "integer", "double precision", ...
std::string_view arg_type_words(ArgType t);

}  // namespace qg::capability
