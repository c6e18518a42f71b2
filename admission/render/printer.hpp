#pragma once
// Internal to admission/render. The Printer accumulates one statement's text
// and keeps the first error; its methods are spread over one file per part of
// the grammar (render_expr.cpp, render_func.cpp, render_from.cpp,
// render_query.cpp). Recording the error instead of returning it from every
// call keeps each visitor a straight transcription of the grammar; once an
// error is recorded the text is discarded, so later output does not matter.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admission/ast/ast.hpp"
#include "admission/render/render.hpp"
#include "common/dialect.hpp"
#include "common/result.hpp"

namespace qg::render::detail {

// std::visit over a set of lambdas.
template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

class Printer {
 public:
  explicit Printer(Dialect dialect) : dialect_(dialect) {}

  Dialect dialect() const { return dialect_; }
  bool sqlite() const { return dialect_ == Dialect::Sqlite; }

  // Grammar parts.
  void query(const ast::Query& query);                           // render_query.cpp
  void expr(const ast::Expr& expr);                              // render_expr.cpp; a delimited position
  void operand(const ast::Expr& expr);                           // render_expr.cpp; parenthesised when composite
  void func_call(const ast::FuncCall& call);                     // render_func.cpp
  void generic_call(const ast::FuncCall& call);                  // render_func.cpp; name(args) ...
  void window_spec(const ast::WindowSpec& spec);                 // render_func.cpp; "(...)"
  void sort_items(const std::vector<ast::SortItem>& items);      // render_func.cpp
  void from_item(const ast::FromItem& item);                     // render_from.cpp
  void values(const std::vector<std::vector<ast::Expr>>& rows);  // render_query.cpp; "VALUES (...), (...)"

  // Leaves (printer.cpp).
  void word(std::string_view text) { out_ += text; }
  void identifier(std::string_view name);
  void identifiers(const std::vector<std::string>& names);  // "a, b"
  void string_literal(std::string_view text);
  void expr_list(const std::vector<ast::Expr>& items);  // "a, b", each in a delimited position

  template <typename T, typename Each>
  void list(const std::vector<T>& items, Each each, std::string_view separator = ", ") {
    bool first = true;
    for (const T& item : items) {
      if (!first) word(separator);
      first = false;
      each(item);
    }
  }

  // Errors. Both record only the first failure.
  void require(Construct construct);  // fails when this dialect has no spelling for it
  void fail(std::string_view what);   // a tree no grammar can print: "cannot print <what>"
  bool failed() const { return error_.has_value(); }

  Result<std::string> finish() &&;

  // SQLite: inside querygate's own printing of ->> as text (render_expr.cpp),
  // met again when a printed statement comes back, ->> prints as itself.
  bool json_text_raw = false;

  // Bounds recursion. Admission already limits tree depth; this is the backstop
  // that turns a broken invariant into an error instead of a stack overflow.
  class Nest {
   public:
    explicit Nest(Printer& p);
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    bool ok() const { return !p_.failed(); }

   private:
    Printer& p_;
  };

 private:
  Dialect dialect_;
  std::string out_;
  std::optional<Error> error_;
  int depth_ = 0;
};

}  // namespace qg::render::detail
