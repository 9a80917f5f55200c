// Parsing source text with tree-sitter: RAII handles and the "parses cleanly" check the
// code compressor applies to both its input and its output. Each call builds its own
// TSParser, so these functions are safe to call concurrently.
#ifndef CAVEMAN_COMPRESS_CODE_PARSE_H_
#define CAVEMAN_COMPRESS_CODE_PARSE_H_

#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "compress/code/language.h"

namespace caveman::compress::code {

struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

// Inputs beyond this size are not parsed. Tree-sitter 0.20.7 parses JavaScript at about
// 1.5–4 MB/s here, so this bounds one parse to a few seconds (and offsets fit 32 bits).
inline constexpr std::size_t kMaxParseBytes = 8u << 20;
// A parse still running after 2 s plus 4 µs a byte (250 KB/s, several times slower than any
// real source parses) is abandoned: no tree, the compressor declines, the input passes through.
// A fuzzed 28 KB C++ file kept tree-sitter 0.20's error recovery busy for minutes — a hang on
// the proxy's request path.
inline constexpr std::uint64_t kParseBaseMicros = 2'000'000;
inline constexpr std::uint64_t kParseMicrosPerByte = 4;

// The parse budget of `bytes` of input: kParseBaseMicros + kParseMicrosPerByte a byte.
std::uint64_t parse_budget_micros(std::size_t bytes);

// Parses `text` as `lang`. Null when the runtime rejects the grammar (ABI mismatch), the
// text is larger than kMaxParseBytes, or the parse outlives `budget_micros` (default:
// parse_budget_micros). The tree may contain ERROR/MISSING nodes.
TreePtr parse_raw(Language lang, std::string_view text, std::uint64_t budget_micros = 0);

// A successful, error-free parse. `text` is what was parsed: the caller's bytes, or for
// C/C++ a copy in which annotation macros were blanked (same length, same offsets).
struct CleanParse {
  TreePtr tree;
  std::string text;
};

// Parses `source` as `lang` and returns the tree only if it has no ERROR or MISSING node.
// For C and C++ a failed parse is retried once with annotation macros masked
// (see mask_annotation_macros), because tree-sitter does not expand macros.
std::unique_ptr<CleanParse> parse_clean(Language lang, std::string_view source);

// C/C++ only. Thread-safety and attribute macros written after a declarator —
// `Version* v GUARDED_BY(mu);`, `void f() EXCLUSIVE_LOCKS_REQUIRED(mu_) {` — are not
// C++ grammar, so tree-sitter reports errors there. Returns a copy of `source` with each
// such macro (an ALL_CAPS name containing `_`, optionally with a balanced argument
// list, directly after an identifier or `)` and directly before `;` `{` `,` `=` `:` or
// another such macro) replaced by spaces; comments, strings and preprocessor lines are
// left alone. Byte offsets and newlines are preserved. Returns `source` unchanged when
// nothing matched.
std::string mask_annotation_macros(std::string_view source);

}  // namespace caveman::compress::code

#endif  // CAVEMAN_COMPRESS_CODE_PARSE_H_
