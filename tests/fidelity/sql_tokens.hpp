#pragma once
// A small lexer over SQL text, for the harness only: it finds a top-level
// ORDER BY (how to compare results) and the exact token a refusal's position
// points at (where to apply a FIX). It is not the gateway's parser and never
// decides admission.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fidelity {

enum class TokenKind { Word, Number, SingleQuoted, DoubleQuoted, Backtick, Bracketed, Punct };

struct Token {
  TokenKind kind;
  int begin = 0;  // byte offsets into the SQL text
  int end = 0;
  std::string upper;  // words and punctuation upper-cased; quoted tokens as written
};

// Comments and whitespace are skipped. Multi-character operators (==, !=, <>,
// <=, >=, ||) are one Punct token.
std::vector<Token> tokenize(std::string_view sql);

// The index of the token that contains byte `position`, or the first token
// starting after it; tokens.size() when there is none.
std::size_t token_at(const std::vector<Token>& tokens, int position);

// True when the statement's outermost query (after any set operation) ends in
// ORDER BY: only then is the row order part of the answer.
bool has_top_level_order_by(std::string_view sql);

// The output columns the outermost ORDER BY sorts by, when every item is an
// output column's name (case-insensitive, a qualifier ignored) or position
// (ORDER BY 2) followed only by ASC/DESC/NULLS FIRST/LAST; nullopt otherwise
// (an expression: the keys are not in the answer). `limited`: a LIMIT, OFFSET
// or FETCH follows.
struct OrderKeys {
  std::vector<std::size_t> columns;
  bool limited = false;
};
std::optional<OrderKeys> top_level_order_keys(std::string_view sql, const std::vector<std::string>& column_names);

}  // namespace fidelity
