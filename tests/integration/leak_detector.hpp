#pragma once
// The lineage oracle's leak detector, shared with the error-message leak test:
// a leak is kWindow consecutive bytes of an untrusted source value, in text an
// agent reads unflagged, that no trusted value of the same rows also holds.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

namespace qg::testing {

constexpr std::size_t kWindow = 16;  // a leak is this many consecutive bytes of an untrusted value

inline std::uint64_t hash_window(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Every kWindow-byte window of the untrusted values, minus those some trusted
// value of the same rows also holds (JSON keys, model names, timestamps).
class LeakDetector {
 public:
  void add_untrusted(std::string_view v) { add(v, untrusted_); }
  void add_trusted(std::string_view v) { add(v, trusted_); }
  // The first leaked window of `cell`, or empty.
  std::string leak(std::string_view cell) const {
    for (std::size_t i = 0; i + kWindow <= cell.size(); ++i) {
      const auto h = hash_window(cell.substr(i, kWindow));
      if (untrusted_.contains(h) && !trusted_.contains(h)) return std::string(cell.substr(i, kWindow));
    }
    return {};
  }
  std::size_t size() const { return untrusted_.size(); }

 private:
  static void add(std::string_view v, std::unordered_set<std::uint64_t>& set) {
    for (std::size_t i = 0; i + kWindow <= v.size(); ++i) set.insert(hash_window(v.substr(i, kWindow)));
  }
  std::unordered_set<std::uint64_t> untrusted_, trusted_;
};

}  // namespace qg::testing
