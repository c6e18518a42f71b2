#include "sql_tokens.hpp"

#include <cstdlib>

#include <array>
#include <cctype>

namespace fidelity {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80) || c == '$';
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Index just past a quoted token that opens at sql[i] with `close`; a doubled
// closing character is an escaped one inside the token.
int skip_quoted(std::string_view sql, int i, char close) {
  const int n = static_cast<int>(sql.size());
  ++i;
  while (i < n) {
    if (sql[i] == close) {
      if (close != ']' && i + 1 < n && sql[i + 1] == close) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    ++i;
  }
  return n;
}

}  // namespace

std::vector<Token> tokenize(std::string_view sql) {
  static constexpr std::array<std::string_view, 6> kTwoChar{"==", "!=", "<>", "<=", ">=", "||"};
  std::vector<Token> out;
  const int n = static_cast<int>(sql.size());
  int i = 0;
  while (i < n) {
    const char c = sql[i];
    const int begin = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      const auto close = sql.find("*/", i + 2);
      i = close == std::string_view::npos ? n : static_cast<int>(close) + 2;
      continue;
    }
    TokenKind kind = TokenKind::Punct;
    if (c == '\'') {
      kind = TokenKind::SingleQuoted, i = skip_quoted(sql, i, '\'');
    } else if (c == '"') {
      kind = TokenKind::DoubleQuoted, i = skip_quoted(sql, i, '"');
    } else if (c == '`') {
      kind = TokenKind::Backtick, i = skip_quoted(sql, i, '`');
    } else if (c == '[') {
      kind = TokenKind::Bracketed, i = skip_quoted(sql, i, ']');
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(sql[i + 1])))) {
      kind = TokenKind::Number;
      while (i < n && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '.')) ++i;
    } else if (is_word_char(c)) {
      kind = TokenKind::Word;
      while (i < n && is_word_char(sql[i])) ++i;
    } else {
      i += 1;
      for (auto op : kTwoChar)
        if (sql.substr(begin, 2) == op) i = begin + 2;
    }
    const auto text = sql.substr(begin, i - begin);
    const bool quoted = kind != TokenKind::Word && kind != TokenKind::Punct && kind != TokenKind::Number;
    out.push_back({kind, begin, i, quoted ? std::string(text) : upper(text)});
  }
  return out;
}

std::size_t token_at(const std::vector<Token>& tokens, int position) {
  for (std::size_t k = 0; k < tokens.size(); ++k)
    if (position < tokens[k].end) return k;
  return tokens.size();
}

bool has_top_level_order_by(std::string_view sql) {
  const auto tokens = tokenize(sql);
  int depth = 0;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const auto& t = tokens[k];
    if (t.kind != TokenKind::Punct && t.kind != TokenKind::Word) continue;
    if (t.upper == "(") ++depth;
    if (t.upper == ")") --depth;
    if (depth == 0 && t.upper == "ORDER" && tokens[k + 1].upper == "BY") return true;
  }
  return false;
}

std::optional<OrderKeys> top_level_order_keys(std::string_view sql, const std::vector<std::string>& column_names) {
  const auto tokens = tokenize(sql);
  int depth = 0;
  std::size_t start = tokens.size();
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const auto& t = tokens[k];
    if (t.kind == TokenKind::Punct && t.upper == "(") ++depth;
    if (t.kind == TokenKind::Punct && t.upper == ")") --depth;
    if (depth == 0 && t.kind == TokenKind::Word && t.upper == "ORDER" && tokens[k + 1].upper == "BY") start = k + 2;
  }
  if (start >= tokens.size()) return std::nullopt;
  OrderKeys out;
  auto find_column = [&](const std::string& name) -> std::optional<std::size_t> {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < column_names.size(); ++i)
      if (upper(column_names[i]) == upper(name)) {
        if (found) return std::nullopt;  // two output columns of that name: ambiguous
        found = i;
      }
    return found;
  };
  std::size_t k = start;
  while (k < tokens.size()) {
    // One item: [qualifier .] name | "name" | position, then modifiers.
    std::vector<const Token*> item;
    while (k < tokens.size() && !(tokens[k].kind == TokenKind::Punct && tokens[k].upper == ",")) {
      const auto& t = tokens[k];
      if (t.kind == TokenKind::Word && (t.upper == "LIMIT" || t.upper == "OFFSET" || t.upper == "FETCH")) {
        out.limited = true;
        break;
      }
      if (t.kind == TokenKind::Punct && t.upper == ";") break;
      item.push_back(&t);
      ++k;
    }
    while (!item.empty() && item.back()->kind == TokenKind::Word &&
           (item.back()->upper == "ASC" || item.back()->upper == "DESC" || item.back()->upper == "FIRST" ||
            item.back()->upper == "LAST" || item.back()->upper == "NULLS"))
      item.pop_back();
    if (item.size() == 3 && item[1]->upper == ".") item.erase(item.begin(), item.begin() + 2);
    if (item.size() != 1) return std::nullopt;
    const Token& t = *item.front();
    std::optional<std::size_t> column;
    const std::string text(sql.substr(static_cast<std::size_t>(t.begin), static_cast<std::size_t>(t.end - t.begin)));
    if (t.kind == TokenKind::Number) {
      const auto n = std::strtoul(text.c_str(), nullptr, 10);
      if (n >= 1 && n <= column_names.size()) column = n - 1;
    } else if (t.kind == TokenKind::Word) {
      column = find_column(text);
    } else if (t.kind == TokenKind::DoubleQuoted && text.size() >= 2) {
      column = find_column(text.substr(1, text.size() - 2));
    }
    if (!column) return std::nullopt;
    out.columns.push_back(*column);
    if (out.limited || k >= tokens.size() || tokens[k].upper != ",") break;
    ++k;
  }
  return out;
}

}  // namespace fidelity
