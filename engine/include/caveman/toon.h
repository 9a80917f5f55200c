// caveman/toon.h — TOON (Token-Oriented Object Notation) v3.3 encoder and decoder.
//
// toon_encode() turns one JSON text into TOON; toon_decode() turns TOON back into compact JSON.
// Both implement the TOON specification v3.3 (@toon-format/spec 3.3.2) completely and pass its
// 400 conformance fixtures; decode(encode(x)) == x for every JSON value the encoder accepts
// (numbers compare by value, and see the tabular-row note below).
// Pure functions of their arguments: no globals, no I/O, safe to call from any thread at once.
// Failures are Status values (nothing throws): codes::kInvalidJson names line and column of the
// JSON input, codes::kInvalidToon names the TOON line, codes::kInvalidArguments rejects options.
//
// Documented policies (the spec leaves these to implementations):
// * Numbers are exact decimals, never rounded through a double: the encoder rewrites the JSON
//   literal in canonical form (1.50 → 1.5, 1e6 → 1000000, -0 → 0; exponent form `1.5e+21`,
//   `1e-7` outside 1e-6 ≤ |n| < 1e21, as JavaScript prints them). Decoding a numeric token
//   yields the same canonical JSON literal, so digits beyond double precision survive both
//   ways. Decimal exponents beyond ±10^15 are out of domain: encode fails, decode keeps the
//   token as a string.
// * The JSON input must be exactly one value in valid UTF-8 with unique keys per object; lone
//   UTF-16 surrogate escapes (TOON cannot carry them) and nesting deeper than 512 fail.
// * Decode tolerates CRLF line ends and accepts unquoted keys as any text before the colon.
//   It never drops a line: a line that no structure can own is an error in strict and
//   non-strict mode alike. Non-strict mode relaxes exactly the §14 checks: counts; row widths
//   (short rows omit their trailing fields, surplus cells are ignored); indentation multiples
//   (a tab in indentation counts as one level); blank lines in arrays; duplicate keys (last
//   write wins, at the first key's position); malformed headers (read as key-value lines);
//   path-expansion conflicts (last write wins).
// * Member order is kept everywhere except in tabular rows: §9.3 lets rows list the same keys
//   in any order and writes every row in the first row's order, so that is the order decode
//   returns (JSON objects are unordered; this is the one reordering).
// * Key folding (safe) follows the reference implementation: a chain of single-key objects may
//   end in a multi-key object, which is then emitted nested under the folded key; the first
//   field of a list-item object is never folded.
#ifndef CAVEMAN_TOON_H_
#define CAVEMAN_TOON_H_

#include <limits>
#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::toon {

enum class KeyFolding { kOff, kSafe };
enum class ExpandPaths { kOff, kSafe };

// flatten_depth value meaning "fold whole chains" (the spec's Infinity).
inline constexpr int kUnlimitedFlattenDepth = std::numeric_limits<int>::max();

struct EncodeOptions {
  char delimiter = ',';  // document delimiter: ',', '\t' or '|'
  int indent = 2;        // spaces per level, 1..64
  KeyFolding key_folding = KeyFolding::kOff;
  int flatten_depth = kUnlimitedFlattenDepth;  // max segments per folded key, ≥ 0
};

struct DecodeOptions {
  int indent = 2;      // spaces per level, 1..64
  bool strict = true;  // enforce every §14 check
  ExpandPaths expand_paths = ExpandPaths::kOff;
};

// JSON text → TOON text (LF line ends, no trailing newline; an empty object yields "").
// Errors: kInvalidArgument with codes::kInvalidJson (malformed JSON, trailing data, duplicate
// key, invalid UTF-8, lone surrogate, too deep, number out of domain) or
// codes::kInvalidArguments (bad options).
Result<std::string> toon_encode(std::string_view json, const EncodeOptions& options = {});

// TOON text → compact JSON text (no whitespace, members in document order, canonical numbers).
// Errors: kInvalidArgument with codes::kInvalidToon ("line N: …") or codes::kInvalidArguments.
Result<std::string> toon_decode(std::string_view toon, const DecodeOptions& options = {});

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_H_
