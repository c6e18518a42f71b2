#include "load_control/refusal.hpp"

#include <algorithm>

namespace qg::permits {
namespace {

std::string ms(std::chrono::milliseconds d) {
  return std::to_string(d.count()) + " ms";
}

std::string permits_phrase(const RefusalContext& c) {
  return std::to_string(c.permits) + (c.permits == 1 ? " permit" : " permits") + " of database '" + c.database + "'";
}

}  // namespace

Error refusal_error(const Denied& denied, const RefusalContext& c) {
  const std::string retry = std::to_string(denied.retry_after.count()) + " s";
  switch (denied.reason) {
    case Refusal::QueueFull:
      return make_error(ErrorCode::LimitQueueFull,
                        "all " + permits_phrase(c) + " are busy and its queue (" + std::to_string(c.queue_depth) +
                            " waiting) is full; the statement was not run",
                        "FIX: wait " + retry +
                            " (the Retry-After header) and send it again; send fewer statements "
                            "at once, waiting for each answer before the next");
    case Refusal::Deadline:
      return expired_before_start(c);
    case Refusal::Cancelled:
      return make_error(ErrorCode::RequestCancelled,
                        "the client disconnected while waiting for one of the " + permits_phrase(c),
                        "FIX: keep the connection open until the answer arrives");
    case Refusal::Closed:
      return make_error(ErrorCode::LimitShuttingDown, "querygate is shutting down; the statement was not run",
                        "FIX: send it again after " + retry + " (the Retry-After header), to a running instance");
  }
  return make_error(ErrorCode::Internal, "unknown admission refusal");
}

namespace {

// The database was busy: what to do is wait, not rewrite. `ran`: whether the statement started.
std::string busy_fix(const RefusalContext& c, bool ran) {
  std::string fix =
      "FIX: send it again when fewer statements are running (retry later), or send fewer at once "
      "(lower your concurrency)";
  fix += ran ? "; change the statement only if it then runs out of time on its own"
             : "; the statement did not run, so nothing in it needs to change";
  if (c.budget < c.max_budget)
    fix += "; or allow more time: \"timeout_ms\" up to " + std::to_string(c.max_budget.count());
  return fix;
}

}  // namespace

Error expired_before_start(const RefusalContext& c) {
  return make_error(ErrorCode::LimitDeadline,
                    "the deadline (" + ms(c.budget) + ") passed after waiting " + ms(c.waited) + " for one of the " +
                        permits_phrase(c) + " (the database is busy); the statement was not run",
                    busy_fix(c, false));
}

Error deadline_spent_waiting(const RefusalContext& c, std::chrono::milliseconds ran) {
  const auto left = std::max(std::chrono::milliseconds(0), c.budget - c.waited);
  return make_error(ErrorCode::LimitDeadline,
                    "the deadline (" + ms(c.budget) + ") was spent mostly waiting: " + ms(c.waited) +
                        " for one of the " + permits_phrase(c) + " (the database is busy), which left " + ms(left) +
                        " to run the statement; it was stopped after " + ms(ran),
                    busy_fix(c, true));
}

}  // namespace qg::permits
