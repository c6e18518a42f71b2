// SelectStmt → ast::Query: WITH, set operations, the SELECT core, ORDER BY,
// LIMIT/OFFSET, windows and grouping.
#include "admission/convert/convert_internal.hpp"

namespace qg::convert::detail {
namespace {

std::optional<int> pos(int location) {
  return location >= 0 ? std::optional<int>(location) : std::nullopt;
}

}  // namespace

Result<std::optional<ast::Alias>> Converter::alias(object o) {
  auto a = field(o, "alias");
  if (!a) return std::optional<ast::Alias>();
  object fields;
  if (a->get_object().get(fields)) return make_error(ErrorCode::Internal, "parse tree: bad alias");
  ast::Alias out;
  out.name = std::string(string_field(fields, "aliasname"));
  if (auto cols = list_field(fields, "colnames"))
    for (element c : *cols) {
      auto s = string_node(c);
      if (!s) return make_error(ErrorCode::Internal, "parse tree: bad alias column");
      out.columns.emplace_back(*s);
    }
  return std::optional<ast::Alias>(std::move(out));
}

Result<std::optional<std::int64_t>> Converter::limit_value(object o, std::string_view key, std::string_view clause) {
  auto e = field(o, key);
  if (!e) return std::optional<std::int64_t>();
  auto n = as_node(*e);
  const int loc = n ? location_of(n->fields) : -1;
  const std::string fix =
      "FIX: write " + std::string(clause) + " as a whole number, e.g. " + std::string(clause) + " 100.";
  if (!n || n->kind != "A_Const")
    return make_error(ErrorCode::ValidationUnsupported, std::string(clause) + " with an expression", fix, pos(loc));
  if (bool_field(n->fields, "isnull")) return std::optional<std::int64_t>();  // LIMIT ALL / LIMIT NULL
  auto ival = field(n->fields, "ival");
  if (!ival)
    return make_error(ErrorCode::ValidationUnsupported, std::string(clause) + " with a non-integer", fix, pos(loc));
  object iv;
  if (ival->get_object().get(iv)) return make_error(ErrorCode::Internal, "parse tree: bad ival");
  std::int64_t v = int_field(iv, "ival");
  if (!field(iv, "ival")) {  // zero and negatives arrive as {} (see convert_statement)
    auto written = integer_at(loc);
    if (!written) return std::move(written).error();
    v = *written;
  }
  if (v < 0)
    return make_error(ErrorCode::ValidationUnsupported, std::string(clause) + " " + std::to_string(v) + " is negative",
                      fix, pos(loc));
  return std::optional<std::int64_t>(v);
}

Result<ast::SortItem> Converter::sort_item(element e) {
  auto n = as_node(e);
  if (!n || n->kind != "SortBy") return make_error(ErrorCode::Internal, "parse tree: expected SortBy");
  const int loc = location_of(n->fields);
  if (auto s = only_fields(n->fields, {"node", "sortby_dir", "sortby_nulls", "location"}, "ORDER BY", loc); !s)
    return s.error();
  ast::SortItem item;
  const auto dir = string_field(n->fields, "sortby_dir");
  if (dir == "SORTBY_ASC")
    item.direction = ast::SortDirection::Asc;
  else if (dir == "SORTBY_DESC")
    item.direction = ast::SortDirection::Desc;
  else if (dir == "SORTBY_USING")
    return unsupported("ORDER BY ... USING <operator>", loc, "FIX: write ASC or DESC.");
  const auto nulls = string_field(n->fields, "sortby_nulls");
  if (nulls == "SORTBY_NULLS_FIRST")
    item.nulls = ast::NullsOrder::First;
  else if (nulls == "SORTBY_NULLS_LAST")
    item.nulls = ast::NullsOrder::Last;
  auto node = field(n->fields, "node");
  if (!node) return make_error(ErrorCode::Internal, "parse tree: SortBy without node");
  auto x = expr(*node);
  if (!x) return std::move(x).error();
  item.expr = std::move(x).value();
  return item;
}

Result<std::vector<ast::SortItem>> Converter::sort_list(object o, std::string_view key) {
  std::vector<ast::SortItem> out;
  if (auto items = list_field(o, key))
    for (element e : *items) {
      auto s = sort_item(e);
      if (!s) return std::move(s).error();
      out.push_back(std::move(s).value());
    }
  return out;
}

namespace {
// PostgreSQL's FRAMEOPTION_* bits (nodes/parsenodes.h, PG 15).
enum FrameBits : std::int64_t {
  kNonDefault = 0x1,
  kRange = 0x2,
  kRows = 0x4,
  kGroups = 0x8,
  kBetween = 0x10,
  kStartUnboundedPreceding = 0x20,
  kEndUnboundedPreceding = 0x40,
  kStartUnboundedFollowing = 0x80,
  kEndUnboundedFollowing = 0x100,
  kStartCurrentRow = 0x200,
  kEndCurrentRow = 0x400,
  kStartOffsetPreceding = 0x800,
  kEndOffsetPreceding = 0x1000,
  kStartOffsetFollowing = 0x2000,
  kEndOffsetFollowing = 0x4000,
  kExcludeCurrentRow = 0x8000,
  kExcludeGroup = 0x10000,
  kExcludeTies = 0x20000,
};
}  // namespace

Result<ast::WindowSpec> Converter::window_spec(object w) {
  const int loc = location_of(w);
  if (auto s = only_fields(
          w,
          {"name", "refname", "partitionClause", "orderClause", "frameOptions", "startOffset", "endOffset", "location"},
          "a window definition", loc);
      !s)
    return s.error();
  ast::WindowSpec spec;
  // `OVER w` carries the name in "name", `OVER (w ...)` in "refname"; both refine window w.
  spec.base_name = std::string(string_field(w, "refname"));
  if (spec.base_name.empty()) spec.base_name = std::string(string_field(w, "name"));
  auto partition = expr_list(w, "partitionClause");
  if (!partition) return std::move(partition).error();
  spec.partition_by = std::move(partition).value();
  auto order = sort_list(w, "orderClause");
  if (!order) return std::move(order).error();
  spec.order_by = std::move(order).value();

  const std::int64_t bits = int_field(w, "frameOptions");
  if (bits & kNonDefault) {
    auto& f = spec.frame;
    f.mode = (bits & kRows) ? ast::FrameMode::Rows : (bits & kGroups) ? ast::FrameMode::Groups : ast::FrameMode::Range;
    auto offset = [&](std::string_view key) -> Result<std::optional<ast::Box<ast::Expr>>> {
      auto e = field(w, key);
      if (!e) return std::optional<ast::Box<ast::Expr>>();
      auto x = expr(*e);
      if (!x) return std::move(x).error();
      return std::optional<ast::Box<ast::Expr>>(std::move(x).value());
    };
    auto start_off = offset("startOffset");
    if (!start_off) return std::move(start_off).error();
    auto end_off = offset("endOffset");
    if (!end_off) return std::move(end_off).error();
    using K = ast::FrameBoundKind;
    if (bits & kStartUnboundedPreceding)
      f.start.kind = K::UnboundedPreceding;
    else if (bits & kStartCurrentRow)
      f.start.kind = K::CurrentRow;
    else if (bits & kStartOffsetPreceding)
      f.start.kind = K::Preceding;
    else if (bits & kStartOffsetFollowing)
      f.start.kind = K::Following;
    else if (bits & kStartUnboundedFollowing)
      f.start.kind = K::UnboundedFollowing;
    f.start.offset = std::move(start_off).value();
    if (bits & kBetween) {
      ast::FrameBound end;
      if (bits & kEndUnboundedFollowing)
        end.kind = K::UnboundedFollowing;
      else if (bits & kEndCurrentRow)
        end.kind = K::CurrentRow;
      else if (bits & kEndOffsetPreceding)
        end.kind = K::Preceding;
      else if (bits & kEndOffsetFollowing)
        end.kind = K::Following;
      else if (bits & kEndUnboundedPreceding)
        end.kind = K::UnboundedPreceding;
      end.offset = std::move(end_off).value();
      f.end = std::move(end);
    }
    if (bits & kExcludeCurrentRow)
      f.exclusion = ast::FrameExclusion::CurrentRow;
    else if (bits & kExcludeGroup)
      f.exclusion = ast::FrameExclusion::Group;
    else if (bits & kExcludeTies)
      f.exclusion = ast::FrameExclusion::Ties;
  }
  return spec;
}

Result<std::vector<ast::GroupItem>> Converter::group_items(array items) {
  std::vector<ast::GroupItem> out;
  for (element e : items) {
    auto n = as_node(e);
    if (n && n->kind == "GroupingSet") {
      DepthGuard guard(*this);
      const int loc = location_of(n->fields);
      if (auto s = check_depth(loc); !s) return s.error();
      ast::GroupingSet set;
      set.location = loc;
      const auto kind = string_field(n->fields, "kind");
      if (kind == "GROUPING_SET_ROLLUP")
        set.kind = ast::GroupingKind::Rollup;
      else if (kind == "GROUPING_SET_CUBE")
        set.kind = ast::GroupingKind::Cube;
      else if (kind == "GROUPING_SET_SETS")
        set.kind = ast::GroupingKind::Sets;
      else if (kind == "GROUPING_SET_EMPTY")
        set.kind = ast::GroupingKind::Empty;
      else
        return unsupported("this kind of grouping set", loc);
      if (auto content = list_field(n->fields, "content")) {
        auto inner = group_items(*content);
        if (!inner) return std::move(inner).error();
        set.items = std::move(inner).value();
      }
      out.push_back(ast::GroupItem{std::move(set)});
      continue;
    }
    // (a, b) inside GROUPING SETS, ROLLUP or CUBE (the grammar's implicit row): one set of these expressions.
    if (n && n->kind == "RowExpr" && string_field(n->fields, "row_format") == "COERCE_IMPLICIT_CAST") {
      DepthGuard guard(*this);
      const int loc = location_of(n->fields);
      if (auto s = check_depth(loc); !s) return s.error();
      ast::GroupingSet set;
      set.kind = ast::GroupingKind::Composite;
      set.location = loc;
      if (auto args = list_field(n->fields, "args")) {
        for (element a : *args) {
          auto x = expr(a);
          if (!x) return std::move(x).error();
          set.items.push_back(ast::GroupItem{std::move(x).value()});
        }
      }
      out.push_back(ast::GroupItem{std::move(set)});
      continue;
    }
    if (n && n->kind == "List") {  // ((a, b)) inside GROUPING SETS: a parenthesised set
      ast::GroupingSet set;
      set.kind = ast::GroupingKind::Composite;
      auto inner_list = list_field(n->fields, "items");
      if (inner_list) {
        auto inner = group_items(*inner_list);
        if (!inner) return std::move(inner).error();
        set.items = std::move(inner).value();
      }
      out.push_back(ast::GroupItem{std::move(set)});
      continue;
    }
    auto x = expr(e);
    if (!x) return std::move(x).error();
    out.push_back(ast::GroupItem{std::move(x).value()});
  }
  return out;
}

Result<std::vector<ast::Cte>> Converter::with_clause(object w) {
  const int loc = location_of(w);
  if (bool_field(w, "recursive"))
    return make_error(ErrorCode::ValidationRecursiveCte, "WITH RECURSIVE is not admitted (it can run without bound)",
                      "FIX: for a fixed depth, join the table to itself that many times (e.g. spans child JOIN spans "
                      "parent ON child.parent_id = parent.id); for a series of values, use VALUES or GROUP BY on an "
                      "existing column.",
                      pos(loc));
  if (auto s = only_fields(w, {"ctes", "recursive", "location"}, "WITH", loc); !s) return s.error();
  std::vector<ast::Cte> out;
  if (auto ctes = list_field(w, "ctes"))
    for (element e : *ctes) {
      auto n = as_node(e);
      if (!n || n->kind != "CommonTableExpr") return make_error(ErrorCode::Internal, "parse tree: bad CTE");
      const int cloc = location_of(n->fields);
      if (auto s = only_fields(n->fields, {"ctename", "aliascolnames", "ctequery", "ctematerialized", "location"},
                               "a WITH query", cloc);
          !s)
        return s.error();
      ast::Cte cte;
      cte.name = std::string(string_field(n->fields, "ctename"));
      cte.location = cloc;
      if (auto cols = list_field(n->fields, "aliascolnames"))
        for (element c : *cols)
          if (auto s = string_node(c)) cte.columns.emplace_back(*s);
      // MATERIALIZED / NOT MATERIALIZED is only a planner hint; dropping it keeps the meaning.
      auto q = field(n->fields, "ctequery");
      if (!q) return make_error(ErrorCode::Internal, "parse tree: CTE without query");
      // The body starts after "name AS (": point refusals inside it at the CTE.
      auto converted = query_node(*q, cloc);
      if (!converted) return std::move(converted).error();
      cte.query = std::move(converted).value();
      out.push_back(std::move(cte));
    }
  return out;
}

Result<ast::Select> Converter::select_core(object o) {
  ast::Select s;
  if (auto distinct = list_field(o, "distinctClause")) {
    s.distinct = true;
    // DISTINCT is a list holding one empty node; DISTINCT ON holds the expressions.
    for (element e : *distinct) {
      object eo;
      if (!e.get_object().get(eo) && eo.size() == 0) continue;
      auto x = expr(e);
      if (!x) return std::move(x).error();
      s.distinct_on.push_back(std::move(x).value());
    }
    if (!s.distinct_on.empty()) s.distinct = false;
  }
  if (auto targets = list_field(o, "targetList"))
    for (element e : *targets) {
      auto n = as_node(e);
      if (!n || n->kind != "ResTarget") return make_error(ErrorCode::Internal, "parse tree: expected ResTarget");
      const int loc = location_of(n->fields);
      if (auto st = only_fields(n->fields, {"name", "val", "location"}, "a select item", loc); !st) return st.error();
      auto v = field(n->fields, "val");
      if (!v) return make_error(ErrorCode::Internal, "parse tree: ResTarget without val");
      auto x = expr(*v);
      if (!x) return std::move(x).error();
      s.items.push_back(ast::SelectItem{std::move(x).value(), std::string(string_field(n->fields, "name"))});
    }
  if (auto from = list_field(o, "fromClause"))
    for (element e : *from) {
      auto f = from_item(e);
      if (!f) return std::move(f).error();
      s.from.push_back(std::move(f).value());
    }
  if (auto w = field(o, "whereClause")) {
    auto x = expr(*w);
    if (!x) return std::move(x).error();
    s.where = std::move(x).value();
  }
  if (bool_field(o, "groupDistinct")) return unsupported("GROUP BY DISTINCT", -1, "FIX: write plain GROUP BY.");
  if (auto g = list_field(o, "groupClause")) {
    auto items = group_items(*g);
    if (!items) return std::move(items).error();
    s.group_by = std::move(items).value();
  }
  if (auto h = field(o, "havingClause")) {
    auto x = expr(*h);
    if (!x) return std::move(x).error();
    s.having = std::move(x).value();
  }
  if (auto windows = list_field(o, "windowClause"))
    for (element e : *windows) {
      auto n = as_node(e);
      if (!n || n->kind != "WindowDef") return make_error(ErrorCode::Internal, "parse tree: expected WindowDef");
      const std::string name(string_field(n->fields, "name"));
      auto spec = window_spec(n->fields);
      if (!spec) return std::move(spec).error();
      spec->base_name = std::string(string_field(n->fields, "refname"));
      s.windows.push_back(ast::NamedWindow{name, std::move(spec).value()});
    }
  return s;
}

Result<ast::Query> Converter::query(object o, int location) {
  DepthGuard guard(*this);
  if (auto s = check_depth(location); !s) return s.error();
  if (auto s = only_fields(
          o,
          {"distinctClause", "intoClause",   "targetList",  "fromClause", "whereClause", "groupClause", "groupDistinct",
           "havingClause",   "windowClause", "valuesLists", "sortClause", "limitOffset", "limitCount",  "limitOption",
           "lockingClause",  "withClause",   "op",          "all",        "larg",        "rarg"},
          "SELECT", location);
      !s)
    return s.error();
  if (auto into = field(o, "intoClause")) {
    object io;
    int loc = location;
    if (!into->get_object().get(io)) {
      auto rel = field(io, "rel");
      object ro;
      if (rel && !rel->get_object().get(ro)) loc = location_of(ro);
    }
    return make_error(ErrorCode::ValidationSelectInto, "SELECT ... INTO creates a table: querygate is read-only",
                      "FIX: remove the INTO clause; the rows come back in the response.", pos(loc));
  }
  if (auto locking = list_field(o, "lockingClause"); locking && locking->size() > 0)
    return make_error(ErrorCode::ValidationLockingRead, "FOR UPDATE / FOR SHARE locks rows: querygate is read-only",
                      "FIX: remove the FOR UPDATE / FOR SHARE clause.", pos(location));

  ast::Query q;
  q.location = location;
  if (auto w = field(o, "withClause")) {
    object wo;
    if (w->get_object().get(wo)) return make_error(ErrorCode::Internal, "parse tree: bad WITH");
    auto ctes = with_clause(wo);
    if (!ctes) return std::move(ctes).error();
    q.with = std::move(ctes).value();
  }

  const auto op = string_field(o, "op");
  if (op == "SETOP_UNION" || op == "SETOP_INTERSECT" || op == "SETOP_EXCEPT") {
    ast::SetOp set;
    set.kind = op == "SETOP_UNION"       ? ast::SetOpKind::Union
               : op == "SETOP_INTERSECT" ? ast::SetOpKind::Intersect
                                         : ast::SetOpKind::Except;
    set.all = bool_field(o, "all");
    // The branches are SelectStmt fields themselves, not wrapped nodes.
    auto l = field(o, "larg");
    auto r = field(o, "rarg");
    object lo, ro;
    if (!l || !r || l->get_object().get(lo) || r->get_object().get(ro))
      return make_error(ErrorCode::Internal, "parse tree: set operation without both sides");
    auto left = query(lo, location);
    if (!left) return std::move(left).error();
    auto right = query(ro, location);
    if (!right) return std::move(right).error();
    left->parenthesized = wrapped_query(*l);
    right->parenthesized = wrapped_query(*r);
    set.left = std::move(left).value();
    set.right = std::move(right).value();
    q.body = std::move(set);
  } else if (auto values = list_field(o, "valuesLists")) {
    ast::Values v;
    for (element row : *values) {
      auto n = as_node(row);
      if (!n || n->kind != "List") return make_error(ErrorCode::Internal, "parse tree: bad VALUES row");
      auto items = expr_list(n->fields, "items");
      if (!items) return std::move(items).error();
      v.rows.push_back(std::move(items).value());
    }
    q.body = std::move(v);
  } else {
    auto core = select_core(o);
    if (!core) return std::move(core).error();
    q.body = std::move(core).value();
  }

  auto order = sort_list(o, "sortClause");
  if (!order) return std::move(order).error();
  q.order_by = std::move(order).value();
  auto limit = limit_value(o, "limitCount", "LIMIT");
  if (!limit) return std::move(limit).error();
  if (string_field(o, "limitOption") == "LIMIT_OPTION_WITH_TIES") {
    // LIMIT n would drop the rows tied with the n-th: the FIX ranks instead (rank() <= n is exactly WITH TIES).
    std::string order_words;
    for (const auto& item : q.order_by) {
      const auto* ref = std::get_if<ast::ColumnRef>(&item.expr->node);
      if (!ref || ref->star) {
        order_words = "<your ORDER BY list>";
        break;
      }
      if (!order_words.empty()) order_words += ", ";
      order_words += ref->table.empty() ? ref->column : ref->table + "." + ref->column;
      if (item.direction == ast::SortDirection::Desc) order_words += " DESC";
      if (item.nulls == ast::NullsOrder::First) order_words += " NULLS FIRST";
      if (item.nulls == ast::NullsOrder::Last) order_words += " NULLS LAST";
    }
    if (order_words.empty()) order_words = "<your ORDER BY list>";
    const std::string n = *limit ? std::to_string(**limit) : "n";
    return unsupported("FETCH FIRST ... WITH TIES", location,
                       "FIX: rank the rows and keep every rank up to " + n +
                           " (LIMIT would drop the tied rows): SELECT * FROM (SELECT <your select list>, rank() OVER "
                           "(ORDER BY " +
                           order_words + ") AS rank_ FROM <your FROM and WHERE>) AS ranked WHERE rank_ <= " + n +
                           " ORDER BY rank_." +
                           (field(o, "limitOffset") ? " Drop OFFSET: it cuts through tied rows wherever the engine "
                                                      "puts them; to skip the first k ranks write rank_ > k."
                                                    : ""));
  }
  q.limit = limit.value();
  auto offset = limit_value(o, "limitOffset", "OFFSET");
  if (!offset) return std::move(offset).error();
  q.offset = offset.value();
  return q;
}

}  // namespace qg::convert::detail
