#pragma once
// PostgreSQL's numeric as exact decimals, for the SQLite functions that compute
// a numeric result (sqlite_decimals.cpp: pg_numeric_div; sqlite_aggregates.cpp:
// the numeric sums, averages and variances). A value is a scaled integer:
// value / 10^scale, the scale being numeric.c's display scale (dscale).
#include <sqlite3.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace qg::exec::sqlite::decimal {

using boost::multiprecision::cpp_int;

struct Decimal {
  cpp_int value;  // the number times 10^scale
  int scale = 0;
};

cpp_int pow10(int n);

// The engine's words for a numeric whose digits a SQLite double cannot hold (past 2^53); no apostrophe: the engine's
// words pass exec::engine_words, which withholds a quoted fragment the statement did not write.
inline constexpr const char* kPastExact =
    "querygate: a numeric past 2^53 (9007199254740992) has no exact SQLite value; the PostgreSQL numeric would answer "
    "exactly";

// "-12.0340" or "1.5e-07" as a decimal (scale 4, scale 8); nullopt for text that is not a number.
std::optional<Decimal> parse(std::string text);

// The decimal a number SQLite holds stands for in PostgreSQL's numeric: an INTEGER exactly; a REAL as float8 to
// numeric reads it (from_float: 15 significant digits) or as the shortest text that reads back as it (a NUMERIC
// column or numeric expression SQLite holds as a double: the decimal it was stored from). nullopt: not a number.
std::optional<Decimal> of_value(sqlite3_value* v, bool from_float);

// a < b: -1, a = b: 0, a > b: 1, as numerics (whatever their scales).
int compare(const Decimal& a, const Decimal& b);

// The same value without trailing zeros after the point (1.500 is 1.5): one form per numeric value.
Decimal trimmed(Decimal d);

// Its text: "-0.05" for value -5, scale 2.
std::string text(const Decimal& d);

// The double nearest it.
double nearest_double(const Decimal& d);

// a / b as numeric_div computes it: at select_div_scale's scale (at least 16 significant digits, no fewer places
// than either operand), rounded half away from zero. b is not zero.
Decimal divide(const Decimal& a, const Decimal& b);

// The result of a function that computes a numeric exactly: its decimal text (as_text), else the double nearest it,
// or the statement's error where no double stands for it (a nonzero value that would be 0, or beyond the range).
void answer(sqlite3_context* ctx, const Decimal& d, bool as_text);

// Two decimal texts compared as the numerics they write (1.0 = 1, 9 < 10): < 0, 0, > 0; a text that is no number
// after every number, by its bytes. The pg_numeric collation's order.
int compare_decimal_texts(std::string_view x, std::string_view y);

// pg_numeric_div(x, y, from), pg_numeric_arith(x, y, op, from), ..., and the pg_numeric collation: registered on every
// connection (sqlite_functions.cpp's register_functions).
bool register_decimal_functions(sqlite3* db, int flags);

}  // namespace qg::exec::sqlite::decimal
