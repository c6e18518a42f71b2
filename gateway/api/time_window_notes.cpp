#include "gateway/api/time_window_notes.hpp"

#include <algorithm>
#include <cstdio>

#include "common/pg_time.hpp"
#include "gateway/api/bindings.hpp"
#include "gateway/api/cached_admission.hpp"

namespace qg::gateway {
namespace {

constexpr auto kRangeLifetime = std::chrono::seconds(60);
// At most this of the request's deadline, paid once a minute per table and column (the range is kept for
// kRangeLifetime): 250 ms missed the note on a loaded two-core machine.
constexpr auto kOwnBudget = std::chrono::milliseconds(1000);
constexpr std::size_t kMaxRanges = 4096;
constexpr std::size_t kMaxWindows = 2;

// The engine's answer to one admitted statement of the key, as times (nullopt: NULL or not a time).
std::optional<std::vector<std::optional<std::int64_t>>> times_of(const std::string& sql,
                                                                 const DataRanges::Context& ctx) {
  auto statement =
      admit_statement(sql, ctx.catalog, ctx.limits, 1, ctx.key != nullptr ? &ctx.key->hidden_columns : nullptr);
  if (!statement) return std::nullopt;
  auto bound = key_bindings(statement->param_names, ctx.key, ctx.catalog);
  if (!bound) return std::nullopt;
  exec::RunOptions options;
  options.deadline = std::min(ctx.deadline, exec::Clock::now() + kOwnBudget);
  options.cancelled = ctx.cancelled;
  options.params = std::move(bound).value();
  options.max_rows = 1;
  options.columns = &statement->admission.columns;
  auto rows = ctx.engine.run(statement->sql, options);
  if (!rows || rows->rows.size() != 1) return std::nullopt;
  std::vector<std::optional<std::int64_t>> out;
  for (const auto& cell : rows->rows.front()) {
    const auto* text = std::get_if<std::string>(&cell);
    pgtime::Value v;
    std::string error;
    if (text != nullptr && pgtime::parse(*text, pgtime::Kind::Timestamptz, v, error))
      out.emplace_back(v.micros);
    else
      out.emplace_back(std::nullopt);
  }
  return out;
}

std::string day_of(std::int64_t micros) {
  pgtime::Value v{pgtime::Kind::Date,
                  micros - (((micros % pgtime::kMicrosPerDay) + pgtime::kMicrosPerDay) % pgtime::kMicrosPerDay),
                  {}};
  std::string out, error;
  if (!pgtime::format(v, out, error)) return "?";
  return out;
}

std::string days(double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, n >= 10 || n == static_cast<int>(n) ? "%.0f" : "%.1f", n);
  return std::string(buf) + (std::string(buf) == "1" ? " day" : " days");
}

}  // namespace

std::string window_note(const std::string& table, const std::string& column, std::int64_t data_min,
                        std::int64_t data_max, std::optional<std::int64_t> lower, std::optional<std::int64_t> upper,
                        bool reads_clock, std::int64_t now, std::size_t rows) {
  if (!upper && reads_clock) upper = now;
  const std::string held = table + "." + column + " holds " + day_of(data_min) + " … " + day_of(data_max) + " (UTC)";
  const bool before = upper && *upper < data_min;
  const bool after = lower && *lower > data_max;
  if (before || after)
    return held + "; the window " +
           (lower && upper ? day_of(*lower) + " … " + day_of(*upper)
            : lower        ? "from " + day_of(*lower)
                           : "until " + day_of(*upper)) +
           " lies wholly " + (after ? "after" : "before") + " it, so no row of " + table + " is in it" +
           (rows == 0 ? " (hence the empty answer)." : ".");
  if (!lower || !upper || *upper <= *lower) return {};
  const std::int64_t covered = std::min(*upper, data_max) - std::max(*lower, data_min);
  const std::int64_t length = *upper - *lower;
  if (covered >= length - length / 10) return {};  // 90 % or more of the window holds data
  const double day = static_cast<double>(pgtime::kMicrosPerDay);
  return held + "; the window " + day_of(*lower) + " … " + day_of(*upper) + " (" +
         days(static_cast<double>(length) / day) + ") overlaps it for " +
         days(std::max<double>(0, static_cast<double>(covered) / day)) +
         ": compare per-day figures, not totals, with a full window.";
}

std::optional<DataRanges::Range> DataRanges::range(const admit::TimeWindow& w, const Context& ctx) {
  const std::string key = ctx.database + '\x1f' + policy_identity(ctx.key) + '\x1f' + w.table + '\x1f' + w.column;
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    if (auto it = ranges_.find(key); it != ranges_.end() && now - it->second.read_at < kRangeLifetime)
      return it->second;
  }
  const std::string q = "\"" + w.column + "\"";
  auto found = times_of("SELECT min(" + q + "), max(" + q + ") FROM \"" + w.table + "\"", ctx);
  if (!found || found->size() != 2) return std::nullopt;
  Range r;
  r.read_at = now;
  if ((*found)[0] && (*found)[1]) {
    r.known = true;
    r.min = *(*found)[0];
    r.max = *(*found)[1];
  }
  std::lock_guard lock(mutex_);
  if (ranges_.size() >= kMaxRanges) ranges_.clear();
  ranges_[key] = r;
  return r;
}

std::vector<std::string> DataRanges::notes(const AdmittedStatement& statement, std::size_t rows, const Context& ctx) {
  std::vector<std::string> out;
  const auto& windows = statement.admission.windows;
  for (std::size_t i = 0; i < windows.size() && i < kMaxWindows; ++i) {
    const auto& w = windows[i];
    const auto data = range(w, ctx);
    if (!data || !data->known) continue;
    // The bounds, and the engine's clock, in one statement without a table.
    auto bounds = times_of("SELECT " + (w.lower.empty() ? std::string("NULL") : "(" + w.lower + ")") + ", " +
                               (w.upper.empty() ? std::string("NULL") : "(" + w.upper + ")") + ", now()",
                           ctx);
    if (!bounds || bounds->size() != 3 || !(*bounds)[2]) continue;
    if ((!w.lower.empty() && !(*bounds)[0]) || (!w.upper.empty() && !(*bounds)[1])) continue;
    std::string note = window_note(w.table, w.column, data->min, data->max, (*bounds)[0], (*bounds)[1], w.reads_clock,
                                   *(*bounds)[2], rows);
    if (!note.empty()) out.push_back(std::move(note));
  }
  return out;
}

}  // namespace qg::gateway
