// caveman/base/log.h — one spdlog setup for every binary's diagnostics (docs/base.md).
//
// Diagnostics (what a binary notices while working: a disabled feature, a dropped row, an
// unexpected exception, the error line that answers a command) go through spdlog to stderr; a
// command's results, its help and usage text stay on its own streams. A long-running binary
// logs through the default logger (init_logging(), once, from main(), before other threads
// start); a command logs its lines as they are through stream_logger().
#ifndef CAVEMAN_BASE_LOG_H_
#define CAVEMAN_BASE_LOG_H_

#include <functional>
#include <iosfwd>
#include <memory>
#include <string_view>

#include "caveman/base/env.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace caveman::base {

// The environment variable that sets the level: trace, debug, info (default), warn, error,
// critical or off.
inline constexpr std::string_view kLogLevelEnv = "CAVEMAN_LOG_LEVEL";

// Makes spdlog's default logger write `<UTC time> <tool> <level>: <message>` lines to stderr
// at the level $CAVEMAN_LOG_LEVEL names. Calling it again replaces the logger.
void init_logging(std::string_view tool);

// A logger for one command's diagnostic lines — its errors, warnings and notes, which carry
// their own `<tool> <verb>: ` prefix — that writes each message as it is, plus a newline, to
// `err`: the stream the command was handed, so a test reads what a user sees. The level is
// $CAVEMAN_LOG_LEVEL in `env`, as for init_logging(): `error` keeps errors and drops warnings
// and notes.
std::shared_ptr<spdlog::logger> stream_logger(std::ostream& err,
                                              const EnvLookup& env = process_env());

// The body of every main(): init_logging(tool), then `body`'s exit code; an exception that
// escapes it is logged (codes::kInternalError) and becomes kExitError, never a crash.
int guarded_main(std::string_view tool, const std::function<int()>& body);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_LOG_H_
