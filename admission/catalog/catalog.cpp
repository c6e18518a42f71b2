#include "admission/catalog/catalog.hpp"

#include "common/edit_distance.hpp"

#include <algorithm>
#include <cctype>

namespace qg::catalog {

bool Catalog::same_name(std::string_view a, std::string_view b, Dialect dialect) {
  if (dialect == Dialect::Postgres) return a == b;
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

const Column* Table::find_column(std::string_view n, Dialect dialect) const {
  for (const auto& c : columns)
    if (Catalog::same_name(c.name, n, dialect)) return &c;
  return nullptr;
}

const VirtualColumn* Table::find_virtual(std::string_view n, Dialect dialect) const {
  for (const auto& c : virtual_columns)
    if (Catalog::same_name(c.name, n, dialect)) return &c;
  return nullptr;
}

const Table* Catalog::find_table(std::string_view n) const {
  for (const auto& t : tables)
    if (same_name(t.name, n, dialect)) return &t;
  return nullptr;
}

bool hidden_by_key(const config::HiddenColumns* key, std::string_view table, std::string_view column, Dialect dialect) {
  if (!key) return false;
  for (const auto& [t, columns] : key->tables)
    if (Catalog::same_name(t, table, dialect))
      for (const auto& c : columns)
        if (Catalog::same_name(c, column, dialect)) return true;
  return false;
}

bool visible(const Table& table, const Column& column, const config::HiddenColumns* key, Dialect dialect) {
  return !column.hidden && !hidden_by_key(key, table.name, column.name, dialect);
}

bool visible(const Table& table, const VirtualColumn& column, const config::HiddenColumns* key, Dialect dialect) {
  return !hidden_by_key(key, table.name, column.name, dialect);
}

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::vector<std::string> closest_names(std::string_view wanted, const std::vector<std::string>& candidates,
                                       std::size_t max) {
  const std::string w = lower(wanted);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    std::size_t d = edit_distance(w, lc);
    // A containment match ("cost" in "cost_usd") is a strong hint even when far in edits.
    if (!w.empty() && (lc.find(w) != std::string::npos || w.find(lc) != std::string::npos))
      d = std::min<std::size_t>(d, 1);
    const std::size_t budget = std::max<std::size_t>(2, std::max(w.size(), lc.size()) / 3);
    if (d <= budget) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, c] : scored) {
    if (out.size() == max) break;
    out.push_back(c);
  }
  return out;
}

std::vector<std::string> closest_spellings(std::string_view wanted, const std::vector<std::string>& candidates,
                                           std::size_t max) {
  const std::string w = lower(wanted);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(w, lower(c));
    if (d <= 2 && d < w.size() / 2 + 1) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, c] : scored) {
    if (out.size() == max) break;
    out.push_back(c);
  }
  return out;
}

}  // namespace qg::catalog
