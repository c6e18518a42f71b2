#include "fixes.hpp"

#include <functional>

#include "sql_tokens.hpp"

namespace fidelity {
namespace {

using qg::ErrorCode;

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

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
    if (tokens[k].kind == TokenKind::Punct && tokens[k].upper == "==") return splice(sql, tokens[k].begin, tokens[k].end, "=");
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

const std::vector<Transformer>& transformers() {
  static const std::vector<Transformer> all{
      {{"double-quoted-text", "validation:unknown-column",
        "\"X\" → 'X' for the one token the refusal points at, when the FIX says \"if you meant the text, write 'X'\""},
       double_quoted_text},
      {{"limit-comma", "parse:sqlite-spelling", "LIMIT a, b → LIMIT b OFFSET a"}, limit_comma},
      {{"is-comparison", "parse:sqlite-spelling", "a IS b → a IS NOT DISTINCT FROM b; a IS NOT b → a IS DISTINCT FROM b"},
       is_comparison},
      {{"quoted-identifier", "parse:sqlite-spelling", "`x` or [x] → \"x\""}, quoted_identifier},
      {{"double-equals", "validation:unsupported", "a == b → a = b"}, double_equals},
      {{"timestamp-utc", "validation:timestamp-literal",
        "'2005-08-23 02:06:01' → the FIX's UTC literal '2005-08-23T02:06:01Z' (the datasets' times carry no zone)"},
       timestamp_utc},
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
