// Article extraction from HTML (docs/spec/compressors.md#html) on an HTML5-spec tree (gumbo): drop
// scripts, styles, navigation and controls, score paragraph containers by text density and
// class/id hints, and render the best container as light Markdown-ish text (headings as
// `#` lines, list items as `- ` lines, <pre> verbatim). Link text is kept, URLs are not.
// Pure function; gumbo is used only inside the call, so it is thread-safe.
#ifndef CAVEMAN_COMPRESS_HTML_HTML_EXTRACT_H_
#define CAVEMAN_COMPRESS_HTML_HTML_EXTRACT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::html {

// Nesting deeper than this (estimated before parsing) is refused: gumbo's tree builder is
// quadratic in the depth of the open-element stack.
inline constexpr std::size_t kMaxNesting = 4096;

// Estimated element nesting depth of `html` (void and auto-closing elements ignored,
// script/style bodies skipped). Cheap, linear.
std::size_t estimate_nesting(std::string_view html);

// The document title followed by the rendered winner container, or nullopt when there is
// no winner (no paragraph-like text, a link farm, or too deep to parse safely).
std::optional<std::string> extract_article(std::string_view html);

}  // namespace caveman::compress::html

#endif  // CAVEMAN_COMPRESS_HTML_HTML_EXTRACT_H_
