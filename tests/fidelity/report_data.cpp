// Machine-readable outputs: fidelity.json (figures per dataset, for CI
// history) and fidelity.tsv (one line per gold query, for grep and diffing runs).
#include <boost/json.hpp>
#include <sstream>

#include "report.hpp"

namespace fidelity {
namespace {

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

boost::json::object counts_by_code(const std::map<std::string, std::vector<const Record*>>& by_code) {
  boost::json::object out;
  for (const auto& [code, records] : by_code) out[code] = records.size();
  return out;
}

}  // namespace

std::string json_summary(const std::vector<Summary>& summaries, const std::vector<Floor>& floors,
                         std::chrono::milliseconds elapsed) {
  boost::json::object root;
  root["elapsed_ms"] = elapsed.count();
  boost::json::array datasets;
  for (const auto& s : summaries) {
    boost::json::object d;
    d["dataset"] = s.dataset;
    d["total"] = s.total;
    d["db_missing"] = s.db_missing;
    d["not_runnable"] = s.not_runnable;
    d["runnable"] = s.runnable;
    d["admitted"] = s.admitted;
    d["admitted_pct"] = s.admitted_pct();
    d["identical"] = s.identical;
    d["refused"] = s.refused;
    d["fixed_admitted"] = s.fixed_admitted;
    d["fixed_identical"] = s.fixed_identical;
    d["fixable_pct_of_refused"] = s.fixable_pct_of_refused();
    d["admitted_or_fixable_pct"] = s.admitted_or_fixable_pct();
    d["identical_pct_of_admitted"] = s.identical_pct_of_admitted();
    d["not_fixable"] = s.not_fixable;
    d["differences"] = s.differences.size();
    d["engine_errors"] = s.engine_errors.size();
    d["internal_errors"] = s.internal_errors.size();
    d["ordered_answers"] = s.ordered;
    d["empty_answers"] = s.empty_answers;
    d["rows_compared"] = s.rows_compared;
    d["column_names_differ_in_case"] = s.names_case_only.size();
    d["column_names_differ"] = s.names_different.size();
    d["refusals_by_code"] = counts_by_code(s.refusals);
    d["not_fixable_by_code"] = counts_by_code(s.not_fixable_by_code);
    boost::json::object fixes;
    for (const auto& [name, n] : s.fixes_used) fixes[name] = n;
    d["fixes_used"] = std::move(fixes);
    for (const auto& f : floors)
      if (f.dataset == s.dataset) d["floor_admitted_or_fixable_pct"] = f.admitted_or_fixable_pct;
    datasets.push_back(std::move(d));
  }
  root["datasets"] = std::move(datasets);
  return boost::json::serialize(root) + "\n";
}

std::string records_tsv(const std::vector<std::vector<Record>>& records) {
  std::ostringstream out;
  out << "dataset\tindex\tdb_id\toutcome\tfirst_refusal\tfinal_refusal\tfixes\tmessage\tfix\tsql\tsent_sql\trendered\t"
         "gateway_names\tdirect_names\n";
  for (const auto& set : records)
    for (const auto& r : set) {
      const qg::Error* e = r.final_refusal   ? &*r.final_refusal
                           : r.engine_error  ? &*r.engine_error
                           : r.first_refusal ? &*r.first_refusal
                                             : nullptr;
      std::string fixes;
      for (const auto& f : r.fixes) fixes += (fixes.empty() ? "" : ",") + f;
      out << r.dataset << '\t' << r.query->index << '\t' << r.query->db_id << '\t' << outcome_name(r.outcome) << '\t'
          << (r.first_refusal ? qg::name(r.first_refusal->code) : "") << '\t'
          << (r.final_refusal ? qg::name(r.final_refusal->code) : "") << '\t' << fixes << '\t'
          << one_line(e ? e->message : r.direct_error + r.difference) << '\t' << one_line(e ? e->fix : "") << '\t'
          << one_line(r.query->sql) << '\t' << one_line(r.sent_sql) << '\t' << one_line(r.rendered) << '\t'
          << one_line(r.gateway_names) << '\t' << one_line(r.direct_names) << '\n';
    }
  return out.str();
}

}  // namespace fidelity
