#include "common/pg_regex.hpp"

#include <locale.h>
#include <wctype.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

namespace qg::pgregex {
namespace {

constexpr char32_t kMaxCode = 0x10FFFF;
constexpr int kMaxBound = 255;  // PostgreSQL's DUPMAX

locale_t utf8_locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

bool surrogate(char32_t c) {
  return c >= 0xD800 && c <= 0xDFFF;
}

Ranges normalise(Ranges r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  for (const auto& [a, b] : r) {
    if (!out.empty() && a <= out.back().second + 1)
      out.back().second = std::max(out.back().second, b);
    else
      out.emplace_back(a, b);
  }
  return out;
}

Ranges complement(const Ranges& r) {
  Ranges out;
  char32_t next = 0;
  for (const auto& [a, b] : r) {
    if (a > next) out.emplace_back(next, a - 1);
    next = b + 1;
  }
  if (next <= kMaxCode) out.emplace_back(next, kMaxCode);
  return out;
}

bool disjoint(const Ranges& x, const Ranges& y) {
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i].second < y[j].first)
      ++i;
    else if (y[j].second < x[i].first)
      ++j;
    else
      return false;
  }
  return true;
}

enum class Class { Alpha, Alnum, Digit, Space, Upper, Lower, Punct, Word };

bool in_class(Class k, char32_t c) {
  const auto w = static_cast<wint_t>(c);
  const locale_t l = utf8_locale();
  switch (k) {
    case Class::Alpha:
      return iswalpha_l(w, l);
    case Class::Alnum:
      return iswalnum_l(w, l);
    case Class::Digit:
      return iswdigit_l(w, l);
    case Class::Space:
      return iswspace_l(w, l);
    case Class::Upper:
      return iswupper_l(w, l);
    case Class::Lower:
      return iswlower_l(w, l);
    case Class::Punct:
      return iswpunct_l(w, l);
    case Class::Word:
      return c == U'_' || iswalnum_l(w, l);
  }
  return false;
}

// Every code point of a class, once per process (about 1.1 million lookups).
const Ranges& class_ranges(Class k) {
  static const auto build = [](Class kind) {
    Ranges r;
    for (char32_t c = 0; c <= kMaxCode; ++c) {
      if (surrogate(c) || !in_class(kind, c)) continue;
      if (!r.empty() && r.back().second + 1 == c)
        r.back().second = c;
      else
        r.emplace_back(c, c);
    }
    return r;
  };
  static const Ranges kAll[] = {build(Class::Alpha), build(Class::Alnum), build(Class::Digit), build(Class::Space),
                                build(Class::Upper), build(Class::Lower), build(Class::Punct), build(Class::Word)};
  return kAll[static_cast<int>(k)];
}

std::optional<Class> class_named(std::string_view name, bool icase) {
  if (name == "alpha") return Class::Alpha;
  if (name == "alnum") return Class::Alnum;
  if (name == "digit") return Class::Digit;
  if (name == "space") return Class::Space;
  if (name == "punct") return Class::Punct;
  // Case-insensitive: PostgreSQL reads [:upper:] and [:lower:] as [:alpha:].
  if (name == "upper") return icase ? Class::Alpha : Class::Upper;
  if (name == "lower") return icase ? Class::Alpha : Class::Lower;
  return std::nullopt;
}

// One element of the flattened pattern, for the extent check.
struct Item {
  enum Kind { Chars, Start, End } kind = Chars;
  Ranges set;
  int min = 1, max = 1;  // max -1: unbounded
};

class Reader {
 public:
  Reader(std::string_view p, Options o) : p_(p), o_(o) {}

  Translation run() {
    Translation t;
    if (p_.substr(0, 3) == "***")
      return refuse(t, "a pattern starting with *** (a director)", "FIX: remove the *** prefix.");
    std::string out;
    if (!alternation(out, 0)) return fail(t);
    if (i_ < p_.size()) {
      error_ = "an unmatched ) in the pattern";
      fix_ = "FIX: escape it as \\) or add the (.";
      return fail(t);
    }
    if (o_.extent && !deterministic()) return fail(t);
    t.ok = true;
    t.pcre = std::move(out);
    t.groups = groups_;
    return t;
  }

 private:
  Translation& refuse(Translation& t, std::string what, std::string fix) {
    error_ = std::move(what);
    fix_ = std::move(fix);
    return fail(t);
  }
  Translation& fail(Translation& t) {
    t.ok = false;
    t.error = "the regular expression uses " + error_ + ", which querygate does not translate exactly on SQLite";
    t.fix = fix_;
    return t;
  }
  bool bad(std::string what, std::string fix) {
    error_ = std::move(what);
    fix_ = std::move(fix);
    return false;
  }

  bool alternation(std::string& out, int depth) {
    if (depth > 32) return bad("groups nested more than 32 deep", "FIX: write a simpler pattern.");
    if (!branch(out, depth)) return false;
    while (i_ < p_.size() && p_[i_] == '|') {
      ++i_;
      if (o_.extent)
        return bad("alternation (|) where the matched text is used",
                   "FIX: PostgreSQL matches alternatives leftmost-longest: write one regexp_replace per alternative, "
                   "or use the alternation only in a test (x ~ 'a|b').");
      out += '|';
      if (!branch(out, depth)) return false;
    }
    return true;
  }

  bool branch(std::string& out, int depth) {
    while (i_ < p_.size() && p_[i_] != '|' && p_[i_] != ')') {
      std::string atom_text;
      const std::size_t items_before = items_.size();
      bool quantifiable = true, group = false;
      if (!atom(atom_text, depth, quantifiable, group)) return false;
      if (!quantifier(atom_text, quantifiable, group, items_before)) return false;
      out += atom_text;
    }
    return true;
  }

  bool quantifier(std::string& atom_text, bool quantifiable, bool group, std::size_t items_before) {
    if (i_ >= p_.size()) return true;
    const char c = p_[i_];
    int min = 1, max = 1;
    std::string q;
    if (c == '*' || c == '+' || c == '?') {
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : -1;
      q = std::string(1, c);
      ++i_;
    } else if (c == '{') {
      if (!bound(min, max, q)) return false;
    } else {
      return true;
    }
    if (!quantifiable)
      return bad("a quantifier with nothing to repeat (after ^, $ or at the start)",
                 "FIX: escape the character, e.g. \\* or \\+, to match it literally.");
    bool lazy = false;
    if (i_ < p_.size() && p_[i_] == '?') {
      lazy = true;
      ++i_;
    }
    if (i_ < p_.size() && (p_[i_] == '*' || p_[i_] == '+' || p_[i_] == '?' || p_[i_] == '{'))
      return bad("a quantifier after a quantifier (possessive or nested, e.g. a*+ or a**)",
                 "FIX: write one quantifier per atom, e.g. a* or (a*)+ written as a*.");
    if (o_.extent && lazy)
      return bad("a lazy quantifier (*?, +?, ?\?) where the matched text is used",
                 "FIX: PostgreSQL's laziness applies to the whole pattern: write a greedy quantifier with a bracket "
                 "expression that stops at the delimiter, e.g. [^,]* instead of .*?.");
    if (o_.extent && group)
      return bad(
          "a quantified group where the matched text is used",
          "FIX: repeat single characters or bracket expressions only, e.g. [a-z0-9]+ instead of ([a-z]|[0-9])+.");
    atom_text = "(?:" + atom_text + ")" + q + (lazy ? "?" : "");
    if (!group && items_.size() == items_before + 1) {
      items_.back().min = min;
      items_.back().max = max;
    }
    return true;
  }

  bool bound(int& min, int& max, std::string& q) {
    std::size_t j = i_ + 1;
    auto number = [&](int& v) {
      const std::size_t start = j;
      v = 0;
      while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9' && j - start < 4) v = v * 10 + (p_[j++] - '0');
      return j > start;
    };
    if (!number(min))
      return bad("a { that is not a bound {m}, {m,} or {m,n}", "FIX: escape it as \\{ to match a brace.");
    max = min;
    if (j < p_.size() && p_[j] == ',') {
      ++j;
      if (!number(max)) max = -1;
    }
    if (j >= p_.size() || p_[j] != '}')
      return bad("a { that is not a bound {m}, {m,} or {m,n}", "FIX: escape it as \\{ to match a brace.");
    if (min > kMaxBound || max > kMaxBound || (max >= 0 && max < min))
      return bad("a bound over 255 or with m > n", "FIX: write a bound {m,n} with m <= n <= 255.");
    q = "{" + std::to_string(min) + (max == min ? "" : "," + (max < 0 ? std::string() : std::to_string(max))) + "}";
    i_ = j + 1;
    return true;
  }

  bool atom(std::string& out, int depth, bool& quantifiable, bool& group) {
    const char c = p_[i_];
    if (c == '(') {
      ++i_;
      bool capturing = true;
      if (i_ < p_.size() && p_[i_] == '?') {
        if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
          capturing = false;
          i_ += 2;
        } else {
          return bad("a (? group (lookahead, lookbehind, embedded options or named groups)",
                     "FIX: use plain groups ( ) or (?: ); test other conditions with a second ~ or NOT ~.");
        }
      }
      if (capturing) ++groups_;
      std::string inner;
      if (!alternation(inner, depth + 1)) return false;
      if (i_ >= p_.size() || p_[i_] != ')')
        return bad("an unclosed (", "FIX: close the group with ), or escape it as \\( to match a parenthesis.");
      ++i_;
      out = (capturing ? "(" : "(?:") + inner + ")";
      group = true;
      return true;
    }
    if (c == '^' || c == '$') {
      ++i_;
      quantifiable = false;
      out = c == '^' ? "\\A" : "\\z";
      Item item;
      item.kind = c == '^' ? Item::Start : Item::End;
      items_.push_back(item);
      return true;
    }
    if (c == '*' || c == '+' || c == '?' || c == '{')
      return bad("a quantifier with nothing to repeat (after ^, $ or at the start)",
                 "FIX: escape the character, e.g. \\* or \\+, to match it literally.");
    if (c == '}') return bad("a lone }", "FIX: escape it as \\} to match a brace.");
    Ranges set;
    if (c == '.') {
      ++i_;
      set = {{0, kMaxCode}};
    } else if (c == '[') {
      ++i_;
      if (!bracket(set)) return false;
    } else if (c == '\\') {
      ++i_;
      if (!escape(set, /*in_bracket=*/false)) return false;
    } else {
      const char32_t ch = next_code_point(p_, i_);
      set = literal(ch);
    }
    out = emit(set);
    Item item;
    item.set = std::move(set);
    items_.push_back(std::move(item));
    return true;
  }

  Ranges literal(char32_t ch) const {
    if (!o_.icase) return {{ch, ch}};
    // PostgreSQL's allcases(): the lower and the upper form (not the character itself when it is neither).
    const char32_t lo = to_lower(ch), up = to_upper(ch);
    return normalise({{lo, lo}, {up, up}});
  }

  bool escape(Ranges& set, bool in_bracket) {
    if (i_ >= p_.size()) return bad("a \\ at the end of the pattern", "FIX: write \\\\ to match a backslash.");
    const char e = p_[i_++];
    auto cls = [&](Class k, bool negate) {
      set = negate ? complement(class_ranges(k)) : class_ranges(k);
      return true;
    };
    switch (e) {
      case 'd':
        return cls(Class::Digit, false);
      case 's':
        return cls(Class::Space, false);
      case 'w':
        return cls(Class::Word, false);
      case 'D':
      case 'S':
      case 'W':
        if (in_bracket)
          return bad("\\D, \\S or \\W inside a bracket expression (an error in PostgreSQL)",
                     "FIX: write the class outside the brackets, or use [^...].");
        return cls(e == 'D' ? Class::Digit : e == 'S' ? Class::Space : Class::Word, true);
      case 't':
        set = {{9, 9}};
        return true;
      case 'n':
        set = {{10, 10}};
        return true;
      case 'v':
        set = {{11, 11}};
        return true;
      case 'f':
        set = {{12, 12}};
        return true;
      case 'r':
        set = {{13, 13}};
        return true;
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(e);
    if (u < 0x80 && !std::isalnum(u)) {
      set = literal(static_cast<char32_t>(u));
      return true;
    }
    if (e >= '0' && e <= '9')
      return bad("a back-reference or octal escape (\\" + std::string(1, e) + ")",
                 "FIX: back-references are not translated; match the repeated text with a second condition.");
    return bad(std::string("the escape \\") + e + " (its meaning differs between PostgreSQL and PCRE)",
               "FIX: use \\d \\s \\w, bracket expressions such as [[:alpha:]], ^ and $, or escape punctuation "
               "only (\\. \\( \\\\).");
  }

  bool bracket(Ranges& set) {
    bool negate = false;
    if (i_ < p_.size() && p_[i_] == '^') {
      negate = true;
      ++i_;
    }
    Ranges members;
    bool first = true;
    while (true) {
      if (i_ >= p_.size()) return bad("an unclosed [", "FIX: close the bracket expression with ].");
      const char c = p_[i_];
      if (c == ']' && !first) {
        ++i_;
        break;
      }
      first = false;
      if (c == '[' && i_ + 1 < p_.size() && (p_[i_ + 1] == '.' || p_[i_ + 1] == '='))
        return bad("a collating element or equivalence class ([. .] or [= =])",
                   "FIX: list the characters themselves in the brackets.");
      if (c == '[' && i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
        const std::size_t end = p_.find(":]", i_ + 2);
        if (end == std::string_view::npos) return bad("an unclosed [:class:]", "FIX: write e.g. [[:alpha:]].");
        const auto k = class_named(p_.substr(i_ + 2, end - i_ - 2), o_.icase);
        if (!k)
          return bad("the class [:" + std::string(p_.substr(i_ + 2, end - i_ - 2)) + ":]",
                     "FIX: use [:alpha:], [:alnum:], [:digit:], [:space:], [:upper:], [:lower:] or [:punct:].");
        const auto& r = class_ranges(*k);
        members.insert(members.end(), r.begin(), r.end());
        i_ = end + 2;
        continue;
      }
      Ranges one;
      std::optional<char32_t> low;
      if (c == '\\') {
        ++i_;
        if (!escape(one, /*in_bracket=*/true)) return false;
        if (one.size() == 1 && one[0].first == one[0].second) low = one[0].first;
      } else {
        const char32_t ch = next_code_point(p_, i_);
        low = ch;
      }
      // A range a-z (a '-' before ']' is a literal).
      if (low && i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        char32_t high;
        if (p_[i_] == '\\') {
          ++i_;
          Ranges h;
          if (!escape(h, true)) return false;
          if (h.size() != 1 || h[0].first != h[0].second)
            return bad("a range ending in a class", "FIX: write the range between two characters, e.g. [a-z].");
          high = h[0].first;
        } else if (p_[i_] == '[') {
          return bad("a range ending in a bracket item", "FIX: write the range between two characters, e.g. [a-z].");
        } else {
          high = next_code_point(p_, i_);
        }
        if (high < *low) return bad("a range whose end is before its start", "FIX: write the range as [a-z].");
        if (o_.icase) {  // a range keeps each character and its cases (PostgreSQL's range())
          if (high - *low > 4096)
            return bad("a case-insensitive range over more than 4096 characters", "FIX: write a narrower range.");
          for (char32_t x = *low; x <= high; ++x) {
            members.emplace_back(x, x);
            for (const auto& r : literal(x)) members.push_back(r);
          }
        } else {
          members.emplace_back(*low, high);
        }
        continue;
      }
      if (low && !o_.icase)
        members.emplace_back(*low, *low);
      else if (low)
        for (const auto& r : literal(*low)) members.push_back(r);  // one character: allcases(), as outside
      else
        members.insert(members.end(), one.begin(), one.end());
    }
    set = normalise(std::move(members));
    if (negate) set = complement(set);
    return true;
  }

  static void hex(std::string& out, char32_t c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\x{%x}", static_cast<unsigned>(c));
    out += buf;
  }

  // A set as a PCRE2 class of code points (surrogates left out: they are not characters in UTF-8).
  static std::string emit(const Ranges& set) {
    Ranges parts;
    for (const auto& [a, b] : set) {
      if (b < 0xD800 || a > 0xDFFF) {
        parts.emplace_back(a, b);
        continue;
      }
      if (a < 0xD800) parts.emplace_back(a, 0xD7FF);
      if (b > 0xDFFF) parts.emplace_back(0xE000, b);
    }
    if (parts.empty()) return "(?!)";
    if (parts.size() == 1 && parts[0].first == parts[0].second) {
      std::string out;
      hex(out, parts[0].first);
      return out;
    }
    std::string out = "[";
    for (const auto& [a, b] : parts) {
      hex(out, a);
      if (b != a) {
        out += '-';
        hex(out, b);
      }
    }
    return out + "]";
  }

  // Where the extent is used: every repetition with a choice (min < max) must be followed, up to the next
  // character it must match, only by characters outside its own set; then backtracking never revisits a
  // choice and PCRE2's first match is PostgreSQL's longest.
  bool deterministic() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item& a = items_[i];
      if (a.kind != Item::Chars || a.min == a.max) continue;
      for (std::size_t j = i + 1; j < items_.size(); ++j) {
        const Item& b = items_[j];
        if (b.kind != Item::Chars) break;  // ^ or $: matches only where nothing of `a`'s set follows
        if (!disjoint(a.set, b.set))
          return bad(
              "a repetition followed by characters it could also match (e.g. .* followed by more pattern) "
              "where the matched text is used",
              "FIX: PostgreSQL takes the longest match: make each repetition stop at a character it cannot "
              "match, e.g. [^,]*, instead of .* followed by more pattern.");
        if (b.min >= 1) break;
      }
    }
    return true;
  }

  std::string_view p_;
  Options o_;
  std::size_t i_ = 0;
  int groups_ = 0;
  std::vector<Item> items_;
  std::string error_, fix_;
};

}  // namespace

char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const int extra = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : -1;
  if (extra <= 0 || i + static_cast<std::size_t>(extra) >= s.size()) {
    ++i;
    return b;
  }
  char32_t c = b & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    const auto n = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((n & 0xC0) != 0x80) {
      ++i;
      return b;
    }
    c = (c << 6) | (n & 0x3F);
  }
  i += static_cast<std::size_t>(extra) + 1;
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

char32_t to_lower(char32_t c) {
  return static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), utf8_locale()));
}
char32_t to_upper(char32_t c) {
  return static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), utf8_locale()));
}
bool is_alnum(char32_t c) {
  return iswalnum_l(static_cast<wint_t>(c), utf8_locale());
}

Translation translate(std::string_view pattern, Options options) {
  return Reader(pattern, options).run();
}

Flags parse_flags(std::string_view flags, bool global_allowed) {
  Flags f;
  for (const char c : flags) {
    if (c == 'i') {
      f.icase = true;
    } else if (c == 'c') {
      f.icase = false;
    } else if (c == 'g' && global_allowed) {
      f.global = true;
    } else {
      f.error = std::string("the regular-expression flag '") + c + "'";
      return f;
    }
  }
  f.ok = true;
  return f;
}

}  // namespace qg::pgregex
