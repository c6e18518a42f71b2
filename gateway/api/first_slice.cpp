#include "gateway/api/first_slice.hpp"

#include "observability/metrics.hpp"

namespace qg::gateway {

static_assert(static_cast<std::size_t>(Handoff::EngineBusy) + 1 == observability::kHandoffReasons.size(),
              "every Handoff has its label value in observability::kHandoffReasons, in the same order");

std::string_view handoff_reason(Handoff why) {
  return observability::kHandoffReasons[static_cast<std::size_t>(why)];
}

bool expected_cheap(const CachedAdmission& entry) {
  return entry.last_run.cheap();
}

void remember_run(const CachedAdmission& entry, const exec::RunStats& stats, std::chrono::microseconds engine_time,
                  bool answered) {
  // No connection or a writer's lock says nothing about the statement.
  if (stats.slice_end == exec::RunStats::SliceEnd::Busy) return;
  entry.last_run.remember(answered && stats.slice_end == exec::RunStats::SliceEnd::None &&
                          stats.vm_steps <= kCheapSteps && engine_time <= kCheapEngineTime);
}

}  // namespace qg::gateway
