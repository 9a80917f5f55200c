// The code compressor's edits, computed over an error-free tree-sitter parse:
// function bodies replaced by a marker, and (declaration-only sources) long doc comments
// cut to their first sentence. Pure functions of (language, tree, text); deterministic.
#ifndef CAVEMAN_COMPRESS_CODE_ELIDE_H_
#define CAVEMAN_COMPRESS_CODE_ELIDE_H_

#include <tree_sitter/api.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compress/code/language.h"

namespace caveman::compress::code {

// A character of an identifier as the supported languages spell one (`$` for JavaScript).
inline bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

// Replace source bytes [start, end) with `replacement`. A body edit carries the name its
// function is called by (`findToken`, `Write` of `DBImpl::Write`; "" when it has none) and
// whether its marker states the lines it hides.
struct Edit {
  std::uint32_t start;
  std::uint32_t end;
  std::string replacement;
  std::string name;
  bool states_lines = false;
};

// Suffix that marks a trimmed doc comment: `/** First sentence. (caveman: doc trimmed) */`.
inline constexpr std::string_view kDocTrimmedMarker = "(caveman: doc trimmed)";

struct BodyScan {
  std::vector<Edit> edits;  // in start order, non-overlapping
  // Function-like nodes with a block body, elided or not (0 = declaration-only source).
  std::size_t bodies = 0;
};

// Elides the outermost function/method bodies under `root` (class, namespace and other
// non-function bodies are descended, so methods are elided and members stay). A body's own
// lines become one marker line that states them (language.h); a body is left alone when its
// replacement would not be shorter or it already is a marker, so a second pass is a no-op.
// Python keeps a leading docstring: `def f():\n    """Doc."""\n    ...  # … lines 3–9 elided
// (caveman)`. Iterative walk: deep nesting cannot overflow the stack.
BodyScan elide_bodies(Language lang, TSNode root, std::string_view text);

// `/** … */` comments (JSDoc, Doxygen) of more than one sentence become
// `/** <first sentence> (caveman: doc trimmed) */`; an `@deprecated` tag is kept.
// Only meant for declaration-only sources (a .d.ts, a header), where comments are the
// only elidable bulk; every declaration stays.
std::vector<Edit> trim_doc_comments(Language lang, TSNode root, std::string_view text);

// Applies edits (sorted by start, non-overlapping) to `source`.
std::string apply_edits(std::string_view source, const std::vector<Edit>& edits);

}  // namespace caveman::compress::code

#endif  // CAVEMAN_COMPRESS_CODE_ELIDE_H_
