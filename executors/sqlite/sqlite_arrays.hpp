#pragma once
// PostgreSQL arrays on SQLite (issue #12, "one JSON array form", docs/FIDELITY.md). SQLite has no array type:
// the functions querygate registers for array-valued PostgreSQL calls (pg_array_agg in sqlite_aggregates.cpp,
// pg_regexp_match in sqlite_text.cpp) return the array as a JSON array text, its elements as SQLite holds them
// (integers, floats in their shortest round-trip text, text as JSON strings, NULL as null). Admission lets such
// a value stand only as a whole output column (admit/arrays_on_sqlite.cpp), so nothing compares or reads that
// text; the executor turns it back into an exec::Array whose elements it then formats like cells of the element
// type (sqlite_executor.cpp).
#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>

#include "executors/executor.hpp"

namespace qg::exec::sqlite::arrays {

// Appends one element in the array text's form. false: a value the form has no element for (a blob).
bool append_element(std::string& out, sqlite3_value* v);
void append_text(std::string& out, std::string_view text);  // a JSON string
void append_null(std::string& out);

// The array text read back: its elements as cells (an integer, a double, text, NULL); nullopt when `text`
// is not in that form.
std::optional<Array> decode(std::string_view text);

}  // namespace qg::exec::sqlite::arrays
