#pragma once
// defog sql-eval's PostgreSQL questions (shared/data/defog, see its SOURCE.md):
// three python-written CSV files whose `query` column holds gold SQL in
// sql-eval's own notation, expanded here into the concrete statements
// sql-eval itself runs.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "dataset.hpp"

namespace fidelity {

// CSV as Python's csv module reads it (excel dialect, strict=False; sql-eval
// itself reads the files with pandas): fields separated by commas, records by \n,
// \r\n or \r; a field in double quotes may hold commas, line breaks (kept as
// written) and "" for one quote; blank lines are skipped. Like Python, a lone
// quote inside a quoted field is dropped and the field reads on unquoted (one
// question text in questions_gen_postgres.csv needs that). A quote left open
// at the end is an error: the rest of the file would be one field.
qg::Result<std::vector<std::vector<std::string>>> parse_csv(std::string_view text);

// sql-eval's gold notation (get_all_minimal_queries in its eval/eval.py):
// `;` separates acceptable alternatives (split as upstream does, without
// regard to quotes; blank ones dropped, each trimmed); in each, the first
// `{a,b,...}` stands for every non-empty subset of its items in
// itertools.combinations order (a; b; a, b), and every later `{}` repeats the
// subset chosen (upstream replaces `GROUP BY {}`, the only form the data
// uses). Items are trimmed and joined with ", " (upstream keeps their spaces:
// only whitespace differs).
std::vector<std::string> expand_gold_notation(std::string_view query);

// The three files under `dir` (shared/data/defog), expanded: 487 statements.
// Each query's pg_dsn is `conninfo` + " dbname=defog_<db_name>" (how
// scripts/pg-test-cluster.sh names the databases); its note says which file,
// row, category and variant it came from.
qg::Result<Dataset> load_defog(const std::filesystem::path& dir, const std::string& conninfo);

}  // namespace fidelity
