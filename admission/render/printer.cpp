#include "admission/render/printer.hpp"

#include <string>

namespace qg::render::detail {
namespace {

// Far above admission's own depth limit: reaching it means the limit was skipped.
constexpr int kMaxDepth = 1000;

}  // namespace

Printer::Nest::Nest(Printer& p) : p_(p) {
  if (++p_.depth_ > kMaxDepth) p_.fail("a tree nested deeper than " + std::to_string(kMaxDepth) + " levels");
}

void Printer::identifier(std::string_view name) {
  // "" is not an identifier in either grammar, and a NUL byte would end the
  // statement early for any C-string API downstream.
  if (name.empty()) return fail("an empty name");
  if (name.find('\0') != std::string_view::npos) return fail("a name containing a NUL byte");
  word(quote_identifier(name, dialect_));
}

void Printer::identifiers(const std::vector<std::string>& names) {
  list(names, [&](const std::string& n) { identifier(n); });
}

void Printer::string_literal(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return fail("a string containing a NUL byte");
  word(quote_string(text));
}

void Printer::expr_list(const std::vector<ast::Expr>& items) {
  list(items, [&](const ast::Expr& e) { expr(e); });
}

void Printer::require(Construct construct) {
  if (can_render(construct, dialect_)) return;
  if (error_) return;
  error_ = make_error(ErrorCode::Internal, "cannot print " + std::string(construct_info(construct).sql_words) +
                                               " for " + std::string(dialect_name(dialect_)));
}

void Printer::fail(std::string_view what) {
  if (error_) return;
  error_ = make_error(ErrorCode::Internal,
                      "cannot print " + std::string(what) + " for " + std::string(dialect_name(dialect_)));
}

Result<std::string> Printer::finish() && {
  if (error_) return std::move(*error_);
  return std::move(out_);
}

}  // namespace qg::render::detail
