#include "fixes.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "sql_tokens.hpp"

namespace fidelity {
namespace {

using qg::ErrorCode;

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::string splice(std::string_view sql, int begin, int end, std::string_view replacement) {
  std::string out(sql.substr(0, begin));
  out += replacement;
  out += sql.substr(end);
  return out;
}

// The body of a quoted token with its doubled closing quotes undone.
std::string unquote(std::string_view token, char close) {
  std::string out;
  for (std::size_t i = 1; i + 1 < token.size(); ++i) {
    out += token[i];
    if (token[i] == close && i + 2 < token.size() && token[i + 1] == close) ++i;
  }
  return out;
}

std::string quote(std::string_view body, char q) {
  std::string out(1, q);
  for (char c : body) {
    out += c;
    if (c == q) out += q;
  }
  return out + q;
}

// The token the refusal points at, when it is of `kind`.
const Token* pointed(const std::vector<Token>& tokens, const qg::Error& refusal, TokenKind kind) {
  if (!refusal.position) return nullptr;
  const auto k = token_at(tokens, *refusal.position);
  if (k == tokens.size() || tokens[k].begin != *refusal.position || tokens[k].kind != kind) return nullptr;
  return &tokens[k];
}

struct Transformer {
  FixDescription description;
  // Applies when the refusal is this case; nullopt when it is not (or the text does not fit).
  std::function<std::optional<std::string>(std::string_view sql, const qg::Error&)> apply;
};

// validation:unknown-column, FIX "if you meant the text, write 'X' in single
// quotes": SQLite read "X" as text because no column X exists, so 'X' keeps the
// meaning. Only the one token the refusal points at is rewritten.
std::optional<std::string> double_quoted_text(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ValidationUnknownColumn || !contains(e.fix, "if you meant the text, write '")) return {};
  const auto tokens = tokenize(sql);
  const Token* t = pointed(tokens, e, TokenKind::DoubleQuoted);
  if (!t) return {};
  return splice(sql, t->begin, t->end, quote(unquote(sql.substr(t->begin, t->end - t->begin), '"'), '\''));
}

// parse:sqlite-spelling, FIX "write LIMIT b OFFSET a.": LIMIT a , b → LIMIT b OFFSET a.
std::optional<std::string> limit_comma(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling || !contains(e.fix, "LIMIT b OFFSET a")) return {};
  const auto tokens = tokenize(sql);
  if (!e.position) return {};
  const auto k = token_at(tokens, *e.position);
  if (k + 3 >= tokens.size() || tokens[k].upper != "LIMIT" || tokens[k + 2].upper != ",") return {};
  const Token& a = tokens[k + 1];
  const Token& b = tokens[k + 3];
  const std::string a_text(sql.substr(a.begin, a.end - a.begin));
  const std::string b_text(sql.substr(b.begin, b.end - b.begin));
  return splice(sql, a.begin, b.end, b_text + " OFFSET " + a_text);
}

// parse:sqlite-spelling, FIX "write a IS [NOT] DISTINCT FROM b.": the IS (NOT)
// the refusal points at becomes the FIX's operator.
std::optional<std::string> is_comparison(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling || !contains(e.fix, "DISTINCT FROM b")) return {};
  const auto tokens = tokenize(sql);
  if (!e.position) return {};
  const auto k = token_at(tokens, *e.position);
  if (k >= tokens.size() || tokens[k].upper != "IS") return {};
  const bool negated = k + 1 < tokens.size() && tokens[k + 1].upper == "NOT";
  if (negated != contains(e.fix, "IS DISTINCT FROM b")) return {};
  const int end = negated ? tokens[k + 1].end : tokens[k].end;
  return splice(sql, tokens[k].begin, end, negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM");
}

// parse:sqlite-spelling, FIX "write the bare name or double-quote it": `x` / [x] → "x".
std::optional<std::string> quoted_identifier(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling || !contains(e.fix, "double-quote it")) return {};
  const auto tokens = tokenize(sql);
  for (auto kind : {TokenKind::Backtick, TokenKind::Bracketed})
    if (const Token* t = pointed(tokens, e, kind)) {
      const char close = kind == TokenKind::Backtick ? '`' : ']';
      return splice(sql, t->begin, t->end, quote(unquote(sql.substr(t->begin, t->end - t->begin), close), '"'));
    }
  return {};
}

// validation:unsupported, FIX "write = (a single equals sign).": the == the
// refusal points at (or the first one after its position) becomes =.
std::optional<std::string> double_equals(std::string_view sql, const qg::Error& e) {
  if (!contains(e.fix, "write = (a single equals sign)") || !e.position) return {};
  const auto tokens = tokenize(sql);
  for (auto k = token_at(tokens, *e.position); k < tokens.size(); ++k)
    if (tokens[k].kind == TokenKind::Punct && tokens[k].upper == "==")
      return splice(sql, tokens[k].begin, tokens[k].end, "=");
  return {};
}

// validation:timestamp-literal, FIX "write 'T…Z' for UTC (or add the offset you
// mean …)": the datasets' times carry no zone, so UTC is the reading an agent
// would take; the literal the refusal points at becomes the FIX's literal.
// The other timestamp refusal (more precise than the column) needs a choice: not applied.
std::optional<std::string> timestamp_utc(std::string_view sql, const qg::Error& e) {
  constexpr std::string_view kOpen = "FIX: write '";
  constexpr std::string_view kClose = "' for UTC";
  if (e.code != ErrorCode::ValidationTimestampLiteral || e.fix.rfind(kOpen, 0) != 0) return {};
  const auto close = e.fix.find(kClose);
  if (close == std::string::npos) return {};
  const std::string literal = e.fix.substr(kOpen.size(), close - kOpen.size());
  const auto tokens = tokenize(sql);
  const Token* t = pointed(tokens, e, TokenKind::SingleQuoted);
  if (!t) return {};
  return splice(sql, t->begin, t->end, quote(literal, '\''));
}

// The text of a FIX between `open` and the next `close`, e.g. the name in
// FIX: double-quote the table name: "cast".
std::optional<std::string> between(std::string_view fix, std::string_view open, std::string_view close) {
  const auto b = fix.find(open);
  if (b == std::string_view::npos) return {};
  const auto e = fix.find(close, b + open.size());
  if (e == std::string_view::npos) return {};
  return std::string(fix.substr(b + open.size(), e - b - open.size()));
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The pointed-at bare word, when it is the FIX's name (any letter case) → the
// FIX's double-quoted spelling. Shared by the three "double-quote the name" FIXes.
std::optional<std::string> quote_pointed_word(std::string_view sql, const qg::Error& e, const std::string& name,
                                              bool needs_call) {
  const auto tokens = tokenize(sql);
  const Token* t = pointed(tokens, e, TokenKind::Word);
  if (!t || name.empty() || t->upper != upper(name)) return {};
  if (needs_call) {
    const auto k = static_cast<std::size_t>(t - tokens.data());
    if (k + 1 >= tokens.size() || tokens[k + 1].upper != "(") return {};
  }
  return splice(sql, t->begin, t->end, quote(name, '"'));
}

// parse:sqlite-spelling, FIX 'double-quote the table name: "cast".': a reserved
// word naming a table. The FIX spells the name as written; the word the
// refusal points at becomes exactly that quoted name.
std::optional<std::string> reserved_table(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling) return {};
  const auto name = between(e.fix, "FIX: double-quote the table name: \"", "\".");
  if (!name) return {};
  return quote_pointed_word(sql, e, *name, false);
}

// parse:sqlite-spelling, FIX 'if user is a table, double-quote its name: FROM
// "user".': the keyword the grammar read as a session function → "user".
std::optional<std::string> session_keyword_table(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling) return {};
  const auto name = between(e.fix, "double-quote its name: FROM \"", "\".");
  if (!name) return {};
  return quote_pointed_word(sql, e, *name, false);
}

// parse:sqlite-spelling, FIX 'double-quote the function name: "time"(...).':
// time(…) / char(…), which the grammar reads as type names.
std::optional<std::string> quoted_function(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling) return {};
  const auto name = between(e.fix, "FIX: double-quote the function name: \"", "\"(");
  if (!name) return {};
  return quote_pointed_word(sql, e, *name, true);
}

// parse:sqlite-spelling, FIX "add the join condition, … or write CROSS JOIN if
// every pairing is meant.": the FIX offers a choice, and only one case leaves
// no choice. SQLite reads JOIN (or INNER JOIN) without ON/USING as an inner
// join with no condition, which is the cross join; when the joined table is
// `JOIN t [[AS] alias]` directly followed by WHERE, GROUP, ORDER, LIMIT or the
// end of the statement (where the refusal points), nothing else can attach to
// that join, so CROSS JOIN is exactly SQLite's meaning. Not applied after
// LEFT/RIGHT/FULL/NATURAL (an outer join without a condition keeps unmatched
// rows when one side is empty, a cross join does not), nor when another JOIN
// follows (the grammars group A JOIN B JOIN C ON … differently: a judgement).
std::optional<std::string> cross_join(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling || !contains(e.fix, "or write CROSS JOIN if every pairing is meant") ||
      !e.position)
    return {};
  const auto tokens = tokenize(sql);
  const int pos = *e.position;
  std::size_t k = token_at(tokens, pos);  // the clause that ends the join
  if (k < tokens.size()) {
    static constexpr std::string_view kEnds[] = {"WHERE", "GROUP", "ORDER", "LIMIT", ";"};
    const Token& t = tokens[k];
    if (t.begin != pos || std::find(std::begin(kEnds), std::end(kEnds), t.upper) == std::end(kEnds)) return {};
    if (t.upper == ";" && k + 1 != tokens.size()) return {};
  }
  // Walk back over `t`, `t alias` or `t AS alias` to the JOIN.
  auto is_name = [&](std::size_t i) {
    const Token& t = tokens[i];
    if (t.kind == TokenKind::DoubleQuoted) return true;
    static constexpr std::string_view kNotNames[] = {"ON", "USING", "JOIN", "AS", "SELECT", "FROM", "LATERAL"};
    return t.kind == TokenKind::Word &&
           std::find(std::begin(kNotNames), std::end(kNotNames), t.upper) == std::end(kNotNames);
  };
  std::optional<std::size_t> join;
  if (k >= 2 && is_name(k - 1) && tokens[k - 2].upper == "JOIN")
    join = k - 2;
  else if (k >= 3 && is_name(k - 1) && is_name(k - 2) && tokens[k - 3].upper == "JOIN")
    join = k - 3;
  else if (k >= 4 && is_name(k - 1) && tokens[k - 2].upper == "AS" && is_name(k - 3) && tokens[k - 4].upper == "JOIN")
    join = k - 4;
  if (!join) return {};
  std::size_t first = *join;
  if (first > 0) {
    const std::string& before = tokens[first - 1].upper;
    if (before == "LEFT" || before == "RIGHT" || before == "FULL" || before == "OUTER" || before == "NATURAL" ||
        before == "CROSS")
      return {};
    if (before == "INNER") --first;
  }
  return splice(sql, tokens[first].begin, tokens[*join].end, "CROSS JOIN");
}

// parse:sqlite-spelling, FIX "name it: FROM (SELECT ...) AS sub, …": the
// subquery whose "(" the refusal points at gets " AS sub" after its closing
// parenthesis (sub2, sub3 … when the statement already uses the name). SQLite
// gives an unaliased subquery no name a query could refer to, so no reference
// changes meaning.
std::optional<std::string> subquery_alias(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ParseSqliteSpelling || !contains(e.fix, "FROM (SELECT ...) AS sub")) return {};
  const auto tokens = tokenize(sql);
  const Token* open = pointed(tokens, e, TokenKind::Punct);
  if (!open || open->upper != "(") return {};
  std::size_t close = static_cast<std::size_t>(open - tokens.data());
  for (int depth = 0; close < tokens.size(); ++close) {
    if (tokens[close].kind != TokenKind::Punct) continue;
    if (tokens[close].upper == "(") ++depth;
    if (tokens[close].upper == ")" && --depth == 0) break;
  }
  if (close == tokens.size()) return {};
  auto used = [&](const std::string& name) {
    for (const auto& t : tokens)
      if ((t.kind == TokenKind::Word && t.upper == upper(name)) ||
          (t.kind == TokenKind::DoubleQuoted && upper(unquote(t.upper, '"')) == upper(name)))
        return true;
    return false;
  };
  std::string name = "sub";
  for (int n = 2; used(name); ++n) name = "sub" + std::to_string(n);
  return splice(sql, tokens[close].end, tokens[close].end, " AS " + name);
}

// validation:qualified-name, FIX "write the bare table name users." (a table)
// or "write u.uid." (a column written schema.table.column): the dotted name the
// refusal points at becomes its last part (table) or last two parts (column),
// as written. The gateway serves one schema and fixes search_path to it, so when
// the dropped prefix is that schema (defog's ewallet: consumer_div.users, served
// with schema: consumer_div) the bare name is the same table; when it is not,
// the FIX would change the table read, and the comparison with the direct run
// is what shows it.
std::optional<std::string> schema_prefix(std::string_view sql, const qg::Error& e) {
  if (e.code != ErrorCode::ValidationQualifiedName || !e.position) return {};
  std::string want;  // the FIX's spelling, compared part by part below
  if (const auto table = between(e.fix, "FIX: write the bare table name ", "."); table && e.fix.ends_with(*table + "."))
    want = *table;
  else if (e.fix.starts_with("FIX: write ") && e.fix.ends_with(".") && !contains(e.fix, "(...)"))
    want = e.fix.substr(11, e.fix.size() - 12);
  else
    return {};
  const auto tokens = tokenize(sql);
  auto k = token_at(tokens, *e.position);
  if (k == tokens.size() || tokens[k].begin != *e.position) return {};
  // The dotted name: part (. part)*, a part a word or a "quoted" name, the last may be *.
  std::vector<std::size_t> parts{k};
  while (parts.back() + 2 < tokens.size() && tokens[parts.back() + 1].upper == "." &&
         (tokens[parts.back() + 2].kind == TokenKind::Word ||
          tokens[parts.back() + 2].kind == TokenKind::DoubleQuoted || tokens[parts.back() + 2].upper == "*"))
    parts.push_back(parts.back() + 2);
  for (const auto p : parts)
    if (tokens[p].kind != TokenKind::Word && tokens[p].kind != TokenKind::DoubleQuoted && tokens[p].upper != "*")
      return {};
  const std::size_t keep = static_cast<std::size_t>(std::count(want.begin(), want.end(), '.')) + 1;
  if (parts.size() <= keep) return {};
  // What the kept parts mean: a word folds to lower case, a quoted name is exact.
  std::string kept;
  for (std::size_t i = parts.size() - keep; i < parts.size(); ++i) {
    const Token& t = tokens[parts[i]];
    std::string name = t.kind == TokenKind::DoubleQuoted ? unquote(sql.substr(t.begin, t.end - t.begin), '"')
                                                         : std::string(sql.substr(t.begin, t.end - t.begin));
    if (t.kind == TokenKind::Word)
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    kept += (kept.empty() ? "" : ".") + name;
  }
  if (kept != want) return {};
  const Token& first_kept = tokens[parts[parts.size() - keep]];
  return splice(sql, tokens[k].begin, first_kept.begin, "");
}

// validation:unsupported, FIX "add T2.id to GROUP BY: the groups stay the same
// (a join or WHERE condition makes it equal to grouped columns on every row)":
// the named columns are appended to the GROUP BY list of the query level the
// refusal points into (the first GROUP BY after the position at its depth, or
// the last one before it). Adding a column equal to a grouped one on every row
// keeps every group; PostgreSQL's primary-key rule then admits the others.
std::optional<std::string> group_by_key(std::string_view sql, const qg::Error& e) {
  constexpr std::string_view kStart = "FIX: add ";
  constexpr std::string_view kEnd = " to GROUP BY: the groups stay the same";
  if (e.code != ErrorCode::ValidationUnsupported || !e.fix.starts_with(kStart) || !contains(e.fix, kEnd) || !e.position)
    return {};
  const std::string columns = e.fix.substr(kStart.size(), e.fix.find(kEnd) - kStart.size());
  const auto tokens = tokenize(sql);
  const std::size_t at = token_at(tokens, *e.position);
  auto group_at = [&](std::size_t i) {
    return i + 1 < tokens.size() && tokens[i].upper == "GROUP" && tokens[i + 1].upper == "BY";
  };
  std::optional<std::size_t> group;
  int depth = 0;
  for (std::size_t i = at; i < tokens.size() && !group; ++i) {
    if (tokens[i].upper == "(") ++depth;
    if (tokens[i].upper == ")" && depth-- == 0) break;
    if (depth == 0 && group_at(i)) group = i;
  }
  depth = 0;
  for (std::size_t i = at; i-- > 0 && !group;) {
    if (tokens[i].upper == ")") ++depth;
    if (tokens[i].upper == "(" && depth-- == 0) break;
    if (depth == 0 && group_at(i)) group = i;
  }
  if (!group) return {};
  static constexpr std::string_view kEnds[] = {"HAVING",    "ORDER",  "LIMIT",  "UNION",
                                               "INTERSECT", "EXCEPT", "WINDOW", ";"};
  std::size_t last = *group + 1;
  depth = 0;
  bool ended = false;
  for (std::size_t i = *group + 2; i < tokens.size(); ++i) {
    if (tokens[i].upper == "(") ++depth;
    if (tokens[i].upper == ")" && depth-- == 0) break;
    // Not applied under LIMIT: which of the groups tied in ORDER BY survive the cut is the engine's choice,
    // and another GROUP BY list may let it choose another, so the answers could not be compared.
    if (depth == 0 && tokens[i].upper == "LIMIT") return {};
    if (depth == 0 && std::find(std::begin(kEnds), std::end(kEnds), tokens[i].upper) != std::end(kEnds)) ended = true;
    if (!ended) last = i;
  }
  if (last == *group + 1) return {};
  return splice(sql, tokens[last].end, tokens[last].end, ", " + columns);
}

const std::vector<Transformer>& transformers() {
  static const std::vector<Transformer> all{
      {{"double-quoted-text", "validation:unknown-column",
        "\"X\" → 'X' for the one token the refusal points at, when the FIX says \"if you meant the text, write 'X'\""},
       double_quoted_text},
      {{"limit-comma", "parse:sqlite-spelling", "LIMIT a, b → LIMIT b OFFSET a"}, limit_comma},
      {{"is-comparison", "parse:sqlite-spelling",
        "a IS b → a IS NOT DISTINCT FROM b; a IS NOT b → a IS DISTINCT FROM b"},
       is_comparison},
      {{"quoted-identifier", "parse:sqlite-spelling", "`x` or [x] → \"x\""}, quoted_identifier},
      {{"double-equals", "validation:unsupported", "a == b → a = b"}, double_equals},
      {{"timestamp-utc", "validation:timestamp-literal",
        "'2005-08-23 02:06:01' → the FIX's UTC literal '2005-08-23T02:06:01Z' (the datasets' times carry no zone)"},
       timestamp_utc},
      {{"reserved-table", "parse:sqlite-spelling",
        "FROM cast AS c → FROM \"cast\" AS c: the pointed-at table name, spelled as the FIX spells it"},
       reserved_table},
      {{"session-keyword-table", "parse:sqlite-spelling", "FROM user → FROM \"user\""}, session_keyword_table},
      {{"quoted-function", "parse:sqlite-spelling", "time(x) / char(x) → \"time\"(x) / \"char\"(x)"}, quoted_function},
      {{"cross-join", "parse:sqlite-spelling",
        "[INNER] JOIN t [[AS] a] directly followed by WHERE/GROUP/ORDER/LIMIT/end → CROSS JOIN t [[AS] a] "
        "(SQLite's meaning of a JOIN without ON)"},
       cross_join},
      {{"subquery-alias", "parse:sqlite-spelling",
        "FROM (SELECT …) → FROM (SELECT …) AS sub (a name the statement does not use)"},
       subquery_alias},
      {{"schema-prefix", "validation:qualified-name",
        "consumer_div.users → users (table), s.t.c → t.c (column): the dotted name loses the prefix the FIX drops"},
       schema_prefix},
      {{"group-by-key", "validation:unsupported",
        "GROUP BY a → GROUP BY a, T2.id when the FIX says T2.id equals a grouped column on every row (a bare column "
        "of T2 is then functionally dependent on its grouped primary key, PostgreSQL's rule); not under LIMIT, whose "
        "choice among tied groups may change"},
       group_by_key},
  };
  return all;
}

}  // namespace

std::optional<AppliedFix> apply_fix(std::string_view sql, const qg::Error& refusal) {
  for (const auto& t : transformers())
    if (auto fixed = t.apply(sql, refusal)) return AppliedFix{std::string(t.description.name), std::move(*fixed)};
  return std::nullopt;
}

std::vector<FixDescription> fix_descriptions() {
  std::vector<FixDescription> out;
  for (const auto& t : transformers()) out.push_back(t.description);
  return out;
}

}  // namespace fidelity
