#pragma once
// The one capability table. For every SQL construct, function, operator and
// cast target it says, per backend, whether querygate admits it, refuses it
// (with the FIX that names a spelling that works) or rewrites it. Admission,
// the renderers' coverage, the SQLite authorizer's function list and the
// PostgreSQL plan gate's are all derived from here; tests enumerate it
// (tests/unit/capability_test.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "admission/render/render.hpp"
#include "common/dialect.hpp"

namespace qg::capability {

enum class Verdict : std::uint8_t { Admit, Refuse, Rewrite };

struct Cell {
  Verdict verdict = Verdict::Refuse;
  // Refuse: the FIX (a spelling that works on this backend). Rewrite: the rewrite's name.
  std::string_view note;
};

inline constexpr Cell admit() {
  return {Verdict::Admit, {}};
}
inline constexpr Cell refuse(std::string_view fix) {
  return {Verdict::Refuse, fix};
}
inline constexpr Cell rewrite(std::string_view name) {
  return {Verdict::Rewrite, name};
}

// Grammar constructs whose admission differs by backend or needs a FIX.
// Admission calls `construct(c)` wherever the AST holds one of these.
enum class Construct : std::uint8_t {
  DistinctOn,
  WithinGroup,
  AggregateFilter,
  AggregateOrderBy,
  WindowFunction,
  WindowFrameGroups,
  WindowFrameExclusion,
  Lateral,
  GroupingSets,  // ROLLUP / CUBE / GROUPING SETS / GROUP BY ()
  ILike,
  SimilarTo,
  LikeEscape,
  RightJoin,
  FullJoin,
  ValuesInFrom,
  LocalTime,  // LOCALTIME / LOCALTIMESTAMP
  CurrentTime,
  BetweenSymmetric,
  IsDistinctFrom,
  SetOpIntersectAll,  // INTERSECT ALL / EXCEPT ALL
  GreatestLeast,
  QuantifiedSubquery,     // x op ANY/ALL (subquery)
  RelationColumnAliases,  // FROM t AS x(a, b) / (SELECT ...) AS x(a, b)
  EmptySelectList,        // SELECT FROM t (PostgreSQL's zero-column select, common inside EXISTS)
  Count                   // not a construct: the number of enumerators above; keep it last
};

inline constexpr std::size_t kConstructCount = static_cast<std::size_t>(Construct::Count);

struct ConstructCapability {
  Construct construct;
  std::string_view sql_words;  // how refusals name it
  Cell sqlite;
  Cell postgres;
  // What the renderer must be able to print for this construct's nodes (its own
  // list of dialect gaps, render::all_constructs()). Admitted on a dialect ⇒
  // every one of these is printable there; a Rewrite removes them before
  // rendering. Every renderer gap is named by exactly one row (tested).
  std::span<const render::Construct> printed_as;
};

// SetReturning: one row in, many out (jsonb_each, unnest): never admitted, each
// refusal says what answers the question instead.
enum class FunctionKind : std::uint8_t { Scalar, Aggregate, Window, SetReturning };

// Whether a function's result can carry the text of its arguments (lineage of
// untrusted content): `lower(x)` carries x, `length(x)` only measures it.
enum class Carries : std::uint8_t { ArgumentText, Nothing };

struct FunctionCapability {
  std::string_view name;  // lower-case, as called
  FunctionKind kind;
  Carries carries;
  Cell sqlite;
  Cell postgres;
};

struct OperatorCapability {
  std::string_view op;
  Carries carries;
  Cell sqlite;
  Cell postgres;
  // Also valid with no left operand (`-x`). Every other operator is binary only:
  // the PostgreSQL grammar accepts any operator as a prefix (`SELECT || 'a'`),
  // but neither engine has a prefix form of it.
  bool prefix = false;
};

struct CastCapability {
  std::string_view type;  // the grammar's normalised name: int8, float8, text, ...
  Cell sqlite;
  Cell postgres;
};

// Functions SQLite calls for admitted constructs that are not written as calls
// of a table function (LIKE → like(), CURRENT_TIMESTAMP → current_timestamp()).
struct EngineFunction {
  std::string_view name;
  std::string_view compiled_from;  // the construct that compiles to it
};

std::span<const ConstructCapability> constructs();  // in enum order, one row per Construct
std::span<const FunctionCapability> functions();
std::span<const OperatorCapability> operators();
std::span<const CastCapability> casts();
std::span<const EngineFunction> sqlite_engine_functions();

const Cell& cell(const ConstructCapability& row, Dialect d);
const Cell& cell(const FunctionCapability& row, Dialect d);
const Cell& cell(const OperatorCapability& row, Dialect d);
const Cell& cell(const CastCapability& row, Dialect d);

const ConstructCapability& find(Construct c);
const FunctionCapability* find_function(std::string_view lower_name);
const OperatorCapability* find_operator(std::string_view op);
const CastCapability* find_cast(std::string_view type);

// Functions SQLite may call while running statements querygate printed: every
// function admitted on SQLite, plus sqlite_engine_functions(). The SQLite
// authorizer allows exactly these.
std::set<std::string> sqlite_authorizer_functions();

// Functions PostgreSQL plans may show while running statements querygate
// printed: every function admitted on PostgreSQL, plus postgres_engine_functions().
// The plan gate allows exactly these.
std::span<const EngineFunction> postgres_engine_functions();
std::set<std::string> postgres_plan_functions();

// Names of functions admitted on `d` (for "did you mean" suggestions).
std::vector<std::string> admitted_function_names(Dialect d);

}  // namespace qg::capability
