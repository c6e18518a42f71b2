// Expression nodes: columns, constants, operators, predicates, functions,
// CASE/COALESCE/NULLIF/GREATEST/LEAST, casts and subquery expressions.
#include <algorithm>
#include <cctype>

#include "admission/convert/convert_internal.hpp"

namespace qg::convert::detail {
namespace {

std::optional<int> pos(int location) {
  return location >= 0 ? std::optional<int>(location) : std::nullopt;
}

// "name" lists of one operator; OPERATOR(schema.op) has two and is refused.
std::optional<std::string> single_name(object o, std::string_view key) {
  auto names = list_field(o, key);
  if (!names || names->size() != 1) return std::nullopt;
  auto s = string_node(names->at(0));
  if (!s) return std::nullopt;
  return std::string(*s);
}

ast::Box<ast::Expr> box(ast::Expr e) {
  return ast::Box<ast::Expr>(std::move(e));
}

}  // namespace

Result<std::vector<ast::Expr>> Converter::expr_list(object o, std::string_view key) {
  std::vector<ast::Expr> out;
  if (auto items = list_field(o, key))
    for (element e : *items) {
      auto x = expr(e);
      if (!x) return std::move(x).error();
      out.push_back(std::move(x).value());
    }
  return out;
}

Result<ast::Expr> Converter::column_ref(object o, int loc) {
  auto fields = list_field(o, "fields");
  if (!fields || fields->size() == 0) return make_error(ErrorCode::Internal, "parse tree: empty ColumnRef");
  std::vector<std::string> parts;
  bool star = false;
  for (element f : *fields) {
    if (auto s = string_node(f)) {
      parts.emplace_back(*s);
      continue;
    }
    auto n = as_node(f);
    if (n && n->kind == "A_Star") {
      star = true;
      continue;
    }
    return unsupported("this column reference", loc);
  }
  const std::size_t names = parts.size();
  if (names > (star ? 1u : 2u)) {
    std::string written;
    for (auto& p : parts) written += (written.empty() ? "" : ".") + p;
    if (star) written += ".*";
    const std::string last_two = star ? parts.back() + ".*" : parts[names - 2] + "." + parts[names - 1];
    return make_error(ErrorCode::ValidationQualifiedName,
                      "'" + written +
                          "' names a schema or database: only the allowlisted tables of this database "
                          "are visible, by their bare names",
                      "FIX: write " + last_two + ".", pos(loc));
  }
  ast::ColumnRef ref;
  ref.star = star;
  if (star) {
    if (names == 1) ref.table = parts[0];
  } else if (names == 2) {
    ref.table = parts[0];
    ref.column = parts[1];
  } else {
    ref.column = parts[0];
  }
  return ast::make_expr(std::move(ref), loc);
}

Result<ast::Expr> Converter::a_const(object o, int loc) {
  ast::Literal lit;
  if (bool_field(o, "isnull")) {
    lit.kind = ast::LiteralKind::Null;
  } else if (auto iv = field(o, "ival")) {
    object io;
    if (iv->get_object().get(io)) return make_error(ErrorCode::Internal, "parse tree: bad ival");
    lit.kind = ast::LiteralKind::Integer;
    if (field(io, "ival")) {
      lit.text = std::to_string(int_field(io, "ival"));
    } else {
      // Zero *and* every negative constant arrive as {} (libpg_query 15 JSON); read the digits written.
      auto v = integer_at(loc);
      if (!v) return std::move(v).error();
      lit.text = std::to_string(*v);
    }
  } else if (auto fv = field(o, "fval")) {
    object fo;
    if (fv->get_object().get(fo)) return make_error(ErrorCode::Internal, "parse tree: bad fval");
    lit.kind = ast::LiteralKind::Numeric;
    lit.text = std::string(string_field(fo, "fval"));
  } else if (auto sv = field(o, "sval")) {
    object so;
    if (sv->get_object().get(so)) return make_error(ErrorCode::Internal, "parse tree: bad sval");
    lit.kind = ast::LiteralKind::String;
    lit.text = std::string(string_field(so, "sval"));
  } else if (auto bv = field(o, "boolval")) {
    object bo;
    if (bv->get_object().get(bo)) return make_error(ErrorCode::Internal, "parse tree: bad boolval");
    lit.kind = ast::LiteralKind::Boolean;
    lit.text = bool_field(bo, "boolval") ? "true" : "false";
  } else if (field(o, "bsval")) {
    return unsupported("a bit-string literal (B'...' / X'...')", loc,
                       "FIX: write the value as a number or a plain string literal.");
  } else {
    return make_error(ErrorCode::Internal, "parse tree: A_Const without a value");
  }
  return ast::make_expr(std::move(lit), loc);
}

Result<ast::Expr> Converter::a_expr(object o, int loc) {
  const auto kind = string_field(o, "kind");
  auto lexpr_e = field(o, "lexpr");
  auto rexpr_e = field(o, "rexpr");
  auto convert_side = [&](std::optional<element> e) -> Result<std::optional<ast::Expr>> {
    if (!e) return std::optional<ast::Expr>();
    auto x = expr(*e);
    if (!x) return std::move(x).error();
    return std::optional<ast::Expr>(std::move(x).value());
  };
  auto op = single_name(o, "name");
  if (!op)
    return unsupported("a schema-qualified operator OPERATOR(...)", loc,
                       "FIX: write the plain operator (=, <, +, ...).");

  // IN lists and BETWEEN carry a List on the right; convert it item by item.
  if (kind == "AEXPR_IN" || kind.starts_with("AEXPR_BETWEEN") || kind.starts_with("AEXPR_NOT_BETWEEN")) {
    auto left = convert_side(lexpr_e);
    if (!left) return std::move(left).error();
    if (!left.value() || !rexpr_e) return make_error(ErrorCode::Internal, "parse tree: incomplete IN/BETWEEN");
    auto list = as_node(*rexpr_e);
    if (!list || list->kind != "List") return make_error(ErrorCode::Internal, "parse tree: IN/BETWEEN without list");
    auto items = expr_list(list->fields, "items");
    if (!items) return std::move(items).error();
    if (kind == "AEXPR_IN") {
      ast::InList in;
      in.arg = box(std::move(*left.value()));
      in.items = std::move(items).value();
      in.negated = *op == "<>";
      return ast::make_expr(std::move(in), loc);
    }
    if (items->size() != 2) return make_error(ErrorCode::Internal, "parse tree: BETWEEN needs two bounds");
    ast::Between b;
    b.arg = box(std::move(*left.value()));
    b.low = box(std::move((*items)[0]));
    b.high = box(std::move((*items)[1]));
    b.negated = kind.starts_with("AEXPR_NOT_BETWEEN");
    b.symmetric = kind.ends_with("_SYM");
    return ast::make_expr(std::move(b), loc);
  }

  // x = ANY(ARRAY[a, b]) is x IN (a, b), and x <> ALL(ARRAY[a, b]) is x NOT IN (a, b), NULLs included (issue
  // #12: the array spelling models write, printed as the IN list both engines run). Other operators and arrays
  // that are not written out element by element stay refused below.
  if ((kind == "AEXPR_OP_ANY" && *op == "=") || (kind == "AEXPR_OP_ALL" && *op == "<>")) {
    if (auto array = rexpr_e ? as_node(*rexpr_e) : std::nullopt; array && array->kind == "A_ArrayExpr") {
      auto items = expr_list(array->fields, "elements");
      if (!items) return std::move(items).error();
      if (!items->empty()) {
        auto left = convert_side(lexpr_e);
        if (!left) return std::move(left).error();
        if (!left.value()) return make_error(ErrorCode::Internal, "parse tree: ANY/ALL without left side");
        ast::InList in;
        in.arg = box(std::move(*left.value()));
        in.items = std::move(items).value();
        in.negated = kind == "AEXPR_OP_ALL";
        return ast::make_expr(std::move(in), loc);
      }
    }
  }
  // x op ANY(ARRAY[a, b]) is (x op a) OR (x op b), and x op ALL(ARRAY[a, b]) is (x op a) AND (x op b), for the
  // comparisons and LIKE / ILIKE (~~, ~~*, and their negations): PostgreSQL's rule for ANY / ALL (true if any
  // comparison is true, else NULL if any is NULL, else false; ALL the other way round) is the three-valued OR /
  // AND of the comparisons, so both engines run the chain.
  static constexpr std::string_view kChained[] = {"=", "<>", "!=", "<", "<=", ">", ">=", "~~", "~~*", "!~~", "!~~*"};
  if ((kind == "AEXPR_OP_ANY" || kind == "AEXPR_OP_ALL") &&
      std::find(std::begin(kChained), std::end(kChained), *op) != std::end(kChained)) {
    if (auto array = rexpr_e ? as_node(*rexpr_e) : std::nullopt; array && array->kind == "A_ArrayExpr") {
      auto items = expr_list(array->fields, "elements");
      if (!items) return std::move(items).error();
      if (!items->empty()) {
        auto left = convert_side(lexpr_e);
        if (!left) return std::move(left).error();
        if (!left.value()) return make_error(ErrorCode::Internal, "parse tree: ANY/ALL without left side");
        ast::BoolOp chain;
        chain.kind = kind == "AEXPR_OP_ANY" ? ast::BoolOpKind::Or : ast::BoolOpKind::And;
        for (auto& item : *items) {
          const int at = item.location;
          if (op->find("~~") != std::string::npos) {
            ast::Like like;
            like.kind = op->find('*') != std::string::npos ? ast::LikeKind::ILike : ast::LikeKind::Like;
            like.negated = op->starts_with("!");
            like.arg = box(ast::Expr(*left.value()));
            like.pattern = box(std::move(item));
            chain.args.push_back(ast::make_expr(std::move(like), at));
          } else {
            ast::Operator cmp;
            cmp.op = *op == "!=" ? "<>" : *op;
            cmp.left = box(ast::Expr(*left.value()));
            cmp.right = box(std::move(item));
            chain.args.push_back(ast::make_expr(std::move(cmp), at));
          }
        }
        if (chain.args.size() == 1) return std::move(chain.args.front());
        return ast::make_expr(std::move(chain), loc);
      }
    }
  }

  auto left = convert_side(lexpr_e);
  if (!left) return std::move(left).error();

  if (kind == "AEXPR_LIKE" || kind == "AEXPR_ILIKE" || kind == "AEXPR_SIMILAR") {
    ast::Like like;
    like.kind = kind == "AEXPR_LIKE"    ? ast::LikeKind::Like
                : kind == "AEXPR_ILIKE" ? ast::LikeKind::ILike
                                        : ast::LikeKind::Similar;
    like.negated = op->starts_with("!");
    if (!left.value() || !rexpr_e) return make_error(ErrorCode::Internal, "parse tree: incomplete LIKE");
    like.arg = box(std::move(*left.value()));
    // ESCAPE (and every SIMILAR TO) arrives as pg_catalog.like_escape / similar_to_escape(pattern[, escape]).
    auto rn = as_node(*rexpr_e);
    if (rn && rn->kind == "FuncCall") {
      auto fname = list_field(rn->fields, "funcname");
      std::string last;
      if (fname)
        for (element f : *fname)
          if (auto s = string_node(f)) last = std::string(*s);
      if (last == "like_escape" || last == "similar_to_escape") {
        auto args = expr_list(rn->fields, "args");
        if (!args) return std::move(args).error();
        if (args->empty() || args->size() > 2) return make_error(ErrorCode::Internal, "parse tree: bad escape call");
        like.pattern = box(std::move((*args)[0]));
        if (args->size() == 2) like.escape = box(std::move((*args)[1]));
        return ast::make_expr(std::move(like), loc);
      }
    }
    auto right = convert_side(rexpr_e);
    if (!right) return std::move(right).error();
    like.pattern = box(std::move(*right.value()));
    return ast::make_expr(std::move(like), loc);
  }

  auto right = convert_side(rexpr_e);
  if (!right) return std::move(right).error();
  if (!right.value()) return make_error(ErrorCode::Internal, "parse tree: operator without right side");

  if (kind == "AEXPR_OP") {
    ast::Operator o2;
    o2.op = *op;
    if (left.value()) o2.left = box(std::move(*left.value()));
    o2.right = box(std::move(*right.value()));
    return ast::make_expr(std::move(o2), loc);
  }
  if (kind == "AEXPR_DISTINCT" || kind == "AEXPR_NOT_DISTINCT") {
    ast::DistinctFrom d;
    d.left = box(std::move(*left.value()));
    d.right = box(std::move(*right.value()));
    d.negated = kind == "AEXPR_NOT_DISTINCT";
    return ast::make_expr(std::move(d), loc);
  }
  if (kind == "AEXPR_NULLIF") {
    ast::NullIf n;
    n.left = box(std::move(*left.value()));
    n.right = box(std::move(*right.value()));
    return ast::make_expr(std::move(n), loc);
  }
  if (kind == "AEXPR_OP_ANY" || kind == "AEXPR_OP_ALL")
    return unsupported(std::string("x ") + *op + (kind == "AEXPR_OP_ANY" ? " ANY" : " ALL") + " (array)", loc,
                       "FIX: write the array out element by element, x " + *op +
                           (kind == "AEXPR_OP_ANY" ? " ANY" : " ALL") +
                           " (ARRAY[a, b, c]), or x IN (SELECT ...) for a subquery.");
  return unsupported("this operator form", loc);
}

Result<ast::Expr> Converter::func_call(object o, int loc) {
  if (auto s = only_fields(o,
                           {"funcname", "args", "agg_order", "agg_filter", "over", "agg_within_group", "agg_star",
                            "agg_distinct", "func_variadic", "funcformat", "location"},
                           "a function call", loc);
      !s)
    return s.error();
  auto names = list_field(o, "funcname");
  std::vector<std::string> parts;
  if (names)
    for (element f : *names)
      if (auto s = string_node(f)) parts.emplace_back(*s);
  if (parts.empty()) return make_error(ErrorCode::Internal, "parse tree: function without name");
  const bool sql_syntax = string_field(o, "funcformat") == "COERCE_SQL_SYNTAX";
  if (sql_syntax && parts.size() == 2 && parts[0] == "pg_catalog") {
    // Keyword forms with a plain-call equivalent that means the same on both engines:
    // TRIM([BOTH] c FROM x) is btrim(x, c), printed back as trim(x, c); TRIM(LEADING/TRAILING ...) is
    // ltrim/rtrim; SUBSTRING(x FROM n FOR m) with whole-number positions is substring(x, n, m).
    auto args = expr_list(o, "args");
    if (!args) return std::move(args).error();
    auto integer_literal = [](const ast::Expr& e) {
      const auto* lit = std::get_if<ast::Literal>(&e.node);
      return lit && lit->kind == ast::LiteralKind::Integer;
    };
    std::string plain;
    if (parts[1] == "btrim")
      plain = "trim";
    else if (parts[1] == "ltrim" || parts[1] == "rtrim")
      plain = parts[1];
    else if (parts[1] == "substring" && args->size() >= 2 &&
             std::all_of(args->begin() + 1, args->end(), integer_literal))
      plain = "substring";  // the plain call PostgreSQL names the column after
    if (!plain.empty()) {
      ast::FuncCall f;
      f.name = std::move(plain);
      f.args = std::move(args).value();
      return ast::make_expr(std::move(f), loc);
    }
    // EXTRACT(field FROM x) and POSITION(a IN b) keep their keyword form; the
    // field must be a bare word, as the grammar only lets one be written there.
    auto field_word = [](const ast::Expr& e) {
      const auto* lit = std::get_if<ast::Literal>(&e.node);
      return lit && lit->kind == ast::LiteralKind::String && !lit->text.empty() && lit->text.size() <= 32 &&
             std::all_of(lit->text.begin(), lit->text.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
    };
    // x AT TIME ZONE z is timezone(z, x), printed back in keyword form.
    if ((parts[1] == "extract" && args->size() == 2 && field_word(args->front())) ||
        (parts[1] == "position" && args->size() == 2) || (parts[1] == "timezone" && args->size() == 2)) {
      ast::FuncCall f;
      f.name = parts[1];
      f.args = std::move(args).value();
      f.sql_syntax = true;
      return ast::make_expr(std::move(f), loc);
    }
  }
  if (sql_syntax) {
    // EXTRACT(... FROM ...), SUBSTRING(... FROM ...), TRIM(BOTH ...), x AT TIME ZONE z, ...: the grammar
    // turned special syntax into a pg_catalog call we cannot yet print back faithfully.
    return make_error(ErrorCode::ValidationUnsupported,
                      "the SQL-standard syntax form of " + parts.back() + "(...) is not supported yet",
                      parts.back() == "extract"
                          ? "FIX: write date_part('field', x), e.g. date_part('hour', start_time)."
                          : "FIX: call the function with plain arguments, e.g. substr(x, 2, 3) instead of SUBSTRING(x "
                            "FROM 2 FOR 3).",
                      pos(loc));
  }
  if (parts.size() > 1) {
    std::string written;
    for (auto& p : parts) written += (written.empty() ? "" : ".") + p;
    return make_error(ErrorCode::ValidationQualifiedName,
                      "'" + written + "(...)' names a schema: functions are called by their bare names",
                      "FIX: write " + parts.back() + "(...).", pos(loc));
  }
  if (bool_field(o, "func_variadic"))
    return unsupported("VARIADIC arguments", loc, "FIX: pass the arguments one by one.");
  ast::FuncCall f;
  f.name = parts[0];
  auto args = expr_list(o, "args");
  if (!args) return std::move(args).error();
  f.args = std::move(args).value();
  f.star = bool_field(o, "agg_star");
  f.distinct = bool_field(o, "agg_distinct");
  auto order = sort_list(o, "agg_order");
  if (!order) return std::move(order).error();
  if (bool_field(o, "agg_within_group"))
    f.within_group = std::move(order).value();
  else
    f.order_by = std::move(order).value();
  if (auto filter = field(o, "agg_filter")) {
    auto x = expr(*filter);
    if (!x) return std::move(x).error();
    f.filter = box(std::move(x).value());
  }
  if (auto over = field(o, "over")) {
    object wo;
    if (over->get_object().get(wo)) return make_error(ErrorCode::Internal, "parse tree: bad OVER");
    auto spec = window_spec(wo);
    if (!spec) return std::move(spec).error();
    f.over = std::move(spec).value();
  }
  return ast::make_expr(std::move(f), loc);
}

Result<ast::Expr> Converter::sub_link(object o, int loc) {
  if (auto s = only_fields(o, {"subLinkType", "testexpr", "operName", "subselect", "location"}, "a subquery", loc); !s)
    return s.error();
  ast::SubLink link;
  const auto type = string_field(o, "subLinkType");
  auto op = single_name(o, "operName");
  if (type == "EXISTS_SUBLINK")
    link.kind = ast::SubLinkKind::Exists;
  else if (type == "EXPR_SUBLINK")
    link.kind = ast::SubLinkKind::Scalar;
  else if (type == "ANY_SUBLINK")
    link.kind = op ? ast::SubLinkKind::Any : ast::SubLinkKind::In;
  else if (type == "ALL_SUBLINK")
    link.kind = ast::SubLinkKind::All;
  else if (type == "ARRAY_SUBLINK")
    return unsupported("ARRAY(subquery)", loc,
                       "FIX: aggregate in the subquery instead, e.g. string_agg or json_group_array.");
  else
    return unsupported("a row comparison with a subquery", loc, "FIX: compare one column at a time.");
  if (link.kind == ast::SubLinkKind::Any || link.kind == ast::SubLinkKind::All) {
    if (!op) return unsupported("a schema-qualified operator", loc);
    link.op = *op;
  }
  if (auto t = field(o, "testexpr")) {
    auto x = expr(*t);
    if (!x) return std::move(x).error();
    link.test = box(std::move(x).value());
  }
  auto sub = field(o, "subselect");
  if (!sub) return make_error(ErrorCode::Internal, "parse tree: SubLink without subselect");
  auto q = query_node(*sub, loc);
  if (!q) return std::move(q).error();
  link.query = std::move(q).value();
  return ast::make_expr(std::move(link), loc);
}

Result<ast::TypeName> Converter::type_name(object t, int loc) {
  if (auto s =
          only_fields(t, {"names", "typmods", "typemod", "location", "arrayBounds", "setof", "pct_type", "typeOid"},
                      "a type name", loc);
      !s)
    return s.error();
  if (field(t, "arrayBounds"))
    return unsupported("an array type", loc, "FIX: cast to a scalar type (text, bigint, ...).");
  if (bool_field(t, "setof") || bool_field(t, "pct_type")) return unsupported("this type form", loc);
  std::vector<std::string> parts;
  if (auto names = list_field(t, "names"))
    for (element n : *names)
      if (auto s = string_node(n)) parts.emplace_back(*s);
  // The grammar spells SQL-standard types as pg_catalog.<internal name>; that prefix is its own, not the caller's.
  if (parts.size() == 2 && parts[0] == "pg_catalog") parts.erase(parts.begin());
  if (parts.size() != 1)
    return make_error(ErrorCode::ValidationCastNotAllowed, "a cast to a schema-qualified type",
                      "FIX: cast to a plain data type such as text, bigint, double precision or numeric.", pos(loc));
  ast::TypeName out;
  out.name = parts[0] == ast::kSqliteNumericTypeName ? std::string("numeric") : parts[0];
  if (auto mods = list_field(t, "typmods"))
    for (element m : *mods) {
      auto n = as_node(m);
      if (!n || n->kind != "A_Const" || !field(n->fields, "ival"))
        return unsupported("a type modifier that is not a number", loc);
      object io;
      if (field(n->fields, "ival")->get_object().get(io))
        return make_error(ErrorCode::Internal, "parse tree: bad typmod");
      if (field(io, "ival")) {
        out.modifiers.push_back(int_field(io, "ival"));
      } else {
        auto v = integer_at(location_of(n->fields));
        if (!v) return std::move(v).error();
        out.modifiers.push_back(*v);
      }
    }
  return out;
}

Result<ast::Expr> Converter::composite(std::string_view kind, object o, int loc) {
  if (kind == "BoolExpr") {
    ast::BoolOp b;
    const auto op = string_field(o, "boolop");
    b.kind = op == "OR_EXPR" ? ast::BoolOpKind::Or : op == "NOT_EXPR" ? ast::BoolOpKind::Not : ast::BoolOpKind::And;
    auto args = expr_list(o, "args");
    if (!args) return std::move(args).error();
    // AND and OR are associative: (a AND b) AND c is one chain, whatever the parentheses.
    for (auto& a : *args) {
      auto* inner = std::get_if<ast::BoolOp>(&a.node);
      if (inner && inner->kind == b.kind && b.kind != ast::BoolOpKind::Not)
        for (auto& x : inner->args) b.args.push_back(std::move(x));
      else
        b.args.push_back(std::move(a));
    }
    return ast::make_expr(std::move(b), loc);
  }
  if (kind == "NullTest") {
    auto a = field(o, "arg");
    if (!a) return make_error(ErrorCode::Internal, "parse tree: NullTest without arg");
    auto x = expr(*a);
    if (!x) return std::move(x).error();
    return ast::make_expr(ast::NullTest{std::move(x).value(), string_field(o, "nulltesttype") == "IS_NOT_NULL"}, loc);
  }
  if (kind == "BooleanTest") {
    auto a = field(o, "arg");
    if (!a) return make_error(ErrorCode::Internal, "parse tree: BooleanTest without arg");
    auto x = expr(*a);
    if (!x) return std::move(x).error();
    const auto t = string_field(o, "booltesttype");
    using K = ast::BoolTestKind;
    const K k = t == "IS_NOT_TRUE"      ? K::IsNotTrue
                : t == "IS_FALSE"       ? K::IsFalse
                : t == "IS_NOT_FALSE"   ? K::IsNotFalse
                : t == "IS_UNKNOWN"     ? K::IsUnknown
                : t == "IS_NOT_UNKNOWN" ? K::IsNotUnknown
                                        : K::IsTrue;
    return ast::make_expr(ast::BoolTest{std::move(x).value(), k}, loc);
  }
  return make_error(ErrorCode::Internal, "parse tree: unexpected composite node");
}

Result<ast::Expr> Converter::expr(element e) {
  DepthGuard guard(*this);
  auto n = as_node(e);
  if (!n) return make_error(ErrorCode::Internal, "parse tree: expected an expression node");
  int loc = location_of(n->fields);
  // Typed literals (regclass 'x') carry location -1 on the cast: point at the type name instead.
  if (loc < 0) loc = first_location(e);
  if (auto s = check_depth(loc); !s) return s.error();
  const auto kind = n->kind;
  const object o = n->fields;

  if (kind == "ColumnRef") return column_ref(o, loc);
  if (kind == "A_Const") return a_const(o, loc);
  if (kind == "A_Expr" || kind == "BoolExpr" || kind == "NullTest" || kind == "BooleanTest") {
    // Composite expressions remember whether the caller parenthesised them (see ast::Expr).
    auto x = kind == "A_Expr" ? a_expr(o, loc) : composite(kind, o, loc);
    if (x) x->parenthesized = wrapped(e);
    return x;
  }
  if (kind == "FuncCall") return func_call(o, loc);
  if (kind == "SubLink") return sub_link(o, loc);
  if (kind == "CaseExpr") {
    ast::Case c;
    if (auto a = field(o, "arg")) {
      auto x = expr(*a);
      if (!x) return std::move(x).error();
      c.operand = box(std::move(x).value());
    }
    if (auto whens = list_field(o, "args"))
      for (element w : *whens) {
        auto wn = as_node(w);
        if (!wn || wn->kind != "CaseWhen") return make_error(ErrorCode::Internal, "parse tree: bad CASE");
        auto ce = field(wn->fields, "expr");
        auto re = field(wn->fields, "result");
        if (!ce || !re) return make_error(ErrorCode::Internal, "parse tree: incomplete WHEN");
        auto cx = expr(*ce);
        if (!cx) return std::move(cx).error();
        auto rx = expr(*re);
        if (!rx) return std::move(rx).error();
        c.whens.push_back(ast::CaseWhen{std::move(cx).value(), std::move(rx).value()});
      }
    if (auto d = field(o, "defresult")) {
      auto x = expr(*d);
      if (!x) return std::move(x).error();
      c.otherwise = box(std::move(x).value());
    }
    return ast::make_expr(std::move(c), loc);
  }
  if (kind == "GroupingFunc") {  // GROUPING(a, b): a call in keyword form (printed back as written)
    auto args = expr_list(o, "args");
    if (!args) return std::move(args).error();
    ast::FuncCall f;
    f.name = "grouping";
    f.args = std::move(args).value();
    f.sql_syntax = true;
    return ast::make_expr(std::move(f), loc);
  }
  // x COLLATE pg_numeric / pg_interval: querygate's own collations on SQLite, under which an exact numeric held as its
  // decimal text, or an interval's text, sorts, groups and dedupes by value
  // (admission/admit/numeric_scale_on_sqlite.cpp and time_types.cpp print them; admitting the printed statement again
  // reads them back). Any other COLLATE is refused below.
  if (kind == "CollateClause") {
    auto names = list_field(o, "collname");
    auto arg = field(o, "arg");
    if (names && names->size() == 1 && arg) {
      const auto name = string_node((*names).at(0));
      if (name && (*name == "pg_numeric" || *name == "pg_interval")) {
        auto x = expr(*arg);
        if (!x) return std::move(x).error();
        ast::FuncCall f;
        f.name = *name == "pg_numeric" ? "pg_numeric_collate" : "pg_interval_collate";
        f.args.push_back(std::move(x).value());
        f.sql_syntax = true;
        return ast::make_expr(std::move(f), loc);
      }
    }
  }
  if (kind == "CoalesceExpr") {
    auto args = expr_list(o, "args");
    if (!args) return std::move(args).error();
    return ast::make_expr(ast::Coalesce{std::move(args).value()}, loc);
  }
  if (kind == "MinMaxExpr") {
    auto args = expr_list(o, "args");
    if (!args) return std::move(args).error();
    return ast::make_expr(ast::MinMax{string_field(o, "op") != "IS_LEAST", std::move(args).value()}, loc);
  }
  if (kind == "TypeCast") {
    auto a = field(o, "arg");
    auto t = field(o, "typeName");
    object to;
    if (!a || !t || t->get_object().get(to)) return make_error(ErrorCode::Internal, "parse tree: bad TypeCast");
    auto x = expr(*a);
    if (!x) return std::move(x).error();
    auto type = type_name(to, location_of(to));
    if (!type) return std::move(type).error();
    return ast::make_expr(ast::Cast{std::move(x).value(), std::move(type).value()}, loc);
  }
  if (kind == "SQLValueFunction") {
    const auto op = string_field(o, "op");
    using K = ast::SqlValueKind;
    if (op.starts_with("SVFOP_CURRENT_DATE")) return ast::make_expr(ast::SqlValue{K::CurrentDate}, loc);
    if (op.starts_with("SVFOP_CURRENT_TIMESTAMP")) return ast::make_expr(ast::SqlValue{K::CurrentTimestamp}, loc);
    if (op.starts_with("SVFOP_CURRENT_TIME")) return ast::make_expr(ast::SqlValue{K::CurrentTime}, loc);
    if (op.starts_with("SVFOP_LOCALTIMESTAMP")) return ast::make_expr(ast::SqlValue{K::LocalTimestamp}, loc);
    if (op.starts_with("SVFOP_LOCALTIME")) return ast::make_expr(ast::SqlValue{K::LocalTime}, loc);
    std::string word(op.substr(6));  // "SVFOP_CURRENT_USER" → "CURRENT_USER"
    return make_error(
        ErrorCode::ValidationSystemColumn, word + " reads the database session's state, not table data",
        "FIX: remove " + word + "; if you meant a column of that name, double-quote it (\"" +
            [&] {
              std::string lower = word;
              for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
              return lower;
            }() +
            "\") and check GET /v1/schema for the real column names.",
        pos(loc));
  }
  if (kind == "ParamRef" && param_names_) {
    if (auto s = only_fields(o, {"number", "location"}, "a parameter", loc); !s) return s.error();
    const auto number = int_field(o, "number");
    if (number < 1 || static_cast<std::size_t>(number) > param_names_->size())
      return make_error(ErrorCode::ConfigInvalid, "parameter $" + std::to_string(number) + " has no name",
                        "FIX: write :name parameters in configured SQL.", pos(loc));
    return ast::make_expr(ast::Param{(*param_names_)[static_cast<std::size_t>(number - 1)], static_cast<int>(number)},
                          loc);
  }
  if (kind == "ParamRef")
    return make_error(ErrorCode::ValidationPlaceholder,
                      "a bind placeholder ($" + std::to_string(int_field(o, "number")) +
                          ") has no value: querygate takes no parameters",
                      "FIX: write the value into the statement as a literal, e.g. WHERE id = 42 or WHERE name = 'x'.",
                      pos(loc));
  return unsupported(sql_words(kind), loc);
}

}  // namespace qg::convert::detail
