// Runs tests/corpus/lineage/*.tsv: every output column's untrusted flag, on
// both backends' catalogs of the demo.
#include <gtest/gtest.h>

#include "admission/pipeline.hpp"
#include "tests/unit/corpus_file.hpp"
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
  for (auto& line : testing::load_corpus_dir("lineage"))
    out.push_back({line.where, line.fields[0], line.fields[1], line.fields[2]});
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
