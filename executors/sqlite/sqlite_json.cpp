// PostgreSQL's jsonb reading for SQLite, where a JSON column is text
// (admission and render translate the operators, admit/json_on_sqlite.cpp,
// render/render_expr.cpp):
//
//   pg_jsonb_exists(doc, key)  `jsonb ? text`: a top-level key of an object, a
//                              string element of an array, or the string itself.
//   pg_jsonb_text(json)        the text `->>` gives for a JSON value: a string
//                              unquoted, null as NULL, a number as PostgreSQL's
//                              numeric prints it (1.50, 100 for 1e2, every digit
//                              of 12345678901234567890), true/false, an object or
//                              array in jsonb's output form ({"a": 1, "bb": [1, 2]}:
//                              a blank after ':' and ',', keys shorter first then
//                              bytewise, a repeated key's last value).
//   pg_jsonb_out(json)         jsonb's output form of any JSON value (CAST(x AS text)).
//   pg_jsonb_get(json, key)    `x -> 'key'`: an object's member in jsonb's output form (a
//                              repeated key's last value, as jsonb keeps it; SQLite's path
//                              takes the first).
//   pg_jsonb_typeof(json)      jsonb_typeof: object, array, string, number, boolean, null.
//   pg_jsonb_array_length(json) jsonb_array_length, PostgreSQL's error for a scalar or object.
//   pg_jsonb_array(json)       the document as an array for an integer index:
//                              PostgreSQL reads a scalar as a one-element array
//                              ('1'::jsonb -> 0 is 1, ->> -1 too) and an object
//                              as no elements.
//
// NULL in, NULL out. A document that is not JSON fails the statement, as
// PostgreSQL could not have stored it as jsonb.
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "executors/sqlite/sqlite_functions.hpp"
#include "executors/sqlite/sqlite_json.hpp"

namespace qg::exec::sqlite {
namespace json_out {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

struct Reader {
  std::string_view s;
  std::size_t i = 0;
  int depth = 0;

  void skip() {
    while (i < s.size() && blank(s[i])) ++i;
  }
  bool eat(char c) {
    skip();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::optional<std::uint32_t> hex4() {
    if (i + 4 > s.size()) return std::nullopt;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return std::nullopt;
    }
    return v;
  }

  // After the opening quote: the string's characters, unescaped.
  std::optional<std::string> string() {
    std::string out;
    while (i < s.size()) {
      const char c = s[i++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size()) return std::nullopt;
      switch (s[i++]) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          auto cp = hex4();
          if (!cp || *cp == 0) return std::nullopt;  // jsonb refuses \u0000
          if (*cp >= 0xD800 && *cp < 0xDC00) {
            if (i + 2 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return std::nullopt;
            i += 2;
            auto low = hex4();
            if (!low || *low < 0xDC00 || *low >= 0xE000) return std::nullopt;
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
          } else if (*cp >= 0xDC00 && *cp < 0xE000) {
            return std::nullopt;
          }
          put_utf8(out, *cp);
          break;
        }
        default:
          return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::optional<Value> number() {
    const std::size_t start = i;
    if (i < s.size() && s[i] == '-') ++i;
    const std::size_t int_start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == int_start || (s[int_start] == '0' && i - int_start > 1)) return std::nullopt;
    if (i < s.size() && s[i] == '.') {
      const std::size_t frac = ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == frac) return std::nullopt;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      const std::size_t exp = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == exp) return std::nullopt;
    }
    auto text = numeric_text(s.substr(start, i - start));
    if (!text) return std::nullopt;
    Value v;
    v.kind = Kind::Number;
    v.text = std::move(*text);
    return v;
  }

  std::optional<Value> value() {
    skip();
    if (i >= s.size() || ++depth > 1000) return std::nullopt;
    Value v;
    const char c = s[i];
    if (c == '{') {
      ++i;
      v.kind = Kind::Object;
      if (!eat('}')) {
        do {
          if (!eat('"')) return std::nullopt;
          auto key = string();
          if (!key || !eat(':')) return std::nullopt;
          auto member = value();
          if (!member) return std::nullopt;
          v.object.push_back(Member{std::move(*key), std::move(*member)});
        } while (eat(','));
        if (!eat('}')) return std::nullopt;
      }
      // jsonb's order: shorter keys first, then bytewise; of a repeated key the last value stays.
      std::stable_sort(v.object.begin(), v.object.end(), [](const auto& a, const auto& b) {
        if (a.first.size() != b.first.size()) return a.first.size() < b.first.size();
        return a.first < b.first;
      });
      std::vector<Member> kept;
      for (auto& member : v.object) {
        if (!kept.empty() && kept.back().first == member.first)
          kept.back() = std::move(member);
        else
          kept.push_back(std::move(member));
      }
      v.object = std::move(kept);
    } else if (c == '[') {
      ++i;
      v.kind = Kind::Array;
      if (!eat(']')) {
        do {
          auto element = value();
          if (!element) return std::nullopt;
          v.array.push_back(std::move(*element));
        } while (eat(','));
        if (!eat(']')) return std::nullopt;
      }
    } else if (c == '"') {
      ++i;
      auto text = string();
      if (!text) return std::nullopt;
      v.kind = Kind::String;
      v.text = std::move(*text);
    } else if (s.substr(i, 4) == "null") {
      i += 4;
      v.kind = Kind::Null;
    } else if (s.substr(i, 4) == "true") {
      i += 4;
      v.kind = Kind::True;
    } else if (s.substr(i, 5) == "false") {
      i += 5;
      v.kind = Kind::False;
    } else {
      auto n = number();
      if (!n) return std::nullopt;
      v = std::move(*n);
    }
    --depth;
    return v;
  }
};

void quote(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void print(std::string& out, const Value& v) {
  switch (v.kind) {
    case Kind::Null:
      out += "null";
      return;
    case Kind::True:
      out += "true";
      return;
    case Kind::False:
      out += "false";
      return;
    case Kind::Number:
      out += v.text;
      return;
    case Kind::String:
      quote(out, v.text);
      return;
    case Kind::Array:
      out += '[';
      for (std::size_t k = 0; k < v.array.size(); ++k) {
        if (k) out += ", ";
        print(out, v.array[k]);
      }
      out += ']';
      return;
    case Kind::Object:
      out += '{';
      for (std::size_t k = 0; k < v.object.size(); ++k) {
        if (k) out += ", ";
        quote(out, v.object[k].first);
        out += ": ";
        print(out, v.object[k].second);
      }
      out += '}';
      return;
  }
}

}  // namespace

std::optional<std::string> numeric_text(std::string_view n) {
  bool negative = false;
  if (!n.empty() && n.front() == '-') {
    negative = true;
    n.remove_prefix(1);
  }
  std::string digits;   // every digit, the decimal point dropped
  long long point = 0;  // how many of them stand before the point
  std::size_t k = 0;
  for (; k < n.size() && n[k] >= '0' && n[k] <= '9'; ++k) digits += n[k];
  point = static_cast<long long>(digits.size());
  if (k < n.size() && n[k] == '.')
    for (++k; k < n.size() && n[k] >= '0' && n[k] <= '9'; ++k) digits += n[k];
  long long scale = static_cast<long long>(digits.size()) - point;  // digits after the point as written
  if (k < n.size() && (n[k] == 'e' || n[k] == 'E')) {
    ++k;
    bool minus = false;
    if (k < n.size() && (n[k] == '+' || n[k] == '-')) minus = n[k++] == '-';
    long long e = 0;
    for (; k < n.size() && n[k] >= '0' && n[k] <= '9'; ++k) {
      e = e * 10 + (n[k] - '0');
      if (e > 1000) return std::nullopt;  // PostgreSQL's numeric refuses exponents beyond 1000
    }
    if (minus) e = -e;
    point += e;
    scale -= e;
  }
  if (digits.empty() || k != n.size()) return std::nullopt;
  if (scale < 0) scale = 0;  // numeric's display scale: the digits after the point, never fewer than none
  // The digits placed around the point: zeros added before (point < 1) or after (point > size), up to scale.
  std::string whole, fraction;
  for (long long p = 0; p < point; ++p)
    whole += p < static_cast<long long>(digits.size()) ? digits[static_cast<std::size_t>(p)] : '0';
  for (long long p = point; p < point + scale; ++p)
    fraction += p >= 0 && p < static_cast<long long>(digits.size()) ? digits[static_cast<std::size_t>(p)] : '0';
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size()));
  if (whole.empty()) whole = "0";
  const bool zero = whole == "0" && fraction.find_first_not_of('0') == std::string::npos;
  std::string out = negative && !zero ? "-" : "";
  out += whole;
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

std::optional<Value> parse(std::string_view text) {
  Reader r{text};
  auto v = r.value();
  r.skip();
  if (!v || r.i != text.size()) return std::nullopt;
  return v;
}

std::string jsonb_text(const Value& v) {
  std::string out;
  print(out, v);
  return out;
}

}  // namespace json_out

namespace {

std::string_view arg_text(sqlite3_value* v) {
  return {reinterpret_cast<const char*>(sqlite3_value_text(v)), static_cast<std::size_t>(sqlite3_value_bytes(v))};
}

void pg_jsonb_exists(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  const std::string_view doc = arg_text(argv[0]);
  const std::string_view key = arg_text(argv[1]);
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(simdjson::padded_string(doc)).get(root) != simdjson::SUCCESS)
    return sqlite3_result_error(ctx, "querygate: x ? key on a value that is not JSON", -1);
  bool found = false;
  if (simdjson::dom::object obj; root.get_object().get(obj) == simdjson::SUCCESS) {
    for (auto field : obj)
      if (field.key == key) found = true;
  } else if (simdjson::dom::array arr; root.get_array().get(arr) == simdjson::SUCCESS) {
    for (auto element : arr) {
      std::string_view s;
      if (element.get_string().get(s) == simdjson::SUCCESS && s == key) found = true;
    }
  } else if (std::string_view s; root.get_string().get(s) == simdjson::SUCCESS) {
    found = s == key;
  }
  sqlite3_result_int(ctx, found ? 1 : 0);
}

void text_result(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

// pg_jsonb_text(json): what ->> gives for the value.
void pg_jsonb_text(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "querygate: ->> on a value that is not JSON", -1);
  switch (v->kind) {
    case json_out::Kind::Null:
      return sqlite3_result_null(ctx);
    case json_out::Kind::String:
    case json_out::Kind::Number:
      return text_result(ctx, v->text);
    case json_out::Kind::True:
      return text_result(ctx, "true");
    case json_out::Kind::False:
      return text_result(ctx, "false");
    case json_out::Kind::Array:
    case json_out::Kind::Object:
      return text_result(ctx, json_out::jsonb_text(*v));
  }
}

// pg_jsonb_out(json): jsonb's output form.
void pg_jsonb_out(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "querygate: a jsonb value that is not JSON", -1);
  text_result(ctx, json_out::jsonb_text(*v));
}

// pg_jsonb_in(text): CAST(text AS jsonb): jsonb's output form, PostgreSQL's error for text that is not JSON.
void pg_jsonb_in(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "invalid input syntax for type json", -1);
  text_result(ctx, json_out::jsonb_text(*v));
}

// pg_jsonb_get(json, key): `x -> 'key'`: the member of an object (of a repeated key the last, as jsonb
// keeps it; keys compared after their escapes are read) in jsonb's output form; NULL for anything else.
void pg_jsonb_get(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return sqlite3_result_null(ctx);
  auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "querygate: -> on a value that is not JSON", -1);
  if (v->kind != json_out::Kind::Object) return sqlite3_result_null(ctx);
  const std::string_view key = arg_text(argv[1]);
  for (const auto& [name, member] : v->object)
    if (name == key) return text_result(ctx, json_out::jsonb_text(member));
  sqlite3_result_null(ctx);
}

// pg_jsonb_array(json): an array as it is, a scalar as a one-element array, an object as [].
void pg_jsonb_array(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::string_view doc = arg_text(argv[0]);
  std::size_t k = 0;
  while (k < doc.size() && (doc[k] == ' ' || doc[k] == '\t' || doc[k] == '\n' || doc[k] == '\r')) ++k;
  if (k == doc.size()) return sqlite3_result_error(ctx, "querygate: -> on a value that is not JSON", -1);
  if (doc[k] == '[') return sqlite3_result_value(ctx, argv[0]);
  if (doc[k] == '{') return text_result(ctx, "[]");
  text_result(ctx, "[" + std::string(doc) + "]");
}

// pg_jsonb_typeof(json): PostgreSQL's jsonb_typeof: object, array, string, number, boolean or null.
void pg_jsonb_typeof(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "querygate: jsonb_typeof of a value that is not JSON", -1);
  switch (v->kind) {
    case json_out::Kind::Null:
      return text_result(ctx, "null");
    case json_out::Kind::True:
    case json_out::Kind::False:
      return text_result(ctx, "boolean");
    case json_out::Kind::Number:
      return text_result(ctx, "number");
    case json_out::Kind::String:
      return text_result(ctx, "string");
    case json_out::Kind::Array:
      return text_result(ctx, "array");
    case json_out::Kind::Object:
      return text_result(ctx, "object");
  }
}

// pg_jsonb_array_length(json): PostgreSQL's jsonb_array_length: an array's element count; a scalar or an object
// is PostgreSQL's error (SQLite's json_array_length answers 0).
void pg_jsonb_array_length(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const auto v = json_out::parse(arg_text(argv[0]));
  if (!v) return sqlite3_result_error(ctx, "querygate: jsonb_array_length of a value that is not JSON", -1);
  if (v->kind == json_out::Kind::Object) return sqlite3_result_error(ctx, "cannot get array length of a non-array", -1);
  if (v->kind != json_out::Kind::Array) return sqlite3_result_error(ctx, "cannot get array length of a scalar", -1);
  sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(v->array.size()));
}

}  // namespace

bool register_json_functions(sqlite3* db, int flags) {
  return sqlite3_create_function(db, "pg_jsonb_exists", 2, flags, nullptr, pg_jsonb_exists, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_text", 1, flags, nullptr, pg_jsonb_text, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_out", 1, flags, nullptr, pg_jsonb_out, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_in", 1, flags, nullptr, pg_jsonb_in, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_get", 2, flags, nullptr, pg_jsonb_get, nullptr, nullptr) == SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_array", 1, flags, nullptr, pg_jsonb_array, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_typeof", 1, flags, nullptr, pg_jsonb_typeof, nullptr, nullptr) ==
             SQLITE_OK &&
         sqlite3_create_function(db, "pg_jsonb_array_length", 1, flags, nullptr, pg_jsonb_array_length, nullptr,
                                 nullptr) == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
