// pg_json_rows(doc, function): the argument of json_each for PostgreSQL's jsonb
// row sources (admission/admit/json_rows.cpp renders jsonb_each(x) AS e as
// json_each(pg_json_rows(x, 'jsonb_each')) AS e). It
//   - raises PostgreSQL's error where PostgreSQL's function does: jsonb_each /
//     jsonb_each_text / jsonb_object_keys on an array or scalar, the
//     jsonb_array_elements pair on an object or scalar (SQLite's json_each
//     would iterate either);
//   - returns NULL for NULL (no rows, as PostgreSQL);
//   - otherwise returns the object or array json_each then walks, rebuilt so
//     that json_each's `key` and `value` are PostgreSQL's columns: object keys
//     in jsonb's order (shorter first, then bytewise; a repeated key keeps its
//     last value), and each value as a JSON string holding the text PostgreSQL
//     prints for it (jsonb: `"s"`, `1.50`, `{"a": 1, "b": [1, 2]}`, `null`;
//     the *_text functions: the string's own text, SQL NULL for a JSON null).
// A number written with an exponent is refused at run time (PostgreSQL prints
// 1e2 as 100; this file does not rewrite numbers): the statement fails, it
// never answers differently.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "executors/sqlite/sqlite_functions.hpp"

namespace qg::exec::sqlite {
namespace {

struct Value {
  enum class Kind { Object, Array, String, Number, True, False, Null } kind = Kind::Null;
  std::string text;  // a string's decoded bytes, a number as written
  std::vector<std::pair<std::string, Value>> members;
  std::vector<Value> elements;
};

constexpr int kMaxDepth = 1000;

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  bool document(Value& v) {
    if (!value(v, 0)) return false;
    blanks();
    return i_ == s_.size();
  }
  std::string error;

 private:
  void blanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool fail(const char* why) {
    if (error.empty()) error = why;
    return false;
  }
  bool word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return fail("invalid input syntax for type json");
    i_ += w.size();
    return true;
  }
  static void utf8(std::string& out, unsigned cp) {
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
  bool hex4(unsigned& cp) {
    if (i_ + 4 > s_.size()) return fail("invalid input syntax for type json");
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      cp <<= 4;
      if (c >= '0' && c <= '9')
        cp |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        cp |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        cp |= static_cast<unsigned>(c - 'A' + 10);
      else
        return fail("invalid input syntax for type json");
    }
    return true;
  }
  bool string(std::string& out) {
    ++i_;  // the opening quote
    while (true) {
      if (i_ >= s_.size()) return fail("invalid input syntax for type json");
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("invalid input syntax for type json");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return fail("invalid input syntax for type json");
      const char e = s_[i_++];
      switch (e) {
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
          unsigned cp = 0;
          if (!hex4(cp)) return false;
          if (cp == 0) return fail("unsupported Unicode escape sequence");  // PostgreSQL: \u0000 in jsonb
          if (cp >= 0xD800 && cp < 0xDC00) {
            unsigned low = 0;
            if (s_.substr(i_, 2) != "\\u") return fail("invalid input syntax for type json");
            i_ += 2;
            if (!hex4(low) || low < 0xDC00 || low >= 0xE000) return fail("invalid input syntax for type json");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return fail("invalid input syntax for type json");
          }
          utf8(out, cp);
          break;
        }
        default:
          return fail("invalid input syntax for type json");
      }
    }
  }
  bool number(std::string& out) {
    const std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&] {
      const std::size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (!digits()) return fail("invalid input syntax for type json");
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) return fail("invalid input syntax for type json");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E'))
      return fail("querygate: a JSON number with an exponent (PostgreSQL prints it as a plain numeric)");
    out.assign(s_.substr(start, i_ - start));
    // PostgreSQL's numeric has no negative zero: -0.0 prints 0.0.
    if (out.front() == '-' && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);
    return true;
  }
  bool value(Value& v, int depth) {
    if (depth > kMaxDepth) return fail("querygate: JSON nested too deeply");
    blanks();
    if (i_ >= s_.size()) return fail("invalid input syntax for type json");
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Value::Kind::Object;
      ++i_;
      blanks();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
      while (true) {
        blanks();
        if (i_ >= s_.size() || s_[i_] != '"') return fail("invalid input syntax for type json");
        std::pair<std::string, Value> m;
        if (!string(m.first)) return false;
        blanks();
        if (i_ >= s_.size() || s_[i_] != ':') return fail("invalid input syntax for type json");
        ++i_;
        if (!value(m.second, depth + 1)) return false;
        v.members.push_back(std::move(m));
        blanks();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
        return fail("invalid input syntax for type json");
      }
    }
    if (c == '[') {
      v.kind = Value::Kind::Array;
      ++i_;
      blanks();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
      while (true) {
        Value e;
        if (!value(e, depth + 1)) return false;
        v.elements.push_back(std::move(e));
        blanks();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        return fail("invalid input syntax for type json");
      }
    }
    if (c == '"') {
      v.kind = Value::Kind::String;
      return string(v.text);
    }
    if (c == 't') return v.kind = Value::Kind::True, word("true");
    if (c == 'f') return v.kind = Value::Kind::False, word("false");
    if (c == 'n') return v.kind = Value::Kind::Null, word("null");
    v.kind = Value::Kind::Number;
    return number(v.text);
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

// jsonb's object order: shorter keys first, then bytewise; of repeated keys the last one stays.
void jsonb_order(Value& v) {
  for (auto& m : v.members) jsonb_order(m.second);
  for (auto& e : v.elements) jsonb_order(e);
  if (v.kind != Value::Kind::Object) return;
  std::stable_sort(v.members.begin(), v.members.end(), [&](const auto& a, const auto& b) {
    if (a.first.size() != b.first.size()) return a.first.size() < b.first.size();
    return std::lexicographical_compare(
        a.first.begin(), a.first.end(), b.first.begin(), b.first.end(),
        [](char x, char y) { return static_cast<unsigned char>(x) < static_cast<unsigned char>(y); });
  });
  std::vector<std::pair<std::string, Value>> kept;
  for (std::size_t i = 0; i < v.members.size(); ++i)
    if (i + 1 == v.members.size() || v.members[i + 1].first != v.members[i].first)
      kept.push_back(std::move(v.members[i]));
  v.members = std::move(kept);
}

// PostgreSQL's escape_json.
void quoted(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
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
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// jsonb's output text.
void print(std::string& out, const Value& v) {
  switch (v.kind) {
    case Value::Kind::Object:
      out += '{';
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        if (i > 0) out += ", ";
        quoted(out, v.members[i].first);
        out += ": ";
        print(out, v.members[i].second);
      }
      out += '}';
      return;
    case Value::Kind::Array:
      out += '[';
      for (std::size_t i = 0; i < v.elements.size(); ++i) {
        if (i > 0) out += ", ";
        print(out, v.elements[i]);
      }
      out += ']';
      return;
    case Value::Kind::String:
      return quoted(out, v.text);
    case Value::Kind::Number:
      out += v.text;
      return;
    case Value::Kind::True:
      out += "true";
      return;
    case Value::Kind::False:
      out += "false";
      return;
    case Value::Kind::Null:
      out += "null";
      return;
  }
}

// What json_each's `value` must read for one element: a JSON string of PostgreSQL's text, or null.
void element(std::string& out, const Value& v, bool as_text, bool keys_only) {
  if (keys_only || (as_text && v.kind == Value::Kind::Null)) {
    out += "null";
    return;
  }
  if (as_text && v.kind == Value::Kind::String) return quoted(out, v.text);
  std::string text;
  print(text, v);
  quoted(out, text);
}

void pg_json_rows(sqlite3_context* c, int /*argc*/, sqlite3_value** argv) {
  const char* fn = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  const std::string function = fn ? fn : "";
  const bool keys = function == "jsonb_object_keys";
  const bool object = keys || function == "jsonb_each" || function == "jsonb_each_text";
  const bool array = function == "jsonb_array_elements" || function == "jsonb_array_elements_text";
  if (!object && !array) return sqlite3_result_error(c, "querygate: pg_json_rows() of an unknown function", -1);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(c);
  if (sqlite3_value_type(argv[0]) == SQLITE_BLOB)
    return sqlite3_result_error(c, "querygate: pg_json_rows() reads JSON text, not a blob", -1);
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (!text) return sqlite3_result_error_nomem(c);
  Value doc;
  Parser parser(std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))));
  if (!parser.document(doc)) return sqlite3_result_error(c, parser.error.c_str(), -1);
  const bool as_text = function.ends_with("_text");
  std::string message;
  if (object && doc.kind != Value::Kind::Object) {
    if (keys)
      message =
          std::string("cannot call jsonb_object_keys on ") + (doc.kind == Value::Kind::Array ? "an array" : "a scalar");
    else
      message = "cannot call " + function + " on a non-object";
  } else if (array && doc.kind != Value::Kind::Array) {
    message =
        std::string("cannot extract elements from ") + (doc.kind == Value::Kind::Object ? "an object" : "a scalar");
  }
  if (!message.empty()) return sqlite3_result_error(c, message.c_str(), -1);
  jsonb_order(doc);
  std::string out;
  if (object) {
    out += '{';
    for (std::size_t i = 0; i < doc.members.size(); ++i) {
      if (i > 0) out += ',';
      quoted(out, doc.members[i].first);
      out += ':';
      element(out, doc.members[i].second, as_text, keys);
    }
    out += '}';
  } else {
    out += '[';
    for (std::size_t i = 0; i < doc.elements.size(); ++i) {
      if (i > 0) out += ',';
      element(out, doc.elements[i], as_text, false);
    }
    out += ']';
  }
  sqlite3_result_text(c, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

}  // namespace

bool register_json_rows(sqlite3* db, int flags) {
  if (sqlite3_create_function(db, "pg_json_rows", 2, flags, nullptr, pg_json_rows, nullptr, nullptr) != SQLITE_OK)
    return false;
  // json_each is an eponymous virtual table: built on first use, which declares its schema (a write the
  // authorizer rightly denies). Built once now, before the authorizer is installed, like pg_series; the
  // authorizer then lets a statement read json_each and nothing else of its kind (sqlite_backstop.cpp).
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db, "SELECT key, value FROM json_each('[]')", -1, &stmt, nullptr);
  sqlite3_finalize(stmt);
  return rc == SQLITE_OK;
}

}  // namespace qg::exec::sqlite
