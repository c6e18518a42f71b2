#pragma once
// The one capability table. For every SQL construct, function, operator and
// cast target it says, per backend, whether querygate admits it, refuses it
// (with the FIX that names a spelling that works) or rewrites it. Admission,
// the renderers' coverage, the SQLite authorizer's function list and the
// PostgreSQL plan gate's are all derived from here; tests enumerate it.
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/dialect.hpp"

namespace qg::capability {

enum class Verdict : std::uint8_t { Admit, Refuse, Rewrite };

struct Cell {
  Verdict verdict = Verdict::Refuse;
  // Refuse: the FIX (a spelling that works on this backend). Rewrite: the rewrite's name.
  std::string_view note;
};

inline constexpr Cell admit() { return {Verdict::Admit, {}}; }
inline constexpr Cell refuse(std::string_view fix) { return {Verdict::Refuse, fix}; }
inline constexpr Cell rewrite(std::string_view name) { return {Verdict::Rewrite, name}; }

// Grammar constructs whose admission differs by backend or needs a FIX.
enum class Construct : std::uint8_t {
  DistinctOn,
  WithinGroup,
  AggregateFilter,
  AggregateOrderBy,
  WindowFunction,
  WindowFrameGroups,
  WindowFrameExclusion,
  Lateral,
  GroupingSets,  // ROLLUP / CUBE / GROUPING SETS
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
  QuantifiedSubquery,  // x op ANY/ALL (subquery)
  RelationColumnAliases,  // FROM t AS x(a, b) / (SELECT ...) AS x(a, b)
};

struct ConstructCapability {
  Construct construct;
  std::string_view sql_words;  // how refusals name it
  Cell sqlite;
  Cell postgres;
};

enum class FunctionKind : std::uint8_t { Scalar, Aggregate, Window };

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
};

struct CastCapability {
  std::string_view type;  // the grammar's normalised name: int8, float8, text, ...
  Cell sqlite;
  Cell postgres;
};

std::span<const ConstructCapability> constructs();
std::span<const FunctionCapability> functions();
std::span<const OperatorCapability> operators();
std::span<const CastCapability> casts();

const Cell& cell(const ConstructCapability& row, Dialect d);
const Cell& cell(const FunctionCapability& row, Dialect d);
const Cell& cell(const OperatorCapability& row, Dialect d);
const Cell& cell(const CastCapability& row, Dialect d);

const ConstructCapability& find(Construct c);
const FunctionCapability* find_function(std::string_view lower_name);
const OperatorCapability* find_operator(std::string_view op);
const CastCapability* find_cast(std::string_view type);

// Functions SQLite may call while running statements querygate printed: every
// function admitted on SQLite, plus the engine-internal functions the admitted
// constructs compile to (LIKE → like(), -> → json operators ...). The SQLite
// authorizer allows exactly these.
std::set<std::string> sqlite_authorizer_functions();

// Names of functions admitted on `d` (for "did you mean" suggestions).
std::vector<std::string> admitted_function_names(Dialect d);

}  // namespace qg::capability
