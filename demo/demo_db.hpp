#pragma once
// The embedded demo database: an LLM-observability store (projects, traces,
// spans, span annotations) plus two private tables (users, api_keys) that the
// demo configuration deliberately does not allowlist. It exists so querygate can
// be tried, tested and benchmarked without any external database.
//
// Generation is deterministic: the same rows, byte for byte, on every run and
// platform (own PRNG, own integer→range mapping, fixed timestamps). About 60 000
// spans over 60 days ending 2026-11-15; ~1 % of prompts and some feedback carry
// prompt-injection text, so untrusted-content flagging has something to flag.
// A sixth project, internal-tests (the team's CI runs: ~1 000 traces, after
// every other row, from its own random stream), is there to be hidden by the
// demo configuration's row filters.
#include <filesystem>

#include "common/result.hpp"

namespace qg::exec {

// (Re)creates the demo database at `path`. Builds it in `path + ".tmp"`, removes
// stale -wal/-shm/-journal files next to `path`, then renames the new file over
// any existing one: a half-written database never appears under `path`, and a
// failed run leaves the previous database intact. The result is in rollback
// (DELETE) journal mode, ready for any number of read-only readers.
// Errors (ErrorCode::BackendError) name the path and what failed.
Status create_demo_db(const std::filesystem::path& path);

}  // namespace qg::exec
