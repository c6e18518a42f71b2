#include "observability/request_log.hpp"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>

#include "common/json_string.hpp"

namespace qg::observability {

std::string format_request_line(const RequestRecord& r, std::chrono::system_clock::time_point now) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[40];
  std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
  std::string out = "{\"time\":\"";
  out += stamp;
  out += "\"";
  auto text = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    out += ",\"";
    out += key;
    out += "\":";
    append_json_string(out, value);
  };
  auto number = [&](const char* key, long long value) {
    out += ",\"";
    out += key;
    out += "\":" + std::to_string(value);
  };
  text("request_id", r.request_id);
  text("method", r.method);
  text("route", r.route);
  text("key", r.key);
  text("database", r.database);
  text("outcome", r.outcome);
  number("status", r.status);
  if (r.queue_wait) number("queue_wait_ms", r.queue_wait->count());
  number("duration_ms", r.duration.count());
  if (r.rows) number("rows", *r.rows);
  number("bytes", static_cast<long long>(r.bytes));
  text("fingerprint", r.fingerprint);
  text("sql", r.sql);
  if (!r.write_tool.empty()) text("write_tool", r.write_tool);  // write tools only
  if (!r.write_outcome.empty()) text("write_outcome", r.write_outcome);
  out += "}";
  return out;
}

std::string request_id_from(const std::string& header) {
  bool printable = !header.empty() && header.size() <= 128;
  for (char c : header) printable = printable && c > 0x20 && c < 0x7f && c != '"' && c != '\\';
  if (printable) return header;
  // Ids need to be unique, not secret: a generator per thread, seeded once.
  // (Constructing std::random_device per request cost ~20 µs on the I/O thread.)
  thread_local std::mt19937_64 generator{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  const std::uint64_t v = generator();
  std::string id;
  for (int k = 0; k < 16; ++k) id.push_back(kHex[(v >> (4 * k)) & 15]);
  return id;
}

void RequestLog::write(const RequestRecord& record) {
  std::string line = format_request_line(record, std::chrono::system_clock::now());
  line.push_back('\n');
  std::lock_guard lock(mu_);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace qg::observability
