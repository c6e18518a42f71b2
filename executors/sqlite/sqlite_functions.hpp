#pragma once
// SQL functions querygate registers on SQLite connections so that a spelling
// exists for what SQLite lacks: percentile(x, p) and median(x), the true
// equivalents of PostgreSQL's percentile_cont(p / 100.0) WITHIN GROUP (ORDER BY x);
// and printf()/format() that fail with SQLITE_TOOBIG where the built-in would
// return NULL for a result longer than SQLITE_LIMIT_LENGTH; upper()/lower()
// that map every character as PostgreSQL does in a UTF-8 libc locale (SQLite's
// built-ins map ASCII letters only).
#include <sqlite3.h>

#include <optional>
#include <string>

namespace qg::exec::sqlite {

// Returns false when SQLite refused a registration.
bool register_functions(sqlite3* db);

// PostgreSQL's time, date and interval functions (sqlite_time.cpp): pg_cast,
// pg_ts_diff, pg_ts_add, pg_iv_*, pg_date_*, pg_extract, pg_to_char,
// pg_timezone, pg_time_key, pg_from_key. Called by register_functions.
bool register_time_functions(sqlite3* db, int flags);

// to_timestamp, to_date, make_date and sum/avg of intervals (sqlite_time_constructors.cpp):
// pg_to_timestamp, pg_to_time, pg_make_date, pg_iv_sum, pg_iv_avg. Called by register_functions.
bool register_time_constructors(sqlite3* db, int flags);

// pg_series(start, stop, step, kind): generate_series calendars as a table-valued function
// (sqlite_series.cpp). Called by register_functions.
bool register_series(sqlite3* db);

// pg_number(x, type): PostgreSQL's checked cast of a value to int2/int4/int8/
// float4/float8/numeric (sqlite_numbers.cpp); admission wraps the argument of a
// number cast whose argument may be text. Called by register_functions.
bool register_number_functions(sqlite3* db, int flags);

// pg_jsonb_exists(doc, key): PostgreSQL's jsonb ? key; pg_jsonb_text, pg_jsonb_out, pg_jsonb_array: ->> and
// jsonb's output form (sqlite_json.cpp). Called by register_functions.
bool register_json_functions(sqlite3* db, int flags);

// pg_float8_text(x), pg_bool_text(x): a float8 or boolean as PostgreSQL writes it into text (sqlite_values.cpp).
// Called by register_functions.
bool register_value_functions(sqlite3* db, int flags);
// pg_json_rows(doc, function): the argument json_each walks for jsonb_each and its kin in FROM
// (sqlite_json_rows.cpp); also builds json_each before the authorizer exists. Called by register_functions.
bool register_json_rows(sqlite3* db, int flags);

// PostgreSQL's text functions and regular expressions (sqlite_text.cpp): pg_concat, pg_concat_ws,
// pg_left, pg_right, pg_split_part, pg_strpos, pg_initcap, pg_reverse, pg_starts_with, pg_regex,
// pg_regexp_replace, pg_regexp_count, pg_regexp_substr. Called by register_functions.
bool register_text_functions(sqlite3* db, int flags);

// PostgreSQL's statistics, string_agg and ordered-set aggregates (sqlite_aggregates.cpp).
bool register_aggregate_functions(sqlite3* db, int flags);

// The decimal digits PostgreSQL's numeric gets from a double: float8 to numeric keeps 15 significant digits, and a
// numeric of up to 15 significant digits that SQLite holds as a double comes back as itself (sqlite_numbers.cpp).
std::optional<std::string> numeric_digits(double v);

}  // namespace qg::exec::sqlite
