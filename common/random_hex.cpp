#include "common/random_hex.hpp"

#include <sys/random.h>

#include <cerrno>
#include <random>
#include <vector>

namespace qg {

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = getrandom(raw.data() + got, bytes - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {  // no getrandom: the slower path to the same entropy
      std::random_device random;
      for (; got < bytes; ++got) raw[got] = static_cast<unsigned char>(random());
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes);
  for (unsigned char b : raw) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

}  // namespace qg
