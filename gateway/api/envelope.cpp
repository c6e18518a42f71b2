#include "gateway/api/envelope.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "common/random_hex.hpp"
#include "gateway/api/json_writer.hpp"

namespace qg::gateway {
namespace {

constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += kBase64[(v >> 18) & 63], out += kBase64[(v >> 12) & 63], out += kBase64[(v >> 6) & 63],
        out += kBase64[v & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kBase64[(v >> 18) & 63], out += kBase64[(v >> 12) & 63];
    out += i + 1 < in.size() ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Cuts text to at most `max` bytes at a UTF-8 character boundary and says how much was cut.
std::string cut_text(std::string_view s, std::size_t max) {
  std::size_t end = std::min(max, s.size());
  while (end > 0 && end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  std::string out(s.substr(0, end));
  out += "…[cut " + std::to_string(s.size() - end) + " bytes]";
  return out;
}

// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool json_number(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  const std::size_t first = i;
  const std::size_t integer = digits();
  if (integer == 0 || (integer > 1 && s[first] == '0')) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

struct CellWriter {
  JsonWriter& w;
  const config::Limits& limits;
  bool& cut_any;
  bool& blob_any;
  const std::string* spotlight = nullptr;  // set for untrusted columns when spotlighting
  int float_digits = 6;                    // the column's (config float_digits), else limits.float_digits
  bool non_finite = false;                 // the last cell written was an infinity or NaN
  bool rounded = false;                    // the last cell written was a float printed to fewer digits
  void operator()(std::monostate) { w.null(); }
  void operator()(std::int64_t v) { w.integer(v); }
  void operator()(bool v) { w.boolean(v); }
  void operator()(double v) {
    if (std::isfinite(v)) {
      w.number(v, float_digits, &rounded);
      return;
    }
    // JSON has no number for these: PostgreSQL's own spellings, on every backend.
    non_finite = true;
    w.string(std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
  }
  // A PostgreSQL numeric: its own digits, as a JSON number (no float rounding).
  void operator()(const exec::Decimal& d) {
    if (!json_number(d.digits) || d.digits.size() > static_cast<std::size_t>(limits.max_cell_bytes)) {
      (*this)(d.digits);  // as text, cut like text
      return;
    }
    w.raw(d.digits);
  }
  void operator()(const std::string& s) {
    std::string text = s;
    if (text.size() > static_cast<std::size_t>(limits.max_cell_bytes)) {
      cut_any = true;
      text = cut_text(text, limits.max_cell_bytes);
    }
    if (spotlight && !text.empty())
      text = "<<untrusted:" + *spotlight + ">>" + text + "<</untrusted:" + *spotlight + ">>";
    w.string(text);
  }
  // A PostgreSQL array: a JSON array of its elements, each written as a cell of its own (spotlighted and cut
  // like one).
  void operator()(const exec::Array& a) {
    w.begin_array();
    for (const auto& item : a.items) std::visit(*this, item);
    w.end_array();
  }
  void operator()(const exec::Blob& b) {
    blob_any = true;
    std::string encoded = base64(b.bytes);
    if (encoded.size() > static_cast<std::size_t>(limits.max_cell_bytes)) {
      cut_any = true;
      encoded = cut_text(encoded, limits.max_cell_bytes);
    }
    // Bytes in a flagged column can hold untrusted text too: wrapped like text.
    if (spotlight && !encoded.empty())
      encoded = "<<untrusted:" + *spotlight + ">>" + encoded + "<</untrusted:" + *spotlight + ">>";
    w.string(encoded);
  }
};

// The cell holds non-empty text or bytes (an array: in any element), which an untrusted column's row reports.
bool holds_text(const exec::Value& v) {
  if (const auto* text = std::get_if<std::string>(&v)) return !text->empty();
  if (const auto* blob = std::get_if<exec::Blob>(&v)) return !blob->bytes.empty();
  if (const auto* array = std::get_if<exec::Array>(&v))
    return std::any_of(array->items.begin(), array->items.end(), holds_text);
  return false;
}

// The planner's row estimate, when it may be shown: never for a statement that reads a table through a row
// filter, because PostgreSQL estimates from statistics over the whole table, filtered-out rows included (an
// estimate for `project_id = 1 OR project_id = 6` would tell how many rows the hidden project has).
std::optional<double> shown_estimate(const EnvelopeInput& in) {
  if (!in.rows || !in.rows->estimated_rows) return std::nullopt;
  for (const auto& r : in.statement->rewrites)
    if (r.starts_with("row-filter:")) return std::nullopt;
  return in.rows->estimated_rows;
}

// "Returned 100 rows; more exist." plus how to narrow, summarise and page,
// with the main table's real time column and key when the catalog knows them.
std::string truncation_notice(const EnvelopeInput& in, std::size_t written) {
  const auto& admission = in.statement->admission;
  std::string time_column, key_column;
  if (in.catalog && !admission.main_table.empty())
    if (const auto* table = in.catalog->find_table(admission.main_table)) {
      for (const auto& c : table->columns) {
        if (!catalog::visible(*table, c, in.hidden, in.catalog->dialect)) continue;
        if (time_column.empty() && c.timestamp) time_column = admission.main_table_alias + "." + c.name;
        if (key_column.empty() && c.primary_key) key_column = admission.main_table_alias + "." + c.name;
      }
    }
  std::string note = "Returned " + std::to_string(written) + " rows; more exist";
  if (const auto estimate = shown_estimate(in); estimate && *estimate > static_cast<double>(written))
    note += " (about " + std::to_string(static_cast<long long>(*estimate)) + " by the planner's estimate)";
  note += ". To narrow: ";
  note += time_column.empty() ? "add a WHERE filter" : "filter on " + time_column + " (a time range)";
  note += "; to summarise: GROUP BY with count/sum/avg; to page: ORDER BY ";
  note += key_column.empty() ? "a key" : key_column;
  note += " and filter past the last value; or ask for up to " + std::to_string(in.limits->max_rows) +
          " rows with \"limit\".";
  return note;
}

}  // namespace

std::string new_spotlight_marker() {
  // The OS's entropy, so injected text cannot predict the marker; one syscall
  // rather than a std::random_device per response.
  return random_hex(8);
}

std::string build_envelope(const EnvelopeInput& in) {
  const auto& st = *in.statement;
  const auto& limits = *in.limits;
  const auto& rows = *in.rows;
  JsonWriter w;
  w.begin_object();
  // The engine's columns are the admitted statement's outputs, in order (it was printed from that tree).
  // A column admission did not describe is untrusted (fail closed).
  std::vector<bool> untrusted(rows.columns.size(), true);
  for (std::size_t i = 0; i < untrusted.size() && i < st.admission.columns.size(); ++i)
    untrusted[i] = st.admission.columns[i].untrusted;
  w.key("columns").begin_array();
  for (std::size_t i = 0; i < rows.columns.size(); ++i) {
    w.begin_object().key("name").string(rows.columns[i].name);
    if (!rows.columns[i].type.empty()) w.key("type").string(rows.columns[i].type);
    if (untrusted[i]) w.key("untrusted").boolean(true);
    w.end_object();
  }
  w.end_array();
  if (in.validated) w.key("validated").boolean(true);

  // Rows: the limit+1 probe row means "more existed"; the byte cap may stop earlier.
  std::size_t available = in.validated ? 0 : rows.rows.size();
  bool truncated = false;
  std::string truncated_by;
  if (st.limit.detect_truncation && available > static_cast<std::size_t>(st.limit.row_cap)) {
    available = static_cast<std::size_t>(st.limit.row_cap);
    truncated = true;
    truncated_by = "rows";
  }
  bool cut_any = false;
  bool blob_any = false;
  std::size_t written = 0;
  std::vector<std::size_t> untrusted_rows;      // rows where a flagged column holds non-empty text
  std::vector<std::size_t> non_finite_columns;  // columns where a float was an infinity or NaN
  std::vector<std::size_t> rounded_columns;     // columns where a float was printed to float_digits
  if (!in.validated) w.key("rows").begin_array();
  const std::size_t budget = static_cast<std::size_t>(limits.max_response_bytes);
  for (std::size_t r = 0; r < available; ++r) {
    const std::size_t before = w.size();
    JsonWriter row;
    row.begin_array();
    CellWriter cell{row, limits, cut_any, blob_any};
    for (std::size_t c = 0; c < rows.rows[r].size(); ++c) {
      const bool wrap = !in.spotlight_marker.empty() && c < untrusted.size() && untrusted[c];
      cell.spotlight = wrap ? &in.spotlight_marker : nullptr;
      cell.float_digits = c < st.admission.columns.size() && st.admission.columns[c].float_digits >= 0
                              ? st.admission.columns[c].float_digits
                              : limits.float_digits;
      cell.non_finite = false;
      cell.rounded = false;
      std::visit(cell, rows.rows[r][c]);
      if (cell.rounded && c < rows.columns.size() &&
          std::find(rounded_columns.begin(), rounded_columns.end(), c) == rounded_columns.end())
        rounded_columns.push_back(c);
      if (cell.non_finite && c < rows.columns.size() &&
          std::find(non_finite_columns.begin(), non_finite_columns.end(), c) == non_finite_columns.end())
        non_finite_columns.push_back(c);
    }
    row.end_array();
    if (before + row.size() + 512 > budget) {  // keep room for the trailer
      truncated = true;
      truncated_by = "bytes";
      break;
    }
    w.raw(row.text());
    for (std::size_t c = 0; c < rows.rows[r].size() && c < untrusted.size(); ++c) {
      if (untrusted[c] && holds_text(rows.rows[r][c])) {
        untrusted_rows.push_back(written);
        break;
      }
    }
    ++written;
  }
  if (!in.validated) {
    w.end_array();
    w.key("row_count").integer(static_cast<std::int64_t>(written));
  }
  if (truncated) w.key("truncated").boolean(true);
  if (const auto estimate = shown_estimate(in); truncated && estimate)
    w.key("estimated_rows").integer(static_cast<std::int64_t>(*estimate));
  if (!untrusted_rows.empty()) {
    w.key("untrusted_rows").begin_array();
    for (auto i : untrusted_rows) w.integer(static_cast<std::int64_t>(i));
    w.end_array();
  }

  // An injected LIMIT that did not bind changed nothing the caller can see, so
  // it costs no bytes; one that cut rows (or lowered the caller's) is reported.
  const bool limit_mattered = st.limit.clamped || (st.limit.injected && truncated_by == "rows");
  std::vector<std::string> rewrites;
  for (const auto& r : st.rewrites)
    if (r != "limit-injection" || limit_mattered) rewrites.push_back(r);
  const bool only_silent_limit = rewrites.empty() && st.limit.injected && !limit_mattered;
  const bool show_sql = st.shown_sql != in.caller_sql && !only_silent_limit;
  if (limit_mattered || !rewrites.empty() || show_sql) {
    w.key("applied").begin_object();
    if (limit_mattered) w.key("limit").integer(st.limit.row_cap);
    if (!rewrites.empty()) {
      w.key("rewrites").begin_array();
      for (const auto& r : rewrites) w.string(r);
      w.end_array();
    }
    if (show_sql) w.key("sql").string(st.shown_sql);
    w.end_object();
  }

  std::vector<std::string> notes = st.admission.notes;
  notes.insert(notes.end(), in.run_notes.begin(), in.run_notes.end());
  notes.insert(notes.end(), rows.notes.begin(), rows.notes.end());
  for (auto c : non_finite_columns)
    notes.push_back("Column " + rows.columns[c].name +
                    " holds floats with no JSON number (an overflow past the double range, or PostgreSQL's "
                    "Infinity/NaN): sent as the strings \"Infinity\", \"-Infinity\" or \"NaN\".");
  if (truncated_by == "rows") notes.push_back(truncation_notice(in, written));
  if (truncated_by == "bytes")
    notes.push_back("Returned " + std::to_string(written) + " rows: the response reached its " +
                    std::to_string(limits.max_response_bytes) +
                    "-byte cap. Select fewer or shorter columns (substr(col, 1, 200)), or aggregate.");
  if (st.limit.clamped)
    notes.push_back("Your LIMIT " + std::to_string(*st.limit.caller_limit) + " was lowered to " +
                    std::to_string(st.limit.row_cap) + ".");
  if (cut_any)
    notes.push_back("Text longer than " + std::to_string(limits.max_cell_bytes) +
                    " bytes was cut where marked; select substr(col, start, length) to read a part.");
  if (blob_any) notes.push_back("Binary values are base64-encoded.");
  // Floats printed to fewer digits than they hold: said, so that nobody reads a rounded sum as exact (outside testers
  // s20a, s20c). Its column's name, its digits, and the cast that prints every digit.
  for (std::size_t c : rounded_columns) {
    const int digits = c < st.admission.columns.size() && st.admission.columns[c].float_digits >= 0
                           ? st.admission.columns[c].float_digits
                           : limits.float_digits;
    notes.push_back("Column " + rows.columns[c].name + ": floats printed to " + std::to_string(digits) +
                    " significant digits; CAST(... AS numeric) prints every digit.");
  }
  if (!notes.empty()) {
    w.key("notes").begin_array();
    for (const auto& n : notes) w.string(n);
    w.end_array();
  }
  w.end_object();
  if (in.facts) *in.facts = EnvelopeFacts{written, truncated_by, cut_any, untrusted_rows.size()};
  std::string out = w.take();
  out.push_back('\n');
  return out;
}

}  // namespace qg::gateway
