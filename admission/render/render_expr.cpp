// Expressions. SQLite and PostgreSQL rank operators differently (`||`, IS,
// NOT, comparisons), so nothing here relies on precedence: every composite
// operand is parenthesised, which both grammars read as exactly the tree.
#include <algorithm>
#include <string>
#include <string_view>
#include <variant>

#include "admission/render/printer.hpp"

namespace qg::render::detail {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view skip_digits(std::string_view s) {
  while (!s.empty() && is_digit(s.front())) s.remove_prefix(1);
  return s;
}

// `-?[0-9]+`. The text goes into the statement verbatim, so it is checked to
// be a number and nothing else.
bool is_integer_text(std::string_view s) {
  if (s.starts_with('-')) s.remove_prefix(1);
  return !s.empty() && skip_digits(s).empty();
}

// `-?(digits[.digits*] | .digits)([eE][+-]?digits)?`, the forms both grammars read as one number.
bool is_numeric_text(std::string_view s) {
  if (s.starts_with('-')) s.remove_prefix(1);
  const std::size_t before = s.size();
  s = skip_digits(s);
  bool digits = s.size() != before;
  if (s.starts_with('.')) {
    s.remove_prefix(1);
    const std::size_t after_point = s.size();
    s = skip_digits(s);
    digits = digits || s.size() != after_point;
  }
  if (!digits) return false;
  if (s.starts_with('e') || s.starts_with('E')) {
    s.remove_prefix(1);
    if (s.starts_with('+') || s.starts_with('-')) s.remove_prefix(1);
    if (s.empty() || !is_digit(s.front())) return false;
    s = skip_digits(s);
  }
  return s.empty();
}

// Operator text is printed verbatim between spaces, so it must be made of
// operator characters only and must not open a comment ("--", "/*").
bool is_operator_text(std::string_view op) {
  constexpr std::string_view kChars = "+-*/<>=~!@#%^&|`?";
  return !op.empty() && op.size() <= 63 &&
         std::all_of(op.begin(), op.end(), [&](char c) { return kChars.find(c) != std::string_view::npos; }) &&
         op.find("--") == std::string_view::npos && op.find("/*") == std::string_view::npos;
}

// Composite nodes need parentheses as operands. Function-call syntax (CAST,
// COALESCE, NULLIF, CASE ... END, f(...)) and a scalar subquery delimit
// themselves. A negative number literal is left bare: in both grammars unary
// minus binds tighter than every binary operator printed here, and
// PostgreSQL folds it into the constant, so `a - -1` reads back exactly.
bool is_composite(const ast::Expr& e) {
  return std::visit(Overloaded{
                        [](const ast::Operator&) { return true; },
                        [](const ast::BoolOp&) { return true; },
                        [](const ast::NullTest&) { return true; },
                        [](const ast::BoolTest&) { return true; },
                        [](const ast::DistinctFrom&) { return true; },
                        [](const ast::InList&) { return true; },
                        [](const ast::Between&) { return true; },
                        [](const ast::Like&) { return true; },
                        [](const ast::SubLink& s) { return s.kind != ast::SubLinkKind::Scalar; },
                        [](const auto&) { return false; },
                    },
                    e.node);
}

struct ExprPrinter {
  Printer& p;

  void operator()(const ast::ColumnRef& c) const {
    if (!c.table.empty()) {
      p.identifier(c.table);
      p.word(".");
    }
    if (c.star) return p.word("*");
    p.identifier(p.sqlite() && !c.engine_column.empty() ? c.engine_column : c.column);
  }

  void operator()(const ast::Literal& l) const {
    switch (l.kind) {
      case ast::LiteralKind::Integer:
        if (!is_integer_text(l.text)) return p.fail("an integer literal that is not a whole number");
        return p.word(l.text);
      case ast::LiteralKind::Numeric:
        if (!is_numeric_text(l.text)) return p.fail("a numeric literal that is not a number");
        return p.word(l.text);
      case ast::LiteralKind::String:
        return p.string_literal(l.text);
      case ast::LiteralKind::Boolean:
        if (l.text == "true") return p.word("TRUE");
        if (l.text == "false") return p.word("FALSE");
        return p.fail("a boolean literal other than true or false");
      case ast::LiteralKind::Null:
        return p.word("NULL");
    }
  }

  void operator()(const ast::FuncCall& f) const { p.func_call(f); }

  // Binary operators both grammars put on one precedence level, left-associative.
  static bool same_level(std::string_view a, std::string_view b) {
    auto level = [](std::string_view op) {
      if (op == "+" || op == "-") return 1;
      if (op == "*" || op == "/" || op == "%") return 2;
      if (op == "||") return 3;
      return 0;
    };
    return level(a) != 0 && level(a) == level(b);
  }

  // PostgreSQL's ->> answers text: a JSON number as its digits, true/false as
  // 'true'/'false'. SQLite's answers the number, or 1/0, which then compare,
  // sort and aggregate as numbers (max() of '200' and '1633' is '200' on
  // PostgreSQL). Printed for SQLite by the JSON type of the value (issue #12).
  // Left as SQLite prints them: objects and arrays (minified, where jsonb puts a
  // space after ':' and ','), and a real written with trailing zeros or an
  // exponent (1.50 prints 1.5 on SQLite, 1.50 on PostgreSQL).
  void json_text_on_sqlite(const ast::Operator& o) const {
    std::string path;
    if (const auto* l = std::get_if<ast::Literal>(&o.right->node)) {
      if (l->kind == ast::LiteralKind::String && l->text.starts_with('$')) path = l->text;
      if (l->kind == ast::LiteralKind::Integer && !l->text.starts_with('-')) path = "$[" + l->text + "]";
    }
    if (path.empty()) return p.fail("a JSON ->> whose right side is no path or array index");
    auto arrow = [&](std::string_view op) {
      p.operand(**o.left);
      p.word(" ");
      p.word(op);
      p.word(" ");
      p.operand(*o.right);
    };
    p.word("CASE json_type(");
    p.expr(**o.left);
    p.word(", ");
    p.string_literal(path);
    p.word(") WHEN 'integer' THEN CAST(");
    arrow("->>");
    p.word(" AS TEXT) WHEN 'real' THEN CAST(");
    arrow("->>");
    p.word(" AS TEXT) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE ");
    arrow("->>");
    p.word(" END");
  }

  void operator()(const ast::Operator& o) const {
    if (!is_operator_text(o.op)) return p.fail("an operator that is not made of operator characters");
    if (p.sqlite() && o.op == "->>" && o.left && !p.json_text_raw) return json_text_on_sqlite(o);
    if (o.left) {
      // A left-deep chain of one precedence level (a - b + c, a * b / c, a || b || c)
      // groups the same way in both grammars, so it prints flat: SQLite's parser
      // overflows on a few dozen nested parentheses, not on a long flat chain.
      const auto* inner = std::get_if<ast::Operator>(&(*o.left)->node);
      if (inner && inner->left && same_level(inner->op, o.op))
        p.expr(**o.left);
      else
        p.operand(**o.left);
      p.word(" ");
    }
    // Always a space after the operator: "- -1", never "--1", which is a comment.
    p.word(o.op);
    p.word(" ");
    p.operand(*o.right);
  }

  void operator()(const ast::BoolOp& b) const {
    if (b.kind == ast::BoolOpKind::Not) {
      if (b.args.size() != 1) return p.fail("NOT with other than one operand");
      p.word("NOT ");
      return p.operand(b.args.front());
    }
    if (b.args.size() < 2) return p.fail("AND/OR with fewer than two operands");
    const std::string_view word = b.kind == ast::BoolOpKind::And ? " AND " : " OR ";
    // SQLite parses a flat chain as a left-deep tree and refuses trees deeper than
    // 200; AND and OR are associative, so long chains print as a balanced tree.
    if (p.sqlite() && b.args.size() > kFlatChain) return balanced(b.args, 0, b.args.size(), word);
    p.list(
        b.args, [&](const ast::Expr& e) { p.operand(e); }, word);
  }

  static constexpr std::size_t kFlatChain = 16;

  void balanced(const std::vector<ast::Expr>& args, std::size_t from, std::size_t to, std::string_view word) const {
    if (to - from == 1) return p.operand(args[from]);
    const std::size_t mid = from + (to - from) / 2;
    p.word("(");
    balanced(args, from, mid, word);
    p.word(word);
    balanced(args, mid, to, word);
    p.word(")");
  }

  void operator()(const ast::NullTest& t) const {
    p.operand(*t.arg);
    p.word(t.negated ? " IS NOT NULL" : " IS NULL");
  }

  void operator()(const ast::BoolTest& t) const {
    using K = ast::BoolTestKind;
    p.operand(*t.arg);
    switch (t.kind) {
      case K::IsTrue:
        return p.word(" IS TRUE");
      case K::IsNotTrue:
        return p.word(" IS NOT TRUE");
      case K::IsFalse:
        return p.word(" IS FALSE");
      case K::IsNotFalse:
        return p.word(" IS NOT FALSE");
      // SQLite has no UNKNOWN keyword; for a truth value "unknown" is NULL, the same test.
      case K::IsUnknown:
        return p.word(p.sqlite() ? " IS NULL" : " IS UNKNOWN");
      case K::IsNotUnknown:
        return p.word(p.sqlite() ? " IS NOT NULL" : " IS NOT UNKNOWN");
    }
  }

  // SQLite (>= 3.39, which RIGHT/FULL JOIN need too) spells it the same way.
  // Note SQLite reads `x IS NOT DISTINCT FROM TRUE` as the truth test `x IS TRUE`.
  void operator()(const ast::DistinctFrom& d) const {
    p.operand(*d.left);
    p.word(d.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
    p.operand(*d.right);
  }

  void operator()(const ast::NullIf& n) const {
    p.word("NULLIF(");
    p.expr(*n.left);
    p.word(", ");
    p.expr(*n.right);
    p.word(")");
  }

  void operator()(const ast::InList& in) const {
    if (in.items.empty()) return p.fail("IN with an empty list");
    p.operand(*in.arg);
    p.word(in.negated ? " NOT IN (" : " IN (");
    p.expr_list(in.items);
    p.word(")");
  }

  void operator()(const ast::Between& b) const {
    if (b.symmetric) p.require(Construct::BetweenSymmetric);
    p.operand(*b.arg);
    p.word(b.negated ? " NOT BETWEEN " : " BETWEEN ");
    if (b.symmetric) p.word("SYMMETRIC ");
    p.operand(*b.low);
    p.word(" AND ");
    p.operand(*b.high);
  }

  void operator()(const ast::Like& l) const {
    std::string_view words = "LIKE";
    if (l.kind == ast::LikeKind::ILike) {
      p.require(Construct::ILike);
      words = "ILIKE";
    } else if (l.kind == ast::LikeKind::Similar) {
      p.require(Construct::SimilarTo);
      words = "SIMILAR TO";
    }
    p.operand(*l.arg);
    p.word(l.negated ? " NOT " : " ");
    p.word(words);
    p.word(" ");
    p.operand(*l.pattern);
    if (l.escape) {
      p.word(" ESCAPE ");
      p.operand(**l.escape);
    }
  }

  // The CASE json_text_on_sqlite prints, read back (a printed statement sent again).
  static bool json_text_case(const ast::Case& c) {
    if (!c.operand || c.whens.size() != 4) return false;
    const auto* f = std::get_if<ast::FuncCall>(&(*c.operand)->node);
    const auto* first = std::get_if<ast::Literal>(&c.whens.front().condition->node);
    return f && f->name == "json_type" && f->args.size() == 2 && first && first->text == "integer" &&
           std::holds_alternative<ast::Cast>(c.whens.front().result->node);
  }

  void operator()(const ast::Case& c) const {
    if (c.whens.empty()) return p.fail("CASE without WHEN");
    if (p.sqlite() && !p.json_text_raw && json_text_case(c)) {
      p.json_text_raw = true;
      (*this)(c);
      p.json_text_raw = false;
      return;
    }
    p.word("CASE");
    if (c.operand) {
      p.word(" ");
      p.expr(**c.operand);
    }
    for (const ast::CaseWhen& w : c.whens) {
      p.word(" WHEN ");
      p.expr(*w.condition);
      p.word(" THEN ");
      p.expr(*w.result);
    }
    if (c.otherwise) {
      p.word(" ELSE ");
      p.expr(**c.otherwise);
    }
    p.word(" END");
  }

  void operator()(const ast::Coalesce& c) const {
    if (c.args.empty()) return p.fail("COALESCE without arguments");
    p.word("COALESCE(");
    p.expr_list(c.args);
    p.word(")");
  }

  void operator()(const ast::MinMax& m) const {
    if (m.args.empty()) return p.fail("GREATEST/LEAST without arguments");
    p.require(m.greatest ? Construct::Greatest : Construct::Least);
    p.word(m.greatest ? "GREATEST(" : "LEAST(");
    p.expr_list(m.args);
    p.word(")");
  }

  void operator()(const ast::Cast& c) const {
    if (c.type.name.empty()) return p.fail("a cast to an unnamed type");
    p.word("CAST(");
    p.expr(*c.arg);
    p.word(" AS ");
    p.word(render_type(c.type, p.dialect()));
    p.word(")");
  }

  void operator()(const ast::SubLink& s) const {
    using K = ast::SubLinkKind;
    switch (s.kind) {
      case K::Exists:
        p.word("EXISTS ");
        break;
      case K::Scalar:
        break;
      case K::In:
        if (!s.test) return p.fail("IN (subquery) without a left side");
        p.operand(**s.test);
        p.word(" IN ");
        break;
      case K::Any:
      case K::All:
        p.require(s.kind == K::Any ? Construct::AnySubquery : Construct::AllSubquery);
        if (!s.test) return p.fail("ANY/ALL (subquery) without a left side");
        if (!is_operator_text(s.op)) return p.fail("ANY/ALL with an operator that is not made of operator characters");
        p.operand(**s.test);
        p.word(" ");
        p.word(s.op);
        p.word(s.kind == K::Any ? " ANY " : " ALL ");
        break;
    }
    p.word("(");
    p.query(*s.query);
    p.word(")");
  }

  // Bound by index when the statement runs (exec::RunOptions::params); one name, one index.
  void operator()(const ast::Param& v) const {
    if (v.index < 1) return p.fail("a parameter without its position");
    p.word((p.sqlite() ? "?" : "$") + std::to_string(v.index));
  }

  void operator()(const ast::SqlValue& v) const {
    using K = ast::SqlValueKind;
    switch (v.kind) {
      case K::CurrentDate:
        return p.word("CURRENT_DATE");
      case K::CurrentTime:
        return p.word("CURRENT_TIME");
      case K::CurrentTimestamp:
        return p.word("CURRENT_TIMESTAMP");
      case K::LocalTime:
        p.require(Construct::LocalTime);
        return p.word("LOCALTIME");
      case K::LocalTimestamp:
        p.require(Construct::LocalTimestamp);
        return p.word("LOCALTIMESTAMP");
    }
  }
};

}  // namespace

void Printer::expr(const ast::Expr& e) {
  Nest nest(*this);
  if (!nest.ok()) return;
  std::visit(ExprPrinter{*this}, e.node);
}

void Printer::operand(const ast::Expr& e) {
  if (!is_composite(e)) return expr(e);
  // SQLite prints x ->> p as CASE ... END (json_text_on_sqlite), which delimits itself.
  if (const auto* o = std::get_if<ast::Operator>(&e.node); o && sqlite() && !json_text_raw && o->op == "->>" && o->left)
    return expr(e);
  word("(");
  expr(e);
  word(")");
}

}  // namespace qg::render::detail
