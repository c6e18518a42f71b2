#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <utility>

#include "admission/convert/convert_internal.hpp"

namespace qg::convert {
namespace detail {

std::optional<Node> as_node(element e) {
  object o;
  if (e.get_object().get(o)) return std::nullopt;
  for (auto [key, value] : o) {
    object fields;
    if (value.get_object().get(fields)) return std::nullopt;
    return Node{key, fields};
  }
  return std::nullopt;
}

std::optional<element> field(object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e)) return std::nullopt;
  return e;
}

std::string_view string_field(object o, std::string_view key) {
  auto e = field(o, key);
  std::string_view s;
  if (!e || e->get_string().get(s)) return {};
  return s;
}

std::int64_t int_field(object o, std::string_view key) {
  auto e = field(o, key);
  std::int64_t v = 0;
  if (!e || e->get_int64().get(v)) return 0;
  return v;
}

bool bool_field(object o, std::string_view key) {
  auto e = field(o, key);
  bool v = false;
  if (!e || e->get_bool().get(v)) return false;
  return v;
}

int location_of(object o) {
  // Only call this on nodes that have a location field: protobuf JSON omits the
  // value 0, so a missing field means "at the start of the text".
  auto e = field(o, "location");
  std::int64_t v = 0;
  if (!e || e->get_int64().get(v)) return 0;
  return static_cast<int>(v);
}

namespace {
// The extreme "location" anywhere inside `e` by `better` (smaller for the first, larger for the last).
template <typename Better>
int extreme_location(element e, Better better) {
  int best = -1;
  auto offer = [&](int here) {
    if (here >= 0 && (best < 0 || better(here, best))) best = here;
  };
  object o;
  array a;
  if (!e.get_object().get(o)) {
    for (auto [key, value] : o) {
      std::int64_t v = 0;
      offer(key == "location" && !value.get_int64().get(v) ? static_cast<int>(v) : extreme_location(value, better));
    }
  } else if (!e.get_array().get(a)) {
    for (element x : a) offer(extreme_location(x, better));
  }
  return best;
}
}  // namespace

int first_location(element e) {
  return extreme_location(e, std::less<int>());
}
int last_location(element e) {
  return extreme_location(e, std::greater<int>());
}

std::optional<array> list_field(object o, std::string_view key) {
  auto e = field(o, key);
  array a;
  if (!e || e->get_array().get(a)) return std::nullopt;
  return a;
}

std::optional<std::string_view> string_node(element e) {
  auto n = as_node(e);
  if (!n || n->kind != "String") return std::nullopt;
  return string_field(n->fields, "sval");
}

std::string sql_words(std::string_view kind) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 64> kWords{{
      {"InsertStmt", "INSERT"},
      {"UpdateStmt", "UPDATE"},
      {"DeleteStmt", "DELETE"},
      {"MergeStmt", "MERGE"},
      {"CreateStmt", "CREATE TABLE"},
      {"CreateTableAsStmt", "CREATE TABLE AS"},
      {"ViewStmt", "CREATE VIEW"},
      {"IndexStmt", "CREATE INDEX"},
      {"CreateFunctionStmt", "CREATE FUNCTION"},
      {"CreateSchemaStmt", "CREATE SCHEMA"},
      {"CreateSeqStmt", "CREATE SEQUENCE"},
      {"CreateTrigStmt", "CREATE TRIGGER"},
      {"CreateRoleStmt", "CREATE ROLE"},
      {"CreateExtensionStmt", "CREATE EXTENSION"},
      {"CreatedbStmt", "CREATE DATABASE"},
      {"AlterTableStmt", "ALTER TABLE"},
      {"AlterRoleStmt", "ALTER ROLE"},
      {"AlterSystemStmt", "ALTER SYSTEM"},
      {"RenameStmt", "ALTER ... RENAME"},
      {"DropStmt", "DROP"},
      {"DropdbStmt", "DROP DATABASE"},
      {"DropRoleStmt", "DROP ROLE"},
      {"TruncateStmt", "TRUNCATE"},
      {"GrantStmt", "GRANT/REVOKE"},
      {"GrantRoleStmt", "GRANT/REVOKE role"},
      {"TransactionStmt", "a transaction statement (BEGIN/COMMIT/ROLLBACK/SAVEPOINT)"},
      {"VariableSetStmt", "SET"},
      {"VariableShowStmt", "SHOW"},
      {"CopyStmt", "COPY"},
      {"ExplainStmt", "EXPLAIN"},
      {"LockStmt", "LOCK"},
      {"VacuumStmt", "VACUUM/ANALYZE"},
      {"ClusterStmt", "CLUSTER"},
      {"ReindexStmt", "REINDEX"},
      {"CheckPointStmt", "CHECKPOINT"},
      {"DoStmt", "DO"},
      {"CallStmt", "CALL"},
      {"PrepareStmt", "PREPARE"},
      {"ExecuteStmt", "EXECUTE"},
      {"DeallocateStmt", "DEALLOCATE"},
      {"ListenStmt", "LISTEN"},
      {"NotifyStmt", "NOTIFY"},
      {"UnlistenStmt", "UNLISTEN"},
      {"LoadStmt", "LOAD"},
      {"DeclareCursorStmt", "DECLARE CURSOR"},
      {"FetchStmt", "FETCH"},
      {"ClosePortalStmt", "CLOSE"},
      {"CommentStmt", "COMMENT ON"},
      {"RefreshMatViewStmt", "REFRESH MATERIALIZED VIEW"},
      {"DiscardStmt", "DISCARD"},
      {"ReassignOwnedStmt", "REASSIGN OWNED"},
      {"DropOwnedStmt", "DROP OWNED"},
      {"A_Indirection", "a subscript or field access (x[1], (x).f)"},
      {"A_ArrayExpr", "an ARRAY[...] constructor"},
      {"RowExpr", "a ROW(...) constructor"},
      {"CollateClause", "COLLATE"},
      {"GroupingFunc", "GROUPING(...)"},
      {"XmlExpr", "an XML function"},
      {"XmlSerialize", "XMLSERIALIZE"},
      {"CurrentOfExpr", "WHERE CURRENT OF"},
      {"SetToDefault", "DEFAULT"},
      {"MultiAssignRef", "a multi-column assignment"},
      {"RangeTableSample", "TABLESAMPLE"},
      {"RangeTableFunc", "XMLTABLE"},
  }};
  for (const auto& [k, words] : kWords)
    if (k == kind) return std::string(words);
  // Unknown kinds: strip the parser's suffixes so the words still read as SQL.
  std::string out(kind);
  if (out.ends_with("Stmt")) out.resize(out.size() - 4);
  return "the construct " + out;
}

Error unsupported(std::string what, int location, std::string fix) {
  if (fix.empty())
    fix = "FIX: rewrite the statement without " + what +
          "; querygate admits one read-only SELECT (joins, subqueries, CTEs, GROUP BY, window functions).";
  std::optional<int> pos;
  if (location >= 0) pos = location;
  return make_error(ErrorCode::ValidationUnsupported, what + " is not supported", std::move(fix), pos);
}

Status Converter::only_fields(object o, std::initializer_list<std::string_view> known, std::string_view construct,
                              int location) {
  for (auto [key, value] : o) {
    (void)value;
    bool ok = false;
    for (auto k : known) ok = ok || k == key;
    if (!ok) return unsupported(std::string(construct) + " with '" + std::string(key) + "'", location);
  }
  return {};
}

Result<std::int64_t> Converter::integer_at(int location) const {
  auto refuse = [&] {
    return make_error(ErrorCode::ValidationUnsupported, "this integer constant could not be read back",
                      "FIX: write the number plainly, e.g. -2 or 0, without comments inside it.",
                      location >= 0 ? std::optional<int>(location) : std::nullopt);
  };
  if (location < 0 || static_cast<std::size_t>(location) >= sql_.size()) return refuse();
  std::size_t i = static_cast<std::size_t>(location);
  bool negative = false;
  if (sql_[i] == '-') {
    negative = true;
    ++i;
    // -(7): the grammar negates the constant inside the parentheses, at the minus's position (outside tester s21b).
    while (i < sql_.size() && (std::isspace(static_cast<unsigned char>(sql_[i])) || sql_[i] == '(')) ++i;
  }
  std::size_t end = i;
  while (end < sql_.size() && std::isdigit(static_cast<unsigned char>(sql_[end]))) ++end;
  if (end == i) return refuse();
  std::int64_t value = 0;
  for (std::size_t k = i; k < end; ++k) {
    value = value * 10 + (sql_[k] - '0');
    if (value > (std::int64_t{1} << 32)) return refuse();  // the grammar makes larger ones numeric constants
  }
  return negative ? -value : value;
}

int Converter::matching_paren(int open) {
  if (paren_match_.empty()) {
    // One pass over the text pairing parentheses outside strings, quoted names,
    // comments and dollar quotes. The grammar accepted the text, so they balance.
    paren_match_.assign(sql_.size(), -1);
    std::vector<int> stack;
    const std::size_t n = sql_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const char c = sql_[i];
      if (c == '\'' || c == '"') {
        for (++i; i < n; ++i)
          if (sql_[i] == c) {
            if (i + 1 < n && sql_[i + 1] == c)
              ++i;
            else
              break;
          }
      } else if (c == '-' && i + 1 < n && sql_[i + 1] == '-') {
        while (i < n && sql_[i] != '\n') ++i;
      } else if (c == '/' && i + 1 < n && sql_[i + 1] == '*') {
        int depth = 1;
        for (i += 2; i < n && depth > 0; ++i) {
          if (sql_[i] == '/' && i + 1 < n && sql_[i + 1] == '*')
            ++depth, ++i;
          else if (sql_[i] == '*' && i + 1 < n && sql_[i + 1] == '/')
            --depth, ++i;
        }
        --i;
      } else if (c == '$') {
        const auto close = sql_.find('$', i + 1);
        if (close != std::string_view::npos) {
          const std::string_view tag = sql_.substr(i, close - i + 1);
          const bool is_tag = std::all_of(tag.begin() + 1, tag.end() - 1, [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
          });
          const auto end = is_tag ? sql_.find(tag, close + 1) : std::string_view::npos;
          if (is_tag && end != std::string_view::npos) i = end + tag.size() - 1;
        }
      } else if (c == '(') {
        stack.push_back(static_cast<int>(i));
      } else if (c == ')' && !stack.empty()) {
        paren_match_[static_cast<std::size_t>(stack.back())] = static_cast<int>(i);
        stack.pop_back();
      }
    }
  }
  return open >= 0 && static_cast<std::size_t>(open) < paren_match_.size() ? paren_match_[open] : -1;
}

bool Converter::wrapped(element e) {
  const int first = first_location(e);
  const int last = last_location(e);
  if (first <= 0 || static_cast<std::size_t>(first) > sql_.size()) return false;
  // Walk outwards through the '(' before the first token: `((+ id) * 1)` opens
  // with a '(' that wraps only `+ id`; the one before it wraps the whole.
  for (int i = first - 1;;) {
    while (i >= 0 && std::isspace(static_cast<unsigned char>(sql_[i]))) --i;
    if (i < 0 || sql_[i] != '(') return false;
    if (matching_paren(i) > last) return true;
    --i;
  }
}

bool Converter::wrapped_query(element e) {
  const int first = first_location(e);
  const int last = last_location(e);
  if (first <= 0 || static_cast<std::size_t>(first) > sql_.size()) return false;
  // Step back over the keywords that start the branch (SELECT, DISTINCT, ...) to the '(' if any.
  int i = first - 1;
  while (i >= 0 &&
         (std::isspace(static_cast<unsigned char>(sql_[i])) || std::isalpha(static_cast<unsigned char>(sql_[i]))))
    --i;
  if (i < 0 || sql_[i] != '(') return false;
  return matching_paren(i) > last;
}

Status Converter::check_depth(int location) const {
  if (depth_ <= kMaxDepth) return {};
  std::optional<int> pos;
  if (location >= 0) pos = location;
  return make_error(ErrorCode::ValidationTooDeep,
                    "the statement nests more than " + std::to_string(kMaxDepth) + " levels deep",
                    "FIX: flatten the expression (use IN (...) instead of long OR chains, CTEs instead of deeply "
                    "nested subqueries).",
                    pos);
}

namespace {
bool is_write_or_ddl(std::string_view kind) {
  static constexpr std::array<std::string_view, 4> kReadShaped{"ExplainStmt", "VariableShowStmt", "SelectStmt",
                                                               "PrepareStmt"};
  for (auto k : kReadShaped)
    if (k == kind) return false;
  return true;
}
}  // namespace

Result<ast::Query> Converter::query_node(element e, int location) {
  auto n = as_node(e);
  if (!n) return make_error(ErrorCode::Internal, "parse tree: expected a statement node");
  const int loc = location;  // statement nodes carry no location field
  if (n->kind == "SelectStmt") return query(n->fields, loc);
  const std::string words = sql_words(n->kind);
  std::optional<int> pos;
  if (loc >= 0) pos = loc;
  if (is_write_or_ddl(n->kind))
    return make_error(ErrorCode::ValidationNotReadOnly, words + " is not allowed: querygate is read-only",
                      "FIX: send one SELECT statement that reads data; querygate never writes, changes schema or "
                      "controls transactions.",
                      pos);
  return make_error(ErrorCode::ValidationNotSelect, words + " is not a query",
                    "FIX: send one SELECT statement; to see tables and columns, call GET /v1/schema.", pos);
}

Result<ast::Query> Converter::statement(element root) {
  object top;
  if (root.get_object().get(top)) return make_error(ErrorCode::Internal, "parse tree: not an object");
  auto stmts = list_field(top, "stmts");
  if (!stmts || stmts->size() == 0)
    return make_error(ErrorCode::ParseEmpty, "the SQL text holds no statement (only whitespace or comments)",
                      "FIX: send one SELECT statement, e.g. SELECT count(*) FROM <table>.");
  if (stmts->size() > 1) {
    std::optional<int> second;
    int idx = 0;
    for (element s : *stmts) {
      object raw;
      if (idx++ == 1 && !s.get_object().get(raw)) second = static_cast<int>(int_field(raw, "stmt_location"));
    }
    return make_error(ErrorCode::ValidationMultiStatement,
                      "the SQL text holds " + std::to_string(stmts->size()) + " statements",
                      "FIX: send exactly one SELECT statement per request, without a ';' followed by another "
                      "statement.",
                      second);
  }
  element raw_stmt = (*stmts).at(0);
  object raw;
  if (raw_stmt.get_object().get(raw)) return make_error(ErrorCode::Internal, "parse tree: bad statement");
  auto stmt = field(raw, "stmt");
  if (!stmt) return make_error(ErrorCode::ParseEmpty, "the SQL text holds no statement", "FIX: send one SELECT.");
  return query_node(*stmt, static_cast<int>(int_field(raw, "stmt_location")));
}

}  // namespace detail

Result<ast::Query> convert_statement(std::string_view json, std::string_view sql,
                                     const std::vector<std::string>* param_names) {
  // One parser per thread: simdjson parsers reuse their buffers and are not thread-safe.
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto err = parser.parse(padded).get(root)) {
    if (err == simdjson::DEPTH_ERROR)  // the statement nests deeper than any reader of it should go
      return make_error(ErrorCode::ValidationTooDeep, "the statement nests too deeply",
                        "FIX: flatten the expression (use IN (...) instead of long OR chains, sum columns in a "
                        "subquery, use CTEs instead of deeply nested subqueries).",
                        0);
    return make_error(ErrorCode::Internal, std::string("parse tree JSON: ") + simdjson::error_message(err));
  }
  detail::Converter converter(sql, param_names);
  return converter.statement(root);
}

}  // namespace qg::convert
