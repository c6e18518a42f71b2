#pragma once
// The words for each way admission says no, written for the agent that reads
// them: what happened, on which database, and the exact next step.
#include <chrono>
#include <string>

#include "common/result.hpp"
#include "load_control/permit_queue.hpp"

namespace qg::permits {

struct RefusalContext {
  std::string database;
  int permits = 0;
  int queue_depth = 0;
  std::chrono::milliseconds waited{0};      // from arrival to the refusal
  std::chrono::milliseconds budget{0};      // the request's whole deadline
  std::chrono::milliseconds max_budget{0};  // limits.deadline_ms: the most timeout_ms may ask for
};

Error refusal_error(const Denied& denied, const RefusalContext& context);

// When the statement was granted a permit but its deadline had already passed
// by the time a worker picked it up.
Error expired_before_start(const RefusalContext& context);

// When the statement started but its deadline passed while it ran, and the
// wait for a permit (`context.waited`) took longer than the run (`ran`): the
// database was busy, and the statement itself need not change.
Error deadline_spent_waiting(const RefusalContext& context, std::chrono::milliseconds ran);

}  // namespace qg::permits
