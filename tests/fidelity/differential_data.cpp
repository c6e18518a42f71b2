// The differential property's dataset (differential.hpp): three small tables,
// each row's values drawn by the seed from lists of the values that break
// translations (edges first, so every seed meets most of them).
#include <array>
#include <random>

#include "differential.hpp"

namespace fidelity {
namespace {

const std::vector<std::string> kInts = {"0",
                                        "1",
                                        "-1",
                                        "2",
                                        "-7",
                                        "42",
                                        "3",
                                        "NULL",
                                        "NULL",
                                        "9007199254740993",
                                        "-9007199254740992",
                                        "9007199254740992",
                                        "100",
                                        "-100"};
// Near 2^63: arithmetic on these overflows bigint (PostgreSQL's error).
const std::vector<std::string> kBigs = {"9223372036854775807",
                                        "-9223372036854775808",
                                        "4611686018427387904",
                                        "-4611686018427387904",
                                        "1",
                                        "-1",
                                        "0",
                                        "NULL"};
const std::vector<std::string> kFloats = {"2.5",    "-0.5",  "0.5",       "1.5",  "-2.5",
                                          "1e-300", "1e300", "0",         "NULL", "3.141592653589793",
                                          "-1e15",  "0.1",   "1234.5678", "-3.5", "NULL"};
const std::vector<std::string> kNumerics = {"1.250", "-0.500", "2.500",  "0.001", "123456789.123", "NULL",
                                            "0",     "-3.500", "10.005", "0.125", "-2.675"};
const std::vector<std::string> kTexts = {"''",         "NULL",    "'é'",   "'Été'",        "'😀'",     "'42'",  "'007'",
                                         "' padded '", "'a%b'",   "'a_b'", "'MiXeD'",      "'mixed'", "'abc'", "'ABC'",
                                         "'3.5'",      "'x y z'", "'-1'",  "'2024-02-29'", "'NULL'"};
const std::vector<std::string> kCodes = {"'a'", "'b'", "'A'", "'B'", "''", "NULL", "'ab'", "'é'"};
const std::vector<std::string> kBools = {"true", "false", "NULL"};
const std::vector<std::string> kJsons = {
    R"('{"a": 1, "b": {"c": "x"}, "d.e": true}')",
    R"('{"a": null}')",
    R"('{"a": "1", "arr": [1, 2, 3]}')",
    R"('[1, "two", null]')",
    R"('{"a": 2.5, "b": {"c": null}}')",
    R"('{}')",
    "NULL",
    R"('{"a": true, "n": -0.5, "b": {"c": 7}}')",
    R"('"str"')",
    R"('1')",
    R"('{"a": "é😀", "A": 3}')",
    R"('{"a": 12345678901234567890}')",
};
const std::vector<std::string> kTimestamps = {
    "'2024-02-29 12:00:00+00'",  // leap day
    "'2024-03-10 07:00:00+00'",  // 02:00 in New York: DST starts
    "'2024-03-31 01:00:00+00'",  // 02:00 in Berlin: DST starts
    "'2024-11-03 06:00:00+00'",  // 01:00 EST again: DST ends in New York
    "'2023-12-31 23:59:59+00'",   "'1969-12-31 23:59:59+00'", "'1900-01-01 00:00:00+00'",
    "'2024-01-31 00:00:00+00'",   "'2000-02-29 00:00:00+00'", "NULL",
    "'2024-06-15 08:30:00.5+00'", "'2024-04-30 23:00:00+00'", "'2025-01-01 00:00:00+00'"};
const std::vector<std::string> kDates = {"'2024-02-29'", "'2024-01-31'", "'1969-12-31'", "'2023-12-31'", "'2000-02-29'",
                                         "NULL",         "'2024-03-10'", "'1900-03-01'", "'2024-12-31'"};

struct Draw {
  std::mt19937_64 rng;
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(rng() % n); }
  // Every list's values in turn for the first rows (edges first), then at random.
  const std::string& from(const std::vector<std::string>& list, std::size_t row) {
    return row < list.size() && below(3) != 0 ? list[row] : list[below(list.size())];
  }
};

}  // namespace

std::vector<DiffTable> differential_dataset(std::uint64_t seed) {
  Draw d{std::mt19937_64(seed * 0x9E3779B97F4A7C15ULL + 12345)};
  std::vector<DiffTable> tables;
  const std::vector<std::string> keys = {"1", "2", "3", "NULL", "1", "2"};

  DiffTable nums{"nums",
                 {{"id", DiffType::Int, "bigint PRIMARY KEY"},
                  {"k", DiffType::Int, "bigint"},
                  {"i", DiffType::Int, "bigint"},
                  {"big", DiffType::Int, "bigint"},
                  {"f", DiffType::Float, "double precision"},
                  {"amount", DiffType::Numeric, "numeric(12,3)"},
                  {"b", DiffType::Bool, "boolean"}},
                 {}};
  DiffTable words{"words",
                  {{"id", DiffType::Int, "bigint PRIMARY KEY"},
                   {"k", DiffType::Int, "bigint"},
                   {"s", DiffType::Text, "text"},
                   {"code", DiffType::Text, "text"},
                   {"j", DiffType::Json, "jsonb"}},
                  {}};
  DiffTable events{"events",
                   {{"id", DiffType::Int, "bigint PRIMARY KEY"},
                    {"k", DiffType::Int, "bigint"},
                    {"ts", DiffType::Timestamptz, "timestamptz"},
                    {"d", DiffType::Date, "date"},
                    {"ok", DiffType::Bool, "boolean"}},
                   {}};
  const std::size_t rows = 12 + d.below(6);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::string id = std::to_string(r + 1);
    const std::string& k = keys[(r + d.below(2)) % keys.size()];
    nums.rows.push_back(
        {id, k, d.from(kInts, r), d.from(kBigs, r), d.from(kFloats, r), d.from(kNumerics, r), d.from(kBools, r)});
    words.rows.push_back(
        {id, keys[(r + 1 + d.below(2)) % keys.size()], d.from(kTexts, r), d.from(kCodes, r), d.from(kJsons, r)});
    events.rows.push_back(
        {id, keys[(r + 2 + d.below(2)) % keys.size()], d.from(kTimestamps, r), d.from(kDates, r), d.from(kBools, r)});
  }
  tables.push_back(std::move(nums));
  tables.push_back(std::move(words));
  tables.push_back(std::move(events));
  return tables;
}

std::string differential_dataset_sql(const std::vector<DiffTable>& tables) {
  std::string sql;
  for (const auto& t : tables) {
    sql += "CREATE TABLE " + t.name + " (";
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      sql += (c ? ", " : "") + t.columns[c].name + " " + t.columns[c].pg_type;
    sql += ");\n";
    for (const auto& row : t.rows) {
      sql += "INSERT INTO " + t.name + " VALUES (";
      for (std::size_t c = 0; c < row.size(); ++c) sql += (c ? ", " : "") + row[c];
      sql += ");\n";
    }
  }
  return sql;
}

}  // namespace fidelity
