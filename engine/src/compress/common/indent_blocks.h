// A file read's view of nested data (pretty-printed JSON, YAML, TOML tables): the interiors of
// innermost indented blocks hidden, each behind one line that states the lines it hides
// (docs/formats.md#indented-blocks). Every other line is the file's own, so the view is
// edit-safe. Pure function; deterministic.
#ifndef CAVEMAN_COMPRESS_COMMON_INDENT_BLOCKS_H_
#define CAVEMAN_COMPRESS_COMMON_INDENT_BLOCKS_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress {

// A header line followed by lines indented deeper is a block; a block of at least
// kMinBlockLines interior lines none of whose own blocks is that large is innermost. Each
// innermost block's interior becomes `<indent>… lines A–B elided (caveman)` (1-based lines of
// `text`) unless it holds a query word that names few blocks (at most a quarter of them).
// nullopt when nothing is hidden.
inline constexpr std::size_t kMinBlockLines = 6;
std::optional<std::string> elide_indented_blocks(std::string_view text, std::string_view query);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_INDENT_BLOCKS_H_
