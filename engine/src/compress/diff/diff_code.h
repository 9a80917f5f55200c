// A new file's body in a diff, read as source code (diff compressor): for brace languages
// known from the path (Go, JavaScript, TypeScript, TSX, C, C++), the lines inside function
// and method bodies, found with the code compressor's tree-sitter parse (compress/code/).
// Signatures, declarations, class members, imports and comments stay; what a function does
// line by line is in CCR.
#ifndef CAVEMAN_COMPRESS_DIFF_DIFF_CODE_H_
#define CAVEMAN_COMPRESS_DIFF_DIFF_CODE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "compress/diff/diff_parse.h"

namespace caveman::compress::diff {

// The note on a marker that replaces lines of a function body.
inline constexpr std::string_view kBodyNote = "function body";
// The note on a marker that replaces the rest of a new file's leading licence comment.
inline constexpr std::string_view kLicenceNote = "licence header";

// For a hunk made only of added lines (a new file, or an insertion diffed without
// context) in a supported language: the indices of its added lines that lie inside
// function bodies (possibly none). nullopt when the hunk has other lines, the language is
// not supported, or the added text (the lines still present) does not parse without errors.
std::optional<std::vector<std::size_t>> function_body_lines(
    const std::vector<std::string_view>& lines, const Parsed& p, const Hunk& hunk);

// For a hunk made only of added lines (any language): its leading comment block when it
// mentions a copyright or licence, without the block's first line (which names the holder)
// and without trailing blank lines; empty when there is none of at least 3 lines. A
// shebang line before it stays.
std::vector<std::size_t> licence_header_lines(const std::vector<std::string_view>& lines,
                                              const Parsed& p, const Hunk& hunk);

}  // namespace caveman::compress::diff

#endif  // CAVEMAN_COMPRESS_DIFF_DIFF_CODE_H_
