#include "compress/common/go_float.h"

#include <locale.h>

#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "caveman/base/text.h"

namespace caveman::compress {
namespace {

bool is_hex_letter(char c) { return base::ascii_lower_char(c) >= 'a' && base::ascii_lower_char(c) <= 'f'; }

// Length of the common prefix of s and `word` (lowercase), ignoring ASCII case.
std::size_t common_prefix_ci(std::string_view s, std::string_view word) {
  std::size_t n = 0;
  while (n < s.size() && n < word.size() && base::ascii_lower_char(s[n]) == word[n]) ++n;
  return n;
}

// Go's strconv.special: inf/infinity with an optional sign, nan without one.
std::optional<double> special(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double sign = 1;
  std::string_view rest = s;
  if (s[0] == '+' || s[0] == '-') {
    sign = s[0] == '-' ? -1 : 1;
    rest = s.substr(1);
  } else if (base::ascii_lower_char(s[0]) == 'n') {
    if (s.size() == 3 && common_prefix_ci(s, "nan") == 3) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    return std::nullopt;
  }
  if (rest.empty() || base::ascii_lower_char(rest[0]) != 'i') return std::nullopt;
  std::size_t n = common_prefix_ci(rest, "infinity");
  if ((n == 3 && rest.size() == 3) || (n == 8 && rest.size() == 8)) {
    return sign * std::numeric_limits<double>::infinity();
  }
  return std::nullopt;
}

// Go's underscoreOK: '_' only between digits, or between a base prefix and a digit.
bool underscore_ok(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (base::ascii_lower_char(s[1]) == 'b' || base::ascii_lower_char(s[1]) == 'o' || base::ascii_lower_char(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = base::ascii_lower_char(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (base::is_ascii_digit(c) || (hex && is_hex_letter(c))) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// Go's readFloat grammar: true when all of `s` is one well-formed literal.
bool well_formed(std::string_view s, bool* hexadecimal, bool* underscores) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = false;
  if (i + 2 < s.size() && s[i] == '0' && base::ascii_lower_char(s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  bool saw_dot = false, saw_digits = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      *underscores = true;
    } else if (c == '.') {
      if (saw_dot) break;
      saw_dot = true;
    } else if (base::is_ascii_digit(c) || (hex && is_hex_letter(c))) {
      saw_digits = true;
    } else {
      break;
    }
  }
  if (!saw_digits) return false;
  char exp_char = hex ? 'p' : 'e';
  if (i < s.size() && base::ascii_lower_char(s[i]) == exp_char) {
    ++i;
    if (i >= s.size()) return false;
    if (s[i] == '+' || s[i] == '-') ++i;
    if (i >= s.size() || !base::is_ascii_digit(s[i])) return false;
    for (; i < s.size() && (base::is_ascii_digit(s[i]) || s[i] == '_'); ++i) {
      if (s[i] == '_') *underscores = true;
    }
  } else if (hex) {
    return false;  // a hex mantissa needs a p exponent
  }
  *hexadecimal = hex;
  return i == s.size();
}

locale_t c_locale() {
  static locale_t loc = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
  return loc;
}

}  // namespace

std::optional<double> parse_go_float(std::string_view s) {
  if (auto v = special(s)) return v;
  bool hex = false, underscores = false;
  if (!well_formed(s, &hex, &underscores)) return std::nullopt;
  if (underscores && !underscore_ok(s)) return std::nullopt;
  std::string clean;
  clean.reserve(s.size());
  for (char c : s) {
    if (c != '_') clean.push_back(c);
  }
  // strtod_l parses the same decimal and hex grammar (now validated) with correct rounding.
  errno = 0;
  char* end = nullptr;
  double v =
      c_locale() ? strtod_l(clean.c_str(), &end, c_locale()) : std::strtod(clean.c_str(), &end);
  if (end != clean.c_str() + clean.size()) return std::nullopt;
  if (errno == ERANGE && std::isinf(v)) return std::nullopt;  // Go: ErrRange on overflow
  return v;
}

}  // namespace caveman::compress
