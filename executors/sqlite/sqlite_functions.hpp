#pragma once
// SQL functions querygate registers on SQLite connections so that a spelling
// exists for what SQLite lacks: percentile(x, p) and median(x), the true
// equivalents of PostgreSQL's percentile_cont(p / 100.0) WITHIN GROUP (ORDER BY x);
// and printf()/format() that fail with SQLITE_TOOBIG where the built-in would
// return NULL for a result longer than SQLITE_LIMIT_LENGTH; upper()/lower()
// that map every character as PostgreSQL does in a UTF-8 libc locale (SQLite's
// built-ins map ASCII letters only).
#include <sqlite3.h>

namespace qg::exec::sqlite {

// Returns false when SQLite refused a registration.
bool register_functions(sqlite3* db);

}  // namespace qg::exec::sqlite
