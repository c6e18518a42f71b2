// Lineage of untrusted content: which output values can carry text written by
// end users. Derivation-based and fail closed: a value is tainted when any
// input to its computation is, at any depth and in any position (arguments,
// format strings, CASE conditions, FILTER, ORDER BY inside aggregates, WITHIN
// GROUP sort keys, window PARTITION BY / ORDER BY / frame offsets, named
// windows, scalar and quantified subqueries, VALUES rows, set-operation
// branches, CTEs, derived tables, columns merged by USING). A tainted value is
// Measured when it is a number or boolean (count, length, =, LIKE, instr: the
// capability table declares which functions and operators return those,
// capability::Returns), and Text otherwise: text, JSON and bytes built from
// untrusted input are untrusted however they were built, including text
// rebuilt from measures (chr(ascii(substr(x, 1, 1)))). Output columns whose
// values are Text are flagged. Unknown functions, operators and casts give
// Text; every node kind has its own branch (a new one does not compile here
// until it is handled).
//
// Not tracked: which rows a query returns. WHERE, JOIN ... ON, HAVING, GROUP
// BY, DISTINCT, the query's ORDER BY and LIMIT choose rows; they do not derive
// values, so a trusted column of rows chosen by an untrusted condition is not
// flagged (see README, "What the untrusted flag guarantees").
#include <algorithm>
#include <cctype>
#include <functional>
#include <string>

#include "admission/ast/walk.hpp"

#include "admission/admit/admitter.hpp"

namespace qg::admit::detail {
namespace {

template <typename>
inline constexpr bool kAlwaysFalse = false;

ValueKind join_kind(ValueKind a, ValueKind b) {
  if (a == ValueKind::Null) return b;
  if (b == ValueKind::Null) return a;
  return a == ValueKind::Number && b == ValueKind::Number ? ValueKind::Number : ValueKind::Other;
}

Lineage join(const Lineage& a, const Lineage& b) {
  return {std::max(a.taint, b.taint), join_kind(a.kind, b.kind)};
}

ValueKind kind_of(capability::Returns r, ValueKind arguments) {
  switch (r) {
    case capability::Returns::Number:
    case capability::Returns::Boolean:
      return ValueKind::Number;
    case capability::Returns::LikeArguments:
      // No argument at all: nothing says it is a number.
      return arguments == ValueKind::Null ? ValueKind::Other : arguments;
    case capability::Returns::Text:
      return ValueKind::Other;
  }
  return ValueKind::Other;
}

// Declared types whose values are numbers or booleans, as either engine names them.
bool numeric_type(std::string type) {
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  if (auto paren = type.find('('); paren != std::string::npos) type.resize(paren);
  while (!type.empty() && type.back() == ' ') type.pop_back();
  static const char* const kNumeric[] = {
      "int2", "int4",   "int8",   "smallint", "integer", "bigint",           "int",     "numeric", "decimal",
      "real", "float4", "float8", "float",    "double",  "double precision", "boolean", "bool"};
  return std::any_of(std::begin(kNumeric), std::end(kNumeric), [&](const char* t) { return type == t; });
}

}  // namespace

Lineage Admitter::output_lineage(const ast::Query& q, std::size_t i) const {
  auto it = query_lineage_.find(&q);
  if (it == query_lineage_.end() || i >= it->second.size()) return {Taint::Text, ValueKind::Other};
  return it->second[i];
}

std::vector<Lineage> Admitter::output_lineages(const ast::Query& q, std::size_t width) const {
  std::vector<Lineage> out;
  for (std::size_t i = 0; i < width; ++i) out.push_back(output_lineage(q, i));
  return out;
}

std::vector<bool> Admitter::untrusted_outputs(const ast::Query& q, std::size_t width) const {
  std::vector<bool> out;
  for (std::size_t i = 0; i < width; ++i) out.push_back(output_lineage(q, i).taint == Taint::Text);
  return out;
}

namespace {
Lineage stored_lineage(const catalog::Column& c) {
  return c.untrusted ? Lineage{Taint::Text, ValueKind::Other}
                     : Lineage{Taint::None, numeric_type(c.type) ? ValueKind::Number : ValueKind::Other};
}
}  // namespace

std::vector<Lineage> Admitter::table_lineage(const catalog::Table& table) const {
  std::vector<Lineage> out;
  for (const auto& c : table.columns) out.push_back(stored_lineage(c));
  // attach_virtual_columns already folded the expression's lineage into the flag
  // (untrusted when the expression reads any untrusted column).
  for (const auto& v : table.virtual_columns)
    out.push_back(v.untrusted ? Lineage{Taint::Text, ValueKind::Other} : Lineage{Taint::None, ValueKind::Other});
  return out;
}

std::vector<Lineage> Admitter::rows_lineage(const std::vector<std::vector<ast::Expr>>& rows, const ExprContext& ctx) {
  std::vector<Lineage> out;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      const Lineage l = lineage(row[i], ctx);
      if (i < out.size())
        out[i] = join(out[i], l);
      else
        out.push_back(l);
    }
  return out;
}

Lineage Admitter::column_lineage(const ast::ColumnRef& ref, const ExprContext& ctx) {
  auto relation = column(ref, -1, ctx);
  // A select-list alias, or a name that does not resolve here: fail closed.
  if (!relation || !*relation) return {Taint::Text, ValueKind::Other};
  const Relation* r = *relation;
  auto of = [&](const Relation& rel) -> Lineage {
    for (std::size_t i = 0; i < rel.columns.size(); ++i)
      if (same(rel.columns[i], ref.column))
        return i < rel.lineage.size() ? rel.lineage[i] : Lineage{Taint::Text, ValueKind::Other};
    // A virtual column's expression reading a column hidden from the caller.
    if (ref.configured && rel.table)
      if (const auto* c = rel.table->find_column(ref.column, dialect_)) return stored_lineage(*c);
    return {Taint::Text, ValueKind::Other};
  };
  Lineage out = of(*r);
  const bool merged = ref.table.empty() && std::any_of(r->using_columns.begin(), r->using_columns.end(),
                                                       [&](const std::string& u) { return same(u, ref.column); });
  if (!merged) return out;
  // An unqualified column merged by USING is COALESCE of every side's column
  // (a RIGHT or FULL join takes it from the right): the join of their lineages.
  for (const Scope* s = ctx.scope; s; s = s->parent) {
    const bool here = std::any_of(s->relations.begin(), s->relations.end(), [&](const Relation& x) { return &x == r; });
    if (!here) continue;
    for (const auto& other : s->relations)
      if (std::any_of(other.using_columns.begin(), other.using_columns.end(),
                      [&](const std::string& u) { return same(u, ref.column); }) &&
          std::any_of(other.columns.begin(), other.columns.end(),
                      [&](const std::string& c) { return same(c, ref.column); }))
        out = join(out, of(other));
    break;
  }
  return out;
}

std::vector<Reads> Admitter::output_reads(const ast::Query& q, std::size_t width) const {
  auto it = query_reads_.find(&q);
  std::vector<Reads> out = it == query_reads_.end() ? std::vector<Reads>{} : it->second;
  out.resize(width);
  return out;
}

std::vector<Reads> Admitter::output_plain(const ast::Query& q, std::size_t width) const {
  auto it = query_plain_.find(&q);
  std::vector<Reads> out = it == query_plain_.end() ? std::vector<Reads>{} : it->second;
  out.resize(width);
  return out;
}

std::vector<Reads> Admitter::fresh_instances(const std::vector<Reads>& reads, std::map<int, int>& renumbered) {
  std::vector<Reads> out = reads;
  for (auto& column : out) {
    for (auto& read : column) {
      auto [it, added] = renumbered.try_emplace(read.instance, next_instance_);
      if (added) ++next_instance_;
      read.instance = it->second;
    }
    std::sort(column.begin(), column.end());
  }
  return out;
}

// The cells a column reference passes on unchanged: its relation column's plain
// cells (not a column USING merged from more than one side).
Reads Admitter::column_plain(const ast::ColumnRef& ref, const ExprContext& ctx) {
  if (ref.star) return {};
  auto relation = column(ref, -1, ctx);
  shadow_fix_ = {};
  if (!relation || !*relation) return {};
  const Relation* r = *relation;
  if (ref.table.empty() && std::any_of(r->using_columns.begin(), r->using_columns.end(),
                                       [&](const std::string& u) { return same(u, ref.column); }))
    return {};
  for (std::size_t i = 0; i < r->columns.size(); ++i)
    if (same(r->columns[i], ref.column)) return i < r->plain.size() ? r->plain[i] : Reads{};
  return {};
}

// Per select item: the cells it passes on unchanged. Only a bare column
// reference passes a cell on; in a grouped query (GROUP BY, HAVING or an
// aggregate) only when that cell is a grouping key of every group (a plain
// GROUP BY item, not one inside ROLLUP/CUBE/GROUPING SETS), so that every
// aggregate in the row is computed for that one value.
std::vector<Reads> Admitter::select_plain(const ast::Select& s, const ExprContext& ctx,
                                          const std::vector<std::string>& names) {
  bool grouped = !s.group_by.empty() || s.having.has_value();
  std::function<bool(const ast::Expr&)> aggregates = [&](const ast::Expr& e) {
    if (const auto* f = std::get_if<ast::FuncCall>(&e.node); f && !f->over)
      if (const auto* row = capability::find_function(f->name);
          row && row->kind == capability::FunctionKind::Aggregate &&
          !((f->name == "max" || f->name == "min") && f->args.size() >= 2))
        return true;
    if (std::holds_alternative<ast::SubLink>(e.node)) return false;  // its own query's aggregates
    bool found = false;
    ast::for_each_child(e, [&](const ast::Expr& child) { found = found || aggregates(child); });
    return found;
  };
  for (const auto& item : s.items) grouped = grouped || aggregates(item.expr);
  Reads keys;
  if (grouped)
    for (const auto& g : s.group_by) {
      const auto* e = std::get_if<ast::Expr>(&g.node);
      if (!e) continue;
      const ast::Expr* key = e;
      if (const auto k = ast::integer_value(*e); k && std::holds_alternative<ast::Literal>(e->node)) {
        key = *k >= 1 && static_cast<std::size_t>(*k) <= s.items.size()
                  ? &s.items[static_cast<std::size_t>(*k - 1)].expr
                  : nullptr;
      } else if (const auto* ref = std::get_if<ast::ColumnRef>(&e->node); ref && !ref->star && ref->table.empty()) {
        // GROUP BY an output column's name (when no input column has it).
        auto relation = column(*ref, -1, ctx);
        shadow_fix_ = {};
        if (!relation)
          for (std::size_t i = 0; i < names.size() && i < s.items.size(); ++i)
            if (same(names[i], ref->column)) key = &s.items[i].expr;
      }
      const auto* ref = key ? std::get_if<ast::ColumnRef>(&key->node) : nullptr;
      if (!ref) continue;
      const Reads more = column_plain(*ref, ctx);
      keys.insert(keys.end(), more.begin(), more.end());
    }
  std::vector<Reads> out;
  for (const auto& item : s.items) {
    const auto* ref = std::get_if<ast::ColumnRef>(&item.expr.node);
    Reads plain = ref ? column_plain(*ref, ctx) : Reads{};
    if (grouped)
      std::erase_if(plain, [&](const Source& p) { return std::find(keys.begin(), keys.end(), p) == keys.end(); });
    std::sort(plain.begin(), plain.end());
    out.push_back(std::move(plain));
  }
  return out;
}

Reads Admitter::column_reads(const ast::ColumnRef& ref, const ExprContext& ctx) {
  auto relation = column(ref, -1, ctx);
  if (!relation || !*relation) return {};  // a select-list alias: read where it is defined
  const Relation* r = *relation;
  auto of = [&](const Relation& rel) -> Reads {
    for (std::size_t i = 0; i < rel.columns.size(); ++i)
      if (same(rel.columns[i], ref.column)) return i < rel.reads.size() ? rel.reads[i] : Reads{};
    if (ref.configured && rel.table)
      if (const auto* c = rel.table->find_column(ref.column, dialect_)) return {Source{c, rel.instance}};
    return {};
  };
  Reads out = of(*r);
  const bool merged = ref.table.empty() && std::any_of(r->using_columns.begin(), r->using_columns.end(),
                                                       [&](const std::string& u) { return same(u, ref.column); });
  if (!merged) return out;
  // An unqualified column merged by USING is COALESCE of every side's column.
  for (const Scope* s = ctx.scope; s; s = s->parent) {
    const bool here = std::any_of(s->relations.begin(), s->relations.end(), [&](const Relation& x) { return &x == r; });
    if (!here) continue;
    for (const auto& other : s->relations)
      if (&other != r && std::any_of(other.using_columns.begin(), other.using_columns.end(),
                                     [&](const std::string& u) { return same(u, ref.column); })) {
        const Reads more = of(other);
        out.insert(out.end(), more.begin(), more.end());
      }
    break;
  }
  return out;
}

Reads Admitter::reads_of(const ast::Expr& e, const ExprContext& ctx) {
  Reads out;
  std::function<void(const ast::Expr&)> walk = [&](const ast::Expr& x) {
    if (const auto* ref = std::get_if<ast::ColumnRef>(&x.node)) {
      if (ref->star) return;
      const Reads more = column_reads(*ref, ctx);
      out.insert(out.end(), more.begin(), more.end());
      return;
    }
    if (const auto* sub = std::get_if<ast::SubLink>(&x.node)) {
      // Every output of the subquery (a scalar one has one), and the tested value.
      if (auto it = query_reads_.find(&*sub->query); it != query_reads_.end())
        for (const auto& more : it->second) out.insert(out.end(), more.begin(), more.end());
      if (sub->test) walk(**sub->test);
      return;
    }
    if (const auto* f = std::get_if<ast::FuncCall>(&x.node); f && f->over) {
      // A window function computes each row's value from other rows of its
      // partition: a column with companions read there is mixed unless the
      // partition keeps each companion of the same instance fixed.
      std::vector<const ast::Expr*> partition;
      for (const auto& p : f->over->partition_by) partition.push_back(&p);
      std::string base = f->over->base_name;
      bool resolved = true;
      for (std::size_t hops = 0; !base.empty(); ++hops) {
        const ast::NamedWindow* named = nullptr;
        if (lineage_windows_ && hops <= lineage_windows_->size())
          for (const auto& w : *lineage_windows_)
            if (same(w.name, base)) named = &w;
        if (!named) {
          resolved = false;  // a window it cannot read: fail closed
          break;
        }
        for (const auto& p : named->spec.partition_by) partition.push_back(&p);
        base = named->spec.base_name;
      }
      Reads kept;
      for (const auto* p : partition) {
        const auto* ref = std::get_if<ast::ColumnRef>(&p->node);
        if (!ref || ref->star) continue;
        const Reads more = column_plain(*ref, ctx);
        kept.insert(kept.end(), more.begin(), more.end());
      }
      const std::size_t from = out.size();
      ast::for_each_child(x, walk);
      for (std::size_t i = from; i < out.size(); ++i) {
        Source& read = out[i];
        if (!read.column || read.column->companions.empty()) continue;
        const catalog::Table* table = nullptr;
        for (const auto& t : catalog_.tables)
          if (!t.columns.empty() && read.column >= &t.columns.front() && read.column <= &t.columns.back()) table = &t;
        bool fixed = resolved && table;
        for (const auto& name : read.column->companions) {
          const catalog::Column* companion = table ? table->find_column(name, dialect_) : nullptr;
          fixed = fixed && companion && std::any_of(kept.begin(), kept.end(), [&](const Source& k) {
                    return k.column == companion && k.instance == read.instance;
                  });
        }
        if (!fixed) read.mixed = true;
      }
      return;
    }
    ast::for_each_child(x, walk);
  };
  walk(e);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Lineage Admitter::lineage(const ast::Expr& e, const ExprContext& ctx) {
  Taint inputs = Taint::None;  // the most tainted input, in any position
  auto in = [&](const ast::Expr& x) {
    const Lineage l = lineage(x, ctx);
    inputs = std::max(inputs, l.taint);
    return l.kind;
  };
  auto sorts = [&](const std::vector<ast::SortItem>& items) {
    ValueKind k = ValueKind::Null;
    for (const auto& s : items) k = join_kind(k, in(*s.expr));
    return k;
  };
  auto window = [&](const ast::WindowSpec& w) {
    for (const auto& p : w.partition_by) in(p);
    sorts(w.order_by);
    if (w.frame.start.offset) in(**w.frame.start.offset);
    if (w.frame.end && w.frame.end->offset) in(**w.frame.end->offset);
  };
  // The value of a node of kind `kind` computed from the inputs read so far.
  auto derived = [&](ValueKind kind) -> Lineage {
    if (inputs == Taint::None) return {Taint::None, kind};
    return {kind == ValueKind::Other ? Taint::Text : Taint::Measured, kind};
  };
  return std::visit(
      [&](const auto& n) -> Lineage {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::ColumnRef>) {
          if (n.star) return {Taint::Text, ValueKind::Other};  // refused inside expressions; fail closed
          return column_lineage(n, ctx);
        } else if constexpr (std::is_same_v<T, ast::Literal>) {
          switch (n.kind) {
            case ast::LiteralKind::Integer:
            case ast::LiteralKind::Numeric:
            case ast::LiteralKind::Boolean:
              return {Taint::None, ValueKind::Number};
            case ast::LiteralKind::Null:
              return {Taint::None, ValueKind::Null};
            case ast::LiteralKind::String:
              return {Taint::None, ValueKind::Other};
          }
          return {Taint::Text, ValueKind::Other};
        } else if constexpr (std::is_same_v<T, ast::SqlValue>) {
          return {Taint::None, ValueKind::Other};  // the clock
        } else if constexpr (std::is_same_v<T, ast::Param>) {
          // A value bound from configuration or a caller's identity is trusted
          // unless its declaration says it is end-user text; undeclared: fail closed.
          const auto spec = param_spec(n.name);
          return {spec && !spec->untrusted ? Taint::None : Taint::Text, ValueKind::Other};
        } else if constexpr (std::is_same_v<T, ast::FuncCall>) {
          ValueKind arguments = ValueKind::Null;
          for (const auto& a : n.args) arguments = join_kind(arguments, in(a));
          arguments = join_kind(arguments, sorts(n.within_group));  // mode() / percentile_disc() return a sort key
          if (n.filter) in(**n.filter);
          sorts(n.order_by);
          if (n.over) {
            window(*n.over);
            // OVER w / OVER (w ...): the named window's clauses, and those of the window it refines.
            std::string base = n.over->base_name;
            for (std::size_t hops = 0; !base.empty() && lineage_windows_ && hops <= lineage_windows_->size(); ++hops) {
              auto named = std::find_if(lineage_windows_->begin(), lineage_windows_->end(),
                                        [&](const ast::NamedWindow& w) { return same(w.name, base); });
              if (named == lineage_windows_->end()) break;
              window(named->spec);
              base = named->spec.base_name;
            }
            if (!base.empty()) inputs = Taint::Text;  // a window lineage could not read: fail closed
          }
          const auto* row = capability::find_function(n.name);
          return derived(row ? kind_of(row->returns, arguments) : ValueKind::Other);
        } else if constexpr (std::is_same_v<T, ast::Operator>) {
          ValueKind operands = n.left ? in(**n.left) : ValueKind::Null;
          operands = join_kind(operands, in(*n.right));
          const auto* row = capability::find_operator(n.op);
          if (!row) return derived(ValueKind::Other);
          // A prefix form (-x, +x, ~x) returns its operand's kind: SQLite's +x is x itself.
          return derived(kind_of(n.left ? row->returns : capability::Returns::LikeArguments, operands));
        } else if constexpr (std::is_same_v<T, ast::BoolOp>) {
          for (const auto& a : n.args) in(a);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::NullTest> || std::is_same_v<T, ast::BoolTest>) {
          in(*n.arg);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::DistinctFrom>) {
          in(*n.left);
          in(*n.right);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::InList>) {
          in(*n.arg);
          for (const auto& i : n.items) in(i);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::Between>) {
          in(*n.arg);
          in(*n.low);
          in(*n.high);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::Like>) {
          in(*n.arg);
          in(*n.pattern);
          if (n.escape) in(**n.escape);
          return derived(ValueKind::Number);
        } else if constexpr (std::is_same_v<T, ast::NullIf>) {
          const ValueKind k = in(*n.left);
          in(*n.right);
          return derived(k);
        } else if constexpr (std::is_same_v<T, ast::Case>) {
          // The conditions choose among the results, so they are inputs too:
          // CASE WHEN x LIKE 'a%' THEN 'a' WHEN ... spells x out.
          if (n.operand) in(**n.operand);
          ValueKind results = ValueKind::Null;
          for (const auto& w : n.whens) {
            in(*w.condition);
            results = join_kind(results, in(*w.result));
          }
          if (n.otherwise) results = join_kind(results, in(**n.otherwise));
          return derived(results);
        } else if constexpr (std::is_same_v<T, ast::Coalesce> || std::is_same_v<T, ast::MinMax>) {
          ValueKind k = ValueKind::Null;
          for (const auto& a : n.args) k = join_kind(k, in(a));
          return derived(k);
        } else if constexpr (std::is_same_v<T, ast::Cast>) {
          in(*n.arg);
          const auto* row = capability::find_cast(n.type.name);
          // CAST(ascii(x) AS text) rebuilds text from a measure: Text.
          return derived(row ? kind_of(row->returns, ValueKind::Other) : ValueKind::Other);
        } else if constexpr (std::is_same_v<T, ast::SubLink>) {
          if (n.kind == ast::SubLinkKind::Scalar) return output_lineage(*n.query, 0);
          // EXISTS / IN / ANY / ALL: a boolean computed from the test and every output column.
          if (n.test) in(**n.test);
          auto it = query_lineage_.find(&*n.query);
          if (it == query_lineage_.end())
            inputs = Taint::Text;
          else
            for (const auto& l : it->second) inputs = std::max(inputs, l.taint);
          return derived(ValueKind::Number);
        } else {
          static_assert(kAlwaysFalse<T>, "lineage: every expression node kind needs its own branch");
        }
      },
      e.node);
}

}  // namespace qg::admit::detail
