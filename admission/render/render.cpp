// Public entry points: one Printer per statement, so rendering is a pure function of (tree, dialect).
#include "admission/render/render.hpp"

#include "admission/render/printer.hpp"

namespace qg::render {

Result<std::string> render(const ast::Query& query, Dialect dialect) {
  detail::Printer printer(dialect);
  printer.query(query);
  return std::move(printer).finish();
}

Result<std::string> render_expr(const ast::Expr& expr, Dialect dialect) {
  detail::Printer printer(dialect);
  printer.expr(expr);
  return std::move(printer).finish();
}

}  // namespace qg::render
