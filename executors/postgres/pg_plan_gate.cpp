#include "executors/postgres/pg_plan_gate.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>

namespace qg::exec::pg {
namespace {

// Keys whose values are names or settings, never expressions.
const std::set<std::string>& name_keys() {
  static const std::set<std::string> keys = {"Node Type",
                                             "Relation Name",
                                             "Schema",
                                             "Alias",
                                             "Index Name",
                                             "Strategy",
                                             "Partial Mode",
                                             "Parent Relationship",
                                             "Subplan Name",
                                             "CTE Name",
                                             "Function Name",
                                             "Join Type",
                                             "Scan Direction",
                                             "Command",
                                             "Sort Method",
                                             "Sort Space Type",
                                             "Operation",
                                             "Async Capable",
                                             "Single Copy",
                                             "Parallel Aware",
                                             "Inner Unique",
                                             "Setop",
                                             "Table Function Name"};
  return keys;
}

// Words the deparser prints before "(" that are syntax, not function calls.
const std::set<std::string>& syntax_words() {
  static const std::set<std::string> words = {
      "case",   "when",    "then",    "else",    "end",      "coalesce", "nullif",   "greatest",  "least",
      "exists", "array",   "row",     "any",     "all",      "some",     "in",       "not",       "and",
      "or",     "extract", "over",    "filter",  "within",   "group",    "by",       "order",     "partition",
      "rows",   "range",   "groups",  "between", "values",   "cast",     "is",       "distinct",  "from",
      "like",   "similar", "collate", "subplan", "initplan", "hashed",   "overlaps", "normalize", "treat"};
  return words;
}

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// One identifier at `i` (plain or "quoted"); advances `i` past it.
std::string read_identifier(const std::string& s, std::size_t& i, bool& quoted) {
  std::string out;
  quoted = s[i] == '"';
  if (quoted) {
    for (++i; i < s.size(); ++i) {
      if (s[i] == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          out.push_back('"');
          ++i;
          continue;
        }
        ++i;
        break;
      }
      out.push_back(s[i]);
    }
    return out;
  }
  while (i < s.size() && ident_char(s[i])) out.push_back(s[i++]);
  return out;
}

// After "::": a type name, possibly several words ("timestamp without time
// zone"), quoted, schema-qualified, with a modifier "(10,2)" and array "[]".
void skip_type(const std::string& s, std::size_t& i) {
  while (i < s.size()) {
    if (s[i] == ' ') {
      // A following word continues the type only if it is one of the words types are made of.
      std::size_t j = i;
      while (j < s.size() && s[j] == ' ') ++j;
      std::size_t k = j;
      while (k < s.size() && ident_char(s[k])) ++k;
      static const std::set<std::string> continuing = {"varying", "precision", "with", "without", "time", "zone"};
      if (k > j && continuing.count(lower(s.substr(j, k - j)))) {
        i = k;
        continue;
      }
      return;
    }
    if (ident_char(s[i]) || s[i] == '.' || s[i] == '[' || s[i] == ']') {
      ++i;
      continue;
    }
    if (s[i] == '"') {
      bool quoted = false;
      read_identifier(s, i, quoted);
      continue;
    }
    if (s[i] == '(') {  // a type modifier holds only digits, commas and spaces
      std::size_t j = i + 1;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ',' || s[j] == ' ')) ++j;
      if (j < s.size() && s[j] == ')') {
        i = j + 1;
        continue;
      }
    }
    return;
  }
}

// `remote`: inside Citus's "Distributed Query", where the worker plans scan
// shards (album_102008) of the distributed tables.
void collect(const boost::json::value& v, const std::string& key, PlanFacts& facts, int depth, bool remote) {
  if (depth > 200) return;
  if (const auto* o = v.if_object()) {
    const auto* rel = o->if_contains("Relation Name");
    if (rel && rel->is_string()) {
      const auto* schema = o->if_contains("Schema");
      const std::string s = schema && schema->is_string() ? std::string(schema->as_string()) : std::string("?");
      (remote ? facts.shard_relations : facts.relations).push_back(s + "." + std::string(rel->as_string()));
    }
    if (const auto* type = o->if_contains("Node Type");
        type && type->is_string() && (type->as_string() == "Aggregate" || type->as_string() == "WindowAgg")) {
      AggregateInput in;
      if (const auto* out = o->if_contains("Output"); out && out->is_array())
        for (const auto& item : out->as_array())
          if (item.is_string())
            for (auto& f : called_functions(std::string(item.as_string()))) in.functions.push_back(std::move(f));
      if (const auto* plans = o->if_contains("Plans");
          plans && plans->is_array() && !plans->as_array().empty() && plans->as_array()[0].is_object()) {
        const auto& child = plans->as_array()[0].as_object();
        if (const auto* rows = child.if_contains("Plan Rows"); rows && rows->is_number())
          in.rows = rows->to_number<double>();
        if (const auto* width = child.if_contains("Plan Width"); width && width->is_number())
          in.width = width->to_number<double>();
      }
      facts.aggregates.push_back(std::move(in));
    }
    const auto* fn = o->if_contains("Function Name");
    if (fn && fn->is_string()) {
      const auto* schema = o->if_contains("Schema");
      std::string name = lower(std::string(fn->as_string()));
      if (schema && schema->is_string() && schema->as_string() != "pg_catalog")
        name = std::string(schema->as_string()) + "." + name;
      facts.functions.push_back(name);
    }
    for (const auto& [k, child] : *o) {
      const std::string child_key(k);
      if (name_keys().count(child_key)) continue;
      collect(child, child_key, facts, depth + 1, remote || child_key == "Distributed Query");
    }
  } else if (const auto* a = v.if_array()) {
    for (const auto& child : *a) collect(child, key, facts, depth + 1, remote);
  } else if (const auto* s = v.if_string()) {
    for (auto& f : called_functions(std::string(*s))) facts.functions.push_back(std::move(f));
  }
}

const std::vector<std::string>& own_condition_keys() {
  static const std::vector<std::string> keys = {"Filter", "Index Cond", "Recheck Cond", "TID Cond"};
  return keys;
}
const std::vector<std::string>& join_condition_keys() {
  static const std::vector<std::string> keys = {"Hash Cond", "Merge Cond", "Join Filter"};
  return keys;
}

void conditions_of(const boost::json::object& o, const std::vector<std::string>& keys, std::vector<std::string>& out) {
  for (const auto& k : keys)
    if (const auto* c = o.if_contains(k); c && c->is_string()) out.emplace_back(c->as_string());
}

// Every own and join condition in a subtree (a Nested Loop's parameterized inner scans join there).
void subtree_conditions(const boost::json::object& o, std::vector<std::string>& out, int depth) {
  if (depth > 200) return;
  conditions_of(o, own_condition_keys(), out);
  conditions_of(o, join_condition_keys(), out);
  if (const auto* plans = o.if_contains("Plans"); plans && plans->is_array())
    for (const auto& child : plans->as_array())
      if (child.is_object()) subtree_conditions(child.as_object(), out, depth + 1);
}

// Scans of stored relations with the conditions above them (ScanFacts).
void collect_scans(const boost::json::object& o, std::vector<std::string> inherited, PlanFacts& facts, int depth) {
  if (depth > 200) return;
  const auto* type = o.if_contains("Node Type");
  const std::string node = type && type->is_string() ? std::string(type->as_string()) : std::string();
  conditions_of(o, join_condition_keys(), inherited);
  if (node == "Nested Loop") subtree_conditions(o, inherited, depth);
  if (const auto* rel = o.if_contains("Relation Name"); rel && rel->is_string()) {
    ScanFacts scan;
    const auto* schema = o.if_contains("Schema");
    scan.relation = (schema && schema->is_string() ? std::string(schema->as_string()) : std::string("?")) + "." +
                    std::string(rel->as_string());
    const auto* alias = o.if_contains("Alias");
    scan.alias = alias && alias->is_string() ? std::string(alias->as_string()) : std::string(rel->as_string());
    conditions_of(o, own_condition_keys(), scan.own_conditions);
    scan.conditions = inherited;
    scan.conditions.insert(scan.conditions.end(), scan.own_conditions.begin(), scan.own_conditions.end());
    facts.scans.push_back(std::move(scan));
  }
  if (const auto* plans = o.if_contains("Plans"); plans && plans->is_array())
    for (const auto& child : plans->as_array())
      if (child.is_object()) collect_scans(child.as_object(), inherited, facts, depth + 1);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> qualified_columns(const std::string& e) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  while (i < e.size()) {
    const char c = e[i];
    if (c == '\'') {  // a literal: '' is an escaped quote
      for (++i; i < e.size(); ++i)
        if (e[i] == '\'') {
          if (i + 1 < e.size() && e[i + 1] == '\'') {
            ++i;
            continue;
          }
          ++i;
          break;
        }
      continue;
    }
    if (c == ':' && i + 1 < e.size() && e[i + 1] == ':') {
      i += 2;
      skip_type(e, i);
      continue;
    }
    if (ident_start(c) || c == '"') {
      if (ident_start(c) && i > 0 && std::isdigit(static_cast<unsigned char>(e[i - 1]))) {
        ++i;
        continue;
      }
      bool quoted = false;
      std::vector<std::string> parts{read_identifier(e, i, quoted)};
      while (i + 1 < e.size() && e[i] == '.' && (ident_start(e[i + 1]) || e[i + 1] == '"')) {
        ++i;
        parts.push_back(read_identifier(e, i, quoted));
      }
      if (parts.size() >= 2) out.emplace_back(parts[parts.size() - 2], parts.back());
      continue;
    }
    ++i;
  }
  return out;
}

std::optional<std::string> row_filter_violation(const PlanFacts& facts, const PlanPolicy& policy) {
  for (const auto& scan : facts.scans) {
    const auto dot = scan.relation.find('.');
    if (scan.relation.substr(0, dot) != policy.schema) continue;
    const auto it = policy.bound_filters.find(scan.relation.substr(dot + 1));
    if (it == policy.bound_filters.end()) continue;
    const auto& filter = it->second;
    bool carried = false;
    for (const auto& condition : scan.conditions) {
      for (const auto& [qualifier, column] : qualified_columns(condition))
        if (qualifier == scan.alias &&
            std::find(filter.columns.begin(), filter.columns.end(), column) != filter.columns.end())
          carried = true;
    }
    // IN (SELECT ...) the planner kept as a subplan: "(hashed SubPlan 1)" in the scan's own Filter.
    for (const auto& condition : scan.own_conditions)
      if (filter.subquery && condition.find("SubPlan") != std::string::npos) carried = true;
    if (!carried) {
      std::string columns;
      for (const auto& c : filter.columns) columns += (columns.empty() ? "" : ", ") + c;
      return "the plan reads " + scan.relation + " (as " + scan.alias +
             ") without a condition on its row filter's columns (" + columns + ")";
    }
  }
  return std::nullopt;
}

std::vector<std::string> called_functions(const std::string& e) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < e.size()) {
    const char c = e[i];
    if (c == '\'') {  // a literal: '' is an escaped quote
      for (++i; i < e.size(); ++i)
        if (e[i] == '\'') {
          if (i + 1 < e.size() && e[i + 1] == '\'') {
            ++i;
            continue;
          }
          ++i;
          break;
        }
      continue;
    }
    if (c == ':' && i + 1 < e.size() && e[i + 1] == ':') {
      i += 2;
      skip_type(e, i);
      continue;
    }
    if (ident_start(c) || c == '"') {
      // A word right after a digit is part of a number (1e5), not a name.
      if (ident_start(c) && i > 0 && std::isdigit(static_cast<unsigned char>(e[i - 1]))) {
        ++i;
        continue;
      }
      bool quoted = false;
      std::string name = read_identifier(e, i, quoted);
      bool any_quoted = quoted;
      while (i + 1 < e.size() && e[i] == '.' && (ident_start(e[i + 1]) || e[i + 1] == '"')) {
        ++i;
        bool q = false;
        name += "." + read_identifier(e, i, q);
        any_quoted = any_quoted || q;
      }
      if (i < e.size() && e[i] == '(') {
        std::string key = any_quoted ? name : lower(name);
        if (key.starts_with("pg_catalog.")) key = key.substr(11);
        if (any_quoted || !syntax_words().count(key)) out.push_back(key);
      }
      continue;
    }
    ++i;
  }
  return out;
}

Result<PlanFacts> read_plan(const std::string& explain_json) {
  boost::system::error_code ec;
  // A plan nests two JSON levels per plan node: Boost.JSON's default depth (32) refused a five-level self-join's plan
  // as no plan (outside tester s20d). 150 stays under collect()'s 200, so every relation of a plan read is checked.
  boost::json::parse_options options;
  options.max_depth = 150;
  const boost::json::value doc = boost::json::parse(explain_json, ec, {}, options);
  if (ec == boost::json::error::too_deep)
    return make_error(ErrorCode::ValidationUnsupported,
                      "the statement's plan nests deeper than querygate checks (about 70 joins and subqueries)",
                      "FIX: split the statement: compute a part in a CTE or in another request.");
  if (ec || !doc.is_array() || doc.as_array().empty() || !doc.as_array()[0].is_object())
    return make_error(ErrorCode::Internal, "EXPLAIN (FORMAT JSON) did not return a plan");
  const auto* plan = doc.as_array()[0].as_object().if_contains("Plan");
  if (plan == nullptr || !plan->is_object())
    return make_error(ErrorCode::Internal, "EXPLAIN (FORMAT JSON) did not return a plan");
  PlanFacts facts;
  collect(*plan, "Plan", facts, 0, false);
  collect_scans(plan->as_object(), {}, facts, 0);
  const auto& root = plan->as_object();
  const boost::json::object* measured = &root;
  if (const auto* type = root.if_contains("Node Type"); type && type->is_string() && type->as_string() == "Limit")
    if (const auto* plans = root.if_contains("Plans");
        plans && plans->is_array() && !plans->as_array().empty() && plans->as_array()[0].is_object())
      measured = &plans->as_array()[0].as_object();
  if (const auto* rows = measured->if_contains("Plan Rows"); rows && rows->is_number())
    facts.estimated_rows = rows->to_number<double>();
  return facts;
}

std::optional<std::string> plan_violation(const PlanFacts& facts, const PlanPolicy& policy) {
  for (const auto& rel : facts.relations) {
    const auto dot = rel.find('.');
    const std::string schema = rel.substr(0, dot), name = rel.substr(dot + 1);
    if (schema != policy.schema || !policy.tables.count(name))
      return "the plan reads " + rel + ", which is not allowlisted";
  }
  // A Citus shard is its table's name plus "_<shard id>".
  for (const auto& rel : facts.shard_relations) {
    const auto dot = rel.find('.');
    const std::string schema = rel.substr(0, dot), name = rel.substr(dot + 1);
    const auto underscore = name.rfind('_');
    const bool shard_suffix = underscore != std::string::npos && underscore + 1 < name.size() &&
                              std::all_of(name.begin() + static_cast<long>(underscore) + 1, name.end(),
                                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
    const std::string table = shard_suffix ? name.substr(0, underscore) : name;
    if (schema != policy.schema || !policy.tables.count(table))
      return "the distributed plan reads " + rel + ", which is not a shard of an allowlisted table";
  }
  for (const auto& fn : facts.functions)
    if (!policy.functions.count(fn)) return "the plan calls " + fn + "(), which the capability table does not admit";
  return std::nullopt;
}

bool has_text_aggregate(const PlanFacts& facts, const PlanPolicy& policy) {
  for (const auto& a : facts.aggregates)
    for (const auto& f : a.functions)
      if (policy.text_aggregates.count(f)) return true;
  return false;
}

std::optional<Error> aggregate_violation(const PlanFacts& facts, const PlanPolicy& policy) {
  if (policy.max_aggregate_bytes <= 0) return std::nullopt;
  for (const auto& a : facts.aggregates) {
    const double bytes = a.rows * std::max(a.width, 1.0);
    if (bytes <= policy.max_aggregate_bytes) continue;
    for (const auto& f : a.functions) {
      if (!policy.text_aggregates.count(f)) continue;
      auto whole = [](double x) { return std::to_string(static_cast<long long>(x)); };
      return make_error(
          ErrorCode::LimitMemory,
          f + "() would aggregate about " + whole(bytes) + " bytes (" + whole(a.rows) + " rows of " + whole(a.width) +
              " bytes, the planner's estimate) into values that statement_timeout cannot interrupt; the ceiling "
              "is limits.max_aggregate_bytes = " +
              whole(policy.max_aggregate_bytes),
          "FIX: aggregate fewer rows: filter them first (WHERE on a key or a time range), join on a key instead of "
          "a cross join, aggregate short values (substr(x, 1, 100)), or count and group instead of building one "
          "long value.");
    }
  }
  return std::nullopt;
}

bool PlanCache::admitted(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = admitted_.find(key);
  if (it == admitted_.end()) return false;
  if (std::chrono::steady_clock::now() - it->second > ttl_) {
    admitted_.erase(it);
    return false;
  }
  return true;
}

void PlanCache::remember_admitted(const std::string& key) {
  std::lock_guard lock(mutex_);
  if (admitted_.size() >= capacity_) admitted_.clear();  // rare; a cold cache costs one EXPLAIN per shape
  admitted_[key] = std::chrono::steady_clock::now();
}

}  // namespace qg::exec::pg
