// Grep output grouped by file (docs/formats.md, "grep output"): each run of grep, ripgrep or
// git grep lines becomes one block that states the paths' shared root once, each file's
// path once, and then that file's hits as "N:TEXT" rows. Deterministic (document order),
// and always checked by decoding it: a view that would not expand to the exact input is
// not produced.
#ifndef CAVEMAN_COMPRESS_FACTOR_GREP_VIEW_H_
#define CAVEMAN_COMPRESS_FACTOR_GREP_VIEW_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// The view of `text`, or nullopt when no run of grep lines gets shorter. Lines for which
// `verbatim` holds are written whole, so their exact text stays in view: inside a block
// when the decoder reads them back as written (grep lines, "--", elision markers), else
// outside it.
std::optional<std::string> grep_view(std::string_view text,
                                     const std::function<bool(std::string_view)>& verbatim = {});

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_GREP_VIEW_H_
