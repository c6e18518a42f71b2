// The renderer's coverage per dialect: the one list of constructs some
// dialect has no spelling for.
#include <array>
#include <cstddef>

#include "admission/render/render.hpp"

namespace qg::render {
namespace {

using enum Construct;

// Order follows the enum (checked below). Every gap is SQLite's, and each is a
// grammar gap of the SQLite that querygate links (3.40), not a policy choice.
constexpr std::array kConstructs{
    ConstructInfo{DistinctOn, "DISTINCT ON", false, true},
    ConstructInfo{EmptySelectList, "an empty select list", false, true},
    ConstructInfo{WithinGroup, "WITHIN GROUP", false, true},
    ConstructInfo{AggregateOrderBy, "ORDER BY inside an aggregate's arguments", false, true},  // SQLite >= 3.44 only
    ConstructInfo{Lateral, "LATERAL", false, true},
    ConstructInfo{TableColumnAliases, "column aliases on a table or subquery in FROM (AS t(a, b))", false, true},
    ConstructInfo{Rollup, "ROLLUP", false, true},
    ConstructInfo{Cube, "CUBE", false, true},
    ConstructInfo{GroupingSets, "GROUPING SETS", false, true},
    ConstructInfo{EmptyGroupingSet, "the empty grouping set ()", false, true},
    ConstructInfo{ILike, "ILIKE", false, true},
    ConstructInfo{SimilarTo, "SIMILAR TO", false, true},
    ConstructInfo{BetweenSymmetric, "BETWEEN SYMMETRIC", false, true},
    ConstructInfo{AnySubquery, "op ANY (subquery)", false, true},
    ConstructInfo{AllSubquery, "op ALL (subquery)", false, true},
    ConstructInfo{Greatest, "GREATEST", false, true},  // SQLite's max(a, b) differs: NULL if any argument is
    ConstructInfo{Least, "LEAST", false, true},
    ConstructInfo{LocalTime, "LOCALTIME", false, true},
    ConstructInfo{LocalTimestamp, "LOCALTIMESTAMP", false, true},
    ConstructInfo{IntersectAll, "INTERSECT ALL", false, true},
    ConstructInfo{ExceptAll, "EXCEPT ALL", false, true},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kConstructs.size(); ++i)
    if (static_cast<std::size_t>(kConstructs[i].construct) != i) return false;
  return kConstructs.back().construct == ExceptAll;  // the last enumerator: no row is missing
}
static_assert(in_enum_order(), "kConstructs must list every Construct in enum order");

}  // namespace

std::span<const ConstructInfo> all_constructs() {
  return kConstructs;
}

const ConstructInfo& construct_info(Construct construct) {
  return kConstructs[static_cast<std::size_t>(construct)];
}

bool can_render(Construct construct, Dialect dialect) {
  const ConstructInfo& row = construct_info(construct);
  return dialect == Dialect::Sqlite ? row.sqlite : row.postgres;
}

}  // namespace qg::render
