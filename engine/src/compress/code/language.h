// The languages the code compressor parses, and what it needs to know about each:
// the tree-sitter grammar, which nodes are functions with elidable bodies, and how an
// elided body is written. Pure data and pure functions; safe from any thread. The grammars
// are vendored in third_party/tree-sitter-*/ (ABI 14, loaded by Debian's runtime 0.20.7).
#ifndef CAVEMAN_COMPRESS_CODE_LANGUAGE_H_
#define CAVEMAN_COMPRESS_CODE_LANGUAGE_H_

#include <string_view>

struct TSLanguage;

namespace caveman::compress::code {

enum class Language { kGo, kPython, kJavaScript, kTypeScript, kTsx, kC, kCpp };

inline constexpr Language kAllLanguages[] = {Language::kGo,         Language::kPython,
                                             Language::kJavaScript, Language::kTypeScript,
                                             Language::kTsx,        Language::kC,
                                             Language::kCpp};

// An elided body's lines become one line that states them (docs/formats.md#code-bodies):
// `// … lines 12–40 elided (caveman)` inside the braces, `...  # … lines 12–40 elided
// (caveman)` in Python. A body that does not own its lines (`{` not ending its line, `}` not
// starting its own, a Python body on the `def` line) gets the inline markers, which state no
// lines.
inline constexpr std::string_view kBraceLinesMarker = "// … lines ";
inline constexpr std::string_view kPythonLinesMarker = "...  # … lines ";
inline constexpr std::string_view kBraceBodyMarker = "{ /* caveman: body elided */ }";
inline constexpr std::string_view kPythonBodyMarker = "...";

// "go", "python", "javascript", "typescript", "tsx", "c", "cpp".
std::string_view language_name(Language lang);
// The grammar; never null for a supported language.
const TSLanguage* ts_language(Language lang);

// True for node types that define a function or method (Go func_literal, JS arrow
// functions and methods, C++ lambdas, …) and may carry a `body` field.
bool is_function_like(Language lang, std::string_view node_type);
// True when a function's `body` child of this type is a block that can be elided
// (`block`, `statement_block`, `compound_statement`, a C++ function-try-block). Arrow
// functions with expression bodies do not qualify.
bool is_elidable_body(Language lang, std::string_view node_type);
// Python bodies are indentation blocks; every other language uses braces.
inline bool is_python(Language lang) { return lang == Language::kPython; }
// Languages whose doc comments are `/** … */` blocks (JSDoc, Doxygen).
bool has_block_doc_comments(Language lang);

}  // namespace caveman::compress::code

#endif  // CAVEMAN_COMPRESS_CODE_LANGUAGE_H_
