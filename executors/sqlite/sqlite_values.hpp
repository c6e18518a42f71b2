#pragma once
// PostgreSQL's text of a float8 (sqlite_values.cpp; also read by its unit tests).
#include <string>

namespace qg::exec::sqlite {

// float8out with PostgreSQL 15's defaults: shortest round-trip digits, exponent
// form when the exponent is below -4 or from 15 on (1e-05, 1e+15), NaN,
// Infinity, -Infinity, -0.
std::string float8_text(double d);

}  // namespace qg::exec::sqlite
