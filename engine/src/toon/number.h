// Exact decimal number handling for TOON (spec §2 and §4): canonical forms are computed on the
// digit string, never through a double, so any JSON literal survives encode → decode exactly.
#ifndef CAVEMAN_TOON_NUMBER_H_
#define CAVEMAN_TOON_NUMBER_H_

#include <string>
#include <string_view>

namespace caveman::toon {

enum class NumberForm {
  kNotNumber,    // not the JSON number grammar (TOON: leading zeros such as 05 are strings)
  kOutOfDomain,  // valid grammar but the decimal exponent exceeds ±10^15
  kNumber,
};

// Canonical form of `literal` (JSON number grammar, 'e' or 'E'): no exponent when
// 1e-6 ≤ |n| < 1e21 or n = 0, otherwise d[.ddd]e±X; no leading or trailing zeros; -0 → 0.
// On kNumber `out` holds the canonical text (it may equal `literal`).
NumberForm canonical_number(std::string_view literal, std::string& out);

// True when `literal` already is its own canonical form (the common case: plain integers and
// decimals without trailing zeros); cheaper than canonical_number.
bool is_canonical_number(std::string_view literal);

// §7.2 "numeric-like": /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i (also matches 05, 1e-6).
bool is_numeric_like(std::string_view s);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_NUMBER_H_
