// Identifier and string-literal spelling, shared by both dialects.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "admission/render/render.hpp"

namespace qg::render {
namespace {

// Words printed quoted even though they match [a-z_][a-z0-9_]*: every SQLite
// keyword, every PostgreSQL keyword that is not fully unreserved (reserved,
// type/function-name and column-name keywords, including those added after
// PostgreSQL 15), and a few unreserved ones with grammar of their own. The list
// is generous on purpose: quoting a word that did not need it never changes
// its meaning, while missing one turns a name into syntax. Sorted, so lookup
// is a binary search; the static_assert keeps it that way.
constexpr std::array<std::string_view, 250> kKeywords{
    "abort", "action", "add", "after", "all", "alter", "always", "analyse", "analyze", "and", "any", "array", "as",
    "asc", "asymmetric", "at", "attach", "authorization", "autoincrement", "before", "begin", "between", "bigint",
    "binary", "bit", "boolean", "both", "by", "cascade", "case", "cast", "char", "character", "check", "coalesce",
    "collate", "collation", "column", "commit", "concurrently", "conflict", "constraint", "create", "cross",
    "cube", "current", "current_catalog", "current_date", "current_role", "current_schema", "current_time",
    "current_timestamp", "current_user", "database", "dec", "decimal", "default", "deferrable", "deferred",
    "delete", "desc", "detach", "distinct", "do", "double", "drop", "each", "else", "end", "escape", "except",
    "exclude", "exclusive", "exists", "explain", "extract", "fail", "false", "fetch", "filter", "first", "float",
    "following", "for", "foreign", "freeze", "from", "full", "generated", "glob", "grant", "greatest", "group",
    "grouping", "groups", "having", "if", "ignore", "ilike", "immediate", "in", "index", "indexed", "initially",
    "inner", "inout", "insert", "instead", "int", "integer", "intersect", "interval", "into", "is", "isnull",
    "join", "json", "json_array", "json_arrayagg", "json_exists", "json_object", "json_objectagg", "json_query",
    "json_scalar", "json_serialize", "json_table", "json_value", "key", "last", "lateral", "leading", "least",
    "left", "like", "limit", "localtime", "localtimestamp", "match", "materialized", "merge_action", "national",
    "natural", "nchar", "no", "none", "normalize", "not", "nothing", "notnull", "null", "nullif", "nulls",
    "numeric", "of", "offset", "on", "only", "or", "order", "ordinality", "others", "out", "outer", "over",
    "overlaps", "overlay", "partition", "placing", "plan", "position", "pragma", "preceding", "precision",
    "primary", "query", "raise", "range", "real", "recursive", "references", "regexp", "reindex", "release",
    "rename", "replace", "restrict", "returning", "right", "rollback", "rollup", "row", "rows", "savepoint",
    "select", "session_user", "set", "setof", "sets", "similar", "smallint", "some", "substring", "symmetric",
    "system_user", "table", "tablesample", "temp", "temporary", "then", "ties", "time", "timestamp", "to",
    "trailing", "transaction", "treat", "trigger", "trim", "true", "unbounded", "union", "unique", "update",
    "user", "using", "vacuum", "values", "varchar", "variadic", "verbose", "view", "virtual", "when", "where",
    "window", "with", "within", "without", "xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest",
    "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable", "zone",
};
static_assert(std::is_sorted(kKeywords.begin(), kKeywords.end()) &&
                  std::adjacent_find(kKeywords.begin(), kKeywords.end()) == kKeywords.end(),
              "kKeywords must be sorted and unique");

constexpr bool is_keyword(std::string_view word) {
  return std::binary_search(kKeywords.begin(), kKeywords.end(), word);
}

constexpr bool is_plain_name(std::string_view name) {
  if (name.empty()) return false;
  const char head = name.front();
  if (!((head >= 'a' && head <= 'z') || head == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::string quote_doubling(std::string_view text, char quote) {
  std::string out;
  out.reserve(text.size() + 2);
  out += quote;
  for (char c : text) {
    if (c == quote) out += quote;
    out += c;
  }
  out += quote;
  return out;
}

}  // namespace

// Both grammars accept the same spellings, so the rule is one; the dialect is
// a parameter so a future dialect with another quote character fits.
std::string quote_identifier(std::string_view name, Dialect /*dialect*/) {
  if (is_plain_name(name) && !is_keyword(name)) return std::string(name);
  return quote_doubling(name, '"');
}

std::string quote_string(std::string_view text) { return quote_doubling(text, '\''); }

}  // namespace qg::render
