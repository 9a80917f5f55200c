// Hard-wrapped prose unwrapped (docs/formats.md, "Wrapped prose"): a man page's or a
// Markdown file's paragraphs, filled to a fixed column, written one paragraph per line.
// Lossless by construction: a paragraph is joined only when the greedy fill at the width
// stated in the block's header gives its exact lines back, and the view is decoded and
// compared with its input before it is returned. Deterministic (one width per text, chosen
// by counting, ties to the narrower width).
#ifndef CAVEMAN_COMPRESS_FACTOR_PROSE_VIEW_H_
#define CAVEMAN_COMPRESS_FACTOR_PROSE_VIEW_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// `text` with its wrapped paragraphs unwrapped; nullopt when too few lines join, the text
// already holds a block, or the view would not expand to `text`.
std::optional<std::string> unwrap_view(std::string_view text);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_PROSE_VIEW_H_
