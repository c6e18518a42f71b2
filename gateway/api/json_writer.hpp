#pragma once
// A small JSON text builder for responses. Hand-written because the envelope's
// number format matters to the model reading it: 1370.9, not 1.3709E3, and
// floats rounded to a fixed number of significant digits at the boundary.
#include <cstdint>
#include <string>
#include <string_view>

namespace qg::gateway {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& string(std::string_view s);
  JsonWriter& integer(std::int64_t v);
  // `significant_digits` 0 prints the shortest text that reads back the same double. `rounded`, when given, is set
  // when the printed value is not v.
  JsonWriter& number(double v, int significant_digits, bool* rounded = nullptr);
  JsonWriter& boolean(bool v);
  JsonWriter& null();
  // Appends an already-serialised JSON value.
  JsonWriter& raw(std::string_view json);

  const std::string& text() const { return out_; }
  std::string take() { return std::move(out_); }
  std::size_t size() const { return out_.size(); }

 private:
  void separate();
  std::string out_;
  bool need_comma_ = false;
};

}  // namespace qg::gateway
