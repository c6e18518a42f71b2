#pragma once
// The gold SQL of the public text-to-SQL datasets under shared/data, read as
// the datasets ship it: Spider's dev_gold.sql (SQL<TAB>db_id per line) and
// KaggleDBQA's examples/<db>.json (objects with "query" and "db_id").
#include <filesystem>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace fidelity {

struct GoldQuery {
  int index = 0;  // 1-based position in the dataset, for citing it
  std::string db_id;
  std::string sql;
  std::filesystem::path db_path;  // the SQLite file; may not exist (a DB left out of the snapshot)
  std::string note;               // probes: what the statement exercises; defog: file, row, category, variant
  // PostgreSQL datasets (defog): the libpq connection string of the gold
  // query's database; db_path is then empty. Empty for SQLite datasets.
  std::string pg_dsn;
};

struct Dataset {
  std::string name;
  std::vector<GoldQuery> queries;
};

// `dir` is shared/data/spider; `split` is "dev" (dev_gold.sql) or "train" (train_gold.sql).
qg::Result<Dataset> load_spider(const std::filesystem::path& dir, const std::string& split);
// `dir` is shared/data/kaggledbqa.
qg::Result<Dataset> load_kaggledbqa(const std::filesystem::path& dir);

// Hand-written probes (tests/fidelity/probes/*.json: objects with "db_id",
// "query", "note") over Spider's databases in `spider_dir`. Not real-world SQL:
// reproductions of divergences found while reading the gateway, and end-to-end
// checks of the FIX transformers. The dataset is named "probes/<file stem>".
qg::Result<Dataset> load_probes(const std::filesystem::path& file, const std::filesystem::path& spider_dir);

}  // namespace fidelity
