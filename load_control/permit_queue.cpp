#include "load_control/permit_queue.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace qg::permits {
namespace {

// Weight of the newest hold time in the moving average: recent enough to follow
// a change of workload within a few dozen statements, smooth enough that one
// outlier does not swing Retry-After.
constexpr double kServiceWeight = 0.2;
// Retry-After never promises more than this: an estimate that far out is
// mostly noise, and a client told to wait minutes tends to give up instead.
constexpr std::chrono::seconds kMaxRetryAfter{60};

}  // namespace

void Permit::reset() noexcept {
  if (owner_ != nullptr) std::exchange(owner_, nullptr)->release(granted_at_);
}

PermitQueue::PermitQueue(QueueOptions options, const Clock& clock) : options_(options), clock_(clock) {
  assert(options_.permits >= 1 && options_.queue_depth >= 0);
}

PermitQueue::~PermitQueue() {
  assert(in_use_ == 0 && "a Permit outlived its queue");
  assert(waiters_.empty() && "close() the queue before destroying it");
}

std::optional<Decision> PermitQueue::submit(std::string_view fairness_key, TimePoint deadline,
                                            const std::shared_ptr<Cancellation>& cancel, OnDecision on_decision) {
  std::deque<Pending> pending;  // a waiter pushed out for fairness
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    const TimePoint now = clock_.now();
    if (closed_) {
      ++totals_.shut_out;
      return denied(Refusal::Closed);
    }
    if (cancel && cancel->cancelled()) {
      ++totals_.cancelled;
      return denied(Refusal::Cancelled);
    }
    if (deadline <= now) {
      ++totals_.expired;
      return denied(Refusal::Deadline);
    }
    if (in_use_ < options_.permits) {
      assert(waiters_.empty() && "a free permit is handed to a waiter as soon as it comes back");
      ++in_use_;
      ++totals_.granted;
      return Permit(this, now, deadline);
    }
    if (static_cast<int>(waiters_.size()) >= options_.queue_depth) {
      // Full. A key that holds more places than the arriving one gives up its
      // newest, so one flooding client cannot lock the others out of the queue.
      const auto victim = fairness_victim(fairness_key);
      ++totals_.queue_full;
      if (!victim) return denied(Refusal::QueueFull, static_cast<int>(waiters_.size()));
      Waiter out = take(*victim);
      pending.push_back(Pending{std::move(out.on_decision),
                                denied(Refusal::QueueFull, static_cast<int>(waiters_.size())),
                                std::move(out.subscription)});
    }
    id = enqueue(fairness_key, deadline, std::move(on_decision));
  }
  deliver(pending);
  // Outside the lock: when `cancel` has fired meanwhile, this calls cancel(id) at once.
  if (cancel) {
    auto subscription = Cancellation::subscribe(cancel, [this, id] { this->cancel(id); });
    std::lock_guard lock(mu_);
    if (auto it = waiters_.find(id); it != waiters_.end()) it->second.subscription = std::move(subscription);
    // else: already decided; `subscription` unsubscribes as it goes out of scope (after the lock, see below).
    else
      pending.push_back(Pending{nullptr, Denied{}, std::move(subscription)});
  }
  pending.clear();  // drops a leftover subscription outside the lock
  return std::nullopt;
}

void PermitQueue::expire() {
  std::deque<Pending> pending;
  {
    std::lock_guard lock(mu_);
    const TimePoint now = clock_.now();
    while (!by_deadline_.empty() && by_deadline_.begin()->first <= now) {
      Waiter out = take(by_deadline_.begin()->second);
      ++totals_.expired;
      pending.push_back(Pending{std::move(out.on_decision), denied(Refusal::Deadline), std::move(out.subscription)});
    }
  }
  deliver(pending);
}

std::optional<TimePoint> PermitQueue::next_expiry() const {
  std::lock_guard lock(mu_);
  if (by_deadline_.empty()) return std::nullopt;
  return by_deadline_.begin()->first;
}

void PermitQueue::close() {
  std::deque<Pending> pending;
  {
    std::lock_guard lock(mu_);
    closed_ = true;
    while (!waiters_.empty()) {
      Waiter out = take(waiters_.begin()->first);
      ++totals_.shut_out;
      pending.push_back(Pending{std::move(out.on_decision), denied(Refusal::Closed), std::move(out.subscription)});
    }
  }
  deliver(pending);
}

QueueStats PermitQueue::stats() const {
  std::lock_guard lock(mu_);
  QueueStats s = totals_;
  s.permits = options_.permits;
  s.queue_depth = options_.queue_depth;
  s.in_use = in_use_;
  s.queued = static_cast<int>(waiters_.size());
  s.closed = closed_;
  s.service_ms = service_ns_ / 1e6;
  return s;
}

void PermitQueue::note_expired_after_grant() {
  std::lock_guard lock(mu_);
  ++totals_.expired;
}

void PermitQueue::release(TimePoint granted_at) noexcept {
  std::deque<Pending> pending;
  {
    std::lock_guard lock(mu_);
    const TimePoint now = clock_.now();
    const double held = static_cast<double>(std::chrono::nanoseconds(now - granted_at).count());
    service_ns_ = service_ns_ == 0 ? held : service_ns_ + kServiceWeight * (held - service_ns_);
    --in_use_;
    // Hand the permit straight to the next waiter in turn; waiters whose
    // deadline passed before expire() saw them are refused on the way.
    while (auto id = next_in_turn()) {
      Waiter next = take(*id);
      if (next.deadline <= now) {
        ++totals_.expired;
        pending.push_back(
            Pending{std::move(next.on_decision), denied(Refusal::Deadline), std::move(next.subscription)});
        continue;
      }
      ++in_use_;
      ++totals_.granted;
      pending.push_back(
          Pending{std::move(next.on_decision), Permit(this, now, next.deadline), std::move(next.subscription)});
      break;
    }
  }
  deliver(pending);
}

void PermitQueue::cancel(std::uint64_t id) {
  std::deque<Pending> pending;
  {
    std::lock_guard lock(mu_);
    if (!waiters_.contains(id)) return;  // decided already: granted, expired, pushed out or closed
    Waiter out = take(id);
    ++totals_.cancelled;
    pending.push_back(Pending{std::move(out.on_decision), denied(Refusal::Cancelled), std::move(out.subscription)});
  }
  deliver(pending);
}

void PermitQueue::deliver(std::deque<Pending>& pending) noexcept {
  for (Pending& p : pending) {
    if (!p.on_decision) continue;
    // A callback that throws anyway (allocation failure) must not unwind into
    // a Permit's destructor; the decision it dropped releases its permit.
    try {
      p.on_decision(std::move(p.decision));
    } catch (...) {
    }
  }
  pending.clear();
}

std::uint64_t PermitQueue::enqueue(std::string_view key, TimePoint deadline, OnDecision on_decision) {
  const std::uint64_t id = next_id_++;
  waiters_.emplace(id, Waiter{std::string(key), deadline, std::move(on_decision), {}});
  auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    it = by_key_.emplace(std::string(key), std::deque<std::uint64_t>{}).first;
    rotation_.push_back(std::string(key));  // a new key takes its turn after those already waiting
  }
  it->second.push_back(id);
  by_deadline_.emplace(deadline, id);
  return id;
}

PermitQueue::Waiter PermitQueue::take(std::uint64_t id) {
  auto node = waiters_.extract(id);
  assert(!node.empty());
  Waiter& w = node.mapped();
  auto key_it = by_key_.find(w.key);
  auto& ids = key_it->second;
  ids.erase(std::find(ids.begin(), ids.end(), id));
  if (ids.empty()) {
    by_key_.erase(key_it);
    rotation_.erase(std::find(rotation_.begin(), rotation_.end(), w.key));
  }
  auto [first, last] = by_deadline_.equal_range(w.deadline);
  for (auto it = first; it != last; ++it)
    if (it->second == id) {
      by_deadline_.erase(it);
      break;
    }
  return std::move(w);
}

std::optional<std::uint64_t> PermitQueue::next_in_turn() {
  if (rotation_.empty()) return std::nullopt;
  // Round-robin: the key at the front is served and, if it still has waiters
  // after this one, goes to the back of the line.
  const std::string key = rotation_.front();
  const std::uint64_t id = by_key_.find(key)->second.front();
  if (by_key_.find(key)->second.size() > 1) {
    rotation_.pop_front();
    rotation_.push_back(key);
  }
  return id;  // take(id) removes it (and the key, when it was its last waiter)
}

std::optional<std::uint64_t> PermitQueue::fairness_victim(std::string_view arriving_key) const {
  const std::string* largest = nullptr;
  std::size_t most = 0;
  for (const auto& [key, ids] : by_key_)
    if (ids.size() > most) {
      most = ids.size();
      largest = &key;
    }
  // Only when giving the place away still leaves the larger key at least as
  // many places as the arriving key then holds; equal shares never churn.
  if (largest == nullptr || *largest == arriving_key || most <= waiting_for(arriving_key) + 1) return std::nullopt;
  return by_key_.find(*largest)->second.back();  // its newest waiter: the others have waited longer
}

std::size_t PermitQueue::waiting_for(std::string_view key) const {
  const auto it = by_key_.find(key);
  return it == by_key_.end() ? 0 : it->second.size();
}

std::chrono::seconds PermitQueue::retry_after(int turns_ahead) const {
  // One turn per `permits` waiters ahead, plus the turn the retry itself needs.
  const double turns = std::floor(static_cast<double>(std::max(0, turns_ahead)) / options_.permits) + 1;
  const double seconds = std::ceil(service_ns_ * turns / 1e9);
  return std::chrono::seconds(static_cast<long long>(std::clamp(seconds, 1.0, double(kMaxRetryAfter.count()))));
}

}  // namespace qg::permits
