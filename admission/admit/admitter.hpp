#pragma once
// The admission walker, shared by admit_names.cpp (resolution and the rewrites
// that happen at a name), admit_expr.cpp (expressions and the capability
// table) and admit_query.cpp (queries, FROM, grouping). Private to admission/admit.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/admit/scope.hpp"
#include "admission/capability/capability.hpp"
#include "common/pg_time.hpp"

namespace qg::admit::detail {

std::optional<int> pos(int location);
// The end (one past the closing quote) of the quoted token ('...' or "...", a doubled quote inside it)
// that starts at `begin` in `sql`.
std::optional<int> quoted_token_end(std::string_view sql, int begin);
std::string join_names(const std::vector<std::string>& names, std::size_t max = 40);
bool is_system_column(std::string_view name);
// What the engine will call an unaliased select item.
std::string figure_name(const ast::Expr& e);
// An aggregate call of the query it stands in (not windowed; not SQLite's scalar max(a, b)) (dialect.cpp).
bool is_aggregate_call(const ast::FuncCall& f);
bool has_aggregate(const ast::Expr& e);
// Whether e reads a row: a column or a subquery anywhere in it (else a constant: literals, casts, arithmetic of them).
bool reads_rows(const ast::Expr& e);  // an aggregate call at this level (not inside a subquery)

// One timestamp column standing for several branches (COALESCE, CASE, set
// operations) when every branch is one and all store times alike; else nullptr.
const catalog::Column* common_time_column(const std::vector<const catalog::Column*>& branches);

// Why an expression has no bound at all (a printf format that is not a literal, ...).
struct SizeProblem {
  std::string why;
  std::string fix;
};

// A name json_each has as a column (json_rows.cpp): next to a jsonb row source on SQLite, a bare one is ambiguous.
bool json_each_column(std::string_view name);

// The type one column, CASE or COALESCE holds when its values have these two (value_types.cpp).
ValueType common_type(ValueType a, ValueType b);
// A derived table's, CTE's, VALUES list's or set operation's column types as PostgreSQL resolves them for the
// query reading it: an untyped literal's column is text (branch_types.cpp).
std::vector<ValueType> resolved_unknowns(std::vector<ValueType> types);
// PostgreSQL's int4in / int8in (signatures.cpp): the integer a text reads as, or nullopt (`range` set when
// only the range fails).
std::optional<std::int64_t> read_pg_integer(std::string_view s, bool int8, bool& range);
// What a stored timestamp column holds (time_types.cpp): date, timestamp or timestamptz.
pgtime::Kind stored_kind(const catalog::Column& c);
// The kind two timestamp-like values meet in (date → timestamp → timestamptz; time_types.cpp).
pgtime::Kind common_kind(pgtime::Kind a, pgtime::Kind b);
bool timestamp_like(std::optional<pgtime::Kind> k);  // a date, timestamp or timestamptz
// PostgreSQL's name of a value's type for messages ("bigint", "timestamp with time zone"; "unknown" when
// admission cannot tell), the time kind naming a time.
std::string sql_type_words(const ValueType& v, std::optional<pgtime::Kind> kind);
// The output column (of `names`) an ORDER BY item of a set operation or VALUES list names: by position or name
// (json_on_sqlite.cpp).
std::optional<std::size_t> sorted_output_column(const ast::SortItem& item, const std::vector<std::string>& names);
// An expression as messages and FIX examples show it (PostgreSQL's spelling on every backend; value_types.cpp).
std::string shown(const ast::Expr& e, Dialect d);
// The whole expression as written (for a FIX to copy), or "x" past 200 characters (value_types.cpp).
std::string written_whole(const ast::Expr& e);
// A sort key's two letters in pg_string_agg's / pg_array_agg's specification (aggregates_on_sqlite.cpp).
std::string sort_letters(const ast::SortItem& item);
// PostgreSQL's "VALUES lists must all be the same length" (admit_query.cpp).
Status same_width(const std::vector<std::vector<ast::Expr>>& rows, int location);

// The NULL literal.
inline bool null_literal(const ast::Expr& e) {
  const auto* l = std::get_if<ast::Literal>(&e.node);
  return l && l->kind == ast::LiteralKind::Null;
}

// pg_numeric_literal('1.6'), the printed form of a numeric literal on SQLite (admission/render), made that
// literal again, so that the printed statement is a fixed point: its value and its column name (admit_expr.cpp).
bool read_back_numeric_literal(ast::Expr& e);

// A call that computes a numeric exactly on SQLite (pg_numeric_div / _arith / _math / _sum / _avg, and
// pg_numeric_value of a derived table's exact column), and the same asked for its decimal text, for another exact
// computation to read (numeric_scale_on_sqlite.cpp).
bool exact_call(const ast::Expr& e);
bool exact_text(ast::Expr& e);
bool exact_double(ast::Expr& e);
// An exact call whose text form would print digits no operand had (it reads a double that stands for an exact value,
// or power's text, which has not PostgreSQL's scale).
bool double_of_exact(const ast::Expr& e);
bool exact_ordered_call(const ast::FuncCall& f);
// An exact call (or a number, a numeric literal) as its decimal text under SQLite's pg_numeric collation, by which
// SQLite groups, sorts and dedupes it as PostgreSQL does the numeric; `scale`: a number's, when known (else -1).
// false: unchanged (already so, or an exact call whose text would have made-up digits).
bool collated_numeric(ast::Expr& e, int scale);
// The expression with every pg_numeric_value(v) made v (a reference to an exact column, as admitting again reads it).
void without_values(ast::Expr& e);

// Per column, the widest of two lists of bounds (set-operation branches, VALUES rows).
std::vector<SizeBound> widest_bounds(const std::vector<SizeBound>& a, const std::vector<SizeBound>& b);

struct ExprContext {
  const Scope* scope = nullptr;
  const CteEnv* ctes = nullptr;
  const std::vector<std::string>* output_names = nullptr;      // ORDER BY / GROUP BY may name select-list aliases
  const std::vector<ast::SelectItem>* output_items = nullptr;  // their expressions, in the same order
};

class Admitter {
 public:
  Admitter(const catalog::Catalog& catalog, std::string_view sql, int max_expression_growth,
           const config::HiddenColumns* hidden, const std::vector<ParamSpec>* params = nullptr)
      : catalog_(catalog),
        dialect_(catalog.dialect),
        sql_(sql),
        max_expression_growth_(max_expression_growth),
        hidden_(hidden),
        params_(params) {}

  Result<std::vector<std::string>> query(ast::Query& q, const Scope* outer, const CteEnv* ctes);
  // An exact numeric column of a derived table, CTE or the statement itself holds its decimal text on SQLite
  // (numeric_scale_on_sqlite.cpp).
  void exact_columns_on_sqlite(ast::Query& q, const std::vector<ValueType>* set_types = nullptr);

  std::vector<std::string> rewrites;
  std::vector<std::string> notes;
  // Per output column of an admitted query: may it carry untrusted text (lineage Text)?
  std::vector<bool> untrusted_outputs(const ast::Query& q, std::size_t width) const;
  // Per output column of an admitted query: how long can its values be?
  const std::vector<SizeBound>& bounds_of(const ast::Query& q) const;
  // Per output column of an admitted query: the stored columns it reads (empty when unknown).
  std::vector<Reads> output_reads(const ast::Query& q, std::size_t width) const;
  // Per output column of an admitted query: the stored cells it passes on unchanged (Relation::plain).
  std::vector<Reads> output_plain(const ast::Query& q, std::size_t width) const;
  // Per output column: the stored timestamp column it passes on, if any (issue #12, one answer format).
  std::vector<const catalog::Column*> output_times(const ast::Query& q) const { return query_times(q); }

 private:
  const catalog::Column* timestamp_column(const ast::Expr& e, const ExprContext& ctx);
  Status time_literal(const ast::Expr& column_side, ast::Expr& literal_side, const ExprContext& ctx);
  Status construct(capability::Construct c, int location);
  Status numeric_text_cast(const ast::Cast& c, int location);
  Status big_number_literal(const ast::Literal& lit, int location);
  Status expr(ast::Expr& e, const ExprContext& ctx);
  Status exprs(std::vector<ast::Expr>& list, const ExprContext& ctx);
  Status sort_items(std::vector<ast::SortItem>& items, const ExprContext& ctx);
  Status window(ast::WindowSpec& w, const ExprContext& ctx, int location);
  // The relation a column reference resolves to (nullptr: a select-list alias).
  Result<const Relation*> column(const ast::ColumnRef& ref, int location, const ExprContext& ctx);
  Result<const Relation*> resolve_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx);
  // How the last resolve_column() wants an unqualified name that a hidden column
  // shadows to be written, so the engine cannot resolve it to the hidden column:
  // qualified with its relation's name, or replaced by the output column's expression.
  struct ShadowFix {
    std::string qualifier;
    const ast::Expr* output = nullptr;
  };
  ShadowFix shadow_fix_;
  // Set while an ORDER BY expression is admitted on PostgreSQL: an output column's name there (ORDER BY -n) is
  // PostgreSQL's error and SQLite's alias; it is replaced by the output column's expression (shadow_fix_.output).
  bool outputs_by_value_ = false;
  Status substitute_virtual(ast::Expr& e, const Relation& relation, const ast::ColumnRef& ref, const ExprContext& ctx);
  Status function(ast::FuncCall& f, int location, const ExprContext& ctx);
  // Adds the item's relations to `level` and the columns an unqualified * shows to `star`.
  Status from_item(ast::FromItem& item, Scope& level, const CteEnv* ctes, std::vector<StarColumn>& star);
  // Adds a FROM item's relation to its level; one name twice in one FROM is refused.
  Status add_relation(Scope& level, Relation r, int location);
  // A table name that is no visible CTE and no allowlisted table (or, on
  // SQLite, that a CTE still being defined would capture): the refusal.
  std::optional<Error> cte_being_defined(const ast::TableRef& ref, bool is_table) const;
  Error table_not_available(const ast::TableRef& ref, const CteEnv* ctes) const;
  // A compound SELECT longer than SQLite runs (capability::kSqliteCompoundSelectTerms).
  Status compound_length(const ast::SetOp& set, int location) const;
  // Writes a set-operation member SQLite cannot print bare as SELECT * FROM (member) AS branch.
  void wrap_set_member(ast::Box<ast::Query>& member, bool right);
  // The member wrap_set_member wrapped (SELECT * FROM (member) AS branch), else null.
  static ast::Query* set_member_inner(ast::Query& q);
  static const ast::Query* set_member_inner(const ast::Query& q) {
    return set_member_inner(const_cast<ast::Query&>(q));
  }
  // A set operation member's column types, through wrap_set_member's subquery (whose untyped literals stay
  // untyped, as in PostgreSQL's set-operation member).
  std::vector<ValueType> member_types(const ast::Query& q) const {
    const ast::Query* inner = set_member_inner(q);
    return query_types(inner ? *inner : q);
  }
  Status expand_stars(ast::Select& s, const Scope& level, int location);
  // Names a subquery's output columns so that outer references and stars find
  // each by the name admission resolved; returns the names that were duplicated.
  std::vector<std::string> name_outputs(ast::Query& q, std::vector<std::string>& names);
  Status group_items(std::vector<ast::GroupItem>& items, const ExprContext& ctx);
  Result<std::vector<std::string>> select(ast::Select& s, Scope& level, const CteEnv* ctes,
                                          std::vector<ast::SortItem>& order_by, int location);
  void note_rewrite(std::string_view name) {
    if (std::find(rewrites.begin(), rewrites.end(), name) == rewrites.end()) rewrites.emplace_back(name);
  }
  bool same(std::string_view a, std::string_view b) const { return catalog::Catalog::same_name(a, b, dialect_); }
  Error unknown_column(const ast::ColumnRef& ref, int location, const ExprContext& ctx) const;
  // An unknown "X" compared with an expression that reads a column (a = "X", a IN ("X")): SQLite's
  // reading of it as the text 'X' is the likely intent, so the refusal carries that edit (suggested_sql).
  Status text_meant(Status refused, const ast::Expr& operand, const ast::Expr& other, std::string_view op) const;

  // Where an engine would read the statement differently from PostgreSQL's meaning (dialect.cpp).
  const catalog::Column* base_column(const ast::Expr& e, const ExprContext& ctx);
  Status json_arrow(ast::Operator& op, const ast::Expr& node, int location);
  Status text_arithmetic(const ast::Operator& op, const ExprContext& ctx, int location);
  // x / 0 and x % 0 (PostgreSQL's "division by zero", SQLite's NULL); x % y with a fraction (SQLite
  // drops it first: 10 % 3.5 is 1 there, 3.0 in PostgreSQL).
  // sum/avg of a timestamp, CAST(timestamp AS integer): PostgreSQL's error, SQLite reads the year.
  Status time_as_number_on_sqlite(const ast::Expr& e, const ExprContext& ctx, int location);
  // round(float8) rounds halves to even in PostgreSQL (rint), away from zero in SQLite: replaced by a
  // CASE on floor() that rounds as PostgreSQL does.
  void float_round_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  void numeric_scale_on_sqlite(ast::Expr& e, const ExprContext& ctx);  // numeric_scale_on_sqlite.cpp
  void exact_operator(ast::Expr& e, const ExprContext& ctx);
  void float_division(ast::Operator& o, const ExprContext& ctx);
  bool numeric_of_float(const ast::Expr& e, const ExprContext& ctx);
  void exact_numeric_aggregate(ast::FuncCall& f, const ExprContext& ctx);
  void exact_comparison(ast::Expr& e, const ExprContext& ctx);
  void exact_membership(ast::Expr& e, const ExprContext& ctx);
  bool exact_function(ast::Expr& e, const ExprContext& ctx);
  bool float_window_sum(ast::FuncCall& f, const ExprContext& ctx);
  bool exact_column_on_sqlite(ast::Expr& e, const Relation& r);
  void exact_arguments_on_sqlite(ast::FuncCall& f);
  Result<bool> exact_subquery_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  bool exact_extreme(ast::FuncCall& f);
  bool exact_window_value(ast::Expr& e);
  void exact_values_on_sqlite(std::vector<std::vector<ast::Expr>>& rows, std::vector<ValueType>& types);
  void exact_members(ast::Query& q, std::vector<bool>& exact, const std::vector<ValueType>& set_types);
  bool collate_members(ast::Query& q, std::size_t i);
  bool exact_ordered_set(ast::Expr& e);
  void exact_distinct_from(ast::DistinctFrom& d, const ExprContext& ctx);
  std::string exact_sort_key(ast::SortItem& item, const ExprContext& ctx);
  void exact_case_operand(ast::Expr& e, const ExprContext& ctx);
  void shift_on_sqlite(ast::Expr& e, const ExprContext& ctx);  // numbers_on_sqlite.cpp
  Status arithmetic_on_sqlite(const ast::Operator& op, const ExprContext& ctx, int location);
  Status cast_on_sqlite(ast::Cast& cast, const ExprContext& ctx, int location);
  // A boolean, float8 or numeric written into text (|| and CAST(x AS text)) as PostgreSQL writes it, on SQLite
  // (text_of_values.cpp): wrapped in pg_bool_text / pg_float8_text / pg_numeric_text, or refused.
  Status value_as_text_on_sqlite(ast::Expr& value, const ExprContext& ctx, int location);
  Status bool_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);  // CAST(x AS boolean)
  // a || b where neither side is text: PostgreSQL has no such operator (boolean || integer), SQLite would join.
  Status concat_types_on_sqlite(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx, int location);
  // Numbers on SQLite as PostgreSQL computes them (numbers_on_sqlite.cpp): a numeric or float cast to an
  // integer type is rounded (true when done), CAST(x AS numeric(p, s)) rounds and checks the precision,
  // trunc(x, n) keeps n decimals (on PostgreSQL: of the numeric, as round(x, n)), GREATEST / LEAST skip NULLs.
  bool integer_cast_rounds_on_sqlite(ast::Cast& cast, const ExprContext& ctx);
  // Integer (int4) and smallint + - * / % on SQLite (numbers_on_sqlite.cpp): constant arithmetic computed and
  // PostgreSQL's "integer out of range" refused; other such arithmetic wrapped in pg_int4 / pg_int2 unless
  // `checked` (already their argument). `handled`: `e` was such arithmetic (no pg_int8 check).
  Status int4_arithmetic_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool checked, bool& handled);
  Status int4_column_arithmetic(ast::Expr& e, const ExprContext& ctx, bool checked, bool& handled);
  // abs(x) of an integer / smallint on SQLite: abs(-2147483648) is PostgreSQL's "integer out of range"
  // (a constant refused, the rest through pg_int4 / pg_int2), unless `checked`.
  Status int4_abs_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool checked);
  // 4: PostgreSQL's type of `e` is certainly integer; 2: smallint; 0: bigint, not known or not an integer.
  int int_width(const ast::Expr& e, const ExprContext& ctx);
  // value_type, with an integer's width (ValueType::width): the type a column of a derived table, CTE,
  // VALUES list or set operation passes on.
  ValueType column_value_type(const ast::Expr& e, const ExprContext& ctx) {
    ValueType t = value_type(e, ctx);
    if (t.type == SqlType::Integer) t.width = t.int8 ? 0 : int_width(e, ctx);  // a Float keeps its (real: 4)
    return t;
  }
  Status numeric_typmod_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  void trunc_digits(ast::Expr& e, const ExprContext& ctx);
  Status greatest_least_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  // Integers and numerics compared with a float8 on SQLite: cast to float8, as PostgreSQL compares them.
  void float_comparison_on_sqlite(const std::vector<ast::Expr*>& operands, const ExprContext& ctx);
  // `integer_column = double` where only matching rows are kept: the double as the integer it is (pg_exact_int), so
  // that SQLite looks the column up in its index (numbers_on_sqlite.cpp). True when rewritten so.
  bool integer_key_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  // An uncurated TEXT column of a SQLite file (typed as not known; value_types.cpp).
  bool loose_text_column(const ast::Expr& e, const ExprContext& ctx);
  // The comparisons a WHERE or JOIN ... ON keeps rows by (its AND terms), while it is admitted: there a NULL drops
  // the row as false does.
  std::set<const ast::Expr*> filter_conditions_;
  class FilterConditions {
   public:
    FilterConditions(Admitter& a, const ast::Expr& condition) : a_(a) { add(condition); }
    ~FilterConditions() {
      for (const ast::Expr* e : added_) a_.filter_conditions_.erase(e);
    }
    FilterConditions(const FilterConditions&) = delete;
    FilterConditions& operator=(const FilterConditions&) = delete;

   private:
    void add(const ast::Expr& e) {
      if (a_.filter_conditions_.insert(&e).second) added_.push_back(&e);
      if (const auto* b = std::get_if<ast::BoolOp>(&e.node); b && b->kind == ast::BoolOpKind::And)
        for (const auto& term : b->args) add(term);
    }
    Admitter& a_;
    std::vector<const ast::Expr*> added_;
  };
  // Output column i of q (each branch of a set operation) cast to float8 where it is a bigint or numeric: the
  // column meets a double precision one (numbers_on_sqlite.cpp). `all`: the set operation keeps duplicates.
  Status float_output_on_sqlite(ast::Query& q, std::size_t i, bool all, int location);
  // jsonb paths on SQLite (json_on_sqlite.cpp): #>> / #> and jsonb_extract_path[_text] become arrow chains,
  // x ? 'key' pg_jsonb_exists. `replaced`: `e` is a new node, to be admitted as written.
  Status json_path_on_sqlite(ast::Expr& e, bool& replaced);
  Status jsonb_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool json_read,
                              bool& replaced);  // json_on_sqlite.cpp
  Status json_exists_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  // SELECT DISTINCT ON on SQLite (distinct_on.cpp): the first row per group by row_number(), in place.
  Status distinct_on_on_sqlite(ast::Query& q);
  // GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING() on SQLite (grouping_sets_on_sqlite.cpp): one GROUP BY
  // per grouping set, appended with UNION ALL, in place.
  Status grouping_sets_on_sqlite(ast::Query& q);
  bool number_valued(const ast::Expr& e, const ExprContext& ctx);
  bool integer_valued(const ast::Expr& e, const ExprContext& ctx);
  Status narrowing_integer_cast_on_sqlite(ast::Cast& cast, const ExprContext& ctx, int location);
  bool text_or_unknown(const ast::Expr& e, const ExprContext& ctx);
  Status ilike_on_sqlite(ast::Like& like, int location);
  Status like_pattern_on_sqlite(const ast::Like& like, int location);
  // PostgreSQL reads an untyped text literal compared with a number as that number's type
  // ('1' = 1 is true, '2.5' = 1 an error); SQLite compares text with a number as unequal.
  // SQLite keeps timestamps as ISO-8601 text ('2026-10-05T22:47:52.120+00:00'); PostgreSQL's text of a
  // timestamptz is '2026-10-05 22:47:52.12+00'. Replaces a timestamp column used as text by an
  // expression printing PostgreSQL's text, or refuses when the stored format cannot be.
  Status time_as_text_on_sqlite(ast::Expr& e, const ExprContext& ctx, int location);
  // date('2026-10-05 23:30:00-02:00'): PostgreSQL reads the literal as a date (2026-10-05), SQLite
  // converts it to UTC first (2026-10-06).
  void date_literal_on_sqlite(ast::FuncCall& f);
  // CAST(1.50 AS text), 1e3 || '': PostgreSQL prints the numeric ('1.50', '1000'), SQLite the double
  // ('1.5', '1000.0'): the literal becomes PostgreSQL's text.
  bool numeric_literal_as_text(ast::Expr& e);
  // A timestamp compared with text that is not a literal ((SELECT '...'), a CTE's or VALUES' text column):
  // PostgreSQL refuses it, SQLite compares the texts.
  Status time_text_comparison(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx, int location);
  // Per output column: every value is a text literal.
  static std::vector<bool> literal_texts(const ast::Query& q);
  static std::vector<bool> literal_texts(const std::vector<std::vector<ast::Expr>>& rows, std::size_t width);
  // SELECT '1' UNION SELECT 1: PostgreSQL types the column integer and reads '1' as 1 (one row);
  // SQLite keeps the text and the number apart (two rows). Number texts become numbers there.
  // A set operation's text literals on SQLite (dialect.cpp): read as the column's number or boolean type
  // (PostgreSQL's error when they are not one), or as the number other branches give (a column of unknown type).
  Status set_literals_on_sqlite(ast::SetOp& set, const std::vector<ValueType>& types, int location);
  // A set operation's member SELECTs, through nested set operations and wrap_set_member's subqueries.
  static std::vector<ast::Query*> set_leaves(ast::SetOp& set);
  // A set operation's column of one time kind on SQLite (time_types.cpp): its quoted literals read as that kind,
  // and where stored timestamp columns meet computed times, the stored members in the computed form (pg_from_key
  // of their key); `kinds` then holds the computed kind. UNION, INTERSECT, EXCEPT and a grouped UNION ALL
  // compared the stored texts with the computed ones (created_at + interval '0 hour' UNION created_at answered
  // 10 rows for 5) and with the literal's text.
  Status times_in_set_on_sqlite(ast::SetOp& set, std::vector<std::optional<pgtime::Kind>>& kinds);
  // SQLite has no boolean type: a condition compared with a text literal
  // ('true', 't') or cast to text answers 1/0 where PostgreSQL reads or
  // prints a boolean: refused with a FIX (red team, 2026-12-01).
  Status boolean_text_on_sqlite(const ast::Expr& condition, const ast::Expr& other, const ExprContext& ctx,
                                int location);
  Status text_literal_as_number(ast::Expr& literal_side, const ast::Expr& other, const ExprContext& ctx, int location);
  Status check_grouping(const ast::Select& s, const Scope& level, const std::vector<ast::SortItem>& order_by,
                        const std::vector<std::string>& names, int location);
  // SQLite sorts NULLs first ascending, PostgreSQL last: writes PostgreSQL's
  // order into a sort item that could meet a NULL. `sorted` is what the item
  // sorts by (the select item when it names an output column).
  void nulls_order_on_sqlite(ast::SortItem& item, const ast::Expr& sorted, const ExprContext& ctx);
  // ORDER BY a jsonb value on SQLite (json_on_sqlite.cpp): PostgreSQL sorts by jsonb's own order (objects
  // after arrays after booleans after numbers after strings), SQLite by the text: refused with a FIX.
  Status json_sort_on_sqlite(const ast::Expr& sorted, const ExprContext& ctx);
  // ORDER BY <position> or <name> of a UNION / INTERSECT / EXCEPT whose output column is jsonb (SQLite).
  Status json_set_sort_on_sqlite(const std::vector<ast::SortItem>& order_by, const std::vector<std::string>& names,
                                 const std::vector<ValueType>& types);
  // PostgreSQL's time family on SQLite (time_types.cpp): the kind of an expression (a stored timestamp
  // column, or a computed time, date or interval), and the translations that replace `e` in place.
  std::optional<pgtime::Kind> time_kind(const ast::Expr& e, const ExprContext& ctx);
  bool computed_time(const ast::Expr& e, const ExprContext& ctx);  // a time kind that is not a stored column
  Status time_operator_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  Status time_comparison_on_sqlite(std::vector<ast::Expr*> operands, const ExprContext& ctx, int location);
  // x IN / op ANY / op ALL (subquery) where a side is a computed time: compared as text by SQLite.
  Status time_subquery_on_sqlite(ast::Expr& test, const ast::Query& q, const ExprContext& ctx, int location);
  // Computed intervals on SQLite compared as PostgreSQL compares them, under the pg_interval collation
  // (time_types.cpp; executors/sqlite/sqlite_time.cpp): a text per interval differs for equal intervals ('1 day',
  // '24:00:00'), so DISTINCT, GROUP BY, set operations, count(DISTINCT), IN (SELECT ...), min / max and PARTITION BY
  // compared texts. `e` as (e) COLLATE pg_interval; a select item keeps its output name.
  void collate_interval(ast::Expr& e);
  void collate_interval_item(ast::SelectItem& item);
  // DISTINCT items and GROUP BY keys of a SELECT whose kind is interval (`names`: its output names).
  void interval_keys_on_sqlite(ast::Select& s, const ExprContext& ctx, const std::vector<std::string>& names,
                               const std::vector<std::optional<pgtime::Kind>>& kinds);
  // A stored time as the computed form of `kind` (pg_from_key of its key), which prints and compares as one text per
  // value (time_types.cpp).
  void in_computed_form(ast::Expr& stored, pgtime::Kind kind);
  bool mixed_time_on_sqlite(ast::Expr& e, const Relation& r);  // a column of mixed text forms, as times
  Status time_set_sort_on_sqlite(const std::vector<ast::SortItem>& order_by, const std::vector<std::string>& names,
                                 const std::vector<std::optional<pgtime::Kind>>& kinds, std::string_view what);
  Status time_using_on_sqlite(const std::string& u, const std::vector<const StarColumn*>& sides, const Scope& level,
                              int location);
  const ast::Expr* time_key_argument_ = nullptr;  // pg_time_key's column argument, read as a time already
  // A column of numbers beside texts (catalog::Column::stored_mixed) as CAST(x AS TEXT); the column argument of a
  // cast to text is read as text already.
  bool mixed_storage_on_sqlite(ast::Expr& e, const Relation& r);
  const ast::Expr* text_cast_argument_ = nullptr;
  // A quoted literal read as a time of `kind` (PostgreSQL's unknown meeting it): CAST(literal AS kind), admitted.
  Status untyped_as_time(ast::Expr& literal, pgtime::Kind kind, const ExprContext& ctx);
  Status time_function_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  // PostgreSQL's text functions and regular expressions on SQLite (text_on_sqlite.cpp): replaced in place by
  // the registered pg_* functions (or SQLite's own where exact), or refused with a FIX.
  Status text_function_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  Status json_function_on_sqlite(ast::Expr& e, const ExprContext& ctx);  // json_on_sqlite.cpp
  Status regex_operator_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  Status text_argument_on_sqlite(ast::Expr& arg, const ExprContext& ctx, const std::string& function, bool printed);
  // PostgreSQL's statistics, string_agg and ordered-set aggregates on SQLite (aggregates_on_sqlite.cpp): the call
  // admitted and replaced by a registered aggregate's (`replaced`), or refused with a FIX.
  Status aggregate_on_sqlite(ast::FuncCall& f, int location, const ExprContext& ctx, bool& replaced);
  // PostgreSQL arrays on SQLite (arrays_on_sqlite.cpp): array_agg as pg_array_agg (sorting and deduplicating
  // itself), and the one place an array value may stand there: a whole output column of the outermost SELECT
  // (`array_item_`), never compared, grouped, sorted, made distinct or read by another expression.
  Status array_agg_on_sqlite(ast::FuncCall& f, int location, const ExprContext& ctx);
  Status array_position_on_sqlite(const ast::FuncCall& f, int location);
  Status array_output_reference_on_sqlite(const ast::Expr& output, int location, const char* where);
  Status array_outputs_on_sqlite(const ast::Select& s, int location);
  const ast::Expr* array_item_ = nullptr;
  Status time_cast_on_sqlite(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  Status now_on_sqlite(ast::Expr& e);
  // to_timestamp, to_date, make_date, sum/avg of intervals and INTERVAL '3' DAY (time_constructors.cpp).
  Status time_constructor_on_sqlite(ast::Expr& e, const ExprContext& ctx);
  Status interval_fields_on_sqlite(ast::Cast& c, int location);
  // generate_series(start, stop, interval) in a select list on SQLite (series_on_sqlite.cpp): the
  // query is rewritten around a pg_series FROM item, admitted by series_table_on_sqlite.
  Status series_select_on_sqlite(ast::Query& q);

 public:
  // Whether `q` has a jsonb_* row source anywhere (json_rows.cpp); set before admission.
  void note_json_rows(const ast::Query& q);

 private:
  Status series_table_on_sqlite(ast::SeriesTable& t, const Scope& level, const CteEnv* ctes, Relation& r, int location);
  // jsonb_each / jsonb_object_keys / ... in FROM (json_rows.cpp): the row source admitted, and on SQLite every
  // reference to its columns (or to a column named like one of json_each's) qualified and pointed at json_each's.
  Status json_rows_table(ast::JsonRows& t, const Scope& level, const CteEnv* ctes, Relation& r, int location);
  Status json_rows_reference(ast::ColumnRef& ref, const Relation& relation, int location);
  bool json_rows_in_statement_ = false;
  void time_sort_on_sqlite(ast::SortItem& item, const ast::Expr& sorted, const ExprContext& ctx);
  // pg_percentile_disc / pg_mode of pg_time_key(x, kind) (aggregates_on_sqlite.cpp): the value rebuilt from the key.
  void time_from_key(ast::Expr& e);
  bool sort_grouped_ = false;  // the ORDER BY being admitted belongs to a grouped select (admit_query.cpp)
  std::vector<std::optional<pgtime::Kind>> select_kinds(const ast::Select& s, const ExprContext& ctx);
  int query_depth_ = 0;
  // Time windows of the outermost WHERE (time_windows.cpp): the candidates read before it is admitted
  // (their bounds as written), kept once its column proves to be a table's timestamp column.
  struct WindowCandidate {
    ast::Expr column;  // the column reference as written
    std::string bound;
    bool lower = false;
    bool clock = false;
  };
  std::vector<WindowCandidate> window_candidates(const ast::Expr& where) const;
  void keep_windows(std::vector<WindowCandidate> candidates, const ExprContext& ctx);

 public:
  std::vector<TimeWindow> windows;

 private:
  std::map<const ast::Query*, std::vector<std::optional<pgtime::Kind>>> query_kinds_;  // computed time outputs
  std::vector<std::optional<pgtime::Kind>> select_kinds_;                              // the last select()'s items
  std::vector<std::optional<pgtime::Kind>> query_kinds(const ast::Query& q) const {
    auto it = query_kinds_.find(&q);
    return it == query_kinds_.end() ? std::vector<std::optional<pgtime::Kind>>{} : it->second;
  }
  // The one expression whose JSON text (`x -> 'k'`) may be used as is here: the left operand of
  // another arrow, a NULL test, an argument of a SQLite json function.
  const ast::Expr* json_text_allowed_ = nullptr;

  // SQLite spellings on PostgreSQL (sqlite_spellings.cpp): translated into PostgreSQL's meaning or refused.
  // How the parent reads a json_extract()/datetime() call decides its translation's type.
  enum class SpellingUse : std::uint8_t { Value, Number, NullOrText, Time };
  std::map<const ast::Expr*, SpellingUse> spelling_uses_;
  void spelling_use(const ast::Expr& e, SpellingUse use);
  void spelling_uses_in_comparison(const ast::Expr& a, const ast::Expr& b, const ExprContext& ctx);
  bool text_alike(const ast::Expr& e, const ExprContext& ctx);
  std::optional<ast::Expr> spelled_time(ast::Expr& arg, const ExprContext& ctx, std::string& why);
  std::optional<ast::Expr> apply_modifiers(ast::Expr t, std::vector<ast::Expr>& args, const ExprContext& ctx,
                                           std::string& why);
  Status sqlite_spelling_on_postgres(ast::Expr& e, const ExprContext& ctx, bool& replaced);
  // strftime directives and date / time modifiers this SQLite (3.40) does not know (it answers NULL), and
  // 'localtime' / 'utc' (the host's zone): refused on SQLite (sqlite_spellings.cpp).
  Status sqlite_time_words(const ast::FuncCall& f, int location) const;
  void round_numeric_on_postgres(ast::FuncCall& f, const ExprContext& ctx);

  // PostgreSQL's types at admission (value_types.cpp): the type of an admitted expression, through
  // derived tables, CTEs, set operations, CASE, COALESCE and subqueries (one derivation for all).
  ValueType value_type(const ast::Expr& e, const ExprContext& ctx);
  // Type errors PostgreSQL raises ("operator does not exist: text = integer", "function sum(text) does
  // not exist", text arithmetic, jsonb where text is needed): refused here on both backends, with the
  // typed alternative, instead of SQLite's answer or PostgreSQL's error after a round trip.
  Status quantified_types(const ast::SubLink& link, const ExprContext& ctx, int location);
  Status operator_types(const ast::Operator& op, const ExprContext& ctx, int location);
  Status condition_type(const ast::Expr& e, const ExprContext& ctx, std::string_view clause);
  void values_time_literals(std::vector<std::vector<ast::Expr>>& rows);
  std::vector<std::optional<pgtime::Kind>> values_time_kinds(const std::vector<std::vector<ast::Expr>>& rows,
                                                             const ExprContext& ctx);
  Status distinct_order_by(const ast::Select& s, const std::vector<ast::SortItem>& order_by);
  Status function_types(ast::FuncCall& f, const ExprContext& ctx, int location);
  Status like_types(const ast::Like& like, const std::string& written, const ExprContext& ctx, int location);
  // A call checked against PostgreSQL's argument signatures (signatures.cpp, capability/signatures.hpp):
  // refused when a known argument type has no signature; an untyped literal where only an integer is
  // taken is read as that integer (substr(x, '2') is substr(x, 2); 'a' is PostgreSQL's error). Before
  // the arguments are admitted.
  Status signature_types(ast::FuncCall& f, const ExprContext& ctx, int location, bool arguments_admitted = false);
  // Values that meet in one column (CASE results, COALESCE arguments, set-operation and VALUES columns):
  // PostgreSQL's "types ... cannot be matched", and on SQLite a date meeting a timestamptz (branch_types.cpp).
  struct Branch {
    ValueType type;
    std::optional<pgtime::Kind> kind;
    const ast::Expr* expr = nullptr;  // for the refusal's position and FIX; null for a set operation's column
  };
  Status branch_types(std::string_view construct, const std::vector<Branch>& branches, int location);
  // An untyped literal that meets a number (an operand of = < + ..., a CASE / COALESCE branch): PostgreSQL
  // reads it as that number's type, and its error when it is not one ('a' = id); SQLite would compare or
  // compute with the text. Replaced by the number it reads as, or refused (branch_types.cpp).
  Status untyped_as_number(ast::Expr& literal, const ValueType& number, std::string_view where, int location,
                           bool refuse = true);
  Status untyped_operand(ast::Operator& op, const ExprContext& ctx, int location);
  // x IN (a, b), x BETWEEN a AND b: each pair typed as x = a, x >= a would be (untyped_operand, operator_types),
  // its literal read as the number it meets. SQLite answered kind IN (1, 'LLM') and trace_id BETWEEN 1 AND 2 by
  // its own rules where PostgreSQL has no such operator.
  // CAST('1.50' AS numeric) on SQLite: the numeric literal 1.50 in the cast, its digits and scale as written and
  // held (or refused) as a bare one is; the text went through SQLite's double ('0.9999999999999999999'::numeric <
  // 1 was false, '0.10'::numeric * id printed 0.1; outside tester s17d).
  void quoted_number_cast(ast::Cast& cast);
  // GREATEST / LEAST and SQLite's scalar max / min on SQLite: all numbers (`numbers`) or all text, else refused
  // as `what` with `fix` (numbers_on_sqlite.cpp).
  Status numbers_or_texts_on_sqlite(const std::vector<ast::Expr>& args, const ExprContext& ctx, const std::string& what,
                                    const std::string& fix, int location, bool& numbers);
  Status compared_types(ast::Expr& x, ast::Expr& y, const std::string& op, const ExprContext& ctx, int location);
  // An untyped literal that meets a boolean: PostgreSQL's boolin ('t', 'yes', 'off' ...), else its error.
  Status untyped_as_boolean(ast::Expr& literal, std::string_view where, int location);
  // A VALUES list's columns, resolved as PostgreSQL does: "VALUES types integer and text cannot be matched",
  // an untyped literal read as the column's type or its error (branch_types.cpp). Rows admitted.
  Status values_types(std::vector<std::vector<ast::Expr>>& rows, const ExprContext& ctx, int location);
  Status untyped_branches(const std::vector<ast::Expr*>& results, const ExprContext& ctx, std::string_view construct,
                          int location);
  // branch_types, then untyped_branches, over CASE results or COALESCE arguments (admitted).
  Status branch_results(const std::vector<ast::Expr*>& results, const ExprContext& ctx, std::string_view construct,
                        int location) {
    std::vector<Branch> branches;
    for (const ast::Expr* r : results) branches.push_back(branch(*r, ctx));
    if (auto s = branch_types(construct, branches, location); !s) return s;
    if (auto s = untyped_branches(results, ctx, construct, location); !s) return s;
    stored_times_in_branches_on_sqlite(results, ctx);
    // A bigint branch meeting a double precision one: PostgreSQL's result is a double (past 2^53 it differs).
    float_comparison_on_sqlite(results, ctx);
    return {};
  }
  // CASE / COALESCE of a stored time column and a computed time on SQLite: the stored branches in the computed
  // form (pg_from_key of their key), as the answer prints one form per column (COALESCE(start_time, now())
  // printed the stored +00:00 where PostgreSQL prints Z; time_types.cpp).
  void stored_times_in_branches_on_sqlite(const std::vector<ast::Expr*>& results, const ExprContext& ctx);
  Status cast_types(const ast::Cast& cast, const ExprContext& ctx, int location);  // branch_types.cpp
  std::string shown_value(const ast::Expr& e);  // in PostgreSQL's spelling, cut to 60 characters
  Branch branch(const ast::Expr& e, const ExprContext& ctx) {
    ValueType t = value_type(e, ctx);
    // A computed interval (end_time - start_time as translated) is a time though not typed one: coalesce(it, 0)
    // answered 0 on SQLite, PostgreSQL's error (outside tester s21b).
    const auto kind = t.type == SqlType::Time || t.type == SqlType::Unknown ? time_kind(e, ctx) : std::nullopt;
    if (kind) t = ValueType{SqlType::Time};
    return {t, kind, &e};
  }
  std::map<const ast::Query*, std::vector<ValueType>> query_types_;  // output types of every admitted query
  std::vector<ValueType> select_types_;                              // the last select()'s items
  const ast::Expr* int8_checked_ = nullptr;  // the argument of a pg_int8 / pg_int4 call being admitted (re-check)
  // The value arguments of pg_numeric calls admitted (numeric_scale_on_sqlite.cpp: not rounded again). A set:
  // calls nest (pg_numeric(pg_numeric(x, 10, 2) * 2, 1000, 2)).
  std::set<const ast::Expr*> numeric_checked_;
  // Operands of an integer + - * being admitted (SQLite): the arithmetic above them checks the overflow.
  std::set<const ast::Expr*> int8_operands_;
  // Integer + - * on SQLite passes through pg_int8 (bigint overflow is an error, as on PostgreSQL); float
  // + - * through pg_float8 (an infinity there is PostgreSQL's "value out of range: overflow").
  void wrap_int8(ast::Expr& e, bool floating = false);
  // A scalar subquery that may give more than one row, on SQLite: read through pg_single, which fails on a
  // second row as PostgreSQL does (scalar_subquery.cpp). Before the subquery is admitted.
  Status scalar_subquery_on_sqlite(ast::SubLink& link, int location);
  std::vector<ValueType> query_types(const ast::Query& q) const {
    auto it = query_types_.find(&q);
    return it == query_types_.end() ? std::vector<ValueType>{} : it->second;
  }

 public:
  std::vector<ValueType> output_types(const ast::Query& q) const { return query_types(q); }
  // The time kinds of its computed time outputs (date_trunc(...), x::date, a - b), per column; nullopt: not one.
  std::vector<std::optional<pgtime::Kind>> output_kinds(const ast::Query& q) const { return query_kinds(q); }

 private:
  // Grouping that SQLite reads differently from the grammar (precedence.cpp).
  Status check_precedence(const ast::Expr& e);
  Status check_set_precedence(const ast::SetOp& set, int location);
  // Static size bounds (size_bound.cpp): refuses a function call or operator
  // whose value can grow past limits.max_expression_growth.
  Status check_size(const ast::Expr& e, const ExprContext& ctx);
  SizeBound bound_of(const ast::Expr& e, const ExprContext& ctx, SizeProblem* problem);
  SizeBound call_bound(const ast::FuncCall& f, const ExprContext& ctx, SizeProblem* problem);
  SizeBound column_bound(const ast::ColumnRef& ref, const ExprContext& ctx);
  SizeBound largest_bound_{0, 1, 0};  // of every expression checked so far (for select-list aliases)
  std::map<const ast::Query*, std::vector<SizeBound>> query_bounds_;  // output bounds of every admitted query
  std::vector<SizeBound> select_bounds_;                              // the last select()'s items
  // Queries whose rows come from generate_series: a text aggregate over them has no bound.
  std::set<const ast::Query*> query_generated_;
  bool generates_rows(const ast::Select& s, const Scope& level) const;
  double steepest_literal_growth_ = 0;
  // Lineage of untrusted text (lineage.cpp).
  Lineage lineage(const ast::Expr& e, const ExprContext& ctx);
  Lineage column_lineage(const ast::ColumnRef& ref, const ExprContext& ctx);
  std::vector<Lineage> table_lineage(const catalog::Table& table) const;
  std::vector<Lineage> rows_lineage(const std::vector<std::vector<ast::Expr>>& rows, const ExprContext& ctx);
  // Column i of an admitted query (untrusted Text when unknown: lineage fails closed).
  Lineage output_lineage(const ast::Query& q, std::size_t i) const;
  std::vector<Lineage> output_lineages(const ast::Query& q, std::size_t width) const;
  // Output lineage of every query admitted so far, by node (nodes do not move once admitted).
  std::map<const ast::Query*, std::vector<Lineage>> query_lineage_;
  std::vector<Lineage> select_lineage_;                             // the last select()'s items
  const std::vector<ast::NamedWindow>* lineage_windows_ = nullptr;  // the WINDOW clause lineage reads for OVER w
  // Per output column of every query admitted so far: the timestamp column it passes on, if any.
  std::map<const ast::Query*, std::vector<const catalog::Column*>> query_times_;
  std::vector<const catalog::Column*> select_times_;  // the last select()'s items
  std::vector<const catalog::Column*> query_times(const ast::Query& q) const {
    auto it = query_times_.find(&q);
    return it == query_times_.end() ? std::vector<const catalog::Column*>{} : it->second;
  }
  // Stored columns read (scope.hpp, Reads), per output column of every admitted query.
  Reads reads_of(const ast::Expr& e, const ExprContext& ctx);
  Reads column_reads(const ast::ColumnRef& ref, const ExprContext& ctx);
  std::map<const ast::Query*, std::vector<Reads>> query_reads_;
  std::vector<Reads> select_reads_;  // the last select()'s items
  // Plain cells (Relation::plain), per output column of every admitted query.
  Reads column_plain(const ast::ColumnRef& ref, const ExprContext& ctx);
  std::vector<Reads> select_plain(const ast::Select& s, const ExprContext& ctx, const std::vector<std::string>& names);
  std::map<const ast::Query*, std::vector<Reads>> query_plain_;
  std::vector<Reads> select_plain_;  // the last select()'s items
  int next_instance_ = 0;            // Source::instance of the next table reference
  // A CTE's instances renumbered for one reference to it (each reference reads the table afresh).
  std::vector<Reads> fresh_instances(const std::vector<Reads>& reads, std::map<int, int>& renumbered);
  std::vector<std::string> from_names_;    // every relation name in the FROM being resolved (for better refusals)
  std::vector<std::string> window_names_;  // the WINDOW clause names of the SELECT being admitted
  // The WITH lists whose CTE at `index` is being admitted, innermost last: that
  // CTE and the later ones are not visible yet (no recursion, no forward use).
  struct Defining {
    const std::vector<ast::Cte>* with;
    std::size_t index;
  };
  std::vector<Defining> defining_;

  const catalog::Catalog& catalog_;
  Dialect dialect_;
  std::string_view sql_;
  int max_expression_growth_;
  const config::HiddenColumns* hidden_;  // the calling key's hidden columns (nullptr: none)
  const std::vector<ParamSpec>* params_;
  // While a row filter is walked: its parameters (bound from the key's `bind`).
  const std::vector<std::string>* filter_binds_ = nullptr;
  // The declaration of a parameter this statement may use (none: refused).
  // Inside a row filter only the filter's own bind parameters exist.
  std::optional<ParamSpec> param_spec(std::string_view name) const {
    if (filter_binds_) {
      for (const auto& b : *filter_binds_)
        if (b == name) return ParamSpec{b, false, config::kMaxBindBytes};
      return std::nullopt;
    }
    if (!params_) return std::nullopt;
    for (const auto& p : *params_)
      if (p.name == name) return p;
    return std::nullopt;
  }
  // Attaches the table's row filter to a reference of it and walks the filter
  // in a scope of its own (the table alone, no CTEs, no outer query).
  Status apply_row_filter(ast::TableRef& ref, const catalog::Table& table);
};

}  // namespace qg::admit::detail
