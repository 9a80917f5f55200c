// Decoding factored views (docs/formats.md): every block back into the exact lines it stands
// for, with no recovery store. Elision markers are not blocks; they stay as they are.
#ifndef CAVEMAN_COMPRESS_FACTOR_EXPAND_H_
#define CAVEMAN_COMPRESS_FACTOR_EXPAND_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// `view` with each block replaced by its lines; text without blocks comes back unchanged.
// nullopt when a block is cut short (fewer rows than its header states, a row with too
// few values) — such text was not written by the encoder.
std::optional<std::string> expand_blocks(std::string_view view);

// `view` when it expands back to exactly `text`, else nullopt: every view is checked so before
// it is used (docs/formats.md).
std::optional<std::string> checked_view(std::string view, std::string_view text);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_EXPAND_H_
