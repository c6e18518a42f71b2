#include "admission/params/params.hpp"

#include <pg_query.h>

#include <cstdint>
#include <optional>

namespace qg::params {
namespace {

// libpg_query's scanner answers in protobuf (pg_query.proto: ScanResult,
// ScanToken). Only four varint fields are read, so the wire format is decoded
// here rather than through protobuf-c, whose headers Debian does not ship with
// libpg-query-dev.
constexpr int kTokenColon = 58;   // Token ASCII_58 ':'
constexpr int kTokenParam = 267;  // Token PARAM: $n

struct ScanToken {
  int start = 0;
  int end = 0;
  int token = 0;
};

class Wire {
 public:
  Wire(const std::uint8_t* p, std::size_t n) : p_(p), end_(p + n) {}
  bool done() const { return p_ >= end_; }
  std::optional<std::uint64_t> varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const std::uint8_t b = *p_++;
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return std::nullopt;
  }
  // Reads one field: its number, wire type, and (for length-delimited fields) the bytes.
  bool field(std::uint64_t& number, std::uint64_t& value, Wire& sub) {
    auto key = varint();
    if (!key) return false;
    number = *key >> 3;
    switch (*key & 7) {
      case 0: {
        auto v = varint();
        if (!v) return false;
        value = *v;
        return true;
      }
      case 2: {
        auto n = varint();
        if (!n || *n > static_cast<std::uint64_t>(end_ - p_)) return false;
        sub = Wire(p_, static_cast<std::size_t>(*n));
        p_ += *n;
        return true;
      }
      case 1:
        if (end_ - p_ < 8) return false;
        p_ += 8;
        return true;
      case 5:
        if (end_ - p_ < 4) return false;
        p_ += 4;
        return true;
      default:
        return false;
    }
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

std::optional<std::vector<ScanToken>> decode(const PgQueryProtobuf& pbuf) {
  std::vector<ScanToken> tokens;
  Wire result(reinterpret_cast<const std::uint8_t*>(pbuf.data), pbuf.len);
  while (!result.done()) {
    std::uint64_t number = 0, value = 0;
    Wire sub(nullptr, 0);
    if (!result.field(number, value, sub)) return std::nullopt;
    if (number != 2) continue;  // 1: version
    ScanToken t;
    while (!sub.done()) {
      std::uint64_t n = 0, v = 0;
      Wire ignored(nullptr, 0);
      if (!sub.field(n, v, ignored)) return std::nullopt;
      if (n == 1) t.start = static_cast<int>(v);
      if (n == 2) t.end = static_cast<int>(v);
      if (n == 4) t.token = static_cast<int>(v);
    }
    tokens.push_back(t);
  }
  return tokens;
}

bool word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool word_char(char c) {
  return word_start(c) || (c >= '0' && c <= '9');
}

}  // namespace

bool valid_name(std::string_view name) {
  if (name.empty() || !word_start(name.front())) return false;
  for (char c : name)
    if (!word_char(c)) return false;
  return true;
}

Result<PositionalSql> to_positional(std::string_view sql) {
  const std::string text(sql);
  if (text.find('\0') != std::string::npos)
    return make_error(ErrorCode::ConfigInvalid, "the configured SQL contains a NUL byte",
                      "FIX: remove the NUL character from the SQL in the configuration.");
  PgQueryScanResult scanned = pg_query_scan(text.c_str());
  if (scanned.error) {
    Error e = make_error(
        ErrorCode::ConfigInvalid, std::string("the configured SQL cannot be read: ") + scanned.error->message,
        "FIX: close every string, quoted name and comment in the SQL in the configuration.",
        scanned.error->cursorpos > 0 ? std::optional<int>(scanned.error->cursorpos - 1) : std::nullopt);
    pg_query_free_scan_result(scanned);
    return e;
  }
  auto tokens = decode(scanned.pbuf);
  pg_query_free_scan_result(scanned);
  if (!tokens) return make_error(ErrorCode::Internal, "cannot decode libpg_query's scanner output");

  PositionalSql out;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < tokens->size(); ++i) {
    const ScanToken& t = (*tokens)[i];
    if (t.token == kTokenParam)
      return make_error(
          ErrorCode::ConfigInvalid,
          "the configured SQL uses a positional placeholder (" +
              text.substr(static_cast<std::size_t>(t.start), static_cast<std::size_t>(t.end - t.start)) + ")",
          "FIX: name the parameter instead, e.g. :project_id, and declare where its value comes from.", t.start);
    if (t.token != kTokenColon || i + 1 == tokens->size()) continue;
    const ScanToken& next = (*tokens)[i + 1];
    if (next.start != t.end) continue;  // `: name` is not a parameter (the grammar refuses it)
    const std::string_view word(text.data() + next.start, static_cast<std::size_t>(next.end - next.start));
    if (!valid_name(word)) continue;  // `:"x"`, `:1` (array slices): left to the grammar
    std::size_t index = 0;
    while (index < out.names.size() && out.names[index] != word) ++index;
    if (index == out.names.size()) out.names.emplace_back(word);
    out.text.append(text, copied, static_cast<std::size_t>(t.start) - copied);
    out.text += "$" + std::to_string(index + 1);
    copied = static_cast<std::size_t>(next.end);
    ++i;
  }
  out.text.append(text, copied, std::string::npos);
  return out;
}

}  // namespace qg::params
