#include "admission/capability/signatures.hpp"

#include <array>

namespace qg::capability {
namespace {

// PostgreSQL 15's pg_proc entries for these names, restricted to the argument
// types querygate's values can have (no bytea, bit, tsvector, int2, float4:
// an int2 or float4 value reaches them through the implicit casts int2 → int4,
// float4 → float8 anyway). Variadic functions (concat, concat_ws,
// jsonb_extract_path_text) and those the grammar spells as syntax (EXTRACT,
// TRIM, POSITION ... IN) are not listed: their calls are not checked here.
constexpr Signature kSignatures[] = {
    // ---- text
    {"length", "text"},
    {"char_length", "text"},
    {"character_length", "text"},
    {"octet_length", "text"},
    {"lower", "text"},
    {"upper", "text"},
    {"initcap", "text"},
    {"reverse", "text"},
    {"md5", "text"},
    {"ascii", "text"},
    {"chr", "int4"},
    {"to_hex", "int4"},
    {"to_hex", "int8"},
    {"substr", "text,int4"},
    {"substr", "text,int4,int4"},
    {"substring", "text,int4"},
    {"substring", "text,int4,int4"},
    {"substring", "text,text"},  // the part matching a regular expression
    {"substring", "text,text,text"},
    {"replace", "text,text,text"},
    {"ltrim", "text"},
    {"ltrim", "text,text"},
    {"rtrim", "text"},
    {"rtrim", "text,text"},
    {"btrim", "text"},
    {"btrim", "text,text"},
    {"left", "text,int4"},
    {"right", "text,int4"},
    {"strpos", "text,text"},
    {"starts_with", "text,text"},
    {"split_part", "text,text,int4"},
    {"regexp_replace", "text,text,text"},
    {"regexp_replace", "text,text,text,text"},
    {"regexp_replace", "text,text,text,int4"},
    {"regexp_replace", "text,text,text,int4,int4"},
    {"regexp_replace", "text,text,text,int4,int4,text"},
    {"regexp_like", "text,text"},
    {"regexp_like", "text,text,text"},
    {"regexp_count", "text,text"},
    {"regexp_count", "text,text,int4"},
    {"regexp_count", "text,text,int4,text"},
    {"regexp_substr", "text,text"},
    {"regexp_substr", "text,text,int4"},
    {"regexp_substr", "text,text,int4,int4"},
    {"regexp_substr", "text,text,int4,int4,text"},
    {"regexp_substr", "text,text,int4,int4,text,int4"},
    {"regexp_match", "text,text"},
    {"regexp_match", "text,text,text"},
    {"to_char", "timestamp,text"},
    {"to_char", "timestamptz,text"},
    {"to_char", "interval,text"},
    {"to_char", "int4,text"},
    {"to_char", "int8,text"},
    {"to_char", "numeric,text"},
    {"to_char", "float8,text"},
    {"to_date", "text,text"},
    // ---- numbers
    {"abs", "int4"},
    {"abs", "int8"},
    {"abs", "numeric"},
    {"abs", "float8"},
    {"round", "float8"},
    {"round", "numeric"},
    {"round", "numeric,int4"},
    {"trunc", "float8"},
    {"trunc", "numeric"},
    {"trunc", "numeric,int4"},
    {"ceil", "float8"},
    {"ceil", "numeric"},
    {"ceiling", "float8"},
    {"ceiling", "numeric"},
    {"floor", "float8"},
    {"floor", "numeric"},
    {"sign", "float8"},
    {"sign", "numeric"},
    {"sqrt", "float8"},
    {"sqrt", "numeric"},
    {"exp", "float8"},
    {"exp", "numeric"},
    {"ln", "float8"},
    {"ln", "numeric"},
    {"log", "float8"},
    {"log", "numeric"},
    {"log", "numeric,numeric"},
    {"log10", "float8"},
    {"log10", "numeric"},
    {"power", "float8,float8"},
    {"power", "numeric,numeric"},
    {"pow", "float8,float8"},
    {"pow", "numeric,numeric"},
    {"mod", "int4,int4"},
    {"mod", "int8,int8"},
    {"mod", "numeric,numeric"},
    {"degrees", "float8"},
    {"radians", "float8"},
    {"sin", "float8"},
    {"cos", "float8"},
    {"tan", "float8"},
    {"asin", "float8"},
    {"acos", "float8"},
    {"atan", "float8"},
    {"atan2", "float8,float8"},
    // ---- date and time
    {"date_trunc", "text,timestamp"},
    {"date_trunc", "text,timestamptz"},
    {"date_trunc", "text,interval"},
    {"date_trunc", "text,timestamptz,text"},
    {"date_part", "text,timestamp"},
    {"date_part", "text,timestamptz"},
    {"date_part", "text,interval"},
    {"date_part", "text,date"},
    {"age", "timestamp"},
    {"age", "timestamptz"},
    {"age", "timestamp,timestamp"},
    {"age", "timestamptz,timestamptz"},
    {"to_timestamp", "float8"},
    {"to_timestamp", "text,text"},
    // ---- JSON (querygate's values do not tell json from jsonb: both match either). json_array_length is
    // SQLite's own function on SQLite (json_array_length(x, '$.path')): not listed.
    {"jsonb_typeof", "jsonb"},
    {"jsonb_array_length", "jsonb"},
};

struct Name {
  std::string_view name;
  std::string_view words;
  ArgType type;
};
constexpr std::array kNames{
    Name{"int4", "integer", ArgType::Int4},
    Name{"int8", "bigint", ArgType::Int8},
    Name{"numeric", "numeric", ArgType::Numeric},
    Name{"float8", "double precision", ArgType::Float8},
    Name{"text", "text", ArgType::Text},
    Name{"bool", "boolean", ArgType::Bool},
    Name{"jsonb", "jsonb", ArgType::Jsonb},
    Name{"json", "json", ArgType::Json},
    Name{"date", "date", ArgType::Date},
    Name{"timestamp", "timestamp without time zone", ArgType::Timestamp},
    Name{"timestamptz", "timestamp with time zone", ArgType::Timestamptz},
    Name{"interval", "interval", ArgType::Interval},
};

}  // namespace

std::span<const Signature> signatures() {
  return kSignatures;
}

bool arg_type_from_name(std::string_view name, ArgType& out) {
  for (const auto& n : kNames)
    if (n.name == name) {
      out = n.type;
      return true;
    }
  return false;
}

std::string_view arg_type_name(ArgType t) {
  for (const auto& n : kNames)
    if (n.type == t) return n.name;
  return "unknown";
}

std::string_view arg_type_words(ArgType t) {
  for (const auto& n : kNames)
    if (n.type == t) return n.words;
  return "unknown";
}

bool implicit_cast(ArgType from, ArgType to) {
  if (from == to) return true;
  switch (from) {
    case ArgType::Int4:
      return to == ArgType::Int8 || to == ArgType::Numeric || to == ArgType::Float8;
    case ArgType::Int8:
      return to == ArgType::Numeric || to == ArgType::Float8;
    case ArgType::Numeric:
      return to == ArgType::Float8;
    case ArgType::Date:
      return to == ArgType::Timestamp || to == ArgType::Timestamptz;
    case ArgType::Timestamp:
      return to == ArgType::Timestamptz;
    case ArgType::Float8:
    case ArgType::Text:
    case ArgType::Bool:
    case ArgType::Jsonb:
    case ArgType::Json:
    case ArgType::Timestamptz:
    case ArgType::Interval:
      return false;
  }
  return false;
}

bool callable(std::string_view function, const std::vector<ArgType>& args) {
  for (const auto& s : signatures_of(function)) {
    if (s.size() != args.size()) continue;
    bool ok = true;
    for (std::size_t i = 0; ok && i < s.size(); ++i) ok = implicit_cast(args[i], s[i]);
    if (ok) return true;
  }
  return false;
}

std::vector<std::vector<ArgType>> signatures_of(std::string_view function) {
  std::vector<std::vector<ArgType>> out;
  for (const auto& s : kSignatures) {
    if (s.function != function) continue;
    std::vector<ArgType> args;
    std::string_view rest = s.args;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      ArgType t{};
      if (arg_type_from_name(rest.substr(0, comma), t)) args.push_back(t);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    out.push_back(std::move(args));
  }
  return out;
}

}  // namespace qg::capability
