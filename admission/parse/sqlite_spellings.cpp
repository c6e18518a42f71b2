#include "admission/parse/sqlite_spellings.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace qg::parse {
namespace {

struct Token {
  int begin = 0;
  int end = 0;
  std::string upper;  // the token's text upper-cased (words and punctuation)
};

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80);
}

// Splits SQL into words and punctuation, skipping strings, quoted identifiers
// and comments. Only used to choose a better message after the real parser has
// already rejected the text, so it need not be a full lexer.
std::vector<Token> tokenize(std::string_view sql) {
  std::vector<Token> out;
  const int n = static_cast<int>(sql.size());
  int i = 0;
  auto skip_quoted = [&](char q) {
    ++i;
    while (i < n) {
      if (sql[i] == q) {
        if (i + 1 < n && sql[i + 1] == q) {
          i += 2;
          continue;
        }
        ++i;
        return;
      }
      ++i;
    }
  };
  while (i < n) {
    const char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      const auto close = sql.find("*/", i + 2);
      i = close == std::string_view::npos ? n : static_cast<int>(close) + 2;
    } else if (c == '\'' || c == '"') {
      const int begin = i;
      skip_quoted(c);
      out.push_back({begin, i, c == '\'' ? "'" : "\""});
    } else if (is_word_char(c)) {
      const int begin = i;
      while (i < n && is_word_char(sql[i])) ++i;
      std::string w(sql.substr(begin, i - begin));
      for (auto& ch : w) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      out.push_back({begin, i, std::move(w)});
    } else {
      out.push_back({i, i + 1, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

Error spelling(std::string message, std::string fix, std::optional<int> position) {
  return make_error(ErrorCode::ParseSqliteSpelling, std::move(message), std::move(fix), position);
}

// SQLite accepts JOIN without ON (a cross join); the portable grammar does not.
// `at` is the token where the clause after the join starts (or the end).
std::optional<Error> join_without_on(const std::vector<Token>& tokens, std::size_t at, int position) {
  for (std::size_t k = at; k-- > 0 && at - k <= 4;) {
    if (tokens[k].upper == "ON" || tokens[k].upper == "USING") return std::nullopt;
    if (tokens[k].upper != "JOIN") continue;
    // An outer join without a condition has no cross-join reading worth suggesting.
    const bool outer = k > 0 && (tokens[k - 1].upper == "LEFT" || tokens[k - 1].upper == "RIGHT" ||
                                 tokens[k - 1].upper == "FULL" || tokens[k - 1].upper == "OUTER");
    return spelling("JOIN without ON or USING",
                    outer ? "FIX: add the join condition: JOIN t2 ON t2.key = t1.key."
                          : "FIX: add the join condition, JOIN t2 ON t2.key = t1.key, or write CROSS JOIN if every "
                            "pairing is meant.",
                    position);
  }
  return std::nullopt;
}

// A chain where an earlier JOIN has no condition: `A JOIN B JOIN C ON x WHERE`
// reads as A JOIN (B JOIN C ON x), and the grammar then wants A's ON. Counts,
// from the last FROM before `at` at the same parenthesis depth, the joins that
// need a condition against the ON/USING clauses; points at the first JOIN
// directly followed (before any ON/USING) by another JOIN.
std::optional<Error> chained_join_without_on(const std::vector<Token>& tokens, std::size_t at) {
  std::size_t from = at;
  int depth = 0;
  for (std::size_t k = at; k-- > 0;) {
    if (tokens[k].upper == ")") ++depth;
    if (tokens[k].upper == "(") {
      if (depth == 0) break;
      --depth;
    }
    if (depth == 0 && tokens[k].upper == "FROM") {
      from = k;
      break;
    }
  }
  if (from == at) return std::nullopt;
  int needing = 0, conditions = 0;
  std::optional<std::size_t> first_bare;
  std::optional<std::size_t> open_join;  // a JOIN still waiting for its condition
  depth = 0;
  for (std::size_t k = from + 1; k < at; ++k) {
    const std::string& w = tokens[k].upper;
    if (w == "(") ++depth;
    if (w == ")") --depth;
    if (depth != 0) continue;
    if (w == "JOIN") {
      const std::string& before = tokens[k - 1].upper;
      if (before == "CROSS" || before == "NATURAL" || (k >= 2 && tokens[k - 2].upper == "NATURAL")) continue;
      ++needing;
      if (open_join && !first_bare) first_bare = open_join;
      open_join = k;
    } else if (w == "ON" || w == "USING") {
      ++conditions;
      open_join.reset();
    }
  }
  if (needing <= conditions || !first_bare) return std::nullopt;
  return spelling("JOIN without ON or USING (an earlier join in the chain has no condition)",
                  "FIX: give every JOIN its own condition right after it: FROM a JOIN b ON b.key = a.key JOIN c ON "
                  "c.key = b.key, or write CROSS JOIN where every pairing is meant.",
                  tokens[*first_bare].begin);
}

}  // namespace

std::string near_text(std::string_view sql, int position) {
  const int n = static_cast<int>(sql.size());
  const int begin = std::clamp(position, 0, n);
  int end = std::min(n, begin + 24);
  std::string excerpt(sql.substr(begin, end - begin));
  if (excerpt.empty()) return "(end of statement)";
  if (end < n) excerpt += "...";
  return "\"" + excerpt + "\"";
}

std::optional<std::string> rewrite_sqlite_spellings(std::string_view sql, std::vector<std::string>& names) {
  const auto tokens = tokenize(sql);
  struct Splice {
    int begin, end;
    std::string text;
    std::string_view name;
  };
  std::vector<Splice> splices;
  auto number = [](const Token& t) {
    return !t.upper.empty() && t.upper.size() <= 18 && std::all_of(t.upper.begin(), t.upper.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
  };
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].upper == "LIMIT" && k + 3 < tokens.size() && number(tokens[k + 1]) && tokens[k + 2].upper == "," &&
        number(tokens[k + 3])) {
      const std::string a(sql.substr(tokens[k + 1].begin, tokens[k + 1].end - tokens[k + 1].begin));
      const std::string b(sql.substr(tokens[k + 3].begin, tokens[k + 3].end - tokens[k + 3].begin));
      splices.push_back({tokens[k].begin, tokens[k + 3].end, "LIMIT " + b + " OFFSET " + a, "dialect:limit-comma"});
      k += 3;
      continue;
    }
    // `name` / [name]: SQLite's identifier quotes. Lower-case names as "name" (PostgreSQL matches them
    // exactly, SQLite without case); others bare (both fold or ignore case). A subscript x[i] stays.
    const bool backtick = tokens[k].upper == "`";
    const bool bracket =
        tokens[k].upper == "[" &&
        (tokens[k].begin == 0 || (!is_word_char(sql[tokens[k].begin - 1]) && sql[tokens[k].begin - 1] != ')' &&
                                  sql[tokens[k].begin - 1] != ']' && sql[tokens[k].begin - 1] != '"'));
    if ((backtick || bracket) && k + 2 < tokens.size() && tokens[k + 2].upper == (backtick ? "`" : "]") &&
        tokens[k + 1].end == tokens[k + 2].begin && tokens[k].end == tokens[k + 1].begin) {
      const std::string word(sql.substr(tokens[k + 1].begin, tokens[k + 1].end - tokens[k + 1].begin));
      static constexpr std::string_view kValues[] = {"USER",
                                                     "CURRENT_USER",
                                                     "SESSION_USER",
                                                     "CURRENT_ROLE",
                                                     "CURRENT_DATE",
                                                     "CURRENT_TIME",
                                                     "CURRENT_TIMESTAMP",
                                                     "LOCALTIME",
                                                     "LOCALTIMESTAMP",
                                                     "CURRENT_CATALOG",
                                                     "CURRENT_SCHEMA",
                                                     "TRUE",
                                                     "FALSE",
                                                     "NULL"};
      const bool identifier = !word.empty() && !std::isdigit(static_cast<unsigned char>(word[0])) &&
                              std::all_of(word.begin(), word.end(), [](char c) {
                                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                              });
      if (identifier && std::find(std::begin(kValues), std::end(kValues), tokens[k + 1].upper) == std::end(kValues)) {
        const bool lower_case =
            std::none_of(word.begin(), word.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
        splices.push_back(
            {tokens[k].begin, tokens[k + 2].end, lower_case ? "\"" + word + "\"" : word, "dialect:identifier-quotes"});
        k += 2;
        continue;
      }
    }
    // a IS 3 / a IS NOT 'x': SQLite's IS compares like IS [NOT] DISTINCT FROM, NULLs included.
    if (tokens[k].upper == "IS" && k > 0) {
      const bool negated = k + 1 < tokens.size() && tokens[k + 1].upper == "NOT";
      const std::size_t v = k + (negated ? 2 : 1);
      if (v < tokens.size() && (tokens[v].upper == "'" || number(tokens[v]))) {
        splices.push_back({tokens[k].begin, tokens[v].begin, negated ? "IS DISTINCT FROM " : "IS NOT DISTINCT FROM ",
                           "dialect:is-comparison"});
        k = v;
        continue;
      }
    }
    if (tokens[k].upper == "GLOB" && k > 0 && k + 1 < tokens.size() && tokens[k + 1].upper == "'") {
      const Token& lit = tokens[k + 1];
      const std::string_view body = sql.substr(lit.begin + 1, lit.end - lit.begin - 2);
      if (lit.end - lit.begin < 2 || sql[lit.end - 1] != '\'' || body.find('[') != std::string_view::npos) continue;
      // An E'' string or a prefix would read backslashes differently: only a plain literal.
      if (lit.begin > 0 && is_word_char(sql[lit.begin - 1])) continue;
      std::string pattern = "'";
      for (char c : body) {
        if (c == '*')
          pattern += '%';
        else if (c == '?')
          pattern += '_';
        else if (c == '%' || c == '_' || c == '\\')
          pattern += std::string("\\") + c;
        else
          pattern += c;
      }
      pattern += '\'';
      splices.push_back({tokens[k].begin, lit.end, "LIKE " + pattern, "dialect:glob"});
      ++k;
    }
  }
  if (splices.empty()) return std::nullopt;
  std::string out(sql);
  for (auto it = splices.rbegin(); it != splices.rend(); ++it) {
    out.replace(static_cast<std::size_t>(it->begin), static_cast<std::size_t>(it->end - it->begin), it->text);
    if (std::find(names.begin(), names.end(), it->name) == names.end()) names.emplace_back(it->name);
  }
  return out;
}

std::optional<Error> recognise_sqlite_spelling(std::string_view sql, std::optional<int> error_position) {
  const auto tokens = tokenize(sql);
  // Statements only SQLite has: name what they are rather than "syntax error".
  if (!tokens.empty()) {
    const std::string& first = tokens.front().upper;
    if (first == "ATTACH" || first == "DETACH" || first == "REPLACE" || first == "REINDEX" ||
        (first == "INSERT" && tokens.size() > 1 && tokens[1].upper == "OR") || first == "VACUUM")
      return make_error(ErrorCode::ValidationNotReadOnly, first + " is not allowed: querygate is read-only",
                        "FIX: send one SELECT statement that reads data.", tokens.front().begin);
    if (first == "PRAGMA")
      return make_error(ErrorCode::ValidationNotSelect, "PRAGMA is not a query",
                        "FIX: send one SELECT statement; to see tables and columns, call GET /v1/schema.",
                        tokens.front().begin);
  }
  // SQLite placeholders (?, :name, @name, $name) that the grammar cannot read.
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const bool named = (tokens[k].upper == ":" || tokens[k].upper == "@" || tokens[k].upper == "$") &&
                       tokens[k + 1].begin == tokens[k].end && is_word_char(sql[tokens[k + 1].begin]) &&
                       (k == 0 || tokens[k - 1].upper != ":");
    if ((tokens[k].upper == "?" || named) && error_position && tokens[k].begin <= *error_position)
      return make_error(ErrorCode::ValidationPlaceholder,
                        "a bind placeholder has no value: querygate takes no "
                        "parameters",
                        "FIX: write the value into the statement as a literal, e.g. WHERE id = 42.", tokens[k].begin);
  }
  if (!tokens.empty() && tokens.back().upper == "?")
    return make_error(ErrorCode::ValidationPlaceholder,
                      "a bind placeholder has no value: querygate takes no parameters",
                      "FIX: write the value into the statement as a literal, e.g. WHERE id = 42.", tokens.back().begin);
  // Backtick and bracket identifiers anywhere are what broke the parse.
  for (const auto& t : tokens) {
    if (t.upper == "`")
      return spelling("backtick-quoted identifiers (`name`) are MySQL/SQLite spellings",
                      "FIX: write the bare name (spans) or double-quote it (\"spans\").", t.begin);
  }
  if (!error_position) return std::nullopt;
  const int pos = *error_position;
  // SQLite's time(x) and char(n) collide with PostgreSQL type names (TIME, CHAR):
  // the error lands inside or after the call.
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const bool call = (tokens[k].upper == "TIME" || tokens[k].upper == "CHAR") && tokens[k + 1].upper == "(";
    const bool as_type = k > 0 && (tokens[k - 1].upper == "AS" || tokens[k - 1].upper == ":");
    if (call && !as_type && tokens[k].begin <= pos) {
      const std::string fn = tokens[k].upper == "TIME" ? "time" : "char";
      return spelling(fn + "(...) reads as a type name in the portable grammar",
                      "FIX: double-quote the function name: \"" + fn + "\"(...).", tokens[k].begin);
    }
  }
  std::size_t at = tokens.size();
  for (std::size_t k = 0; k < tokens.size(); ++k)
    if (tokens[k].begin <= pos && pos < std::max(tokens[k].end, tokens[k].begin + 1)) at = k;
  if (at == tokens.size()) {
    if (auto e = join_without_on(tokens, tokens.size(), static_cast<int>(sql.size()))) return e;
    if (auto e = chained_join_without_on(tokens, tokens.size())) return e;
    // The message for LIMIT a, b points at the LIMIT clause; look back for it.
    for (std::size_t k = 0; k + 2 < tokens.size(); ++k)
      if (tokens[k].upper == "LIMIT" && tokens[k + 2].upper == ",")
        return spelling("LIMIT a, b is a SQLite/MySQL spelling",
                        "FIX: write LIMIT b OFFSET a (LIMIT ALL OFFSET a where b is -1).", tokens[k].begin);
    return std::nullopt;
  }
  const Token& t = tokens[at];
  const std::string next = at + 1 < tokens.size() ? tokens[at + 1].upper : "";
  const std::string prev = at > 0 ? tokens[at - 1].upper : "";
  const std::string prev2 = at > 1 ? tokens[at - 2].upper : "";

  const bool limit_comma = at + 2 < tokens.size() && tokens[at + 2].upper == ",";
  if ((t.upper == "LIMIT" && limit_comma) || (t.upper == "," && (prev2 == "LIMIT"))) {
    const int p = t.upper == "LIMIT" ? t.begin : tokens[at - 2].begin;
    return spelling("LIMIT a, b is a SQLite/MySQL spelling",
                    "FIX: write LIMIT b OFFSET a (LIMIT ALL OFFSET a where b is -1).", p);
  }
  if (t.upper == "GLOB" || (t.upper == "NOT" && next == "GLOB"))
    return spelling("GLOB is a SQLite-only operator",
                    "FIX: write LIKE with % for * and _ for ? (x LIKE 'abc%'); note LIKE is case-insensitive on "
                    "SQLite.",
                    t.begin);
  if (t.upper == "REGEXP" || (t.upper == "NOT" && next == "REGEXP"))
    return spelling("REGEXP is not available",
                    "FIX: match with LIKE patterns (x LIKE '%abc%'), or combine several LIKE tests with OR.", t.begin);
  if (t.upper == "[")
    return spelling("[bracket] identifiers are a SQL Server/SQLite spelling",
                    "FIX: write the bare name (spans) or double-quote it (\"spans\").", t.begin);
  // A reserved word used as a table name (FROM cast AS c): the error lands on the token after it.
  static constexpr std::string_view kAfterTable[] = {"AS", "WHERE", "JOIN", "ON",    "GROUP", "ORDER", "LIMIT",
                                                     ",",  ")",     "LEFT", "INNER", "CROSS", "UNION"};
  if (at >= 2 && (prev2 == "FROM" || prev2 == "JOIN") && !prev.empty() && is_word_char(prev[0]) &&
      std::find(std::begin(kAfterTable), std::end(kAfterTable), t.upper) != std::end(kAfterTable)) {
    std::string name(sql.substr(tokens[at - 1].begin, tokens[at - 1].end - tokens[at - 1].begin));
    // Lower case: PostgreSQL stores unquoted names folded, SQLite matches either way.
    std::string folded = name;
    for (auto& ch : folded) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return make_error(ErrorCode::ParseSqliteSpelling,
                      "'" + name + "' is a reserved word, so it cannot name a table bare",
                      "FIX: double-quote the table name: \"" + folded + "\".", tokens[at - 1].begin);
  }
  // SQLite accepts JOIN without ON (a cross join); the portable grammar does not.
  static constexpr std::string_view kClauseStart[] = {"WHERE",  "GROUP", "ORDER",  "LIMIT",     "JOIN",
                                                      "LEFT",   "INNER", "RIGHT",  "FULL",      "CROSS",
                                                      "HAVING", "UNION", "EXCEPT", "INTERSECT", ";"};
  if (std::find(std::begin(kClauseStart), std::end(kClauseStart), t.upper) != std::end(kClauseStart)) {
    if (auto e = join_without_on(tokens, at, t.begin)) return e;
    if (auto e = chained_join_without_on(tokens, at)) return e;
  }
  if (prev == "IS" || (prev == "NOT" && prev2 == "IS")) {
    const bool negated = prev == "NOT";
    return spelling(std::string("a IS ") + (negated ? "NOT " : "") + "b compares two values only on SQLite",
                    negated ? "FIX: write a IS DISTINCT FROM b." : "FIX: write a IS NOT DISTINCT FROM b.",
                    tokens[at - (negated ? 2 : 1)].begin);
  }
  return std::nullopt;
}

}  // namespace qg::parse
