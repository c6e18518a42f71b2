// Function calls and what hangs off them: aggregate modifiers, FILTER,
// WITHIN GROUP, OVER and window frames; and ORDER BY item lists, which both
// aggregates and windows share with queries.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "admission/render/printer.hpp"

namespace qg::render::detail {
namespace {

std::string_view frame_mode_words(ast::FrameMode mode) {
  switch (mode) {
    case ast::FrameMode::Range:
      return "RANGE";
    case ast::FrameMode::Rows:
      return "ROWS";
    case ast::FrameMode::Groups:
      return "GROUPS";
    case ast::FrameMode::Default:
      break;
  }
  return "";
}

void frame_bound(Printer& p, const ast::FrameBound& bound) {
  using K = ast::FrameBoundKind;
  switch (bound.kind) {
    case K::UnboundedPreceding:
      return p.word("UNBOUNDED PRECEDING");
    case K::CurrentRow:
      return p.word("CURRENT ROW");
    case K::UnboundedFollowing:
      return p.word("UNBOUNDED FOLLOWING");
    case K::Preceding:
    case K::Following:
      if (!bound.offset) return p.fail("a PRECEDING/FOLLOWING frame bound without an offset");
      // The offset is an operand of the bound: `(1 + 1) PRECEDING`. A numeric literal as written even on SQLite,
      // which takes only a constant there (pg_numeric_literal('0.7') PRECEDING was its error "frame starting
      // offset must be a non-negative number"; outside tester s16b).
      if (const auto* l = std::get_if<ast::Literal>(&(*bound.offset)->node);
          p.sqlite() && l && l->kind == ast::LiteralKind::Numeric && is_numeric_literal_text(l->text))
        p.word(l->text);
      else
        p.operand(**bound.offset);
      return p.word(bound.kind == K::Preceding ? " PRECEDING" : " FOLLOWING");
  }
}

void frame(Printer& p, const ast::WindowFrame& f) {
  if (f.mode == ast::FrameMode::Default) {
    if (f.end || f.exclusion != ast::FrameExclusion::None) p.fail("a frame bound or EXCLUDE without ROWS/RANGE/GROUPS");
    return;
  }
  p.word(frame_mode_words(f.mode));
  p.word(" ");
  if (f.end) {
    p.word("BETWEEN ");
    frame_bound(p, f.start);
    p.word(" AND ");
    frame_bound(p, *f.end);
  } else {
    frame_bound(p, f.start);
  }
  switch (f.exclusion) {
    case ast::FrameExclusion::None:
      break;
    case ast::FrameExclusion::CurrentRow:
      p.word(" EXCLUDE CURRENT ROW");
      break;
    case ast::FrameExclusion::Group:
      p.word(" EXCLUDE GROUP");
      break;
    case ast::FrameExclusion::Ties:
      p.word(" EXCLUDE TIES");
      break;
  }
}

// `OVER w` names a window and adds nothing; both grammars accept that short form.
bool only_names_a_window(const ast::WindowSpec& w) {
  return !w.base_name.empty() && w.partition_by.empty() && w.order_by.empty() &&
         w.frame.mode == ast::FrameMode::Default;
}

// A lower bound the value of `e` is known to have: a whole-number literal, or
// SQLite's max(x, k) with a literal k (NULL stays NULL, which substr keeps).
std::optional<std::int64_t> lower_bound(const ast::Expr& e) {
  if (auto v = ast::integer_value(e)) return v;
  const auto* f = std::get_if<ast::FuncCall>(&e.node);
  if (!f || f->name != "max" || f->args.size() != 2 || f->star || f->distinct || f->over || f->filter ||
      !f->order_by.empty())
    return std::nullopt;
  return ast::integer_value(f->args[1]);
}

// substr(s, a[, n]) on SQLite with PostgreSQL's meaning. PostgreSQL takes the
// characters at positions a .. a+n-1 that exist (position 1 is the first), so a
// start below 1 only shortens the count; SQLite counts a negative start from the
// end, treats 0 as "before the first", and reads a negative count backwards.
// Rewritten to substr(s, max(a, 1), max(pg_int8(a + n - max(a, 1)), 0)), folded when a
// and n are literals. A start known to be 1 or more with a count known to be 0
// or more means the same on both and stays as written, so printing the printed
// text again changes nothing. (A negative literal count, which PostgreSQL
// refuses, was refused at admission; one computed at run time gives '' here.)
std::optional<ast::FuncCall> sqlite_substr(const ast::FuncCall& f) {
  auto integer = [](std::int64_t v) {
    return ast::make_expr(ast::Literal{ast::LiteralKind::Integer, std::to_string(v)});
  };
  auto at_least = [&](ast::Expr e, std::int64_t k) {
    ast::FuncCall m;
    m.name = "max";
    m.args = {std::move(e), integer(k)};
    return ast::make_expr(std::move(m));
  };
  // Integer arithmetic printed for SQLite passes through pg_int8, as admission wraps what a caller writes
  // (admit_expr.cpp, wrap_int8): the printed text is then already in the form admitting it again gives.
  auto op = [](std::string o, ast::Expr l, ast::Expr r) {
    ast::FuncCall checked;
    checked.name = "pg_int8";
    checked.args.push_back(ast::make_expr(ast::Operator{std::move(o), std::move(l), std::move(r)}));
    return ast::make_expr(std::move(checked));
  };
  // The inner + of (a + n) - max(a, 1) is checked by the pg_int8 around the - (one check per chain).
  auto plus = [](ast::Expr l, ast::Expr r) { return ast::make_expr(ast::Operator{"+", std::move(l), std::move(r)}); };
  const ast::Expr& start = f.args[1];
  const auto a = ast::integer_value(start);
  const auto a_min = lower_bound(start);
  const bool start_ok = a_min && *a_min >= 1;
  if (f.args.size() == 3) {
    const auto n_min = lower_bound(f.args[2]);
    if (start_ok && n_min && *n_min >= 0) return std::nullopt;
  } else if (start_ok) {
    return std::nullopt;
  }
  ast::FuncCall out;
  out.name = "substr";
  out.args.push_back(f.args[0]);
  out.args.push_back(start_ok ? start : a ? integer(1) : at_least(start, 1));
  if (f.args.size() == 2) return out;
  const ast::Expr& count = f.args[2];
  const auto n = ast::integer_value(count);
  if (a && n)  // literals (within int32: admission refused others)
    out.args.push_back(integer(std::max<std::int64_t>(*a + *n - std::max<std::int64_t>(*a, 1), 0)));
  else if (start_ok || a)  // from max(a, 1): n - (1 - a) characters when a < 1
    out.args.push_back(at_least(a && *a < 1 ? op("-", count, integer(1 - *a)) : count, 0));
  else
    out.args.push_back(at_least(op("-", plus(start, count), at_least(start, 1)), 0));
  return out;
}

}  // namespace

void Printer::func_call(const ast::FuncCall& f) {
  if (f.sql_syntax) {
    // Only PostgreSQL admits these (capability table); the converter checked
    // the shapes: extract('field', x) with a lower-case word, position(b, a),
    // timezone(z, x) for x AT TIME ZONE z; GROUPING(a, ...) (only PostgreSQL admits it: SQLite gets constants).
    if (f.name == "grouping") {
      if (f.args.empty() || f.star || f.distinct || f.filter || f.over || !f.order_by.empty())
        return fail("GROUPING() without arguments or with aggregate modifiers");
      word("GROUPING(");
      expr_list(f.args);
      return word(")");
    }
    if (f.name == "pg_numeric_collate") {  // SQLite only (capability table): x COLLATE pg_numeric
      if (f.args.size() != 1) return fail("COLLATE pg_numeric of other than one operand");
      word("(");
      expr(f.args.front());
      return word(") COLLATE pg_numeric");
    }
    if (f.name == "pg_interval_collate") {  // SQLite only (capability table): x COLLATE pg_interval
      if (f.args.size() != 1) return fail("COLLATE pg_interval of other than one operand");
      word("(");
      expr(f.args.front());
      return word(") COLLATE pg_interval");
    }
    if (f.args.size() != 2) return fail("a keyword-form call with other than two arguments");
    if (f.name == "extract") {
      const auto* field = std::get_if<ast::Literal>(&f.args[0].node);
      if (field == nullptr) return fail("EXTRACT without a field word");
      word("EXTRACT(" + field->text + " FROM ");
      expr(f.args[1]);
      return word(")");
    }
    if (f.name == "timezone") {
      word("(");
      operand(f.args[1]);
      word(" AT TIME ZONE ");
      operand(f.args[0]);
      return word(")");
    }
    if (f.name == "position") {
      word("POSITION(");
      operand(f.args[1]);
      word(" IN ");
      operand(f.args[0]);
      return word(")");
    }
    return fail("the keyword form of " + f.name + "()");
  }
  // trim(x[, chars]) is SQLite's spelling; PostgreSQL has no plain trim() and
  // reads its keyword form as the same call (btrim), so that is what it gets.
  if (f.name == "trim" && dialect() == Dialect::Postgres && !f.star && !f.distinct && f.order_by.empty() && !f.filter &&
      !f.over && (f.args.size() == 1 || f.args.size() == 2)) {
    word(f.args.size() == 2 ? "TRIM(BOTH " : "TRIM(");
    if (f.args.size() == 2) {
      expr(f.args[1]);
      word(" FROM ");
    }
    expr(f.args[0]);
    return word(")");
  }
  if ((f.name == "substr" || f.name == "substring") && sqlite() && !f.star && !f.distinct && f.order_by.empty() &&
      !f.filter && !f.over && f.within_group.empty() && (f.args.size() == 2 || f.args.size() == 3))
    if (auto exact = sqlite_substr(f)) return generic_call(*exact);
  generic_call(f);
}

void Printer::generic_call(const ast::FuncCall& f) {
  identifier(f.name);
  word("(");
  if (f.star) {
    if (!f.args.empty() || f.distinct) return fail("a function call with both * and arguments");
    word("*");
  } else {
    if (f.distinct) {
      if (f.args.empty()) return fail("DISTINCT without arguments");
      word("DISTINCT ");
    }
    expr_list(f.args);
  }
  if (!f.order_by.empty()) {
    require(Construct::AggregateOrderBy);
    word(" ORDER BY ");
    sort_items(f.order_by);
  }
  word(")");
  // The PostgreSQL grammar's order: WITHIN GROUP, then FILTER, then OVER.
  if (!f.within_group.empty()) {
    require(Construct::WithinGroup);
    word(" WITHIN GROUP (ORDER BY ");
    sort_items(f.within_group);
    word(")");
  }
  if (f.filter) {
    word(" FILTER (WHERE ");
    expr(**f.filter);
    word(")");
  }
  if (f.over) {
    word(" OVER ");
    if (only_names_a_window(*f.over)) return identifier(f.over->base_name);
    window_spec(*f.over);
  }
}

void Printer::window_spec(const ast::WindowSpec& w) {
  word("(");
  const std::size_t start = out_.size();
  auto part = [&] {  // one space between the parts that are present
    if (out_.size() != start) word(" ");
  };
  if (!w.base_name.empty()) identifier(w.base_name);
  if (!w.partition_by.empty()) {
    part();
    word("PARTITION BY ");
    expr_list(w.partition_by);
  }
  if (!w.order_by.empty()) {
    part();
    word("ORDER BY ");
    sort_items(w.order_by);
  }
  if (w.frame.mode != ast::FrameMode::Default) part();
  frame(*this, w.frame);
  word(")");
}

void Printer::sort_items(const std::vector<ast::SortItem>& items) {
  list(items, [&](const ast::SortItem& s) {
    expr(*s.expr);
    switch (s.direction) {
      case ast::SortDirection::Default:
        break;
      case ast::SortDirection::Asc:
        word(" ASC");
        break;
      case ast::SortDirection::Desc:
        word(" DESC");
        break;
    }
    switch (s.nulls) {
      case ast::NullsOrder::Default:
        break;
      case ast::NullsOrder::First:
        word(" NULLS FIRST");
        break;
      case ast::NullsOrder::Last:
        word(" NULLS LAST");
        break;
    }
  });
}

}  // namespace qg::render::detail
