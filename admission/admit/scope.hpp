#pragma once
// Name scopes used while admitting one statement. Private to admission/admit.
#include <string>
#include <vector>

#include "admission/admit/admit.hpp"
#include "admission/catalog/catalog.hpp"

namespace qg::admit::detail {

// A relation visible in a FROM clause: a base table, a CTE reference, a derived
// table or VALUES list — anything with a name (maybe empty) and columns.
struct Relation {
  std::string name;                  // alias, else the table/CTE name; empty for an unaliased subquery
  std::vector<std::string> columns;  // in order
  std::vector<bool> untrusted;       // per column: may carry text written by end users (lineage)
  // Per column of a derived table, CTE or VALUES list: how long its values can
  // be (size_bound.cpp). Empty for a base table (stored values).
  std::vector<SizeBound> bounds;
  // Its rows come from generate_series (directly or through another derived
  // table): their number is not bounded by stored data.
  bool generated_rows = false;
  // Names the source returned more than once (renamed apart so a star can read
  // each by position); a reference by such a name is ambiguous.
  std::vector<std::string> ambiguous;
  const catalog::Table* table = nullptr;   // set for allowlisted base tables
  std::vector<std::string> using_columns;  // columns merged by a USING join to the left of this relation
};

// One query level's FROM scope, chained to the enclosing query's for
// correlated references.
struct Scope {
  const Scope* parent = nullptr;
  std::vector<Relation> relations;
};

struct CteBinding {
  std::string name;
  std::vector<std::string> columns;
  std::vector<bool> untrusted;
  std::vector<std::string> ambiguous;
  std::vector<SizeBound> bounds;
  bool generated_rows = false;
};

// CTEs visible at a point, innermost last; chained to the enclosing WITH.
struct CteEnv {
  const CteEnv* parent = nullptr;
  std::vector<CteBinding> ctes;
};

}  // namespace qg::admit::detail
