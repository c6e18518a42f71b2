#pragma once
// Issue 16, SQLite without hand-offs. A SQLite point query takes microseconds;
// handing it from the I/O thread that read it to a worker and its answer back
// cost more than that (≈ 41 µs, docs/BENCHMARKS.md). So when the permit is
// granted at once on the thread that read the request, and the statement is
// expected to be cheap, it runs right there, as a first slice: under a budget
// of SQLite virtual-machine steps, never waiting for a connection or a lock.
// A slice that runs out is interrupted, what it read is discarded (the
// statement is read-only, so running it again is safe) and a worker runs it
// from the start under the same permit and deadline. Everything else goes to
// a worker as before: PostgreSQL, tools, validate_only, a permit that had to
// wait, a statement not known to be cheap.
//
// "Expected to be cheap": its last run on this gateway (same database, key
// policy, text and limit: one admission-cache entry, CachedAdmission::last_run)
// went to its end within kCheapSteps steps and kCheapEngineTime in the engine.
// A statement not in the admission cache, or whose last run did not, goes to
// a worker, whose run is remembered for the next one.
#include <chrono>
#include <cstdint>
#include <string_view>

#include "admission/cache/admission_cache.hpp"
#include "executors/executor.hpp"

namespace qg::gateway {

// The bounds of "cheap" (constants, not settings): what a run may have cost
// for the next one to be tried on the I/O thread.
inline constexpr std::int64_t kCheapSteps = 5'000;
inline constexpr std::chrono::microseconds kCheapEngineTime{1'000};
// The first slice's budget: 4× the cheap bound, so a statement that was cheap
// last time rarely runs out, and the I/O thread is never held for long (about
// 20 000 steps: well under a millisecond for SQLite's usual steps).
inline constexpr std::int64_t kSliceSteps = 4 * kCheapSteps;

// Why a statement on an engine that runs in slices (SQLite) went to a worker.
// Its label value (querygate_handoffs_total{reason}) is
// observability::kHandoffReasons at the same index.
enum class Handoff : std::uint8_t {
  PermitWaited,    // the permit was not free at once: it was granted later, on another thread
  ToolCall,        // a curated tool (its arguments are checked, maybe against live values)
  ValidateOnly,    // validate_only: compiled, never stepped
  NotAdmitted,     // not in the admission cache: admission itself is work for a worker
  NotCheap,        // its last run was not cheap (or it never ran to its end)
  SliceExhausted,  // the first slice ran out of steps
  EngineBusy,      // no idle connection, or a writer's lock: the slice would have waited
};
std::string_view handoff_reason(Handoff why);

// Whether the entry's statement may be tried on the I/O thread.
bool expected_cheap(const CachedAdmission& entry);

// Remembers how a run of the entry's statement went: cheap when it answered
// (`answered`: rows, not an error) within both bounds. A slice that could not
// start (SliceEnd::Busy) leaves the memory as it was.
void remember_run(const CachedAdmission& entry, const exec::RunStats& stats, std::chrono::microseconds engine_time,
                  bool answered);

}  // namespace qg::gateway
