// Runs tests/corpus/lineage/*.tsv: every output column's untrusted flag, on
// both backends' catalogs of the demo.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "admission/pipeline.hpp"
#include "tests/unit/demo_fixture.hpp"

namespace qg {
namespace {

struct LineageCase {
  std::string where;
  std::string backend;
  std::string flags;
  std::string sql;
};

std::vector<LineageCase> load_lineage_corpus() {
  std::vector<LineageCase> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(QG_TEST_CORPUS_DIR) + "/lineage")) {
    if (entry.path().extension() != ".tsv") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty() || line[0] == '#') continue;
      const auto a = line.find('\t');
      const auto b = line.find('\t', a + 1);
      if (a == std::string::npos || b == std::string::npos) {
        ADD_FAILURE() << entry.path() << ":" << n << ": expected backend<TAB>flags<TAB>sql";
        continue;
      }
      out.push_back({entry.path().filename().string() + ":" + std::to_string(n), line.substr(0, a),
                     line.substr(a + 1, b - a - 1), line.substr(b + 1)});
    }
  }
  return out;
}

TEST(LineageCorpusTest, EveryOutputColumnCarriesItsExpectedFlag) {
  const auto cases = load_lineage_corpus();
  ASSERT_GE(cases.size(), 60u);
  auto& demo = testing::Demo::get();
  const catalog::Catalog& sqlite = demo.sqlite_catalog();
  const catalog::Catalog postgres = demo.postgres_catalog();
  config::Limits limits;
  for (const auto& c : cases) {
    for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
      if (c.backend != "both" && c.backend != dialect_name(d)) continue;
      auto st = admit_statement(c.sql, d == Dialect::Sqlite ? sqlite : postgres, limits, std::nullopt);
      if (!st) {
        ADD_FAILURE() << c.where << " [" << dialect_name(d) << "] refused: " << st.error().message << "\n  " << c.sql;
        continue;
      }
      std::string flags;
      for (const auto& col : st->admission.columns) flags += col.untrusted ? 'U' : '-';
      EXPECT_EQ(flags, c.flags) << c.where << " [" << dialect_name(d) << "] " << c.sql;
    }
  }
}

}  // namespace
}  // namespace qg
