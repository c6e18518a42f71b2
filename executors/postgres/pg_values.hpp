#pragma once
// PostgreSQL's text output turned into querygate's cell values. Results come
// back in text format; the column's type OID says how to read each cell, so
// integers stay exact, floats become doubles (rounded later, at the envelope),
// timestamps become ISO-8601 in UTC and bytea becomes bytes.
#include <cstddef>
#include <string>
#include <string_view>

#include "executors/executor.hpp"

namespace qg::exec::pg {

// Built-in type OIDs (pg_type.dat); stable across PostgreSQL versions.
namespace oid {
inline constexpr unsigned kBool = 16, kBytea = 17, kInt8 = 20, kInt2 = 21, kInt4 = 23, kOid = 26, kFloat4 = 700,
                          kFloat8 = 701, kNumeric = 1700, kDate = 1082, kTimestamp = 1114, kTimestamptz = 1184,
                          kJson = 114, kJsonb = 3802;
}

// A numeric cell: an exact int64, a double, or (more integer digits than a
// double holds exactly) its exact text.
Value read_numeric(std::string_view text);

// One non-NULL cell of a column of type `type_oid`, from its text form.
Value read_value(unsigned type_oid, std::string_view text);

// One non-NULL cell of an array column whose elements have type `element_oid`, from array_out's text
// ('{a,"b c",NULL}'): an Array of the elements, each read as read_value reads a cell of that type ("one JSON
// array form", docs/FIDELITY.md); text that is not that form (an array with bounds, "[0:1]={a,b}") as is.
Value read_array(unsigned element_oid, std::string_view text);

// libpq's message on one line (its messages end in a newline and may span several).
std::string one_line(std::string message);

// "2024-03-01 12:00:00+00" (TimeZone UTC) → "2024-03-01T12:00:00Z"; a
// timestamp without time zone gets the T but no zone. Other text is returned as is.
std::string iso_timestamp(std::string_view text, bool with_zone);

}  // namespace qg::exec::pg
