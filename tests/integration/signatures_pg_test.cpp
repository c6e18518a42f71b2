// PostgreSQL itself checks the signature table admission types calls with
// (admission/capability/signatures.hpp, issue #12 "Types at admission"):
//   * every declared signature exists: SELECT f(NULL::t1, ...) runs;
//   * every arity PostgreSQL has for a declared name is declared (or named below
//     with the reason it is left out), so admission's arity refusal is PostgreSQL's;
//   * capability::callable agrees with PostgreSQL's resolution when one argument
//     of a declared signature is replaced by each other type: a call admission
//     refuses fails in PostgreSQL with "function ... does not exist", and one
//     it admits runs (the implicit-cast rules, int4 → int8 → numeric → float8,
//     date → timestamp → timestamptz, checked call by call).
#include <gtest/gtest.h>

#include <map>
#include <pqxx/pqxx>
#include <set>
#include <string>

#include "admission/capability/signatures.hpp"
#include "tests/integration/test_support.hpp"

namespace qg::testing {
namespace {

using capability::ArgType;

constexpr ArgType kAll[] = {ArgType::Int4, ArgType::Int8,      ArgType::Numeric,     ArgType::Float8,
                            ArgType::Text, ArgType::Bool,      ArgType::Jsonb,       ArgType::Json,
                            ArgType::Date, ArgType::Timestamp, ArgType::Timestamptz, ArgType::Interval};

std::string call(std::string_view f, const std::vector<ArgType>& args) {
  std::string sql = "SELECT " + std::string(f) + "(";
  for (std::size_t i = 0; i < args.size(); ++i)
    sql += (i ? ", NULL::" : "NULL::") + std::string(capability::arg_type_name(args[i]));
  return sql + ")";
}

// "" when PostgreSQL resolves the call, else its SQLSTATE.
std::string resolves(pqxx::connection& c, const std::string& sql) {
  try {
    pqxx::work tx(c);
    tx.exec(sql);
    return "";
  } catch (const pqxx::sql_error& e) {
    return e.sqlstate().empty() ? "?" : e.sqlstate();
  }
}

TEST(SignaturesPgTest, PostgresHasEveryDeclaredSignatureAndNoOthersOfTheirTypes) {
  QG_PG_TEST_SERVER(server);
  pqxx::connection c(pg_dsn(server, "qg_reader", "chinook"));
  std::set<std::string> names;
  for (const auto& s : capability::signatures()) names.emplace(s.function);

  // Arities PostgreSQL has that the table leaves out on purpose (no value querygate admits has the type).
  const std::set<std::pair<std::string, int>> kLeftOut = {
      {"length", 2},  // length(bytea, name): bytes in an encoding
  };
  std::size_t checked = 0, compared = 0;
  for (const auto& name : names) {
    const auto declared = capability::signatures_of(name);
    for (const auto& args : declared) {
      EXPECT_EQ(resolves(c, call(name, args)), "")
          << call(name, args) << ": declared but PostgreSQL has no such function";
      ++checked;
    }
    {
      pqxx::work tx(c);
      for (const auto& row :
           tx.exec_params("SELECT DISTINCT pronargs FROM pg_proc WHERE proname = $1 AND pronamespace = "
                          "'pg_catalog'::regnamespace AND provariadic = 0",
                          name)) {
        const int n = row[0].as<int>();
        bool have = false;
        for (const auto& args : declared) have = have || static_cast<int>(args.size()) == n;
        EXPECT_TRUE(have || kLeftOut.count({name, n}))
            << name << " has a signature of " << n << " arguments in PostgreSQL";
      }
    }
    // One argument replaced by each type: admission's verdict against PostgreSQL's.
    for (const auto& args : declared)
      for (std::size_t i = 0; i < args.size(); ++i)
        for (ArgType t : kAll) {
          auto changed = args;
          changed[i] = t;
          const std::string sql = call(name, changed);
          const std::string state = resolves(c, sql);
          const bool ours = capability::callable(name, changed);
          // 42883: undefined_function; 42725: ambiguous_function (PostgreSQL cannot choose: also an error).
          if (ours)
            EXPECT_EQ(state, "") << sql << ": admission takes it, PostgreSQL fails (" << state << ")";
          else
            EXPECT_TRUE(state == "42883" || state == "42725")
                << sql << ": admission refuses it, PostgreSQL " << (state.empty() ? "runs it" : "fails with " + state);
          ++compared;
        }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_GT(compared, 1000u);
}

}  // namespace
}  // namespace qg::testing
