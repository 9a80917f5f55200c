// What `caveman-shrink -- <cmd>` prints: the command's combined output compressed by the
// engine (detect picks log, terminal, search-result…), then one footer line with the exit
// status, the token counts and the recovery handle.
//
// Rules: only the first `window_bytes` (cut at a line end) are compressed; what lies beyond
// is summarized by its error lines and last lines. When the command failed, every error line
// and the last 20 lines must be visible — if the engine's view drops one, a line-keeping view
// replaces it. Binary output (NUL bytes or invalid UTF-8) is never printed. Whenever what is
// shown differs from what the command printed, the exact capture is committed to the
// recovery store first; with no usable store, the capture is printed in full (fail open).
// Deterministic for a given RunResult. Thread-safe when the store is.
#ifndef CAVEMAN_SHRINK_OUTPUT_SHRINK_H_
#define CAVEMAN_SHRINK_OUTPUT_SHRINK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "command_runner.h"

namespace caveman::shrink {

inline constexpr std::size_t kOverflowErrorLines = 200;  // error lines shown from beyond the window

struct OutputShrink {
  std::string text;     // body + footer, ends with '\n'
  std::string handle;   // empty when the capture is shown in full
  std::int64_t tokens_before = 0;  // of the whole capture
  std::int64_t tokens_after = 0;   // of the body shown
  std::string content_type;        // detected type, or "binary"
  bool failure_guard = false;      // the line-keeping view replaced the engine's view
};

OutputShrink shrink_output(const RunResult& run, std::size_t window_bytes, ccr::Store* store,
                           std::string_view store_error, const tokens::Counter& counter);

// "exit 3", "exit 137 (killed by SIGKILL)", "exit 143 (stopped by caveman-shrink after
// 33554432 bytes of output)".
std::string describe_exit(const RunResult& run);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_OUTPUT_SHRINK_H_
