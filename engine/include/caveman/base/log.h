// caveman/base/log.h — one spdlog setup for every binary's diagnostics (docs/base.md).
//
// Diagnostics (what a binary notices while working: a disabled feature, a dropped row, an
// unexpected exception) go through spdlog to stderr; a command's results and the error line
// that answers it stay on its own streams. Call init_logging() once, from main(), before
// other threads start.
#ifndef CAVEMAN_BASE_LOG_H_
#define CAVEMAN_BASE_LOG_H_

#include <functional>
#include <string_view>

namespace caveman::base {

// The environment variable that sets the level: trace, debug, info (default), warn, error,
// critical or off.
inline constexpr std::string_view kLogLevelEnv = "CAVEMAN_LOG_LEVEL";

// Makes spdlog's default logger write `<UTC time> <tool> <level>: <message>` lines to stderr
// at the level $CAVEMAN_LOG_LEVEL names. Calling it again replaces the logger.
void init_logging(std::string_view tool);

// The body of every main(): init_logging(tool), then `body`'s exit code; an exception that
// escapes it is logged (codes::kInternalError) and becomes kExitError, never a crash.
int guarded_main(std::string_view tool, const std::function<int()>& body);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_LOG_H_
