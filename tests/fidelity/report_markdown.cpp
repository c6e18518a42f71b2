// The human report: figures first, then everything a reader needs to act on
// (refusal classes with their FIX, every difference, the not-fixable list).
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "fixes.hpp"
#include "report.hpp"

namespace fidelity {
namespace {

constexpr std::size_t kExamplesPerCode = 2;
// Refusal classes get more examples, of distinct messages first, so a class
// that mixes causes shows them.
constexpr std::size_t kRefusalExamplesPerCode = 4;
constexpr std::size_t kMessagesPerCode = 12;

std::string fmt_pct(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

// Inline code that survives backticks and pipes inside the SQL.
std::string code(std::string_view text, std::size_t max = 300) {
  std::string t(text.substr(0, max));
  if (text.size() > max) t += " …";
  for (auto& c : t)
    if (c == '\n' || c == '\t') c = ' ';
  const bool tick = t.find('`') != std::string::npos;
  return tick ? "`` " + t + " ``" : "`" + t + "`";
}

std::string cite(const Record& r) {
  return r.dataset + " #" + std::to_string(r.query->index) + " (" + r.query->db_id + ")";
}

void refusal_lines(std::ostringstream& out, const qg::Error& e) {
  out << "  - message: " << e.message << "\n";
  if (!e.fix.empty()) out << "  - " << e.fix << "\n";
}

void figures(std::ostringstream& out, const Summary& s, const std::vector<Floor>& floors) {
  out << "| figure | value |\n|---|---|\n";
  out << "| gold queries | " << s.total << " |\n";
  out << "| DB missing from the snapshot | " << s.db_missing << " |\n";
  out << "| gold SQL fails on its engine directly (excluded) | " << s.not_runnable << " |\n";
  out << "| **runnable** | **" << s.runnable << "** |\n";
  out << "| **admitted as sent** | **" << s.admitted << " (" << fmt_pct(s.admitted_pct()) << " of runnable)** |\n";
  out << "| refused as sent | " << s.refused << " |\n";
  out << "| admitted after applying the FIX | " << s.fixed_admitted << " (" << fmt_pct(s.fixable_pct_of_refused())
      << " of refused) |\n";
  out << "| **admitted or fixable** | **" << s.admitted + s.fixed_admitted << " ("
      << fmt_pct(s.admitted_or_fixable_pct()) << " of runnable)** |\n";
  out << "| not fixable | " << s.not_fixable << " |\n";
  out << "| **identical results** | **" << s.identical + s.fixed_identical << " of " << s.admitted + s.fixed_admitted
      << " admitted (" << fmt_pct(s.identical_pct_of_admitted()) << "); as sent " << s.identical << "/" << s.admitted
      << ", after FIX " << s.fixed_identical << "/" << s.fixed_admitted << "** |\n";
  out << "| answers compared: ordered / multiset / empty; rows | " << s.ordered << " / "
      << (s.identical + s.fixed_identical + static_cast<int>(s.differences.size()) - s.ordered) << " / "
      << s.empty_answers << "; " << s.rows_compared << " |\n";
  out << "| different results | " << s.differences.size() << " |\n";
  out << "| gateway engine errors on admitted SQL | " << s.engine_errors.size() << " |\n";
  out << "| internal:error | " << s.internal_errors.size() << " |\n";
  out << "| result column names differ (only in case / otherwise; not asserted) | " << s.names_case_only.size() << " / "
      << s.names_different.size() << " |\n";
  for (const auto& f : floors)
    if (f.dataset == s.dataset)
      out << "| floor asserted (admitted or fixable) | " << fmt_pct(f.admitted_or_fixable_pct) << " |\n";
  out << "\n";
}

void refusals(std::ostringstream& out, const Summary& s) {
  out << "### Refusals of the SQL as sent, by code\n\n";
  if (s.refusals.empty()) out << "None.\n\n";
  for (const auto& [code_name, records] : s.refusals) {
    int fixed = 0;
    for (const auto* r : records) fixed += admitted_after_fix(r->outcome) ? 1 : 0;
    out << "- **" << code_name << "**: " << records.size() << " (" << fixed << " admitted after the FIX)\n";
    std::vector<const Record*> shown;
    std::set<std::string> messages;
    for (const auto* r : records)
      if (shown.size() < kRefusalExamplesPerCode && messages.insert(r->first_refusal->message).second)
        shown.push_back(r);
    for (const auto* r : records)
      if (shown.size() < std::min(kRefusalExamplesPerCode, records.size()) &&
          std::find(shown.begin(), shown.end(), r) == shown.end())
        shown.push_back(r);
    for (const auto* shown_record : shown) {
      const Record& r = *shown_record;
      out << "  - " << cite(r) << ": " << code(r.query->sql) << "\n";
      refusal_lines(out, *r.first_refusal);
    }
  }
  out << "\n";
  if (!s.fixes_used.empty()) {
    out << "FIXes applied (statements each one helped admit):";
    for (const auto& [name, n] : s.fixes_used) out << " " << name << " " << n << ";";
    out << "\n\n";
  }
}

void rows_block(std::ostringstream& out, const char* side, const std::vector<std::string>& rows) {
  out << "  - " << side << " first rows:";
  for (const auto& row : rows) out << " " << code(row, 200);
  out << "\n";
}

void differences(std::ostringstream& out, const Summary& s) {
  out << "### Differences (every one is a bug to explain)\n\n";
  if (s.differences.empty()) out << "None.\n\n";
  for (const auto* r : s.differences) {
    out << "- " << cite(*r) << (r->ordered ? " [ordered]" : " [multiset]") << ": " << code(r->query->sql, 1000) << "\n";
    if (!r->query->note.empty()) out << "  - note: " << r->query->note << "\n";
    if (!r->fixes.empty()) out << "  - sent after FIX: " << code(r->sent_sql, 1000) << "\n";
    out << "  - rendered: " << code(r->rendered, 1000) << "\n";
    out << "  - first difference: " << r->difference << "\n";
    rows_block(out, "gateway", r->gateway_rows);
    rows_block(out, "direct", r->direct_rows);
  }
  out << "\n### Gateway engine errors on admitted SQL\n\n";
  if (s.engine_errors.empty()) out << "None.\n\n";
  for (const auto* r : s.engine_errors) {
    out << "- " << cite(*r) << ": " << code(r->sent_sql, 1000) << "\n";
    if (!r->query->note.empty()) out << "  - note: " << r->query->note << "\n";
    out << "  - rendered: " << code(r->rendered, 1000) << "\n";
    out << "  - " << qg::name(r->engine_error->code) << ": " << r->engine_error->message << "\n";
  }
  out << "\n";
}

// Not part of "identical": the values are the answer. But the envelope shows
// these names to the agent, so a difference is worth seeing.
void column_names(std::ostringstream& out, const Summary& s) {
  out << "### Result column names that differ from the direct side's (not asserted)\n\n";
  out << s.names_case_only.size() << " differ only in letter case, " << s.names_different.size() << " otherwise.";
  for (const auto* group : {&s.names_case_only, &s.names_different})
    for (std::size_t i = 0; i < std::min(kExamplesPerCode, group->size()); ++i) {
      const Record& r = *(*group)[i];
      out << "\n- " << cite(r) << ": " << code(r.sent_sql, 200) << " → gateway " << code(r.gateway_names, 200)
          << ", direct " << code(r.direct_names, 200);
    }
  out << "\n\n";
}

void not_fixable(std::ostringstream& out, const Summary& s) {
  out << "### Not fixable (the gateway's improvement list), by the refusal no FIX cleared\n\n";
  if (s.not_fixable_by_code.empty()) out << "None.\n\n";
  for (const auto& [code_name, records] : s.not_fixable_by_code) {
    out << "- **" << code_name << "**: " << records.size() << "\n";
    // Same message, same class: count them so the biggest classes stand out.
    std::map<std::string, std::vector<const Record*>> by_message;
    for (const auto* r : records) by_message[r->final_refusal->message].push_back(r);
    std::vector<std::pair<std::string, std::vector<const Record*>>> sorted(by_message.begin(), by_message.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    for (std::size_t i = 0; i < std::min(kMessagesPerCode, sorted.size()); ++i) {
      const auto& [message, rs] = sorted[i];
      const Record& r = *rs.front();
      out << "  - " << rs.size() << "× " << message << " — e.g. " << cite(r) << ": " << code(r.sent_sql) << "\n";
      if (!r.final_refusal->fix.empty()) out << "    - " << r.final_refusal->fix << "\n";
    }
    if (sorted.size() > kMessagesPerCode)
      out << "  - … and " << sorted.size() - kMessagesPerCode << " more distinct messages (see fidelity.tsv)\n";
  }
  out << "\n";
}

}  // namespace

std::string markdown_report(const std::vector<Summary>& summaries, const std::vector<Floor>& floors,
                            std::chrono::milliseconds elapsed) {
  std::ostringstream out;
  out << "# querygate fidelity run\n\n";
  out << "Gold SQL from public text-to-SQL datasets, run through querygate's admission and executor, "
         "compared with the same SQL run on the same engine directly (SQLite; PostgreSQL for defog). Run time "
      << elapsed.count() << " ms.\n\n";
  out << "FIX transformers (applied to the token the refusal points at, as the FIX text says):\n";
  for (const auto& d : fix_descriptions()) out << "- `" << d.name << "` (" << d.code << "): " << d.applies << "\n";
  out << "\n";
  for (const auto& s : summaries) {
    out << "## " << s.dataset << "\n\n";
    figures(out, s, floors);
    refusals(out, s);
    differences(out, s);
    column_names(out, s);
    not_fixable(out, s);
  }
  return out.str();
}

}  // namespace fidelity
