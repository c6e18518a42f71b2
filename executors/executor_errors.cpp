#include "executors/executor_errors.hpp"

#include <array>

#include "admission/catalog/catalog.hpp"

namespace qg::exec {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

// What engine messages write between two quoted values ("invalid value "x" for
// "MM"", "column "c" of relation "t""). Anything else between two quotes is
// not known to be the engine's.
constexpr std::array<std::string_view, 7> kConnectives = {"",          " ",    ", ", " for ", " of relation ",
                                                          " of type ", " and "};

bool is_connective(std::string_view gap) {
  for (const auto c : kConnectives)
    if (gap == c) return true;
  return false;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// `name` occurs in `lower_sql` as a whole word.
bool word_in(std::string_view name, std::string_view lower_sql) {
  for (auto at = lower_sql.find(name); at != std::string_view::npos; at = lower_sql.find(name, at + 1)) {
    const bool starts = at == 0 || !identifier_char(lower_sql[at - 1]);
    const bool ends = at + name.size() == lower_sql.size() || !identifier_char(lower_sql[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// PostgreSQL names a column with its table ("spans.id") where the statement
// wrote them apart: every part a whole word of the statement. No spaces, so no
// sentence can pass this way.
bool qualified_name_in(std::string_view name, std::string_view lower_sql) {
  if (name.empty()) return false;
  const std::string lower = ascii_lower(name);
  std::size_t from = 0;
  for (;;) {
    const std::size_t dot = lower.find('.', from);
    const std::string_view part = std::string_view(lower).substr(from, dot == std::string::npos ? dot : dot - from);
    if (part.empty()) return false;
    for (char c : part)
      if (!identifier_char(c)) return false;
    if (!word_in(part, lower_sql)) return false;
    if (dot == std::string::npos) return true;
    from = dot + 1;
  }
}

struct Fragment {
  std::size_t open = 0;   // the opening quote
  std::size_t close = 0;  // the closing quote; words.size() when none
  bool known = false;     // the statement wrote it
};

}  // namespace

const std::string kDataValueFix =
    "FIX: the value the engine could not use came from the data, not from the statement (it is withheld here as "
    "untrusted text): keep only the rows whose value suits the cast or function with a WHERE condition on that "
    "column, or pass a literal written in the statement instead of the column.";

EngineWords engine_words(std::string_view words, std::string_view sql) {
  // PostgreSQL folds some values it quotes (date_trunc's unit) to lower case.
  const std::string lower_sql = ascii_lower(sql);
  const auto written = [&](std::string_view v) {
    return sql.find(v) != std::string_view::npos || lower_sql.find(ascii_lower(v)) != std::string::npos ||
           qualified_name_in(v, lower_sql);
  };
  std::vector<Fragment> fragments;
  for (std::size_t i = 0; i < words.size();) {
    const char q = words[i];
    if (q != '"' && q != '\'') {
      ++i;
      continue;
    }
    std::string unescaped;
    std::size_t j = i + 1;
    for (; j < words.size(); ++j) {
      if (words[j] != q) {
        unescaped += words[j];
        continue;
      }
      if (q == '\'' && j + 1 < words.size() && words[j + 1] == '\'') {  // SQLite's %q doubles quotes
        unescaped += q;
        ++j;
        continue;
      }
      break;
    }
    Fragment f{i, j, false};
    if (j < words.size()) {
      const std::string_view raw = words.substr(i + 1, j - i - 1);
      f.known = written(raw) || written(unescaped);
    }
    fragments.push_back(f);
    i = j + 1;
  }
  // The first fragment in doubt: unknown or unpaired, or after a gap that is no connective.
  std::size_t doubt = fragments.size();
  for (std::size_t k = 0; k < fragments.size() && doubt == fragments.size(); ++k) {
    if (!fragments[k].known) doubt = k;
    if (k > 0) {
      const std::size_t from = fragments[k - 1].close + 1;
      if (!is_connective(words.substr(from, fragments[k].open - from))) doubt = k - 1;
    }
  }
  if (doubt == fragments.size()) return {std::string(words), false};
  // A value from the data lies between two quotes of the engine's, with any
  // quotes of its own: it ends at the last quote of the message at the latest.
  const std::size_t from = fragments[doubt].open;
  const std::size_t to = std::min(fragments.back().close + 1, words.size());
  return {std::string(words.substr(0, from)) + std::string(kWithheldValue) + std::string(words.substr(to)), true};
}

Error deadline_error() {
  return make_error(ErrorCode::LimitDeadline, "the statement ran past its deadline",
                    "FIX: narrow the time range with WHERE on a time column, aggregate with GROUP BY, "
                    "or ask for fewer rows with LIMIT");
}

Error cancelled_error() {
  return make_error(ErrorCode::RequestCancelled, "the statement was cancelled: nobody is waiting for its answer",
                    "FIX: keep the connection open until the answer arrives");
}

std::string name_suggestion(const std::string& wanted, const std::vector<std::string>& existing) {
  const auto close = catalog::closest_names(wanted, existing);
  if (!close.empty()) return "; did you mean " + quoted_list(close) + "?";
  if (existing.empty()) return "; it has none";
  if (existing.size() <= 12) return "; it has " + quoted_list(existing);
  return "";
}

// What to do about the engine errors agents meet most, by SQLSTATE. The
// engine's message is passed on as well; this says how to change the statement.
std::string fix_for_sqlstate(const std::string& state, const std::string& message) {
  if (state == "42883" && message.find("jsonb") != std::string::npos)
    return "FIX: a jsonb value is not text: read a key as text with col ->> 'key' (or col #>> '{a,b}'), or "
           "CAST(col AS text) to search the whole document with LIKE.";
  if (state == "42883" && message.find("round(double precision") != std::string::npos)
    return "FIX: round(x, digits) takes numeric on PostgreSQL: write round(CAST(x AS numeric), 2).";
  if (state == "42803")
    return "FIX: every selected column must be in GROUP BY or inside an aggregate: add it to GROUP BY, or write "
           "max(column) / min(column).";
  if (state == "42883")
    return "FIX: no function or operator takes these argument types: cast the arguments, e.g. round(CAST(x AS "
           "numeric), 2), CAST(t AS date), or compare text with text.";
  if (state == "42804" || state == "42846")
    return "FIX: the types do not match: CAST one side to the other's type (see the column types in GET "
           "/v1/schema).";
  if (state == "22012") return "FIX: guard the divisor: x / NULLIF(y, 0).";
  // A zone past 2037 whose rules changed lately (executors/sqlite/sqlite_time.cpp).
  if (state == "22023" && message.find("past 2037") != std::string::npos)
    return "FIX: read times after 2037 in UTC, e.g. t AT TIME ZONE 'UTC', or in a zone whose rules have held since "
           "2010 (most of Europe, the United States, Australia); this zone's local times past 2037 are not known on "
           "SQLite.";
  // jsonb_array_length / jsonb_array_elements / jsonb_object_keys ... of a value of another JSON type in some row.
  if (state == "22023" &&
      (message.find("scalar") != std::string::npos || message.find("non-array") != std::string::npos ||
       message.find("an array") != std::string::npos || message.find("non-object") != std::string::npos))
    return "FIX: the JSON value is not of the type the function takes in some rows: test its type first, e.g. CASE "
           "WHEN jsonb_typeof(x) = 'array' THEN jsonb_array_length(x) END, or WHERE jsonb_typeof(x) = 'object'.";
  // A SQLite json_extract() translated by its use (admission/admit/sqlite_spellings.cpp) met a JSON value
  // of another type: the translation names the JSON type as the value it could not read.
  if (state == "22P02")
    for (const char* json_type : {"\"number\"", "\"string\"", "\"boolean\"", "\"object\"", "\"array\""})
      if (message.find(std::string("type integer: ") + json_type) != std::string::npos)
        return "FIX: if the statement uses json_extract(), a value it read is a JSON " + std::string(json_type) +
               ", not the type the statement reads there (SQLite returns each JSON type as its own SQL type; "
               "PostgreSQL has one per column): write CAST(json_extract(x, '$.key') AS numeric) for numbers, or x "
               "->> 'key' for the text of any value.";
  // The engine quotes the value it could not read, unless it names the type
  // only (json): then the value may be a literal or come from a column.
  if ((state == "22P02" || state == "22007" || state == "22008") && message.find('"') == std::string::npos)
    return "FIX: the engine could not read a value as the type it meets. A literal: write numbers bare, times as "
           "ISO-8601 ('2026-11-01T10:00:00Z') and JSON as valid JSON text. A column: keep only the rows that read as "
           "that type with a WHERE condition on it, or compare the column as text without the CAST.";
  if (state == "22P02" || state == "22007" || state == "22008")
    return "FIX: a literal does not read as the type it meets: write numbers bare and times as ISO-8601 "
           "('2026-11-01T10:00:00Z').";
  if (state == "21000")
    return "FIX: the scalar subquery returned several rows: add a condition, aggregate, or LIMIT 1.";
  if (state == "42702") return "FIX: qualify the column with its table or alias (t.column).";
  // ORDER BY / GROUP BY n past the select list: PostgreSQL's 42P10, SQLite's "... BY term out of range" (22003 by
  // its words).
  if (state == "42P10" || (state == "22003" && message.find("BY term out of range") != std::string::npos))
    return "FIX: ORDER BY n and GROUP BY n name the n-th output column: use a position the select list has, or "
           "name the column.";
  if (state == "22003") {  // by what left its range (the one FIX for all misled: numeric(5, 2), acos(2), ORDER BY 3)
    const auto has = [&](std::string_view w) { return message.find(w) != std::string::npos; };
    if (has("numeric field overflow"))
      return "FIX: the value has more digits before the point than numeric(p, s) allows (p - s): raise p, e.g. "
             "CAST(x AS numeric(12, 2)), or leave the cast out.";
    if (has("input is out of range"))
      return "FIX: the argument is outside the function's domain (acos and asin take -1 to 1): keep it in range, "
             "e.g. acos(greatest(-1, least(1, x))).";
    if (has("value out of range: overflow") || has("value out of range: underflow"))
      return "FIX: a double precision result left its range (about 1e-307 to 1e308): compute in numeric, e.g. "
             "CAST(x AS numeric) * y, or scale the values.";
    if (has("bigint out of range"))
      return "FIX: the result overflowed bigint: CAST an operand to numeric before the arithmetic, e.g. CAST(x AS "
             "numeric) * y.";
    // SQLite's sum() past 2^63 (PostgreSQL's sum of bigint is a numeric and answers; outside tester s14b).
    if (has("integer overflow"))
      return "FIX: a sum passed bigint's range on SQLite (PostgreSQL's sum of bigint is numeric): sum smaller units, "
             "e.g. sum(x / 1000), or fewer rows.";
    if (has("integer out of range") || has("smallint out of range"))
      return "FIX: the result overflowed its integer type: CAST an operand to bigint before the arithmetic, e.g. "
             "CAST(x AS bigint) * y.";
    return "FIX: a number overflowed its type: CAST to bigint or numeric before the arithmetic.";
  }
  return {};
}

// The FIX when the value PostgreSQL could not read came from a column.
std::string fix_for_data_value(const std::string& state) {
  if (state == "22P02" || state == "22007" || state == "22008")
    return "FIX: a value in a column does not read as the type it is cast to (the value came from the data and is "
           "withheld here as untrusted text): keep only the rows that read as that type, e.g. WHERE col ~ "
           "'^-?[0-9]+$' before CAST(col AS integer), or compare the column as text without the CAST.";
  return kDataValueFix;
}

// The SQLSTATE PostgreSQL gives the error whose words querygate's own SQLite functions repeat
// (executors/sqlite/sqlite_numbers.cpp, sqlite_time.cpp ...): their FIX is PostgreSQL's.
std::string sqlstate_of_words(std::string_view words) {
  const auto has = [&](std::string_view w) { return words.find(w) != std::string_view::npos; };
  if (has("division by zero")) return "22012";
  if (has("out of range") || has("numeric field overflow"))
    return has("date") || has("time") || has("interval") ? "22008" : "22003";
  if (has("invalid input syntax for type")) return "22P02";
  if (has("more than one row returned by a subquery")) return "21000";
  if (has("cannot get array length") || has("cannot extract elements") || has("cannot call")) return "22023";
  if (has("integer overflow")) return "22003";  // SQLite's sum()
  if (has("past 2037")) return "22023";         // a zone's offsets (sqlite_time.cpp)
  return {};
}

}  // namespace qg::exec
