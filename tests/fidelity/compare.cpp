#include "compare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fidelity {
namespace {

using qg::exec::Blob;
using qg::exec::Value;
using Row = std::vector<Value>;

constexpr double kRelativeTolerance = 1e-9;

// Storage-class rank for a total order: NULL < numbers < text < blob (SQLite's
// own order), then PostgreSQL's booleans.
int rank(const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return 0;
  if (std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v) ||
      std::holds_alternative<qg::exec::Decimal>(v))
    return 1;
  if (std::holds_alternative<std::string>(v)) return 2;
  if (std::holds_alternative<Blob>(v)) return 3;
  if (std::holds_alternative<bool>(v)) return 4;
  return 5;  // an array
}

double as_double(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<qg::exec::Decimal>(&v)) return std::strtod(d->digits.c_str(), nullptr);
  return std::get<double>(v);
}

// Orders rows so that a multiset comparison becomes a pairwise one. Numbers
// order by value, so an integer and an equal float sort together.
bool value_less(const Value& a, const Value& b) {
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  switch (rank(a)) {
    case 1: {
      const auto* ia = std::get_if<std::int64_t>(&a);
      const auto* ib = std::get_if<std::int64_t>(&b);
      if (ia && ib) return *ia < *ib;
      return as_double(a) < as_double(b);
    }
    case 2:
      return std::get<std::string>(a) < std::get<std::string>(b);
    case 3:
      return std::get<Blob>(a).bytes < std::get<Blob>(b).bytes;
    case 4:
      return std::get<bool>(a) < std::get<bool>(b);
    case 5: {
      const auto& x = std::get<qg::exec::Array>(a).items;
      const auto& y = std::get<qg::exec::Array>(b).items;
      return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), value_less);
    }
    default:
      return false;
  }
}

bool row_less(const Row& a, const Row& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), value_less);
}

bool rows_equal(const Row& a, const Row& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), values_equal);
}

std::string format_value(const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return buf;
  }
  if (const auto* n = std::get_if<qg::exec::Decimal>(&v)) return n->digits;
  if (const auto* s = std::get_if<std::string>(&v)) {
    std::string shown = s->size() > 60 ? s->substr(0, 60) + "..." : *s;
    return "'" + shown + "'";
  }
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* a = std::get_if<qg::exec::Array>(&v)) {
    std::string out;
    for (const auto& item : a->items) out += (out.empty() ? "" : ",") + format_value(item);
    return "[" + out + "]";
  }
  return "x'<" + std::to_string(std::get<Blob>(v).bytes.size()) + " bytes>'";
}

std::string first_difference(const std::vector<Row>& g, const std::vector<Row>& d, const char* how) {
  for (std::size_t i = 0; i < std::min(g.size(), d.size()); ++i)
    if (!rows_equal(g[i], d[i]))
      return std::string(how) + " row " + std::to_string(i + 1) + ": gateway " + format_row(g[i]) + " vs direct " +
             format_row(d[i]);
  return "";
}

}  // namespace

bool values_equal(const Value& a, const Value& b) {
  if (rank(a) != rank(b)) return false;
  if (rank(a) == 1) {
    const auto* ia = std::get_if<std::int64_t>(&a);
    const auto* ib = std::get_if<std::int64_t>(&b);
    if (ia && ib) return *ia == *ib;
    const double x = as_double(a), y = as_double(b);
    if (x == y) return true;  // also equal infinities
    return std::fabs(x - y) <= kRelativeTolerance * std::max(std::fabs(x), std::fabs(y));
  }
  if (rank(a) == 5) {
    const auto& x = std::get<qg::exec::Array>(a).items;
    const auto& y = std::get<qg::exec::Array>(b).items;
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), values_equal);
  }
  return a == b;
}

std::string format_row(const Row& row) {
  std::string out;
  for (const auto& v : row) out += (out.empty() ? "" : " | ") + format_value(v);
  return "(" + out + ")";
}

NameMatch compare_column_names(const qg::exec::Rows& gateway, const qg::exec::Rows& direct) {
  if (gateway.columns.size() != direct.columns.size()) return NameMatch::Different;
  NameMatch out = NameMatch::Exact;
  for (std::size_t i = 0; i < gateway.columns.size(); ++i) {
    const auto& a = gateway.columns[i].name;
    const auto& b = direct.columns[i].name;
    if (a == b) continue;
    const bool nocase =
        a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
        });
    if (!nocase) return NameMatch::Different;
    out = NameMatch::IgnoringCase;
  }
  return out;
}

Comparison compare_rows(const qg::exec::Rows& gateway, const qg::exec::Rows& direct, bool ordered) {
  if (gateway.columns.size() != direct.columns.size())
    return {false, "column count: gateway " + std::to_string(gateway.columns.size()) + " vs direct " +
                       std::to_string(direct.columns.size())};
  if (gateway.rows.size() != direct.rows.size())
    return {false, "row count: gateway " + std::to_string(gateway.rows.size()) + " vs direct " +
                       std::to_string(direct.rows.size())};
  if (ordered) {
    const auto why = first_difference(gateway.rows, direct.rows, "ordered");
    return {why.empty(), why};
  }
  auto g = gateway.rows;
  auto d = direct.rows;
  std::sort(g.begin(), g.end(), row_less);
  std::sort(d.begin(), d.end(), row_less);
  const auto why = first_difference(g, d, "sorted");
  return {why.empty(), why};
}

Comparison compare_rows_by_keys(const qg::exec::Rows& gateway, const qg::exec::Rows& direct,
                                const std::vector<std::size_t>& keys, bool limited) {
  if (gateway.columns.size() != direct.columns.size())
    return {false, "column count: gateway " + std::to_string(gateway.columns.size()) + " vs direct " +
                       std::to_string(direct.columns.size())};
  if (gateway.rows.size() != direct.rows.size())
    return {false, "row count: gateway " + std::to_string(gateway.rows.size()) + " vs direct " +
                       std::to_string(direct.rows.size())};
  for (auto k : keys)
    if (k >= direct.columns.size()) return {false, "ORDER BY key column " + std::to_string(k) + " does not exist"};
  auto same_keys = [&](const Row& a, const Row& b) {
    return std::all_of(keys.begin(), keys.end(), [&](std::size_t k) { return values_equal(a[k], b[k]); });
  };
  const auto& g = gateway.rows;
  const auto& d = direct.rows;
  for (std::size_t i = 0; i < d.size(); ++i)
    if (!same_keys(g[i], d[i]))
      return {false, "ordered row " + std::to_string(i + 1) + " has other ORDER BY keys: gateway " + format_row(g[i]) +
                         " vs direct " + format_row(d[i])};
  // Each run of tied keys: the same rows in any order, except a last run cut by LIMIT.
  for (std::size_t begin = 0; begin < d.size();) {
    std::size_t end = begin + 1;
    while (end < d.size() && same_keys(d[end], d[begin])) ++end;
    if (!(limited && end == d.size())) {
      std::vector<Row> a(g.begin() + static_cast<std::ptrdiff_t>(begin), g.begin() + static_cast<std::ptrdiff_t>(end));
      std::vector<Row> b(d.begin() + static_cast<std::ptrdiff_t>(begin), d.begin() + static_cast<std::ptrdiff_t>(end));
      std::sort(a.begin(), a.end(), row_less);
      std::sort(b.begin(), b.end(), row_less);
      if (const auto why = first_difference(a, b, "tied"); !why.empty())
        return {false, why + " (rows " + std::to_string(begin + 1) + "-" + std::to_string(end) + " tie)"};
    }
    begin = end;
  }
  return {true, ""};
}

}  // namespace fidelity
