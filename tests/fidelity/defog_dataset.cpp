#include "defog_dataset.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace fidelity {
namespace {

qg::Error data_error(const std::string& what) {
  return qg::make_error(qg::ErrorCode::ConfigInvalid, what,
                        "FIX: check that ../shared/data/defog sits beside the clone, as SOURCE.md describes");
}

// Python's str.strip(): the notation's alternatives and items are trimmed so.
std::string trim(std::string_view s) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (;;) {
    const auto at = text.find(sep, begin);
    out.emplace_back(text.substr(begin, at == std::string_view::npos ? std::string_view::npos : at - begin));
    if (at == std::string_view::npos) return out;
    begin = at + 1;
  }
}

// Every non-empty subset of n items as index lists, in itertools.combinations
// order: all of size 1 in order, then size 2 lexicographically, and so on.
std::vector<std::vector<std::size_t>> subsets(std::size_t n) {
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t r = 1; r <= n; ++r) {
    std::vector<std::size_t> pick(r);
    for (std::size_t i = 0; i < r; ++i) pick[i] = i;
    for (;;) {
      out.push_back(pick);
      // The rightmost index that can still move right, then reset the ones after it.
      std::size_t i = r;
      while (i > 0 && pick[i - 1] == n - r + (i - 1)) --i;
      if (i == 0) break;
      ++pick[i - 1];
      for (std::size_t j = i; j < r; ++j) pick[j] = pick[j - 1] + 1;
    }
  }
  return out;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

qg::Result<std::string> read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return data_error("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

qg::Result<std::vector<std::vector<std::string>>> parse_csv(std::string_view text) {
  // The state machine of CPython's _csv.c (excel dialect, strict=False): the
  // 487 statements it gives match csv.DictReader's reading of the files exactly.
  enum class State { StartRecord, StartField, InField, InQuoted, QuoteInQuoted };
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  State state = State::StartRecord;
  int line = 1, quote_line = 1;  // for the error message only
  const auto save_field = [&] {
    record.push_back(std::move(field));
    field.clear();
  };
  const auto end_record = [&] {
    save_field();
    records.push_back(std::move(record));
    record.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool newline = c == '\n' || c == '\r';
    // \r\n ends a record once; a lone \r ends it too, as in Python.
    const auto eat_crlf = [&] {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
    };
    switch (state) {
      case State::StartRecord:
        if (newline) {  // a blank line: no record, as Python's reader yields [] and DictReader skips it
          eat_crlf();
          break;
        }
        [[fallthrough]];
      case State::StartField:
        if (c == '"') {
          state = State::InQuoted;
          quote_line = line;
        } else if (c == ',') {
          save_field();
          state = State::StartField;
        } else if (newline) {
          end_record();
          eat_crlf();
          state = State::StartRecord;
        } else {
          field += c;
          state = State::InField;
        }
        break;
      case State::InField:
        if (c == ',') {
          save_field();
          state = State::StartField;
        } else if (newline) {
          end_record();
          eat_crlf();
          state = State::StartRecord;
        } else {
          field += c;
        }
        break;
      case State::InQuoted:
        if (c == '"') {
          state = State::QuoteInQuoted;
        } else {
          if (c == '\n') ++line;
          field += c;  // commas and line breaks (\r\n kept) are data here
        }
        break;
      case State::QuoteInQuoted:
        if (c == '"') {  // "" is one quote
          field += '"';
          state = State::InQuoted;
        } else if (c == ',') {
          save_field();
          state = State::StartField;
        } else if (newline) {
          end_record();
          eat_crlf();
          state = State::StartRecord;
        } else {
          // A lone quote inside a quoted field ("to be "in inventory" if"):
          // Python (strict=False) drops it and reads on as an unquoted field.
          // questions_gen_postgres.csv has one such question text.
          field += c;
          state = State::InField;
        }
        break;
    }
  }
  if (state == State::InQuoted)
    return data_error("CSV: a quote opened on line " + std::to_string(quote_line) + " never closes");
  if (state != State::StartRecord) end_record();  // the last record had no line break
  return records;
}

std::vector<std::string> expand_gold_notation(std::string_view query) {
  std::vector<std::string> out;
  for (const auto& part : split(query, ';')) {
    const std::string alternative = trim(part);
    if (alternative.empty()) continue;
    const auto open = alternative.find('{');
    const auto close = open == std::string::npos ? std::string::npos : alternative.find('}', open + 1);
    if (close == std::string::npos) {
      out.push_back(alternative);
      continue;
    }
    std::vector<std::string> items;
    for (const auto& item : split(std::string_view(alternative).substr(open + 1, close - open - 1), ','))
      items.push_back(trim(item));
    const std::string left = alternative.substr(0, open);
    const std::string right = alternative.substr(close + 1);
    for (const auto& pick : subsets(items.size())) {
      std::string columns;
      for (const auto k : pick) columns += (columns.empty() ? "" : ", ") + items[k];
      out.push_back(left + columns + replace_all(right, "{}", columns));
    }
  }
  return out;
}

qg::Result<Dataset> load_defog(const std::filesystem::path& dir, const std::string& conninfo) {
  // The order sql-eval's README lists them; the index runs across all three.
  static constexpr std::string_view kFiles[] = {"questions_gen_postgres.csv", "instruct_basic_postgres.csv",
                                                "instruct_advanced_postgres.csv"};
  Dataset out{"defog", {}};
  for (const auto file : kFiles) {
    auto text = read_file(dir / file);
    if (!text) return std::move(text).error();
    auto records = parse_csv(*text);
    if (!records) return data_error(std::string(file) + ": " + records.error().message);
    if (records->empty()) return data_error(std::string(file) + " is empty");
    // Columns by header name: the files order them differently.
    std::map<std::string, std::size_t> column;
    for (std::size_t k = 0; k < records->front().size(); ++k) column[records->front()[k]] = k;
    for (const char* name : {"query", "db_name", "query_category"})
      if (!column.contains(name)) return data_error(std::string(file) + ": no column " + name);
    const std::string stem = std::filesystem::path(file).stem().string();
    for (std::size_t row = 1; row < records->size(); ++row) {
      const auto& rec = (*records)[row];
      if (rec.size() != records->front().size())
        return data_error(std::string(file) + ": record " + std::to_string(row) + " has " + std::to_string(rec.size()) +
                          " fields, the header " + std::to_string(records->front().size()));
      const std::string& db = rec[column["db_name"]];
      const auto variants = expand_gold_notation(rec[column["query"]]);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        GoldQuery q;
        q.index = static_cast<int>(out.queries.size()) + 1;
        q.db_id = db;
        q.sql = variants[v];
        q.pg_dsn = conninfo + " dbname=defog_" + db;
        q.note = stem + " row " + std::to_string(row) + " (" + rec[column["query_category"]] + "), variant " +
                 std::to_string(v + 1) + "/" + std::to_string(variants.size());
        out.queries.push_back(std::move(q));
      }
    }
  }
  return out;
}

}  // namespace fidelity
