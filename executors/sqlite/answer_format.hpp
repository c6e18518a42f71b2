#pragma once
// One answer format (issue #12): the SQLite executor answers as the PostgreSQL
// executor does where the result column is a stored column whose meaning the
// catalog knows. A timestamp column (curated `timestamp: true`, or a temporal
// declared type) stored as ISO-8601 text comes back as PostgreSQL's executor
// prints timestamps (pg_values.cpp): 'T' between date and time, the fraction
// without trailing zeros, and, when the text carries an offset, the instant in
// UTC with 'Z' (timestamptz); a BOOLEAN column's 0/1 comes back as a boolean.
// Column type names are PostgreSQL's (format_type) on both backends.
#include <optional>
#include <string>
#include <string_view>

namespace qg::exec::sqlite {

// PostgreSQL's text of the timestamp that ISO-8601 `text` spells
// ("2026-09-16T00:19:23.570+00:00" → "2026-09-16T00:19:23.57Z",
// "2009-01-01 00:00:00" → "2009-01-01T00:00:00"); nullopt when `text` is not a
// date-time this reads exactly (a date alone, other text): left as stored.
std::optional<std::string> pg_timestamp_text(std::string_view text);

// PostgreSQL's text of a numeric that SQLite computed as the double `value`:
// `scale` digits after the point (round(x, 2) → "67.85", EXTRACT(EPOCH …) →
// "1789517963.561000"), or, with scale -1, the double's shortest exact text in
// positional notation ("2.557125"); nullopt for an infinity or NaN (kept as a
// double) or a value too large to print exactly.
std::optional<std::string> pg_numeric_text(double value, int scale);

// PostgreSQL's name (format_type) for a column SQLite declared as `declared`
// (empty: an expression, named from `storage_class`, the first value's class);
// `timestamp_sample` is one stored value of a timestamp column, else empty.
std::string pg_type_name(std::string_view declared, std::string_view storage_class, bool timestamp,
                         std::string_view timestamp_sample);

}  // namespace qg::exec::sqlite
