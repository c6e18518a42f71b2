#pragma once
// Reads the plain-text corpora under tests/corpus/<name>/*.tsv: one case per
// line, three tab-separated fields, '#' comments and blank lines skipped.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace qg::testing {

struct CorpusLine {
  std::string where;  // file:line, for failure messages
  std::array<std::string, 3> fields;
};

inline std::vector<CorpusLine> load_corpus_dir(const std::string& name) {
  std::vector<CorpusLine> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(QG_TEST_CORPUS_DIR) + "/" + name)) {
    if (entry.path().extension() != ".tsv") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty() || line[0] == '#') continue;
      const auto a = line.find('\t');
      const auto b = a == std::string::npos ? a : line.find('\t', a + 1);
      const std::string where = entry.path().filename().string() + ":" + std::to_string(n);
      if (b == std::string::npos) {
        ADD_FAILURE() << where << ": expected three tab-separated fields";
        continue;
      }
      out.push_back({where, {line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)}});
    }
  }
  return out;
}

}  // namespace qg::testing
