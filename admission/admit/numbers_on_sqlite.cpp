// Number functions whose SQLite form takes other arguments than PostgreSQL's
// (found by the differential property, issue #12): refused with a FIX that
// works on both backends, where SQLite would fail at run time or answer
// otherwise.
#include "admission/admit/admitter.hpp"

namespace qg::admit::detail {

// trunc(x, n): PostgreSQL truncates a numeric to n digits; SQLite's trunc() takes one argument, so the
// statement failed in the engine ("wrong number of arguments to function trunc()"; differential seed
// 20261202 #21).
Status trunc_digits_on_sqlite(const ast::FuncCall& f, Dialect dialect, int location) {
  if (dialect != Dialect::Sqlite || f.name != "trunc" || f.args.size() != 2) return {};
  return make_error(ErrorCode::CapabilityNotOnSqlite,
                    "trunc(x, n) (truncate to n digits) is not translated on SQLite: its trunc() takes one argument",
                    "FIX: scale, truncate and scale back: trunc(x * 100) / 100 keeps two digits (trunc(x * 10) / 10 "
                    "one).",
                    pos(location));
}

}  // namespace qg::admit::detail
