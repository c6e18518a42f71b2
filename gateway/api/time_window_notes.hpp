#pragma once
// Notes on time windows that reach past the data (issue #12): when the
// outermost WHERE bounds a table's timestamp column (admit::TimeWindow) and the
// window lies partly or wholly outside the times the table holds, the answer's
// `notes` say so with the range ("spans.start_time holds 2026-09-16 …
// 2026-11-15 (UTC); the window 2026-11-02 … 2026-12-02 (30 days) overlaps 13
// of its days"), so an agent does not read half a window as a whole one.
//
// The range is read as the calling key reads the table (admitted like its own
// statement: row filters, bindings and hidden columns apply, so it tells
// nothing the key could not count itself), kept for a minute per database,
// key and column; the bounds are evaluated by the engine each time (they may
// read the clock). Best effort under the request's deadline: any failure means
// no note, never a failed answer.
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "admission/pipeline.hpp"
#include "executors/executor.hpp"
#include "gateway/auth/keys.hpp"

namespace qg::gateway {

class DataRanges {
 public:
  struct Context {
    const std::string& database;
    exec::Executor& engine;
    // The catalog the caller's statements are admitted with (the served one: row filters, curation), not the
    // executor's introspected one, which has no row filters.
    const catalog::Catalog& catalog;
    const config::Limits& limits;
    const auth::Key* key;
    std::chrono::steady_clock::time_point deadline;
    const std::atomic<bool>* cancelled;
  };

  // The notes for `statement`'s windows; `rows` is the number of rows it answered.
  std::vector<std::string> notes(const AdmittedStatement& statement, std::size_t rows, const Context& ctx);

 private:
  struct Range {
    bool known = false;             // false: the column holds no time
    std::int64_t min = 0, max = 0;  // microseconds since the epoch, UTC
    std::chrono::steady_clock::time_point read_at;
  };
  std::optional<Range> range(const admit::TimeWindow& w, const Context& ctx);

  std::mutex mutex_;
  std::map<std::string, Range> ranges_;
};

// The note for one window, from the range and the window's bounds (nullopt: open end); `now` closes an
// open upper end of a window that reads the clock. Empty: nothing to say. (Pure: tested on its own.)
std::string window_note(const std::string& table, const std::string& column, std::int64_t data_min,
                        std::int64_t data_max, std::optional<std::int64_t> lower, std::optional<std::int64_t> upper,
                        bool reads_clock, std::int64_t now, std::size_t rows);

}  // namespace qg::gateway
