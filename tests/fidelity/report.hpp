#pragma once
// The run's outputs: a Markdown report for people (stdout), a JSON summary and
// a per-query TSV for machines (build dir), all from the same Summaries.
#include <chrono>
#include <string>
#include <vector>

#include "summary.hpp"

namespace fidelity {

struct Floor {
  std::string dataset;
  double admitted_or_fixable_pct = 0;
};

std::string markdown_report(const std::vector<Summary>& summaries, const std::vector<Floor>& floors,
                            std::chrono::milliseconds elapsed);
std::string json_summary(const std::vector<Summary>& summaries, const std::vector<Floor>& floors,
                         std::chrono::milliseconds elapsed);
std::string records_tsv(const std::vector<std::vector<Record>>& records);

}  // namespace fidelity
