// The capability table is querygate's one list of what each backend admits
// (STYLE habit 10). This test enumerates it and checks that everything derived
// from it agrees with it: every construct has a row; names are unique; every
// refusal carries a FIX that names a spelling which works on that backend (the
// functions and casts a FIX writes are admitted there and parse as written);
// the SQLite authorizer allows exactly the admitted functions plus the
// documented engine functions, and SQLite 3.40 really has all of them; the
// renderer can print every construct admitted on a dialect; and one example
// statement per construct gets, through the whole admission pipeline, the
// verdict and FIX its row states (admitted SQLite examples must also prepare
// under the real authorizer).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "admission/ast/ast.hpp"
#include "admission/capability/capability.hpp"
#include "admission/catalog/catalog.hpp"
#include "admission/convert/convert.hpp"
#include "admission/parse/parser.hpp"
#include "admission/pipeline.hpp"
#include "admission/render/render.hpp"
#include "common/error_code.hpp"
#include "config/config.hpp"
#include "executors/sqlite/sqlite_backstop.hpp"
#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::capability {
namespace {

constexpr Dialect kDialects[] = {Dialect::Sqlite, Dialect::Postgres};

Dialect other(Dialect d) {
  return d == Dialect::Sqlite ? Dialect::Postgres : Dialect::Sqlite;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ---------- the table, flattened ----------

struct Row {
  std::string what;  // "function lower()", "construct DISTINCT ON", ...
  const Cell* sqlite;
  const Cell* postgres;
  const Cell& cell(Dialect d) const { return d == Dialect::Sqlite ? *sqlite : *postgres; }
};

std::vector<Row> all_rows() {
  std::vector<Row> out;
  for (const auto& r : constructs()) out.push_back({"construct " + std::string(r.sql_words), &r.sqlite, &r.postgres});
  for (const auto& r : functions()) out.push_back({"function " + std::string(r.name) + "()", &r.sqlite, &r.postgres});
  for (const auto& r : operators()) out.push_back({"operator " + std::string(r.op), &r.sqlite, &r.postgres});
  for (const auto& r : casts()) out.push_back({"cast to " + std::string(r.type), &r.sqlite, &r.postgres});
  return out;
}

bool is_admitted(const Cell& c) {
  return c.verdict == Verdict::Admit;
}

bool function_admitted(std::string_view name, Dialect d) {
  const auto* f = find_function(name);
  // jsonb_each & co. are admitted as row sources in FROM (admit/json_rows.cpp), which is how their FIXes write them.
  // A function translated on that backend (date_trunc, to_timestamp on SQLite) runs there too.
  return (f != nullptr && (is_admitted(cell(*f, d)) || cell(*f, d).verdict == Verdict::Rewrite)) ||
         capability::row_source_in_from(name);
}

// ---------- reading FIX texts ----------

// A call written in a FIX text, `name(...)` or `"name"(...)`, with its whole text.
struct Call {
  std::string name;  // folded to lower case unless quoted
  bool quoted = false;
  std::string text;  // from the name to the matching ')'
};

// Index just past the '...' literal that starts at `i` ('' is a quote inside it).
std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] != '\'') continue;
    if (i + 1 < s.size() && s[i + 1] == '\'') {
      ++i;
      continue;
    }
    return i + 1;
  }
  return s.size();
}

std::size_t matching_paren(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size();) {
    if (s[i] == '\'') {
      i = skip_string(s, i);
      continue;
    }
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return i;
    ++i;
  }
  return std::string_view::npos;
}

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Every `identifier(` in the text, nested ones included; text inside '...' is skipped.
std::vector<Call> calls_in(std::string_view fix) {
  std::vector<Call> out;
  std::size_t i = 0;
  while (i < fix.size()) {
    const char c = fix[i];
    if (c == '\'') {
      i = skip_string(fix, i);
      continue;
    }
    const std::size_t start = i;
    Call call;
    if (c == '"') {
      const auto close = fix.find('"', i + 1);
      if (close == std::string_view::npos) break;
      call.name = std::string(fix.substr(i + 1, close - i - 1));
      call.quoted = true;
      i = close + 1;
    } else if (ident_start(c)) {
      std::size_t j = i;
      while (j < fix.size() && ident_char(fix[j])) ++j;
      call.name = lower(fix.substr(i, j - i));
      i = j;
    } else {
      ++i;
      continue;
    }
    if (i >= fix.size() || fix[i] != '(') continue;
    const auto close = matching_paren(fix, i);
    call.text =
        std::string(fix.substr(start, close == std::string_view::npos ? std::string_view::npos : close + 1 - start));
    out.push_back(std::move(call));
  }
  return out;
}

// Grammar written like a call that is not a function of the table.
const std::set<std::string> kGrammarWords{"cast", "coalesce", "nullif", "exists", "in", "any", "all", "values"};
// Grammar written like a call whose admission is a construct's row.
std::optional<Construct> construct_word(std::string_view name) {
  if (name == "greatest" || name == "least") return Construct::GreatestLeast;
  return std::nullopt;
}

// Parses and converts `SELECT <expr>`; the select item's expression, or null.
std::optional<ast::Expr> parse_expr(const std::string& expr_text) {
  const std::string sql = "SELECT " + expr_text;
  auto json = parse::parse_to_json(sql);
  if (!json) return std::nullopt;
  auto tree = convert::convert_statement(*json, sql);
  if (!tree) return std::nullopt;
  const auto* s = std::get_if<ast::Select>(&tree->body);
  if (s == nullptr || s->items.size() != 1) return std::nullopt;
  return s->items.front().expr;
}

// The function the grammar calls for `name(1)` written as in the FIX; empty
// when it does not read it as a call (CHAR and TIME are type names, say).
std::string called_name(const Call& c) {
  auto e = parse_expr((c.quoted ? "\"" + c.name + "\"" : c.name) + "(1)");
  if (!e) return {};
  const auto* f = std::get_if<ast::FuncCall>(&e->node);
  return f ? f->name : std::string();
}

// The normalised type a CAST(...) written in a FIX converts to; empty when it does not parse.
std::string cast_type(const Call& c) {
  auto e = parse_expr(c.text);
  if (!e) return {};
  const auto* cast = std::get_if<ast::Cast>(&e->node);
  return cast ? cast->type.name : std::string();
}

// Why a call written in a FIX for dialect `d` would not work there; empty when it does.
std::string broken_call(const Call& c, Dialect d) {
  if (!c.quoted && kGrammarWords.contains(c.name)) {
    if (c.name != "cast") return {};
    const std::string type = cast_type(c);
    if (type.empty()) return c.text + " does not parse as a CAST";
    const auto* row = find_cast(type);
    if (row == nullptr || !is_admitted(capability::cell(*row, d)))
      return c.text + ": a cast to " + type + " is not admitted";
    return {};
  }
  if (auto k = construct_word(c.name); k && !c.quoted)
    return is_admitted(capability::cell(find(*k), d)) ? std::string() : c.text + " is a construct refused here";
  if (!function_admitted(c.name, d)) return c.name + "() is not admitted";
  if (called_name(c) != c.name)
    return c.text + " does not parse as a call of " + c.name + "() (a type name? write it double-quoted)";
  return {};
}

// A FIX "names a spelling" when it writes a call or a piece of SQL syntax the
// agent can copy, not only prose ("see the schema").
bool names_a_spelling(std::string_view fix, Dialect d) {
  for (const auto& c : calls_in(fix))
    if (broken_call(c, d).empty()) return true;
  static const std::vector<std::string_view> kSyntax{
      " LIKE ", " ILIKE ",           " CASE ",   "SELECT ",  " JOIN ", "UNION ", "INTERSECT", "EXCEPT", " BETWEEN ",
      " IN (",  "CURRENT_TIMESTAMP", "GROUP BY", "ORDER BY", "||",     "->",     " = ",       "<>"};
  return std::any_of(kSyntax.begin(), kSyntax.end(),
                     [&](std::string_view w) { return fix.find(w) != std::string_view::npos; });
}

// ---------- a catalog and a SQLite database of the demo's shape ----------

catalog::Catalog demo_catalog(Dialect d) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> tables{
      {"projects", {"id", "name", "created_at"}},
      {"traces", {"id", "project_id", "trace_id", "session_id", "user_id", "start_time", "end_time", "status"}},
      {"spans",
       {"id", "trace_id", "parent_id", "name", "kind", "status", "start_time", "end_time", "cost_usd", "attributes"}},
      {"span_annotations", {"id", "span_id", "annotator_kind", "label", "score", "explanation", "created_at"}},
  };
  catalog::Catalog c;
  c.dialect = d;
  for (const auto& [name, columns] : tables) {
    catalog::Table t;
    t.name = name;
    for (const auto& col : columns) {
      catalog::Column column;
      column.name = col;
      // The declared types of kDemoSchema below (a numeric column typed text would make sum() a type error).
      static const std::set<std::string> kIntegers{"id", "project_id", "user_id", "parent_id", "span_id"};
      column.type = kIntegers.contains(col) ? "INTEGER" : col == "cost_usd" || col == "score" ? "REAL" : "TEXT";
      t.columns.push_back(column);
    }
    c.tables.push_back(std::move(t));
  }
  return c;
}

constexpr const char* kDemoSchema = R"sql(
CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL, password_hash TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE traces (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, trace_id TEXT NOT NULL UNIQUE,
  session_id TEXT, user_id INTEGER, start_time TEXT NOT NULL, end_time TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE spans (id INTEGER PRIMARY KEY, trace_id TEXT NOT NULL, parent_id INTEGER, name TEXT NOT NULL,
  kind TEXT NOT NULL, status TEXT NOT NULL, start_time TEXT NOT NULL, end_time TEXT NOT NULL, cost_usd REAL,
  attributes TEXT NOT NULL);
CREATE TABLE span_annotations (id INTEGER PRIMARY KEY, span_id INTEGER NOT NULL, annotator_kind TEXT NOT NULL,
  label TEXT, score REAL, explanation TEXT, created_at TEXT NOT NULL);
)sql";

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;

Db open_memory_db() {
  sqlite3* raw = nullptr;
  if (sqlite3_open(":memory:", &raw) != SQLITE_OK) {
    sqlite3_close(raw);
    return nullptr;
  }
  Db db(raw);
  if (!exec::sqlite::register_functions(db.get())) return nullptr;
  return db;
}

// An in-memory SQLite with the demo's tables, the gateway's functions and the
// real authorizer allowing the allowlisted tables and sqlite_authorizer_functions().
class GuardedSqlite {
 public:
  GuardedSqlite() : db_(open_memory_db()) {
    if (!db_ || sqlite3_exec(db_.get(), kDemoSchema, nullptr, nullptr, nullptr) != SQLITE_OK) {
      db_.reset();
      return;
    }
    policy_.tables = {"projects", "traces", "spans", "span_annotations"};
    policy_.functions = sqlite_authorizer_functions();
    state_.policy = &policy_;
    exec::sqlite::install_authorizer(db_.get(), state_);
  }
  bool ok() const { return db_ != nullptr; }

  // Empty when `sql` prepares and every read is allowed; else what SQLite said.
  std::string prepare(const std::string& sql) {
    state_.arm(exec::Deadline::max());
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v2(db_.get(), sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
    std::string problem;
    if (rc != SQLITE_OK)
      problem = std::string(sqlite3_errmsg(db_.get())) + " " + state_.denial;
    else if (!exec::sqlite::confirm_reads(db_.get(), state_))
      problem = "denied: " + state_.denial;
    sqlite3_finalize(stmt);
    return problem;
  }

 private:
  Db db_;
  exec::sqlite::Policy policy_;
  exec::sqlite::Backstop state_;
};

// ---------- the rows themselves ----------

TEST(CapabilityTest, EveryConstructHasExactlyOneRowInEnumOrder) {
  ASSERT_EQ(constructs().size(), kConstructCount);
  for (std::size_t i = 0; i < kConstructCount; ++i) {
    const auto c = static_cast<Construct>(i);
    const auto n = std::count_if(constructs().begin(), constructs().end(),
                                 [&](const ConstructCapability& r) { return r.construct == c; });
    EXPECT_EQ(n, 1) << "Construct #" << i;
    EXPECT_EQ(find(c).construct, c) << "Construct #" << i;
    EXPECT_FALSE(find(c).sql_words.empty()) << "Construct #" << i;
  }
}

TEST(CapabilityTest, NoNameIsListedTwice) {
  auto expect_unique = [](std::string_view kind, std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    for (std::size_t i = 1; i < names.size(); ++i)
      EXPECT_NE(names[i - 1], names[i]) << kind << " '" << names[i] << "' has two rows (lookups see only the first)";
  };
  std::vector<std::string> words, fns, ops, types;
  for (const auto& r : constructs()) words.emplace_back(r.sql_words);
  for (const auto& r : functions()) fns.emplace_back(r.name);
  for (const auto& r : operators()) ops.emplace_back(r.op);
  for (const auto& r : casts()) types.emplace_back(r.type);
  expect_unique("construct", words);
  expect_unique("function", fns);
  expect_unique("operator", ops);
  expect_unique("cast", types);
  for (const auto& name : fns) EXPECT_EQ(name, lower(name)) << "function names are looked up in lower case";
}

TEST(CapabilityTest, EveryRefusalCarriesAFix) {
  for (const auto& row : all_rows())
    for (Dialect d : kDialects) {
      const Cell& c = row.cell(d);
      const std::string where = row.what + " [" + std::string(dialect_name(d)) + "]";
      switch (c.verdict) {
        case Verdict::Refuse:
          EXPECT_TRUE(c.note.starts_with("FIX: ")) << where << ": '" << c.note << "'";
          EXPECT_GT(c.note.size(), std::string_view("FIX: ").size() + 10) << where << ": '" << c.note << "'";
          break;
        case Verdict::Rewrite:
          EXPECT_FALSE(c.note.empty()) << where << ": a rewrite names itself";
          EXPECT_FALSE(c.note.starts_with("FIX")) << where;
          break;
        case Verdict::Admit:
          EXPECT_TRUE(c.note.empty()) << where;
          break;
      }
    }
}

// Refused on one backend but available on the other: the refusal must teach the
// spelling that works here, not only say "not here".
TEST(CapabilityTest, OneBackendRefusalsNameTheSpellingThatWorks) {
  for (const auto& row : all_rows())
    for (Dialect d : kDialects) {
      const Cell& here = row.cell(d);
      if (here.verdict != Verdict::Refuse || row.cell(other(d)).verdict == Verdict::Refuse) continue;
      EXPECT_TRUE(names_a_spelling(here.note, d))
          << row.what << " [" << dialect_name(d) << "]: the FIX names no spelling: " << here.note;
    }
}

// Every function (or CAST) a FIX tells the agent to write must be admitted on
// that FIX's backend and must parse as written: a FIX that cannot work is a trap.
TEST(CapabilityTest, FixTextsWriteOnlyWhatTheirBackendAdmits) {
  int calls = 0;
  for (const auto& row : all_rows())
    for (Dialect d : kDialects) {
      const Cell& c = row.cell(d);
      if (c.verdict != Verdict::Refuse) continue;
      for (const auto& call : calls_in(c.note)) {
        ++calls;
        const std::string problem = broken_call(call, d);
        EXPECT_TRUE(problem.empty()) << row.what << " [" << dialect_name(d) << "]: " << problem
                                     << "\n  FIX: " << c.note;
      }
    }
  EXPECT_GT(calls, 100);  // the scanner finds the calls
}

TEST(CapabilityTest, FixScannerReadsCallsQuotesAndCasts) {
  const auto calls = calls_in("FIX: write date(printf('%04d-(%02d)', y)) or \"char\"(n), CAST(x AS INTEGER); e.g. x");
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[0].name, "date");
  EXPECT_EQ(calls[0].text, "date(printf('%04d-(%02d)', y))");
  EXPECT_EQ(calls[1].name, "printf");
  EXPECT_EQ(calls[2].name, "char");
  EXPECT_TRUE(calls[2].quoted);
  EXPECT_EQ(cast_type(calls[3]), "int4");
  EXPECT_EQ(called_name(Call{"char", false, "char(n)"}), "");  // CHAR is a type name to the grammar
  EXPECT_EQ(called_name(Call{"char", true, "\"char\"(n)"}), "char");
  EXPECT_FALSE(broken_call(Call{"extract", false, "extract(epoch FROM t)"}, Dialect::Postgres).empty());
  EXPECT_FALSE(broken_call(Call{"cast", false, "CAST(x AS BLOB)"}, Dialect::Sqlite).empty());
  EXPECT_TRUE(broken_call(Call{"greatest", false, "greatest(a, b)"}, Dialect::Postgres).empty());
  EXPECT_FALSE(broken_call(Call{"greatest", false, "greatest(a, b)"}, Dialect::Sqlite).empty());
}

// ---------- the SQLite authorizer and the engine ----------

TEST(CapabilityTest, SqliteAuthorizerAllowsExactlyTheAdmittedAndEngineFunctions) {
  const auto allowed = sqlite_authorizer_functions();
  std::set<std::string> engine;
  for (const auto& f : sqlite_engine_functions()) {
    EXPECT_TRUE(engine.emplace(f.name).second) << f.name << " is listed twice";
    EXPECT_FALSE(f.compiled_from.empty()) << f.name << ": say which construct compiles to it";
    // An engine function must not be something the table refuses to callers.
    if (const auto* row = find_function(f.name)) {
      EXPECT_TRUE(is_admitted(row->sqlite)) << f.name << " is refused on SQLite but the authorizer allows it";
    }
  }
  std::set<std::string> admitted;
  for (const auto& name : admitted_function_names(Dialect::Sqlite)) admitted.insert(name);
  for (const auto& row : functions())
    EXPECT_EQ(admitted.contains(std::string(row.name)), is_admitted(row.sqlite)) << row.name;
  for (const auto& name : admitted)
    EXPECT_TRUE(allowed.contains(name)) << name << "() is admitted on SQLite but the authorizer denies it";
  for (const auto& name : allowed)
    EXPECT_TRUE(admitted.contains(name) || engine.contains(name))
        << name << "() is allowed by the authorizer but neither admitted nor a documented engine function";
}

TEST(CapabilityTest, SqliteHasEveryFunctionTheAuthorizerAllows) {
  Db db = open_memory_db();  // with querygate's own functions (percentile, median) registered
  ASSERT_TRUE(db);
  std::set<std::string> present;
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT name FROM pragma_function_list", -1, &stmt, nullptr), SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    present.insert(lower(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))));
  sqlite3_finalize(stmt);
  ASSERT_GT(present.size(), 50u);
  // pg_series is a table-valued function (a module), not a scalar one: listed by pragma_module_list.
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT name FROM pragma_module_list", -1, &stmt, nullptr), SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    if (lower(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))) == "pg_series") present.insert("pg_series");
  sqlite3_finalize(stmt);
  for (const auto& name : sqlite_authorizer_functions())
    EXPECT_TRUE(present.contains(name)) << name << "() is admitted on SQLite but SQLite " << sqlite3_libversion()
                                        << " has no such function";
}

// ---------- the renderer ----------

TEST(CapabilityTest, RendererCanPrintEveryConstructAdmittedOnADialect) {
  for (const auto& row : constructs())
    for (Dialect d : kDialects) {
      if (!is_admitted(cell(row, d))) continue;  // refused, or rewritten away before rendering
      for (render::Construct r : row.printed_as)
        EXPECT_TRUE(render::can_render(r, d))
            << row.sql_words << " is admitted on " << dialect_name(d) << " but the renderer cannot print "
            << render::construct_info(r).sql_words << " there";
    }
}

TEST(CapabilityTest, EveryRendererGapBelongsToOneConstructThatRefusesIt) {
  for (const auto& info : render::all_constructs()) {
    std::vector<const ConstructCapability*> owners;
    for (const auto& row : constructs())
      if (std::find(row.printed_as.begin(), row.printed_as.end(), info.construct) != row.printed_as.end())
        owners.push_back(&row);
    ASSERT_EQ(owners.size(), 1u) << "renderer construct '" << info.sql_words
                                 << "' must be named by exactly one capability row (printed_as)";
    for (Dialect d : kDialects) {
      if (render::can_render(info.construct, d)) continue;
      EXPECT_FALSE(is_admitted(cell(*owners[0], d)))
          << owners[0]->sql_words << " is admitted on " << dialect_name(d) << " but the renderer has no spelling for "
          << info.sql_words << " there";
    }
  }
}

TEST(CapabilityTest, PrefixOperatorsParseAsPrefixOperators) {
  for (const auto& row : operators()) {
    if (!row.prefix) continue;
    auto e = parse_expr(std::string(row.op) + " x");
    ASSERT_TRUE(e) << row.op;
    const auto* op = std::get_if<ast::Operator>(&e->node);
    ASSERT_NE(op, nullptr) << row.op;
    EXPECT_EQ(op->op, row.op);
    EXPECT_FALSE(op->left.has_value()) << row.op;
  }
}

// ---------- every construct through the pipeline ----------

// Statements over the demo tables that use one construct each. The SQLite
// spelling differs where a function the construct needs is refused there, so
// that the construct's own row decides.
struct Example {
  Construct construct;
  std::string_view sqlite;
  std::string_view postgres;
};

const std::vector<Example>& examples() {
  using enum Construct;
  static const std::vector<Example> kExamples{
      {DistinctOn, "SELECT DISTINCT ON (trace_id) trace_id, id FROM spans ORDER BY trace_id, id",
       "SELECT DISTINCT ON (trace_id) trace_id, id FROM spans ORDER BY trace_id, id"},
      {WithinGroup, "SELECT median(cost_usd) WITHIN GROUP (ORDER BY cost_usd) FROM spans",
       "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY cost_usd) FROM spans"},
      {AggregateFilter, "SELECT count(*) FILTER (WHERE kind = 'LLM') FROM spans",
       "SELECT count(*) FILTER (WHERE kind = 'LLM') FROM spans"},
      {AggregateOrderBy, "SELECT kind, group_concat(name, ',' ORDER BY name) FROM spans GROUP BY kind",
       "SELECT kind, string_agg(name, ',' ORDER BY name) FROM spans GROUP BY kind"},
      {WindowFunction, "SELECT id, row_number() OVER (PARTITION BY trace_id ORDER BY start_time) FROM spans",
       "SELECT id, row_number() OVER (PARTITION BY trace_id ORDER BY start_time) FROM spans"},
      {WindowFrameGroups, "SELECT count(*) OVER (ORDER BY kind GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM spans",
       "SELECT count(*) OVER (ORDER BY kind GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM spans"},
      {WindowFrameExclusion,
       "SELECT sum(cost_usd) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM "
       "spans",
       "SELECT sum(cost_usd) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM "
       "spans"},
      {Lateral,
       "SELECT s.id, x.n FROM spans s, LATERAL (SELECT count(*) AS n FROM span_annotations a WHERE a.span_id = s.id) x",
       "SELECT s.id, x.n FROM spans s, LATERAL (SELECT count(*) AS n FROM span_annotations a WHERE a.span_id = s.id) "
       "x"},
      {GroupingSets, "SELECT kind, count(*) FROM spans GROUP BY ROLLUP (kind)",
       "SELECT kind, count(*) FROM spans GROUP BY ROLLUP (kind)"},
      {GroupingSets, "SELECT kind, status, count(*) FROM spans GROUP BY CUBE (kind, status)",
       "SELECT kind, status, count(*) FROM spans GROUP BY CUBE (kind, status)"},
      {GroupingSets, "SELECT kind, status, count(*) FROM spans GROUP BY GROUPING SETS ((kind), (status), ())",
       "SELECT kind, status, count(*) FROM spans GROUP BY GROUPING SETS ((kind), (status), ())"},
      {GroupingSets, "SELECT count(*) FROM spans GROUP BY ()", "SELECT count(*) FROM spans GROUP BY ()"},
      {ILike, "SELECT name FROM spans WHERE name ILIKE '%chat%'", "SELECT name FROM spans WHERE name ILIKE '%chat%'"},
      {SimilarTo, "SELECT name FROM spans WHERE name SIMILAR TO '(chat|llm)%'",
       "SELECT name FROM spans WHERE name SIMILAR TO '(chat|llm)%'"},
      {LikeEscape, "SELECT name FROM spans WHERE name LIKE '10!%%' ESCAPE '!'",
       "SELECT name FROM spans WHERE name LIKE '10!%%' ESCAPE '!'"},
      {RightJoin, "SELECT s.id, t.id FROM spans s RIGHT JOIN traces t ON t.trace_id = s.trace_id",
       "SELECT s.id, t.id FROM spans s RIGHT JOIN traces t ON t.trace_id = s.trace_id"},
      {FullJoin, "SELECT s.id, t.id FROM spans s FULL JOIN traces t ON t.trace_id = s.trace_id",
       "SELECT s.id, t.id FROM spans s FULL JOIN traces t ON t.trace_id = s.trace_id"},
      {ValuesInFrom, "SELECT v.k, v.label FROM (VALUES ('LLM', 'model'), ('TOOL', 'tool')) AS v(k, label)",
       "SELECT v.k, v.label FROM (VALUES ('LLM', 'model'), ('TOOL', 'tool')) AS v(k, label)"},
      {LocalTime, "SELECT LOCALTIMESTAMP", "SELECT LOCALTIMESTAMP"},
      {LocalTime, "SELECT LOCALTIME", "SELECT LOCALTIME"},
      {CurrentTime, "SELECT CURRENT_TIME", "SELECT CURRENT_TIME"},
      {BetweenSymmetric, "SELECT id FROM spans WHERE id BETWEEN SYMMETRIC 20 AND 10",
       "SELECT id FROM spans WHERE id BETWEEN SYMMETRIC 20 AND 10"},
      {IsDistinctFrom, "SELECT id FROM spans WHERE parent_id IS DISTINCT FROM 1",
       "SELECT id FROM spans WHERE parent_id IS DISTINCT FROM 1"},
      {SetOpIntersectAll, "SELECT id FROM spans INTERSECT ALL SELECT span_id FROM span_annotations",
       "SELECT id FROM spans INTERSECT ALL SELECT span_id FROM span_annotations"},
      {SetOpIntersectAll, "SELECT id FROM spans EXCEPT ALL SELECT span_id FROM span_annotations",
       "SELECT id FROM spans EXCEPT ALL SELECT span_id FROM span_annotations"},
      {GreatestLeast, "SELECT greatest(cost_usd, 0) FROM spans", "SELECT greatest(cost_usd, 0) FROM spans"},
      {GreatestLeast, "SELECT least(cost_usd, 1) FROM spans", "SELECT least(cost_usd, 1) FROM spans"},
      {QuantifiedSubquery, "SELECT id FROM spans WHERE id = ANY (SELECT span_id FROM span_annotations)",
       "SELECT id FROM spans WHERE id = ANY (SELECT span_id FROM span_annotations)"},
      {QuantifiedSubquery, "SELECT id FROM spans WHERE cost_usd > ALL (SELECT score FROM span_annotations)",
       "SELECT id FROM spans WHERE cost_usd > ALL (SELECT score FROM span_annotations)"},
      {RelationColumnAliases, "SELECT x.a FROM (SELECT id FROM spans) AS x(a)",
       "SELECT x.a FROM (SELECT id FROM spans) AS x(a)"},
      {RelationColumnAliases, "SELECT t.a FROM projects AS t(a)", "SELECT t.a FROM projects AS t(a)"},
      {EmptySelectList, "SELECT FROM spans", "SELECT FROM spans"},
      {EmptySelectList, "SELECT id FROM traces t WHERE EXISTS (SELECT FROM spans s WHERE s.trace_id = t.trace_id)",
       "SELECT id FROM traces t WHERE EXISTS (SELECT FROM spans s WHERE s.trace_id = t.trace_id)"},
  };
  return kExamples;
}

// Constructs whose row is right but whose construct(...) call admission does
// not make yet (listed in tests/corpus/admission/pending/pending.tsv):
// until it does, the renderer refuses the statement (internal:error) instead of
// admission refusing it with the row's FIX. Still fails closed; still reported.
const std::set<Construct> kAwaitingAdmissionCall{Construct::EmptySelectList};

TEST(CapabilityTest, EveryConstructHasAnExample) {
  for (std::size_t i = 0; i < kConstructCount; ++i) {
    const auto c = static_cast<Construct>(i);
    EXPECT_TRUE(std::any_of(examples().begin(), examples().end(), [&](const Example& e) { return e.construct == c; }))
        << find(c).sql_words << " has no example statement in capability_test.cpp";
  }
}

TEST(CapabilityTest, AdmissionDecidesEachExampleAsItsRowSays) {
  GuardedSqlite sqlite;
  ASSERT_TRUE(sqlite.ok());
  config::Limits limits;
  for (const auto& ex : examples()) {
    const auto& row = find(ex.construct);
    for (Dialect d : kDialects) {
      const std::string sql(d == Dialect::Sqlite ? ex.sqlite : ex.postgres);
      const std::string where = std::string(row.sql_words) + " [" + std::string(dialect_name(d)) + "] " + sql;
      const Cell& c = cell(row, d);
      auto result = admit_statement(sql, demo_catalog(d), limits, std::nullopt);
      if (c.verdict == Verdict::Refuse) {
        if (result) {
          ADD_FAILURE() << where << "\n  admitted, but the table refuses it\n  rendered: " << result->sql;
          continue;
        }
        if (kAwaitingAdmissionCall.contains(ex.construct) && result.error().code == ErrorCode::Internal) {
          std::cout << "[ PENDING  ] " << where << ": refused by the renderer, not by admission ("
                    << result.error().message << ")\n";
          continue;
        }
        const ErrorCode expected =
            is_admitted(cell(row, other(d))) || cell(row, other(d)).verdict == Verdict::Rewrite
                ? (d == Dialect::Sqlite ? ErrorCode::CapabilityNotOnSqlite : ErrorCode::CapabilityNotOnPostgres)
                : ErrorCode::ValidationUnsupported;
        EXPECT_EQ(name(result.error().code), name(expected)) << where << "\n  " << result.error().message;
        EXPECT_EQ(result.error().fix, c.note) << where;
        continue;
      }
      if (!result) {
        ADD_FAILURE() << where << "\n  refused: " << name(result.error().code) << ": " << result.error().message;
        continue;
      }
      if (c.verdict == Verdict::Rewrite) {
        EXPECT_NE(std::find(result->rewrites.begin(), result->rewrites.end(), std::string(c.note)),
                  result->rewrites.end())
            << where << ": rewrite " << c.note << " did not fire";
      }
      if (d == Dialect::Sqlite) {
        const std::string problem = sqlite.prepare(result->sql);
        EXPECT_TRUE(problem.empty()) << where << "\n  rendered: " << result->sql << "\n  SQLite: " << problem;
      }
    }
  }
}

}  // namespace
}  // namespace qg::capability
