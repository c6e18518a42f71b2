#include "gateway/api/json_writer.hpp"

#include "common/json_string.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace qg::gateway {
void JsonWriter::separate() {
  if (need_comma_) out_.push_back(',');
  need_comma_ = true;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_.push_back('{');
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  out_.push_back('}');
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  separate();
  out_.push_back('[');
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  out_.push_back(']');
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  append_json_string(out_, k);
  out_.push_back(':');
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::string(std::string_view s) {
  separate();
  append_json_string(out_, s);
  return *this;
}
JsonWriter& JsonWriter::integer(std::int64_t v) {
  separate();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
  return *this;
}
JsonWriter& JsonWriter::number(double v, int digits, bool* was_rounded) {
  separate();
  if (!std::isfinite(v)) {  // JSON has no NaN/Infinity
    out_ += "null";
    return *this;
  }
  char buf[40];
  std::to_chars_result r;
  if (digits > 0) {
    // Round to `digits` significant digits, then print the shortest text for
    // the rounded value. The integer part is never rounded away: an epoch
    // 1609459200.25 keeps its ten digits (1609459200), not 1.60946e9.
    const double magnitude = std::fabs(v);
    const int integer_digits = magnitude >= 1 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
    const int kept = std::min(17, std::max(digits, integer_digits));
    char tmp[40];
    std::snprintf(tmp, sizeof tmp, "%.*e", kept - 1, v);
    double rounded = 0;
    std::from_chars(tmp, tmp + std::char_traits<char>::length(tmp), rounded);
    if (was_rounded && rounded != v) *was_rounded = true;
    r = std::to_chars(buf, buf + sizeof buf, rounded);
  } else {
    r = std::to_chars(buf, buf + sizeof buf, v);
  }
  out_.append(buf, r.ptr);
  return *this;
}
JsonWriter& JsonWriter::boolean(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}
JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_.append(json);
  return *this;
}
JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace qg::gateway
